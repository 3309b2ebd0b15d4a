"""The gate's config: read from the base ref, validated with messages that say what to fix."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.engine import config
from gate.errors import GateError


def test_defaults_without_any_config(tmp_path: Path) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"a.txt": "a\n"}, {})
    assert config.load(str(repo.path), base) == config.Config()


def test_tool_gate_table_in_pyproject(tmp_path: Path) -> None:
    pyproject = ('[tool.gate]\ntest = "make test"\nruns = 5\ntimeout = 60\n'
                 'test-paths = ["spec/*"]\nstrict = true\nmax-changed-files = 10\n')
    repo, base, _ = make_change(tmp_path / "r", {"pyproject.toml": pyproject}, {})
    cfg = config.load(str(repo.path), base)
    assert cfg == config.Config(test="make test", runs=5, timeout=60.0, test_paths=("spec/*",),
                                strict=True, max_changed_files=10,
                                source=f"pyproject.toml at {base[:12]}")


def test_gate_toml_wins_over_pyproject(tmp_path: Path) -> None:
    repo, base, _ = make_change(tmp_path / "r", {
        "pyproject.toml": "[tool.gate]\nruns = 5\n", ".gate.toml": "runs = 2\n"}, {})
    assert config.load(str(repo.path), base).runs == 2


def test_the_heads_config_is_not_the_one_read(tmp_path: Path) -> None:
    repo, base, head = make_change(tmp_path / "r", {".gate.toml": "runs = 3\n"},
                                   {".gate.toml": 'runs = 1\ntest = "true"\n'})
    assert config.load(str(repo.path), base).runs == 3
    assert config.load(str(repo.path), head).runs == 1


@pytest.mark.parametrize(("table", "message"), [
    ({"runs": 0}, "key 'runs' must be a positive integer, got 0"),
    ({"runs": True}, "key 'runs' must be a positive integer, got True"),
    ({"timeout": "10"}, "key 'timeout' must be a positive number of seconds, got '10'"),
    ({"test-paths": "tests/*"}, "key 'test-paths' must be a list of glob strings"),
    ({"strict": "yes"}, "key 'strict' must be true or false, got 'yes'"),
    ({"tests": "pytest"},
     "unknown key 'tests' in the gate config; did you mean `test`? known keys: "
     "agent-config-paths, cache"),
    ({"max-attempts": 0}, "key 'max-attempts' must be a positive integer (gate submit's"),
    ({"agent-config-paths": "prompts/*"},
     "key 'agent-config-paths' must be a list of globs (more files that steer the agents)"),
    ({"network": "no"}, """key 'network' must be "on" or "off", got 'no'"""),
    ({"isolation": "on"},
     """key 'isolation' must be "auto", "required" or "off", got 'on'; fix it on the base"""),
    ({"tmp-size-mb": 0}, "key 'tmp-size-mb' must be a positive integer (MiB), got 0"),
    ({"checks": [{"name": "lint"}]}, "key 'checks' must be a list of tables"),
    ({"checks": [{"name": "a", "run": "x"}, {"name": "a", "run": "y"}]},
     "with `name` and `run` (strings), optional `required` (true or false), `timeout` "
     '(seconds) and `kind` ("lint", "typecheck", "build" or "other"); names unique, got'),
    ({"checks": [{"name": "a", "run": "x", "kind": "test"}]}, "key 'checks' must be"),
    ({"checks": [{"name": "a", "run": "x", "required": "no"}]}, "key 'checks' must be"),
    ({"checks": [{"name": "a", "run": "x", "retries": 2}]}, "key 'checks' must be"),
])
def test_invalid_values_name_the_key_and_the_fix(table: dict[str, object], message: str) -> None:
    with pytest.raises(GateError, match=r"^\.gate\.toml: ") as info:
        config.parse(table, ".gate.toml")
    assert message in str(info.value)


@pytest.mark.parametrize(("key", "hint"), [
    ("run", "did you mean `runs`? "), ("test_paths", "did you mean `test-paths`? "),
    ("forbiden-paths", "did you mean `forbidden-paths`? "), ("instal", "did you mean `install`? "),
    ("colour", "")])
def test_an_unknown_key_names_the_nearest_known_one(key: str, hint: str) -> None:
    with pytest.raises(GateError) as info:
        config.parse({key: 1}, ".gate.toml")
    assert str(info.value) == (
        f".gate.toml: unknown key {key!r} in the gate config; {hint}known keys: "
        "agent-config-paths, cache, checks, forbidden-paths, install, isolation, keep, "
        "max-attempts, max-changed-files, network, parallel, pinned, pinned-mutants, "
        "pinned-time, runs, strict, test, test-paths, timeout, tmp-size-mb, varied-run")


def test_tool_gate_that_is_not_a_table(tmp_path: Path) -> None:
    repo, base, _ = make_change(tmp_path / "r", {"pyproject.toml": '[tool]\ngate = "x"\n'}, {})
    with pytest.raises(GateError) as info:
        config.load(str(repo.path), base)
    assert str(info.value) == (
        f"pyproject.toml at {base[:12]}: `gate` under [tool] must be a table ([tool.gate] with "
        "keys such as `runs = 3`), got 'x'; fix it on the base branch")


def test_user_checks_and_network() -> None:
    cfg = config.parse({"network": "off", "checks": [
        {"name": "build", "run": "make"},
        {"name": "lint", "run": "ruff check .", "required": False, "timeout": 30}]}, "t")
    assert cfg.network == "off"
    assert (cfg.isolation, cfg.tmp_size_mb) == ("auto", 4096)
    assert config.parse({"isolation": "required", "tmp-size-mb": 64}, "t").isolation == "required"
    assert cfg.checks == (config.UserCheck("build", "make"),
                          config.UserCheck("lint", "ruff check .", False, 30.0))
