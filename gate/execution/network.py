"""`network = "off"`: the tests run in a new network namespace with no interface but a
loopback that is down, so nothing they do reaches a network. The install still has one."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess

from gate.errors import GateError


def _argv() -> list[str]:
    unshare = shutil.which("unshare")
    if unshare is None:
        raise GateError('network = "off" needs `unshare` (util-linux) on PATH, and it is not '
                        'there: install util-linux, or set network = "on"')
    # As root a network namespace needs no more; otherwise a user namespace maps us to root.
    return [unshare, "--net"] if os.geteuid() == 0 else [unshare, "--map-root-user", "--net"]


@functools.lru_cache(maxsize=1)
def offline_prefix() -> tuple[str, ...]:
    """The argv prefix that runs a command without network; GateError saying what is missing
    where this kernel or sandbox does not allow it."""
    argv = _argv()
    proc = subprocess.run([*argv, "true"], capture_output=True, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip()
        raise GateError(
            f'network = "off" needs a new network namespace, and `{" ".join(argv)} true` '
            f"failed: {why}. Run the gate as root, or allow unprivileged user namespaces "
            "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; "
            'in a container: --cap-add SYS_ADMIN), or set network = "on"')
    return tuple(argv)
