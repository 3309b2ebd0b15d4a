"""A suite run cut in pieces by test file (gate/trials/pieces.py): which commands can be cut,
how the files are balanced, how the pieces' outcomes read as one run, and what is watched
rather than assumed (the pieces ran exactly the whole run's tests)."""
from __future__ import annotations

from pathlib import Path

from gate.execution import process
from gate.execution.run_workspace import Workspace
from gate.outcomes import testrun
from gate.outcomes.record import CaseResult, Counts
from gate.outcomes.record import Outcome as Outcome_
from gate.trials import pieces
from gate.trials.trial import Outcome, Trial


def _run(code: int, *cases: tuple[str, str, Outcome_]) -> testrun.TestRun:
    """A pytest run that exited `code`, with (name, file, outcome) cases."""
    found = tuple(CaseResult(n, f, 1, o) for n, f, o in cases)
    counts = Counts("pytest", sum(c.outcome == "passed" for c in found),
                    sum(c.outcome == "failed" for c in found), 0, found)
    return testrun.TestRun(process.Completed("pytest", code, "", False, False, 1.0), counts, True)


def _cut(tmp_path: Path, chunked: tuple[tuple[str, ...], ...]) -> pieces.Cut:
    ws = Workspace(str(tmp_path), str(tmp_path), {}, 60)
    whole = Trial("suite-run-3", ws, "pytest")
    parts = tuple(Trial(f"suite-run-3-part-{i}", ws, "pytest " + " ".join(files))
                  for i, files in enumerate(chunked, 1))
    return pieces.Cut(whole, chunked, (*parts, Trial("suite-run-3-rest", ws, "pytest")))


def _outcomes(cut: pieces.Cut, runs: list[testrun.TestRun]) -> list[Outcome]:
    return [Outcome(t, r, t.order) for t, r in zip(cut.trials, runs, strict=True)]


def test_only_one_pytest_invocation_that_names_no_path_of_its_own_is_cut(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("")
    assert pieces.takes_pieces("python -m pytest -q", str(tmp_path))
    assert pieces.takes_pieces('pytest -m "not slow" -p no:cacheprovider', str(tmp_path))
    assert not pieces.takes_pieces("pytest tests", str(tmp_path))  # would collect it all
    assert not pieces.takes_pieces("pytest -q tests/test_a.py::test_x", str(tmp_path))
    assert not pieces.takes_pieces("pytest && echo done", str(tmp_path))
    assert not pieces.takes_pieces("npm test", str(tmp_path))


def test_files_are_balanced_by_size_each_chunk_in_the_files_own_order(tmp_path: Path) -> None:
    sizes = {"a.py": 900, "b.py": 100, "c.py": 500, "d.py": 400, "e.py": 10}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    found = pieces.chunks(list(sizes), 2, str(tmp_path))
    assert found == [["a.py", "b.py"], ["c.py", "d.py", "e.py"]]  # 1,000 and 910 bytes
    assert pieces.chunks(["a.py"], 4, str(tmp_path)) == [["a.py"]]  # no empty chunk


def test_the_pieces_read_as_one_run_and_a_rest_that_collected_nothing_is_no_failure(
        tmp_path: Path) -> None:
    cut = _cut(tmp_path, (("t/test_a.py",), ("t/test_b.py",)))
    runs = [_run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed")),
            _run(0, ("t/test_b.py::test_2", "t/test_b.py", "passed")),
            testrun.TestRun(process.Completed("pytest", 5, "no tests ran", False, False, 0.2),
                    Counts("pytest", 0, 0, 0), True)]
    one = cut.joined(_outcomes(cut, runs))
    assert one.trial is cut.whole
    assert one.run.passed and one.run.counts is not None
    assert [c.name for c in one.run.counts.cases] == ["t/test_a.py::test_1",
                                                      "t/test_b.py::test_2"]
    failing = [runs[0], _run(1, ("t/test_b.py::test_2", "t/test_b.py", "failed")), runs[2]]
    bad = cut.joined(_outcomes(cut, failing)).run
    assert not bad.passed and "--- suite-run-3-part-2: exit 1" in bad.completed.output


def test_a_chunk_counts_as_passed_alone_only_with_every_test_of_its_files(
        tmp_path: Path) -> None:
    cut = _cut(tmp_path, (("t/test_a.py",), ("t/test_b.py",)))
    whole = _run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed"),
                 ("t/test_a.py::test_2", "t/test_a.py", "passed"),
                 ("t/test_b.py::test_3", "t/test_b.py", "passed"),
                 ("t/test_n.py::test_4", "t/test_n.py", "passed"))
    runs = [_run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed")),  # test_2 went missing
            _run(0, ("t/test_b.py::test_3", "t/test_b.py", "passed")),
            _run(0, ("t/test_n.py::test_4", "t/test_n.py", "passed"))]
    assert cut.passed_chunks(_outcomes(cut, runs), whole) == {"t/test_b.py"}
    joined = cut.joined(_outcomes(cut, runs)).run
    assert not pieces.same_tests(joined, whole)  # then the run is made again, whole
    runs[0] = _run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed"),
                   ("t/test_a.py::test_2", "t/test_a.py", "passed"))
    assert pieces.same_tests(cut.joined(_outcomes(cut, runs)).run, whole)
    assert cut.passed_chunks(_outcomes(cut, runs), whole) == {"t/test_a.py", "t/test_b.py"}
    runs[1] = _run(1, ("t/test_b.py::test_3", "t/test_b.py", "failed"))
    assert cut.passed_chunks(_outcomes(cut, runs), whole) == {"t/test_a.py"}


def test_the_rest_is_needed_unless_run_1_ran_every_test_in_the_chunks(tmp_path: Path) -> None:
    cut = _cut(tmp_path, (("t/test_a.py",), ("t/test_b.py",)))
    in_chunks = _run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed"),
                     ("t/test_b.py::test_2", "t/test_b.py", "passed"))
    assert not cut.needs_rest(in_chunks)
    assert cut.needs_rest(None)  # run 1 has not ended yet: the rest runs
    doctest = _run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed"),
                   ("calc/__init__.py::calc.double", "calc/__init__.py", "passed"))
    assert cut.needs_rest(doctest)  # a test outside the chunked files: only the rest runs it
    assert cut.needs_rest(_run(5))  # run 1 ran nothing: nothing to go by
    unread = testrun.TestRun(process.Completed("pytest", 0, "", False, False, 1.0), None, True)
    assert cut.needs_rest(unread)  # no outcomes read from run 1


def test_pieces_without_their_rest_read_as_one_run(tmp_path: Path) -> None:
    cut = _cut(tmp_path, (("t/test_a.py",), ("t/test_b.py",)))
    runs = [_run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed")),
            _run(0, ("t/test_b.py::test_2", "t/test_b.py", "passed"))]
    outcomes: list[Outcome | None] = [*_outcomes_of(cut, runs), None]
    one = cut.joined(outcomes)
    assert one.run.passed and one.run.counts is not None
    assert [c.name for c in one.run.counts.cases] == ["t/test_a.py::test_1",
                                                      "t/test_b.py::test_2"]
    whole = _run(0, ("t/test_a.py::test_1", "t/test_a.py", "passed"),
                 ("t/test_b.py::test_2", "t/test_b.py", "passed"))
    assert cut.passed_chunks(outcomes, whole) == {"t/test_a.py", "t/test_b.py"}


def _outcomes_of(cut: pieces.Cut, runs: list[testrun.TestRun]) -> list[Outcome]:
    """The pieces' outcomes of `runs`, one per chunk (the rest left out)."""
    return [Outcome(t, r, t.order) for t, r in zip(cut.trials, runs, strict=False)]
