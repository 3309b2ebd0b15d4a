"""The modes beside `local`: `checks` judges the other checks on the head; `auto` picks."""
from __future__ import annotations

import dataclasses

from gate.github import required_checks
from gate.github.client import Api, ApiError, ApiFactory
from gate.github.settings import Settings
from gate.models import CheckResult, Report


def _ignored(settings: Settings) -> tuple[str, ...]:
    return tuple(n for n in (settings.check_name, settings.job) if n)


def with_required_checks(report: Report, settings: Settings, api_factory: ApiFactory,
                         waiting: required_checks.Waiting | None = None) -> Report:
    """Mode `checks`: wait for the other checks on the head; their outcome joins the report
    as one required check."""
    if not settings.can_post:
        result = CheckResult(required_checks.ID, required_checks.TITLE, "error", True,
                             "mode checks reads the checks on the head through the API: give "
                             "the Action a token (the default github.token will do)")
    else:
        try:
            result = required_checks.wait(
                api_factory(settings), report.head, settings.required_checks,
                ignore=_ignored(settings), stabilization=settings.stabilization_seconds,
                waiting=waiting)
        except ApiError as e:
            result = CheckResult(required_checks.ID, required_checks.TITLE, "error", True,
                                 f"the checks on the head could not be read: {e}")
    verdict = report.verdict if result.status == "passed" else "fail"
    return dataclasses.replace(report, verdict=verdict, checks=(*report.checks, result))


def choose_mode(settings: Settings, *, api_factory: ApiFactory | None = None,
                waiting: required_checks.Waiting | None = None) -> str:
    """Mode `auto`: `checks` if another check appears on the head within the stabilization
    window, else `local`."""
    if not settings.can_post or not settings.event_head_sha:
        return "local"
    try:
        found = required_checks.any_appears(
            (api_factory or Api)(settings), settings.event_head_sha, ignore=_ignored(settings),
            window=settings.stabilization_seconds, waiting=waiting)
    except ApiError:
        return "local"
    return "checks" if found else "local"
