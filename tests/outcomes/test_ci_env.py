"""What the project's CI sets for its tests (`gate/outcomes/ci_env.py`), read from its
workflows as they are laid out: the test job's variables, layered as a runner layers them."""
from __future__ import annotations

from pathlib import Path

from gate.outcomes import ci_env

LINT_THEN_TEST = """\
name: ci
on: [push, pull_request]
env:
  PYTHONWARNINGS: error
  SHARED: workflow
jobs:
  lint:
    runs-on: ubuntu-latest
    env:
      LINT_ONLY: "1"
    steps:
      - uses: actions/checkout@v4
      - run: ruff check .
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python: ["3.11", "3.12"]
    env:
      SHARED: job
      FORCE_COLOR: 1
      STRICT: true
      PY: ${{ matrix.python }}
      API_TOKEN: abc
      PATH: /opt/bin
      HOME: /root
      GATE_JUNIT: /tmp/x.xml
    steps:
      - uses: actions/checkout@v4
      - run: pip install -e .[test]
        env:
          INSTALL_ONLY: "1"
      - name: tests
        run: |
          python -m pytest -q tests
        env:
          PYTEST_ADDOPTS: --tb=short
          SHARED: step
"""


def _laid_out(tmp_path: Path, workflows: dict[str, str]) -> str:
    for name, text in workflows.items():
        path = tmp_path / ".github" / "workflows" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


def test_the_test_jobs_variables_layered_as_on_the_runner(tmp_path: Path) -> None:
    root = _laid_out(tmp_path, {"ci.yml": LINT_THEN_TEST})
    assert ci_env.for_tests(root).values == {
        "PYTHONWARNINGS": "error", "SHARED": "step", "FORCE_COLOR": "1", "STRICT": "true",
        "PYTEST_ADDOPTS": "--tb=short"}


def test_no_workflow_or_no_test_job_sets_nothing(tmp_path: Path) -> None:
    assert ci_env.for_tests(str(tmp_path)).values == {}
    lint_only = LINT_THEN_TEST.split("  test:\n")[0]
    assert ci_env.for_tests(_laid_out(tmp_path, {"ci.yml": lint_only})).values == {}


def test_the_first_test_job_in_file_order(tmp_path: Path) -> None:
    go = ("jobs:\n  t:\n    env:\n      WHICH: go\n    steps:\n"
          "      - run: go test ./...\n")
    npm = ("jobs:\n  t:\n    env:\n      WHICH: npm\n    steps:\n"
           "      - run: npm run test -- --coverage\n")
    root = _laid_out(tmp_path, {"b-node.yaml": npm, "a-go.yml": go, "0-broken.yml": "jobs: [\n"})
    assert ci_env.for_tests(root).values == {"WHICH": "go"}


def test_a_runners_name_inside_another_word_is_no_test_step(tmp_path: Path) -> None:
    docs = ("jobs:\n  docs:\n    env:\n      WHICH: docs\n    steps:\n"
            "      - run: mkdocs build --config pytest-docs.yml\n"
            "      - run: echo attest\n")
    assert ci_env.for_tests(_laid_out(tmp_path, {"docs.yml": docs})).values == {}
