"""The variables the project's own CI sets for its tests: the `env:` of the base's GitHub
workflow (its top level), of the job that runs the tests and of the step that does, so that
the judged commands see what the project's CI run sees, and no more than a runner adds.

    env = ci_env.for_tests(root)   # root: the base's files (`base_commands.laid_out`)

The test job is the first, in the workflows' file order and each file's job order, with a
step whose `run` starts a test runner (pytest, tox, nox, unittest, go test, cargo test, a
package manager's `test` script, make test, ...). Values that are expressions (`${{ matrix.x
}}`, `${{ secrets.Y }}`) are left out: only the runner knows them. So are the variables the
gate holds for the run (PATH, HOME, TMPDIR, the virtual environment, the preload and report
variables other than the lists it adds to) and any name that reads as a secret. Read from
the base, as the gate's configuration is: a head cannot set what judges it."""
from __future__ import annotations

import glob
import io
import os
import re
from collections.abc import Iterator, Mapping

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from gate.execution import judged_files
from gate.execution.environment import is_secret

_MAX = 1 << 20
_RUNNER = re.compile(
    r"(?:^|[\s;&|(])(?:python3?\s+-m\s+)?(?:pytest|py\.test|tox|nox|unittest|hatch\s+test"
    r"|go\s+test|cargo\s+(?:test|nextest)|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test"
    r"|make\s+(?:test|check)|vitest|jest|mocha)(?=$|[\s;&|)])", re.M)
# The run's own: the gate sets them (its places, its virtual environment, its preloads and
# report paths); a workflow's value would undo the boundary or the reading of outcomes.
_HELD = frozenset({"PATH", "HOME", "TMPDIR", "TMP", "TEMP", "VIRTUAL_ENV", "PYTHONHOME",
                   "LD_PRELOAD", "LD_LIBRARY_PATH", "PYTHONSTARTUP", "GOFLAGS", "GOPATH",
                   "CARGO_HOME", "RUSTUP_HOME", "UV_CACHE_DIR", "UV_LINK_MODE",
                   "PIP_CACHE_DIR", "NEXTEST_STATUS_LEVEL"})
_HELD_PREFIXES = ("GATE_", "GITHUB_", "RUNNER_", "XDG_", "FAKETIME", "DONT_FAKE")


def _held(name: str) -> bool:
    return name in _HELD or name.startswith(_HELD_PREFIXES) or is_secret(name)


def _values(block: object) -> dict[str, str]:
    """An `env:` mapping as the runner sets it (true -> "true", 3 -> "3"), without the
    expressions and the held names."""
    if not isinstance(block, Mapping):
        return {}
    out: dict[str, str] = {}
    for name, value in block.items():
        if not isinstance(name, str) or not name.isidentifier() or _held(name):
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (str, int, float)):
            text = str(value)
        else:
            continue
        if "${{" not in text:
            out[name] = text
    return out


def _workflows(root: str) -> Iterator[Mapping[str, object]]:
    found = glob.glob(os.path.join(root, ".github", "workflows", "*.yml")) + glob.glob(
        os.path.join(root, ".github", "workflows", "*.yaml"))
    for path in sorted(found):
        text = (judged_files.read(path, _MAX) or b"").decode("utf-8", "replace")
        try:
            data = YAML(typ="safe", pure=True).load(io.StringIO(text))
        except YAMLError:
            continue  # check-config says what is wrong with it
        if isinstance(data, Mapping):
            yield data


def _test_step(job: Mapping[str, object]) -> Mapping[str, object] | None:
    steps = job.get("steps")
    for step in steps if isinstance(steps, list) else ():
        if isinstance(step, Mapping) and isinstance(step.get("run"), str) and _RUNNER.search(
                str(step["run"])):
            return step
    return None


def for_tests(root: str) -> dict[str, str]:
    """The variables the first test job of the workflows under `root` sets for its test step:
    the workflow's, the job's, then the step's (each later one wins, as on the runner)."""
    for workflow in _workflows(root):
        jobs = workflow.get("jobs")
        for job in jobs.values() if isinstance(jobs, Mapping) else ():
            step = _test_step(job) if isinstance(job, Mapping) else None
            if step is not None and isinstance(job, Mapping):
                return {**_values(workflow.get("env")), **_values(job.get("env")),
                        **_values(step.get("env"))}
    return {}
