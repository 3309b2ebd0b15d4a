"""Go production code that tells a test run apart (`test-run-detected`), read as code (the
tree-sitter Go grammar), on the statements the change adds:

- `testing.Testing()` called;
- a test flag looked up (`flag.Lookup("test.v")`, through `flag.CommandLine` too);
- the program's own name (`os.Args[0]`, `os.Executable()`, or a variable given either in the
  same function) held against a string that says "test" (`strings.HasSuffix(os.Args[0],
  ".test")`, `switch filepath.Ext(exe) { case ".test": }`);
- the gate's variables named (`GATE_EVIDENCE`: a witness's channel written by the code
  itself), and `//go:linkname` into `testing` (`framework-internals`);
- the program run again (`exec.Command`, `exec.CommandContext`, `syscall.Exec`,
  `os.StartProcess` given its own name): a binary that reruns itself can print what it likes
  about its tests (the gate's witness sees it happen, `outcomes/runners/go_witness.py`).

Imports are followed by their names (`t "testing"`). Under a name the grammar cannot see
(a function value, a reflect call), nothing is said."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import tree_sitter

from gate.lang import grammar

UNDER_TEST = "code that behaves differently when tested is not tested"
_COMPARES = {"strings": ("HasSuffix", "HasPrefix", "Contains", "EqualFold", "Index",
                         "LastIndex", "TrimSuffix", "CutSuffix", "Split"),
             "path/filepath": ("Match",), "path": ("Match",),
             "regexp": ("MatchString", "Match")}
_RUNS = {"os/exec": ("Command", "CommandContext"), "syscall": ("Exec",),
         "os": ("StartProcess",)}
_STRINGS = ("interpreted_string_literal", "raw_string_literal")
_LINKNAME = re.compile(r"//go:linkname\s+\S+\s+testing\.")


def _imports(root: tree_sitter.Node) -> dict[str, str]:
    """The name each import is used by -> its path."""
    out = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "import_spec":
            path_node = node.child_by_field_name("path")
            name_node = node.child_by_field_name("name")
            path = _text(path_node).strip('"`') if path_node is not None else ""
            name = _text(name_node) if name_node is not None else path.rsplit("/", 1)[-1]
            out[name] = path
        elif node.type in ("source_file", "import_declaration", "import_spec_list"):
            stack.extend(node.children)
    return out


def _text(node: tree_sitter.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _selector(node: tree_sitter.Node | None, names: Mapping[str, str]) -> tuple[str, str]:
    """(the import path, the name) of `pkg.Name`; ("", "") for anything else."""
    if node is None or node.type != "selector_expression":
        return "", ""
    operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
    if operand is None or operand.type != "identifier":
        return "", ""
    return names.get(_text(operand), ""), _text(field)


def _own_name(node: tree_sitter.Node, names: Mapping[str, str], tainted: set[str]) -> bool:
    """Whether `node` holds the program's own name."""
    for n in _walk(node):
        if n.type == "index_expression":
            operand, index = n.child_by_field_name("operand"), n.child_by_field_name("index")
            if _selector(operand, names) == ("os", "Args") and _text(index) == "0":
                return True
        elif n.type == "call_expression":
            if _selector(n.child_by_field_name("function"), names) == ("os", "Executable"):
                return True
        elif n.type == "identifier" and _text(n) in tainted:
            return True
    return False


def _tainted(function: tree_sitter.Node, names: Mapping[str, str]) -> set[str]:
    """The variables of `function` given the program's own name."""
    out: set[str] = set()
    for _ in range(2):  # one step further: exe := os.Args[0]; name := filepath.Base(exe)
        for n in _walk(function):
            if n.type in ("short_var_declaration", "assignment_statement"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is not None and right is not None and _own_name(right, names, out):
                    first = next((c for c in left.children if c.type == "identifier"), None)
                    if first is not None:
                        out.add(_text(first))
    return out


def _region(node: tree_sitter.Node, names: Mapping[str, str]) -> list[tree_sitter.Node]:
    """What `node` compares, where it is a comparison: `==`/`!=`, strings.HasSuffix and its
    kin, a match, a switch's value and its cases."""
    if node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        return [node] if _text(operator) in ("==", "!=") else []
    if node.type == "call_expression":
        package, name = _selector(node.child_by_field_name("function"), names)
        return [node] if name in _COMPARES.get(package, ()) else []
    if node.type == "expression_switch_statement":
        value = node.child_by_field_name("value")
        cases = [c.child_by_field_name("value") for c in node.children
                 if c.type == "expression_case"]
        return [p for p in [value, *cases] if p is not None]
    return []


def _says_test(region: list[tree_sitter.Node]) -> bool:
    return any(n.type in _STRINGS and "test" in _text(n).lower()
               for part in region for n in _walk(part))


def _function(node: tree_sitter.Node) -> tree_sitter.Node:
    current = node
    while current.parent is not None and current.type not in (
            "function_declaration", "method_declaration", "func_literal"):
        current = current.parent
    return current


def _call(node: tree_sitter.Node, names: Mapping[str, str],
          tainted: set[str]) -> str | None:
    package, name = _selector(node.child_by_field_name("function"), names)
    args = node.child_by_field_name("arguments")
    if (package, name) == ("testing", "Testing"):
        return f"calls testing.Testing(): {UNDER_TEST}"
    function = node.child_by_field_name("function")
    operand = function.child_by_field_name("operand") if (
        function is not None and function.type == "selector_expression") else None
    lookup = _text(function).rsplit(".", 1)[-1] == "Lookup" and (
        package == "flag" or _selector(operand, names) == ("flag", "CommandLine"))
    first = next((c for c in args.children if c.type in _STRINGS), None) if args else None
    if lookup and first is not None and _text(first).strip('"`').startswith("test."):
        return f"looks up the test flag {_text(first)}: {UNDER_TEST}"
    if name in _RUNS.get(package, ()) and args is not None and _own_name(args, names, tainted):
        return ("runs its own binary again: a test binary that reruns itself can print what "
                "it likes about its tests")
    return None


def scan(text: str, added: Mapping[int, str]) -> list[tuple[int, str, str]]:
    """(line, rule, message) on the added lines of a production Go file."""
    tree = grammar.parser(grammar.GRAMMARS["go"]).parse(text.encode())
    names = _imports(tree.root_node)
    out: dict[int, str] = {}
    internals: dict[int, str] = {}
    taints: dict[int, set[str]] = {}
    for node in _walk(tree.root_node):
        line = node.start_point[0] + 1
        if line not in added or line in out:
            continue
        if node.type == "comment" and _LINKNAME.match(_text(node)):
            internals[line] = (f"links to the testing package's internals "
                               f"(`{' '.join(_text(node).split()[1:3])}`)")
            continue
        if node.type in _STRINGS and _text(node).strip('"`').startswith("GATE_"):
            out[line] = f"names the gate's variable {_text(node)}: {UNDER_TEST}"
            continue
        region = _region(node, names)
        if node.type != "call_expression" and not region:
            continue
        function = _function(node)
        tainted = taints.setdefault(function.id, _tainted(function, names))
        said = _call(node, names, tainted) if node.type == "call_expression" else None
        if said is None and _says_test(region) and any(
                _own_name(p, names, tainted) for p in region):
            said = f"holds the program's own name against a test binary's: {UNDER_TEST}"
        if said is not None:
            out[line] = said
    return sorted([*((line, "test-run-detected", message) for line, message in out.items()),
                   *((line, "framework-internals", message)
                     for line, message in internals.items())])
