"""Whether the varied run's clock lets the project's toolchains run at all.

libfaketime, which moves the varied run's clock, hangs some programs before their `main`:
those whose allocator asks the time while it initialises (rustc and rustdoc link jemalloc,
whose `malloc_init_hard` holds its lock while libfaketime's first call looks up a symbol, the
lookup fails and allocates, and the allocator waits on its own lock: a futex wait, no CPU,
until the run's limit). A varied run of such a project would time out on every change, honest
or not. So before the varied run each toolchain the gate knows, found on the judged PATH, is
asked its version under the moved clock; one that does not answer within `LIMIT_S` (a version
takes milliseconds; the limit is for a loaded machine) is said, and the varied run keeps the
real clock (`conditions.possible`): a varied run without its clock loses one condition, never
judges a change on the gate's own fault.

    hung = clock_probe.hung_tools(path)   # ("rustc", "rustdoc") on a Rust toolchain
"""
from __future__ import annotations

import concurrent.futures
import os
import shutil
from collections.abc import Mapping

from gate.execution import process

LIMIT_S = 10.0
# The toolchains the gate runs (gate/execution/toolchain.py names them), each with a question
# that only starts it (its version) and the files at a project's root that say it uses them:
# only those are asked (a Python project's run does not wait on a rustc that hangs).
_PYTHON = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "tox.ini",
           "noxfile.py")
TOOLS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("rustc", ("--version",), ("Cargo.toml",)), ("rustdoc", ("--version",), ("Cargo.toml",)),
    ("cargo", ("--version",), ("Cargo.toml",)), ("go", ("version",), ("go.mod", "go.work")),
    ("node", ("--version",), ("package.json",)), ("python3", ("-c", "pass"), _PYTHON))


def _hangs(tool: str, ask: tuple[str, ...], env: Mapping[str, str]) -> bool:
    """Whether `tool` (found on the judged PATH; not its real path: a rustup proxy is one
    binary that answers by the name it is called by, and finds its toolchains through the
    judged environment's RUSTUP_HOME) fails to answer `ask` in `env`."""
    done = process.run_argv([tool, *ask], cwd="/", env=env, timeout=LIMIT_S, memory_kb=None)
    return done.timed_out


def hung_tools(env: Mapping[str, str], clock: Mapping[str, str], checkout: str,
               ) -> tuple[str, ...]:
    """The toolchains the project in `checkout` uses, on the PATH of `env` (the judged
    commands' environment), that hang at their start with `clock` added (the variables that
    move the varied run's clock: `conditions.clock_env`), by name, in `TOOLS`' order."""
    found = [(name, where, ask) for name, ask, marks in TOOLS
             if any(os.path.isfile(os.path.join(checkout, m)) for m in marks)
             and (where := shutil.which(name, path=env.get("PATH", "")))]
    if not found:
        return ()
    with concurrent.futures.ThreadPoolExecutor(len(found)) as pool:
        hangs = list(pool.map(lambda f: _hangs(f[1], f[2], {**env, **clock}), found))
    return tuple(name for (name, _, _), hung in zip(found, hangs, strict=True) if hung)
