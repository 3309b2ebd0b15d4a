"""Leftovers, a `diff-policy` rule: files a change adds that a reviewer would not merge
(scratch and reproduction scripts, stray tests, backups, build output, what the base's
.gitignore ignores, data at the root, looping links). `rules` knows paths only; `finder`
reads the two sides and the project's own exceptions (its `keep` list, allow comments)."""
