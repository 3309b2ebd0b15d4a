"""Test runs and what they gave: the suite command and its per-test report (`testrun`), the
per-runner readers (`runners`, tried through `reading`), JUnit XML (`junit`), the auto-detected
install and test commands (`detect`), the base's outcomes (`base_run`, kept by
`outcome_cache`) compared with the head's (`compare`), regression vs pre-existing
(`baseline`), the command narrowed to some test files (`scoped_command`) and the bounded
`detail` an agent reads."""
