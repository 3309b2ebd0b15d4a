"""JavaScript and TypeScript production code that reaches into a test runner: its globals
(`jest`, `vi`, `expect`), its modules (`vitest`, `node:test`, `@jest/globals`) or the variables
that tell a test run apart (`process.env.CI`, `JEST_WORKER_ID`, `VITEST`). Matched on code with
strings and comments blanked, except imports, whose module name is a string."""
from __future__ import annotations

import re

from gate.lang.lines import Source

RUNTIME_GLOBALS = re.compile(
    r"(?<![\w.$])(?:jest|vi)\s*\.\s*\w+|(?<![\w$])(?:globalThis|global|window)\s*\.\s*"
    r"(?:expect|describe|it|test|jest|vi|beforeEach|afterEach)\b")
TEST_RUN_VARIABLES = re.compile(
    r"(?<![\w$])process\s*\.\s*env\s*\.\s*(CI|JEST_WORKER_ID|VITEST\w*|NODE_TEST_CONTEXT)\b")
TEST_RUN_ITEMS = re.compile(  # process.env["CI"]: the name is a string, blanked in the code
    r"""(?<![\w$])process\s*\.\s*env\s*\[\s*['"`](CI|JEST_WORKER_ID|VITEST\w*|NODE_TEST_CONTEXT)"""
    r"""['"`]\s*\]""")
TEST_MODULES = re.compile(
    r"""(?:^\s*import\b[^'"]*\bfrom\s*|^\s*import\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)"""
    r"""['"](vitest|node:test|@jest/globals|@jest/expect|@vitest/[\w-]+|expect)['"]""")


def scan(split: Source, raw: dict[int, str]) -> list[tuple[int, str, str]]:
    """(line, rule, message) on the added lines `raw` of a production file."""
    out = []
    for number in sorted(raw):
        line = split.lines.get(number)
        code = line.code if line is not None and split.lexed else raw[number]
        module = TEST_MODULES.search(raw[number])
        variable = TEST_RUN_VARIABLES.search(code) or (
            TEST_RUN_ITEMS.search(raw[number]) if "env" in code else None)
        reach = RUNTIME_GLOBALS.search(code)
        if module is not None:
            out.append((number, "framework-internals",
                        f"production code imports the test runner's module `{module.group(1)}`"))
        elif reach is not None:
            out.append((number, "framework-patched",
                        f"production code touches the test runner's global "
                        f"`{' '.join(reach.group().split())}`"))
        if variable is not None:
            rule = "ci-env-read" if variable.group(1) == "CI" else "test-run-detected"
            out.append((number, rule, f"reads process.env.{variable.group(1)}: code that behaves "
                        "differently when tested is not tested"))
    return out
