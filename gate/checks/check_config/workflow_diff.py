"""GitHub workflows and composite actions compared as parsed YAML: what a change can switch off.

Reported: a trigger, job or step removed; `continue-on-error` turned on; an `if:` added or changed;
a step's `run:` command changed (rule `workflow`). The gate's own step (`uses: <owner>/gate@<ref>`
or `uses: ./`) removed, any of its inputs (`with:`) changed, or `continue-on-error` added to it
(rule `gate-step`): a new version of the action alone changes nothing. Lines come from a
round-trip parse of the head.

Steps and jobs are paired by what they are (`gate.lang.identity.pair`): a step by its id or
name, its `uses` and `run`, else its place between paired neighbours (or a command half alike
there); a job by its name, else its steps (a renamed job). A step missing from its job but in
another job of the head moved there: only what that job's guards turn off is said. The same
change in several jobs is one finding.
"""
from __future__ import annotations

import fnmatch
import io
import re
from collections.abc import Callable, Sequence

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from gate.checks.check_config.config_diff import ABSENT, RuledWeakening, show, show_change
from gate.lang import identity
from gate.vcs.diff import ChangedFile

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


def _run(step: dict[str, object]) -> str | None:
    run = step.get("run")
    return " ".join(run.split()) if isinstance(run, str) else None


def _uses(step: dict[str, object]) -> str | None:
    uses = step.get("uses")
    return uses.split("@")[0].strip() if isinstance(uses, str) else None


def _pair(old: list[dict[str, object]],
          new: list[dict[str, object]]) -> tuple[list[tuple[int, int]], list[int]]:
    """Base steps matched to head steps (`gate.lang.identity.pair`): by id or name, by the
    action a step uses (whatever its version) with the command it runs, by either alone, the
    gate's steps with the gate's; then a step left between paired neighbours is the step at
    the same place on the other side, changed. A step removed does not shift the pairs."""
    keys: list[identity.Key[dict[str, object]]] = [
        lambda step: step.get("id") if isinstance(step.get("id"), str) else None,
        lambda step: step.get("name") if isinstance(step.get("name"), str) else None,
        lambda step: (_uses(step), _run(step)) if _action(step) else None,
        _run, _uses,
        lambda step: "gate" if is_gate_step(step) else None,
    ]
    pairs, removed, _ = identity.pair(old, new, keys, alike=_alike)
    return pairs, removed


def _alike(a: dict[str, object], b: dict[str, object]) -> float:
    """Two steps that do the same kind of thing: the same action, or commands that share half
    their words (`npm install --engine-strict`, `npm ci --engine-strict`)."""
    if _uses(a) is not None or _uses(b) is not None:
        return 1.0 if _uses(a) == _uses(b) else 0.0
    return identity.words_alike(_run(a) or "", _run(b) or "")


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


# Where a step removed from one job went: (the head job's name, the job, the step).
Elsewhere = Callable[[dict[str, object]], tuple[str, dict[str, object], dict[str, object]] | None]


def _moved(where: str, step: dict[str, object], index: int, old_job: dict[str, object],
           found: tuple[str, dict[str, object], dict[str, object]],
           line: int) -> list[RuledWeakening]:
    """A step moved into another job: what its new job and its own guards turn off."""
    name, job, new = found
    if is_gate_step(step):
        return [_removed(where, step, index, line)]  # the gate's step is judged where it was
    what = f"{where}: {_describe(step, index)}, moved to job `{name}`"
    return [(line, WORKFLOW, text) for _, text in
            [*_guards(f"{what}, whose job", old_job, job), *_guards(what, step, new)]]


def _steps(where: str, old: list[dict[str, object]], new: list[dict[str, object]],
           path: tuple[Key, ...], lines: Lines, elsewhere: Elsewhere | None = None,
           job: dict[str, object] | None = None) -> list[RuledWeakening]:
    pairs, removed = _pair(old, new)
    out: list[RuledWeakening] = []
    for i in removed:
        found = elsewhere(old[i]) if elsewhere is not None else None
        out.extend(_moved(where, old[i], i, job or {}, found, lines(path)) if found
                   else [_removed(where, old[i], i, lines(path))])
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


def _signature(job: object) -> tuple[tuple[str, str] | None, ...] | None:
    steps = _list(_dict(job).get("steps"))
    return tuple(_action(step) for step in steps) or None


def renamed_jobs(old: dict[str, object], new: dict[str, object]) -> dict[str, str]:
    """Base jobs absent at head, by name, matched to head jobs new by name that run the same
    steps (`gate.lang.identity.pair`): or, failing that, half of its steps or more."""
    gone = [name for name in old if name not in new]
    added = [name for name in new if name not in old]
    pairs, left, rest = identity.pair([old[n] for n in gone], [new[n] for n in added],
                                      [_signature], by_place=False)
    out = {gone[i]: added[j] for i, j in pairs}
    for i in left:
        steps = {a for a in _signature(old[gone[i]]) or () if a is not None}
        best = max(rest, default=None, key=lambda j: len(
            steps & set(_signature(new[added[j]]) or ())))
        if best is not None and 2 * len(steps & set(_signature(new[added[best]]) or ())) >= \
                len(steps) > 0:
            out[gone[i]] = added[best]
            rest.remove(best)
    return out


def _moved_away(job: object, new: dict[str, object]) -> bool:
    """Whether every step of a removed job is in the head's workflow (jobs split or merged)."""
    everywhere = {a for other in new.values() for a in _signature(other) or ()}
    mine = [a for a in _signature(job) or () if a is not None]
    return bool(mine) and all(a in everywhere for a in mine)


def _jobs(old: dict[str, object], new: dict[str, object], lines: Lines) -> list[RuledWeakening]:
    out: list[RuledWeakening] = []
    old_jobs, new_jobs = _dict(old.get("jobs")), _dict(new.get("jobs"))
    renamed = renamed_jobs(old_jobs, new_jobs)
    for name, job in old_jobs.items():
        head_name = name if name in new_jobs else renamed.get(name)
        if head_name is None:
            if not _moved_away(job, new_jobs):
                out.append((lines(("jobs",)), WORKFLOW, f"job `{name}` removed"))
            out.extend(gate_steps_removed(f"job `{name}`", _list(_dict(job).get("steps")),
                                          lines(("jobs",))))
            continue
        before, after = _dict(job), _dict(new_jobs[head_name])
        label = f"job `{name}`" if head_name == name else \
            f"job `{head_name}` (renamed from `{name}`)"
        path: tuple[Key, ...] = ("jobs", head_name)
        out.extend((lines((*path, key)), WORKFLOW, text)
                   for key, text in _guards(label, before, after))
        out.extend(_steps(label, _list(before.get("steps")), _list(after.get("steps")),
                          (*path, "steps"), lines, _elsewhere(new_jobs, head_name), before))
    return out


def _elsewhere(jobs: dict[str, object], but: str) -> Elsewhere:
    """Finds a step's action (uses with its command) in the head's jobs other than `but`."""
    def find(step: dict[str, object]) -> tuple[str, dict[str, object], dict[str, object]] | None:
        wanted = (_uses(step), _run(step))
        for name, job in jobs.items():
            for other in _list(_dict(job).get("steps")) if name != but else []:
                if (_uses(other), _run(other)) == wanted:
                    return name, _dict(job), other
        return None
    return find


_WHERE = re.compile(r"^job `([^`]+)`: (.*)$", re.DOTALL)
_STEP_NUMBER = re.compile(r"^step \d+ \(")


def _folded(found: list[RuledWeakening]) -> list[RuledWeakening]:
    """The same change repeated across jobs (one npm bump in six jobs), said once."""
    groups: dict[tuple[str, str], list[tuple[int, str | None, str]]] = {}
    for index, (line, rule, message) in enumerate(found):
        m = _WHERE.match(message)
        rest = _STEP_NUMBER.sub("step (", m.group(2)) if m is not None else ""
        key = (rule, rest) if m is not None else (rule, f"\0{index}")
        groups.setdefault(key, []).append((line, m.group(1) if m else None, message))
    out: list[RuledWeakening] = []
    for (rule, rest), where in groups.items():
        if len(where) == 1:
            out.append((where[0][0], rule, where[0][2]))
        else:
            names = ", ".join(f"`{name}`" for _, name, _ in where)
            out.append((where[0][0], rule, f"jobs {names}: {rest}"))
    return out


def compare(old: dict[str, object], new: dict[str, object], head_text: str) -> list[RuledWeakening]:
    """What the head's workflow (or composite action) switches off that the base's had on."""
    lines = Lines(head_text)
    out: list[RuledWeakening] = [(lines(("on",)), WORKFLOW, f"trigger `{event}` removed")
                         for event in sorted(_events(old.get("on")) - _events(new.get("on")))]
    out.extend(_folded(_jobs(old, new, lines)))
    old_runs, new_runs = _dict(old.get("runs")), _dict(new.get("runs"))
    out.extend(_steps("composite action", _list(old_runs.get("steps")),
                      _list(new_runs.get("steps")), ("runs", "steps"), lines))
    return out


def renamed_files(files: Sequence[ChangedFile]) -> dict[str, str]:
    """Workflows git finds renamed: {base path: head path}. The head's file is compared with
    its old self, and the old path is not a workflow deleted."""
    def workflow(path: str) -> bool:
        return path.startswith(".github/workflows/") and path.endswith((".yml", ".yaml"))
    return {f.moved_from: f.path for f in files
            if f.moved_from is not None and workflow(f.moved_from) and workflow(f.path)}
