"""The README, the docs/ pages, `gate explain` and the check registry stay in step."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from gate import cli
from gate.checks import registry
from tests.helpers.gitrepo import Repo

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CHECKS_PAGE = (ROOT / "docs" / "checks.md").read_text()


def test_checks_are_in_the_order_of_the_design() -> None:
    assert registry.ORDER == ("install", "suite", "base-tests", "pinned", "tests-removed",
                              "skip-markers", "escapes", "check-config", "harness", "agent-config",
                              "lockfiles", "diff-policy")


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_each_id_names_the_module_that_declares_it(check_id: str) -> None:
    assert check_id == registry.check(check_id).ID


def test_runtime_and_diff_checks_split_the_order() -> None:
    assert registry.RUNTIME + registry.DIFF == registry.ORDER
    assert registry.RUNTIME == ("install", "suite", "base-tests", "pinned")


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_every_check_has_a_section_in_the_checks_page(check_id: str) -> None:
    assert f"\n## `{check_id}`\n\n*{registry.title(check_id)}*\n\n" in CHECKS_PAGE


def test_the_checks_page_is_generated_from_the_registry() -> None:
    """docs/checks.md is what docs/generate_checks.py writes now: run it after editing a
    check's TITLE or EXPLANATION."""
    spec = importlib.util.spec_from_file_location("generate_checks",
                                                  ROOT / "docs" / "generate_checks.py")
    assert spec and spec.loader
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert generator.render() == CHECKS_PAGE


def test_the_readme_fits_a_screen_and_links_every_page() -> None:
    assert len(README.splitlines()) < 200
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert pages == ["action.md", "agents.md", "api.md", "architecture.md", "checks.md", "cli.md",
                     "configuration.md",
                     "design-choices.md", "evidence.md", "how-it-works.md", "isolation.md",
                     "performance.md", "pr-page.md", "pre-commit.md"]
    for page in pages:
        assert f"](docs/{page})" in README, page
    assert "The house" in README


def test_the_readme_starts_with_the_demo_and_the_ci_script() -> None:
    setup = README.split("\n## Set-up\n", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in setup.splitlines() if line.startswith("    ")]
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/gate demo",
        "bash .ci/run"]


def test_links_between_the_pages_resolve() -> None:
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith(("http://", "https://")):
                assert (page.parent / target).exists(), f"{page.name}: {target}"


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_explain_prints_title_and_explanation(
    check_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["explain", check_id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{check_id}: {registry.title(check_id)}\n")
    assert registry.explanation(check_id) in out


def test_explain_rejects_an_unknown_check(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    assert cli.main(["explain", "no-such-check", "--repo", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "gate: error: no check or rule called 'no-such-check': the checks are "
        f"{', '.join(registry.ORDER)}; the user check kinds are lint, typecheck, build, "
        "other; a finding's line names its check before its message "
        "(`path:line: CHECK-ID: message [rule]`)\n")


def test_explain_knows_the_user_checks_of_the_repository(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The report's footer suggests `gate explain` for every check, user checks included."""
    repo = Repo(tmp_path / "r")
    repo.commit({".gate.toml": '[[checks]]\nname = "lint"\nrun = "ruff check ."\n'
                               "required = false\n"})
    assert cli.main(["explain", "lint", "--repo", str(repo.path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("lint: a user check, `ruff check .` (optional: reported, never "
                          "changes the verdict; kind lint)\n")
    assert "Resolve: run `ruff check .` in your checkout" in out
    assert cli.main(["explain", "typos", "--repo", str(repo.path)]) == 2
    assert capsys.readouterr().err.endswith(
        ", diff-policy, lint; the user check kinds are lint, typecheck, build, other; a "
        "finding's line names its check before its message "
        "(`path:line: CHECK-ID: message [rule]`)\n")


def test_every_exit_code_is_documented() -> None:
    for row in ("| 0 | pass |", "| 1 | fail:", "| 2 | the gate could not judge",
                "| 3 | needs-review:", "| 130 / 143 |"):
        assert row in README
