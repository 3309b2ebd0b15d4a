"""The README, `gate explain` and the check registry stay in step."""
from __future__ import annotations

from pathlib import Path

import pytest

from gate import cli
from gate.checks import registry

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_checks_are_in_the_order_of_the_design() -> None:
    assert registry.ORDER == ("install", "suite", "base-tests", "tests-removed", "skip-markers",
                              "escapes", "check-config", "lockfiles", "diff-policy")


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_each_id_names_the_module_that_declares_it(check_id: str) -> None:
    assert check_id == registry.check(check_id).ID


def test_runtime_and_diff_checks_split_the_order() -> None:
    assert registry.RUNTIME + registry.DIFF == registry.ORDER
    assert registry.RUNTIME == ("install", "suite", "base-tests")


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_every_check_has_a_readme_section(check_id: str) -> None:
    assert f"\n### `{check_id}`\n" in README


@pytest.mark.parametrize("check_id", registry.ORDER)
def test_explain_prints_title_and_explanation(
    check_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["explain", check_id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{check_id}: {registry.title(check_id)}\n")
    assert registry.explanation(check_id) in out


def test_explain_rejects_an_unknown_check(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        cli.main(["explain", "no-such-check"])
    assert info.value.code == 2
    assert "invalid choice: 'no-such-check'" in capsys.readouterr().err


def test_every_exit_code_is_documented() -> None:
    for row in ("| 0 | pass |", "| 1 | fail:", "| 2 | the gate could not judge",
                "| 3 | needs-review:", "| 130 / 143 |"):
        assert row in README
