"""The set-up steps the workflow `gate init` writes before the gate's step: what the
project's install needs on a fresh runner, as the project's own test job has it. GitHub's
`ubuntu-latest` has Python, Node, npm and yarn 1, but no pnpm and no bun: a pnpm project's
install (`pnpm install --frozen-lockfile`) is "command not found" there.

From the base's test job (`ci_env.test_job`), the steps before its test step that set up a
toolchain (`actions/setup-python`, `actions/setup-node`, `pnpm/action-setup`,
`oven-sh/setup-bun`, `astral-sh/setup-uv`, `actions/setup-go`, ..., or a `run:` that enables
corepack), as the project wrote them, a matrix value (`${{ matrix.python }}`) replaced by the
matrix's last, newest-listed entry. Where the project has no such job, from its files: a
pnpm lockfile or a `packageManager` of pnpm or yarn 2+ gets `corepack enable` (corepack
ships with Node on the runner; it installs the version `packageManager` names), a bun
lockfile gets bun from npm. uv needs nothing: it comes with the gate."""
from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Mapping

from ruamel.yaml import YAML

from gate.execution import judged_files
from gate.outcomes import ci_env

_SETUP = re.compile(r"^(?:actions/setup-(?:python|node|go|java|dotnet)|pnpm/action-setup"
                    r"|oven-sh/setup-bun|astral-sh/setup-uv|dtolnay/rust-toolchain"
                    r"|actions-rust-lang/setup-rust-toolchain|denoland/setup-deno)@")
_MATRIX = re.compile(r"^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$")


def _matrix_value(job: Mapping[str, object], value: object) -> object | None:
    """`value`, or the last literal entry of the matrix key it names; None where it is
    another expression."""
    if not isinstance(value, str) or "${{" not in value:
        return value
    found = _MATRIX.match(value.strip())
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, Mapping) else None
    entries = matrix.get(found.group(1)) if found and isinstance(matrix, Mapping) else None
    if isinstance(entries, list) and entries and isinstance(entries[-1], (str, int, float)):
        return str(entries[-1])
    return None


def _kept(job: Mapping[str, object], step: Mapping[str, object]) -> dict[str, object] | None:
    uses, run = step.get("uses"), step.get("run")
    if isinstance(uses, str) and _SETUP.match(uses):
        out: dict[str, object] = {"uses": uses}
        given = step.get("with")
        if isinstance(given, Mapping):
            values = {str(k): _matrix_value(job, v) for k, v in given.items()}
            kept = {k: v for k, v in values.items() if v is not None}
            if kept:
                out["with"] = kept
        return out
    if isinstance(run, str) and "${{" not in run and re.search(r"\bcorepack\s+enable\b", run):
        return {"run": run}
    return None


def _from_test_job(root: str) -> list[dict[str, object]]:
    job = ci_env.test_job(root)
    if job is None:
        return []
    steps = job.get("steps")
    out: list[dict[str, object]] = []
    for step in steps if isinstance(steps, list) else ():
        if not isinstance(step, Mapping):
            continue
        if isinstance(step.get("run"), str) and ci_env.starts_tests(str(step["run"])):
            break
        kept = _kept(job, step)
        if kept is not None:
            out.append(kept)
    return out


def _package_manager(root: str) -> str:
    try:
        data = json.loads(judged_files.text(os.path.join(root, "package.json")) or "{}")
    except ValueError:
        return ""
    found = data.get("packageManager") if isinstance(data, dict) else None
    return found if isinstance(found, str) else ""


def _from_files(root: str) -> list[dict[str, object]]:
    def has(name: str) -> bool:
        return os.path.isfile(os.path.join(root, name))
    manager = _package_manager(root)
    if has("pnpm-lock.yaml") or manager.startswith("pnpm@") or (
            manager.startswith("yarn@") and not manager.startswith("yarn@1.")):
        return [{"run": "corepack enable"}]
    if has("bun.lock") or has("bun.lockb") or manager.startswith("bun@"):
        return [{"run": "npm install -g bun"}]
    return []


def steps(root: str) -> list[dict[str, object]]:
    """The set-up steps for the project at `root` (see the module's doc)."""
    return _from_test_job(root) or _from_files(root)


def text(root: str) -> str:
    """The steps as workflow lines, indented as a job's steps are."""
    found = steps(root)
    if not found:
        return ""
    yaml = YAML()
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(found, out)
    return "".join(f"    {line}\n" if line.strip() else "\n"
                   for line in out.getvalue().splitlines())
