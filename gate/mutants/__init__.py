"""Mutants on the changed lines: which lines may get one (`lines`), the table of operators per
language (`operators`), and the one mutation made on a line of source text (`apply`). Pure
text work on real source, no runs: `gate.pinned` runs them."""
