"""Peak memory of the gate while a test prints 1 GB (the issue's bound: 100 MB).

    .venv/bin/python bench/output_flood.py [MEGABYTES]

Runs `head -c N MB of /dev/zero | tr` through gate.execution.process.run_shell, as the suite
runs a test command, in a child process, and prints that process's peak resident memory.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys

CHILD = """
import os, sys, time
from gate.execution import process
size = int(sys.argv[1]) * 1024 * 1024
start = time.monotonic()
done = process.run_shell(f"head -c {size} /dev/zero | tr '\\\\0' 'x'", cwd=".",
                         env=dict(os.environ), timeout=600)
print(f"{size // 2**20} MB printed in {time.monotonic() - start:.1f}s; kept "
      f"{len(done.output) // 1024} kB, dropped {done.dropped_bytes // 2**20} MB")
"""


def main() -> int:
    megabytes = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    subprocess.run([sys.executable, "-c", CHILD, str(megabytes)], check=True)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"peak RSS of the gate's process: {peak_kb / 1024:.1f} MB (bound: 100 MB)")
    return 0 if peak_kb < 100 * 1024 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONPATH", os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))))
    sys.exit(main())
