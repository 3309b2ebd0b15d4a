"""RSpec examples: `it`, `specify`, `example` (and their `x`/`f` forms) named by the titles of
the `describe`/`context` groups around them, "Calculator > #add > adds two numbers".

Read from code whose strings and comments are blanked (the Ruby grammar, else the lexer); blocks
are followed through `do`/`end`, braces and the keywords that open an `end` (`def`, `class`,
`if` at the start of a statement...). Titles are read from the text: a string literal, else a
constant (`describe Calculator do`). An example without a title is named "(untitled)".
"""
from __future__ import annotations

import re
from collections.abc import Iterator

_GROUP = (r"(?:RSpec\s*\.\s*)?[xf]?(?:describe|context|feature)"
          r"|shared_examples(?:_for)?|shared_context")
_EXAMPLE = r"[xf]?(?:it|specify|example|scenario)"
_TOKEN = re.compile(
    rf"(?<![\w.:@$])(?:(?P<group>{_GROUP})|(?P<example>{_EXAMPLE}))(?![\w?!:])"
    r"|(?<![\w.:@$])(?P<opener>do|def|class|module|begin|case|for|end"
    r"|(?P<conditional>if|unless|while|until))(?![\w?!:])"
    r"|(?P<brace>[{}])"
)
_TITLE = re.compile(r"[ \t]*\(?[ \t]*(?:(['\"])(?P<string>(?:\\.|(?!\1).)*)\1"
                    r"|(?P<constant>[A-Z][\w:]*))")
_STATEMENT_START = re.compile(r"(?:^|[=(;]|\|\||&&|\breturn)\s*$")


def _title(text: str, pos: int) -> str | None:
    m = _TITLE.match(text, pos)
    if m is None:
        return None
    return m.group("string") if m.group("string") is not None else m.group("constant")


def examples(code: str, text: str) -> Iterator[tuple[str, int]]:
    """(group titles > example title, offset) of each example in a spec file."""
    stack: list[str | None] = []  # per open block: the title of the group it opens, else None
    pending: str | None = None  # the title of a group whose block has not opened yet
    loop_line = -1  # a `while`/`until`/`for` line: its optional `do` opens no second block
    for m in _TOKEN.finditer(code):
        if m.group("group"):
            pending = _title(text, m.end()) or ""
        elif m.group("example"):
            title = _title(text, m.end())
            path = [t for t in stack if t is not None]
            yield " > ".join([*path, title if title is not None else "(untitled)"]), m.start()
        elif m.group("brace") == "}" or m.group("opener") == "end":
            if stack:
                stack.pop()
        elif m.group("brace") == "{" or m.group("opener") == "do":
            line = code.count("\n", 0, m.start())
            if m.group("opener") == "do" and line == loop_line:
                continue
            stack.append(pending)
            pending = None
        elif m.group("conditional"):
            before = code[code.rfind("\n", 0, m.start()) + 1:m.start()]
            if _STATEMENT_START.search(before):
                stack.append(None)
                if m.group("conditional") in ("while", "until"):
                    loop_line = code.count("\n", 0, m.start())
        else:  # def, class, module, begin, case, for
            stack.append(None)
            if m.group("opener") == "for":
                loop_line = code.count("\n", 0, m.start())
