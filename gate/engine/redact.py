"""Secrets out of everything the gate stores, prints or posts.

Removed: the values of the gate's own environment variables whose names look secret (the
same rule that keeps them out of the commands' environment), GitHub tokens, AWS access keys
and secret keys, private key blocks, `Authorization:` and bearer values, and passwords in
URLs. What a test printed can hold any of them: a token read from a file, a URL with its
credentials in an error message.
"""
from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence

from gate.execution.environment import is_secret
from gate.models import CheckResult, Finding, Report

MASK = "[redacted]"
_MIN_SECRET = 6  # shorter values ("1", "true") would mask ordinary words
_PATTERNS = (
    re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----"
               r"|\Z)", re.S),
    re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
    re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"),
    re.compile(r"(?i)(?<=aws_secret_access_key)(\s*[=:]\s*[\"']?)[A-Za-z0-9/+=]{40}"),
    re.compile(r"(?i)(?<=authorization:)[ \t]*[^\r\n]+"),
    re.compile(r"(?i)(?<=bearer )[A-Za-z0-9\-._~+/]+=*"),
    re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)"),
)


def _secret_values(environ: Mapping[str, str]) -> list[str]:
    values = {v for k, v in environ.items() if is_secret(k) and len(v) >= _MIN_SECRET}
    return sorted(values, key=len, reverse=True)  # a longer secret may contain a shorter one


def text(value: str, environ: Mapping[str, str] | None = None) -> str:
    """`value` with every secret replaced by MASK."""
    return _masked(value, _secret_values(os.environ if environ is None else environ))


def _masked(value: str, secrets: Sequence[str]) -> str:
    if not value:
        return value
    for secret in secrets:
        value = value.replace(secret, MASK)
    for pattern in _PATTERNS:
        if pattern.groups:
            value = pattern.sub(lambda m: m.group(1) + MASK, value)
        else:
            value = pattern.sub(MASK, value)
    return value


def finding(f: Finding, environ: Mapping[str, str] | None = None) -> Finding:
    secrets = _secret_values(os.environ if environ is None else environ)
    return dataclasses.replace(f, message=_masked(f.message, secrets))


def _check(result: CheckResult, secrets: Sequence[str]) -> CheckResult:
    return dataclasses.replace(
        result, title=_masked(result.title, secrets), summary=_masked(result.summary, secrets),
        detail=_masked(result.detail, secrets),
        findings=tuple(dataclasses.replace(f, message=_masked(f.message, secrets))
                       for f in result.findings))


def check(result: CheckResult, environ: Mapping[str, str] | None = None) -> CheckResult:
    return _check(result, _secret_values(os.environ if environ is None else environ))


def report(r: Report, environ: Mapping[str, str] | None = None) -> Report:
    """The secrets are looked up once for the whole report (a big diff has many findings)."""
    secrets = _secret_values(os.environ if environ is None else environ)
    return dataclasses.replace(r, checks=tuple(_check(c, secrets) for c in r.checks))
