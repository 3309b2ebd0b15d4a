"""`gate explain`: what a check means and how to resolve it, for the built-in checks and the
user checks a repository configures (the footer of a report suggests it for both)."""
from __future__ import annotations

from collections.abc import Sequence

from gate.checks import registry, rules, user, user_kinds
from gate.engine.config import UserCheck
from gate.errors import GateError


def explain(check_id: str, user_checks: Sequence[UserCheck] = ()) -> str:
    """The text `gate explain CHECK-ID` prints (or `gate explain RULE`, the rule a finding
    ends with: its check's text); GateError naming the ids there are."""
    if check_id in registry.ORDER:
        return f"{check_id}: {registry.title(check_id)}\n\n{registry.explanation(check_id)}\n"
    owner = rules.check_of(check_id)
    if owner is not None and not any(c.name == check_id for c in user_checks):
        return (f"{check_id}: a rule of the `{owner}` check ({registry.title(owner)})\n\n"
                f"{registry.explanation(owner)}\n")
    found = next((c for c in user_checks if c.name == check_id), None)
    if found is None and check_id in user_kinds.KINDS:
        return user_kinds.explain(check_id, tuple(user_checks))
    if found is not None:
        kind = ("required: its failure fails the gate" if found.required
                else "optional: reported, never changes the verdict")
        return (f"{check_id}: a user check, `{found.run}` ({kind}; "
                f"kind {user_kinds.kind_of(found)})\n\n"
                f"{user.EXPLANATION}\n\nResolve: run `{found.run}` in your checkout and fix "
                "what it reports; if the command itself is wrong, change it in "
                "[[tool.gate.checks]] on the base branch.\n")
    names = [*registry.ORDER, *(c.name for c in user_checks)]
    raise GateError(f"no check or rule called {check_id!r}: the checks are {', '.join(names)}; "
                    f"the user check kinds are {', '.join(user_kinds.KINDS)}; a finding's line "
                    "names its check before its message (`path:line: CHECK-ID: message [rule]`)")
