"""JUnit tests in Java and Kotlin: methods annotated `@Test`, `@ParameterizedTest`,
`@RepeatedTest`, `@TestFactory` or `@TestTemplate`, named "Class.method" (nested classes as
"Outer.Inner.method").

Read from code whose strings and comments are blanked (the Java grammar, or the lexer for
Kotlin), so an annotation in a string or a comment is not a test; names are read from the text at
the same offsets (a Kotlin name in backticks is blanked in the code).
"""
from __future__ import annotations

import re
from collections.abc import Iterator

_TOKEN = re.compile(
    r"(?<![\w.])(?:class|interface|object|enum)\s+(?P<cls>\w+)"
    r"|@(?:[\w.]+\.)?(?P<test>Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b"
    r"(?!\s*\.)"
    r"|(?P<open>\{)|(?P<close>\})"
)
_ANNOTATION = re.compile(r"\s*@[\w.]+\s*")
_JAVA_NAME = re.compile(r"[^(){};=@]*?(?P<name>\w+)\s*\(")  # modifiers, type, name(
_KOTLIN_FUN = re.compile(r"[\w\s]*?\bfun\b")  # modifiers, fun
_KOTLIN_NAME = re.compile(r"\s+(?:<[^>]*>\s*)?(?P<name>`[^`\n]*`|\w+)")  # read from the text


def _skip_parens(code: str, pos: int) -> int:
    """The offset after the balanced parentheses that open at `pos`, else `pos`."""
    if pos >= len(code) or code[pos] != "(":
        return pos
    depth = 0
    for i in range(pos, len(code)):
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        if depth == 0:
            return i + 1
    return len(code)


def _method(code: str, text: str, pos: int) -> tuple[str, int] | None:
    """The name and offset of the method declared after the annotation that ends at `pos`."""
    pos = _skip_parens(code, pos)
    while True:
        m = _ANNOTATION.match(code, pos)
        if m is None:
            break
        pos = _skip_parens(code, m.end())
    fun = _KOTLIN_FUN.match(code, pos)
    found = (_KOTLIN_NAME.match(text, fun.end()) if fun is not None
             else _JAVA_NAME.match(code, pos))
    if found is None:
        return None
    return found.group("name").strip("`"), found.start("name")


def tests(code: str, text: str) -> Iterator[tuple[str, int]]:
    """(Class.method, offset) of each JUnit test in a Java or Kotlin file."""
    classes: list[str | None] = []  # per open brace: the class it opens, else None
    pending: str | None = None
    for m in _TOKEN.finditer(code):
        if m.group("cls"):
            pending = text[m.start("cls"):m.end("cls")]
        elif m.group("open"):
            classes.append(pending)
            pending = None
        elif m.group("close"):
            if classes:
                classes.pop()
        else:
            method = _method(code, text, m.end())
            if method is not None:
                name, offset = method
                owner = ".".join(c for c in classes if c is not None)
                yield (f"{owner}.{name}" if owner else name), offset
