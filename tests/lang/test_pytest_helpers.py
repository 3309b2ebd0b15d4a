"""The package's own test helpers, found from the base's files (real git repositories): the
modules the base's tests load as a pytest plugin (`pytest_plugins`, `-p`, a `pytest11` entry
point) or take fixtures from (imports from conftest), and only those."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.engine import config
from gate.engine.context import DiffContext
from gate.vcs import diff

Files = dict[str, str | None]

FIXTURES = "import pytest\n\n\n@pytest.fixture\ndef zero():\n    return 0\n"
HOOK = "def pytest_configure(config):\n    config.addinivalue_line('markers', 'x: y')\n"
CODE = "def add(a, b):\n    return a + b\n"
TEST = "def test_zero(zero):\n    assert zero == 0\n"


def _context(tmp_path: Path, base: Files, head: Files | None = None) -> DiffContext:
    repo, base_sha, head_sha = make_change(tmp_path / "r", base, head or {})
    return DiffContext(str(repo.path), base_sha, head_sha, config.Config(),
                       diff.changed_files(str(repo.path), base_sha, head_sha))


def helpers(tmp_path: Path, base: Files, head: Files | None = None) -> dict[str, str]:
    """Path -> scope of each helper found."""
    return {p: h.scope for p, h in _context(tmp_path, base, head).test_helpers().items()}


def _project(**files: str) -> Files:
    return {"calc/__init__.py": CODE, "calc/testing.py": FIXTURES, "tests/test_z.py": TEST,
            **{k.replace("__", "/").replace("_DOT_", "."): v for k, v in files.items()}}


def test_pytest_plugins_in_a_conftest_loads_a_helper_for_the_tests_under_it(
        tmp_path: Path) -> None:
    assert helpers(tmp_path, _project(tests__conftest_DOT_py='pytest_plugins = ["calc.testing"]\n')
                   ) == {"calc/testing.py": "tests"}


def test_pytest_plugins_as_a_string_or_a_tuple_in_the_root_conftest(tmp_path: Path) -> None:
    base = _project(conftest_DOT_py='pytest_plugins = "calc.testing"\n',
                    calc__more_DOT_py=HOOK)
    assert helpers(tmp_path / "a", base) == {"calc/testing.py": ""}
    base["conftest.py"] = 'pytest_plugins = ("calc.testing", "calc.more", "pytester")\n'
    assert helpers(tmp_path / "b", base) == {"calc/testing.py": "", "calc/more.py": ""}


def test_a_pytest11_entry_point_in_each_packaging_file(tmp_path: Path) -> None:
    spellings = {
        "pyproject.toml": "[project]\nname = 'calc'\n\n[project.entry-points.pytest11]\n"
                          "calc = 'calc.testing'\n",
        "pyproject.toml ": "[tool.poetry]\nname = 'calc'\n\n[tool.poetry.plugins.pytest11]\n"
                           "calc = 'calc.testing:plugin'\n",
        "setup.cfg": "[metadata]\nname = calc\n\n[options.entry_points]\npytest11 =\n"
                     "    calc = calc.testing\n",
        "setup.py": "from setuptools import setup\n\nsetup(name='calc', entry_points={\n"
                    "    'pytest11': ['calc = calc.testing'],\n})\n",
        "setup.py ": "from setuptools import setup\n\nsetup(name='calc', entry_points='''\n"
                     "[pytest11]\ncalc = calc.testing\n''')\n",
    }
    for i, (name, text) in enumerate(spellings.items()):
        found = helpers(tmp_path / str(i), {**_project(), name.strip(): text})
        assert found == {"calc/testing.py": ""}, name


def test_p_in_addopts_loads_a_helper(tmp_path: Path) -> None:
    base = {**_project(),
            "pytest.ini": "[pytest]\naddopts = -q -p calc.testing -p no:cacheprovider\n"}
    assert helpers(tmp_path, base) == {"calc/testing.py": ""}


def test_p_names_an_entry_point_before_a_module(tmp_path: Path) -> None:
    """agronholm/anyio: `-p anyio` loads the entry point `anyio = anyio.pytest_plugin`, not
    the package `anyio`, which is the code under test."""
    base = {**_project(), "pytest.ini": "[pytest]\naddopts = -p calc\n",
            "setup.cfg": "[options.entry_points]\npytest11 =\n    calc = calc.testing\n"}
    assert helpers(tmp_path / "a", base) == {"calc/testing.py": ""}
    del base["setup.cfg"]
    assert helpers(tmp_path / "b", base) == {}


def test_an_entry_point_the_configuration_blocks_is_not_loaded(tmp_path: Path) -> None:
    """lundberg/respx: `-p no:respx` in addopts; its tests load the plugin through pytester
    only, so it is the code under test."""
    base = {**_project(), "setup.cfg": "[options.entry_points]\npytest11 =\n"
                                       "    calc = calc.testing\n\n[tool:pytest]\n"
                                       "addopts =\n    -p no:calc\n    -rxXs\n"}
    assert helpers(tmp_path, base) == {}


def test_a_module_conftest_imports_is_a_helper_only_when_it_defines_fixtures_or_hooks(
        tmp_path: Path) -> None:
    base = _project(
        tests__conftest_DOT_py="from calc.testing import *  # noqa\nfrom calc import add\n"
                               "from calc.parse import parse\nimport calc.hooks\n",
        calc__parse_DOT_py="def parse(text):\n    return text\n", calc__hooks_DOT_py=HOOK)
    assert helpers(tmp_path, base) == {"calc/testing.py": "tests", "calc/hooks.py": "tests"}


def test_a_top_level_package_conftest_imports_is_the_code_whatever_it_defines(
        tmp_path: Path) -> None:
    """adamchainz/time-machine's package defines its `time_machine` fixture: importing it in
    conftest or in a helper does not make the product a helper."""
    base = {**_project(tests__conftest_DOT_py="import calc\nfrom calc import *  # noqa\n"
                                              "pytest_plugins = ['calc.testing']\n",
                       calc__testing_DOT_py="from calc import add\n" + FIXTURES),
            "calc/__init__.py": CODE + FIXTURES}
    assert helpers(tmp_path, base) == {"calc/testing.py": "tests"}


def test_what_a_helper_imports_with_fixtures_is_a_helper_too(tmp_path: Path) -> None:
    base = {"calc/__init__.py": CODE, "calc/core.py": CODE, "tests/test_z.py": TEST,
            "calc/testing/__init__.py": "from .fixtures import *  # noqa\n"
                                        "from ..core import add\n"
                                        "pytest_plugins = ['calc.testing.hooks']\n",
            "calc/testing/fixtures.py": FIXTURES, "calc/testing/hooks.py": HOOK,
            "conftest.py": "pytest_plugins = ['calc.testing']\n"}
    assert helpers(tmp_path, base) == {"calc/testing/__init__.py": "",
                                       "calc/testing/fixtures.py": "",
                                       "calc/testing/hooks.py": ""}


def test_a_src_layout(tmp_path: Path) -> None:
    base = {"src/calc/__init__.py": CODE, "src/calc/testing.py": FIXTURES,
            "tests/test_z.py": TEST, "tests/conftest.py": "pytest_plugins = ['calc.testing']\n"}
    assert helpers(tmp_path, base) == {"src/calc/testing.py": "tests"}


def test_a_package_that_is_itself_a_pytest_plugin_is_code(tmp_path: Path) -> None:
    """pytest-calc's plugin is what its tests test; a top-level module named by the entry
    point (`time_machine = time_machine`) is the product too."""
    named = ("[project]\nname = 'pytest-calc'\n\n[project.entry-points.pytest11]\n"
             "calc = 'calc.testing'\n")
    assert helpers(tmp_path / "a", {**_project(), "pyproject.toml": named}) == {}
    whole = ("[project]\nname = 'calc'\n\n[project.entry-points.pytest11]\n"
             "calc = 'calc'\n")
    base = {**_project(), "calc/__init__.py": CODE + FIXTURES, "pyproject.toml": whole}
    assert helpers(tmp_path / "b", base) == {}


def test_modules_of_the_test_tree_are_not_listed(tmp_path: Path) -> None:
    """tests/helpers.py is test code already: base-tests puts its tree back."""
    base = _project(tests__helpers_DOT_py=FIXTURES,
                    tests__conftest_DOT_py="from tests.helpers import *  # noqa\n")
    assert helpers(tmp_path, base) == {}


def test_the_list_is_the_bases_a_head_cannot_add_to_it(tmp_path: Path) -> None:
    """A head that names its code a plugin does not take it out of what is judged as code."""
    base = _project(tests__conftest_DOT_py="from calc import add\n")
    ctx = _context(tmp_path, base, {"tests/conftest.py": "pytest_plugins = ['calc']\n",
                                    "calc/__init__.py": CODE + FIXTURES})
    assert ctx.test_helpers() == {}
    assert not ctx.is_test_code("calc/__init__.py")


def test_a_conftest_or_helper_that_does_not_parse_finds_nothing(tmp_path: Path) -> None:
    base = _project(tests__conftest_DOT_py="pytest_plugins = [\n",
                    pyproject_DOT_toml="[project\n")
    assert helpers(tmp_path, base) == {}
