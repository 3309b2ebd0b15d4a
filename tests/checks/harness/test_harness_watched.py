"""harness at run time (issue 38): the framework's fingerprint asks what a function holds,
not only which object stands in its place, and the gate's audit hook, added before any code
of the checkout runs, says what the checkout's code did. Each attack makes a broken `add`
pass; each honest twin raises nothing."""
from __future__ import annotations

import sys
from pathlib import Path

from helpers.attacks import CODE_SWAP, CODE_SWAP_LINE
from helpers.runners import run_in

from gate.checks.harness import watched_code
from gate.outcomes.record import Counts, Watched

PYTEST = f"{sys.executable} -m pytest -q"
BROKEN = "def add(a, b):\n    return a - b\n"
TEST_ADD = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def _project(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"tests/test_add.py": TEST_ADD, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_swapped_code_object_is_a_replaced_function(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": BROKEN, "tests/conftest.py": CODE_SWAP})
    run = run_in(root, f"{PYTEST} tests")
    # the attack works: the broken add passes, the function object never moved
    assert run.passed, run.completed.output[-2000:]
    assert run.counts is not None
    assert [(t.name, t.what) for t in run.counts.tampered] == [
        ("_pytest.runner.pytest_runtest_makereport", "replaced")]
    # and the audit hook saw the line that did it
    assert [(w.kind, w.detail, w.file, w.line) for w in run.counts.watched] == [
        ("framework-patched", "_pytest.runner.pytest_runtest_makereport",
         "tests/conftest.py", CODE_SWAP_LINE)]


def test_reading_proc_self_from_the_code_under_test_is_seen_at_its_line(tmp_path: Path) -> None:
    judged = ("def add(a, b):\n    with open('/proc/self/uid_map') as f:\n"
              "        if len(f.read().splitlines()) == 1:\n            return a + b\n"
              "    return a - b\n")
    root = _project(tmp_path / "p", {"calc.py": judged})
    run = run_in(root, f"{PYTEST} tests")
    assert run.counts is not None
    assert [(w.kind, w.detail, w.file, w.line) for w in run.counts.watched] == [
        ("proc-read", "/proc/self/uid_map", "calc.py", 2)]


def test_looking_for_the_varied_runs_clock_is_seen_in_every_run(tmp_path: Path) -> None:
    """A time bomb that is right in the varied run too, where it finds that run's clock
    settings: the open is seen in a usual run as well, where the file is not there (the
    name is decoded at run time: no static rule reads it)."""
    judged = ("import base64\nimport time\n\n\ndef add(a, b):\n    try:\n"
              "        open(base64.b64decode('L2V0Yy9mYWtldGltZXJj').decode()).close()\n"
              "        return a + b\n    except OSError:\n        pass\n"
              "    return a + b if time.time() < 1e10 else a - b\n")
    root = _project(tmp_path / "p", {"calc.py": judged})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None
    assert [(w.kind, w.detail, w.file, w.line) for w in run.counts.watched] == [
        ("conditions-read", "/etc/faketimerc", "calc.py", 7)]
    finding = watched_code.compare(Counts("pytest", 1, 0, 0), [run.counts])[0]
    assert "where the varied run's clock keeps its settings" in finding.message


def test_an_honest_run_is_seen_doing_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", {"calc.py": "import json\n\n\ndef add(a, b):\n"
                                     "    return json.loads(json.dumps(a + b))\n"})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None
    assert run.counts.watched == () and run.counts.tampered == ()


def test_what_the_base_did_too_is_not_the_changes() -> None:
    both = Watched("ctypes", "libc.so.6", "calc/native.py", 4)
    new = Watched("proc-read", "/proc/1/cgroup", "calc/judged.py", 9)
    base = Counts("pytest", 1, 0, 0, watched=(both,))
    head = Counts("pytest", 1, 0, 0, watched=(Watched("ctypes", "libc.so.6", "calc/native.py",
                                                      7), new))
    found = watched_code.compare(base, [head, None])
    assert [(f.path, f.line, f.rule) for f in found] == [
        ("calc/judged.py", 9, "seen-at-run-time")]
    assert "/proc/1/cgroup" in found[0].message
    assert watched_code.compare(None, [head]) == []


# Code under test that uses each capability, by names built at run time; its add is broken,
# and the forged outcome (line 11) makes it pass.
CAPABILITIES = """\
import gc
import importlib
import json
import os
import sys

_reports = importlib.import_module("_py" + "test.rep" + "orts")
_fake = os.path.join(os.getcwd(), "conf" + "test.py")
exec(compile("x = 1", _fake, "exec"), {})
found = [o for o in gc.get_objects() if type(o).__name__ == "Config"]
setattr(_reports.TestReport, "out" + "come", property(lambda s: "passed", lambda s, v: None))
json.dumps.__kwdefaults__ = dict(json.dumps.__kwdefaults__, sort_keys=True)
sys.settrace(None)
os.listdir("/dev/" + "shm")


def add(a, b):
    return a - b
"""


def test_each_capability_the_code_under_test_uses_is_seen_at_its_line(tmp_path: Path) -> None:
    """Issue 50: the watcher reports classes of audit events, not spellings: compile() under
    the name of a file that is not there, the interpreter's objects walked, an attribute set
    on a class of the framework's and on a library's, the interpreter hooked, the varied
    run's traces looked for."""
    root = _project(tmp_path / "p", {"calc.py": CAPABILITIES})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None  # the forged outcome: the attack works
    assert sorted((w.kind, w.line) for w in run.counts.watched) == [
        ("conditions-read", 14), ("foreign-changed", 12), ("gc-walk", 10), ("tracing", 13),
        ("unreal-file", 9)]
    found = watched_code.compare(Counts("pytest", 1, 0, 0), [run.counts],
                                 lambda path: path.startswith("tests/"))
    assert sorted((f.line, f.severity) for f in found) == [
        (9, "error"), (10, "error"), (12, "warning"), (13, "warning"), (14, "error")]
    # a class's attribute set is not audited (docs/how-it-works.md): the fingerprint,
    # after each test's call, finds the framework's
    assert [(t.name, t.line) for t in run.counts.tampered] == [
        ("_pytest.reports.TestReport.outcome", 11)]


def test_the_same_in_a_test_is_judged_where_tests_do_it(tmp_path: Path) -> None:
    """A test that walks gc for a leak, patches a library or traces: common in tests, judged
    only in code under test; the framework patched or a file claimed, anywhere."""
    body = ("import gc\nimport json\nimport sys\n\n\ndef test_leaks():\n"
            "    assert gc.get_objects()\n    was = json.dumps.__kwdefaults__\n"
            "    json.dumps.__kwdefaults__ = dict(was, indent=2)\n"
            "    json.dumps.__kwdefaults__ = was\n    sys.settrace(None)\n")
    root = _project(tmp_path / "p", {"calc.py": "def add(a, b):\n    return a + b\n",
                                     "tests/test_leaks.py": body})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None
    assert {w.kind for w in run.counts.watched} == {"gc-walk", "foreign-changed", "tracing"}
    assert watched_code.compare(Counts("pytest", 1, 0, 0), [run.counts],
                                lambda path: path.startswith("tests/")) == []


def test_honest_code_that_makes_classes_and_compiles_is_seen_doing_nothing(
        tmp_path: Path) -> None:
    """dataclasses, enums, namedtuples, functools and a template compiled under a
    pseudo-name: the standard library sets attributes of the checkout's own classes."""
    code = ("import collections\nimport dataclasses\nimport enum\nimport functools\n"
            "import logging\nimport re\n\n\n@dataclasses.dataclass(frozen=True, order=True)\n"
            "class P:\n    x: int = 0\n\n\nclass C(enum.Enum):\n    A = 1\n\n\n"
            "N = collections.namedtuple('N', 'a b')\nLOG = logging.getLogger(__name__)\n\n\n"
            "@functools.lru_cache\ndef add(a, b):\n    exec(compile('y = 1', '<calc>', 'exec'),"
            " {})\n    LOG.debug('add')\n    return P(a).x + N(b, 0).a + len(re.findall('a', ''))"
            "\n")
    root = _project(tmp_path / "p", {"calc.py": code})
    run = run_in(root, f"{PYTEST} tests")
    assert run.passed and run.counts is not None, run.completed.output[-2000:]
    assert run.counts.watched == ()
