"""JavaScript and TypeScript production code that reaches into a test runner: its globals
(`jest`, `vi`, `expect`), its modules (`vitest`, `node:test`, `@jest/globals`), the variables
that tell a test run apart (`process.env.CI`, `JEST_WORKER_ID`, `VITEST`, `TEST`, `NODE_ENV`
compared with "test"), `process.argv` beside a test runner's name, or its own call stack
(`new Error().stack`, `Error.captureStackTrace`, `prepareStackTrace`) read beside a test file's
name or searched: code that answers right only under a test. Matched on code with strings and
comments blanked (tree-sitter, `gate.lang.tree`), except imports, whose module name is a
string, and the names beside, which are."""
from __future__ import annotations

import re

from gate.lang.lines import Source

RUNTIME_GLOBALS = re.compile(
    r"(?<![\w.$])(?:jest|vi)\s*\.\s*\w+|(?<![\w$])(?:globalThis|global|window)\s*\.\s*"
    r"(?:expect|describe|it|test|jest|vi|beforeEach|afterEach)\b")
TEST_RUN_VARIABLES = re.compile(
    r"(?<![\w$])process\s*\.\s*env\s*\.\s*(CI|JEST_WORKER_ID|VITEST\w*|NODE_TEST_CONTEXT|TEST)\b")
TEST_RUN_ITEMS = re.compile(  # process.env["CI"]: the name is a string, blanked in the code
    r"""(?<![\w$])process\s*\.\s*env\s*\[\s*['"`](CI|JEST_WORKER_ID|VITEST\w*|NODE_TEST_CONTEXT|TEST)"""
    r"""['"`]\s*\]""")
TEST_MODULES = re.compile(
    r"""(?:^\s*import\b[^'"]*\bfrom\s*|^\s*import\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)"""
    r"""['"](vitest|node:test|@jest/globals|@jest/expect|@vitest/[\w-]+|expect)['"]""")

COMPARED_WITH_TEST = re.compile(r"""[!=]==?\s*['"`]test['"`]|['"`]test['"`]\s*[!=]==?""")
OWN_STACK = re.compile(  # on code: the Error's message is blanked
    r"(?<![\w$.])(?:new\s+)?Error\s*\([^()]*\)\s*\.\s*stack\b|\bcaptureStackTrace\b")
CALL_SITES = re.compile(r"\bprepareStackTrace\b|\.\s*getFileName\s*\(")  # the frames' files
_SEARCH = r"\.\s*(?:includes|match|matchAll|test|exec|indexOf|search|some|find|startsWith|endsWith)"
SEARCHED = re.compile(r"\.\s*stack\b.*" + _SEARCH + r"\s*\(")
NAMED = re.compile(r"\b(?:const|let|var)\s+([\w$]+)\s*=")
ARGV = re.compile(r"(?<![\w$])process\s*\.\s*(?:argv|execArgv|argv0)\b")
# a test file's or a test runner's name, in a string or a regular expression
TEST_NAME = re.compile(r"""['"`/][^'"`/\n]*(?:\btest\b|\bspec\b|__tests__|\bjest\b|\bvitest\b|"""
                       r"""\bmocha\b|\bava\b)""", re.I)


def _searched(code: str, codes: list[str]) -> bool:
    """Whether the stack read on `code` is searched, there or, given a name, on another line."""
    if SEARCHED.search(code):
        return True
    named = NAMED.search(code)
    if named is None:
        return False
    name = re.escape(named.group(1))
    use = re.compile(rf"(?<![\w$.]){name}\s*{_SEARCH}\s*\(|{_SEARCH}\s*\(\s*{name}\b")
    return any(use.search(line) for line in codes)


def _detected(code: str, raw: str, beside: bool, node_env: bool,
              codes: list[str]) -> str | None:
    """Why one added line asks whether it runs under a test, None when it does not: `beside`,
    some added line of the file names a test file or runner; `node_env`, one reads NODE_ENV;
    `codes`, the added lines' code."""
    if node_env and COMPARED_WITH_TEST.search(raw):
        return "compares NODE_ENV with \"test\""
    if ARGV.search(code) and beside:
        return "reads process.argv beside a test runner's or test file's name"
    if CALL_SITES.search(code) or (OWN_STACK.search(code) and (beside or _searched(code, codes))):
        return "reads its own call stack and looks for a test file in it"
    return None


def _code(split: Source, number: int, raw: dict[int, str]) -> str:
    line = split.lines.get(number)
    return line.code if line is not None and split.lexed else raw[number]


def scan(split: Source, raw: dict[int, str]) -> list[tuple[int, str, str]]:
    """(line, rule, message) on the added lines `raw` of a production file."""
    out = []
    beside = any(TEST_NAME.search(text) for text in raw.values())
    node_env = any("NODE_ENV" in text for text in raw.values())
    codes = [_code(split, n, raw) for n in sorted(raw)]
    for number in sorted(raw):
        code = _code(split, number, raw)
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
        elif (why := _detected(code, raw[number], beside, node_env, codes)) is not None:
            out.append((number, "test-run-detected",
                        f"{why}: code that behaves differently when tested is not tested"))
    return out
