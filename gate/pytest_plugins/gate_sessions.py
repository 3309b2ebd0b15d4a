"""The gate's pytest plugin for every pytest run it makes. Each pytest session of the judged
command writes its JUnit report to a file of its own (`<report>.<n>`), so that a command running
pytest more than once (`pytest unit && pytest integration`) keeps every session's outcomes, not
the last one's; and it sends on the gate's evidence channel (`gate_evidence`), as they happen:
the session's opening, each test's start and each report (its outcome, the category pytest's
terminal counts it under), the plugins the session loaded (which the gate compares with the
base's: a plugin only the head loads changes how the tests run), the framework's fingerprint
(`gate_fingerprint`), and last its end, with a digest of what it sent and the exit status.
What is sent while the session runs is the evidence; the JUnit report, a file the judged
process can rewrite after the fact, must agree with it.

Loaded through PYTEST_PLUGINS=gate_sessions with this directory on the import path (PYTHONPATH,
and a .pth file in the run's fresh environment); inert unless GATE_JUNIT names the report the
gate asked for with --junitxml. Standard library only: the gate is not installed where pytest
runs."""
from __future__ import annotations

import hashlib
import os
import sys
import types
from typing import Any

import _pytest
import gate_evidence
import gate_hooks
import pytest

pytest_plugins = ("gate_fingerprint",)  # the framework's fingerprint, taken as early as this
_HERE = os.path.dirname(os.path.abspath(__file__))  # the gate's own plugins


def _bound(send: Any, canonical: Any) -> Any:
    """What a session sends, bound here, when pytest imports this plugin (before any
    conftest, test module or code under test): the functions it calls are held in this
    closure, so that code that later wraps `_Own.send`, `gate_evidence.send` or this
    module's globals changes nothing it sends (issue 50); and `gate_fingerprint` watches
    this module's parts like the framework's, so that the wrapping is seen."""
    def post(own: Any, kind: str, fields: dict[str, Any]) -> None:
        own.digest.update(canonical(kind, fields))
        send(kind, s=own.n, **fields)
    return post


_POST = _bound(gate_evidence.send, gate_evidence.canonical)
_SEND = gate_evidence.send
# id(plugin manager) -> identity -> what is known of the plugin: per session, so that a
# session a test starts in-process (pytester, pytest.main) does not add its plugins
_SEEN: dict[int, dict[str, dict[str, Any]]] = {}


class _Own:
    """A session of the judged command's own: its number, config, Session and digest. It is
    registered as a plugin of that session alone, so that a session a test starts in-process
    (pytest.main, pytester) sends nothing as the command's."""

    def __init__(self, n: int, config: Any) -> None:
        self.n, self.config, self.session = n, config, None
        self.digest = hashlib.sha256()
        self.judged: set[int] = set()  # the hook implementations already judged
        self.moved: set[str] = set()  # the deciding parts already said to have moved

    def deciding(self, _post: Any = _POST) -> None:
        """The framework's deciding parts as they are now, against the fingerprint taken at
        load: a part patched for a while (and put back before the session ends) is seen."""
        fingerprint = _fingerprint()
        for found in fingerprint.moved(fingerprint.WATCHED):
            if found["name"] not in self.moved:
                self.moved.add(found["name"])
                _post(self, "fingerprint", found)

    def hooks(self, _post: Any = _POST) -> None:
        """The deciding hooks' implementations as pytest's registry holds them now, each
        sent once where it claims what is not its own or is code under test (`gate_hooks`);
        read again after a plugin was registered (and at the end, whatever happened)."""
        if not _REGISTERED[0] and self.judged:
            return
        _REGISTERED[0] = False
        for found in gate_hooks.anomalies(self.config, _root(self.config), self.judged):
            _post(self, "fingerprint", found)

    def send(self, kind: str, _post: Any = _POST, **fields: Any) -> None:
        """A message of this session's, counted in its digest (the gate's own code calls
        `_post` itself: wrapping this method changes nothing it sends)."""
        _post(self, kind, fields)

    # gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
    def pytest_sessionstart(self, session: Any) -> None:
        self.session = session

    # gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
    def pytest_runtest_logstart(self, nodeid: str, _post: Any = _POST) -> None:
        """The test being run, for the message of a run that times out."""
        _post(self, "start", {"id": nodeid})

    # gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call":  # each test's call: a hook registered, a part of the
            self.hooks()  # framework patched, for a while, are seen too
            self.deciding()
        status = self.config.hook.pytest_report_teststatus(report=report, config=self.config)
        self.report(report, str(status[0]) if status else "")

    # gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
    def pytest_collectreport(self, report: Any) -> None:
        if not report.passed:
            self.report(report, "error" if report.failed else "skipped")

    def report(self, report: Any, category: str, _post: Any = _POST) -> None:
        classname, name = _address(report.nodeid)
        location = report.location or (None, None, None)
        _post(self, "report", {
            "id": report.nodeid, "when": report.when, "outcome": report.outcome,
            "cat": category, "classname": classname, "name": name, "file": location[0],
            "line": location[1], "xfail": hasattr(report, "wasxfail"), "msg": _text(report),
            "t": round(float(getattr(report, "duration", 0.0) or 0.0), 6)})


_OWN: dict[int, _Own] = {}  # id(config) -> the command's own session
_REGISTERED = [True]  # a plugin was registered since the registry was last read


def _fingerprint() -> Any:
    """`gate_fingerprint`, which pytest imported through `pytest_plugins` (imported here first,
    pytest would warn that it cannot rewrite its asserts)."""
    return sys.modules["gate_fingerprint"]


def _code_file(cls: type) -> str | None:
    """The file a class's functions were compiled from: where its code was loaded, which a
    class cannot change by naming another module (`__module__ = "conftest"`)."""
    for member in vars(cls).values():
        code = getattr(getattr(member, "__func__", member), "__code__", None)
        if code is not None:
            return str(code.co_filename)
    return None


def _identity(plugin: object) -> tuple[str, str | None] | None:
    """A plugin's name that is the same in every checkout (its module, or its class), and its
    file; None for the gate's own. pytest's own are listed too (they are the same at base and
    head): a name says nothing, a plugin can take any (`_pytest.x`, `pkg.conftest`). A class's
    file is where its code came from, not what its `__module__` says."""
    if isinstance(plugin, types.ModuleType):
        name, path = plugin.__name__, getattr(plugin, "__file__", None)
    else:  # an instance is named by its class; a class registered itself, by itself
        cls = plugin if isinstance(plugin, type) else type(plugin)
        module = cls.__module__
        name = f"{module}.{cls.__qualname__}"
        path = _code_file(cls) or getattr(sys.modules.get(module), "__file__", None)
    if path is not None and os.path.dirname(os.path.abspath(path)) == _HERE:
        return None
    return name, path


def _conftest(entry: dict[str, Any], root: str) -> bool:
    """A conftest.py of the project (a test file, judged as such), not one a package ships:
    never a plugin that a distribution's entry point registered."""
    path = entry["file"]
    return (entry["dist"] is None and isinstance(path, str)
            and os.path.basename(path) == "conftest.py"
            and os.path.abspath(path).startswith(root.rstrip(os.sep) + os.sep))


# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_plugin_registered(plugin: object, manager: Any) -> None:
    _REGISTERED[0] = True
    found = _identity(plugin)
    if found is not None:
        _SEEN.setdefault(id(manager), {}).setdefault(
            found[0], {"name": found[0], "file": found[1], "dist": _pytests(found[1])})


def _pytests(path: str | None) -> str | None:
    """"pytest" for a plugin whose code is in the installed pytest's own package (its builtin
    plugins, which differ between its versions: a new pytest is the lockfile's news); an
    entry point's distribution replaces it, as for any other plugin."""
    own = os.path.dirname(os.path.realpath(_pytest.__file__))
    inside = path is not None and os.path.realpath(path).startswith(own + os.sep)
    return "pytest" if inside else None


def _root(config: Any) -> str:
    return os.path.abspath(str(getattr(config, "rootpath", None) or config.rootdir))


def _plugins(config: Any) -> list[dict[str, Any]]:
    seen = _SEEN.setdefault(id(config.pluginmanager), {})
    for plugin, dist in config.pluginmanager.list_plugin_distinfo():
        found = _identity(plugin)
        if found is not None and found[0] in seen:
            seen[found[0]]["dist"] = getattr(dist, "project_name", None) or dist.metadata["name"]
    listed = [e for e in seen.values() if not _conftest(e, _root(config))]
    return sorted(listed, key=lambda p: str(p["name"]))


@pytest.hookimpl(tryfirst=True)  # before pytest's junitxml plugin opens the report
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_configure(config: Any) -> None:
    report = os.environ.get("GATE_JUNIT")
    if not report or hasattr(config, "workerinput"):  # xdist workers write no report
        return
    if getattr(config.option, "xmlpath", None) != report:
        return
    if _OWN:  # a session a test started in-process (pytest.main): not the command's own
        config.option.xmlpath = None
        return
    n = 0
    while True:
        path = f"{report}.{n}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            n += 1
            continue
        config.option.xmlpath = path
        own = _OWN[id(config)] = _Own(n, config)
        config.pluginmanager.register(own, "gate-session")
        _POST(own, "open", {"report": path, "fingerprint": _fingerprint().LOADED})
        return


def _address(nodeid: str) -> tuple[str, str]:
    """The classname and name pytest's JUnit report (xunit1) gives a test: the same key."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = names[0].replace("/", ".")
    if names[0].endswith(".py"):
        names[0] = names[0][:-3]
    names[-1] += bracket + params
    return ".".join(names[:-1]), names[-1]


def _text(report: Any) -> str:
    """The report's failure or skip text: its crash line, or its whole representation."""
    longrepr = getattr(report, "longrepr", None)
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (file, line, reason)
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    text = str(getattr(crash, "message", "") or "") or str(longrepr)
    return text[-2000:]


@pytest.hookimpl(trylast=True)
# gate: allow harness -- the gate's own plugin, loaded in the gate's runs only
def pytest_unconfigure(config: Any, _post: Any = _POST, _send: Any = _SEND) -> None:
    """Last: the plugins loaded (the conftests' pytest_plugins came while collecting), the
    framework's fingerprint, then the end with the digest of all that and the exit status."""
    own = _OWN.pop(id(config), None)
    if own is None:
        _worker_end(config)
        return
    _REGISTERED[0] = True
    own.hooks()
    fingerprint = _fingerprint()
    for change in fingerprint.changes(fingerprint.START, fingerprint.take()):
        if change["name"] not in own.moved:  # said while the tests ran
            _post(own, "fingerprint", change)
    _post(own, "plugins", {"list": _plugins(config)})
    status = getattr(own.session, "exitstatus", None)
    _send("end", s=own.n, digest=own.digest.hexdigest(),
                       exit=int(status) if status is not None else None)


def _worker_end(config: Any) -> None:
    """An xdist worker of the command's session (where its tests ran) sends what changed in
    the framework under it, the deciding hooks' implementations that are not what they
    claim, and the plugins it loaded (a plugin loaded in the workers only is one too)."""
    report = os.environ.get("GATE_JUNIT")
    if not report or not hasattr(config, "workerinput"):
        return
    if getattr(config.option, "xmlpath", None) != report:
        return
    fingerprint = _fingerprint()
    for change in [*gate_hooks.anomalies(config, _root(config), set()),
                   *fingerprint.changes(fingerprint.START, fingerprint.take())]:
        gate_evidence.send("worker-fingerprint", **change)
    gate_evidence.send("worker-plugins", list=_plugins(config))
