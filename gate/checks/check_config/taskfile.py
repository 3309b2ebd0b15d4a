"""Taskfile.yml (go-task) read as make rules: each task's `deps` and its `cmds` (`cmd`, `task:`
calls as `make X`), compared exactly as a Makefile's: the `test` and `check` tasks, any task
that runs a test runner, and what they depend on or call."""
from __future__ import annotations

import re

from gate.checks.check_config import makefile, workflow_diff
from gate.checks.check_config.makefile import Makefile, Rule


def _command(item: object) -> str:
    if isinstance(item, dict):
        if "task" in item:
            return f"make {item['task']}"  # read by makefile as a sub-make call
        item = item.get("cmd", "")
    return makefile.recipe_command(str(item))


def _line(text: str, name: str) -> int:
    pattern = re.compile(rf"^\s+['\"]?{re.escape(name)}['\"]?\s*:")
    return next((i for i, line in enumerate(text.splitlines(), 1) if pattern.match(line)), 1)


def parse(text: str) -> Makefile:
    data = workflow_diff.load(text)
    tasks = data.get("tasks")
    rules: dict[str, Rule] = {}
    for name, task in (tasks.items() if isinstance(tasks, dict) else ()):
        if isinstance(task, str):
            task = {"cmds": [task]}
        if not isinstance(task, dict):
            continue
        cmds = task.get("cmds", [task["cmd"]] if "cmd" in task else [])
        deps = task.get("deps", [])
        rules[str(name)] = Rule(
            _line(text, str(name)),
            [str(d.get("task", "")) if isinstance(d, dict) else str(d)
             for d in (deps if isinstance(deps, list) else [])],
            [c for c in (_command(i) for i in (cmds if isinstance(cmds, list) else [cmds])) if c])
    variables = data.get("vars")
    return Makefile(rules, {str(k): (_line(text, str(k)), makefile.recipe_command(str(v)))
                            for k, v in (variables.items() if isinstance(variables, dict)
                                         else ())})
