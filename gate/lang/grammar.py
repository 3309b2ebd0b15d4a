"""Which tree-sitter grammar reads which file, and which of its nodes are literals or comments.

The grammars are the per-language wheels (tree-sitter-javascript, -typescript, -go, -rust,
-java, -ruby), which carry their compiled parser: nothing is downloaded at run time.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import tree_sitter
import tree_sitter_go
import tree_sitter_java
import tree_sitter_javascript
import tree_sitter_ruby
import tree_sitter_rust
import tree_sitter_typescript

from gate.lang.languages import language_of


@dataclasses.dataclass(frozen=True)
class Grammar:
    name: str
    load: Callable[[], object]  # the grammar package's language() pointer
    literals: tuple[str, ...]  # node types whose text is data: blanked
    comments: tuple[str, ...]  # node types whose text is a comment: blanked and kept


_JS_LITERALS = ("string", "template_string", "regex", "jsx_text")
_JS = Grammar("javascript", tree_sitter_javascript.language, _JS_LITERALS, ("comment",))
_TS = Grammar("typescript", tree_sitter_typescript.language_typescript,
              ("string", "template_string", "regex"), ("comment",))
_TSX = Grammar("tsx", tree_sitter_typescript.language_tsx, _JS_LITERALS, ("comment",))
_GO = Grammar("go", tree_sitter_go.language,
              ("interpreted_string_literal", "raw_string_literal", "rune_literal"), ("comment",))
_RUST = Grammar("rust", tree_sitter_rust.language,
                ("string_literal", "raw_string_literal", "char_literal"),
                ("line_comment", "block_comment"))
_JAVA = Grammar("java", tree_sitter_java.language, ("string_literal", "character_literal"),
                ("line_comment", "block_comment"))
_RUBY = Grammar("ruby", tree_sitter_ruby.language,
                ("string", "heredoc_body", "regex", "string_array", "symbol_array", "subshell"),
                ("comment",))

# By the language's name in gate.lang.languages.
GRAMMARS: dict[str, Grammar] = {
    "javascript": _JS, "typescript": _TS, "tsx": _TSX,
    "go": _GO, "rust": _RUST, "java": _JAVA, "ruby": _RUBY,
}


def grammar_of(path: str) -> Grammar | None:
    language = language_of(path)
    return GRAMMARS.get(language.name) if language is not None else None


@functools.cache
def parser(grammar: Grammar) -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(grammar.load()))


@functools.cache
def query(grammar: Grammar) -> tree_sitter.Query:
    """One query that captures every literal as @literal and every comment as @comment."""
    patterns = [f"({t}) @literal" for t in grammar.literals]
    patterns += [f"({t}) @comment" for t in grammar.comments]
    compiled: tree_sitter.Query = tree_sitter.Query(tree_sitter.Language(grammar.load()),
                                                    " ".join(patterns))
    return compiled
