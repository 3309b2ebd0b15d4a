from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from gate.lang import own_code

PIP_PYPROJECT = """\
[tool.ruff]
src = ["src"]
extend-exclude = ["_vendor", "./build", ".scratch", "data"]
"""
PIP_PRE_COMMIT = """\
exclude: 'src/pip/_vendor/'
repos:
- repo: https://github.com/astral-sh/ruff-pre-commit
  rev: v0.15.0
  hooks:
  - id: ruff-check
"""


def _read(files: Mapping[str, str]) -> own_code.OwnCode:
    def reader(paths: Sequence[str]) -> dict[str, bytes | None]:
        return {p: files[p].encode() if p in files else None for p in paths}
    return own_code.read(reader, list(files))


@pytest.mark.parametrize(("path", "foreign"), [
    ("src/pip/_vendor/rich/console.py", True),
    ("src/pip/_internal/cli/main.py", False),
    ("tests/data/packages/simple/setup.py", True),  # ruff's "data": a name at any depth
    ("src/pip/vendor_helpers.py", False),
])
def test_pips_layout_by_its_ruff_config(path: str, foreign: bool) -> None:
    assert _read({"pyproject.toml": PIP_PYPROJECT}).is_foreign(path) is foreign


def test_pre_commit_top_level_exclude_leaves_out_what_its_linters_read() -> None:
    own = _read({"pyproject.toml": "[tool.ruff]\nline-length = 88\n",
                 ".pre-commit-config.yaml": PIP_PRE_COMMIT})
    assert own.is_foreign("src/pip/_vendor/rich/console.py")
    assert not own.is_foreign("src/pip/_internal/main.py")


def test_a_vendor_folder_the_projects_linter_reads_is_its_own() -> None:
    files = {"pyproject.toml": "[tool.ruff]\nline-length = 88\n"}
    assert not _read(files).is_foreign("vendor/lib/a.py")
    # ...but with no linter configured, the folder's name decides
    assert _read({}).is_foreign("vendor/lib/a.py")


@pytest.mark.parametrize(("files", "path"), [
    ({"ruff.toml": 'exclude = ["**/_vendor", "setuptools/_distutils"]\n'},
     "setuptools/_distutils/core.py"),
    ({".flake8": "[flake8]\nexclude = .git,ext_libs/*,build\n"}, "ext_libs/six.py"),
    ({"pyrightconfig.json": '{"exclude": ["src/legacy"]}'}, "src/legacy/a.py"),
    ({"pyproject.toml": '[tool.mypy]\nexclude = ["^gen/"]\n'}, "gen/api.py"),
    ({".eslintignore": "# built\nlib/\n"}, "packages/a/lib/index.js"),
    ({"eslint.config.js": "export default [{ ignores: ['**/dist'] }];\n",
      ".prettierignore": "packages/openapi/test/routers/*/\n"},  # trpc's generated clients
     "packages/openapi/test/routers/cyclic-heyapi/client/client.gen.ts"),
    ({"eslint.config.mjs": "export default [{ ignores: ['**/dist', 'scripts/legacy/**'] }];\n"},
     "scripts/legacy/a.ts"),
    ({"biome.json": '{"files": {"includes": ["**", "!vendored"]}}'}, "vendored/a.ts"),
    ({"go.mod": "module example.com/m\n"}, "vendor/github.com/x/y/y.go"),
])
def test_each_tools_exclude(files: dict[str, str], path: str) -> None:
    assert _read(files).is_foreign(path)


def test_an_eslint_config_lints_a_vendor_folder_it_does_not_ignore() -> None:
    files = {"eslint.config.js": "export default [{ ignores: ['**/dist'] }];\n"}
    assert not _read(files).is_foreign("src/vendor/a.ts")
    assert _read(files).is_foreign("packages/x/dist/a.ts")


def test_eslint_leaves_out_node_modules_as_it_does_by_default() -> None:
    assert _read({"eslint.config.js": "export default [];\n"}).is_foreign(
        "node_modules/left-pad/index.js")
