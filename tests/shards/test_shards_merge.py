"""`gate run --shard I/N` then `gate merge`: the same verdict, findings and counts as one
unsharded run, for N = 1, 2 and 3; and the merge refuses shards that do not add up."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change
from helpers.pyproject_fixture import project

from gate import cli

pytestmark = pytest.mark.slow

NODE = {".gate.toml": 'install = "true"\ntest = "node --test"\nruns = 2\n'}


def _node_file(name: str, n: int, body: str = "") -> str:
    tests = "".join(f"test('{name} {i}', () => {{ assert.strictEqual({i} + 1, {i + 1}); }});\n"
                    for i in range(n))
    return ("const { test } = require('node:test');\nconst assert = require('node:assert');\n"
            f"{body}{tests}")


NODE_BASE = {**NODE, "src/add.js": "exports.add = (a, b) => a + b;\n",
             "test/add.test.js": "const { test } = require('node:test');\n"
                                 "const assert = require('node:assert');\n"
                                 "const { add } = require('../src/add.js');\n"
                                 "test('adds', () => { assert.strictEqual(add(2, 3), 5); });\n",
             **{f"test/m{i}.test.js": _node_file(f"m{i}", i + 1) for i in range(4)}}

FLAKY = """\
const fs = require('node:fs');
test('first run only', () => {
  const first = !fs.existsSync('.ran');
  fs.writeFileSync('.ran', 'x');
  if (!first) throw new Error('state left by the previous run');
});
"""

CASES = {
    "honest": {"test/m4.test.js": _node_file("m4", 2)},
    "deleted": {"test/m2.test.js": None},
    "flaky": {"test/flaky.test.js": _node_file("flaky", 1, FLAKY)},
    "edited": {"src/add.js": "exports.add = (a, b) => a + b + 1;\n",
               "test/add.test.js": NODE_BASE["test/add.test.js"].replace("5)", "6)")},
}


def _run(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, Any]:
    code = cli.main(["run", "--repo", str(repo), "--base", "main", "--head", "change",
                     "--format", "json", "--no-cache", *args])
    return code, json.loads(capsys.readouterr().out)


def _sharded(capsys: pytest.CaptureFixture[str], repo: Path, tmp: Path, total: int,
             *args: str) -> tuple[int, Any]:
    reports = []
    for i in range(1, total + 1):
        path = tmp / f"shard-{i}-of-{total}.json"
        code, _ = _run(capsys, repo, "--shard", f"{i}/{total}", "--report", str(path), *args)
        assert code == 0, f"shard {i}/{total} exits 0: its verdict is the merge's"
        reports.append(str(path))
    code = cli.main(["merge", "--repo", str(repo), "--format", "json", *reports])
    return code, json.loads(capsys.readouterr().out)


def _judgement(report: Any) -> Any:
    """What must be equal: verdict, each check's status, findings and the suite's counts."""
    return (report["verdict"],
            [(c["id"], c["status"], sorted((f["path"], f["line"], f["rule"], f["message"])
                                           for f in c["findings"]), c.get("tests"))
             for c in report["checks"]])


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_merged_shards_judge_as_one_unsharded_run(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _, _ = make_change(tmp_path / "r", NODE_BASE, CASES[case])
    # one after another in one checkout: the flaky test's state is left in its checkout, and
    # needs no boundary (inside one, each run starts clean)
    off = ("--no-parallel", *(("--isolation", "off") if case == "flaky" else ()))
    code, whole = _run(capsys, repo.path, *off)
    expected = {"honest": "pass", "deleted": "needs-review", "flaky": "fail",
                "edited": "needs-review"}[case]
    assert whole["verdict"] == expected, whole
    for total in (1, 2, 3):
        merged_code, merged = _sharded(capsys, repo.path, tmp_path, total, *off)
        assert _judgement(merged) == _judgement(whole), (case, total)
        assert merged_code == code
        suite = merged["checks"][1]
        assert f"; {total} shard{'s' * (total != 1)}" in suite["summary"]


def test_pytest_shards_split_its_collection_and_the_durations_balance_the_next_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], offline_pip: None) -> None:
    files = {f"tests/test_m{i}.py": "".join(f"def test_{j}():\n    assert {j} == {j}\n\n"
                                            for j in range(i + 1)) for i in range(4)}
    repo, _, _ = make_change(tmp_path / "r", project(**files, **{".gate.toml": "runs = 1\n"}),
                             {"tests/test_m3.py": None})
    _, whole = _run(capsys, repo.path)
    assert whole["verdict"] == "needs-review"
    reports = []
    for i in (1, 2):
        path = tmp_path / f"s{i}.json"
        assert _run(capsys, repo.path, "--shard", f"{i}/2", "--report", str(path))[0] == 0
        reports.append(str(path))
        shard = json.loads(path.read_text())["shard"]
        assert shard["split"]["how"].startswith("pytest's collection")
    splits = [json.loads(Path(p).read_text())["shard"] for p in reports]
    assert splits[0]["split"]["units"] == splits[1]["split"]["units"]
    ran = [{c["name"] for c in s["runs"][0]["counts"]["cases"]} for s in splits]
    assert ran[0] and ran[1] and not ran[0] & ran[1]
    durations = tmp_path / "durations.json"
    code = cli.main(["merge", "--repo", str(repo.path), "--format", "json",
                     "--durations-out", str(durations), *reports])
    merged = json.loads(capsys.readouterr().out)
    assert code == 3 and _judgement(merged) == _judgement(whole)
    seconds = json.loads(durations.read_text())["seconds"]
    assert set(seconds) == {"tests/test_calc.py", "tests/test_m0.py", "tests/test_m1.py",
                            "tests/test_m2.py"}
    path = tmp_path / "timed.json"
    _run(capsys, repo.path, "--shard", "1/2", "--durations", str(durations),
         "--report", str(path))
    assert "by recorded seconds" in json.loads(path.read_text())["shard"]["split"]["how"]


@pytest.fixture(scope="module")
def two_shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    tmp = tmp_path_factory.mktemp("shards")
    repo, _, _ = make_change(tmp / "r", NODE_BASE, CASES["honest"])
    paths = []
    for i in (1, 2):
        path = tmp / f"s{i}.json"
        assert cli.main(["run", "--repo", str(repo.path), "--base", "main", "--head",
                         "change", "--format", "json", "--no-cache", "--shard", f"{i}/2",
                         "--report", str(path)]) == 0
        paths.append(path)
    return repo.path, paths


def _merge(repo: Path, *paths: Path) -> int:
    return cli.main(["merge", "--repo", str(repo), "--format", "json", *map(str, paths)])


def _edited(path: Path, tmp: Path, **changes: Any) -> Path:
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if key in ("index", "total"):
            data["shard"][key] = value
        else:
            data[key] = value
    out = tmp / f"edited-{path.name}"
    out.write_text(json.dumps(data))
    return out


def test_a_missing_shard_is_exit_2_naming_it(
        two_shards: tuple[Path, list[Path]], capsys: pytest.CaptureFixture[str]) -> None:
    repo, (first, _) = two_shards
    assert _merge(repo, first) == 2
    assert "shard(s) 2/2 missing" in capsys.readouterr().err


def test_a_shard_given_twice_is_exit_2(two_shards: tuple[Path, list[Path]],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    repo, (first, second) = two_shards
    assert _merge(repo, first, first, second) == 2
    assert "shard 1/2 is given twice" in capsys.readouterr().err


def test_a_shard_of_another_head_or_base_is_exit_2(
        two_shards: tuple[Path, list[Path]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    repo, (first, second) = two_shards
    assert _merge(repo, first, _edited(second, tmp_path, head="0" * 40)) == 2
    assert "judged another head" in capsys.readouterr().err
    assert _merge(repo, first, _edited(second, tmp_path, base="1" * 40)) == 2
    assert "judged another base" in capsys.readouterr().err
    assert _merge(repo, first, _edited(second, tmp_path, total=3)) == 2
    assert "judged another N" in capsys.readouterr().err


def test_shards_that_split_differently_are_exit_2(
        two_shards: tuple[Path, list[Path]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    repo, (first, second) = two_shards
    data = json.loads(second.read_text())
    units = data["shard"]["split"]["units"]
    unit = sorted(units)[0]
    units[unit] = 3 - units[unit]  # this file fell to the other shard in shard 2's split
    edited = tmp_path / "split.json"
    edited.write_text(json.dumps(data))
    assert _merge(repo, first, edited) == 2
    assert "split the tests differently" in capsys.readouterr().err


def test_a_shard_that_timed_out_fails_the_merge_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hang = _node_file("hang", 1, "test('hangs', async () => { await new Promise(() => "
                                 "setInterval(() => {}, 1000)); });\n")
    repo, _, _ = make_change(tmp_path / "r", NODE_BASE, {"test/m0.test.js": hang})
    code, merged = _sharded(capsys, repo.path, tmp_path, 2, "--timeout", "5", "--runs", "1")
    suite = merged["checks"][1]
    assert (merged["verdict"], code) == ("fail", 1)
    assert suite["status"] == "timeout", suite
    units = json.loads((tmp_path / "shard-1-of-2.json").read_text())["shard"]["split"]["units"]
    assert (f"2 shards (shard {units['test/m0.test.js']}/2 timed out at "
            in suite["summary"]), suite["summary"]
    assert "no longer run" not in suite["summary"]  # its tests did not report, not vanish
