"""`gate mcp`: the tools listed and called through the MCP SDK's own client, over a real
stdio session with `python -m gate mcp`."""
from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.gitrepo import Repo, isolated_home, make_change
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

Call = Callable[[ClientSession], Awaitable[Any]]


def in_session(cwd: Path, call: Call, *server_args: str) -> Any:
    """`call` on a session with a fresh `gate mcp` server, started in `cwd`."""
    async def run() -> Any:
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "gate", "mcp", *server_args],
                                       cwd=str(cwd), env=dict(os.environ))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return await call(s)
    return anyio.run(run)


class Answers:
    """One session's answers, shared by the fast tests (a server takes seconds to start)."""

    def __init__(self, tools: list[Any], explained: Any, unknown: Any, cheat: Any,
                 honest: Any, head: str, uncommitted: Any) -> None:
        self.tools = {t.name: t for t in tools}
        self.explained, self.unknown, self.cheat, self.honest = explained, unknown, cheat, honest
        self.head, self.uncommitted = head, uncommitted


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Answers:
    tmp = tmp_path_factory.mktemp("mcp")
    with isolated_home(tmp / "home"):
        return _answers(tmp)


def _answers(tmp: Path) -> Answers:
    cheat, _, head = make_change(tmp / "cheat", {"a.py": "x = 1\n"},
                                 {"a.py": "x = 1\ny = 2  # type: ignore\n"})
    honest, _, _ = make_change(tmp / "honest", {"a.py": "x = 1\n"}, {"a.py": "x = 1\ny = 2\n"})
    work, _, _ = make_change(tmp / "work", {"a.py": "x = 1\n"}, {})
    work.write({"b.py": "z = 3  # noqa\n"})  # not committed, not staged

    async def calls(s: ClientSession) -> Answers:
        return Answers(
            (await s.list_tools()).tools,
            await s.call_tool("explain", {"check_id": "escapes"}),
            await s.call_tool("explain", {"check_id": "no-such-check"}),
            await s.call_tool("scan", {"base": "main", "head": "change",
                                       "repo": str(cheat.path)}),
            await s.call_tool("scan", {"base": "main", "head": "change",
                                       "repo": str(honest.path)}),
            head,
            await s.call_tool("scan", {"base": "main", "repo": str(work.path)}))
    result: Answers = in_session(tmp, calls)
    return result


def test_the_tools_are_listed_with_typed_inputs_and_outputs(answers: Answers) -> None:
    tools = answers.tools
    assert set(tools) == {"submit", "scan", "explain"}
    submit = tools["submit"]
    assert submit.input_schema["required"] == ["base"]
    assert set(submit.input_schema["properties"]) == {
        "base", "repo", "branch", "message", "max_attempts", "open_pr", "quick"}
    assert submit.output_schema is not None
    assert set(submit.output_schema["required"]) == {
        "verdict", "attempt", "attempts_left", "fault", "branch", "head", "feedback",
        "exit_code"}
    assert tools["explain"].input_schema["properties"]["check_id"]["type"] == "string"
    scan = tools["scan"].output_schema
    assert scan is not None and set(scan["required"]) == {"verdict", "head", "findings",
                                                          "feedback"}


def test_explain_answers_with_the_checks_text(answers: Answers) -> None:
    good, bad = answers.explained, answers.unknown
    assert not good.is_error
    assert good.structured_content["id"] == "escapes"
    assert good.structured_content["title"] == "No new type or lint escapes"
    assert "Resolve it by fixing the underlying error" in good.structured_content["explanation"]
    assert bad.is_error
    assert "unknown check 'no-such-check'" in bad.content[0].text


def test_scan_returns_the_findings_at_file_and_line(answers: Answers) -> None:
    assert not answers.cheat.is_error
    found = answers.cheat.structured_content
    assert (found["verdict"], found["head"]) == ("needs-review", answers.head)
    [finding] = found["findings"]
    assert {k: finding[k] for k in ("check", "path", "line", "rule")} == {
        "check": "escapes", "path": "a.py", "line": 2, "rule": "type: ignore"}
    assert "a.py:2:" in found["feedback"]


def test_its_honest_twin_scans_clean(answers: Answers) -> None:
    found = answers.honest.structured_content
    assert (found["verdict"], found["findings"]) == ("pass", [])


@pytest.mark.slow
def test_submit_judges_the_working_tree_and_counts_the_attempt(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "g")
    repo.commit({".gate.toml": 'install = "true"\ntest = "grep -qx 2 answer.txt"\nruns = 1\n',
                 "answer.txt": "2\n"}, "base")
    repo.branch("work")
    repo.write({"answer.txt": "3\n"})

    async def submitted(s: ClientSession) -> Any:
        first = await s.call_tool("submit", {"base": "main", "max_attempts": 2})
        repo.write({"answer.txt": "2\n"})
        second = await s.call_tool("submit", {"base": "main", "max_attempts": 2})
        third = await s.call_tool("submit", {"base": "main", "max_attempts": 2})
        return first, second, third
    first, second, third = (r.structured_content for r in in_session(repo.path, submitted))
    assert (first["verdict"], first["exit_code"], first["attempt"]) == ("fail", 1, 1)
    assert "1. suite (failed, required): 0 of 1 runs passed" in first["feedback"]
    assert (second["verdict"], second["exit_code"], second["attempts_left"]) == ("pass", 0, 0)
    assert second["head"] == repo.git("rev-parse", "gate/submit/work").strip()
    assert (third["exit_code"], third["verdict"]) == (5, "pass")
    assert "A person must look" in third["feedback"]


@pytest.mark.slow
def test_the_harness_fixes_the_cap_for_the_servers_life(tmp_path: Path) -> None:
    """`gate mcp --max-attempts 1`: the tool's larger `max_attempts` is refused (judged
    nothing), a new branch name starts no new count (issue 39)."""
    repo = Repo(tmp_path / "g")
    repo.commit({".gate.toml": 'install = "true"\ntest = "grep -qx 2 answer.txt"\nruns = 1\n',
                 "answer.txt": "2\n"}, "base")
    repo.branch("work")
    repo.write({"answer.txt": "3\n"})

    async def submitted(s: ClientSession) -> Any:
        larger = await s.call_tool("submit", {"base": "main", "max_attempts": 3})
        first = await s.call_tool("submit", {"base": "main"})
        renamed = await s.call_tool("submit", {"base": "main", "branch": "try/again"})
        return larger, first, renamed
    larger, first, renamed = (r.structured_content
                              for r in in_session(repo.path, submitted, "--max-attempts", "1"))
    assert larger["exit_code"] == 2
    assert "more than the cap of 1 (fixed by whoever started `gate mcp" in larger["feedback"]
    assert (first["verdict"], first["attempt"], first["attempts_left"]) == ("fail", 1, 0)
    assert (renamed["exit_code"], renamed["attempt"]) == (5, 1)


@pytest.mark.slow
def test_submit_quick_is_the_quick_check_and_no_attempt(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "g")
    repo.commit({".gate.toml": 'install = "true"\ntest = "grep -qx 2 answer.txt"\n\n'
                               '[[checks]]\nname = "lint"\nrun = "grep -qx 3 answer.txt"\n'
                               'kind = "lint"\n', "answer.txt": "2\n"}, "base")
    repo.branch("work")
    repo.write({"answer.txt": "3\n"})  # the suite would fail; the quick check runs no tests

    async def submitted(s: ClientSession) -> Any:
        return await s.call_tool("submit", {"base": "main", "quick": True})
    found = in_session(repo.path, submitted).structured_content
    assert (found["verdict"], found["exit_code"], found["attempt"], found["attempts_left"]) == (
        "pass", 4, 0, 3)
    assert found["feedback"].startswith("gate submit --quick: pass for branch gate/submit/work")


def test_scan_without_a_head_judges_the_working_tree(answers: Answers) -> None:
    found = answers.uncommitted.structured_content
    assert found["verdict"] == "needs-review"
    assert [(f["path"], f["line"], f["rule"]) for f in found["findings"]] == [
        ("b.py", 1, "noqa")]
    assert found["feedback"].startswith("gate scan: needs-review for the working tree against ")
