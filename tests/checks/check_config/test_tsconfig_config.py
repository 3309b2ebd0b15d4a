"""check-config on tsconfig*.json: strictness loosened, fewer files checked; JSON with comments."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers.configcheck import found

TSCONFIG = """\
{
  // the project's compiler settings
  "compilerOptions": {
    "target": "es2022",
    "strict": true,
    "noUnusedLocals": true,
    "outDir": "dist",
  },
  "include": ["src", "tests"],
}
"""
NOTE = "the compiler now checks less"
FEWER = "fewer files are type-checked"


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ('"strict": true', '"strict": false', 5, "compilerOptions.strict: true -> false"),
    ('"strict": true,\n', "", 3, "compilerOptions.strict: true -> (unset)"),
    ('"strict": true,', '"strict": true,\n    "noImplicitAny": false,', 6,
     "compilerOptions.noImplicitAny: (unset) -> false"),
    ('"noUnusedLocals": true', '"noUnusedLocals": false', 6,
     "compilerOptions.noUnusedLocals: true -> false"),
    ('"target": "es2022",', '"target": "es2022",\n    "skipLibCheck": true,', 5,
     "compilerOptions.skipLibCheck: (unset) -> true"),
    ('"include": ["src", "tests"]', '"include": ["src"]', 9,
     'include: ["src", "tests"] -> ["src"]; ' + FEWER),
    ('"include": ["src", "tests"]', '"include": ["src", "tests"],\n  "exclude": ["tests/slow"]',
     10, 'exclude: (unset) -> ["tests/slow"]; ' + FEWER),
], ids=["strict-off", "strict-removed", "implied-flag-off", "unused-off", "skiplibcheck",
        "include-narrowed", "exclude-widened"])
def test_loosened(tmp_path: Path, old: str, new: str, line: int, message: str) -> None:
    head = TSCONFIG.replace(old, new)
    assert head != TSCONFIG
    assert found(tmp_path, {"tsconfig.json": TSCONFIG}, {"tsconfig.json": head}) == [
        (line, "tsconfig", message if FEWER in message else f"{message}; {NOTE}")]


def test_include_added_where_the_whole_directory_was_compiled(tmp_path: Path) -> None:
    base = '{"compilerOptions": {"strict": true}}\n'
    head = '{\n  "compilerOptions": {"strict": true},\n  "include": ["src"]\n}\n'
    assert found(tmp_path, {"tsconfig.build.json": base}, {"tsconfig.build.json": head}) == [
        (3, "tsconfig", f'include: (unset) -> ["src"]; {FEWER}')]


def test_every_loosening_in_one_change_is_reported(tmp_path: Path) -> None:
    head = TSCONFIG.replace('"strict": true', '"strict": false').replace(
        '"noUnusedLocals": true', '"noUnusedLocals": false')
    assert [line for line, _, _ in found(tmp_path, {"tsconfig.json": TSCONFIG},
                                         {"tsconfig.json": head})] == [5, 6]


@pytest.mark.parametrize("head", [
    # tightened
    TSCONFIG.replace('"target": "es2022",', '"target": "es2022",\n    "noImplicitReturns": true,'),
    TSCONFIG.replace('"include": ["src", "tests"]', '"include": ["src", "tests", "scripts"]'),
    # reformatted, commented, written differently
    '{"compilerOptions": {"target": "es2022", "strict": true, "noUnusedLocals": true,'
    ' "outDir": "dist"}, "include": ["./src/", "tests/**/*"]}\n',
    TSCONFIG.replace('"strict": true,', '/* "strict": false, */ "strict": true, // keep'),
    # unrelated options, default and build-output excludes
    TSCONFIG.replace('"es2022"', '"es2023"'),
    TSCONFIG.replace('"include": ["src", "tests"]',
                     '"include": ["src", "tests"],\n  "exclude": ["node_modules", "dist/"]'),
    # an implied flag made explicit
    TSCONFIG.replace('"strict": true,', '"strict": true,\n    "strictNullChecks": true,'),
], ids=["new-flag", "include-widened", "one-line", "commented", "target", "default-excludes",
        "explicit-flag"])
def test_honest_changes_raise_nothing(tmp_path: Path, head: str) -> None:
    assert found(tmp_path, {"tsconfig.json": TSCONFIG}, {"tsconfig.json": head}) == []


def test_a_new_tsconfig_loosens_nothing(tmp_path: Path) -> None:
    head = {"tsconfig.json": '{"compilerOptions": {"skipLibCheck": true, "strict": false}}\n'}
    assert found(tmp_path, {"index.ts": "export {};\n"}, head) == []


def test_a_tsconfig_that_does_not_parse_is_one_finding(tmp_path: Path) -> None:
    result = found(tmp_path, {"tsconfig.json": TSCONFIG}, {"tsconfig.json": TSCONFIG + "}"})
    assert [(line, rule) for line, rule, _ in result] == [
        (len(TSCONFIG.splitlines()) + 1, "config-unparsable")]  # the line the parser names


def test_other_json_files_are_not_tsconfig(tmp_path: Path) -> None:
    base = '{"compilerOptions": {"strict": true}}\n'
    assert found(tmp_path, {"src/settings.json": base, "tsconfig.json.bak": base},
                 {"src/settings.json": "{}\n", "tsconfig.json.bak": "{}\n"}) == []


STRICT = '{"compilerOptions": {"strict": true, "noUnusedLocals": true}}\n'
LOOSE = '{"compilerOptions": {"strict": false}}\n'
SHARED = {"tsconfig.strict.json": STRICT, "configs/loose.json": LOOSE}


def extending(target: str) -> str:
    return f'{{\n  "extends": {target},\n  "compilerOptions": {{"outDir": "dist"}}\n}}\n'


@pytest.mark.parametrize(("head", "line", "messages"), [
    (extending('"./configs/loose.json"'), 2, [
        "compilerOptions.strict: true -> false",
        "compilerOptions.noUnusedLocals: true -> (unset)"]),
    (extending('"./configs/loose"'), 2, [  # TypeScript adds the .json
        "compilerOptions.strict: true -> false",
        "compilerOptions.noUnusedLocals: true -> (unset)"]),
    (extending('["./tsconfig.strict.json", "./configs/loose.json"]'), 2, [  # the last one wins
        "compilerOptions.strict: true -> false"]),
    ('{\n  "compilerOptions": {"outDir": "dist", "noUnusedLocals": true}\n}\n', 2, [
        "compilerOptions.strict: true -> (unset)"]),
], ids=["laxer-file", "without-suffix", "list", "extends-removed"])
def test_extends_a_laxer_file_of_the_repository(
    tmp_path: Path, head: str, line: int, messages: list[str]
) -> None:
    base = {**SHARED, "tsconfig.json": extending('"./tsconfig.strict.json"')}
    assert found(tmp_path, base, {"tsconfig.json": head}) == [
        (line, "tsconfig", f"{m}; {NOTE}") for m in messages]


@pytest.mark.parametrize("head", [
    extending('"./tsconfig.strict.json"').replace('"dist"', '"build"'),  # its own options
    # the extended options written out in the file itself
    '{\n  "compilerOptions": {"outDir": "dist", "strict": true, "noUnusedLocals": true}\n}\n',
    extending('"./configs/strictest.json"'),  # a stricter file
], ids=["own-option", "inlined", "stricter-file"])
def test_extends_that_checks_as_much_raises_nothing(tmp_path: Path, head: str) -> None:
    base = {**SHARED, "tsconfig.json": extending('"./tsconfig.strict.json"'),
            "configs/strictest.json": ('{"extends": "../tsconfig.strict.json", '
                                       '"compilerOptions": {"noImplicitReturns": true}}\n')}
    assert found(tmp_path, base, {"tsconfig.json": head}) == []


def test_extends_a_package_changed_is_a_finding(tmp_path: Path) -> None:
    base = extending('"@tsconfig/strictest/tsconfig.json"')
    head = extending('"@tsconfig/recommended/tsconfig.json"')
    assert found(tmp_path, {"tsconfig.json": base}, {"tsconfig.json": head}) == [(
        2, "tsconfig", 'extends: "@tsconfig/strictest/tsconfig.json" -> '
        '"@tsconfig/recommended/tsconfig.json"; the compiler\'s settings now come from a '
        "package the gate cannot read: check they are as strict")]


def test_an_extends_cycle_ends(tmp_path: Path) -> None:
    base = {"tsconfig.json": extending('"./tsconfig.json"'), "tsconfig.a.json": STRICT}
    head = extending('"./tsconfig.json"').replace('"dist"', '"out"')
    assert found(tmp_path, base, {"tsconfig.json": head}) == []
