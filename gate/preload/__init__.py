"""Code the gate puts into the judged test runs through their environment, never their
command: `node/gate-report.cjs` (NODE_OPTIONS) and `python/sitecustomize.py` (PYTHONPATH)
append each test's outcome for Jest, Vitest, Mocha and unittest to a report of the run's,
which `gate.outcomes.runners.reports` reads and checks against the runner's summary."""
