from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.diffcheck import found, run_check

from gate.checks import skip_markers
from gate.lang import markers
from gate.models import CheckResult

Files = Mapping[str, str | None]
PY = "tests/test_x.py"
JS = "tests/app.test.js"
GO = "calc/calc_test.go"
RS = "src/lib.rs"
JAVA = "src/test/java/CalcTest.java"
RB = "spec/calc_spec.rb"


def check(tmp_path: Path, base: Files, head: Files) -> CheckResult:
    return run_check(skip_markers.run, tmp_path, base, head)


# (rule, path, the added file; the marker is on line 2)
CASES = [
    ("pytest.mark.skip", PY, "import pytest\n@pytest.mark.skip(reason='later')\ndef test_a(): 0\n"),
    ("pytest.mark.skip", PY, "from pytest import mark\n@mark.skip\ndef test_a(): 0\n"),
    ("pytest.mark.skipif", PY, "import sys, pytest\n@pytest.mark.skipif(sys.platform == 'win32',"
                               " reason='x')\ndef test_a(): 0\n"),
    ("pytest.mark.xfail", PY, "import pytest\n@pytest.mark.xfail(strict=False)\ndef test_a(): 0\n"),
    ("pytest.skip", PY, "def test_a():\n    pytest.skip('flaky on CI')\n"),
    ("pytest.xfail", PY, "def test_a():\n    pytest.xfail('known bug')\n"),
    ("pytest.importorskip", PY, "import pytest\nnp = pytest.importorskip('numpy')\n"),
    ("pytestmark.skip", PY, "import pytest\npytestmark = pytest.mark.skip(reason='x')\n"),
    ("pytestmark.xfail", PY, "import pytest\npytestmark = [pytest.mark.xfail]\n"),
    ("unittest.skip", PY, "from unittest import skip\n@skip('later')\ndef test_a(): 0\n"),
    ("unittest.skip", PY, "import unittest\n@unittest.skip('later')\ndef test_a(): 0\n"),
    ("unittest.skipIf", PY, "from unittest import skipIf\n@skipIf(True, 'x')\ndef test_a(): 0\n"),
    ("unittest.skipUnless", PY, "import unittest\n@unittest.skipUnless(False, 'x')\n"
                                "def test_a(): 0\n"),
    ("unittest.expectedFailure", PY, "import unittest\n@unittest.expectedFailure\n"
                                     "def test_a(): 0\n"),
    ("unittest.skipTest", PY, "def test_a(self):\n    self.skipTest('later')\n"),
    ("unittest.SkipTest", PY, "def test_a():\n    raise SkipTest('later')\n"),
    ("unittest.SkipTest", PY, "def test_a():\n    raise unittest.SkipTest('later')\n"),
    ("it.skip", JS, "describe('a', () => {\n  it.skip('b', () => {});\n});\n"),
    ("test.skip", JS, "\ntest.skip('b', () => {});\n"),
    ("test.skip", JS, "\ntest.concurrent.skip('b', async () => {});\n"),
    ("describe.skip", JS, "\ndescribe.skip('a', () => {});\n"),
    ("xit", JS, "\nxit('b', () => {});\n"),
    ("xtest", JS, "\nxtest('b', () => {});\n"),
    ("xdescribe", JS, "\nxdescribe('a', () => {});\n"),
    ("it.only", JS, "\nit.only('b', () => {});\n"),
    ("it.only", "src/calc.spec.ts", "\nit.only('b', (): void => {});\n"),
    ("test.only", JS, "\ntest.only('b', () => {});\n"),
    ("describe.only", JS, "\ndescribe.only('a', () => {});\n"),
    ("fit", JS, "\nfit('b', () => {});\n"),
    ("fdescribe", JS, "\nfdescribe('a', () => {});\n"),
    ("it.todo", JS, "\nit.todo('handles overflow');\n"),
    ("test.todo", JS, "\ntest.todo('handles overflow');\n"),
    ("test.skipIf", JS, "\ntest.skipIf(process.env.CI)('b', () => {});\n"),
    ("this.skip", JS, "it('b', function () {\n  this.skip();\n});\n"),
    ("node:test.skip", JS, "\ntest('b', { skip: 'flaky' }, () => {});\n"),
    ("node:test.skip", JS, "\ntest('b', { timeout: 5, skip: process.env.CI }, () => {});\n"),
    ("node:test.todo", JS, "\ntest('b', { todo: true }, () => {});\n"),
    ("node:test.only", JS, "\ndescribe('a', { only: true }, () => {});\n"),
    ("t.skip", JS, "test('b', (t) => {\n  t.skip('later');\n});\n"),
    ("t.todo", JS, "test('b', (t) => {\n  t.todo('later');\n});\n"),
    ("testing.Skip", GO, "func TestA(t *testing.T) {\n\tt.Skip(\"later\")\n}\n"),
    ("testing.Skipf", GO, "func TestA(tt *testing.T) {\n\ttt.Skipf(\"%s\", x)\n}\n"),
    ("testing.SkipNow", GO, "func TestA(t *testing.T) {\n\tt.SkipNow()\n}\n"),
    ("rust.ignore", RS, "#[test]\n#[ignore]\nfn slow() {}\n"),
    ("rust.cfg-false", RS, "#[test]\n#[cfg(any())]\nfn slow() {}\n"),
    ("rust.cfg-false", RS, "mod a {}\n#[cfg(FALSE)]\nmod tests {}\n"),
    ("testing.Short", GO,
     "func TestA(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n}\n"),
    ("test.fails", JS, "\ntest.fails('b', () => { throw 1; });\n"),
    ("test.failing", JS, "\ntest.failing('b', t => { t.fail(); });\n"),  # AVA, Jest
    ("test.failing", JS, "\ntest.serial.failing('b', t => { t.fail(); });\n"),
    ("test.skip", JS, "\ntest.serial.skip('b', t => { t.pass(); });\n"),
    ("test.only", JS, "\ntest.serial.only('b', t => { t.pass(); });\n"),
    ("junit.assumeFalse", JAVA, "class CalcTest {\n  @Test void a() { assumeTrue(false); }\n}\n"),
    ("junit.assumeFalse", JAVA,
     "class CalcTest {\n  @Test void a() { Assumptions.assumeFalse(true); }\n}\n"),
    ("rust.ignore", RS, "#[test]\n#[ignore = \"slow\"]\nfn slow() {}\n"),
    ("junit.Ignore", JAVA, "class CalcTest {\n  @Ignore\n  @Test void adds() {}\n}\n"),
    ("junit.Disabled", JAVA, "class CalcTest {\n  @Disabled(\"later\")\n  @Test void a() {}\n}\n"),
    ("junit.DisabledIf", JAVA, "class CalcTest {\n  @DisabledIfEnvironmentVariable(named = \"CI\","
                               " matches = \"true\")\n  @Test void a() {}\n}\n"),
    ("rspec.xit", RB, "describe Calc do\n  xit 'adds' do\n  end\nend\n"),
    ("rspec.xdescribe", RB, "\nxdescribe Calc do\nend\n"),
    ("rspec.skip", RB, "it 'adds' do\n  skip 'later'\nend\n"),
    ("rspec.pending", RB, "it 'adds' do\n  pending 'bug 12'\nend\n"),
    ("rspec.fit", RB, "describe Calc do\n  fit 'adds' do\n  end\nend\n"),
    ("rspec.focus", RB, "describe Calc do\n  it 'adds', focus: true do\n  end\nend\n"),
]


@pytest.mark.parametrize(("rule", "path", "text"), CASES,
                         ids=[f"{rule}-{i}" for i, (rule, _, _) in enumerate(CASES)])
def test_new_marker_is_flagged(tmp_path: Path, rule: str, path: str, text: str) -> None:
    result = check(tmp_path, {"README.md": "x\n"}, {path: text})
    assert found(result) == [(path, 2, rule)]
    # a conditional skip on a new test is judged by whether it skipped: a notice here
    conditional = rule in ("pytest.mark.skipif", "pytest.importorskip")
    assert result.status == ("passed" if conditional else "failed")


def test_every_marker_row_has_a_case() -> None:
    assert {m.id for m in markers.MARKERS} == {rule for rule, _, _ in CASES}


def test_message_and_severity(tmp_path: Path) -> None:
    result = check(tmp_path, {"README.md": "x\n"},
                   {PY: "import pytest\n@pytest.mark.skip\ndef test_a(): 0\n",
                    JS: "it.todo('later');\n"})
    assert [(f.rule, f.severity, f.message) for f in result.findings] == [
        ("it.todo", "warning",
         "new todo marker `it.todo`: a placeholder that is reported as a test but checks nothing"),
        ("pytest.mark.skip", "error",
         "new skip marker `pytest.mark.skip`: the test it marks no longer runs"),
    ]
    assert result.summary == "2 new skip, xfail, focus or todo marker(s)"


def test_marker_added_to_an_existing_file_is_reported_at_its_head_line(tmp_path: Path) -> None:
    base = "import pytest\n\n\ndef test_a():\n    assert 1\n\n\ndef test_b():\n    assert 2\n"
    head = base.replace("def test_b", "@pytest.mark.xfail\ndef test_b")
    result = check(tmp_path, {PY: base}, {PY: head})
    assert found(result) == [(PY, 8, "pytest.mark.xfail")]


def test_file_that_does_not_parse_is_scanned_as_raw_text(tmp_path: Path) -> None:
    text = "import pytest\n@pytest.mark.skip\ndef test_a(): 0\nx = '''unterminated\n"
    result = check(tmp_path, {"README.md": "x\n"}, {PY: text})
    assert found(result) == [(PY, 2, "pytest.mark.skip")]
    assert result.findings[0].message.endswith(" (file did not parse; matched on raw text)")


def test_marker_already_at_base_is_not_flagged(tmp_path: Path) -> None:
    base = "import pytest\n\n@pytest.mark.skip\ndef test_a(): 0\n"
    result = check(tmp_path, {PY: base}, {PY: base + "\ndef test_b(): 0\n"})
    assert found(result) == []
    assert result.status == "passed"
    assert result.summary == "no new skip, xfail or focus markers"


HONEST = [
    (PY, "MSG = '@pytest.mark.skip is banned here'\n"),
    (PY, "def test_a():\n    '''Never call pytest.skip() or self.skipTest() here.'''\n"),
    (PY, "# @pytest.mark.skip until the fix lands\ndef test_a(): 0\n"),
    (PY, "skipped_count = 1\npytestmark_note = 'skip'\n"),
    (PY, "def skip_whitespace(text):\n    return text.strip()\n"),
    (PY, "def test_skip_whitespace():\n    assert skip_whitespace(' a') == 'a'\n"),
    (PY, "def test_a(x):\n    assert f'{x} pytest.skip(' != ''\n"),
    (JS, "const s = \"it.skip(\";\n// it.only('b', () => {})\n/* xit( */\n"),
    (JS, "it('exits', () => {\n  process.exit(0);\n});\n"),
    (JS, "it('pages', () => db.find({ skip: 10 }));\n"),
    (JS, "test('b', { skip: false, only: false }, () => {});\n"),
    (JS, "test('b', () => { obj.it.skip = 1; submit(x); });\n"),
    ("src/layout.js", "export const box = fit(size);\nthis.skip(2);\nt.skip(1);\n"),
    ("dist/app.min.js", "it.only('b', () => {});\n"),
    ("src/app.min.js", "it.only('b', () => {});\n"),
    ("vendor/lib/a.test.js", "it.only('b', () => {});\n"),
    ("calc/reader.go", "func read(r *Reader) {\n\tr.Skip(4)\n}\n"),
    (GO, "func TestA(t *testing.T) {\n\t// t.Skip(\"later\")\n\tmsg := \"t.Skip(\"\n}\n"),
    (RS, "// #[ignore]\nfn a() { let s = \"#[ignore]\"; }\n"),
    ("lib/calc.rb", "def step\n  skip 2\n  pending\nend\n"),
    (RB, "it 'skips :skip tokens' do\n  expect(lexer(:skip)).to eq(1)\nend\n"),
    (JAVA, "class CalcTest {\n  // @Disabled\n  String s = \"@Ignore\";\n}\n"),
    ("docs/guide.md", "Use `@pytest.mark.skip` sparingly.\n"),
]


@pytest.mark.parametrize(("path", "text"), HONEST, ids=[f"{p}-{i}" for i, (p, _) in
                                                          enumerate(HONEST)])
def test_honest_change_raises_nothing(tmp_path: Path, path: str, text: str) -> None:
    result = check(tmp_path, {"README.md": "x\n"}, {path: text})
    assert found(result) == []


# Markers that are not new: moved with the test they mark (issue 23: a test file split into a
# package), or re-indented into a new block (issue 24). Each has a cheating twin.
SPLIT_BASE = ("import pytest\n\n\n@pytest.mark.skip(reason='needs a network')\ndef test_fetch():\n"
              "    assert fetch()\n\n\ndef test_parse():\n    assert parse('')\n\n\n"
              "@pytest.mark.xfail\ndef test_render():\n    assert render()\n")


def test_markers_of_a_test_file_split_into_a_package_are_not_new(tmp_path: Path) -> None:
    head = {PY: None,
            "tests/x/test_net.py": "import pytest\n\n\n@pytest.mark.skip(reason='needs a network')"
                                   "\ndef test_fetch():\n    assert fetch()\n",
            "tests/x/test_text.py": "import pytest\n\n\ndef test_parse():\n    assert parse('')\n"
                                    "\n\n@pytest.mark.xfail\ndef test_render():\n"
                                    "    assert render()\n"}
    assert found(check(tmp_path, {PY: SPLIT_BASE}, head)) == []


def test_marker_taken_off_one_test_and_put_on_another_is_new(tmp_path: Path) -> None:
    head = SPLIT_BASE.replace("@pytest.mark.xfail\ndef test_render", "def test_render").replace(
        "def test_parse", "@pytest.mark.xfail\ndef test_parse")
    assert found(check(tmp_path, {PY: SPLIT_BASE}, {PY: head})) == [
        (PY, 9, "pytest.mark.xfail")]


def test_marker_reindented_into_a_new_block_is_not_new(tmp_path: Path) -> None:
    base = "describe('a', () => {});\nit.skip('b', () => {\n  expect(1).toBe(1);\n});\n"
    head = ("describe('a', () => {});\nif (process.env.SLOW) {\n  it.skip('b', () => {\n"
            "    expect(1).toBe(1);\n  });\n}\n")
    assert found(check(tmp_path, {JS: base}, {JS: head})) == []


def test_ava_serial_and_failing_are_markers_in_the_right_places(tmp_path: Path) -> None:
    head = ("import test from 'ava';\ntest.serial('a', t => { t.pass(); });\n"
            "test.failing('b', t => { t.fail(); });\n")
    assert found(check(tmp_path, {"README.md": "x\n"}, {"test/a.js": head})) == [
        ("test/a.js", 3, "test.failing")]


CONDITIONAL_BASE = "import pytest\n\n\ndef test_old():\n    assert True\n"


def test_a_conditional_skip_on_a_new_test_is_a_notice_in_a_scan(tmp_path: Path) -> None:
    """57 markers on new tests that skip only where a module, platform or backend is missing:
    not run by `gate scan`, a notice; on an existing test, or unconditional, a finding."""
    head = (CONDITIONAL_BASE.replace("    assert True\n",
                                     "    pytest.importorskip('numpy')\n    assert True\n")
            + "\n\n@pytest.mark.skipif(not HAS_NUMPY, reason='no numpy')\ndef test_new():\n"
            "    np = pytest.importorskip('numpy')\n    assert np\n\n\n"
            "@pytest.mark.skipif(True, reason='later')\ndef test_later():\n    pass\n")
    result = run_check(skip_markers.run, tmp_path, {"tests/test_a.py": CONDITIONAL_BASE},
                       {"tests/test_a.py": head})
    assert [(f.line, f.rule, f.severity) for f in result.findings] == [
        (5, "pytest.importorskip", "error"), (9, "pytest.mark.skipif", "notice"),
        (11, "pytest.importorskip", "notice"), (15, "pytest.mark.skipif", "error")]
