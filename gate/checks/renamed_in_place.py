"""A test renamed where it stands, its body unchanged (picomatch 2661f23 fixed a typo in an
`it` title): the same test under a new name, not a removal. Only the name on the definition's
first line may differ; anything else that changed in its block (a body, a marker before the
call, `it` made `xit`, a method moved under another class) leaves it a removal, with the rename
hint."""
from __future__ import annotations

import os

from gate.lang.testdefs import Definition


def _own(name: str, path: str) -> str:
    """The part of a test's identity written on its definition's line: the title under its
    describes, the method under its class."""
    if " > " in name:
        return name.rsplit(" > ", 1)[-1]
    return name.rsplit(".", 1)[-1] if os.path.splitext(path)[1] == ".py" else name


def _block(lines: list[str], line: int, starts: list[int]) -> list[str]:
    """A definition's lines: from its own up to the next definition's (or the file's end)."""
    after = [s for s in starts if s > line]
    return lines[line - 1:(min(after) - 1 if after else len(lines))]


def same_test(path: str, old: Definition, base_text: str, base_defs: list[Definition],
              new: Definition, head_text: str, head_defs: list[Definition]) -> bool:
    """Whether `new` at head is `old` of the base renamed in place: the same lines but for
    its own name on the first one."""
    was = _block(base_text.splitlines(), old.line, [d.line for d in base_defs])
    now = _block(head_text.splitlines(), new.line, [d.line for d in head_defs])
    if not was or not now or was[1:] != now[1:]:
        return False
    old_own, new_own = _own(old.name, path), _own(new.name, path)
    return (old_own != new_own and old_own in was[0]
            and was[0].replace(old_own, new_own, 1) == now[0])
