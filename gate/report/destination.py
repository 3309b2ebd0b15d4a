"""Where a report will be written, checked before the run starts: a `--report` into a
directory that does not exist must not cost the user the whole run it would have recorded."""
from __future__ import annotations

import os

from gate.errors import GateError


def check_writable(path: str, option: str = "--report") -> None:
    """Raise GateError, saying what to do, unless a file can be written at `path`.
    Nothing is created: a run that fails later leaves no empty report behind."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise GateError(f"{option} {path} is a directory: name a file in it, e.g. "
                        f"{os.path.join(path, 'gate-report.json')}")
    if not os.path.isdir(parent):
        what = "is not a directory" if os.path.exists(parent) else "does not exist"
        raise GateError(f"{option} {path}: {parent} {what}; create the directory or choose "
                        "another path (checked before the run, so no run is lost)")
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        raise GateError(f"{option} {path} cannot be written (permission denied): choose "
                        "another path")
