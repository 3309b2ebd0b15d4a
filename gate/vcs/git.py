"""Git, one small function per question. Output is read with -z where paths are listed."""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence

from gate.errors import GateError, GitError
from gate.execution.environment import gate_git_env

# Pin git's output against the user's configuration (as diff-cover does).
DIFF_OPTIONS = ("--no-ext-diff", "--no-color", "--no-textconv", "--src-prefix=a/",
                "--dst-prefix=b/", "--no-renames")


def _git_exe() -> str:
    exe = shutil.which("git")
    if exe is None:
        raise GateError("git was not found on PATH: install git (https://git-scm.com) and retry")
    return exe


# For git run on a checkout that judged code has worked in: no program its config could
# name runs as the gate. Inside the boundary the checkout's `.git` is read-only, so its config
# is the gate's own clone's; these pins hold besides: no fsmonitor, hook, untracked cache, and
# no system or global config (the checkout is the gate's own, made with none of it needed).
CHECKOUT_PINS = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                 "-c", "core.untrackedCache=false", "-c", "diff.external=",
                 "-c", "core.pager=cat")
CHECKOUT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}

INDEX = ""  # the ref that names the index: `git cat-file` reads `:path` from it


def _env(index: bool, index_file: str | None = None) -> dict[str, str]:
    """No hook variables, but the index a hook was given (`git commit -a` stages into a
    temporary one) when the index itself is read, or `index_file`: one of the gate's own."""
    env = gate_git_env()
    if index_file is not None:
        env["GIT_INDEX_FILE"] = index_file
    elif index and "GIT_INDEX_FILE" in os.environ:
        env["GIT_INDEX_FILE"] = os.path.abspath(os.environ["GIT_INDEX_FILE"])
    return env


def run(repo: str, *args: str, check: bool = True, input: bytes | None = None,
        index: bool = False, index_file: str | None = None, judged: bool = False) -> bytes:
    """Run git in `repo` without the hook variables; raise GitError on failure if `check`.
    `index_file`: a temporary index of the gate's own instead of the repository's.
    `judged`: `repo` is a checkout the judged code has worked in (`CHECKOUT_PINS`)."""
    pins = CHECKOUT_PINS if judged else ()
    proc = subprocess.run(
        [_git_exe(), *pins, "-C", repo, *args],
        env={**_env(index, index_file), **(CHECKOUT_ENV if judged else {})},
        input=input,
        capture_output=True,
        stdin=None if input is not None else subprocess.DEVNULL,
    )
    if check and proc.returncode != 0:
        stderr = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(args, proc.returncode, stderr)
    return proc.stdout


def text(repo: str, *args: str) -> str:
    return run(repo, *args).decode("utf-8", "replace")


def toplevel(path: str) -> str:
    if not os.path.isdir(path):
        raise GateError(f"{path} is not a directory: pass --repo a path inside a git repository")
    proc = subprocess.run(
        [_git_exe(), "-C", path, "rev-parse", "--show-toplevel"],
        env=gate_git_env(), capture_output=True,
    )
    if proc.returncode != 0:
        raise GateError(
            f"{os.path.abspath(path)} is not inside a git repository: "
            "run gate from a clone, or pass --repo DIR"
        )
    return proc.stdout.decode().strip()


def is_shallow(repo: str) -> bool:
    return text(repo, "rev-parse", "--is-shallow-repository").strip() == "true"


def resolve_commit(repo: str, ref: str) -> str:
    """The full SHA of `ref`, or a GateError that names the ref and what to do."""
    if ref.startswith("-"):
        raise GateError(f"{ref!r} is not a valid ref")
    proc = subprocess.run(
        [_git_exe(), "-C", repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        env=gate_git_env(), capture_output=True,
    )
    if proc.returncode == 0:
        return proc.stdout.decode().strip()
    if is_shallow(repo):
        raise GateError(
            f"unknown ref {ref!r} in a shallow clone: the history that holds it was not fetched. "
            "Fetch it with `git fetch --unshallow` (or `git fetch --deepen=N origin`), "
            "or check out with `fetch-depth: 0` in actions/checkout"
        )
    found = _usual_bases(repo, ref)
    raise GateError(
        f"unknown ref {ref!r}: no branch, tag or commit of that name in {repo}. "
        + (f"Did you mean {' or '.join(repr(b) for b in found)}? " if found else "")
        + "Check the spelling, or fetch it first (`git fetch origin`)"
    )


# The names a default branch goes by, the likeliest first.
_DEFAULT_BRANCHES = ("main", "master", "trunk", "develop", "default")


def _usual_bases(repo: str, ref: str) -> list[str]:
    """Where `ref` names a usual default branch (or its remote copy) that does not exist,
    the ones that do: `master` for `main`, `origin/master` for `origin/main`."""
    remote, _, name = ref.rpartition("/")
    if name not in _DEFAULT_BRANCHES or remote not in ("", "origin", "upstream"):
        return []
    prefix = f"{remote}/" if remote else ""
    return [f"{prefix}{b}" for b in _DEFAULT_BRANCHES if b != name and subprocess.run(
        [_git_exe(), "-C", repo, "rev-parse", "--verify", "--quiet", f"{prefix}{b}^{{commit}}"],
        env=gate_git_env(), capture_output=True).returncode == 0]


def merge_base(repo: str, a: str, b: str) -> str:
    proc = subprocess.run(
        [_git_exe(), "-C", repo, "merge-base", a, b],
        env=gate_git_env(), capture_output=True,
    )
    if proc.returncode != 0:
        hint = (" The clone is shallow: fetch more history with `git fetch --unshallow` "
                "or `fetch-depth: 0`.") if is_shallow(repo) else ""
        raise GateError(f"{a[:12]} and {b[:12]} have no common ancestor.{hint}")
    return proc.stdout.decode().strip()


def diff(repo: str, base: str, head: str, *paths: str) -> str:
    """`git diff base...head` as unified text, pinned against the user's config."""
    args = ["diff", *DIFF_OPTIONS, f"{base}...{head}"]
    if paths:
        args += ["--", *paths]
    return run(repo, *args).decode("utf-8", "surrogateescape")


def ls_files(repo: str, ref: str) -> list[str]:
    """Every file path at `ref` (INDEX: the index), from the object database (no checkout
    needed)."""
    if ref == INDEX:
        out = run(repo, "ls-files", "-z", "--full-name", index=True)
    else:
        out = run(repo, "ls-tree", "-r", "-z", "--name-only", "--full-tree", ref)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def symlinks(repo: str, ref: str) -> list[str]:
    """The paths at commit `ref` that are symbolic links (mode 120000); their blob is the
    target."""
    out = run(repo, "ls-tree", "-r", "-z", "--full-tree", ref)
    entries = [e.decode("utf-8", "surrogateescape") for e in out.split(b"\0") if e]
    return [e.split("\t", 1)[1] for e in entries if e.startswith("120000 ")]


def top_files(repo: str, ref: str) -> list[str]:
    """The files at the top of `ref`'s tree (not its directories)."""
    out = run(repo, "ls-tree", "-z", "--full-tree", ref)
    entries = [e.decode("utf-8", "surrogateescape") for e in out.split(b"\0") if e]
    return [e.split("\t", 1)[1] for e in entries if e.split(" ", 2)[1] == "blob"]


def checkout_files(checkout: str) -> list[str]:
    """The tracked files of a checkout the judged code has worked in (its index, read with
    `CHECKOUT_PINS`); empty where `checkout` is no git checkout."""
    out = run(checkout, "ls-files", "-z", check=False, judged=True)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def worktree_changes(checkout: str) -> list[str]:
    """Files of a checkout's work tree that differ from its commit: untracked ones (ignored
    ones too, but not what installs make by the thousand: node_modules, .venv, caches) and
    modified or deleted tracked ones."""
    skipped = [f"--exclude={d}" for d in ("node_modules", ".venv", "__pycache__", ".tox",
                                          "*.egg-info", ".git")]
    out = run(checkout, "ls-files", "-z", "--others", "--modified", *skipped, judged=True)
    return list(dict.fromkeys(p for p in out.decode("utf-8", "surrogateescape").split("\0")
                              if p))


def changed_paths(repo: str, base: str, head: str) -> list[tuple[str, str]]:
    """(status letter, path) for every path that differs between base and head."""
    out = run(repo, "diff", "--no-renames", "--name-status", "-z", base, head, "--")
    parts = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
    return [(parts[i][0], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


def read_blobs(repo: str, ref: str, paths: Sequence[str]) -> dict[str, bytes | None]:
    """Contents of `paths` at `ref` (INDEX: the index), read with one `git cat-file --batch`;
    None if absent."""
    if not paths:
        return {}
    request = "".join(f"{ref}:{p}\n" for p in paths).encode("utf-8", "surrogateescape")
    out = run(repo, "cat-file", "--batch", input=request, index=ref == INDEX)
    result: dict[str, bytes | None] = {}
    pos = 0
    for path in paths:
        eol = out.index(b"\n", pos)
        header = out[pos:eol]
        pos = eol + 1
        if header.endswith((b" missing", b" ambiguous")):
            result[path] = None
            continue
        _sha, kind, size_text = header.split(b" ")
        size = int(size_text)
        result[path] = out[pos:pos + size] if kind == b"blob" else None
        pos += size + 1
    return result


def show(repo: str, ref: str, path: str) -> bytes | None:
    return read_blobs(repo, ref, [path])[path]


def renames(repo: str, base: str, head: str) -> dict[str, str]:
    """Old path -> new path for the files git sees renamed between base and head."""
    out = run(repo, "diff", "-M", "--name-status", "-z", "--diff-filter=R", base, head, "--")
    parts = [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]
    return {parts[i + 1]: parts[i + 2] for i in range(0, len(parts) - 2, 3)}
