"""The Python API, for agent loops: `gate.run(...)` and `gate.scan(...)` return the Report
that `gate run --format json` prints (`report.to_json()`), and raise GateError where the CLI
exits 2."""
from __future__ import annotations

from gate.engine import runner
from gate.models import Report


def run(
    repo: str = ".",
    base: str = "main",
    head: str = "HEAD",
    *,
    install: str | None = None,
    test: str | None = None,
    runs: int | None = None,
    timeout: float | None = None,
    strict: bool | None = None,
    cache: bool | None = None,
    isolation: str | None = None,
    progress: runner.Progress | None = None,
    logs: str | None = None,
) -> Report:
    """Judge `head` against `base` in `repo`: the diff checks, the install, the suite runs,
    the base tests and the user checks, on a fresh checkout. Keyword options override the
    base's config as the CLI flags do; `logs`, a new or empty directory for every command's
    full output, is `--logs DIR`."""
    options = runner.Options(base=base, head=head, repo=repo, install=install, test=test,
                             runs=runs, timeout=timeout, strict=strict, cache=cache,
                             isolation=isolation, logs=logs)
    return runner.run(options, progress)


def scan(repo: str = ".", base: str = "main", head: str = "HEAD", *,
         strict: bool | None = None) -> Report:
    """The diff checks alone: no install, no test run."""
    return runner.scan(runner.Options(base=base, head=head, repo=repo, strict=strict))
