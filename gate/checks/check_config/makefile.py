"""Makefiles read as rules and variables, and compared where they decide how the tests run.

The watched targets are `test`, `check` and any target whose recipe runs a test runner (`go
test`, `cargo test`, `pytest`, `tox`, `npm test`...), the targets they depend on and the targets
their recipes run with `$(MAKE) X` or `make X`, transitively, and the variables those recipes and
prerequisites use. Recipes are compared as commands: whitespace, line continuations and comments
do not count, so reformatting raises nothing.
"""
from __future__ import annotations

import dataclasses
import re
import shlex

from gate.checks.check_config.config_diff import Weakening, show_change

WATCHED = ("test", "check")
# a target of any name whose recipe runs a test runner is watched too (`ci: go test ./...`)
RUNS_TESTS = re.compile(r"(?<![\w-])(?:go\s+test|cargo\s+(?:test|nextest)|pytest|tox|nox"
                        r"|npm\s+(?:run\s+)?test|yarn\s+test|pnpm\s+test|jest|vitest|ctest"
                        r"|mvn\s+(?:\S+\s+)*test|gradlew?\s+test)(?![\w-])")

_RULE = re.compile(r"^(?P<targets>[^:=#\s][^:=#]*?)\s*(?P<colons>::?)(?!=)\s*(?P<rest>.*)$")
_ASSIGN = re.compile(r"^(?:(?:export|override)\s+)?(?P<name>[^:=#\s+?!]+)\s*(?:::|:|\?|\+|!)?="
                     r"\s*(?P<value>.*)$")
_DIRECTIVE = re.compile(r"^(?:ifeq|ifneq|ifdef|ifndef|else|endif|include|-include|sinclude"
                        r"|vpath|export|unexport|undefine)\b")
_VARIABLE = re.compile(r"\$[({](\w+)[)}]")
_PLAIN = re.compile(r"[^\s'\"\\]+")  # a word shown without quotes
_SUBMAKE = re.compile(r"(?:\$[({]MAKE[)}]|(?<![\w-])make)\s+((?:-\S+\s+)*)([\w.-]+)")


@dataclasses.dataclass
class Rule:
    line: int  # of the first rule for the target
    prerequisites: list[str] = dataclasses.field(default_factory=list)
    recipe: list[str] = dataclasses.field(default_factory=list)  # commands, normalised


@dataclasses.dataclass
class Makefile:
    rules: dict[str, Rule]
    variables: dict[str, tuple[int, str]]  # name -> (line, value normalised)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) with backslash continuations joined."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if pending is not None:
            start, before = pending
            line, number = before + " " + line.lstrip(), start
        if line.endswith("\\"):
            pending = (number, line[:-1])
            continue
        pending = None
        out.append((number, line))
    if pending is not None:
        out.append(pending)
    return out


def _normal(command: str) -> str:
    """A command as its words: quoting, spacing and a trailing shell comment do not count."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:  # unbalanced quotes: compared as written
        return " ".join(command.split())
    return " ".join(w if _PLAIN.fullmatch(w) else shlex.quote(w) for w in words)


def recipe_command(line: str) -> str:
    """A recipe line as a command; `@` (do not echo) does not change what runs."""
    return _normal(line.strip().lstrip("@"))


def _strip_comment(line: str) -> str:
    return re.sub(r"(?<!\\)#.*", "", line)


def parse(text: str) -> Makefile:
    rules: dict[str, Rule] = {}
    variables: dict[str, tuple[int, str]] = {}
    current: list[Rule] = []
    in_define = False
    for number, line in _logical_lines(text):
        if in_define:
            in_define = not line.strip().startswith("endef")
            continue
        if line.startswith("\t"):
            command = recipe_command(line)
            if current and command:
                for entry in current:
                    entry.recipe.append(command)
            continue
        code = _strip_comment(line).strip()
        if not code:
            continue
        if code.startswith("define "):
            in_define = True
            current = []
            continue
        assign = _ASSIGN.match(code)
        if assign is not None:
            variables[assign.group("name")] = (number, _normal(assign.group("value")))
            current = []
            continue
        header = _RULE.match(code)
        if header is None:
            if not _DIRECTIVE.match(code):  # a line that is not a rule ends the recipe
                current = []
            continue
        rest, _, inline = header.group("rest").partition(";")
        targets = header.group("targets").split()
        local = _ASSIGN.match(rest.strip())
        if local is not None:  # `test: ARGS = -x`, a target-specific variable
            for target in targets:
                variables[f"{local.group('name')}@{target}"] = (
                    number, _normal(local.group("value")))
            continue
        current = []
        for target in targets:
            rule = rules.setdefault(target, Rule(number))
            rule.prerequisites.extend(p for p in rest.replace("|", " ").split()
                                      if p not in rule.prerequisites)
            if inline.strip():
                rule.recipe.append(recipe_command(inline))
            current.append(rule)
    return Makefile(rules, variables)


def _watched(makefile: Makefile) -> dict[str, str]:
    """Watched target -> the watched target it is reached from (itself for `test`, `check`
    and a target that runs a test runner; those named `test` and `check` are followed first)."""
    found: dict[str, str] = {}
    runners = [t for t, rule in makefile.rules.items()
               if t not in WATCHED and any(RUNS_TESTS.search(c) for c in rule.recipe)]
    for roots in ([t for t in WATCHED if t in makefile.rules], runners):
        queue = [(t, t) for t in roots]
        while queue:
            target, root = queue.pop(0)
            if target in found:
                continue
            found[target] = root
            rule = makefile.rules[target]
            called = [m.group(2) for command in rule.recipe for m in _SUBMAKE.finditer(command)]
            queue.extend((t, root) for t in [*rule.prerequisites, *called]
                         if t in makefile.rules)
    return found


def watched_recipes(makefile: Makefile) -> list[str]:
    """The commands of the watched targets' recipes (`test`, `check`, what they run)."""
    return [command for target in _watched(makefile) for command in makefile.rules[target].recipe]


def _used(makefile: Makefile, targets: dict[str, str]) -> dict[str, str]:
    """Variable -> the watched target whose recipe or prerequisites use it."""
    used: dict[str, str] = {}
    for target in targets:
        rule = makefile.rules[target]
        for text in [*rule.recipe, *rule.prerequisites]:
            for name in _VARIABLE.findall(text):
                used.setdefault(name, target)
                used.setdefault(f"{name}@{target}", target)
    return used


def _via(target: str, root: str) -> str:
    return f"target `{target}`" if target == root else f"target `{target}` (run by `{root}`)"


def compare(base: Makefile, head: Makefile) -> list[Weakening]:
    """What the head changes in how the base's `test` and `check` targets run."""
    out: list[Weakening] = []
    watched = _watched(base)
    for target, root in watched.items():
        old, new = base.rules[target], head.rules.get(target)
        what = _via(target, root)
        if new is None:
            out.append((1, f"{what} removed"))
            continue
        if old.recipe != new.recipe:
            out.append((new.line, f"{what}: recipe " + show_change(
                " && ".join(old.recipe) or "(none)", " && ".join(new.recipe) or "(none)")))
        if old.prerequisites != new.prerequisites:
            out.append((new.line, f"{what}: prerequisites {_show(old.prerequisites, ' ')} -> "
                        f"{_show(new.prerequisites, ' ')}"))
    for name, target in sorted(_used(base, watched).items()):
        before, after = base.variables.get(name), head.variables.get(name)
        if before is not None and (after is None or after[1] != before[1]):
            label = name.replace("@", " for target ")
            out.append((after[0] if after else 1, f"variable `{label}` (used by `{target}`): "
                        f"{_value(before)} -> {_value(after)}"))
    return out


def _show(items: list[str], joiner: str = " && ") -> str:
    text = joiner.join(items) if items else "(none)"
    return f'"{text}"' if len(text) <= 80 else f'"{text[:79]}…"'


def _value(entry: tuple[int, str] | None) -> str:
    return "(unset)" if entry is None else _show([entry[1]])
