"""Sharding's pieces: the I/N spec, the balance of weighted units, the durations file, and a
report that is not a shard's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.errors import GateError
from gate.outcomes.record import CaseResult
from gate.shards import balance, durations, partial, spec, split


def test_a_shard_is_one_based_i_of_n() -> None:
    assert spec.parse("2/4") == spec.Shard(2, 4)
    assert spec.parse(" 1 / 1 ").first
    assert str(spec.parse("3/3")) == "3/3"


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2"])
def test_a_bad_shard_says_what_is_expected(text: str) -> None:
    with pytest.raises(GateError, match=r"I/N|between 1 and N"):
        spec.parse(text)


def test_known_durations_balance_within_a_fifth_of_the_ideal() -> None:
    seconds = {f"tests/test_{i}.py": float(s) for i, s in
               enumerate([30, 22, 18, 17, 12, 11, 9, 8, 7, 5, 4, 3, 2, 2, 1, 1])}
    for total in (2, 3, 4):
        shares = balance.assign(seconds, total)
        loads = [sum(s for u, s in seconds.items() if shares[u] == i) for i in range(total)]
        ideal = sum(seconds.values()) / total
        assert max(loads) <= 1.2 * ideal, (total, loads)
        assert sorted(set(shares.values())) == list(range(total))


def test_the_split_is_the_same_whatever_the_order_of_the_units() -> None:
    weights = {f"t{i}.py": float(i % 3) for i in range(12)}
    reordered = dict(reversed(list(weights.items())))
    assert balance.assign(weights, 3) == balance.assign(reordered, 3)


def test_a_new_untimed_file_weighs_its_tests_at_the_mean_seconds_per_test() -> None:
    counts = {"old.py": 4, "new.py": 2}
    assert balance.weigh(counts, {"old.py": 8.0}) == {"old.py": 8.0, "new.py": 4.0}
    assert balance.weigh(counts, {}) == {"old.py": 4.0, "new.py": 2.0}  # counts alone
    assert balance.weigh(counts, {"gone.py": 9.0}) == {"old.py": 4.0, "new.py": 2.0}


def test_durations_round_trip_and_sum_per_file(tmp_path: Path) -> None:
    cases = [CaseResult("a::x", "tests/a.py", 1, "passed", seconds=0.25),
             CaseResult("a::y", "tests/a.py", 5, "failed", seconds=0.5),
             CaseResult("b::z", "tests/b.py", 1, "passed"),  # no time given
             CaseResult("go", None, None, "passed", seconds=3.0)]  # no file
    seconds = durations.from_cases(cases)
    assert seconds == {"tests/a.py": 0.75}
    path = str(tmp_path / "d.json")
    durations.save(path, seconds)
    assert durations.load(path) == seconds
    assert durations.load(str(tmp_path / "absent.json")) == {}


def test_a_durations_file_that_does_not_read_is_an_error_that_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "d.json"
    bad.write_text('{"files": []}')
    with pytest.raises(GateError, match="not a durations file of `gate merge"):
        durations.load(str(bad))


def test_a_report_without_a_shard_object_is_not_merged(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"verdict": "pass", "base": "a", "head": "b",
                                "duration_s": 1.0, "checks": []}))
    with pytest.raises(GateError, match="not a shard's report"):
        partial.load(str(path))


def test_cargo_nextest_shards_with_its_own_partition_option() -> None:
    how = split.split("cargo nextest run --workspace", "/nowhere", [], spec.Shard(2, 3), {},
                      "/nowhere", "t")
    assert how.command == "cargo nextest run --workspace --partition count:2/3"


def test_a_command_the_gate_cannot_split_runs_whole_in_shard_1() -> None:
    first, second = (split.split("make test", "/nowhere", ["Makefile"], spec.Shard(i, 2), {},
                                 "/nowhere", "t") for i in (1, 2))
    assert (first.command, second.command) == ("make test", None)
    assert "shard 1" in first.how
