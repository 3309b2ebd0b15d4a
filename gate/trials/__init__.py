"""Trials: every run of the judged tests as a value (which code, which tests, which order, in
which checkout and environment: `trial.py`), the orders a runner can be asked for
(`order.py`), and the one scheduler that runs trials over the machine's cores and gives each
its per-test outcomes (`scheduler.py`). Checks ask for trials and read their outcomes."""
