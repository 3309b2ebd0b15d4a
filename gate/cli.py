"""The command line: parse arguments, call the core, print a report, return the exit code."""
from __future__ import annotations

import argparse
import signal
import sys
import traceback
from collections.abc import Sequence
from types import FrameType

from gate import __version__, runner
from gate.checks import registry
from gate.errors import GateError
from gate.models import Report
from gate.report import json_report, text
from gate.verdict import EXIT_CANNOT_JUDGE, EXIT_CODES

FORMATS = {"text": text.render, "json": json_report.render}


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", required=True, help="the base ref (branch, tag, SHA)")
    parser.add_argument("--head", default="HEAD", help="the head ref (default: HEAD)")
    parser.add_argument("--repo", default=".", help="the repository (default: current dir)")
    parser.add_argument("--format", choices=sorted(FORMATS), default="text",
                        help="how to print the report (default: text)")
    parser.add_argument("--report", metavar="FILE", help="also write the JSON report to FILE")
    parser.add_argument("--strict", action="store_true", default=None,
                        help="treat needs-review as fail")


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
    scan = sub.add_parser("scan", help="the diff checks only: no install, no test run")
    _add_common(scan)
    explain = sub.add_parser("explain", help="what a check means and how to resolve it")
    explain.add_argument("check_id", metavar="CHECK-ID", choices=registry.ORDER)
    return parser


def _emit(report: Report, fmt: str, report_file: str | None) -> int:
    if report_file:
        with open(report_file, "w", encoding="utf-8") as f:
            f.write(json_report.render(report))
    sys.stdout.write(FORMATS[fmt](report))
    return EXIT_CODES[report.verdict]


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "explain":
        print(f"{args.check_id}: {registry.title(args.check_id)}\n")
        print(registry.explanation(args.check_id))
        return 0
    options = runner.Options(base=args.base, head=args.head, repo=args.repo, strict=args.strict)
    progress = text.TextProgress() if args.format == "text" else runner.Progress()
    if args.command == "scan":
        return _emit(runner.scan(options, progress), args.format, args.report)
    if args.runs is not None and args.runs < 1:
        raise GateError("--runs must be at least 1")
    options = runner.Options(
        base=args.base, head=args.head, repo=args.repo, strict=args.strict,
        install=args.install, test=args.test, runs=args.runs, timeout=args.timeout)
    return _emit(runner.run(options, progress), args.format, args.report)


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
