"""Test runs and what they gave: the suite command and its per-test report (`testrun`), which
commands run pytest (`pytest_command`) and how to narrow one to some files (`scoped_command`),
the per-runner readers (`runners`, tried through `reading`), JUnit XML (`junit`), the
auto-detected install and test commands (`detect`), the base's suite run once for its per-test
outcomes (`base_run`, cached by `outcome_cache`) and compared with the head's (`compare`, a
test known across moves and parametrisation by `identity`), the
regression vs pre-existing classification (`baseline`) and the bounded `detail` an agent reads."""
