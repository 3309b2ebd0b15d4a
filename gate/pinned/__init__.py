"""The `pinned` check's two sides of evidence: which files make the head's tests over the base's
code and which lines get mutants (`sides`), which tests can reach a mutant (`reach`), and the
runs themselves (`runs`: the one place that starts commands, on today's workspace
primitives). The mutations are gate.mutants'; the check's result is gate.checks.pinned's."""
