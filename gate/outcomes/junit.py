"""Per-test outcomes from a JUnit XML report (pytest's `--junitxml`, family xunit1)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from gate.execution import judged_files
from gate.outcomes import colour
from gate.outcomes.record import CaseResult, Outcome

__all__ = ["CaseResult", "parse"]


def _display_name(classname: str, name: str, file: str | None) -> str:
    if file and file.endswith(".py"):
        module = file[:-3].replace("/", ".")
        if classname == module:
            return f"{file}::{name}"
        if classname.startswith(module + "."):
            return f"{file}::{classname[len(module) + 1:].replace('.', '::')}::{name}"
    return f"{classname}::{name}" if classname else name


NOT_COLLECTED = "not collected: "  # how a module that pytest could not collect is told
_COLLECTION = "collection failure"  # pytest's message for it


def not_collected(case: CaseResult) -> bool:
    return case.message.startswith(NOT_COLLECTED)


def split_failed(cases: Sequence[CaseResult]) -> tuple[list[str], list[str]]:
    """The names of the failed tests, and of the modules that could not be collected."""
    return ([c.name for c in cases if not not_collected(c)],
            [c.name for c in cases if not_collected(c)])


def _collection_error(text: str) -> str:
    """The error that stopped a module's collection: "ModuleNotFoundError: No module named
    'dateutil'" (the last of pytest's `E` lines), else the text's last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line[1:].strip() for line in lines if line.startswith("E ")]
    return NOT_COLLECTED + (errors[-1] if errors else lines[-1] if lines else _COLLECTION)


def _seconds(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def parse(path: str) -> list[CaseResult] | None:
    """The outcomes in a report file; None if the file is missing, not a regular file (the
    judged code may have left a FIFO there to hang the gate) or not a JUnit report."""
    f = judged_files.open_regular(path)
    if f is None:
        return None
    try:
        with f:
            root = ET.parse(f).getroot()
    except (OSError, ET.ParseError):
        return None
    outcomes = []
    for element in root.iter("testcase"):
        outcome: Outcome = "passed"
        message = ""
        collection = False
        for child in element:
            if child.tag in ("failure", "error"):
                outcome = "failed"
                message = child.get("message") or (child.text or "").strip()
                if message == _COLLECTION:
                    message, collection = child.text or "", True
                break
            if child.tag == "skipped":
                outcome = "skipped"
                message = child.get("message") or ""
        outcomes.append(case(element.get("classname", ""), element.get("name", ""),
                             element.get("file"), element.get("line"), outcome, message,
                             collection, _seconds(element.get("time"))))
    return outcomes


def case(classname: str, name: str, file: str | None, line_text: str | None, outcome: Outcome,
         message: str, collection: bool = False, seconds: float | None = None) -> CaseResult:
    """A test as the report names it: classname and name (xunit1), its file, its line as the
    report writes it (0-based), its outcome and message (without colour codes); `collection`:
    the message is the text of an error that stopped a module's collection."""
    line = int(line_text) + 1 if line_text and line_text.isdigit() else None
    message = colour.plain(message)  # a run the project's CI asks to colour
    if collection and file:
        message = _collection_error(message)
    elif collection:
        message = _COLLECTION
    shown = (file if file and message.startswith(NOT_COLLECTED) else
             _display_name(classname, name, file))
    return CaseResult(shown, file, line, outcome, message[:500], seconds)
