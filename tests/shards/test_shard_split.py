"""The split of `gate run --shard I/N`, per runner, on real small projects: the shards' runs
together run exactly the unsharded run's tests, each in one shard. Every test fails with its
own name, so that each runner's failure list names it whatever the runner reports of passes."""
from __future__ import annotations

import collections
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gate.execution.environment import clean_env
from gate.execution.run_workspace import Workspace
from gate.outcomes import testrun
from gate.shards import split
from gate.shards.spec import Shard

pytestmark = pytest.mark.slow  # each test runs a real runner several times


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and "node_modules" not in p.parts)


def _run(root: Path, command: str, tag: str, how: split.Split | None = None) -> testrun.TestRun:
    scratch = root.parent / f"{root.name}-scratch"
    scratch.mkdir(exist_ok=True)
    ws = Workspace(str(root), str(scratch), clean_env(), 180)
    if how is not None:
        ws = how.workspace(ws)
    run = command if how is None else str(how.command)
    return testrun.run_tests(ws, run, str(scratch / f"{tag}.xml"))


def _failed(run: testrun.TestRun) -> list[str]:
    assert run.counts is not None, run.completed.output[-2000:]
    return [c.name for c in run.counts.cases if c.outcome == "failed"]


def _shards(root: Path, command: str, total: int) -> list[list[str]]:
    """The failing tests each shard ran, for shards 1..total."""
    out: list[list[str]] = []
    scratch = root.parent / f"{root.name}-scratch"
    scratch.mkdir(exist_ok=True)
    for i in range(1, total + 1):
        how = split.split(command, str(root), _files(root), Shard(i, total), {}, str(scratch),
                          f"shard-{i}-{total}")
        out.append([] if how.command is None else _failed(_run(root, command, f"{i}", how)))
    return out


def _assert_split(root: Path, command: str, expected: int) -> None:
    whole = _failed(_run(root, command, "whole"))
    assert len(whole) == expected, whole
    for total in (2, 3):
        shards = _shards(root, command, total)
        union = collections.Counter(name for names in shards for name in names)
        assert union == collections.Counter(whole), (total, shards)
        assert sum(1 for names in shards if names) >= 2, f"{total} shards: all in one: {shards}"


def _js_files(make: Callable[[int, int], str], ext: str = "test.js",
              folder: str = "test") -> dict[str, str]:
    return {f"{folder}/f{i}.{ext}": make(i, i + 1) for i in range(5)}


def _failing(header: str, call: str) -> Callable[[int, int], str]:
    def make(i: int, n: int) -> str:
        return header + "".join(f"{call}('f{i} t{j}', () => {{ throw new Error('f{i} t{j}'); }});\n"
                                for j in range(n))
    return make


def _js(js_project: Path, name: str, files: dict[str, str]) -> Path:
    root = js_project / name
    root.mkdir()
    (root / "package.json").write_text(json.dumps({"name": name, "private": True}))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture(scope="module")
def js_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """jest, vitest and mocha from the npm registry, once for this module."""
    if shutil.which("npm") is None:  # gate: allow skip-markers -- npm is not on this machine
        pytest.skip("npm is not installed")
    root = tmp_path_factory.mktemp("js-split")
    (root / "package.json").write_text('{"name": "split", "version": "1.0.0", "private": true}')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error",
                    "--cache", str(tmp_path_factory.mktemp("npm-cache")),
                    "jest@29", "vitest@3", "mocha@10"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    return root


def test_pytest_files_fall_to_one_shard_each_even_across_two_sessions(tmp_path: Path) -> None:
    root = tmp_path / "py"
    for folder in ("unit", "slow"):
        for i in range(4):
            path = root / folder / f"test_{folder}{i}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(f"def test_{folder}{i}_{j}():\n    assert False\n"
                                    for j in range(i + 1)))
    python = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    # `;` runs the second session whatever the first's exit: every test fails here
    _assert_split(root, f"{python} unit ; {python} slow", 20)


def test_a_pytest_session_with_every_item_in_other_shards_does_not_stop_the_next(
        tmp_path: Path) -> None:
    root = tmp_path / "py"
    (root / "one").mkdir(parents=True)
    (root / "one" / "test_one.py").write_text("def test_only():\n    assert True\n")
    (root / "many").mkdir()
    for i in range(3):
        (root / "many" / f"test_m{i}.py").write_text(f"def test_m{i}():\n    assert True\n")
    python = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    command = f"{python} one && {python} many"
    ran = 0
    for i in (1, 2):
        scratch = tmp_path / "scratch"
        scratch.mkdir(exist_ok=True)
        how = split.split(command, str(root), _files(root), Shard(i, 2), {}, str(scratch),
                          f"s{i}")
        run = _run(root, command, f"s{i}", how)
        assert run.completed.ok, run.completed.output[-2000:]
        assert run.counts is not None
        ran += run.counts.ran
        assert how.whole() is not None
        assert sorted(how.whole() or {}) == ["many/test_m0.py", "many/test_m1.py",
                                             "many/test_m2.py", "one/test_one.py"]
    assert ran == 4  # the shard whose first session had nothing still ran its second


def test_jest_shards_with_its_own_shard_option(js_project: Path) -> None:
    root = _js(js_project, "jest", _js_files(_failing("", "test")))
    _assert_split(root, "../node_modules/.bin/jest", 15)


def test_a_jest_shard_with_no_test_file_passes_with_nothing(js_project: Path) -> None:
    root = _js(js_project, "jest-one", {"test/only.test.js": "test('only', () => {});\n"})
    scratch = root.parent / "jest-one-scratch"
    scratch.mkdir()
    how = split.split("../node_modules/.bin/jest", str(root), _files(root), Shard(2, 2), {},
                      str(scratch), "s2")
    run = _run(root, "", "s2", how)
    assert run.completed.ok, run.completed.output[-2000:]


def test_vitest_shards_with_its_own_shard_option(js_project: Path) -> None:
    header = "import { test } from 'vitest';\n"
    root = _js(js_project, "vitest", _js_files(_failing(header, "test"), ext="test.mjs"))
    _assert_split(root, "../node_modules/.bin/vitest run", 15)


def test_mocha_spec_files_are_split_also_below_test_with_recursive(js_project: Path) -> None:
    files = {**_js_files(_failing("", "it")),
             **{f"test/deep/d{i}.js": _failing("", "it")(10 + i, 2) for i in range(2)}}
    root = _js(js_project, "mocha", files)
    _assert_split(root, "../node_modules/.bin/mocha --recursive", 19)


def test_mocha_with_an_option_naming_files_runs_whole_in_shard_1(js_project: Path) -> None:
    root = _js(js_project, "mocha-spec", _js_files(_failing("", "it")))
    command = "../node_modules/.bin/mocha --spec test/f1.test.js"
    first, second = (split.split(command, str(root), _files(root), Shard(i, 2), {}, "/nowhere",
                                 "t") for i in (1, 2))
    assert (first.command, second.command) == (command, None)


def test_node_test_files_are_split(tmp_path: Path) -> None:
    header = "const { test } = require('node:test');\n"
    root = tmp_path / "node"
    for rel, text in _js_files(_failing(header, "test")).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _assert_split(root, "node --test", 15)


def test_go_packages_are_split(tmp_path: Path) -> None:
    if shutil.which("go") is None:  # gate: allow skip-markers -- go is not on this machine
        pytest.skip("go is not installed (Debian's golang-go; .ci/run installs it)")
    root = tmp_path / "gomod"
    root.mkdir()
    (root / "go.mod").write_text("module example.com/split\n\ngo 1.19\n")
    for i in range(4):
        package = root / f"p{i}"
        package.mkdir()
        tests = "".join(f"func TestP{i}N{j}(t *testing.T) {{ t.Fatal(\"p{i} {j}\") }}\n"
                        for j in range(i + 1))
        (package / f"p{i}_test.go").write_text(f"package p{i}\n\nimport \"testing\"\n\n{tests}")
    _assert_split(root, "go test ./...", 10)
