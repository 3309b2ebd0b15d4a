"""Plugins actually loaded (the runtime part of `harness`, beside `leftovers`): the pytest
plugins the head's sessions loaded and the base's did not. A plugin comes in without a line
of the diff naming it (a dependency's entry point, a `-p` in a config the diff checks do not
read, a module a conftest pulls in): the run says what it loaded, the base's run what it
loaded before. Each finding is pinned where the head names the plugin (its file in the
checkout, else the first line of a packaging, requirements or test config file naming its
distribution or module), else at pyproject.toml's first line."""
from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Sequence

from gate.models import Finding
from gate.outcomes.record import Counts, Plugin

NEW = "plugin-loaded-only-at-head"
MISSING = "plugin-list-missing-at-head"
CHECK_ID = "harness"
DECLARING = ("pyproject.toml", "setup.cfg", "setup.py", "tox.ini", "pytest.toml", "pytest.ini",
             "conftest.py", "requirements*.txt", "requirements*.in", "*requirements.txt", "Pipfile",
             "noxfile.py")
FALLBACK = "pyproject.toml"
PYTEST = "pytest"  # the distribution the session's plugin names for pytest's own package


def _words(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text.lower())


def _declaring(files: Sequence[str]) -> list[str]:
    return [f for f in files
            if any(fnmatch.fnmatch(posixpath.basename(f), p) for p in DECLARING)]


def where(plugin: Plugin, checkout: str, files: Sequence[str]) -> tuple[str, int]:
    """The file and line that bring `plugin` in, as far as the head's files show it."""
    if plugin.file:
        inside = os.path.relpath(os.path.realpath(plugin.file), os.path.realpath(checkout))
        if not inside.startswith(os.pardir) and not os.path.isabs(inside):
            return inside.replace(os.sep, "/"), 1
    terms = {_words(t) for t in (plugin.dist, plugin.name.split(".")[0]) if t}
    patterns = [re.compile(rf"(?<![a-z0-9-]){re.escape(t)}(?![a-z0-9])") for t in terms]
    for path in _declaring(files):
        if not os.path.isfile(os.path.join(checkout, path)):  # a FIFO the install made: no
            continue
        try:
            with open(os.path.join(checkout, path), encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if any(p.search(_words(line)) for p in patterns):
                        return path, n
        except OSError:
            continue
    return FALLBACK, 1


def compare(base: Counts | None, head: Sequence[Counts | None], checkout: str,
            files: Sequence[str]) -> list[Finding]:
    """Findings for the plugins only the head loaded; and for a head whose pytest sessions
    listed none where the base's did (the list was removed, or the gate's plugin kept out)."""
    if base is None or base.plugins is None:
        return []
    ran = [c for c in head if c is not None and c.runner == base.runner]
    if not ran:
        return []
    lists = [c.plugins for c in ran if c.plugins is not None]
    if not lists:
        return [Finding(FALLBACK, 1, MISSING,
                        "the head's pytest sessions left no list of the plugins they loaded, "
                        "where the base's did: the gate's session plugin was kept from loading "
                        "or its list removed, so what the head loads into pytest is unknown",
                        "error")]
    before = {p.name for p in base.plugins}
    found: dict[str, Plugin] = {}
    for listed in lists:  # pytest's own builtins change with its version, not with the tests
        found.update((p.name, p) for p in listed if p.name not in before and p.dist != PYTEST)
    out = []
    for name in sorted(found):
        plugin = found[name]
        path, line = where(plugin, checkout, files)
        source = f" (from the distribution `{plugin.dist}`)" if plugin.dist else ""
        out.append(Finding(path, line, NEW,
                           f"pytest loaded the plugin `{name}`{source} in the head's runs and "
                           "not in the base's: a plugin can rewrite outcomes, and no test file "
                           "shows it; if the change adds it on purpose, say why in the pull "
                           "request", "error"))
    return out
