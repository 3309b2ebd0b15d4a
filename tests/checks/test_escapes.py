from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.gitrepo import make_change

from gate.checks import escapes
from gate.engine import config
from gate.engine.context import DiffContext
from gate.lang import escape_patterns
from gate.models import CheckResult
from gate.vcs import diff


def _run(tmp_path: Path, base: Mapping[str, str | None],
         head: Mapping[str, str | None]) -> CheckResult:
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    return escapes.run(ctx)


def _found(result: CheckResult) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.rule) for f in result.findings]


@pytest.mark.parametrize(("path", "line", "rule"), [
    ("m.py", "x: int = f()  # type: ignore[assignment]", "type: ignore"),
    ("m.py", "import os  # noqa: F401", "noqa"),
    ("m.py", "import os  #NOQA", "noqa"),
    ("m.py", "# ruff: noqa", "ruff: noqa"),
    ("m.py", "x = f()  # pyright: ignore[reportGeneralTypeIssues]", "pyright: ignore"),
    ("m.py", "# mypy: ignore-errors", "mypy: ignore-errors"),
    ("m.py", "def f():  # pylint: disable=invalid-name", "pylint: disable"),
    ("m.py", "if debug:  # pragma: no cover", "pragma: no cover"),
    ("m.py", "x = f()  # see #12 # type: ignore[arg-type]", "type: ignore"),
    ("m.py", "x = f()  # explained below # type: ignore", "type: ignore"),
    ("m.pyi", "def f(x): ...  # type: ignore", "type: ignore"),
    ("a.ts", "const x = y as any;", "as any"),
    ("a.tsx", "const x = (y as  any).z;", "as any"),
    ("a.ts", "// @ts-ignore", "@ts-ignore"),
    ("a.ts", "// @ts-expect-error wrong upstream type", "@ts-expect-error"),
    ("a.js", "// @ts-nocheck", "@ts-nocheck"),
    ("a.js", "/* eslint-disable */", "eslint-disable"),
    ("a.js", "f(); // eslint-disable-line no-console", "eslint-disable"),
    ("a.jsx", "// eslint-disable-next-line react/no-danger", "eslint-disable"),
    ("a.ts", "// biome-ignore lint/suspicious/noExplicitAny: legacy", "biome-ignore"),
    ("a.js", "/* istanbul ignore next */", "istanbul ignore"),
    ("a.mjs", "/* c8 ignore next 3 */", "c8 ignore"),
    ("lib.rs", "#[allow(dead_code)]", "#[allow]"),
    ("lib.rs", "#![allow(clippy::all)]", "#![allow]"),
    ("main.go", "x := f() //nolint:errcheck", "nolint"),
    ("A.java", '@SuppressWarnings("unchecked")', "@SuppressWarnings"),
    ("A.kt", '@Suppress("UNCHECKED_CAST")', "@Suppress"),
])
def test_added_escape_is_flagged(tmp_path: Path, path: str, line: str, rule: str) -> None:
    result = _run(tmp_path, {path: "first\n"}, {path: f"first\n{line}\n"})
    assert _found(result) == [(path, 2, rule)]
    assert result.status == "failed"
    assert result.findings[0].severity == "warning"


@pytest.mark.parametrize(("path", "line"), [
    ("m.py", 'msg = "add # type: ignore to silence it"'),
    ("m.py", "msg = '# noqa'"),
    ("m.py", 'doc = """x as any # pragma: no cover"""'),
    ("m.py", "y = x  # a note on why we avoid noqa here"),
    ("m.py", "cast = value  # not 'as any'"),
    ("m.py", 'x = f()  # drop the "# type: ignore" once mypy knows f'),
    ("m.py", "y = g()  # never `# noqa` here: fix the import"),
    # code quoted in a comment's prose, the directive inside it: mypy reads a directive only
    # at the comment's start, pyright also after a `#` but only before a space, `[` or the end
    ("m.py", "x = 1  # once `def f() -> int:  # type: ignore` over a body that raised"),
    ("m.py", "x = 1  # see `y  # pyright: ignore` in the old module"),
    ("a.ts", 'const s = "y as any; // @ts-ignore";'),
    ("a.ts", "const s = `eslint-disable ${x}`;"),
    ("a.ts", "// we never use @ts-ignore in this module"),
    ("a.js", "const x = y as any;"),  # `as any` is TypeScript only
    ("lib.rs", 'let s = "#[allow(dead_code)]";'),
    ("lib.rs", "#[derive(Debug)]"),
    ("main.go", 'fmt.Println("//nolint")'),
    ("A.java", 'String s = "@SuppressWarnings";'),
    ("notes.md", "# type: ignore"),  # not a language the gate reads
])
def test_no_escape_raises_nothing(tmp_path: Path, path: str, line: str) -> None:
    result = _run(tmp_path, {path: "first\n"}, {path: f"first\n{line}\n"})
    assert _found(result) == []
    assert result.status == "passed"


def test_only_added_lines_count(tmp_path: Path) -> None:
    base = {"m.py": "import os  # noqa: F401\nx = 1\n"}
    head = {"m.py": "import os  # noqa: F401\nx = 2\ny = f()  # type: ignore\n"}
    assert _found(_run(tmp_path, base, head)) == [("m.py", 3, "type: ignore")]


@pytest.mark.parametrize("line", [
    "x: int = f()  # noqa # type: ignore",  # after another comment: pyright honours it
    "x: int = f()  # type:ignore",
    "x: int = f()  # type: ignore#no space before another comment: mypy honours it",
    "x: int = f()  # type: ignore[assignment]",
])
def test_a_type_checkers_directive_as_a_checker_reads_it(tmp_path: Path, line: str) -> None:
    assert ("m.py", 1, "type: ignore") in _found(_run(tmp_path, {"x.txt": "x\n"},
                                                      {"m.py": line + "\n"}))


def test_two_escapes_on_one_line_are_two_findings(tmp_path: Path) -> None:
    head = {"m.py": "import os  # type: ignore  # noqa\n"}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == [
        ("m.py", 1, "noqa"), ("m.py", 1, "type: ignore"),
    ]


def test_new_file_line_numbers_are_head_lines(tmp_path: Path) -> None:
    head = {"src/a.ts": "const a = 1;\n\nconst b = a as any;\n// @ts-ignore\nf(b);\n"}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == [
        ("src/a.ts", 3, "as any"), ("src/a.ts", 4, "@ts-ignore"),
    ]


def test_escape_inside_block_comment_line(tmp_path: Path) -> None:
    head = {"a.js": "/*\n * eslint-disable no-console\n */\nconsole.log(1);\n"}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == [("a.js", 2, "eslint-disable")]


@pytest.mark.parametrize("path", [
    "dist/bundle.min.js", "vendor/lib/a.py", "gen/api_pb2.py", "node_modules/x/index.ts",
    "build/lib/pkg/a.py", "pkg/build/lib.linux-x86_64-cpython-311/pkg/a.py",
])
def test_generated_and_vendored_files_are_skipped(tmp_path: Path, path: str) -> None:
    head = {path: "x = f()  # type: ignore\n// @ts-ignore\nconst a = b as any;\n"}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == []


def test_deleted_file_with_escapes_raises_nothing(tmp_path: Path) -> None:
    result = _run(tmp_path, {"m.py": "x = f()  # type: ignore\n"}, {"m.py": None})
    assert _found(result) == []


def test_binary_file_raises_nothing(tmp_path: Path) -> None:
    repo, base_sha, _ = make_change(tmp_path / "repo", {"x.txt": "x\n"}, {})
    (repo.path / "blob.py").write_bytes(b"\x00\x01# type: ignore\x00\n")
    head_sha = repo.commit({}, "binary")
    ctx = DiffContext(repo=str(repo.path), base=base_sha, head=head_sha, config=config.Config(),
                      files=diff.changed_files(str(repo.path), base_sha, head_sha))
    assert ctx.files[0].binary
    assert _found(escapes.run(ctx)) == []


def test_untokenizable_python_is_still_scanned(tmp_path: Path) -> None:
    head = {"m.py": 'x = """never closed\ny = f()  # type: ignore\n'}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == [("m.py", 2, "type: ignore")]


def test_message_names_the_escape_and_what_it_silences(tmp_path: Path) -> None:
    head = {"lib.rs": "#[allow(dead_code)]\nfn a() {}\n"}
    result = _run(tmp_path, {"lib.rs": "fn a() {}\n"}, head)
    (finding,) = result.findings
    assert finding.message.startswith("new `#[allow(dead_code)]` silences compiler and clippy")
    assert result.summary == "1 new type or lint escape(s)"


def test_every_row_has_the_word_that_lets_a_line_skip_parsing() -> None:
    assert set(escape_patterns.WORDS) == {row.rule for row in escape_patterns.ROWS}


# Escapes that are not new (issue 23, issue 24): each honest change has a cheating twin.
REINDENT_BASE = ("def drain(q):\n    item = q.get()  # type: ignore\n"
                 "    q.done(item)  # type: ignore[attr-defined]\n    return item\n")


def test_escape_reindented_into_a_new_loop_is_not_new(tmp_path: Path) -> None:
    # issue 24: the patch only wrapped the two lines in a `while`
    head = ("def drain(q):\n    while q:\n        item = q.get()  # type: ignore\n"
            "        q.done(item)  # type: ignore[attr-defined]\n    return item\n")
    assert _found(_run(tmp_path, {"m.py": REINDENT_BASE}, {"m.py": head})) == []


def test_escape_added_inside_the_new_loop_is_new(tmp_path: Path) -> None:
    head = ("def drain(q):\n    while q:\n        item = q.get()  # type: ignore\n"
            "        q.done(item)  # type: ignore[attr-defined]\n"
            "        q.log(item)  # type: ignore\n    return item\n")
    assert _found(_run(tmp_path, {"m.py": REINDENT_BASE}, {"m.py": head})) == [
        ("m.py", 5, "type: ignore")]


def test_escape_moved_to_another_file_is_not_new(tmp_path: Path) -> None:
    base = {"a.py": "import os\n" + REINDENT_BASE, "b.py": "x = 1\n"}
    head = {"a.py": "import os\n", "b.py": "x = 1\n" + REINDENT_BASE}
    assert _found(_run(tmp_path, base, head)) == []


def test_escape_copied_twice_is_new_once(tmp_path: Path) -> None:
    line = "item = q.get()  # type: ignore\n"
    head = {"m.py": "x = 1\n", "n.py": line + line}
    assert _found(_run(tmp_path, {"m.py": "x = 1\n" + line}, head)) == [("n.py", 2, "type: ignore")]


@pytest.mark.parametrize(("path", "before", "after"), [
    ("m.py", "x = f()  # type: ignore", "x = f()  # type: ignore[attr-defined]"),
    ("m.py", "x = f()  # type: ignore[a, b]", "x = f()  # type: ignore[b]"),
    ("m.py", "import os  # noqa", "import os  # noqa: F401"),
    ("m.py", "import os, re  # noqa: F401, E401", "import os, re  # noqa: F401"),
    ("m.go", "\tx := f() //nolint:errcheck,gosec", "\tx := f() //nolint:gosec"),
    ("m.go", "\tx := f() //nolint", "\tx := f() //nolint:errcheck"),
    ("a.js", "// eslint-disable-next-line no-console, no-alert",
     "// eslint-disable-next-line no-console"),
    ("m.rs", "#[allow(dead_code, unused)]", "#[allow(dead_code)]"),
])
def test_narrowed_escape_is_not_new(tmp_path: Path, path: str, before: str,
                                    after: str) -> None:
    body = "\n".join(["x", before, "y"]) + "\n"
    assert _found(_run(tmp_path, {path: body}, {path: body.replace(before, after)})) == []


@pytest.mark.parametrize(("path", "before", "after", "code"), [
    # a rule renamed by the linter, inside an existing disable (typescript-eslint 8)
    ("a.ts", "// eslint-disable-next-line @typescript-eslint/no-var-requires",
     "// eslint-disable-next-line @typescript-eslint/no-require-imports",
     "const x = require('x');"),
    # mypy 1.18 renamed the error of an untyped decorator
    ("m.py", "@app.route('/')  # type: ignore[misc]",
     "@app.route('/')  # type: ignore[untyped-decorator]", "def f():\n    pass"),
])
def test_renamed_code_is_a_notice(tmp_path: Path, path: str, before: str, after: str,
                                  code: str) -> None:
    body = "\n".join(["x = 1", before, code]) + "\n"
    result = _run(tmp_path, {path: body}, {path: body.replace(before, after)})
    assert [(f.line, f.severity) for f in result.findings] == [(2, "notice")]
    assert "code changed" in result.findings[0].message


@pytest.mark.parametrize(("path", "before", "after", "rule"), [
    ("m.py", "x = f()  # type: ignore[attr-defined]", "x = f()  # type: ignore", "type: ignore"),
    ("m.py", "x = f()  # type: ignore[a]", "x = f()  # type: ignore[a, b]", "type: ignore"),
    ("m.py", "import os  # noqa: F401", "import os  # noqa", "noqa"),
    ("m.go", "\tx := f() //nolint:gosec", "\tx := f() //nolint", "nolint"),
    ("a.js", "// eslint-disable-next-line no-console", "// eslint-disable-next-line",
     "eslint-disable"),
    # the same escape on other code is a new escape there
    ("m.py", "x = f()  # type: ignore", "x = g()  # type: ignore", "type: ignore"),
])
def test_widened_escape_is_new(tmp_path: Path, path: str, before: str, after: str,
                               rule: str) -> None:
    body = "\n".join(["x", before, "y"]) + "\n"
    assert _found(_run(tmp_path, {path: body}, {path: body.replace(before, after)})) == [
        (path, 2, rule)]


def test_one_removed_escape_excuses_one_added_line_not_two(tmp_path: Path) -> None:
    # ky 90c6d00c: two `no-await-in-loop` disables removed, six added; the two moved lines were
    # also counted as narrowed, so four new ones read as two
    disable = "// eslint-disable-next-line no-await-in-loop\n"
    base = "for (;;) {\n\t" + disable + "\tawait x();\n}\n"
    head = ("while (ok) {\n\tfor (;;) {\n\t\t" + disable + "\t\tawait x();\n"
            "\t\t" + disable + "\t\tawait y();\n\t}\n}\n")
    assert _found(_run(tmp_path, {"a.js": base}, {"a.js": head})) == [("a.js", 5, "eslint-disable")]


def test_a_coverage_pragma_in_a_test_file_is_not_an_escape(tmp_path: Path) -> None:
    """pytest-dev/pluggy #718 (honest): a stub's body in a new test, `pass  # pragma: no
    cover`. It hides only the test's own line from coverage; the same pragma in the code,
    and a type escape in the test, are still flagged."""
    stub = ("def test_x():\n    class P:\n        def hook(self):\n"
            "            pass  # pragma: no cover\n")
    result = _run(tmp_path, {"calc.py": "x = 1\n"}, {
        "calc.py": "if x:  # pragma: no cover\n    y = 1\n",
        "testing/test_calc.py": stub + "    z: int = ''  # type: ignore\n",
        "web/app.test.js": "/* istanbul ignore next */\nfunction f() {}\n"})
    assert _found(result) == [("calc.py", 1, "pragma: no cover"),
                              ("testing/test_calc.py", 5, "type: ignore")]


PIP_CONFIG = {
    "pyproject.toml": '[tool.ruff]\nsrc = ["src"]\nextend-exclude = ["_vendor", "data"]\n',
    ".pre-commit-config.yaml": "exclude: 'src/pip/_vendor/'\nrepos: []\n",
    "src/pip/_internal/main.py": "def main():\n    return 0\n",
}


def test_a_vendored_upgrade_in_pips_layout_raises_no_escape(tmp_path: Path) -> None:
    """pip's `src/pip/_vendor/`, excluded by its ruff and pre-commit configs: an upgrade of a
    vendored library that adds `# noqa` silences no linter of pip's (83 findings on pip)."""
    vendored = "src/pip/_vendor/rich/console.py"
    base = {**PIP_CONFIG, vendored: "import os\n"}
    head = {vendored: "import os  # noqa: F401\nimport sys  # type: ignore\n"}
    assert _found(_run(tmp_path, base, head)) == []


def test_a_folder_named_vendor_that_the_project_lints_is_its_own(tmp_path: Path) -> None:
    base = {**PIP_CONFIG, "vendor/helpers.py": "import os\n"}
    head = {"vendor/helpers.py": "import os  # noqa: F401\n"}
    assert _found(_run(tmp_path, base, head)) == [("vendor/helpers.py", 1, "noqa")]


def test_the_heads_own_exclude_hides_nothing(tmp_path: Path) -> None:
    base = {**PIP_CONFIG, "src/pip/_internal/req.py": "import os\n"}
    head = {"pyproject.toml": '[tool.ruff]\nextend-exclude = ["_vendor", "_internal"]\n',
            "src/pip/_internal/req.py": "import os  # noqa: F401\n"}
    assert _found(_run(tmp_path, base, head)) == [("src/pip/_internal/req.py", 1, "noqa")]


def test_a_test_file_the_linter_leaves_out_is_still_the_projects(tmp_path: Path) -> None:
    config = {"pyproject.toml": '[tool.ruff]\nextend-exclude = ["tests", "ext"]\n',
              "ext/lib.py": "x = 1\n", "ext/tests/test_lib.py": "def test_a():\n    pass\n",
              "tests/test_a.py": "def test_a():\n    pass\n"}
    head = {"tests/test_a.py": "def test_a():\n    x = f()  # type: ignore\n",
            "ext/tests/test_lib.py": "def test_a():\n    x = f()  # type: ignore\n"}
    # `tests` leaves out only tests: the project does not lint them; `ext` is a package whole
    assert _found(_run(tmp_path, config, head)) == [("tests/test_a.py", 2, "type: ignore")]


def test_ts_expect_error_in_a_type_test_is_the_assertion(tmp_path: Path) -> None:
    """vitest's `*.test-d.ts` and tsd's `test-d/`: the expected error is what the test asserts;
    elsewhere, and `as any` in a type test, stay escapes."""
    line = "// @ts-expect-error\nexpectTypeOf(f(1)).toEqualTypeOf<string>();\nconst a = b as any;\n"
    head = {"src/api.test-d.ts": line, "test-d/index.ts": line, "src/api.test.ts": line}
    assert _found(_run(tmp_path, {"x.txt": "x\n"}, head)) == [
        ("src/api.test-d.ts", 3, "as any"), ("src/api.test.ts", 1, "@ts-expect-error"),
        ("src/api.test.ts", 3, "as any"), ("test-d/index.ts", 3, "as any")]
