# gate: allow harness -- the gate's own unittest preload, on PYTHONPATH in its test runs only
"""The gate's hooks, on PYTHONPATH only for the gate's test runs. First the watcher, an audit
hook (`_watcher`). Then unittest's: where GATE_UNITTEST_REPORT is set, each outcome a unittest
TestResult records (success, failure, error, skip, expected failure, unexpected success,
failing subtest) is sent as it happens on the gate's evidence channel (GATE_EVIDENCE; without
one, appended to that file) as a JSON line {runner, file, line, name, outcome, seconds,
message}. The test command is not
edited; what is written is checked by the gate against the "Ran N tests" summary. Any other
sitecustomize on the path is then run, as if this one were not there."""
from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

_MARK = "_gate_report"


def _unseen() -> None:
    """The varied run's clock is libfaketime, given by LD_PRELOAD and FAKETIME (with
    DONT_FAKE_MONOTONIC); the library adds FAKETIME_SHARED, naming its shared memory in
    /dev/shm. The usual runs have none of them, nor has the CI runner's own run. They leave
    `os.environ`, the mapping Python code reads, before any code of the checkout runs; not
    the process's own environment, which the programs it starts inherit (their clock moves
    too; one started with a copy of `os.environ` keeps the real clock). The shared memory's
    names go too: the library has mapped it already, and a process started later makes its
    own."""
    entries = os.environ.get("LD_PRELOAD", "").replace(":", " ").split()
    kept = [e for e in entries if not os.path.basename(e).startswith("libfaketime")]
    data, encode = getattr(os.environ, "_data", None), getattr(os.environ, "encodekey", None)
    if len(kept) == len(entries) or not isinstance(data, dict) or encode is None:
        return
    shared = os.environ.get("FAKETIME_SHARED", "").split()
    for name in ("FAKETIME", "DONT_FAKE_MONOTONIC", "FAKETIME_SHARED", "LD_PRELOAD"):
        data.pop(encode(name), None)
    if kept:
        data[encode("LD_PRELOAD")] = encode(" ".join(kept))
    for name in shared:  # "/faketime_sem_<pid> /faketime_shm_<pid>"
        for path in ("/dev/shm/sem." + name.lstrip("/"), "/dev/shm/" + name.lstrip("/")):
            with contextlib.suppress(OSError):
                os.unlink(path)


with contextlib.suppress(Exception):  # never in the way of the tests
    _unseen()


def _watcher() -> None:
    """The gate's watcher: a Python audit hook (PEP 578), added here before any code of the
    checkout runs, which no code can remove. It sends on the gate's evidence channel what code
    of the checkout (the innermost frame in GATE_CHECKOUT) does that a test seldom needs: a
    framework function's `__code__` or defaults set, `/proc/self`, `/proc/1` or the cgroup
    tree opened, the varied run's clock settings opened, the gate's own files opened, ctypes
    loaded, a subprocess started, a caller's frame asked for (`sys._getframe`). Each thing
    once per process.
    What it calls it holds from here (os.write, the channel's descriptor): code that later
    replaces `os.write` or `json.dumps` changes nothing it does."""
    checkout, channel = os.environ.get("GATE_CHECKOUT"), os.environ.get("GATE_EVIDENCE")
    if not checkout or not channel:
        return
    try:
        fd = os.open(channel, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        os.set_blocking(fd, True)
    except OSError:
        return
    import json

    root = os.path.realpath(checkout) + os.sep
    gate_dirs = tuple(os.path.realpath(d) + os.sep for d in (
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),  # gate/preload
        os.path.dirname(channel)))  # the run's scratch: its reports
    gate_dirs += (os.path.join(os.path.dirname(gate_dirs[0].rstrip(os.sep)), "pytest_plugins")
                  + os.sep,)
    write, dumps, getpid, getframe = os.write, json.dumps, os.getpid, sys._getframe
    framework = ("pytest", "_pytest", "pluggy", "unittest", "gate_", "xdist", "execnet")
    # the standard library's directory (lib-dynload is inside it), without importing
    # sysconfig at every start of every Python process of the run
    stdlib = tuple({os.path.dirname(os.__file__) + os.sep,
                    os.path.dirname(os.path.realpath(os.__file__)) + os.sep, "<frozen "})
    sent: set[tuple[str, str, str, int]] = set()
    busy: set[int] = set()
    import _thread

    ident = _thread.get_ident

    def where(direct: bool = False) -> tuple[str, int] | None:
        """The line of the checkout that did it: the innermost frame of the checkout's, where
        the innermost frame past the standard library is not the framework's or the gate's
        (pytest opening its report for a script that called pytest.main() is not the
        script's doing); `direct`: where that innermost frame is the checkout's."""
        frame: Any = getframe(2)
        while frame is not None and frame.f_code.co_filename.startswith(stdlib):
            frame = frame.f_back
        if frame is None or frame.f_globals.get("__name__", "").startswith(framework):
            return None
        if direct and not (frame.f_code.co_filename.startswith(root) or os.path.realpath(
                frame.f_code.co_filename).startswith(root)):
            return None
        while frame is not None:
            file = frame.f_code.co_filename
            if file.startswith(root) or os.path.realpath(file).startswith(root):
                return file, frame.f_lineno
            frame = frame.f_back
        return None

    def what(event: str, args: tuple[Any, ...]) -> tuple[str, str] | None:
        if event == "open":
            path = args[0]
            if isinstance(path, bytes):
                path = path.decode("utf-8", "replace")
            if not isinstance(path, str):
                return None
            if path.startswith(("/proc/self/", "/proc/1/", "/proc/thread-self/",
                                "/sys/fs/cgroup")):
                return "proc-read", path
            if path.startswith(clock_files):  # there in the varied run only
                return "conditions-read", path
            if os.path.abspath(path).startswith(gate_dirs):  # no realpath: every import opens
                return "gate-file", ("the run's reports and evidence" if
                                     path.startswith(gate_dirs[1]) else "code")
            return None
        if event in ("object.__setattr__", "object.__delattr__"):
            # CPython audits a function's code and defaults set, and a class's special
            # attributes (`__bases__`, `__module__`...), not a class's other attributes
            target, name = args[0], args[1]
            if name not in ("__code__", "__defaults__", "__kwdefaults__", "__bases__"):
                return None
            module = str(getattr(target, "__module__", "") or "")
            if module.startswith(framework):
                return "framework-patched", f"{module}.{getattr(target, '__qualname__', '?')}"
            file = str(getattr(sys.modules.get(module), "__file__", None) or "")
            if module == "__main__" or (file and os.path.realpath(file).startswith(root)):
                return None  # what the checkout defined is its own to change
            return "foreign-changed", f"{module}.{getattr(target, '__qualname__', '?')}.{name}"
        if event in ("compile", "code.__new__"):  # (source, filename) / (code, filename, ...)
            file = args[1]
            if isinstance(file, bytes):
                file = file.decode("utf-8", "replace")
            if isinstance(file, str) and file.startswith("/") and not os.path.isfile(file):
                return "unreal-file", file
            return None
        if event in ("gc.get_objects", "gc.get_referrers", "gc.get_referents"):
            return "gc-walk", event
        if event in ("os.listdir", "os.scandir"):
            return "conditions-read", str(args[0])
        if event in ("sys.addaudithook", "sys.settrace", "sys.setprofile"):
            return "tracing", event
        if event == "socket.gethostname":
            return "host-read", event
        if event == "ctypes.dlopen":
            return "ctypes", str(args[0])
        if event == "subprocess.Popen":  # (executable, args, cwd, env)
            program = args[0] or (args[1][0] if isinstance(args[1], (list, tuple)) and args[1]
                                  else args[1])
            return "subprocess", os.path.basename(os.fsdecode(program))[:100]
        if event == "sys._getframe":
            return "frame-read", "sys._getframe"
        return None

    # the event classes through which code changes other code or the runner, or looks at
    # what tells it is judged (docs/how-it-works.md: which, and what Python does not audit)
    watched = frozenset({"open", "object.__setattr__", "object.__delattr__", "ctypes.dlopen",
                         "subprocess.Popen", "sys._getframe", "compile", "code.__new__",
                         "gc.get_objects", "gc.get_referrers", "gc.get_referents",
                         "os.listdir", "os.scandir", "sys.addaudithook", "sys.settrace",
                         "sys.setprofile", "socket.gethostname"})
    # done by the checkout's own line, not by a library it called (a library that sets
    # attributes of its own classes, as dataclasses do, is the library's doing)
    direct = frozenset({"object.__setattr__", "object.__delattr__", "compile", "code.__new__",
                        "gc.get_objects", "gc.get_referrers", "gc.get_referents",
                        "socket.gethostname"})
    frames_seen: set[int] = set()  # the code objects that asked for a frame, once each

    # the varied run's clock (`gate/execution/conditions.py`): read, they tell that run apart
    clock_files = ("/etc/ld.so.preload", "/etc/faketimerc")
    near = ("/proc/", "/sys/fs/cgroup", *clock_files, *gate_dirs)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in watched:
            return
        if event == "open":  # the most frequent by far (every import): out at once if it can
            path = args[0]
            if (isinstance(path, str) and path.startswith("/") and ".." not in path
                    and not path.startswith(near)):
                return
        elif event in ("os.listdir", "os.scandir"):  # pytest's collection lists many
            if not (isinstance(args[0], str) and args[0].startswith("/dev/shm")):
                return
        elif event == "compile" and not (isinstance(args[1], str) and args[1].startswith("/")):
            return  # "<string>", "<template>": no claim of a file
        if ident() in busy:
            return
        busy.add(ident())
        try:
            if event == "sys._getframe":  # (asking for a frame here is audited: `busy` holds)
                # asked by the checkout's own code only (namedtuple, Enum and typing ask for
                # their caller's module on every class they make); once a calling code
                # object: a logging helper may ask at every call
                caller = getframe(1).f_code
                if id(caller) in frames_seen or not caller.co_filename.startswith(root):
                    return
                frames_seen.add(id(caller))
            found = what(event, args)
            place = (where(event in direct) if found is not None else None)
            if found is None or place is None:
                return
            key = (found[0], found[1], place[0], place[1])
            if key in sent:
                return
            sent.add(key)
            line = dumps({"k": "watch", "p": getpid(), "what": found[0], "detail": found[1][:300],
                          "file": place[0], "line": place[1]}, ensure_ascii=True)
            write(fd, line.encode("ascii") + b"\n")
        except Exception:
            pass
        finally:
            busy.discard(ident())

    sys.addaudithook(hook)


with contextlib.suppress(Exception):  # never in the way of the tests
    _watcher()


def _chain() -> None:
    """Run the next `sitecustomize` on sys.path (the interpreter's or the environment's)."""
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


def _write(target: str, test: Any, outcome: str, message: str, started: dict[int, float],
           ) -> None:
    import json
    import time

    case = getattr(test, "test_case", test)  # a subtest's case
    module = sys.modules.get(type(case).__module__)
    test_id = getattr(test, "id", None)
    start = started.get(id(case))
    code = _code(case)
    file = getattr(module, "__file__", None)
    name = test_id() if callable(test_id) else str(test)
    if type(case).__name__ == "_FailedTest" and type(case).__module__ == "unittest.loader":
        # a test module that failed to import: the module, not collected, with the import's
        # own error (the gate's junit.NOT_COLLECTED, as pytest's collection errors are told)
        lines = [x.strip() for x in str(getattr(case, "_exception", "")).splitlines() if x.strip()]
        file, code, name = None, None, str(getattr(case, "_testMethodName", name))
        message = "not collected: " + (lines[-1] if lines else message)
    record = {"runner": "unittest", "file": file,
              "line": code.co_firstlineno if code is not None and file == code.co_filename
              else None,
              "name": name, "outcome": outcome, "message": message[:400],
              "seconds": None if start is None else time.monotonic() - start}
    channel = os.environ.get("GATE_EVIDENCE")
    if channel:  # as it happens, to the gate (gate_evidence's line: one write, a kind)
        fd = os.open(channel, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        os.set_blocking(fd, True)
        record.update(k="case", p=os.getpid())
    else:
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (json.dumps(record, ensure_ascii=True) + "\n").encode("ascii"))
    finally:
        os.close(fd)


def _code(case: Any) -> Any:
    """The code of the test method, under its decorators (unittest.skip wraps it)."""
    method = getattr(case, getattr(case, "_testMethodName", ""), None)
    function = getattr(method, "__func__", method)
    for _ in range(20):
        inner = getattr(function, "__wrapped__", None)
        if inner is None:
            break
        function = inner
    return getattr(function, "__code__", None)


def _first_line(err: Any) -> str:
    with contextlib.suppress(Exception):
        return str(err[1]).splitlines()[0] if err and err[1] is not None else ""
    return ""


class _WhenImported:
    """Patches unittest's TestResult when `unittest.result` is first imported, so that a
    Python process that never imports unittest pays nothing."""

    def __init__(self, target: str) -> None:
        self.target = target

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "unittest.result":
            return None
        import importlib.machinery

        sys.meta_path.remove(self)
        spec: Any = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader, self.target)
        return spec


class _Loader:
    def __init__(self, inner: Any, target: str) -> None:
        self.inner = inner
        self.target = target

    def create_module(self, spec: Any) -> Any:
        return self.inner.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.inner.exec_module(module)
        with contextlib.suppress(Exception):  # never in the way of the tests
            _install(module.TestResult, self.target)


def _install(result_class: Any, target: str) -> None:
    import time

    if getattr(result_class.addSuccess, _MARK, False):
        return
    started: dict[int, float] = {}

    def write(test: Any, outcome: str, message: str = "") -> None:
        with contextlib.suppress(Exception):  # the gate falls back to the summary
            _write(target, test, outcome, message, started)

    def sub_test(test: Any, subtest: Any, err: Any) -> None:
        if err is not None:
            write(subtest, "failed", _first_line(err))

    records: dict[str, Any] = {
        "startTest": lambda test: started.__setitem__(id(test), time.monotonic()),
        "addSuccess": lambda test: write(test, "passed"),
        "addFailure": lambda test, err: write(test, "failed", _first_line(err)),
        "addError": lambda test, err: write(test, "failed", _first_line(err)),
        "addSkip": lambda test, reason: write(test, "skipped", str(reason)),
        "addExpectedFailure": lambda test, err: write(test, "skipped", "expected failure"),
        "addUnexpectedSuccess": lambda test: write(test, "failed", "unexpected success"),
        "addSubTest": sub_test,
    }
    for name, record in records.items():
        setattr(result_class, name, _wrapped(getattr(result_class, name), record))


def _wrapped(original: Any, record: Any) -> Any:
    def method(self: Any, test: Any, *args: Any) -> Any:
        with contextlib.suppress(Exception):
            record(test, *args)
        return original(self, test, *args)

    method.__name__ = original.__name__
    setattr(method, _MARK, True)
    return method


_target = os.environ.get("GATE_UNITTEST_REPORT")
if _target:
    _loaded = sys.modules.get("unittest.result")
    if _loaded is not None:
        with contextlib.suppress(Exception):
            _install(_loaded.TestResult, _target)
    else:
        sys.meta_path.insert(0, _WhenImported(_target))
_chain()
