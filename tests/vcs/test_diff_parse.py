"""The diff read in one pass: line numbers, header-like content lines, quoted paths."""
from __future__ import annotations

from pathlib import Path

from helpers.gitrepo import make_change

from gate.vcs import diff


def test_content_that_looks_like_headers_is_content(tmp_path: Path) -> None:
    base = {"notes.txt": "keep\n-- a/x\n++ b/y\n@@ -1 +1 @@\nend", "é dir/t\tb.py": "x = 1\n"}
    head = {"notes.txt": "keep\n+++ b/z\ndiff --git a/q b/q\nend\n", "é dir/t\tb.py": "x = 2\n"}
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    files = {f.path: f for f in diff.changed_files(str(repo.path), base_sha, head_sha)}
    assert sorted(files) == ["notes.txt", "é dir/t\tb.py"]
    notes = files["notes.txt"]
    assert notes.removed == {2: "-- a/x", 3: "++ b/y", 4: "@@ -1 +1 @@", 5: "end"}
    assert notes.added == {2: "+++ b/z", 3: "diff --git a/q b/q", 4: "end"}
    assert (files["é dir/t\tb.py"].added, files["é dir/t\tb.py"].status) == ({1: "x = 2"},
                                                                             "modified")


def test_a_renamed_file_knows_its_source_and_the_lines_it_kept(tmp_path: Path) -> None:
    body = "".join(f"line {i}  # type: ignore\n" for i in range(1, 21))
    edited = body.replace("line 7  #", "line seven  #")
    base = {"tests/test_old.py": body, "tests/test_gone.py": "x = 1\n"}
    head = {"tests/test_old.py": None, "tests/test_new.py": edited, "tests/test_gone.py": None,
            "tests/test_fresh.py": "y = 2\n"}
    repo, base_sha, head_sha = make_change(tmp_path / "repo", base, head)
    files = {f.path: f for f in diff.changed_files(str(repo.path), base_sha, head_sha)}
    # the statuses stay those of a diff without renames: the old path is deleted
    assert {p: f.status for p, f in files.items()} == {
        "tests/test_old.py": "deleted", "tests/test_new.py": "added",
        "tests/test_gone.py": "deleted", "tests/test_fresh.py": "added"}
    moved = files["tests/test_new.py"]
    assert moved.moved_from == "tests/test_old.py"
    assert moved.moved == frozenset(range(1, 21)) - {7}
    assert moved.new_lines == {7: "line seven  # type: ignore"}
    assert files["tests/test_fresh.py"].moved_from is None
    assert files["tests/test_fresh.py"].new_lines == {1: "y = 2"}


def test_a_staged_rename_is_read_too(tmp_path: Path) -> None:
    body = "".join(f"value_{i} = {i}  # noqa\n" for i in range(10))
    repo, _, head_sha = make_change(tmp_path / "repo", {"a.py": body}, {})
    repo.git("mv", "a.py", "b.py")
    files = {f.path: f for f in diff.staged_files(str(repo.path), head_sha)}
    assert (files["b.py"].moved_from, files["b.py"].new_lines) == ("a.py", {})
