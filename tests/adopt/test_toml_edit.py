"""The one TOML writer: whatever text it is given, what it writes reads back the same."""
from __future__ import annotations

import pytest

from gate import toml
from gate.adopt import propose, toml_edit
from gate.engine.config import UserCheck


@pytest.mark.parametrize("text", [
    "pytest -k 'café'",
    "echo 😀",
    'say "hi" \\ there',
    "tab\there\nnewline\x00nul\x7fdel\x1besc",
])
def test_a_string_reads_back_as_it_was(text: str) -> None:
    written = toml_edit.table("tool.gate", {"test": text, "args": [text]})
    assert toml.loads(written) == {"tool": {"gate": {"test": text, "args": [text]}}}


def test_non_ascii_is_written_as_itself_not_as_escapes() -> None:
    assert toml_edit.string("😀 é") == '"😀 é"'


def test_the_proposal_is_written_by_the_same_writer() -> None:
    checks = [UserCheck("lint 🧹", "npm run lint", required=False)]
    written = propose.render("pytest -k 'é'", checks)
    assert written == toml_edit.table("tool.gate", propose.as_table("pytest -k 'é'", checks))
    assert toml.loads(written)["tool"]["gate"]["checks"][0]["name"] == "lint 🧹"


def test_a_proposal_without_a_test_command_says_none_was_found() -> None:
    assert propose.render(None, [], table="") == '# test = "..."  # none detected\n'
    assert propose.render(None, [UserCheck("vet", "go vet ./...")]) == (
        '[tool.gate]\n# test = "..."  # none detected\n\n'
        '[[tool.gate.checks]]\nname = "vet"\nrun = "go vet ./..."\n')
