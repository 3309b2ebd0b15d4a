"""The project's own CI script (.ci/run), run with stand-ins for its tools: a failing pytest
still lets the benchmarks' smoke test run, the run then fails, and the total time is said."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A python3 whose `-m venv .venv` makes a .venv of stand-ins: every tool passes, but
# `python -m pytest`, which exits with $PYTEST_EXIT.
FAKE_PYTHON3 = """#!/bin/sh
mkdir -p .venv/bin
for tool in ruff check-jsonschema zizmor pre-commit mypy; do
    printf '#!/bin/sh\\nexit 0\\n' > ".venv/bin/$tool"
done
printf '#!/bin/sh\\n[ "$2" = pytest ] && exit "$PYTEST_EXIT"\\nexit 0\\n' > .venv/bin/python
chmod +x .venv/bin/*
"""


def _ci_run(tmp_path: Path, pytest_exit: int) -> subprocess.CompletedProcess[str]:
    project = tmp_path / "project"
    (project / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "run", project / ".ci" / "run")
    (project / "bench").mkdir()
    bench = project / "bench" / "run"
    bench.write_text('#!/bin/sh\necho "bench ran with $1"\n')
    bench.chmod(0o755)
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, text in {"python3": FAKE_PYTHON3, "go": "#!/bin/sh\nexit 0\n"}.items():
        (tools / name).write_text(text)
        (tools / name).chmod(0o755)
    env = {"PATH": f"{tools}{os.pathsep}/usr/bin:/bin", "PYTEST_EXIT": str(pytest_exit),
           "HOME": str(tmp_path)}
    return subprocess.run(["bash", str(project / ".ci" / "run")], capture_output=True,
                          text=True, env=env, cwd=tmp_path)


def test_a_failing_pytest_still_runs_the_benchmarks_then_fails_the_run(tmp_path: Path) -> None:
    done = _ci_run(tmp_path, 1)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "bench ran with --quick" in done.stdout
    assert "--- pytest failed (exit 1)" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("--- total: 0 min ")


def test_a_passing_run_says_its_total_time(tmp_path: Path) -> None:
    done = _ci_run(tmp_path, 0)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bench ran with --quick" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("--- total: 0 min ")
