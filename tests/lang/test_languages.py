"""The one table of languages: every reader takes its extensions from it."""
from __future__ import annotations

import pytest

from gate.lang import escape_patterns, markers, source
from gate.lang.grammar import GRAMMARS, grammar_of
from gate.lang.languages import LANGUAGES, extensions, language_of


def test_an_extension_belongs_to_one_language() -> None:
    all_extensions = [ext for language in LANGUAGES for ext in language.extensions]
    assert len(all_extensions) == len(set(all_extensions))


def test_the_extension_decides_in_any_case() -> None:
    assert language_of("src/App.TSX") == language_of("src/app.tsx")
    assert language_of("README.md") is None


def test_every_grammar_is_named_after_a_language_of_the_table() -> None:
    assert set(GRAMMARS) <= {language.name for language in LANGUAGES}


SAMPLES = {
    "a.js": "const s = 'x'; // note\n",
    "a.ts": "const s: string = 'x'; // note\n",
    "a.tsx": "const s = <b>'x'</b>; // note\n",
    "a.go": "package a\nvar s = \"x\" // note\n",
    "a.rs": "let s = \"x\"; // note\n",
    "A.java": "class A { String s = \"x\"; } // note\n",
    "a.rb": "s = 'x' # note\n",
}


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_tree_sitter_reads_every_grammar_language(path: str) -> None:
    split = source.split(path, SAMPLES[path])
    grammar = grammar_of(path)
    assert split is not None and grammar is not None
    assert (split.language, split.parsed) == (grammar.name, True)
    line = split.lines[len(split.lines)]  # the last line: the string and the comment
    assert "x" not in line.code
    assert "note" in line.comment


def test_the_readers_agree_with_the_table() -> None:
    assert extensions("typescript", "tsx") == escape_patterns.TYPESCRIPT
    assert markers.language_of("spec/a_spec.rb") == "ruby"
    assert markers.language_of("A.kts") == "java"
    assert source.lexer_of("a.swift") == "c-like"
