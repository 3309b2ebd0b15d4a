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
