"""Code that asks whether it runs under a test: a read of a test runner's or a CI's
environment variable, spelled as a literal (`os.environ[...]`, `os.getenv(...)`,
`os.environ.get(...)`, `"X" in os.environ`), or `"pytest" in sys.modules`."""
from __future__ import annotations

import ast
from collections.abc import Mapping

from gate.checks.harness.names import dotted_name, literal

CI_VARIABLES = ("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "GITLAB_CI", "TRAVIS",
                "CIRCLECI", "BUILDKITE", "JENKINS_URL", "TF_BUILD", "BUILD_NUMBER")


def env_key(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """The variable an `os.environ[...]`, `os.getenv(...)`, `os.environ.get(...)` or
    `"X" in os.environ` reads, when spelled as a literal."""
    if isinstance(node, ast.Subscript) and dotted_name(node.value, names) == "os.environ":
        return literal(node.slice)
    if isinstance(node, ast.Call) and node.args and dotted_name(node.func, names) in (
            "os.getenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop"):
        return literal(node.args[0])
    if (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and dotted_name(node.comparators[0], names) == "os.environ"):
        return literal(node.left)
    return None


def sys_modules_key(node: ast.AST, names: Mapping[str, str]) -> str | None:
    """`"pytest" in sys.modules` and `sys.modules.get("pytest")`: code asking if it is tested."""
    if (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and dotted_name(node.comparators[0], names) == "sys.modules"):
        return literal(node.left)
    if (isinstance(node, ast.Call) and node.args
            and dotted_name(node.func, names) == "sys.modules.get"):
        return literal(node.args[0])
    return None
