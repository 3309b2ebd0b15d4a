"""`gate run --quick`: the quick check of an agent's inner loop, not the full gate. Which kind
of change it is, what runs for it, and how its report is told apart from the gate's."""
