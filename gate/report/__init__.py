"""Reporters: each turns a finished `Report` into one format (text, JSON, GitHub workflow
commands, markdown with its `tests_table`, SARIF) or, in `terminal`, a hook's lines; `live`
is the progress while a run goes on, `words` the labels they share, `destination` checks where
a report will be written before the run starts. They only read the records."""
