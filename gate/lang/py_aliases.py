"""The names a Python file gives pytest and unittest, read from its imports with `ast`, so that a
marker spelled through an alias is read as the marker: `import pytest as pt` -> `pt.mark.skip`,
`from pytest import mark as m` -> `m.skip`, `from unittest import skip as later` -> `@later`.
"""
from __future__ import annotations

import ast
import dataclasses
import re

_MODULES = ("pytest", "unittest")
# Names whose import makes a marker: what each stands for.
_MEMBERS = {
    "pytest": ("mark", "skip", "xfail", "importorskip"),
    "unittest": ("skip", "skipIf", "skipUnless", "expectedFailure", "SkipTest"),
}
_MAY_ALIAS = re.compile(r"\b(?:import\s[^\n]*\b(?:pytest|unittest)\s+as\b"
                        r"|from\s+(?:pytest|unittest)(?:\.case)?\s+import\b)")


@dataclasses.dataclass(frozen=True)
class Aliases:
    names: dict[str, str]  # local name -> what it stands for: "pt" -> "pytest"
    import_lines: frozenset[int]  # lines of import statements, where a name is not a use

    def uses(self) -> re.Pattern[str] | None:
        """Whole-word uses of the aliased names, not attributes of something else."""
        if not self.names:
            return None
        words = "|".join(sorted(map(re.escape, self.names), key=len, reverse=True))
        return re.compile(rf"(?<![\w.])(?:{words})\b")

    def resolve(self, number: int, code: str, uses: re.Pattern[str]) -> str:
        """Line `number`'s `code` with each aliased name written as what it stands for."""
        if number in self.import_lines:
            return code
        return uses.sub(lambda m: self.names[m.group()], code)


NONE = Aliases({}, frozenset())


def aliases(text: str) -> Aliases:
    """The names that differ from how the markers are written ("pt" -> "pytest", "m" ->
    "pytest.mark"); none for a file that does not parse."""
    if not _MAY_ALIAS.search(text):
        return NONE
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return NONE
    out: dict[str, str] = {}
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in _MODULES and alias.asname and alias.asname != alias.name:
                    out[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module.split(".")[0]
            for alias in node.names:
                if module in _MEMBERS and alias.name in _MEMBERS[module]:
                    local = alias.asname or alias.name
                    if not (module == "pytest" and local == "mark"):  # `mark.skip` is read
                        out[local] = f"{module}.{alias.name}"
    return Aliases(out, frozenset(lines))
