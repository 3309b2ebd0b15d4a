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

from gate import __version__
from gate.adopt import release
from gate.checks import explain, registry
from gate.engine import config, config_drift, judgeable, runner, uncommitted
from gate.engine.verdict import EXIT_CANNOT_JUDGE
from gate.errors import GateError
from gate.execution import isolation, logs, protected, workspace
from gate.models import Report
from gate.quick import told
from gate.report import destination, json_report, live, terminal, text
from gate.vcs import shallow

FORMATS = ("github", "json", "sarif", "text")


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, help="the base ref (branch, tag, SHA)")
    parser.add_argument("--head", default="HEAD", help="the head ref (default: HEAD)")
    parser.add_argument("--repo", default=".", help="the repository (default: current dir)")
    parser.add_argument("--upgrade", action="append", default=[], metavar="NAME==VERSION",
                        help="the change upgrades this package: every manifest range naming "
                        "it must admit VERSION (diff-policy); repeatable")
    _add_output(parser)


def _add_output(parser: argparse.ArgumentParser) -> None:
    """How the report is printed and judged: `run`, `scan` and `merge` alike."""
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="how to print the report (default: text)")
    parser.add_argument("--report", metavar="FILE", help="also write the JSON report to FILE")
    parser.add_argument("--strict", action="store_true", default=None,
                        help="treat needs-review as fail")
    parser.add_argument("--config", metavar="FILE",
                        help="a TOML file with the keys of .gate.toml, read from the base ref")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gate", description=(
        "A test gate for agent-written code: judge a change on a clean checkout."))
    parser.add_argument("--version", action="version", version=f"gate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="the whole gate: install, suite runs, base tests, diff checks")
    _add_common(run)
    run.add_argument("--install", metavar="CMD", help="the install command")
    run.add_argument("--test", metavar="CMD", help="the test command")
    run.add_argument("--runs", type=int, metavar="N", help="suite runs (default 3)")
    run.add_argument("--timeout", type=float, metavar="SECONDS",
                     help="time limit per command (default 900)")
    run.add_argument("--parallel", action=argparse.BooleanOptionalAction, default=None,
                     help="run the suite runs side by side, each in its own checkout "
                          "(the default; --no-parallel: one after another)")
    run.add_argument("--pinned", choices=config.PINNED_MODES,
                     help="the pinned check: report its findings (default), make them "
                     "needs-review, or off")
    run.add_argument("--logs", metavar="DIR",
                     help="write the full output of every command to DIR, one file each")
    run.add_argument("--no-cache", dest="cache", action="store_false", default=None,
                     help="run the base's suite again instead of taking its outcomes from "
                          "$XDG_CACHE_HOME/gate, and keep nothing there")
    run.add_argument("--isolation", choices=isolation.MODES,
                     help="run the judged code in user, PID and mount namespaces: auto (use "
                     "them where they work), required (exit 2 where not), off")
    run.add_argument("--shard", metavar="I/N",
                     help="run shard I of N (1-based) of the tests and write a partial report "
                     "for `gate merge`; exit 0 unless the gate could not judge")
    run.add_argument("--quick", action="store_true",
                     help="a quick check for an agent's inner loop, NOT the full gate: the "
                     "install, the diff checks, the lint and type-check user checks, and the "
                     "suite once for a bug fix (code and a test) or else the build checks; "
                     "exit 4 on its pass")
    run.add_argument("--durations", metavar="FILE",
                     help="with --shard: test seconds from `gate merge --durations-out`, to "
                     "balance the shards (absent: balance by number of tests)")
    merge = sub.add_parser("merge", help="judge the shards' reports (`gate run --shard`) as "
                           "one run: one verdict, one report")
    merge.add_argument("reports", metavar="REPORT", nargs="+",
                       help="the JSON report of every shard")
    merge.add_argument("--repo", default=".",
                       help="the repository, with the base and head commits (default: .)")
    _add_output(merge)
    merge.add_argument("--durations-out", metavar="FILE",
                       help="write each test file's seconds here, for the next run's "
                       "`--durations`")
    scan = sub.add_parser("scan", help="the diff checks only: no install, no test run")
    _add_common(scan)
    scan.add_argument("--staged", action="store_true",
                      help="judge the index (what `git commit` would record) instead of --head")
    hooks = sub.add_parser("hook", help="what the pre-commit hooks run: the staged change "
                           "(pre-commit), or what is being pushed (pre-push)")
    hooks.add_argument("stage", choices=("pre-commit", "pre-push", "agent-stop"))
    hooks.add_argument("remote", nargs="?", help="pre-push: the remote git names (then the "
                       "pushed refs are read from stdin)")
    hooks.add_argument("url", nargs="?", help="pre-push: the remote's URL (unused)")
    hooks.add_argument("--strict", action="store_true", default=None,
                       help="treat needs-review as fail (a hook's `args:`)")
    hooks.add_argument("--runs", type=int, metavar="N", help="pre-push: suite runs")
    hooks.add_argument("--timeout", type=float, metavar="SECONDS",
                       help="pre-push: time limit per command")
    hooks.add_argument("--parallel", action="store_true", default=None,
                       help="pre-push: the suite runs side by side")
    hooks.add_argument("--base", help="agent-stop: the ref the agent's work is compared with "
                       "(default: HEAD, the uncommitted work only)")
    setup = sub.add_parser("init", help="propose [tool.gate], a workflow and pre-commit hooks")
    setup.add_argument("--repo", default=".", help="the repository (default: current dir)")
    setup.add_argument("--dry-run", action="store_true",
                       help="print the diff it would apply and write nothing")
    setup.add_argument("--force", action="store_true",
                       help="replace a gate workflow that differs from the one it writes")
    setup.add_argument("--git-hooks", action="store_true",
                       help="plain git hooks (pre-commit, pre-push) in the repository's hooks "
                       "directory, instead of the pre-commit framework's config")
    setup.add_argument("--shards", type=int, metavar="N",
                       help="a workflow that splits the tests across a matrix of N jobs "
                       "(2 to 256) and merges their reports into one verdict")
    setup.add_argument("--check", action="store_true",
                       help="first run the proposed config once on HEAD (install, suite, "
                       "checks) and write nothing if a check fails")
    checks = sub.add_parser("checks", help="the user checks: --propose prints a config "
                            "proposed from package.json, pyproject, Cargo.toml, go.mod, Makefile")
    checks.add_argument("--repo", default=".", help="the repository (default: current dir)")
    checks.add_argument("--propose", action="store_true", required=True,
                        help="print a proposed [tool.gate] with its [[tool.gate.checks]]")
    demo = sub.add_parser("demo", help="watch the gate catch an agent's hidden break, on a "
                          "small repository it builds in a temporary directory (seconds)")
    demo.add_argument("--keep", action="store_true",
                      help="keep the demo repository and print where it is")
    submit = sub.add_parser("submit", help="an agent's submit tool: commit the working tree "
                            "to a branch, run the whole gate, answer in bounded text")
    submit.add_argument("--base", required=True, help="the base ref (branch, tag, SHA)")
    submit.add_argument("--branch", metavar="NAME",
                        help="the branch to commit to (default: gate/submit/<current branch>)")
    submit.add_argument("--message", metavar="MSG", default="gate submit",
                        help="the commit message (and the pull request's title)")
    submit.add_argument("--max-attempts", type=int, metavar="N",
                        help="lower the cap of submits per change (the base's "
                        "`max-attempts`, default 3); more than it is refused; then exit 5")
    submit.add_argument("--open-pr", action="store_true",
                        help="on pass, push the branch and open its pull request "
                        "(GITHUB_TOKEN, GITHUB_REPOSITORY; the extra `github`)")
    submit.add_argument("--remote", default="origin", help="where --open-pr pushes")
    submit.add_argument("--quick", action="store_true",
                        help="judge with `gate run --quick`, a quick check that is not the "
                        "full gate (exit 4 on its pass; never opens a pull request)")
    submit.add_argument("--repo", default=".", help="the repository (default: current dir)")
    submit.add_argument("--format", choices=("text", "json"), default="text")
    mcp = sub.add_parser("mcp", help="the gate as MCP tools over stdio: submit, scan, "
                         "explain (the extra `mcp`)")
    mcp.add_argument("--max-attempts", type=int, metavar="N",
                     help="fix the cap of submits per change for the server's life, in "
                     "place of the base's `max-attempts` (for the harness that starts it)")
    explain = sub.add_parser("explain", help="what a check means and how to resolve it")
    explain.add_argument("check_id", metavar="CHECK-ID",
                         help="a built-in check's id, the name of a user check, or a user "
                         "check kind (lint, typecheck, build, other)")
    explain.add_argument("--repo", default=".", help="where to look up user checks: the "
                         "repository's config at HEAD (default: current dir)")
    pub = sub.add_parser("publish", help="post a JSON report to GitHub: annotations, job "
                         "summary, check run, comment, label (settings from GATE_*/GITHUB_*)")
    pub.add_argument("--report", metavar="FILE", help="the JSON report of `gate run --report`")
    pub.add_argument("--pr", type=int, metavar="N", help="the pull request (default: the event's)")
    pub.add_argument("--start", action="store_true",
                     help="only create the check run, in progress, on the event's head SHA")
    pub.add_argument("--choose-mode", action="store_true",
                     help="for mode auto: print `checks` if another check appears on the "
                          "head within the stabilization window, else `local`")
    return parser


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
    sys.stdout.write(_renderer(fmt, progress)(report))
    # A shard's verdict belongs to the merge: a shard fails only when it could not judge.
    if report.shard is not None:
        return 0
    why = judgeable.why_not(report)
    if why is not None:
        sys.stdout.flush()
        print(judgeable.said(why), file=sys.stderr)
    return judgeable.exit_for(report, quick=report.quick is not None)


def _renderer(fmt: str, progress: runner.Progress) -> Callable[[Report], str]:
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
    return functools.partial(text.render, colour=colour, shown=shown)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _publish(args: argparse.Namespace) -> int:
    # PyGithub takes a third of a second to import: only `gate publish` pays for it, not the
    # pre-commit hook (`gate hook pre-commit` must feel instant). It is the extra `github`.
    try:
        from gate.github import modes, publish
        from gate.github import settings as github_settings
    except ModuleNotFoundError as e:
        if e.name != "github" and not (e.name or "").startswith("github."):
            raise
        raise GateError("gate publish needs PyGithub, which the command line alone does not "
                        f"install: pip install '{release.DISTRIBUTION}[github]'") from e

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
        if e.name != "mcp" and not (e.name or "").startswith("mcp."):
            raise
        raise GateError("gate mcp needs the MCP SDK: pip install "
                        f"'{release.DISTRIBUTION}[mcp]'") from e
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
    args = _parser().parse_args(argv)
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
