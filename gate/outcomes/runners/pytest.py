"""pytest: a JUnit XML report requested through PYTEST_ADDOPTS, so the command is not edited;
the gate's `gate_sessions` plugin gives each pytest session of the command a report of its own
(`<report>.<n>`), all read."""
from __future__ import annotations

import functools
import glob
import os
import shlex
from collections.abc import Mapping, Sequence

from gate.execution import judged_files
from gate.lang import pytest_config
from gate.outcomes import junit
from gate.outcomes.record import Counts
from gate.vcs import git

NAME = "pytest"
PLUGIN = "gate_sessions"
PLUGIN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "pytest_plugins")  # gate/pytest_plugins: the gate's plugins


EMPTY_CONFIG = "gate-pytest.ini"  # in the scratch directory: read-only to the judged code


def env(report: str, extra_addopts: Sequence[str] = (),
        pins: Sequence[str] = ()) -> dict[str, str]:
    """PYTEST_ADDOPTS for the report, the configuration `pins` (`config_pins`), and the
    plugin that gives each session its own (the caller adds PYTHONPATH and PYTEST_PLUGINS to
    what is there: `environment.extended`). `extra_addopts` come last: a `-c` there wins."""
    addopts = ["-p", "no:cacheprovider", f"--junitxml={report}", "-o", "junit_family=xunit1",
               *pins, *extra_addopts]
    return {"PYTEST_ADDOPTS": " ".join(shlex.quote(a) for a in addopts), "GATE_JUNIT": report,
            "PYTHONPATH": PLUGIN_DIR, "PYTEST_PLUGINS": PLUGIN}


def config_pins(checkout: str, scratch: str) -> tuple[str, ...]:
    """The options that keep pytest from reading a configuration or a conftest.py above the
    checkout (issue 22). pytest takes the first configuration file it finds walking up from
    its arguments (a pyproject.toml without a pytest table does not stop it) and loads the
    conftest.py files up to that file's directory: with none in the checkout, a pytest.ini and
    a conftest.py planted above it (in a writable /tmp, without the boundary) would be read.
    So where no file of the checkout holds a pytest configuration, pytest gets an empty one of
    the gate's (`-c`, in the scratch directory), with the checkout as its rootdir and its
    conftest cut. Where one does, pytest finds it before anything above, and nothing is
    pinned: a configuration in a subdirectory stays the rootdir of a command that runs pytest
    there."""
    if _configured(checkout):
        return ()
    empty = os.path.join(scratch, EMPTY_CONFIG)
    judged_files.write(empty, "[pytest]\n")  # the install may have left a link there
    return ("-c", empty, "--rootdir", checkout, "--confcutdir", checkout)


def _configured(checkout: str) -> bool:
    """Whether the checkout's root, or a directory of it that holds a tracked candidate file,
    has a pytest configuration (`pytest_config.CANDIDATES`)."""
    names = {name for name, _ in pytest_config.CANDIDATES}
    places = ["", *sorted({os.path.dirname(p) for p in git.checkout_files(checkout)
                            if os.path.basename(p) in names})]
    return any(pytest_config.find(functools.partial(_read, os.path.join(checkout, d))).path
               for d in dict.fromkeys(places))


def _read(directory: str, names: Sequence[str]) -> dict[str, bytes | None]:
    """The checkout's files, which the install may have replaced (by a FIFO, say)."""
    return {name: judged_files.read(os.path.join(directory, name), 1 << 20, follow=True)
            for name in names}


def plugin_missing(output: str) -> bool:
    """pytest stopped because it could not import the gate's session plugin (a command that
    replaces PYTHONPATH and runs an interpreter outside the fresh environment)."""
    return f'Error importing plugin "{PLUGIN}"' in output


def gate_plugin_missing(output: str) -> bool:
    """pytest stopped because it could not import one of the gate's plugins (the shard
    plugin, which a shard cannot do without)."""
    return 'Error importing plugin "gate_' in output


def without_plugin(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without the session plugin in PYTEST_PLUGINS."""
    out = dict(env)
    rest = [p for p in out.get("PYTEST_PLUGINS", "").split(",") if p and p != PLUGIN]
    if rest:
        out["PYTEST_PLUGINS"] = ",".join(rest)
    else:
        out.pop("PYTEST_PLUGINS", None)
    return out


def reports(report: str) -> list[str]:
    """The report files of a run: one per pytest session, in the order they were made."""
    numbered = glob.glob(glob.escape(report) + ".*")
    tails = [p[len(report) + 1:] for p in numbered]
    ordered = sorted((int(t), p) for t, p in zip(tails, numbered, strict=True) if t.isdigit())
    return [*([report] if os.path.exists(report) else []), *(p for _, p in ordered)]


def clear(report: str) -> None:
    """Remove what an earlier run left at `report`: its reports and their plugin lists."""
    for path in glob.glob(glob.escape(report) + "*"):
        if (path == report or path[len(report)] == ".") and not os.path.isdir(path):
            os.unlink(path)  # a directory a test made there stays: the plugin takes the next n


def parse(output: str, report: str) -> Counts | None:
    paths = reports(report)
    found = [junit.parse(path) for path in paths]
    read = [cases for cases in found if cases is not None]
    if not read:
        return None
    cases = [case for session in read for case in session]
    return Counts(
        NAME,
        passed=sum(c.outcome == "passed" for c in cases),
        failed=sum(c.outcome == "failed" for c in cases),
        skipped=sum(c.outcome == "skipped" for c in cases),
        cases=tuple(cases),  # plugins, fingerprint: sent on the evidence channel
    )
