"""What the install put in `node_modules`, held against the lockfile it installed from (the
runtime part of `harness`, beside `leftovers`): every package that package-lock.json (v2 and
later: its `packages` table) pins must be installed at the version it pins. A script of the
install (a `postinstall`, a dependency's) that installs another version in its place, or edits
a package's manifest, is `install-changed-dependency`. What this does not see: a file of a
package rewritten with its version left as it was (npm keeps no digest of unpacked files;
package.json's lifecycle scripts and the package managers' settings are read by check-config
for that)."""
from __future__ import annotations

import json
import os

from gate.execution import judged_files
from gate.models import Finding

RULE = "install-changed-dependency"
LOCK = "package-lock.json"
SHOWN = 5


def _version(checkout: str, where: str) -> str | None:
    data = judged_files.read(os.path.join(checkout, where, "package.json"), 4 * 1024 * 1024)
    try:
        manifest = json.loads(data) if data is not None else None
    except ValueError:
        return "(unreadable)"
    if not isinstance(manifest, dict):
        return None if manifest is None else "(unreadable)"
    version = manifest.get("version")
    return version if isinstance(version, str) else "(none)"


def changed(checkout: str) -> list[Finding]:
    """One finding for the packages installed at another version than the lock pins."""
    data = judged_files.read(os.path.join(checkout, LOCK), 64 * 1024 * 1024)
    try:
        lock = json.loads(data) if data is not None else None
    except ValueError:
        return []
    packages = lock.get("packages") if isinstance(lock, dict) else None
    if not isinstance(packages, dict):
        return []
    wrong = []
    for where, entry in packages.items():
        if (not where.startswith("node_modules/") or not isinstance(entry, dict)
                or entry.get("link") or not isinstance(entry.get("version"), str)):
            continue
        version = _version(checkout, where)  # None: not installed (another platform's)
        if version is not None and version != entry["version"]:
            wrong.append(f"{where[len('node_modules/'):]} {entry['version']} -> {version}")
    if not wrong:
        return []
    more = f" and {len(wrong) - SHOWN} more" if len(wrong) > SHOWN else ""
    return [Finding(LOCK, 1, RULE,
                    f"after the install, node_modules does not hold what {LOCK} pins ("
                    + "; ".join(wrong[:SHOWN]) + more + "): something the install ran "
                    "changed a dependency after npm unpacked it, and every test loads it",
                    "error")]
