"""`gate init`: adopt the gate in one command. Proposes the `[tool.gate]` config from what the
repository has, adds the workflow that runs the Action on pull requests, and adds both hooks
to `.pre-commit-config.yaml`. A second run changes nothing; `--dry-run` prints the diff;
`--check` first runs the proposed config once on HEAD and writes nothing if a check fails.
`--shards N` writes the workflow that splits the tests across a matrix of N jobs and merges
their reports into one verdict."""
from __future__ import annotations

import dataclasses
import difflib
import os
import sys
from typing import Any

from gate import toml
from gate.adopt import (
    git_hooks,
    hook_config,
    propose,
    release,
    setup_steps,
    toml_edit,
    workflow_file,
)
from gate.errors import GateError
from gate.execution import workspace


@dataclasses.dataclass(frozen=True)
class Edit:
    path: str  # relative to the repository
    old: str | None  # None: a new file
    new: str


def _read(root: str, path: str) -> str | None:
    try:
        with open(os.path.join(root, path), encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None


def proposed_config(root: str) -> dict[str, Any]:
    """The keys to propose: the test command and user checks of `gate checks --propose`.
    Not `install`: it is detected at each run for the machine that runs it (uv where it is
    found, else pip), so a command written here would pin one machine's choice. With them,
    `pinned = "review"`: who adopts the gate judges agents' changes, and an untested change
    is worth a person's look."""
    table = propose.as_table(*propose.propose(root))
    return {**table, "pinned": "review"} if table else table


def _config_edit(root: str) -> Edit | None:
    """`[tool.gate]` appended to pyproject.toml, or a new `.gate.toml`; None when the
    repository already has a gate config, or nothing was detected to put in one."""
    if _read(root, ".gate.toml") is not None:
        return None
    pyproject = _read(root, "pyproject.toml")
    if pyproject is not None:
        try:
            tool = toml.loads(pyproject).get("tool", {})
        except toml.TOMLDecodeError as e:
            raise GateError(f"pyproject.toml is not valid TOML ({e}): fix it, then run "
                            "gate init again") from e
        if isinstance(tool, dict) and "gate" in tool:
            return None
    proposal = proposed_config(root)
    if not proposal:
        return None
    if pyproject is None:
        return Edit(".gate.toml", None, toml_edit.table("", proposal))
    return Edit("pyproject.toml", pyproject,
                toml_edit.append(pyproject, toml_edit.table("tool.gate", proposal)))


def _workflow_edit(root: str, force: bool, shards: int | None) -> Edit | None:
    old = _read(root, workflow_file.PATH)
    new = workflow_file.text(shards, setup_steps.text(root))
    if old == new:
        return None
    if old is not None and not force:
        given = f" --shards {shards}" if shards is not None else ""
        raise GateError(f"{workflow_file.PATH} exists and differs from the workflow gate "
                        f"init{given} writes (edited by hand, or written with other "
                        "--shards?): it was left as it is. Pass --force to replace it, or see "
                        f"`gate init{given} --dry-run --force` for the difference")
    return Edit(workflow_file.PATH, old, new)


def _hooks_edit(root: str) -> Edit | None:
    old = _read(root, hook_config.PATH)
    new = hook_config.with_hooks(old)
    return None if new == old else Edit(hook_config.PATH, old, new)


def edits(root: str, force: bool = False, shards: int | None = None,
          precommit: bool = True) -> list[Edit]:
    """What init writes; `precommit=False` (plain git hooks instead): no pre-commit config."""
    found = [_config_edit(root), _workflow_edit(root, force, shards),
             _hooks_edit(root) if precommit else None]
    return [e for e in found if e is not None]


def unified_diff(edit: Edit) -> str:
    old = "/dev/null" if edit.old is None else f"a/{edit.path}"
    lines = difflib.unified_diff((edit.old or "").splitlines(keepends=True),
                                 edit.new.splitlines(keepends=True), old, f"b/{edit.path}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def write(root: str, edit: Edit) -> None:
    target = os.path.join(root, edit.path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8", newline="") as f:
        f.write(edit.new)


def _tried(root: str) -> bool:
    """The proposed config run once on HEAD (`--check`); whether it passed."""
    from gate.adopt import trial
    proposal = proposed_config(root)
    results = trial.run(root, proposal)
    for line in trial.lines(results, proposal):
        print(line)
    bad = trial.failing(results)
    if bad:
        print(f"gate init: {len(bad)} check(s) of the proposed config fail on HEAD: nothing "
              "written; fix them or the proposal (`--dry-run` shows it), then run again")
    return not bad


def _placeholders(found: list[Edit]) -> list[str]:
    return [f"placeholder at {edit.path}:{number} (this gate is not released yet): put {what} "
            "there" for edit in found for number, what in release.placeholders(edit.new)]


def main(repo: str, *, dry_run: bool = False, force: bool = False,
         shards: int | None = None, plain_hooks: bool = False, check: bool = False) -> int:
    if shards is not None:
        workflow_file.check_shards(shards)  # before anything is read or written
    root = workspace.resolve_repo(repo)
    if plain_hooks:
        git_hooks.check(root, force)  # before anything is written
    found = edits(root, force, shards, precommit=not plain_hooks)
    said = (propose.notes(root)
            if any(e.path in (".gate.toml", "pyproject.toml") for e in found) else [])
    if dry_run:
        sys.stdout.write("".join(unified_diff(e) for e in found))
        for note in [*_placeholders(found), *said]:
            print(f"gate init: {note}", file=sys.stderr)
        return 0
    if check and any(e.path in (".gate.toml", "pyproject.toml") for e in found) and (
            not _tried(root)):
        return 1
    for edit in found:
        write(root, edit)
        print(f"gate init: {'wrote' if edit.old is None else 'updated'} {edit.path}")
    for note in _placeholders(found):
        print(f"gate init: {note}")
    for note in said:
        print(f"gate init: {note}")
    if plain_hooks:
        for path in git_hooks.install(root, force):
            print(f"gate init: wrote the git hook {os.path.relpath(path, root)}")
        print("gate init: the hooks judge from the next commit on: commit what init wrote "
              "with `git commit --no-verify` and push that commit with `git push --no-verify` "
              "(the base has no gate config to judge the adoption against); every commit and "
              "push after it is judged")
        return 0
    if not found:
        print("gate init: nothing to change")
        return 0
    # In this order: hooks installed first would judge the adopting commit itself (a new
    # workflow is a diff-policy finding, the new [tool.gate] a check-config one).
    print("gate init: commit these files first, then run `pre-commit install` for both hooks "
          "(`pip install pre-commit` if you do not have it)")
    return 0
