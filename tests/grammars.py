"""Tests of what only the tree-sitter grammars read (Python 3.10+); on 3.9 the lexer reads
these files, as the README says, and these tests do not apply."""
from __future__ import annotations

import pytest

from gate.lang import source

# gate: allow skip-markers -- skips only on Python 3.9, where the grammars are not installed
needs_tree_sitter = pytest.mark.skipif(
    not source.TREE_SITTER,
    reason="the tree-sitter grammars need Python 3.10 or newer; 3.9 reads with the lexer")
