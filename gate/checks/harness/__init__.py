"""The `harness` check (`check`): nothing outside the tests changes how the tests run. Its
parts: packaging hooks (`packaging`), code that reaches into a test framework (`python_reach`,
with `names` for what a Python name stands for and `run_reads` for code asking whether it
is tested; `js_reach`) and, after the install, what it left behind (`leftovers`)."""
