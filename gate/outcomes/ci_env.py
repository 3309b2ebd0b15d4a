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
the base, as the gate's configuration is: a head cannot set what judges it.

Where that step runs tox or nox (or no workflow has a test step and the project configures
tox or nox), the tests get what tox or nox gives them (`tool_env`): tox lets through only
its fixed list and `passenv` (so not the runner's `CI`, nor a workflow variable it does not
pass), then sets `setenv`; nox passes everything and adds its session's `env`."""
from __future__ import annotations

import glob
import io
import os
import re
from collections.abc import Iterator, Mapping

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from gate.execution import judged_files
from gate.execution.environment import CiEnvironment, held_by_the_run
from gate.outcomes import nox_config, pytest_command, tool_env, tox_config
from gate.outcomes.tool_env import ToolEnv

_MAX = 1 << 20
_RUNNER = re.compile(
    r"(?:^|[\s;&|(])((?:python3?\s+-m\s+)?(?:pytest|py\.test|tox|nox|unittest|hatch\s+test"
    r"|go\s+test|cargo\s+(?:test|nextest)|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test"
    r"|make\s+(?:test|check)|vitest|jest|mocha))(?=$|[\s;&|)])", re.M)


def _values(block: object) -> dict[str, str]:
    """An `env:` mapping as the runner sets it (true -> "true", 3 -> "3"), without the
    expressions and the held names."""
    if not isinstance(block, Mapping):
        return {}
    out: dict[str, str] = {}
    for name, value in block.items():
        if not isinstance(name, str) or not name.isidentifier() or held_by_the_run(name):
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


def _runner(run: str) -> str | None:
    """The first test runner a step's script starts (`tox`, `pytest`, `npm test`...), on a
    line that installs nothing (`pip install tox` starts no tox)."""
    for line in run.splitlines():
        found = _RUNNER.search(line)
        if found and not re.search(r"\binstall\b", line[:found.start()]):
            return found.group(1)
    return None


def starts_tests(run: str) -> bool:
    """Whether a step's script starts a test runner."""
    return _runner(run) is not None


def _test_step(job: Mapping[str, object]) -> Mapping[str, object] | None:
    steps = job.get("steps")
    for step in steps if isinstance(steps, list) else ():
        if isinstance(step, Mapping) and isinstance(step.get("run"), str) and _runner(
                str(step["run"])):
            return step
    return None


def test_job(root: str) -> Mapping[str, object] | None:
    """The first job of the workflows under `root` with a step that starts a test runner."""
    for workflow in _workflows(root):
        jobs = workflow.get("jobs")
        for job in jobs.values() if isinstance(jobs, Mapping) else ():
            if isinstance(job, Mapping) and _test_step(job) is not None:
                return job
    return None


def _test_job(root: str) -> tuple[dict[str, str], str] | None:
    """The variables the first test job of the workflows under `root` sets for its test step
    (the workflow's, the job's, then the step's: each later one wins, as on the runner), and
    the step's script."""
    for workflow in _workflows(root):
        jobs = workflow.get("jobs")
        for job in jobs.values() if isinstance(jobs, Mapping) else ():
            step = _test_step(job) if isinstance(job, Mapping) else None
            if step is not None and isinstance(job, Mapping):
                return ({**_values(workflow.get("env")), **_values(job.get("env")),
                         **_values(step.get("env"))}, str(step["run"]))
    return None


def tool(root: str) -> ToolEnv | None:
    """The tox environment or nox session the project's tests run through: the one the test
    step starts, or, with no test step, the one its tox or nox configuration gives."""
    found = _test_job(root)
    if found is None:
        return tox_config.read(root) or nox_config.read(root)
    runner = (_runner(found[1]) or "").split()[-1]
    if runner in ("tox", "nox"):
        reader = tox_config.read if runner == "tox" else nox_config.read
        return reader(root, tool_env.selected(found[1], runner))
    return None


def for_tests(root: str) -> CiEnvironment:
    """What the project's CI gives its tests (see the module's doc)."""
    found = _test_job(root)
    values = found[0] if found else {}
    through = tool(root)
    if through is None:
        return CiEnvironment(values)
    ci = CiEnvironment(passes=through.passes)
    return CiEnvironment({**ci.passing(values), **{k: v for k, v in through.set_env.items()
                                                   if not held_by_the_run(k)}}, through.passes)


def pytest_args(root: str) -> tuple[str, ...] | None:
    """The arguments the project's CI gives pytest: its test step's own pytest, or the one
    its tox environment or nox session runs; None where it runs none we can read."""
    found = _test_job(root)
    through = tool(root)
    if through is not None:
        return through.pytest_args
    if found is None:
        return None
    for line in found[1].splitlines():
        invoked = pytest_command.invocations(line)
        if invoked:
            return tuple(invoked[0])
    return None
