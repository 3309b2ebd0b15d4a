"""Rust production code that asks whether it runs for its tests (gate/checks/harness/
rust_reach.py, issue 46): `cfg!(test)`, a function given under both `cfg(test)` and
`cfg(not(test))`, a test run's variables read. Each is `add` right only under its unit tests;
a unit-test module, a helper under `cfg(test)` alone and a `no_std` panic handler under
`cfg(not(test))` are how honest crates build, and say nothing."""
from __future__ import annotations

from pathlib import Path

from helpers.diffcheck import found, run_check

from gate.checks.harness import check as harness

LIB = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n"
TESTS = ("\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n"
         "        assert!(cfg!(test));\n        assert_eq!(super::add(2, 3), 5);\n    }\n}\n")
CARGO = {"Cargo.toml": '[package]\nname = "a"\nversion = "0.1.0"\n', "src/lib.rs": LIB + TESTS}


def _found(tmp_path: Path, lib: str) -> list[tuple[str, int, str]]:
    return found(run_check(harness.run, tmp_path, CARGO, {"src/lib.rs": lib + TESTS}))


def test_cfg_test_asked_at_run_time_is_test_run_detected(tmp_path: Path) -> None:
    lib = LIB.replace("    a + b\n", "    if cfg!(test) { a + b } else { a - b }\n")
    assert _found(tmp_path, lib) == [("src/lib.rs", 2, "test-run-detected")]


def test_one_function_given_twice_by_cfg_test_is_test_run_detected(tmp_path: Path) -> None:
    lib = ("#[cfg(test)]\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n"
           "#[cfg(not(test))]\n#[inline]\npub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n")
    assert _found(tmp_path, lib) == [("src/lib.rs", 1, "test-run-detected"),
                                     ("src/lib.rs", 6, "test-run-detected")]


def test_a_test_runs_variables_read_are_named(tmp_path: Path) -> None:
    lib = LIB.replace("    a + b\n", '    if std::env::var("NEXTEST_RUN_ID").is_ok() '
                      '|| std::env::var_os("RUST_TEST_THREADS").is_some() { a + b } '
                      'else { a - b }\n')
    ci = LIB.replace("    a + b\n", '    if std::env::var("CI").is_ok() { a + b } '
                     "else { a - b }\n")
    assert _found(tmp_path / "t", lib) == [("src/lib.rs", 2, "test-run-detected")]
    assert _found(tmp_path / "ci", ci) == [("src/lib.rs", 2, "ci-env-read")]


def test_how_honest_crates_build_says_nothing(tmp_path: Path) -> None:
    lib = ("#![cfg_attr(not(test), no_std)]\n"
           "#[cfg(not(test))]\n#[panic_handler]\nfn panic(_: &core::panic::PanicInfo) -> ! {\n"
           "    loop {}\n}\n\n#[cfg(test)]\npub fn sample() -> i32 {\n    2\n}\n\n"
           "// cfg!(test) in a comment\npub const NOTE: &str = \"cfg!(test)\";\n" + LIB)
    assert _found(tmp_path, lib) == []
