"""Every check: one module each, with `ID`, `TITLE`, `EXPLANATION` and its `run`, listed in
DESIGN.md's order by `registry`. The runtime checks (`install`, `suite`, `base_tests`, `user`)
turn command outcomes into results; the diff checks read a `DiffContext`. `base_tree` is the
base's whole test tree that `base_tests` puts back; `allow` turns an allowed finding into a
notice; `common` builds results from findings."""
