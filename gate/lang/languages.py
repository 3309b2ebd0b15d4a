"""The languages the gate reads, and their file extensions: the one table of them.

`lexer` says how the hand lexer reads strings and comments where no tree-sitter grammar does
(or a grammar cannot parse the file); `tests` names the family of test frameworks whose skip
and focus markers apply (None: none the gate knows).
"""
from __future__ import annotations

import dataclasses
import posixpath
from typing import Literal

Lexer = Literal["python", "c-like", "rust", "hash"]
Family = Literal["python", "js", "go", "rust", "java", "ruby"]


@dataclasses.dataclass(frozen=True)
class Language:
    name: str
    extensions: tuple[str, ...]
    lexer: Lexer
    tests: Family | None


LANGUAGES: tuple[Language, ...] = (
    Language("python", (".py", ".pyi"), "python", "python"),
    Language("javascript", (".js", ".jsx", ".mjs", ".cjs"), "c-like", "js"),
    Language("typescript", (".ts", ".mts", ".cts"), "c-like", "js"),
    Language("tsx", (".tsx",), "c-like", "js"),
    Language("go", (".go",), "c-like", "go"),
    Language("rust", (".rs",), "rust", "rust"),
    Language("java", (".java",), "c-like", "java"),
    Language("kotlin", (".kt", ".kts"), "c-like", "java"),
    Language("ruby", (".rb",), "hash", "ruby"),
    Language("csharp", (".cs",), "c-like", None),
    Language("swift", (".swift",), "c-like", None),
    Language("c", (".c", ".h"), "c-like", None),
    Language("cpp", (".cc", ".cpp", ".hpp"), "c-like", None),
    Language("scala", (".scala",), "c-like", None),
    Language("shell", (".sh", ".bash"), "hash", None),
)
_BY_NAME = {language.name: language for language in LANGUAGES}
_BY_EXTENSION = {ext: language for language in LANGUAGES for ext in language.extensions}


def language_of(path: str) -> Language | None:
    """The language of a file, by its extension (any case); None for one the gate does not
    read."""
    return _BY_EXTENSION.get(posixpath.splitext(path)[1].lower())


def extensions(*names: str) -> tuple[str, ...]:
    """The extensions of the named languages, in table order."""
    return tuple(ext for name in names for ext in _BY_NAME[name].extensions)


JAVASCRIPT_FAMILY = extensions("javascript", "typescript", "tsx")
