"""Secrets are removed from every text the gate keeps."""
from __future__ import annotations

import pytest

from gate.engine import redact
from gate.models import CheckResult, Finding

TOKEN = "ghp_" + "a1B2" * 9  # 36 characters, the shape of a classic token
KEY_BLOCK = ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
             "-----END OPENSSH PRIVATE KEY-----")


@pytest.mark.parametrize(("before", "after"), [
    (f"token {TOKEN} printed", "token [redacted] printed"),
    ("gho_" + "x" * 36, "[redacted]"),
    ("ghs_" + "Y" * 36 + ".", "[redacted]."),
    ("github_pat_11ABCDEFG0_" + "z" * 59, "[redacted]"),
    ("key AKIAIOSFODNN7EXAMPLE here", "key [redacted] here"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     "aws_secret_access_key = [redacted]"),
    (f"before\n{KEY_BLOCK}\nafter", "before\n[redacted]\nafter"),
    ("Authorization: token abc123\nnext", "Authorization:[redacted]\nnext"),
    ("curl -H 'X: Bearer eyJhbGciOi.J9.sig'", "curl -H 'X: Bearer [redacted]'"),
    ("clone https://user:hunter22@example.com/r.git", "clone https://[redacted]@example.com/r.git"),
    ("nothing secret: ghp_short, https://example.com/a:b", "nothing secret: ghp_short, "
     "https://example.com/a:b"),
])
def test_patterns(before: str, after: str) -> None:
    assert redact.text(before, {}) == after


def test_values_of_secret_looking_variables() -> None:
    env = {"DEPLOY_PASSWORD": "correct-horse", "NPM_TOKEN": "npm_abcdef", "HOME": "/root/x",
           "CI": "1", "API_KEY": "123"}
    assert (redact.text("correct-horse npm_abcdef /root/x 123", env)
            == "[redacted] [redacted] /root/x 123")  # short values are not masked


def test_every_field_of_a_check_result() -> None:
    env = {"GITHUB_TOKEN": TOKEN}
    result = CheckResult("lint", f"`echo {TOKEN}`", "failed", True, f"s {TOKEN}",
                         detail=f"d {TOKEN}",
                         findings=(Finding("a.py", 1, "r", f"m {TOKEN}"),))
    clean = redact.check(result, env)
    assert TOKEN not in repr(clean)
    assert (clean.title, clean.summary, clean.detail, clean.findings[0].message) == (
        "`echo [redacted]`", "s [redacted]", "d [redacted]", "m [redacted]")
