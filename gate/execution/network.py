"""`network = "off"`: the tests run in a new network namespace with no interface but a
loopback of their own, so nothing they do reaches a network, and a test that serves on a fixed
port of 127.0.0.1 collides with no other trial's (each command has its own). The install still
has the network."""
from __future__ import annotations

import functools
import os
import shutil
import subprocess

from gate.errors import GateError

# In the new namespace: its loopback up (where `ip` is found; else it stays down), then the
# command, as the shell's arguments.
_LOOPBACK_UP = 'ip link set lo up 2>/dev/null; exec "$@"'


def _argv() -> list[str]:
    unshare = shutil.which("unshare")
    if unshare is None:
        raise GateError('network = "off" needs `unshare` (util-linux) on PATH, and it is not '
                        'there: install util-linux, or set network = "on"')
    # As root a network namespace needs no more; otherwise a user namespace maps us to root.
    return [unshare, "--net"] if os.geteuid() == 0 else [unshare, "--map-root-user", "--net"]


def _with_loopback(argv: list[str]) -> list[str]:
    ip = shutil.which("ip") or shutil.which("ip", path="/usr/sbin:/sbin")
    if ip is None:
        return argv
    return [*argv, "/bin/sh", "-c", _LOOPBACK_UP.replace("ip ", f"{ip} ", 1), "gate-offline"]


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
    return tuple(_with_loopback(argv))
