"""justfile recipes read as make rules (a recipe, its dependencies, its commands; `name :=
value` variables), so they are compared exactly as a Makefile's: the `test` and `check` recipes,
any recipe that runs a test runner, and what they depend on."""
from __future__ import annotations

import re

from gate.checks.check_config import makefile
from gate.checks.check_config.makefile import Makefile, Rule

_HEADER = re.compile(r"^@?(?P<name>[A-Za-z_][\w-]*)(?P<params>[^:]*?):(?!=)\s*(?P<deps>.*)$")
_ASSIGN = re.compile(r"^(?:export\s+)?(?P<name>[A-Za-z_][\w-]*)\s*:=\s*(?P<value>.*)$")
_SETTING = re.compile(r"^(?:set|alias|import|mod)\b")


def parse(text: str) -> Makefile:
    rules: dict[str, Rule] = {}
    variables: dict[str, tuple[int, str]] = {}
    current: Rule | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line[:1] in (" ", "\t"):
            command = makefile.recipe_command(line.strip().lstrip("-"))
            if current is not None and command:
                current.recipe.append(command)
            continue
        code = line.split("#", 1)[0].strip() if not line.startswith("#!") else ""
        current = None
        if not code or code.startswith("[") or _SETTING.match(code):
            continue
        assign = _ASSIGN.match(code)
        if assign is not None:
            value = makefile.recipe_command(assign.group("value"))
            variables[assign.group("name")] = (number, value)
            continue
        header = _HEADER.match(code)
        if header is not None:
            deps = [d.strip("()") for d in header.group("deps").split() if d != "&&"]
            current = rules.setdefault(header.group("name"), Rule(number, deps))
    return Makefile(rules, variables)
