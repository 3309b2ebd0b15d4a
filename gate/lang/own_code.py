"""Which code is the project's own, by what its own tools leave out.

A project says which of its files it does not write: its linters', type checkers' and
pre-commit's `exclude`s (ruff, flake8, mypy, pyright, eslint, biome, pre-commit's top-level
`exclude`, `.prettierignore`) and Go's `vendor/` beside a `go.mod`. Those files are someone
else's code, or code the project does not hold to its own rules (pip's `src/pip/_vendor/`,
trpc's generated OpenAPI clients), and are not read for markers or escapes. A folder's name
decides only where no linter of the file's language is configured: a `vendor/` folder that the
project's ruff lints is the project's own, one in a project with no linter is vendored.

Read from the BASE's configuration: a head that excludes its own code from its linters hides
nothing from the gate (and check-config reports the wider exclude).
"""
from __future__ import annotations

import configparser
import dataclasses
import io
import json
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from gate import toml
from gate.vcs.attributes import glob_regex

Reader = Callable[[Sequence[str]], dict[str, bytes | None]]

VENDORED_NAMES = ("vendor", "third_party", "node_modules")
_PYTHON = (".py", ".pyi")
_JAVASCRIPT = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")
_ESLINT_FILES = (".eslintrc", ".eslintrc.json", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yml",
                 ".eslintrc.yaml", "eslint.config.js", "eslint.config.mjs", "eslint.config.cjs",
                 "eslint.config.ts", "eslint.config.mts")
_FILES = ("pyproject.toml", "ruff.toml", ".ruff.toml", "setup.cfg", "tox.ini", ".flake8",
          "mypy.ini", ".mypy.ini", "pyrightconfig.json", ".pre-commit-config.yaml",
          ".eslintignore", ".prettierignore", "biome.json", "biome.jsonc", "go.mod", *_ESLINT_FILES)
# The hooks of pre-commit that lint a language's files.
_HOOKS = {"ruff": "ruff", "ruff-check": "ruff", "flake8": "flake8", "eslint": "eslint",
          "biome-check": "biome", "biome-lint": "biome", "biome-ci": "biome"}
# ruff's own `exclude` (replaced by a project's `exclude`, kept by `extend-exclude`).
_RUFF_DEFAULT = (".bzr", ".direnv", ".eggs", ".git", ".hg", ".mypy_cache", ".nox", ".pants.d",
                 ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__", "_build",
                 "buck-out", "dist", "node_modules", "venv")
_LINTS = {"ruff": "python", "flake8": "python", "eslint": "javascript", "biome": "javascript"}
_STRING = re.compile(r"""(['"`])((?:(?!\1).)+)\1""")


@dataclasses.dataclass(frozen=True)
class Exclude:
    tool: str  # "ruff", "flake8", "mypy", "pyright", "eslint", "biome", "prettier", "pre-commit"
    source: str  # the config file that says it, e.g. "pyproject.toml"
    pattern: str  # as written
    matches: re.Pattern[str]  # on a path or one of its parent folders (globs), or searched (regex)
    search: bool = False  # a regular expression searched in the path (mypy, pre-commit)


@dataclasses.dataclass(frozen=True)
class OwnCode:
    excludes: tuple[Exclude, ...] = ()
    linters: frozenset[str] = frozenset()  # the linters the project configures
    go_modules: tuple[str, ...] = ()  # folders holding a go.mod

    def excluded_by(self, path: str) -> list[Exclude]:
        """The project's excludes that leave `path` out."""
        parts = path.split("/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        return [rule for rule in self.excludes
                if (rule.matches.search(path) if rule.search
                    else any(rule.matches.fullmatch(p) for p in prefixes))]

    def is_foreign(self, path: str) -> bool:
        """Someone else's code: under Go's `vendor/`, or left out by one of the project's tools
        (it is not held to the project's own rules there); where no tool says anything and no
        linter of the file's language is configured, under a folder named as vendored
        (`vendor`, `third_party`, `node_modules`)."""
        if self._go_vendored(path) or self.excluded_by(path):
            return True
        if any(_LINTS[linter] == _language(path) for linter in self.linters):
            return False
        return any(part in VENDORED_NAMES for part in path.split("/")[:-1])

    def _go_vendored(self, path: str) -> bool:
        return any(path.startswith(posixpath.join(root, "vendor") + "/" if root else "vendor/")
                   for root in self.go_modules)


def is_code(path: str) -> bool:
    """A source file of a language whose linters the project may configure."""
    return _language(path) is not None


def _language(path: str) -> str | None:
    if path.endswith(_PYTHON):
        return "python"
    return "javascript" if path.endswith(_JAVASCRIPT) else None


def _globs(tool: str, source: str, patterns: Iterable[object], anchored: bool | None = None,
           ) -> list[Exclude]:
    """Globs as ruff, flake8 and .eslintignore read them: one without a slash names a file or
    folder at any depth; `./` and a trailing `/` are dropped; `!` (put back) is not an exclude."""
    out = []
    for raw in patterns:
        if not isinstance(raw, str):
            continue
        pattern = raw.strip()
        if not pattern or pattern.startswith(("#", "!")):
            continue
        body = pattern.removeprefix("./").rstrip("/") or pattern
        if body.endswith("/**"):
            body = body[:-3]
        out.append(Exclude(tool, source, pattern, glob_regex(body, anchored)))
    return out


def _regexes(tool: str, source: str, patterns: Iterable[object]) -> list[Exclude]:
    out = []
    for pattern in patterns:
        if isinstance(pattern, str) and pattern.strip():
            try:
                out.append(Exclude(tool, source, pattern, re.compile(pattern.strip()), search=True))
            except re.error:
                continue
    return out


def _list(value: object) -> list[object]:
    if isinstance(value, str):
        return [part for part in re.split(r"[,\n]", value)]
    return list(value) if isinstance(value, list) else []


def _ruff(source: str, table: dict[str, object]) -> list[Exclude]:
    lint = table.get("lint")
    own = _list(table.get("exclude")) if "exclude" in table else list(_RUFF_DEFAULT)
    found = _globs("ruff", source, [*own, *_list(table.get("extend-exclude"))])
    if isinstance(lint, dict):
        found += _globs("ruff", source, _list(lint.get("exclude")))
    return found


def _mypy(source: str, value: object) -> list[Exclude]:
    if isinstance(value, str):  # one verbose regular expression, as in mypy.ini
        value = [re.sub(r"\s+|#.*", "", value)] if "\n" in value else [value]
    return _regexes("mypy", source, _list(value) if not isinstance(value, list) else value)


class _Reading:
    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.excludes: list[Exclude] = []
        self.linters: set[str] = set()

    def pyproject(self) -> None:
        try:
            tools = toml.loads(self.texts.get("pyproject.toml", "")).get("tool", {})
        except toml.TOMLDecodeError:
            return
        if not isinstance(tools, dict):
            return
        if isinstance(ruff := tools.get("ruff"), dict):
            self.linters.add("ruff")
            self.excludes += _ruff("pyproject.toml", ruff)
        if isinstance(mypy := tools.get("mypy"), dict):
            self.excludes += _mypy("pyproject.toml", mypy.get("exclude"))
        if isinstance(pyright := tools.get("pyright"), dict):
            self._pyright("pyproject.toml", pyright)

    def ruff_toml(self) -> None:
        for name in ("ruff.toml", ".ruff.toml"):
            if name in self.texts:
                try:
                    self.excludes += _ruff(name, toml.loads(self.texts[name]))
                except toml.TOMLDecodeError:
                    continue
                self.linters.add("ruff")

    def ini(self) -> None:
        for name in ("setup.cfg", "tox.ini", ".flake8", "mypy.ini", ".mypy.ini"):
            parser = configparser.RawConfigParser()
            try:
                parser.read_string(self.texts.get(name, ""))
            except configparser.Error:
                continue
            if parser.has_section("flake8"):
                self.linters.add("flake8")
                for key in ("exclude", "extend-exclude", "extend_exclude"):
                    self.excludes += _globs("flake8", name,
                                            _list(parser.get("flake8", key, fallback="")))
            if parser.has_section("mypy"):
                self.excludes += _mypy(name, parser.get("mypy", "exclude", fallback=None))

    def _pyright(self, source: str, table: dict[str, object]) -> None:
        for key in ("exclude", "ignore"):
            self.excludes += _globs("pyright", source, _list(table.get(key)), anchored=True)

    def json_configs(self) -> None:
        for name, keys in (("pyrightconfig.json", ("exclude", "ignore")),
                           ("biome.json", ()), ("biome.jsonc", ())):
            data = _json(self.texts.get(name))
            if data is None:
                continue
            if name.startswith("biome"):
                self.linters.add("biome")
                self.excludes += _globs("biome", name, ["node_modules"])  # biome's own default
                files = data.get("files")
                if isinstance(files, dict):
                    ignored = [*_list(files.get("ignore")),
                               *(p[1:] for p in _list(files.get("includes"))
                                 if isinstance(p, str) and p.startswith("!"))]
                    self.excludes += _globs("biome", name, ignored, anchored=True)
                continue
            self._pyright(name, {k: data.get(k) for k in keys})

    def eslint(self) -> None:
        if ".eslintignore" in self.texts:
            self.excludes += _globs("eslint", ".eslintignore",
                                    self.texts[".eslintignore"].splitlines())
        if ".prettierignore" in self.texts:  # a formatter's: what the project does not write
            self.excludes += _globs("prettier", ".prettierignore",
                                    self.texts[".prettierignore"].splitlines())
        for name in _ESLINT_FILES:
            text = self.texts.get(name)
            if text is None:
                continue
            self.linters.add("eslint")
            self.excludes += _globs("eslint", name, ["node_modules"])  # eslint's own default
            for block in re.finditer(r"(?:ignores|ignorePatterns|globalIgnores\()\s*:?\s*\[(.*?)\]",
                                     text, re.DOTALL):
                self.excludes += _globs("eslint", name,
                                        [m.group(2) for m in _STRING.finditer(block[1])])

    def pre_commit(self) -> None:
        text = self.texts.get(".pre-commit-config.yaml")
        if text is None:
            return
        try:
            data = YAML(typ="safe", pure=True).load(io.StringIO(text))
        except YAMLError:
            return
        if not isinstance(data, dict):
            return
        self.excludes += _regexes("pre-commit", ".pre-commit-config.yaml", [data.get("exclude")])
        for repo in data.get("repos") or []:
            for hook in (repo.get("hooks") or []) if isinstance(repo, dict) else []:
                linter = _HOOKS.get(str(hook.get("id"))) if isinstance(hook, dict) else None
                if linter:
                    self.linters.add(linter)


def _json(text: str | None) -> dict[str, object] | None:
    if text is None:
        return None
    try:  # JSON with comments, as biome and pyright allow: drop whole-line comments
        data = json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def read(reader: Reader, tracked: Sequence[str] = ()) -> OwnCode:
    """The project's own idea of its code, from its root configs (and every `go.mod` among
    `tracked`)."""
    go_mods = [p for p in tracked if posixpath.basename(p) == "go.mod"]
    blobs = reader(list(dict.fromkeys([*_FILES, *go_mods])))
    texts = {p: b.decode("utf-8", "replace") for p, b in blobs.items() if b is not None}
    reading = _Reading(texts)
    reading.pyproject()
    reading.ruff_toml()
    reading.ini()
    reading.json_configs()
    reading.eslint()
    reading.pre_commit()
    roots = tuple(posixpath.dirname(p) for p in go_mods if p in texts)
    return OwnCode(tuple(reading.excludes), frozenset(reading.linters), roots)
