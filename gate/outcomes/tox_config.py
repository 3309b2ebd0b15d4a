"""The tox environment that runs a project's tests, as tox 4 reads it: from tox.ini,
setup.cfg's `[tox:tox]`, pyproject.toml's `legacy_tox_ini` (ini) or tox.toml and
pyproject.toml's `[tool.tox]` (TOML).

    env = tox_config.read(root, wanted=("py312",))   # a `tool_env.ToolEnv`, or None

The environment is the first of `wanted` (what the workflow's `tox -e` names), else of the
env list, whose commands run pytest; else `[testenv]` itself. A key missing from
`[testenv:NAME]` is `[testenv]`'s; a line `py38: x` counts where the name has the factors.
Substitutions: `{posargs:X}` is X, `{toxinidir}` (`{tox_root}`) the checkout (".": the
commands run there), `{envpython}` python and `{envbindir}/` nothing (the environment's own
come first on PATH), `{env:NAME:X}` is X, `{[section]key}` that key; a value with any other
(`{envtmpdir}`) is left out, since only tox knows it."""
from __future__ import annotations

import configparser
import os
import re
import shlex

from gate import toml
from gate.execution import judged_files
from gate.outcomes import pytest_command
from gate.outcomes.tool_env import TOX_PASSES, ToolEnv

_FACTOR_LINE = re.compile(r"^([\w!.,{}\-]+):(?!/)\s*(.*)$")
_REFERENCE = re.compile(r"\{\[([^\]]+)\]([\w\-]+)\}")
_SUBSTITUTIONS = ((re.compile(r"\{posargs(?::([^}]*))?\}"), lambda m: m.group(1) or ""),
                  (re.compile(r"\{(?:toxinidir|tox_root)\}"), lambda m: "."),
                  (re.compile(r"\{env_python\}|\{envpython\}"), lambda m: "python"),
                  (re.compile(r"\{env_bin_dir\}/|\{envbindir\}/"), lambda m: ""),
                  (re.compile(r"\{env:[\w]+:([^}]*)\}"), lambda m: m.group(1)),
                  (re.compile(r"\{/\}"), lambda m: "/"), (re.compile(r"\{:\}"), lambda m: ":"))


def _ini(root: str) -> configparser.ConfigParser | None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    for name, core in (("tox.ini", "tox"), ("setup.cfg", "tox:tox")):
        text = judged_files.text(os.path.join(root, name))
        if text is None:
            continue
        try:
            parser.read_string(text)
        except configparser.Error:
            return None
        if name == "tox.ini" or parser.has_section(core):
            return parser
        parser = configparser.ConfigParser(interpolation=None, strict=False)
    legacy = _tool_tox(root).get("legacy_tox_ini")
    if isinstance(legacy, str):
        try:
            parser.read_string(legacy)
        except configparser.Error:
            return None
        return parser
    return None


def _tool_tox(root: str) -> dict[str, object]:
    try:
        data = toml.loads(judged_files.text(os.path.join(root, "pyproject.toml")) or "")
    except toml.TOMLDecodeError:
        return {}
    tool = data.get("tool")
    found = tool.get("tox") if isinstance(tool, dict) else None
    return found if isinstance(found, dict) else {}


def has_config(root: str) -> bool:
    """Whether the checkout configures tox."""
    return _ini(root) is not None or _toml(root) is not None


def _expand(name: str) -> list[str]:
    """`py3{11,12}-django{4,5}` as tox expands it."""
    found = re.search(r"\{([^{}]*)\}", name)
    if found is None:
        return [name]
    return [e for part in found.group(1).split(",")
            for e in _expand(name[:found.start()] + part.strip() + name[found.end():])]


def _matches(condition: str, factors: set[str]) -> bool:
    for alternative in _expand(condition):
        for option in alternative.split(","):
            wanted = [f for f in option.split("-") if f]
            if wanted and all((f[1:] not in factors) if f.startswith("!") else f in factors
                              for f in wanted):
                return True
    return False


class _Env:
    def __init__(self, parser: configparser.ConfigParser, name: str) -> None:
        self.parser, self.name = parser, name
        self.factors = set(name.split("-"))

    def raw(self, *keys: str, section: str | None = None) -> str | None:
        for where in ([section] if section else [f"testenv:{self.name}", "testenv"]):
            for key in keys:
                if self.parser.has_option(where, key):
                    return self.parser.get(where, key)
        return None

    def lines(self, *keys: str) -> list[str]:
        """The value's lines that hold for this environment, substituted; None-free."""
        out: list[str] = []
        for line in (self.raw(*keys) or "").splitlines():
            line = line.strip()
            conditional = _FACTOR_LINE.match(line)
            if conditional and "=" not in conditional.group(1):
                if not _matches(conditional.group(1), self.factors):
                    continue
                line = conditional.group(2)
            text = self._substituted(line)
            if text and not text.startswith("#"):
                out.append(text)
        return out

    def _substituted(self, text: str, depth: int = 0) -> str | None:
        def reference(m: re.Match[str]) -> str:
            value = self.raw(m.group(2), section=m.group(1)) if depth < 5 else None
            return (self._substituted(value.strip(), depth + 1) or "\0") if value else "\0"
        text = _REFERENCE.sub(reference, text)
        for pattern, replace in _SUBSTITUTIONS:
            text = pattern.sub(replace, text)
        return None if "\0" in text or re.search(r"\{[\w:\[]", text) else text.strip()


def _env_names(parser: configparser.ConfigParser) -> list[str]:
    core = "tox" if parser.has_section("tox") else "tox:tox"
    listed = ""
    for key in ("env_list", "envlist"):
        if parser.has_option(core, key):
            listed = parser.get(core, key)
    items = re.split(r"\n|,(?![^{]*\})", listed)  # a comma inside `{a,b}` is the group's
    names = [n for item in items if item.strip() for n in _expand(item.strip())]
    return names + [s.split(":", 1)[1] for s in parser.sections() if s.startswith("testenv:")]


def _pytest_args(commands: list[str]) -> tuple[str, ...] | None:
    for command in commands:
        found = pytest_command.invocations(command.lstrip("-").strip())
        if found:
            return tuple(found[0])
    return None


def _from_ini(parser: configparser.ConfigParser, wanted: tuple[str, ...]) -> ToolEnv | None:
    envs = [_Env(parser, n) for n in dict.fromkeys([*wanted, *_env_names(parser)])]
    chosen = next((e for e in envs if _pytest_args(e.lines("commands")) is not None), None)
    if chosen is None:
        if not parser.has_section("testenv"):
            return None
        chosen = _Env(parser, wanted[0] if wanted else "py")
    set_env: dict[str, str] = {}
    for line in chosen.lines("set_env", "setenv"):
        name, eq, value = line.partition("=")
        if eq and name.strip().isidentifier():
            set_env[name.strip()] = value.strip()
    passes = [p.strip() for line in chosen.lines("pass_env", "passenv")
              for p in re.split(r"[,\s]+", line) if p.strip()]
    deps = [w for line in chosen.lines("deps") for w in _words(line)]
    named = re.fullmatch(r"python(3\.\d+)", chosen.raw("base_python", "basepython") or "")
    minor = next((f[3:] for f in sorted(chosen.factors) if re.fullmatch(r"py3\d+", f)), None)
    return ToolEnv("tox", chosen.name, {**_exported(chosen.name), **set_env},
                   (*TOX_PASSES, *passes), tuple(deps), _pytest_args(chosen.lines("commands")),
                   named.group(1) if named else f"3.{minor}" if minor else None)


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        return []


def _exported(name: str) -> dict[str, str]:
    """What tox sets for every environment's commands whose value the gate can know."""
    return {"TOX_ENV_NAME": name, "PYTHONIOENCODING": "utf-8",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_USER": "0"}


def _toml(root: str) -> dict[str, object] | None:
    text = judged_files.text(os.path.join(root, "tox.toml"))
    if text is not None:
        try:
            return toml.loads(text)
        except toml.TOMLDecodeError:
            return None
    found = _tool_tox(root)
    return found if "env_run_base" in found or "env" in found else None


def _from_toml(data: dict[str, object], wanted: tuple[str, ...]) -> ToolEnv | None:
    base = data.get("env_run_base")
    base = base if isinstance(base, dict) else {}
    envs = data.get("env")
    envs = envs if isinstance(envs, dict) else {}
    listed = data.get("env_list")
    names = [*wanted, *(listed if isinstance(listed, list) else []), *envs, "py"]
    for name in dict.fromkeys(n for n in names if isinstance(n, str)):
        own = envs.get(name)
        conf = {**base, **(own if isinstance(own, dict) else {})}
        commands = conf.get("commands")
        lines = [shlex.join(str(w) for w in c if isinstance(w, str))
                 for c in (commands if isinstance(commands, list) else []) if isinstance(c, list)]
        args = _pytest_args(lines)
        if args is None:
            continue
        set_env = conf.get("set_env")
        values = {k: v for k, v in (set_env if isinstance(set_env, dict) else {}).items()
                  if isinstance(v, str) and "{" not in v}
        passes = conf.get("pass_env")
        deps = conf.get("deps")
        return ToolEnv("tox", name, {**_exported(name), **values},
                       (*TOX_PASSES, *(p for p in (passes if isinstance(passes, list) else [])
                                       if isinstance(p, str))),
                       tuple(w for d in (deps if isinstance(deps, list) else [])
                             if isinstance(d, str) for w in _words(d)), args)
    return None


def read(root: str, wanted: tuple[str, ...] = ()) -> ToolEnv | None:
    """The tox environment that runs the tests of the checkout at `root`; None without tox."""
    parser = _ini(root)
    if parser is not None:
        return _from_ini(parser, wanted)
    data = _toml(root)
    return _from_toml(data, wanted) if data is not None else None
