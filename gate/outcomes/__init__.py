"""Test runs and what they gave: the suite command and its per-test report (`testrun`), the
per-runner readers (`runners`, tried through `reading`), JUnit XML (`junit`), the auto-detected
install and test commands (`detect`), the base's outcomes for regression vs pre-existing
(`baseline`), tests that no longer run (`count_drop`) and the bounded `detail` an agent reads."""
