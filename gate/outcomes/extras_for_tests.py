"""What a Python project's tests need installed beyond the project: its extras
(`[project.optional-dependencies]`) and dependency groups (`[dependency-groups]`, PEP 735)
whose name the project's own CI says, under any name: the names its GitHub workflows, tox.ini
and noxfile.py install (`.[tests]`, `--extra tests`, `--group tests`, tox's `extras =` and
`dependency_groups =`) where one looks like the tests' (`test`, `tests`, `testing`, `dev`,
`ci`, any name with one of those in it), with those installed beside it (`.[tests,yaml]`);
where the CI says none, the first of `test`, `tests`, `testing`,
`dev` that the project has."""
from __future__ import annotations

import dataclasses
import glob
import os
import re

from gate.execution import judged_files

_KNOWN = ("test", "tests", "testing", "dev")
_TESTISH = re.compile(r"test|dev|^ci$", re.I)
_CI_FILES = (".github/workflows/*.yml", ".github/workflows/*.yaml", "tox.ini", "noxfile.py",
             ".gitlab-ci.yml", "Makefile", "justfile")
_NAMES = re.compile(
    r"\.\[([\w,\- ]+)\]"  # pip install -e '.[tests,yaml]'
    r"|--(?:extra|group|only-group)[= ]+['\"]?([\w\-]+)"  # uv / pip --group
    r"|^[ \t]*(?:extras|dependency_groups)[ \t]*=[ \t]*"  # tox, its value's lines indented
    r"([\w,\- \t]*(?:\n[ \t]+[\w,\- \t]+)*)",
    re.M)


@dataclasses.dataclass(frozen=True)
class Needs:
    extras: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


def _mentioned(root: str) -> list[str]:
    """The names the CI files install together with a name that looks like the tests'
    (`.[tests,yaml]`: both)."""
    names: list[str] = []
    for pattern in _CI_FILES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            text = judged_files.text(path)  # a file only: the install may have left a FIFO
            if text is None:
                continue
            for found in _NAMES.finditer(text):
                listed = next(g for g in found.groups() if g is not None)
                together = [n for n in re.split(r"[,\s]+", listed) if n]
                if any(_TESTISH.search(n) for n in together):
                    names += together
    return list(dict.fromkeys(names))


def _first_known(names: set[str]) -> tuple[str, ...]:
    return next(((n,) for n in _KNOWN if n in names), ())


def needs(root: str, extras: set[str], groups: set[str]) -> Needs:
    """The extras and groups (of those the project has) that its tests need."""
    said = _mentioned(root)
    said_extras = tuple(n for n in said if n in extras)
    said_groups = tuple(n for n in said if n in groups)
    if said_extras or said_groups:
        return Needs(said_extras, said_groups)
    return Needs(_first_known(extras), _first_known(groups))
