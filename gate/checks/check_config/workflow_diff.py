"""GitHub workflows and composite actions compared as parsed YAML: what a change can switch off.

Reported: a trigger, job or step removed; `continue-on-error` turned on; an `if:` added or changed;
a step's `run:` command changed (rule `workflow`). The gate's own step (`uses: <owner>/gate@<ref>`
or `uses: ./`) removed, any of its inputs (`with:`) changed, or `continue-on-error` added to it
(rule `gate-step`): a new version of the action alone changes nothing. Lines come from a
round-trip parse of the head.
"""
from __future__ import annotations

import fnmatch
import io
from collections.abc import Sequence

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from gate.checks.check_config.config_diff import ABSENT, RuledWeakening, show, show_change

Key = str | int
WORKFLOW, GATE_STEP = "workflow", "gate-step"


def load(text: str) -> dict[str, object]:
    """A workflow as plain data; YAMLError or ValueError when it is not a YAML mapping."""
    data = _plain(YAML(typ="safe", pure=True).load(io.StringIO(text)))
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError("the document is not a mapping")
    return data


def _plain(node: object) -> object:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


class Lines:
    """Head lines of keys and list items, by path from the document root."""

    def __init__(self, text: str) -> None:
        try:
            self.root: object = YAML(typ="rt").load(io.StringIO(text))
        except YAMLError:
            self.root = None

    def __call__(self, path: Sequence[Key]) -> int:
        node, line = self.root, 1
        for key in path:
            if isinstance(node, CommentedMap) and key in node:
                line = int(node.lc.key(key)[0]) + 1
                node = node[key]
            elif isinstance(node, CommentedSeq) and isinstance(key, int) and key < len(node):
                line = int(node.lc.item(key)[0]) + 1
                node = node[key]
            else:
                break
        return line


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[dict[str, object]]:
    return [_dict(v) for v in value] if isinstance(value, list) else []


def _events(on: object) -> set[str]:
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(e) for e in on}
    return set(_dict(on))


def _guards(what: str, old: dict[str, object], new: dict[str, object]) -> list[tuple[str, str]]:
    """(key, message) for `continue-on-error` turned on and `if:` added or changed."""
    out = []
    before, after = old.get("continue-on-error", ABSENT), new.get("continue-on-error", ABSENT)
    if after not in (ABSENT, None, False) and after != before:
        out.append(("continue-on-error", f"{what}: continue-on-error {show(before)} -> "
                    f"{show(after)}: a failure here no longer fails the run"))
    before, after = old.get("if", ABSENT), new.get("if", ABSENT)
    if after is not ABSENT and after != before:
        out.append(("if", f"{what}: if {show(before)} -> {show(after)}: "
                    "the condition decides whether it runs at all"))
    return out


def _label(step: dict[str, object]) -> str | None:
    """A step's identity: its id, else its name, else the action it uses (whatever version)."""
    for key in ("id", "name", "uses"):
        value = step.get(key)
        if isinstance(value, str):
            return f"{key} {value.split('@')[0] if key == 'uses' else value}"
    return None


def _describe(step: dict[str, object], index: int) -> str:
    label = _label(step)
    return f"step `{label}`" if label else f"step {index + 1} (run {show(step.get('run'), 40)})"


def is_gate_step(step: dict[str, object]) -> bool:
    """A step that runs this action: `uses: <owner>/gate@<ref>`, or `./` in the gate's repo."""
    uses = step.get("uses")
    return isinstance(uses, str) and (fnmatch.fnmatchcase(uses.strip(), "*/gate@*")
                                      or uses.strip() in ("./", "."))


def _action(step: dict[str, object]) -> tuple[str, str] | None:
    """What a step does: the action it uses (whatever version), else the command it runs."""
    uses, run = step.get("uses"), step.get("run")
    if isinstance(uses, str):
        return "uses", uses.split("@")[0].strip()
    if isinstance(run, str):
        return "run", " ".join(run.split())
    return None


def _pair(old: list[dict[str, object]],
          new: list[dict[str, object]]) -> tuple[list[tuple[int, int]], list[int]]:
    """Base steps matched to head steps by id, name or uses; then by what they do (`uses`,
    `run`), so a step whose `id:` was deleted or that gained a `name:` is still there; else
    unlabelled ones in order (the gate's steps with the gate's steps, whatever their labels)."""
    free = list(range(len(new)))
    pairs: list[tuple[int, int]] = []
    unlabelled: list[int] = []
    for i, step in enumerate(old):
        label = _label(step)
        same = [j for j in free if label is not None and _label(new[j]) == label]
        if label is None:
            same = [j for j in free if new[j] == step]
        if same:
            pairs.append((i, same[0]))
            free.remove(same[0])
        else:
            unlabelled.append(i)
    unmatched = []
    for i in unlabelled:
        action = _action(old[i])
        same = [j for j in free if action is not None and _action(new[j]) == action]
        if same:
            pairs.append((i, same[0]))
            free.remove(same[0])
        else:
            unmatched.append(i)
    removed = []
    for i in unmatched:
        rest = [j for j in free if _label(new[j]) is None] if _label(old[i]) is None else []
        if is_gate_step(old[i]):
            rest = [j for j in free if is_gate_step(new[j])]
        if rest:
            pairs.append((i, rest[0]))
            free.remove(rest[0])
        else:
            removed.append(i)
    return pairs, sorted(removed)


def _input(value: object) -> object:
    """An input as the action receives it, a string: `runs: 3` is `runs: "3"`."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value) if isinstance(value, (int, float)) else value


def _gate_step(what: str, old: dict[str, object], new: dict[str, object],
               path: tuple[Key, ...], lines: Lines) -> list[RuledWeakening]:
    """The gate's own step: every input that changed, and continue-on-error added."""
    out = []
    before, after = _dict(old.get("with")), _dict(new.get("with"))
    for key in sorted(set(before) | set(after)):
        if _input(before.get(key, ABSENT)) != _input(after.get(key, ABSENT)):
            out.append((lines((*path, "with", key)), GATE_STEP,
                        f"{what}: input `{key}` {show(before.get(key, ABSENT))} -> "
                        f"{show(after.get(key, ABSENT))}: the gate judges this change by "
                        "other rules than the base's"))
    old_coe, new_coe = old.get("continue-on-error", ABSENT), new.get("continue-on-error", ABSENT)
    if new_coe not in (ABSENT, None, False) and new_coe != old_coe:
        out.append((lines((*path, "continue-on-error")), GATE_STEP,
                    f"{what}: continue-on-error {show(old_coe)} -> {show(new_coe)}: "
                    "the gate's verdict no longer fails the run"))
    return out


def _removed(where: str, step: dict[str, object], index: int, line: int) -> RuledWeakening:
    if is_gate_step(step):
        return (line, GATE_STEP, f"{where}: the gate's step `{step.get('uses')}` removed: "
                "this change is no longer judged by the gate")
    return (line, WORKFLOW, f"{where}: {_describe(step, index)} removed")


def _steps(where: str, old: list[dict[str, object]], new: list[dict[str, object]],
           path: tuple[Key, ...], lines: Lines) -> list[RuledWeakening]:
    pairs, removed = _pair(old, new)
    out = [_removed(where, old[i], i, lines(path)) for i in removed]
    for i, j in pairs:
        what = f"{where}: {_describe(old[i], i)}"
        if old[i].get("run") != new[j].get("run"):
            out.append((lines((*path, j, "run")), WORKFLOW, f"{what}: run "
                        f"{show_change(old[i].get('run', ABSENT), new[j].get('run', ABSENT))}"))
        gate = is_gate_step(old[i])
        if gate:
            out.extend(_gate_step(what, old[i], new[j], (*path, j), lines))
        out.extend((lines((*path, j, key)), WORKFLOW, text)
                   for key, text in _guards(what, old[i], new[j])
                   if not (gate and key == "continue-on-error"))
    return out


def gate_steps_removed(where: str, steps: list[dict[str, object]],
                       line: int) -> list[RuledWeakening]:
    """A finding for each of the gate's steps among `steps`, which are all gone."""
    return [_removed(where, step, i, line) for i, step in enumerate(steps) if is_gate_step(step)]


def all_steps(config: dict[str, object]) -> list[tuple[str, list[dict[str, object]]]]:
    """(where, steps) of every job of a workflow and of a composite action."""
    out = [(f"job `{name}`", _list(_dict(job).get("steps")))
           for name, job in _dict(config.get("jobs")).items()]
    return [*out, ("composite action", _list(_dict(config.get("runs")).get("steps")))]


def _jobs(old: dict[str, object], new: dict[str, object], lines: Lines) -> list[RuledWeakening]:
    out: list[RuledWeakening] = []
    for name, job in _dict(old.get("jobs")).items():
        head_job = _dict(new.get("jobs")).get(name)
        if head_job is None:
            out.append((lines(("jobs",)), WORKFLOW, f"job `{name}` removed"))
            out.extend(gate_steps_removed(f"job `{name}`", _list(_dict(job).get("steps")),
                                          lines(("jobs",))))
            continue
        before, after = _dict(job), _dict(head_job)
        path: tuple[Key, ...] = ("jobs", name)
        out.extend((lines((*path, key)), WORKFLOW, text)
                   for key, text in _guards(f"job `{name}`", before, after))
        out.extend(_steps(f"job `{name}`", _list(before.get("steps")),
                          _list(after.get("steps")), (*path, "steps"), lines))
    return out


def compare(old: dict[str, object], new: dict[str, object], head_text: str) -> list[RuledWeakening]:
    """What the head's workflow (or composite action) switches off that the base's had on."""
    lines = Lines(head_text)
    out: list[RuledWeakening] = [(lines(("on",)), WORKFLOW, f"trigger `{event}` removed")
                         for event in sorted(_events(old.get("on")) - _events(new.get("on")))]
    out.extend(_jobs(old, new, lines))
    old_runs, new_runs = _dict(old.get("runs")), _dict(new.get("runs"))
    out.extend(_steps("composite action", _list(old_runs.get("steps")),
                      _list(new_runs.get("steps")), ("runs", "steps"), lines))
    return out
