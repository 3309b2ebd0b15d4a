"""The command line: parse arguments, call the core, print a report, return the exit code."""
from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from types import FrameType

from gate.adopt import release
from gate.checks import explain, registry
from gate.cli import arguments
from gate.engine import config, config_drift, judgeable, runner, uncommitted
from gate.engine.verdict import EXIT_CANNOT_JUDGE
from gate.errors import GateError
from gate.execution import logs, protected, workspace
from gate.models import Report
from gate.quick import told
from gate.report import destination, json_report, live, terminal, text
from gate.vcs import shallow


def _write_report(report: Report, path: str) -> None:
    """Written beside, then renamed over `path`: whatever is at `path` is replaced, a symlink
    the judged code put there included, never written through."""
    partial = f"{path}.{os.getpid()}.partial"
    with open(partial, "w", encoding="utf-8") as f:
        f.write(json_report.render(report))
    os.replace(partial, path)


def _emit(report: Report, fmt: str, report_file: str | None,
          progress: runner.Progress) -> int:
    if report.isolation.warning:
        print(f"gate: warning: {report.isolation.warning}", file=sys.stderr)
    if report_file:
        _write_report(report, report_file)
    why = judgeable.why_not(report) if report.shard is None else None
    sys.stdout.write(_renderer(fmt, progress, unjudged=why is not None)(report))
    # A shard's verdict belongs to the merge: a shard fails only when it could not judge.
    if report.shard is not None:
        return 0
    if why is not None:
        sys.stdout.flush()
        print(judgeable.said(why), file=sys.stderr)
    return judgeable.exit_for(report, quick=report.quick is not None)


def _renderer(fmt: str, progress: runner.Progress, *,
              unjudged: bool = False) -> Callable[[Report], str]:
    if fmt == "github":
        from gate.report import github
        return github.render
    if fmt == "sarif":
        from gate.report import sarif
        return sarif.render
    if fmt == "json":
        return json_report.render
    colour = terminal.wants_colour(sys.stdout, os.environ)
    # The lines the progress printed where the report goes are not printed twice.
    shown = progress.shown if (isinstance(progress, live.PlainProgress)
                               and live.same_place(progress.stream, sys.stdout)) else set()
    return functools.partial(text.render, colour=colour, shown=shown, unjudged=unjudged)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _say_missing_extra(e: ModuleNotFoundError, extra: str, what: str) -> None:
    """Where the import of an extra's package (`extra`, also the extra's name) failed, a
    GateError that says how to install it; nothing where another module is missing."""
    if e.name == extra or (e.name or "").startswith(extra + "."):
        raise GateError(f"{what}: pip install '{release.DISTRIBUTION}[{extra}]'") from e


def _publish(args: argparse.Namespace) -> int:
    # PyGithub takes a third of a second to import: only `gate publish` pays for it, not the
    # pre-commit hook (`gate hook pre-commit` must feel instant). It is the extra `github`.
    try:
        from gate.github import modes, publish
        from gate.github import settings as github_settings
    except ModuleNotFoundError as e:
        _say_missing_extra(e, "github", "gate publish needs PyGithub, which the command line "
                           "alone does not install")
        raise

    env = dict(os.environ)
    if args.pr is not None:
        env["GATE_PR"] = str(args.pr)
    settings = github_settings.from_env(env)
    if args.start:
        return publish.start(settings)
    if args.choose_mode:
        mode = modes.choose_mode(settings)
        print(mode)
        if settings.output:
            with open(settings.output, "a", encoding="utf-8") as f:
                f.write(f"mode={mode}\n")
        return 0
    if not args.report:
        raise GateError("gate publish needs --report FILE (the JSON of `gate run --report`)")
    if not os.path.isfile(args.report):
        outcome = env.get("GATE_RUN_OUTCOME", "")
        return publish.without_report(settings, (
            f"the run step left no report at {args.report}"
            + (f" (the step's outcome: {outcome})" if outcome else "")
            + "; its log says why"))
    report = json_report.load(args.report)
    told.refuse(report, args.report, "gate publish")
    return publish.publish(report, settings, args.report)


def _submit(args: argparse.Namespace) -> int:
    from gate.agent import submit
    request = submit.Request(base=args.base, repo=args.repo, branch=args.branch,
                             message=args.message, max_attempts=args.max_attempts,
                             open_pr=args.open_pr, remote=args.remote, quick=args.quick)
    progress = live.for_stream(sys.stderr) if args.format == "text" else runner.Progress()
    try:
        answer = submit.submit(request, progress)
    finally:
        if isinstance(progress, live.PlainProgress):
            progress.close()
    if args.format == "json":
        print(json.dumps(answer.to_json(), indent=1))
    else:
        print(answer.feedback)
    return answer.exit_code


def _mcp(fixed_cap: int | None) -> int:
    if fixed_cap is not None and fixed_cap < 1:
        raise GateError("gate mcp --max-attempts must be at least 1")
    try:
        from gate.agent import mcp_server
    except ModuleNotFoundError as e:
        _say_missing_extra(e, "mcp", "gate mcp needs the MCP SDK")
        raise
    mcp_server.serve(fixed_cap)
    return 0


def _hook(args: argparse.Namespace) -> int:
    from gate import hook
    if args.stage == "agent-stop":
        from gate.agent import stop_hook
        given = [f"--{k}" for k in ("runs", "timeout", "parallel", "strict") if getattr(args, k)]
        if given or args.remote:  # exit 1, not 2: a Stop hook's 2 would block the agent
            print(f"gate: error: {', '.join(given) or args.remote}: `gate hook agent-stop` "
                  "takes only --base", file=sys.stderr)
            return stop_hook.ERROR
        return stop_hook.main(sys.stdin, sys.stderr, base=args.base)
    if args.base is not None:
        raise GateError("--base goes with `gate hook agent-stop` only")
    if args.stage == "pre-commit":
        given = [f"--{k}" for k in ("runs", "timeout", "parallel") if getattr(args, k)]
        if given:
            raise GateError(f"{', '.join(given)}: only the pre-push hook (`gate`) runs the "
                            "suite; remove it from the args of gate-scan")
    if args.runs is not None and args.runs < 1:
        raise GateError("--runs must be at least 1")
    return hook.main(args.stage, args.remote, hook.Settings(
        strict=args.strict, runs=args.runs, timeout=args.timeout, parallel=args.parallel))


def _user_checks(repo: str, check_id: str) -> tuple[config.UserCheck, ...]:
    """The user checks configured at HEAD, for `gate explain` of a name that is not a
    built-in check; none outside a repository or where the config cannot be read."""
    if check_id in registry.ORDER:
        return ()
    try:
        return config.load(workspace.resolve_repo(repo), "HEAD").checks
    except GateError:
        return ()


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "explain":
        sys.stdout.write(explain.explain(args.check_id, _user_checks(args.repo, args.check_id)))
        return 0
    if args.command == "publish":
        return _publish(args)
    if args.command == "submit":
        return _submit(args)
    if args.command == "mcp":
        return _mcp(args.max_attempts)
    if args.command == "demo":
        from gate.adopt import demo
        return demo.main(sys.stdout, keep=args.keep)
    if args.command == "hook":
        return _hook(args)
    if args.command == "init":
        from gate.adopt import init
        return init.main(args.repo, dry_run=args.dry_run, force=args.force,
                         shards=args.shards, plain_hooks=args.git_hooks, check=args.check)
    if args.command == "checks":
        from gate.adopt import propose
        sys.stdout.write(propose.render(*propose.propose(workspace.resolve_repo(args.repo))))
        return 0
    if args.report:
        destination.check_writable(args.report)
    if args.command == "merge":
        return _merge(args)
    root = workspace.resolve_repo(args.repo)
    fetched = shallow.ensure_history(root, args.base, args.head)
    if fetched:
        print(f"gate: {fetched}", file=sys.stderr)
    drift = config_drift.notice(root, args.base, args.config)
    if drift:
        print(f"gate: note: {drift}", file=sys.stderr)
    left_out = "" if getattr(args, "staged", False) else uncommitted.notice(root, args.head)
    if left_out:
        print(f"gate: note: {left_out}", file=sys.stderr)
    options = runner.Options(base=args.base, head=args.head, repo=args.repo, strict=args.strict,
                             config=args.config, upgrades=tuple(args.upgrade))
    if args.command == "scan":
        if args.staged and args.head != "HEAD":
            raise GateError("--staged judges the index against HEAD: drop --head")
        options = dataclasses.replace(options, staged=args.staged)
        return _judge(runner.scan, options, args)
    if args.runs is not None and args.runs < 1:
        raise GateError("--runs must be at least 1")
    if args.logs:
        logs.prepare(args.logs)  # a bad path is exit 2 now, not after the whole run
    options = runner.Options(
        base=args.base, head=args.head, repo=args.repo, strict=args.strict,
        install=args.install, test=args.test, runs=args.runs, timeout=args.timeout,
        parallel=args.parallel, cache=args.cache, config=args.config,
        isolation=args.isolation, logs=args.logs, shard=args.shard, durations=args.durations,
        upgrades=tuple(args.upgrade),
        pinned=args.pinned,
        protect=tuple(protected.report_directory(args.report)) if args.report else ())
    if args.durations and not args.shard:
        raise GateError("--durations balances shards: it goes with --shard I/N")
    if args.quick:
        return _judge(_quick_run(args), options, args)
    return _judge(runner.run, options, args)


def _quick_run(args: argparse.Namespace) -> Callable[[runner.Options, runner.Progress], Report]:
    """`gate run --quick`, refusing the flags of what it does not run (exit 2)."""
    given = [flag for flag, value in (("--shard", args.shard), ("--runs", args.runs),
                                      ("--pinned", args.pinned)) if value is not None]
    if given:
        raise GateError(f"{', '.join(given)} with --quick: the quick check runs the suite at "
                        "most once, unsharded, and never the pinned check; drop "
                        f"{'them' if len(given) > 1 else 'it'}, or drop --quick for the full "
                        "gate")
    from gate.quick import runner as quick_runner
    return quick_runner.run


def _merge(args: argparse.Namespace) -> int:
    from gate.shards import durations, merge
    for path in args.reports:  # the shards' reports: never a quick check's
        told.refuse(json_report.load(path), path, "gate merge")
    progress = live.for_stream(sys.stderr) if args.format == "text" else runner.Progress()
    try:
        merged = merge.merge(args.reports, repo=args.repo, strict=args.strict,
                             config=args.config, progress=progress)
    finally:
        if isinstance(progress, live.PlainProgress):
            progress.close()
    if args.durations_out:
        durations.save(args.durations_out, merged.seconds)
    return _emit(merged.report, args.format, args.report, progress)


def _judge(judge: Callable[[runner.Options, runner.Progress], Report], options: runner.Options,
           args: argparse.Namespace) -> int:
    """`gate run` or `gate scan`, with the progress on stderr for the text format."""
    progress = live.for_stream(sys.stderr) if args.format == "text" else runner.Progress()
    try:
        report = judge(options, progress)
    finally:
        if isinstance(progress, live.PlainProgress):
            progress.close()
    return _emit(report, args.format, args.report, progress)


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments.parser().parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        return _dispatch(args)
    except GateError as e:
        print(f"gate: error: {e}", file=sys.stderr)
        return EXIT_CANNOT_JUDGE
    except KeyboardInterrupt:
        print("gate: interrupted; its checkouts were removed", file=sys.stderr)
        return 130
    except OSError as e:
        print(f"gate: error: {e}", file=sys.stderr)
        return EXIT_CANNOT_JUDGE
    except Exception:
        print("gate: unexpected error; this is a bug in gate. Please report it with this "
              "output:\n" + traceback.format_exc(), file=sys.stderr)
        return EXIT_CANNOT_JUDGE
    finally:
        signal.signal(signal.SIGTERM, previous)
