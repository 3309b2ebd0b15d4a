"""The test definition extractor (gate.lang.testdefs) against an independent count, per file.

Python: the test ids of `pytest --collect-only -q` (saved to a file, given with --ids), their
parameters stripped, against the extractor's names. JavaScript/TypeScript, Go and Rust: a count
made on the syntax tree by tree-sitter (calls of `it`/`test` and their modifiers with a literal
title; `func TestX(t *testing.T)`; functions under a `#[test]` attribute), against the
extractor, which matches patterns on blanked code. Prints each file that differs and the totals.

    .venv/bin/python bench/extractor_count.py CLONE --ids ids.txt         # Python
    .venv/bin/python bench/extractor_count.py CLONE --glob 'test/**/*.ts'  # JS, TS, Go, Rust
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import tree_sitter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gate.lang import grammar, testdefs

_JS_TEST = re.compile(r"^(?:it|test|specify)(?:\.(?:only|skip|todo|serial|failing|concurrent))*$")


def pytest_names(ids: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = collections.defaultdict(set)
    for line in ids.read_text().splitlines():
        if "::" in line and not line.startswith((" ", "<")):
            path, rest = line.strip().split("::", 1)
            out[path].add(re.sub(r"\[.*$", "", rest).replace("::", "."))
    return out


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def tree_count(path: str, data: bytes) -> int:
    """Test definitions in the syntax tree of one file."""
    found = grammar.grammar_of(path)
    if found is None:
        return 0
    root = grammar.parser(found).parse(data).root_node
    count = 0
    for node in _walk(root):
        if found.name in ("javascript", "typescript", "tsx") and node.type == "call_expression":
            callee, args = node.child_by_field_name("function"), node.child_by_field_name(
                "arguments")
            if callee is None or args is None or args.named_child_count == 0:
                continue
            first = args.named_children[0]
            if (_JS_TEST.match(data[callee.start_byte:callee.end_byte].decode())
                    and first.type in ("string", "template_string")):
                count += 1
        elif found.name == "go" and node.type == "function_declaration":
            text = data[node.start_byte:node.end_byte].decode("utf-8", "replace")
            count += bool(re.match(r"func\s+Test(?:[^\Wa-z]\w*)?\s*\(\s*\w+\s+\*testing\.T\s*\)",
                                   text))
        elif found.name == "rust" and node.type == "attribute_item":
            text = data[node.start_byte:node.end_byte].decode("utf-8", "replace")
            count += bool(re.fullmatch(r"#\[\s*(?:\w+::)*test\s*\]", text))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("clone", type=Path)
    parser.add_argument("--ids", type=Path, help="`pytest --collect-only -q` output (Python)")
    parser.add_argument("--glob", action="append", default=[], help="test files (other languages)")
    args = parser.parse_args(argv)
    theirs = ours = files = 0
    if args.ids:
        for path, names in sorted(pytest_names(args.ids).items()):
            found = {d.name for d in testdefs.extract(path, (args.clone / path).read_text()).defs}
            theirs, ours, files = theirs + len(names), ours + len(found), files + 1
            if found != names:
                print(f"{path}: pytest {len(names)}, extractor {len(found)}; "
                      f"missed {sorted(names - found)[:3]}, extra {sorted(found - names)[:3]}")
    for pattern in args.glob:
        for file in sorted(args.clone.glob(pattern)):
            path = str(file.relative_to(args.clone))
            data = file.read_bytes()
            counted = tree_count(path, data)
            found = len(testdefs.extract(path, data.decode("utf-8", "replace")).defs)
            theirs, ours, files = theirs + counted, ours + found, files + 1
            if counted != found:
                print(f"{path}: syntax tree {counted}, extractor {found}")
    print(f"{args.clone.name}: {files} files, independent count {theirs}, extractor {ours}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
