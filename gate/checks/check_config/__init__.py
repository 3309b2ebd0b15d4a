"""The `check-config` check (`check`) and what only it uses: one comparison per kind of
configuration file (`handlers`), each reading the two sides as parsed data: Python tool tables,
tsconfig, workflows, pre-commit, package.json scripts, conftest hooks, Makefiles."""
