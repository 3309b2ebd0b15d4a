"""`gate hook pre-commit` and `gate hook pre-push`: what the pre-commit framework's hooks and
the plain scripts in hooks/ run. The same output and exit code from either."""
from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from gate.adopt import workflow_file
from gate.checks import allow
from gate.engine import config, judgeable, runner
from gate.engine.verdict import EXIT_CANNOT_JUDGE, EXIT_CODES
from gate.execution import workspace
from gate.models import Report
from gate.report import live, terminal
from gate.vcs import git, prepush

_WORST_FIRST = (EXIT_CANNOT_JUDGE, EXIT_CODES["fail"], EXIT_CODES["needs-review"], 0)


@dataclasses.dataclass(frozen=True)
class Settings:
    """What a hook's `args:` may set (None: the config at the base, then the default)."""

    strict: bool | None = None
    runs: int | None = None
    timeout: float | None = None
    parallel: bool | None = None


def _print(report: Report, out: TextIO, environ: Mapping[str, str],
           adoption: str = "", waivable: bool = False) -> int:
    """The report's lines, then one voice: where the gate could not judge, why; where the
    change brings the gate's adoption (`adoption`: the words for it), how to commit or push
    it, in place of the advice to resolve the lines (they are the adoption's). `waivable`:
    the author's own allow comments count (`gate hook pre-commit`)."""
    why = judgeable.why_not(report)
    out.write(terminal.render(report, terminal.wants_colour(out, environ),
                              advise=why is None and not adoption, waivable=waivable))
    if why is not None:
        print(judgeable.said(why), file=out)
    out.flush()
    return judgeable.exit_for(report)


def pre_commit(repo: str, out: TextIO, environ: Mapping[str, str],
               settings: Settings = Settings()) -> int:
    """The diff checks on the staged change against HEAD."""
    root = workspace.resolve_repo(repo)
    if not git.run(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False):
        print("gate: the first commit has no HEAD to compare the staged change with; "
              "not scanned", file=out)
        return 0
    report = runner.scan(runner.Options(base="HEAD", repo=root, staged=True,
                                        strict=settings.strict, own_allows=True))
    adoption = ADOPTION_COMMIT if brings_adoption(root, "HEAD", git.INDEX) else ""
    code = _print(report, out, environ, adoption, waivable=True)
    if any(allow.OWN in f.message for c in report.checks for f in c.findings):
        print(OWN_ALLOWS, file=out)
    if code != 0 and adoption:
        print(adoption, file=out)
    return code


def _terminal() -> TextIO | None:
    """The controlling terminal of the person who pushed, or None (CI, an IDE, cron)."""
    try:
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return None


def _progress(stream: TextIO, environ: Mapping[str, str]) -> live.PlainProgress:
    """The pre-commit framework keeps a hook's output until the hook ends and shows it only
    when it fails: progress lines there would only bury the findings, and the whole gate would
    run a minute or more in silence. The progress then goes to the person's terminal itself,
    as the live line, which the framework does not hold; with no terminal, nothing. A plain
    git hook (hooks/pre-push) shows the progress on stderr as it goes."""
    if environ.get("PRE_COMMIT") and not stream.isatty():
        tty = _terminal()
        if tty is None:
            return live.Quiet(stream)
        return live.for_stream(tty, environ, owns_stream=True)
    return live.for_stream(stream, environ)


def pre_push(repo: str, remote: str | None, lines: Sequence[str], out: TextIO,
             environ: Mapping[str, str], settings: Settings = Settings(),
             progress_stream: TextIO | None = None) -> int:
    """The whole gate on every range the push asks to judge; the worst exit code. The
    progress, as `gate run` shows it, on `progress_stream` (stderr)."""
    stream = progress_stream or sys.stderr
    root = workspace.resolve_repo(repo)
    push = prepush.plan(root, environ, remote, lines)
    for note in push.notes:
        print(f"gate: {note}", file=out)
    codes = [0]
    for r in push.ranges:
        if len(push.ranges) > 1:
            print(f"gate: {r.ref}", file=out)
        options = runner.Options(base=r.base, head=r.head, repo=root, strict=settings.strict,
                                 runs=settings.runs, timeout=settings.timeout,
                                 parallel=settings.parallel)
        progress = _progress(stream, environ)
        try:
            report = runner.run(options, progress)
        finally:
            progress.close()
        if report.isolation.warning:  # macOS, or no user namespaces: said, not fatal
            print(f"gate: warning: {report.isolation.warning}", file=out)
        adoption = (ADOPTION_PUSH.format(ref=r.ref) if brings_adoption(root, r.base, r.head)
                    else "")
        code = _print(report, out, environ, adoption)
        if code != 0 and adoption:
            print(adoption, file=out)
        codes.append(code)
    return min(codes, key=_WORST_FIRST.index)


OWN_ALLOWS = (
    "gate: honoured the allow comments this commit adds, since you are at the keyboard; the "
    "pull request's gate does not: there a person must approve what they waive")

# What the push of the gate's own adoption is told: its base has no gate config, so the
# adopting commit is judged as any change (a new workflow, a new config), and cannot be
# judged against what it brings.
ADOPTION_PUSH = (
    "gate: {ref} brings the gate's adoption (its config or workflow, absent at the base): "
    "push that once with `git push --no-verify`; every push after it is judged against the "
    "config it brings")

ADOPTION_COMMIT = (
    "gate: this commit brings the gate's adoption (its config or workflow, absent at HEAD): "
    "commit it once with `git commit --no-verify`, then push it with `git push --no-verify`; "
    "every commit and push after it is judged against the config it brings")


def adopted(repo: str, ref: str) -> bool:
    """The gate's config or its workflow is at `ref` (`git.INDEX`: staged)."""
    return config.load(repo, ref).source != "defaults" or git.show(
        repo, ref, workflow_file.PATH) is not None


def brings_adoption(repo: str, base: str, head: str) -> bool:
    """The push adopts the gate: no config or workflow of its at the base, one at the head."""
    return not adopted(repo, base) and adopted(repo, head)


def main(stage: str, remote: str | None, settings: Settings = Settings()) -> int:
    if stage == "pre-commit":
        return pre_commit(".", sys.stdout, os.environ, settings)
    lines = sys.stdin.read().splitlines() if remote is not None else []
    return pre_push(".", remote, lines, sys.stdout, os.environ, settings)
