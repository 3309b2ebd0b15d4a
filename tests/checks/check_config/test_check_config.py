from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks.check_config import check as check_config
from gate.engine import config
from gate.engine.context import DiffContext
from gate.models import CheckResult
from gate.vcs import diff


def _run(tmp_path: Path, base: Mapping[str, str | None],
         head: Mapping[str, str | None]) -> CheckResult:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return check_config.run(ctx)


def _found(result: CheckResult) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.rule) for f in result.findings]


def _messages(result: CheckResult) -> list[str]:
    return [f.message for f in result.findings]


PYPROJECT = """\
[project]
name = "x"
version = "1.0"

[tool.pytest.ini_options]
addopts = "-ra"
testpaths = ["tests"]

[tool.mypy]
strict = true

[tool.ruff.lint]
select = ["E", "F"]

[tool.coverage.report]
fail_under = 90
"""


# --- pyproject.toml ---------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "line", "rule", "message"), [
    ('addopts = "-ra"', 'addopts = "-ra -k fast"', 6, "pytest-config",
     '[tool.pytest] ini_options.addopts: "-ra" -> "-ra -k fast"'),
    ("strict = true", "strict = false", 10, "mypy-config", "[tool.mypy] strict: true -> false"),
    ('select = ["E", "F"]', 'select = ["E"]', 13, "ruff-config",
     '[tool.ruff] lint.select: ["E", "F"] -> ["E"]'),
    ("fail_under = 90", "fail_under = 0", 16, "coverage-config",
     "[tool.coverage] report.fail_under: 90 -> 0"),
])
def test_pyproject_tool_key_changed(tmp_path: Path, old: str, new: str, line: int, rule: str,
                                    message: str) -> None:
    result = _run(tmp_path, {"pyproject.toml": PYPROJECT},
                  {"pyproject.toml": PYPROJECT.replace(old, new)})
    assert _found(result) == [("pyproject.toml", line, rule)]
    assert _messages(result)[0].startswith(message)
    assert result.findings[0].severity == "warning"


def test_pyproject_key_added_and_removed(tmp_path: Path) -> None:
    head = PYPROJECT.replace('testpaths = ["tests"]\n', "").replace(
        "strict = true\n", 'strict = true\nexclude = ["src/legacy"]\n')
    result = _run(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": head})
    assert _found(result) == [("pyproject.toml", 5, "pytest-config"),
                              ("pyproject.toml", 10, "mypy-config")]
    assert _messages(result) == [
        '[tool.pytest] ini_options.testpaths: ["tests"] -> (unset); '
        "this setting decides what the checks catch",
        '[tool.mypy] exclude: (unset) -> ["src/legacy"]; '
        "this setting decides what the checks catch",
    ]


def test_pyproject_gate_table_is_ignored_for_this_run(tmp_path: Path) -> None:
    base = PYPROJECT + "\n[tool.gate]\nruns = 3\n"
    result = _run(tmp_path, {"pyproject.toml": base},
                  {"pyproject.toml": base.replace("runs = 3", "runs = 1")})
    assert _found(result) == [("pyproject.toml", 19, "gate-config")]
    assert _messages(result) == [
        "[tool.gate] runs: 3 -> 1; ignored for this run: the gate reads its config from the base"
    ]


REFORMATTED = """\
[project]
name = "x"
version = "1.0"

[tool.pytest]
ini_options = { addopts = '-ra', testpaths = [
    "tests",
] }

[tool]
mypy.strict = true  # unchanged value, written differently
ruff = { lint = { select = ['E', 'F'] } }
coverage.report.fail_under = 90
"""


@pytest.mark.parametrize("head", [
    REFORMATTED,
    PYPROJECT.replace('version = "1.0"', 'version = "2.0"'),
    PYPROJECT + "\n[tool.black]\nline-length = 80\n",
], ids=["reformatted", "project-version", "other-tool"])
def test_pyproject_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    result = _run(tmp_path, {"pyproject.toml": PYPROJECT}, {"pyproject.toml": head})
    assert _found(result) == []
    assert result.status == "passed"


def test_pyproject_that_does_not_parse_is_one_finding(tmp_path: Path) -> None:
    result = _run(tmp_path, {"pyproject.toml": PYPROJECT},
                  {"pyproject.toml": PYPROJECT + "[tool.mypy\n"})
    # at the line the parser names: the broken header, after the base's lines
    line = len(PYPROJECT.splitlines()) + 1
    assert _found(result) == [("pyproject.toml", line, "config-unparsable")]
    assert _messages(result)[0].startswith("pyproject.toml does not parse at head (")


# --- ini files --------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "base", "head", "line", "rule"), [
    ("pytest.ini", "[pytest]\naddopts = -ra\n", "[pytest]\naddopts = -ra -x\n", 2,
     "pytest-config"),
    ("tox.ini", "[tox]\nenvlist = py\n\n[pytest]\nmarkers =\n    slow\n",
     "[tox]\nenvlist = py\n\n[pytest]\nmarkers =\n    slow\naddopts = -m 'not slow'\n", 7,
     "pytest-config"),
    ("tox.ini", "[testenv]\ncommands = pytest\n", "[testenv]\ncommands = pytest -k fast\n", 2,
     "tox-config"),
    ("setup.cfg", "[tox:tox]\nenvlist = py\n\n[testenv]\ncommands = pytest\n",
     "[tox:tox]\nenvlist = py\n\n[testenv]\ncommands = pytest tests/unit\n", 5, "tox-config"),
    ("setup.cfg", "[tool:pytest]\ntestpaths = tests\n", "[tool:pytest]\ntestpaths = tests/unit\n",
     2, "pytest-config"),
    ("setup.cfg", "[mypy]\nstrict = True\n", "[mypy]\nstrict = False\n", 2, "mypy-config"),
    ("setup.cfg", "[flake8]\nmax-line-length = 100\n",
     "[flake8]\nmax-line-length = 100\nextend-ignore = E501\n", 3, "flake8-config"),
    (".coveragerc", "[report]\nfail_under = 90\n", "[report]\nfail_under = 10\n", 2,
     "coverage-config"),
    ("mypy.ini", "[mypy]\n\n[mypy-legacy.*]\nstrict = True\n",
     "[mypy]\n\n[mypy-legacy.*]\nignore_errors = True\nstrict = True\n", 4, "mypy-config"),
])
def test_ini_option_changed(tmp_path: Path, path: str, base: str, head: str, line: int,
                            rule: str) -> None:
    assert _found(_run(tmp_path, {path: base}, {path: head})) == [(path, line, rule)]


# --- pytest.toml (pytest 9) ------------------------------------------------------------------

def test_pytest_toml_pythonpath_putting_a_shim_first_is_flagged(tmp_path: Path) -> None:
    head = '[pytest]\ntestpaths = ["tests"]\npythonpath = ["shim", "."]\n'
    result = _run(tmp_path, {"pytest.toml": '[pytest]\ntestpaths = ["tests"]\n'},
                  {"pytest.toml": head, "shim/calc.py": "def add(a, b):\n    return 5\n"})
    assert _found(result) == [("pytest.toml", 3, "pytest-config")]
    assert "pythonpath" in _messages(result)[0]


def test_a_new_dot_pytest_toml_is_flagged_and_a_comment_is_not(tmp_path: Path) -> None:
    assert _found(_run(tmp_path, {}, {".pytest.toml": '[pytest]\naddopts = ["-x"]\n'})) == [
        (".pytest.toml", 2, "pytest-config")]
    same = '[pytest]\n# the tests\ntestpaths = ["tests"]\n'
    assert _found(_run(tmp_path / "2", {"pytest.toml": '[pytest]\ntestpaths = ["tests"]\n'},
                       {"pytest.toml": same})) == []


def test_ini_message_shows_old_and_new(tmp_path: Path) -> None:
    result = _run(tmp_path, {"pytest.ini": "[pytest]\naddopts = -ra\n"},
                  {"pytest.ini": "[pytest]\naddopts = -ra -x\n"})
    assert _messages(result) == [
        '[pytest] addopts: "-ra" -> "-ra -x"; this setting decides what the checks catch'
    ]


@pytest.mark.parametrize(("path", "base", "head"), [
    ("setup.cfg", "[tool:pytest]\naddopts = -ra --strict-markers\n",
     "[tool:pytest]\naddopts =\n    -ra\n    --strict-markers\n\n# a comment\n"),
    ("setup.cfg", "[metadata]\nname = x\nversion = 1\n", "[metadata]\nname = x\nversion = 2\n"),
    ("tox.ini", "[tox]\nenvlist = py39\n", "[tox]\nenvlist = py39,py312\n"),
])
def test_ini_honest_changes_raise_nothing(tmp_path: Path, path: str, base: str,
                                          head: str) -> None:
    assert _found(_run(tmp_path, {path: base}, {path: head})) == []


def test_ini_that_does_not_parse_is_one_finding(tmp_path: Path) -> None:
    result = _run(tmp_path, {"pytest.ini": "[pytest]\naddopts = -ra\n"},
                  {"pytest.ini": "addopts = -ra\n"})
    assert _found(result) == [("pytest.ini", 1, "config-unparsable")]


# --- the gate's own config --------------------------------------------------------------------

def test_gate_toml_added(tmp_path: Path) -> None:
    result = _run(tmp_path, {"a.py": "x = 1\n"},
                  {".gate.toml": "# relax\nruns = 1\nforbidden-paths = []\n"})
    assert _found(result) == [(".gate.toml", 2, "gate-config"), (".gate.toml", 3, "gate-config")]
    assert _messages(result) == [
        "runs: (unset) -> 1; " + check_config.GATE_NOTE,
        "forbidden-paths: (unset) -> []; " + check_config.GATE_NOTE,
    ]


def test_gate_toml_reformatted_raises_nothing(tmp_path: Path) -> None:
    result = _run(tmp_path, {".gate.toml": "runs = 3\nstrict = true\n"},
                  {".gate.toml": "# same values\nstrict=true\nruns    = 3\n"})
    assert _found(result) == []


# --- package.json and test runner configs ----------------------------------------------------

PACKAGE = """\
{
  "name": "x",
  "version": "1.0.0",
  "scripts": {
    "start": "node index.js",
    "test": "jest"
  },
  "jest": {
    "testPathIgnorePatterns": ["/node_modules/"]
  }
}
"""


def test_package_test_script_changed(tmp_path: Path) -> None:
    head = PACKAGE.replace('"test": "jest"', '"test": "jest --passWithNoTests || true"')
    result = _run(tmp_path, {"package.json": PACKAGE}, {"package.json": head})
    assert _found(result) == [("package.json", 6, "package-scripts")]
    assert _messages(result) == [
        'script "test": "jest" -> "jest --passWithNoTests || true"; '
        "this setting decides what the checks catch"
    ]


def test_package_jest_key_changed_and_lint_script_added(tmp_path: Path) -> None:
    head = PACKAGE.replace('["/node_modules/"]', '["/node_modules/", "/tests/slow/"]').replace(
        '"test": "jest"', '"test": "jest",\n    "lint": "true"')
    result = _run(tmp_path, {"package.json": PACKAGE}, {"package.json": head})
    assert _found(result) == [("package.json", 7, "package-scripts"),
                              ("package.json", 10, "test-runner-config")]


@pytest.mark.parametrize("head", [
    PACKAGE.replace('"version": "1.0.0"', '"version": "1.1.0"'),
    PACKAGE.replace('"start": "node index.js"', '"start": "node server.js"'),
    '{"name": "x", "version": "1.0.0", "scripts": {"start": "node index.js", "test": "jest"},'
    ' "jest": {"testPathIgnorePatterns": ["/node_modules/"]}}\n',
], ids=["version", "start-script", "reformatted"])
def test_package_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    assert _found(_run(tmp_path, {"package.json": PACKAGE}, {"package.json": head})) == []


def test_package_json_that_does_not_parse(tmp_path: Path) -> None:
    result = _run(tmp_path, {"package.json": PACKAGE}, {"package.json": PACKAGE + "}"})
    assert _found(result) == [("package.json", len(PACKAGE.splitlines()) + 1,
                               "config-unparsable")]


def test_vendored_package_json_is_not_config(tmp_path: Path) -> None:
    path = "node_modules/left-pad/package.json"
    result = _run(tmp_path, {path: PACKAGE}, {path: PACKAGE.replace("jest", "mocha")})
    assert _found(result) == []


@pytest.mark.parametrize(("path", "base", "head", "line"), [
    ("jest.config.js", "module.exports = {\n};\n", "module.exports = {\n  bail: 0,\n};\n", 2),
    ("web/vitest.config.ts", None, "export default {};\n", 1),
    (".mocharc.yml", "spec: test\n", None, 1),
    ("playwright.config.ts", "a\nb\n", "a\nb\nc\n", 3),
])
def test_runner_config_file_changed(tmp_path: Path, path: str, base: str | None,
                                    head: str | None, line: int) -> None:
    base_files = {"x.txt": "x\n"} if base is None else {path: base}
    result = _run(tmp_path, base_files, {path: head})
    assert _found(result) == [(path, line, "test-runner-config")]


# --- conftest.py ------------------------------------------------------------------------------

@pytest.mark.parametrize(("added", "name"), [
    ('collect_ignore = ["tests/test_slow.py"]', "collect_ignore"),
    ('collect_ignore_glob = ["*_slow.py"]', "collect_ignore_glob"),
    ("def pytest_collection_modifyitems(items): items.clear()", "pytest_collection_modifyitems"),
    ("def pytest_ignore_collect(collection_path): return True", "pytest_ignore_collect"),
    ("def pytest_runtest_makereport(item, call): pass", "pytest_runtest_makereport"),
    ("def pytest_report_teststatus(report): pass", "pytest_report_teststatus"),
    ("def pytest_sessionfinish(session): session.exitstatus = 0", "pytest_sessionfinish"),
    ("import sys; sys.exit(0)", "sys.exit"),
    ("import os; os._exit(0)", "os._exit"),
])
def test_conftest_collection_and_reporting_hooks(tmp_path: Path, added: str, name: str) -> None:
    base = {"tests/conftest.py": "import pytest\n"}
    result = _run(tmp_path, base, {"tests/conftest.py": f"import pytest\n{added}\n"})
    assert _found(result) == [("tests/conftest.py", 2, "conftest-hook")]
    assert _messages(result)[0].startswith(f"conftest.py adds `{name}`:")


@pytest.mark.parametrize("added", [
    '"""collect_ignore is documented in pytest"""',
    "# pytest_collection_modifyitems could go here",
    "@pytest.fixture\ndef db():\n    return {}",
    'msg = "do not call sys.exit(1) in tests"',
])
def test_conftest_honest_changes_raise_nothing(tmp_path: Path, added: str) -> None:
    result = _run(tmp_path, {"conftest.py": "import pytest\n"},
                  {"conftest.py": f"import pytest\n{added}\n"})
    assert _found(result) == []


def test_conftest_hook_already_at_base_is_not_flagged(tmp_path: Path) -> None:
    base = {"conftest.py": "collect_ignore = ['a']\n\n\ndef x():\n    pass\n"}
    head = {"conftest.py": "collect_ignore = ['a']\n\n\ndef x():\n    return 1\n"}
    assert _found(_run(tmp_path, base, head)) == []


# --- workflows --------------------------------------------------------------------------------

WORKFLOW = """\
name: ci
on:
  push:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: pip install -e .
      - run: pytest -q
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: ruff check .
"""


@pytest.mark.parametrize(("head", "line", "message"), [
    (WORKFLOW.replace("  pull_request:\n", ""), 2, "trigger `pull_request` removed"),
    (WORKFLOW.split("  lint:")[0], 5, "job `lint` removed"),
    (WORKFLOW.replace("      - name: Install\n        run: pip install -e .\n", ""), 8,
     "job `test`: step `name Install` removed"),
    (WORKFLOW.replace("pytest -q", "pytest -q || true"), 12,
     'job `test`: step 3 (run "pytest -q"): run "pytest -q" -> "pytest -q || true"'),
    (WORKFLOW.replace("  lint:\n    runs-on: ubuntu-latest\n",
                      "  lint:\n    runs-on: ubuntu-latest\n    continue-on-error: true\n"), 15,
     "job `lint`: continue-on-error (unset) -> true: a failure here no longer fails the run"),
    (WORKFLOW.replace("      - name: Install\n",
                      "      - name: Install\n        if: github.actor != 'bot'\n"), 11,
     "job `test`: step `name Install`: if (unset) -> \"github.actor != 'bot'\": "
     "the condition decides whether it runs at all"),
], ids=["trigger", "job", "step", "run", "continue-on-error", "if"])
def test_workflow_weakened(tmp_path: Path, head: str, line: int, message: str) -> None:
    path = ".github/workflows/ci.yml"
    result = _run(tmp_path, {path: WORKFLOW}, {path: head})
    assert _found(result) == [(path, line, "workflow")]
    assert _messages(result) == [message]


@pytest.mark.parametrize("head", [
    "# the CI workflow\n" + WORKFLOW.replace("      - run: pytest -q\n",
                                             "      # the suite\n      - run: pytest -q\n"),
    WORKFLOW.replace("actions/checkout@v4", "actions/checkout@v5"),
    WORKFLOW.replace("    runs-on: ubuntu-latest\n    steps:\n      - run: ruff",
                     "    runs-on: ubuntu-24.04\n    steps:\n      - run: ruff"),
    WORKFLOW + "  docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make docs\n",
    # issue 23: steps still there, read as removed: one gained a name, one lost its id
    WORKFLOW.replace("      - run: pytest -q\n", "      - name: Test\n        run: pytest -q\n"),
    WORKFLOW.replace("      - uses: actions/checkout@v4\n",
                     "      - name: Check out\n        uses: actions/checkout@v4\n"),
    WORKFLOW.replace("      - name: Install\n", "      - id: install\n"),
], ids=["comments", "action-version", "runner", "job-added", "step-named", "uses-named",
        "name-to-id"])
def test_workflow_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    path = ".github/workflows/ci.yaml"
    assert _found(_run(tmp_path, {path: WORKFLOW}, {path: head})) == []


def test_step_whose_id_was_deleted_is_still_there(tmp_path: Path) -> None:
    path = ".github/workflows/ci.yml"
    base = WORKFLOW.replace("      - run: pytest -q\n",
                            "      - id: suite\n        run: pytest -q\n")
    assert _found(_run(tmp_path, {path: base}, {path: WORKFLOW})) == []
    # its cheating twin: the step's command changed as its id went (the same step, by its
    # place between the same neighbours)
    head = WORKFLOW.replace("pytest -q", "pytest -q || true")
    assert _messages(_run(tmp_path / "twin", {path: base}, {path: head})) == [
        'job `test`: step `id suite`: run "pytest -q" -> "pytest -q || true"']


def test_workflow_deleted_and_unparsable(tmp_path: Path) -> None:
    base = {".github/workflows/a.yml": WORKFLOW, ".github/workflows/b.yml": WORKFLOW}
    head = {".github/workflows/a.yml": None, ".github/workflows/b.yml": "jobs: [\n"}
    result = _run(tmp_path, base, head)
    assert _found(result) == [(".github/workflows/a.yml", 1, "workflow"),
                              (".github/workflows/b.yml", 2, "config-unparsable")]


ACTION = """\
name: setup
runs:
  using: composite
  steps:
    - run: make test
      shell: bash
"""


def test_composite_action_run_changed_and_script_changed(tmp_path: Path) -> None:
    base = {".github/actions/setup/action.yml": ACTION, ".github/actions/setup/run.sh": "a\n"}
    head = {".github/actions/setup/action.yml": ACTION.replace("make test", "make build"),
            ".github/actions/setup/run.sh": "a\nexit 0\n"}
    result = _run(tmp_path, base, head)
    assert _found(result) == [(".github/actions/setup/action.yml", 5, "workflow"),
                              (".github/actions/setup/run.sh", 2, "workflow")]


def test_binary_and_unrelated_files_raise_nothing(tmp_path: Path) -> None:
    repo, base_sha, _ = make_change(tmp_path / "repo", {"README.md": "x\n"},
                                    {"README.md": "y\n", "src/app.py": "x = 1\n"})
    (repo.path / "jest.config.bin").write_bytes(b"\x00\x01\x02")
    head_sha = repo.commit({}, "binary")
    files = diff.changed_files(str(repo.path), base_sha, head_sha)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=files)
    assert [f.path for f in files if f.binary] == ["jest.config.bin"]
    assert _found(check_config.run(ctx)) == []


# --- readable changes (issue 24) -----------------------------------------------------------------

TOX = ("[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    pytest>=7\n    pytest-cov\n"
       "    coverage[toml]\n    hypothesis>=6.0\n    sphinx\n    furo\n    numpy>=1.24\n"
       "    https://github.com/astropy/pytest-doctestplus/archive/main.zip\n"
       "    scipy\ncommands = pytest {posargs}\n")


def test_long_tox_value_changed_in_its_middle_is_shown_and_pinned_where_it_changed(
        tmp_path: Path) -> None:
    head = TOX.replace("astropy/pytest-doctestplus/archive/main.zip",
                       "astropy/pytest-doctestplus/archive/mainzip")
    result = _run(tmp_path, {"tox.ini": TOX}, {"tox.ini": head})
    assert _found(result) == [("tox.ini", 13, "tox-config")]  # the URL's line, not `deps =`'s
    message = _messages(result)[0]
    assert "archive/main.zip" in message and "archive/mainzip" in message
    old, new = message.split(" -> ")
    assert old != new.split(";")[0]


def test_removed_keys_are_pinned_at_a_changed_line(tmp_path: Path) -> None:
    base = "[tool.pytest.ini_options]\naddopts = '-q'\ntestpaths = ['tests']\n"
    head = "[tool.pytest.ini_options]\naddopts = '-q -x'\n"
    assert _found(_run(tmp_path, {"pyproject.toml": base}, {"pyproject.toml": head})) == [
        ("pyproject.toml", 2, "pytest-config"), ("pyproject.toml", 2, "pytest-config")]


def test_a_restructure_is_one_finding_at_a_changed_line(tmp_path: Path) -> None:
    keys = [f"opt{i}" for i in range(10)]
    base = "[tool.ruff]\n" + "".join(f"{k} = {i}\n" for i, k in enumerate(keys))
    head = "# moved under lint\n[tool.ruff.lint]\n" + "".join(
        f"{k} = {i}\n" for i, k in enumerate(keys))
    result = _run(tmp_path, {"pyproject.toml": base}, {"pyproject.toml": head})
    assert _found(result) == [("pyproject.toml", 1, "ruff-config")]
    assert _messages(result)[0].startswith("20 settings changed at once (a restructure): ")


# --- lint configs that were not read (issue 23) ---------------------------------------------------

def test_lint_rule_turned_off_in_package_json_xo_key(tmp_path: Path) -> None:
    base = '{"name": "a", "xo": {"rules": {"no-console": "error"}}}\n'
    head = '{"name": "a", "xo": {"rules": {"no-console": "off"}}}\n'
    result = _run(tmp_path, {"package.json": base}, {"package.json": head})
    assert _found(result) == [("package.json", 1, "lint-config")]
    assert _messages(result)[0].startswith('xo.rules.no-console: "error" -> "off"')


def test_package_json_without_lint_change_raises_nothing(tmp_path: Path) -> None:
    base = '{"name": "a", "version": "1.0.0", "xo": {"space": true}}\n'
    head = '{"name": "a", "version": "1.1.0", "xo": {"space": true}}\n'
    assert _found(_run(tmp_path, {"package.json": base}, {"package.json": head})) == []


GOLANGCI = "linters:\n  enable:\n    - errcheck\n    - gosec\nrun:\n  timeout: 5m\n"


def test_golangci_linter_disabled(tmp_path: Path) -> None:
    head = GOLANGCI.replace("    - gosec\n", "")
    result = _run(tmp_path, {".golangci.yml": GOLANGCI}, {".golangci.yml": head})
    assert _found(result) == [(".golangci.yml", 2, "golangci-config")]
    assert _messages(result)[0].startswith('linters.enable: ["errcheck", "gosec"] -> ["errcheck"]')


def test_golangci_reformatted_raises_nothing(tmp_path: Path) -> None:
    head = "# lint\nlinters:\n  enable: [errcheck, gosec]\nrun: {timeout: 5m}\n"
    assert _found(_run(tmp_path, {".golangci.yaml": GOLANGCI}, {".golangci.yaml": head})) == []


def test_tox_env_renamed_is_one_finding_not_every_key(tmp_path: Path) -> None:
    # structlog: `[testenv:py3{8,13}-tests]` -> `[testenv:py3{9,13}-tests]` gave 4 findings, two
    # of them at line 1
    env = "deps =\n    coverage[toml]\n    rich\ncommands = coverage run -m pytest {posargs}\n"
    base = "[tox]\nenv_list = py3{8,13}-tests\n\n[testenv:py3{8,13}-tests]\n" + env
    head = base.replace("8,13", "9,13")
    result = _run(tmp_path, {"tox.ini": base}, {"tox.ini": head})
    assert _found(result) == [("tox.ini", 4, "tox-config")]
    assert _messages(result)[0].startswith(
        "[testenv:py3{8,13}-tests] renamed to [testenv:py3{9,13}-tests], its settings unchanged")
    # renamed and changed: the change is named under the rename
    result = _run(tmp_path / "changed", {"tox.ini": base},
                  {"tox.ini": head.replace("pytest {posargs}", "pytest -x {posargs}")})
    assert _messages(result) == [
        "[testenv:py3{8,13}-tests] renamed to [testenv:py3{9,13}-tests] commands: "
        '"coverage run -m pytest {posargs}" -> "coverage run -m pytest -x {posargs}"; '
        "this setting decides what the checks catch"]


def test_long_workflow_run_changed_in_its_middle_is_readable(tmp_path: Path) -> None:
    # memchr: both runs were cut at 80 characters, before the part that changed
    run = ('echo "CARGO_BUILD_TARGET=wasm32-wasi" >> $GITHUB_ENV && echo '
           '"CARGO_TARGET_WASM32_WASI_RUNNER=wasmtime run --wasm simd --" >> $GITHUB_ENV')
    base = WORKFLOW.replace("pytest -q", run)
    head = WORKFLOW.replace("pytest -q", run.replace("wasm32-wasi\"", "wasm32-wasip1\""))
    path = ".github/workflows/ci.yml"
    message = _messages(_run(tmp_path, {path: base}, {path: head}))[0]
    assert "wasm32-wasi\\\"" in message and "wasm32-wasip1\\\"" in message


# go.work and .cargo/config.toml: found by searching the directories above (issue 22), so one
# added inside the checkout swaps what the tests build beneath it

GO_WORK = "go 1.21\n\nuse (\n\t./app\n)\n"


def test_a_new_go_work_is_flagged(tmp_path: Path) -> None:
    result = _run(tmp_path, {"app/go.mod": "module x\n"},
                  {"app/go.mod": "module x\n", "go.work": GO_WORK})
    assert _found(result) == [("go.work", 1, "go-workspace")]


def test_a_replace_or_use_added_to_go_work_is_flagged_and_a_narrowing_is_not(
        tmp_path: Path) -> None:
    head = GO_WORK.replace("\t./app\n", "\t./app\n\t./fake\n") + (
        "\nreplace example.com/lib v1.2.0 => ./fake // stand-in\n")
    result = _run(tmp_path, {"go.work": GO_WORK, "app/go.mod": "module x\n"},
                  {"go.work": head, "app/go.mod": "module x\n"})
    assert _found(result) == [("go.work", 5, "go-workspace"), ("go.work", 8, "go-workspace")]
    assert "`example.com/lib v1.2.0 => ./fake`" in _messages(result)[1]
    narrowed = _run(tmp_path / "narrowed", {"go.work": head}, {"go.work": GO_WORK})
    assert narrowed.findings == ()


def test_any_change_to_a_cargo_config_is_flagged_wherever_it_is(tmp_path: Path) -> None:
    alias = '[alias]\ntest = "check"\n'
    result = _run(tmp_path, {"crates/a/Cargo.toml": "[package]\nname = 'a'\n"},
                  {"crates/a/Cargo.toml": "[package]\nname = 'a'\n",
                   "crates/.cargo/config.toml": alias, ".cargo/config": alias})
    assert sorted(_found(result)) == [(".cargo/config", 1, "cargo-config"),
                                      ("crates/.cargo/config.toml", 1, "cargo-config")]


def test_a_cargo_patch_replace_or_build_script_added_is_flagged(tmp_path: Path) -> None:
    """`[patch]` builds a dependency from a patched copy in the repository (issue 46's Go
    `replace`, in Rust): what the tests build, swapped; one removed is no finding."""
    base = '[package]\nname = "a"\n\n[dependencies]\nrand = "0.8"\n'
    head = base.replace('name = "a"\n', 'name = "a"\nbuild = "gen.rs"\n') + (
        '\n[patch.crates-io]\nrand = { path = "third_party/rand" }\n\n'
        '[replace]\n"log:0.4.0" = { path = "third_party/log" }\n')
    result = _run(tmp_path, {"Cargo.toml": base}, {"Cargo.toml": head})
    assert _found(result) == [("Cargo.toml", 3, "cargo-test"), ("Cargo.toml", 9, "cargo-test"),
                              ("Cargo.toml", 12, "cargo-test")]
    assert _messages(result)[1] == (
        '[patch.crates-io] rand: (unset) -> {"path": "third_party/rand"}; `cargo test` builds '
        "this dependency from it before the tests: check what it swaps in")
    assert _run(tmp_path / "removed", {"Cargo.toml": head}, {"Cargo.toml": base}).findings == ()
