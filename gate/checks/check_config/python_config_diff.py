"""Python tool configuration compared as parsed data: pyproject.toml tool tables, pytest.toml,
ini files (pytest.ini, tox.ini, setup.cfg, mypy.ini, .flake8, .coveragerc) and the gate's own
.gate.toml."""
from __future__ import annotations

import posixpath

from gate.checks.check_config import config_diff
from gate.checks.check_config.config_diff import RuledWeakening

Table = dict[str, object]
Sections = dict[str, Table]

GATE_NOTE = "ignored for this run: the gate reads its config from the base"
WEAKEN_NOTE = "this setting decides what the checks catch"
PYPROJECT_TABLES = (
    ("tool.pytest", "pytest-config"), ("tool.mypy", "mypy-config"),
    ("tool.pyright", "pyright-config"), ("tool.ruff", "ruff-config"),
    ("tool.coverage", "coverage-config"), ("tool.gate", "gate-config"),
    # what runs the tests: tox 4's native TOML, hatch environments and scripts, pdm and poe
    ("tool.tox", "tox-config"), ("tool.hatch.envs", "hatch-config"),
    ("tool.pdm.scripts", "pdm-scripts"), ("tool.poe.tasks", "poe-tasks"),
)
INI_FILES = ("pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "mypy.ini", ".mypy.ini",
             ".flake8", ".coveragerc")


def pyproject(path: str, base: Table, head: Table, new: str) -> list[RuledWeakening]:
    out = []
    for table, rule in PYPROJECT_TABLES:
        note = GATE_NOTE if rule == "gate-config" else WEAKEN_NOTE
        for ch in config_diff.changes(config_diff.dig(base, table), config_diff.dig(head, table)):
            line = config_diff.toml_line(new, table, ch.key)
            out.append((line, rule, f"[{table}] {ch.key}: "
                                f"{config_diff.show_change(ch.old, ch.new)}; {note}"))
    return out


def pytest_toml(path: str, base: Table, head: Table, new: str) -> list[RuledWeakening]:
    """pytest.toml and .pytest.toml (pytest 9): the `[pytest]` table."""
    return [(config_diff.toml_line(new, "pytest", ch.key), "pytest-config",
             f"[pytest] {ch.key}: {config_diff.show_change(ch.old, ch.new)}; {WEAKEN_NOTE}")
            for ch in config_diff.changes(config_diff.dig(base, "pytest"),
                                          config_diff.dig(head, "pytest"))]


def gate_toml(path: str, base: Table, head: Table, new: str) -> list[RuledWeakening]:
    return [
        (config_diff.toml_line(new, "", ch.key), "gate-config",
                 f"{ch.key}: {config_diff.show_change(ch.old, ch.new)}; {GATE_NOTE}")
        for ch in config_diff.changes(base, head)
    ]


def _ini_rule(name: str, section: str) -> str | None:
    if name == ".coveragerc" or section.startswith("coverage:"):
        return "coverage-config"
    if section in ("pytest", "tool:pytest"):
        return "pytest-config"
    if section == "mypy" or section.startswith("mypy-"):
        return "mypy-config"
    if section == "flake8":
        return "flake8-config"
    if name in ("tox.ini", "setup.cfg") and (section == "testenv" or section.startswith(
            "testenv:")):  # setup.cfg holds tox's config beside [tox:tox]
        return "tox-config"
    return None


def _renamed(name: str, base: Sections, head: Sections) -> dict[str, str]:
    """Sections gone from the base paired with new head sections of the same rule that keep
    at least half of their settings: a tox env renamed (`py3{8,13}-tests` to `py3{9,13}-tests`)
    is one section renamed, not every key removed and added again. Head name -> base name."""
    gone = [b for b in base if b not in head and _ini_rule(name, b) is not None]
    new = [h for h in head if h not in base and _ini_rule(name, h) is not None]
    pairs: dict[str, str] = {}
    for old in gone:
        kept = [(sum(1 for k, v in base[old].items() if head[h].get(k) == v), h) for h in new
                if h not in pairs and _ini_rule(name, h) == _ini_rule(name, old)]
        score, best = max(kept, default=(0, ""))
        if best and score * 2 >= max(len(base[old]), 1):
            pairs[best] = old
    return pairs


def ini(path: str, base: Sections, head: Sections, new: str) -> list[RuledWeakening]:
    out: list[RuledWeakening] = []
    name = posixpath.basename(path)
    renamed = _renamed(name, base, head)
    for section in sorted((set(base) - set(renamed.values())) | set(head)):
        rule = _ini_rule(name, section)
        if rule is None:
            continue
        old_name = renamed.get(section, section)
        label = f"[{old_name}] renamed to [{section}]" if old_name != section else f"[{section}]"
        changed = config_diff.changes(base.get(old_name, {}), head.get(section, {}))
        if old_name not in base and len(changed) > 1:  # a whole new section: one finding
            keys = ", ".join(ch.key for ch in changed)
            out.append((config_diff.ini_line(new, section, ""), rule,
                        f"[{section}] added ({keys}); {WEAKEN_NOTE}"))
            continue
        if old_name != section and not changed:
            out.append((config_diff.ini_line(new, section, ""), rule,
                        f"{label}, its settings unchanged; {WEAKEN_NOTE}"))
        for ch in changed:
            line = config_diff.ini_line(new, section, ch.key)
            out.append((line, rule, f"{label} {ch.key}: "
                                f"{config_diff.show_change(ch.old, ch.new)}; {WEAKEN_NOTE}"))
    return out
