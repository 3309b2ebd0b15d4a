"""pytest's configuration as pytest would find it at the repository root, read from git."""
from __future__ import annotations

import configparser
import dataclasses
import fnmatch
import posixpath
import shlex
from collections.abc import Callable, Sequence

from gate import toml

Value = str | list[str]
# In pytest's order of precedence (pytest 9's `CONFIG_LOADERS_BY_NAME`): (file, section);
# the .toml files are read as TOML: pytest.toml's `[pytest]`, pyproject's `[tool.pytest]`
# (native types, pytest 9) or `[tool.pytest.ini_options]`.
CANDIDATES = (
    ("pytest.toml", "pytest"),
    (".pytest.toml", "pytest"),
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", "tool.pytest.ini_options"),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)
DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")
# pytest's options of type "args" and "paths": in an ini file their value is split as a shell
# would (shlex), so a TOML list's item with a space, as `"not property"` after `"-m"`, must
# be quoted there (packaging 55cbf1b9: `-m not property` read `property` as a path); the
# "linelist" options (markers, filterwarnings) are one item a line, never quoted.
_SPLIT_AS_SHELL = frozenset((
    "addopts", "norecursedirs", "testpaths", "required_plugins", "python_files",
    "python_classes", "python_functions", "usefixtures", "doctest_optionflags", "pythonpath"))
# pytest's own `norecursedirs` when the configuration sets none.
DEFAULT_NORECURSEDIRS = ("*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules",
                         "venv", "{arch}")
Reader = Callable[[Sequence[str]], "dict[str, bytes | None]"]


@dataclasses.dataclass(frozen=True)
class PytestConfig:
    path: str | None  # the file pytest would read its options from, None if none
    options: dict[str, Value]

    @property
    def python_files(self) -> tuple[str, ...]:
        value = self.options.get("python_files")
        if value is None:
            return DEFAULT_PYTHON_FILES
        return tuple(value.split() if isinstance(value, str) else value)

    def recurses_into(self, path: str) -> bool:
        """Whether pytest's discovery from the root reaches the file `path`: no directory on
        the way matches `norecursedirs` (a pattern with a `/` against the directory's path,
        else against its name, as pytest's `fnmatch_ex`). A file in such a directory runs
        only when named on the command line (marshmallow's `tests/mypy_test_cases`: code for
        mypy that is not meant to run)."""
        value = self.options.get("norecursedirs")
        patterns = (DEFAULT_NORECURSEDIRS if value is None else
                    tuple(shlex.split(value) if isinstance(value, str) else value))
        directory = posixpath.dirname(path)
        while directory:
            name = posixpath.basename(directory)
            for pattern in (p.rstrip("/") for p in patterns):
                against = ("/" + directory, "*/" + pattern) if "/" in pattern else (
                    name, pattern)
                if fnmatch.fnmatchcase(*against):
                    return False
            directory = posixpath.dirname(directory)
        return True

    def to_ini(self) -> str:
        """The same options as a `[pytest]` ini file, for `pytest -c`."""
        out = ["[pytest]"]
        for key, value in self.options.items():
            if isinstance(value, list):
                quote = shlex.quote if key in _SPLIT_AS_SHELL else str
                out.append(f"{key} =")
                out.extend(f"    {quote(item)}" for item in value)
            else:
                body = str(value).replace("\n", "\n    ")
                out.append(f"{key} = {body}")
        return "\n".join(out) + "\n"


def _ini_section(text: str, section: str) -> dict[str, Value] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return {k: v.strip() for k, v in parser.items(section)}


def _toml_table(text: str, path: str) -> dict[str, Value] | None:
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError:
        return {} if path.endswith("pytest.toml") else None
    if path.endswith("pytest.toml"):  # the config file even when empty, as pytest.ini
        table = data.get("pytest", {})
    else:
        tool = data.get("tool", {}).get("pytest", {})
        native = {k: v for k, v in tool.items() if k != "ini_options"} if isinstance(
            tool, dict) else {}
        table = native or (tool.get("ini_options") if isinstance(tool, dict) else None)
    if not isinstance(table, dict):
        return None
    return {
        k: [str(x) for x in v] if isinstance(v, list) else
        (str(v).lower() if isinstance(v, bool) else str(v))
        for k, v in table.items()
    }


def find(read: Reader) -> PytestConfig:
    """The root pytest configuration, given a function that reads files at one ref."""
    blobs = read([path for path, _ in CANDIDATES])
    for path, section in CANDIDATES:
        blob = blobs.get(path)
        if blob is None:
            continue
        text = blob.decode("utf-8", "replace")
        if path.endswith(".toml"):
            options = _toml_table(text, path)
        else:
            options = _ini_section(text, section)
            if options is None and path in ("pytest.ini", ".pytest.ini"):
                options = {}  # pytest.ini is the config file even when empty
        if options is not None:
            return PytestConfig(path, options)
    return PytestConfig(None, {})
