"""The tests mirror the packages (docs/architecture.md): a newcomer finds the tests of
`gate/outcomes/compare.py` under tests/outcomes/, and no module of the product is named like a
test, since test discovery (the gate's own among it) takes such names for tests."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GATE = ROOT / "gate"


def _modules(package: Path) -> list[Path]:
    return [p for p in package.glob("*.py") if p.name != "__init__.py"]


def test_every_package_with_more_than_two_modules_has_a_tests_folder() -> None:
    packages = [p for p in GATE.rglob("*") if p.is_dir() and p.name != "__pycache__"
                and (p / "__init__.py").exists() and len(_modules(p)) > 2]
    missing = [str(p.relative_to(GATE)) for p in packages
               if not (ROOT / "tests" / p.relative_to(GATE)).is_dir()]
    assert packages and missing == []


def test_no_module_of_the_product_is_named_like_a_test() -> None:
    named = [str(p.relative_to(ROOT)) for p in GATE.rglob("*.py")
             if p.name.startswith("test_") or p.stem.endswith("_test")]
    assert named == []


def test_most_test_files_live_in_a_folder_named_after_a_package() -> None:
    tests = ROOT / "tests"
    files = [f for f in tests.rglob("test_*.py")  # not the files of test repositories
             if not {"corpus", "fixtures"} & set(f.relative_to(tests).parts)]
    packaged = [f for f in files
                if (GATE / f.parent.relative_to(ROOT / "tests")).is_dir()]
    assert len(packaged) >= 0.8 * len(files), (len(packaged), len(files))


def test_no_module_of_the_product_is_over_400_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in GATE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}
