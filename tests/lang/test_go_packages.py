"""Go's test helper packages, read from a module's files: what only tests import."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from gate.lang import go_packages


def helpers(files: Mapping[str, str]) -> list[str]:
    def read(paths: Sequence[str]) -> dict[str, bytes | None]:
        return {p: files[p].encode() if p in files else None for p in paths}
    return sorted(go_packages.helpers(read, list(files)))


MOD = "module example.com/m\n\ngo 1.19\n"
USES = 'package {0}_test\n\nimport (\n\t"testing"\n\n\tu "example.com/m/{1}"\n)\n'


def test_a_package_only_other_tests_import_is_a_helper() -> None:
    assert helpers({
        "go.mod": MOD, "calc/calc.go": "package calc\n",
        "calc/calc_test.go": USES.format("calc", "internal/testutil"),
        "internal/testutil/testutil.go": 'package testutil\n\nimport "testing"\n',
        "internal/testutil/more.go": "package testutil\n",
    }) == ["internal/testutil/more.go", "internal/testutil/testutil.go"]


def test_a_package_without_tests_of_its_own_needs_no_testing_import() -> None:
    assert helpers({
        "go.mod": MOD, "calc/calc_test.go": 'package calc\n\nimport "example.com/m/check"\n',
        "check/check.go": "package check\n\n// Equal says whether a is b.\n",
    }) == ["check/check.go"]


def test_a_helper_of_a_helper_is_one() -> None:
    assert helpers({
        "go.mod": MOD, "calc/calc_test.go": USES.format("calc", "th"),
        "th/th.go": 'package th\n\nimport (\n\t"testing"\n\t"example.com/m/th/deep"\n)\n',
        "th/deep/deep.go": "package deep\n",
    }) == ["th/deep/deep.go", "th/th.go"]


def test_production_code_is_not_a_helper() -> None:
    """Imported by non-test code; imported only by its own tests; tested itself and used by
    another package's tests (the project's API): none is a helper."""
    assert helpers({
        "go.mod": MOD,
        "app/main.go": 'package main\n\nimport "example.com/m/calc" // the app\n',
        "calc/calc.go": 'package calc\n\nimport "testing"\n',
        "calc/calc_test.go": USES.format("calc", "calc"),
        "api/api.go": "package api\n", "api/api_test.go": "package api\n",
        "other/other_test.go": USES.format("other", "api"),
        "lib/lib.go": "package lib\n", "lib/lib_test.go": USES.format("lib", "lib"),
    }) == []


def test_imports_read_single_block_and_commented() -> None:
    text = (b'package x\n\nimport "a"\nimport b "b/c"\nimport (\n\t// "no"\n\t. "d"\n'
            b'\t_ "e" // side effects\n)\n/* import "f" */\n')
    assert go_packages.imports(text) == {"a", "b/c", "d", "e"}


def test_no_go_mod_no_helpers() -> None:
    assert helpers({"calc/calc_test.go": USES.format("calc", "x"), "x/x.go": "package x\n"}) == []
