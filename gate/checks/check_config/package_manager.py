"""The package managers' own settings files, compared as parsed data: `.npmrc`, `.yarnrc.yml`,
`pnpm-workspace.yaml` and `bunfig.toml` decide how the install and every package script run
(`script-shell`, `node-options`, `ignore-scripts`, yarn's `yarnPath` and plugins, pnpm's
`onlyBuiltDependencies`, bun's `[test] preload`). Every changed key is a `package-manager-config`
finding at its line, but pnpm's workspace members and version catalogs, which say which
packages, not how they run."""
from __future__ import annotations

import re

from gate import toml
from gate.checks.check_config import config_diff, workflow_diff
from gate.models import Finding

RULE = "package-manager-config"
FILES = (".npmrc", ".yarnrc.yml", ".yarnrc.yaml", "pnpm-workspace.yaml", "pnpm-workspace.yml",
         "bunfig.toml")
_NOT_HOW = ("packages", "catalog", "catalogs")  # pnpm-workspace.yaml: which packages


def npmrc(text: str) -> dict[str, object]:
    """`key = value` lines; `;` and `#` start a comment line."""
    out: dict[str, object] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith((";", "#")) or "=" not in line:
            continue
        key, value = line.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def parse(name: str, text: str) -> dict[str, object]:
    if name == ".npmrc":
        return npmrc(text)
    if name == "bunfig.toml":
        return toml.loads(text)
    data = workflow_diff.load(text)
    return {k: v for k, v in data.items() if not (name.startswith("pnpm-") and k in _NOT_HOW)}


def _line(text: str, key: str) -> int:
    last = key.split(".")[-1]
    step = re.compile(rf"^\s*[\"']?{re.escape(last)}[\"']?\s*[:=]")
    return config_diff.line_of(text, [step]) or 1


def compare(path: str, base: dict[str, object], head: dict[str, object],
            new: str) -> list[Finding]:
    return [Finding(path, _line(new, ch.key), RULE,
                    f"{ch.key}: {config_diff.show_change(ch.old, ch.new)}; a setting of the "
                    "package manager, which decides how the install and every package script "
                    "run (`npm test` included)", "warning")
            for ch in config_diff.changes(base, head)]
