"""The command line's arguments: every subcommand and flag of `gate`, as argparse reads them
(docs/cli.md). `cli.py` turns what they say into calls of the core."""
from __future__ import annotations

import argparse

from gate import __version__
from gate.engine import config
from gate.execution import isolation

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


def parser() -> argparse.ArgumentParser:
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
                         help="a built-in check's id, the rule a finding ends with "
                         "([not-run-at-head]), the name of a user check, or a user "
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
