"""noxfile.py read as code: each session's `session.run(...)` commands, compared by session,
so a narrowed test command is one finding at its line (formatting and comments raise nothing)."""
from __future__ import annotations

import ast

from gate.checks.check_config.config_diff import Weakening

Sessions = dict[str, list[tuple[int, str]]]  # session name -> (line, command) per run


def _command(call: ast.Call) -> str:
    parts = [ast.literal_eval(a) if isinstance(a, ast.Constant) else f"<{ast.unparse(a)}>"
             for a in call.args]
    return " ".join(str(p) for p in parts)


def parse(text: str) -> Sessions:
    """The `session.run`, `session.install` and `session.notify` calls of each function that
    takes a session, in order; ValueError when the file does not parse."""
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        raise ValueError(f"noxfile.py: {e.msg} (line {e.lineno})") from None
    out: Sessions = {}
    for fn in tree.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.args.args:
            continue
        session = fn.args.args[0].arg
        calls = [node for node in ast.walk(fn) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute)
                 and isinstance(node.func.value, ast.Name) and node.func.value.id == session
                 and node.func.attr in ("run", "run_always", "run_install")]
        out[fn.name] = sorted((c.lineno, _command(c)) for c in calls)
    return out


def compare(base: Sessions, head: Sessions) -> list[Weakening]:
    out = []
    for name in sorted(base):
        old = [command for _, command in base[name]]
        new = head.get(name)
        if new is None:
            out.append((1, f"nox session `{name}` removed: the commands it ran no longer run"))
            continue
        for line, command in new:
            if command not in old:
                out.append((line, f"nox session `{name}` runs `{command}` (at base: "
                                  f"{'; '.join(old) or 'nothing'})"))
        if not new and old:
            out.append((1, f"nox session `{name}` no longer runs {'; '.join(old)}"))
        elif len(new) < len(old) and all(c in old for _, c in new):
            out.append((new[-1][0], f"nox session `{name}` runs fewer commands: "
                        f"{'; '.join(c for c in old if c not in [n for _, n in new])} dropped"))
    return out
