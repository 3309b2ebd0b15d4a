"""The architecture stays visible from the tree: few modules at the top of gate/, and every
subpackage says in its docstring what it owns."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

GATE = Path(__file__).resolve().parents[2] / "gate"
PACKAGES = sorted(p.parent for p in GATE.rglob("__init__.py") if p.parent != GATE)


def test_the_top_of_gate_holds_at_most_ten_entries_besides_subpackages() -> None:
    entries = [p.name for p in GATE.iterdir()
               if p.name != "__pycache__" and not (p / "__init__.py").exists()]
    assert len(entries) <= 10, sorted(entries)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(GATE)))
def test_every_subpackage_says_what_it_owns(package: Path) -> None:
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
    assert docstring is not None and len(docstring.split()) >= 8
