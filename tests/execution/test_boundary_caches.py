"""The installers' caches (issue 22): only an install of trusted code (the base's) warms them.

The attack: the head's `setup.py`, run by pip during the head's install, writes a poisoned
wheel of a dependency (`helper`, installed from an sdist) into pip's wheel cache, where pip
looks for the wheel it built from that sdist before. Every later install that needs `helper`
takes it: the base's install in the same gate run (it runs after the head's), and the next
gate run's installs. The poisoned `helper.expected` agrees with a broken `add`, so the next
change, which breaks `add`, passes. With the boundary the head's install sees the cache
through an overlay: what it plants goes with it, and the base's install warms the cache with
the wheel it really built. Under `--isolation off` (the twin) the attack works."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from helpers.gitrepo import make_change

from gate.execution import bwrap

WORKS = next((p for p in map(bwrap.probe, bwrap.candidates()) if not p.error), None)
# gate: allow skip-markers -- only where no bubblewrap can make user namespaces, and says so
needs_boundary = pytest.mark.skipif(
    WORKS is None, reason="bubblewrap cannot make user namespaces on this machine")

HELPER = "def expected(a, b):\n    return a + b\n"
BUILD = ('[build-system]\nrequires = ["setuptools"]\n'
         'build-backend = "setuptools.build_meta"\n')
SETUP = ('from setuptools import setup\n\nsetup(name="calc", version="0", py_modules=["calc"], '
         'install_requires=["helper"])\n')
# The head's setup.py: pip's wheel cache key for the helper sdist in each find-links
# directory, as pip computes it (pip._internal.cache), and a wheel of `helper` there whose
# `expected` subtracts.
PLANT = '''\
import base64, hashlib, json, os, sys, zipfile
from setuptools import setup

FILES = {"helper/__init__.py": "def expected(a, b):\\n    return a - b\\n",
         "helper-1.0.dist-info/METADATA": "Metadata-Version: 2.1\\nName: helper\\nVersion: 1.0\\n",
         "helper-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: x\\n"
                                       "Root-Is-Purelib: true\\nTag: py3-none-any\\n"}


def digest(text):
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


cache = os.environ.get("PIP_CACHE_DIR") or os.path.expanduser("~/.cache/pip")
for links in os.environ.get("PIP_FIND_LINKS", "").split():
    url = "file://" + os.path.join(os.path.abspath(links), "helper-1.0.tar.gz")
    key = json.dumps({"url": url, "interpreter_name": "cp",
                      "interpreter_version": "%d%d" % sys.version_info[:2]},
                     sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    h = hashlib.sha224(key.encode()).hexdigest()
    where = os.path.join(cache, "wheels", h[:2], h[2:4], h[4:6], h[6:])
    try:
        os.makedirs(where, exist_ok=True)
        with zipfile.ZipFile(os.path.join(where, "helper-1.0-py3-none-any.whl"), "w") as z:
            for name, text in FILES.items():
                z.writestr(name, text)
            z.writestr("helper-1.0.dist-info/RECORD", "".join(
                f"{n},sha256={digest(t)},{len(t)}\\n" for n, t in FILES.items())
                + "helper-1.0.dist-info/RECORD,,\\n")
    except OSError:
        pass

''' + SETUP.split("\n", 2)[2]
TEST = ("from calc import add\nfrom helper import expected\n\n\ndef test_add():\n"
        "    assert add(2, 3) == expected(2, 3)\n")
BROKEN = "def add(a, b):\n    return a - b\n"


def helper_sdist(links: Path) -> None:
    """helper 1.0 as an sdist: pip builds its wheel and keeps it in the wheel cache."""
    files = {"pyproject.toml": BUILD + '[project]\nname = "helper"\nversion = "1.0"\n',
             "helper/__init__.py": HELPER}
    with tarfile.open(links / "helper-1.0.tar.gz", "w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(f"helper-1.0/{name}")
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))


def poisoned_wheels(cache: Path) -> list[Path]:
    """The wheels of helper in pip's cache whose `expected` subtracts."""
    found = []
    for wheel in cache.rglob("helper-*.whl"):
        with zipfile.ZipFile(wheel) as z:
            if "a - b" in z.read("helper/__init__.py").decode():
                found.append(wheel)
    return found


def check(report: dict[str, Any], check_id: str) -> dict[str, Any]:
    return next(c for c in report["checks"] if c["id"] == check_id)


@pytest.fixture(scope="module")
def poisoned(tmp_path_factory: pytest.TempPathFactory,
             wheelhouse: Path) -> dict[str, dict[str, Any]]:
    """Per mode: run 1 judges the change whose setup.py plants the wheel, run 2 (the same
    base, the same caches) a change that breaks `add`; the pip cache after each. One after
    another, so that the base's install in the same run comes after the head's planted it
    (under `parallel` it starts beside the head's, and whether it comes later is a race)."""
    out: dict[str, dict[str, Any]] = {}
    for mode in ("required", "off"):
        where = tmp_path_factory.mktemp(f"caches-{mode}")
        links, cache, home = where / "links", where / "pip-cache", where / "home"
        for d in (links, cache, home):
            d.mkdir()
        helper_sdist(links)
        base = {"pyproject.toml": BUILD, "setup.py": SETUP,
                "calc.py": "def add(a, b):\n    return a + b\n", "tests/test_calc.py": TEST}
        repo, _, _ = make_change(where / "repo", base, {"setup.py": PLANT})
        repo.git("checkout", "-q", "main")
        repo.branch("second")
        repo.commit({"calc.py": BROKEN})
        env = {**os.environ, "PIP_FIND_LINKS": f"{wheelhouse} {links}", "PIP_NO_INDEX": "1",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_CACHE_DIR": str(cache),
               "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "GATE_NO_UV": "1"}
        runs = []
        for head in ("change", "second"):
            proc = subprocess.run(
                [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base",
                 "main", "--head", head, "--format", "json", "--isolation", mode,
                 "--install", "python -m pip install -q . pytest",
                 "--test", "python -m pytest -q -p no:cacheprovider", "--runs", "1",
                 "--no-parallel"],  # the base's install after the head's, not beside it
                capture_output=True, text=True, timeout=600, env=env)
            runs.append((json.loads(proc.stdout) if proc.stdout.strip() else {}, proc.stderr,
                         poisoned_wheels(cache), sorted(cache.rglob("helper-*.whl"))))
        out[mode] = {"runs": runs}
    return out


@pytest.mark.slow
@needs_boundary
def test_a_wheel_the_heads_install_plants_in_pips_cache_reaches_no_later_install(
        poisoned: dict[str, dict[str, Any]]) -> None:
    """The base's install (after the head's, in the same run) builds the real helper: the
    head's own failure is a regression, not pre-existing; the cache holds that real wheel
    and no poisoned one; the next run's broken change fails."""
    (first, err1, bad1, wheels1), (second, err2, bad2, _) = poisoned["required"]["runs"]
    assert bad1 == [] and len(wheels1) == 1, err1  # warmed by the base's install only
    failed = check(first, "suite")
    assert "regression" in failed["summary"] and "pre-existing" not in failed["summary"], err1
    assert (second["verdict"], check(second, "suite")["status"]) == ("fail", "failed"), err2
    assert bad2 == []


@pytest.mark.slow
@needs_boundary
def test_without_the_boundary_the_planted_wheel_makes_the_next_broken_change_pass(
        poisoned: dict[str, dict[str, Any]]) -> None:
    """The attack is real: the wheel stays in the cache, the base's install in the same run
    takes it (the head's failure reads as pre-existing), and the next change, which breaks
    `add`, passes."""
    (first, err1, bad1, _), (second, err2, _, _) = poisoned["off"]["runs"]
    assert bad1, err1
    assert "pre-existing" in check(first, "suite")["summary"], err1
    assert check(second, "suite")["status"] == "passed", err2
    assert second["verdict"] == "pass", err2


# uv: the same power, its cache. The head's setup.py (built by uv during the head's install)
# writes into uv's cache; the boundary drops the write, and the base's install warms it.
MARK = '''\
import os
from setuptools import setup

for cache in {os.environ.get("UV_CACHE_DIR"), os.path.expanduser("~/.cache/uv")} - {None}:
    try:
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, "planted-by-the-head"), "w") as f:
            f.write("poison")
    except OSError:
        pass

''' + SETUP.split("\n", 2)[2].replace(', install_requires=["helper"]', "")


@pytest.fixture(scope="module")
def uv_marked(tmp_path_factory: pytest.TempPathFactory,
              wheelhouse: Path) -> dict[str, tuple[dict[str, Any], str, list[Path]]]:
    """Per mode: the report of a change whose setup.py writes into uv's cache, and the
    files of the user's uv cache after it."""
    out = {}
    for mode in ("required", "off"):
        where = tmp_path_factory.mktemp(f"uv-{mode}")
        cache, home = where / "uv-cache", where / "home"
        home.mkdir()
        test = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
        base = {"pyproject.toml": BUILD, "setup.py": SETUP.replace(
            ', install_requires=["helper"]', ""),
            "calc.py": "def add(a, b):\n    return a + b\n", "tests/test_calc.py": test}
        repo, _, _ = make_change(where / "repo", base, {"setup.py": MARK})
        env = {k: v for k, v in os.environ.items() if k != "GATE_NO_UV"}
        env.update({"PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_INDEX": "1",
                    "UV_CACHE_DIR": str(cache), "HOME": str(home),
                    "XDG_CACHE_HOME": str(home / ".cache")})
        proc = subprocess.run(
            [sys.executable, "-m", "gate", "run", "--repo", str(repo.path), "--base", "main",
             "--head", "change", "--format", "json", "--isolation", mode,
             "--test", "python -m pytest -q -p no:cacheprovider", "--runs", "1"],
            capture_output=True, text=True, timeout=600, env=env)
        report = json.loads(proc.stdout) if proc.stdout.strip() else {}
        out[mode] = (report, proc.stderr, sorted(cache.rglob("*")) if cache.exists() else [])
    return out


@pytest.mark.slow
@needs_boundary
def test_what_the_heads_install_writes_in_uvs_cache_is_dropped(
        uv_marked: dict[str, tuple[dict[str, Any], str, list[Path]]]) -> None:
    report, err, files = uv_marked["required"]
    assert "uv" in check(report, "install")["summary"], err  # uv really ran the install
    assert not any(p.name == "planted-by-the-head" for p in files), err
    assert files, err  # the base's install warmed it


@pytest.mark.slow
def test_without_the_boundary_the_heads_install_writes_into_uvs_cache(
        uv_marked: dict[str, tuple[dict[str, Any], str, list[Path]]]) -> None:
    report, err, files = uv_marked["off"]
    assert "uv" in check(report, "install")["summary"], err
    assert any(p.name == "planted-by-the-head" for p in files), err
