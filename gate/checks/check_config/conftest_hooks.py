"""conftest.py lines that change collection or reporting: hooks, `collect_ignore`, exits."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from gate.lang import source

WORDS = re.compile(
    r"(?<![\w.])(?:collect_ignore_glob|collect_ignore|pytest_collection_modifyitems"
    r"|pytest_ignore_collect|pytest_collect_file|pytest_pycollect_makeitem"
    r"|pytest_runtest_makereport|pytest_runtest_protocol|pytest_runtest_call|pytest_runtestloop"
    r"|pytest_report_teststatus|pytest_sessionfinish|sys\s*\.\s*exit|os\s*\.\s*_exit"
    r"|pytest\s*\.\s*exit)\b"
)


def added(path: str, text: str, lines: Mapping[int, str]) -> Iterator[tuple[int, str]]:
    """(line, name) for each hook or exit named in code (not strings or comments) on the added
    `lines` of the conftest.py `text`."""
    split = source.split(path, text)
    if split is None:
        return
    for number in sorted(lines):
        line = split.lines.get(number)
        names = {"".join(m.group().split()) for m in WORDS.finditer(line.code if line else "")}
        for name in sorted(names):
            yield number, name
