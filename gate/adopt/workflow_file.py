"""The workflow `gate init` adds: one job that runs the gate's Action on every pull request;
with `--shards N`, a matrix of N jobs that each run a shard of the tests, and a job that merges
their reports into one verdict."""
from __future__ import annotations

from gate.adopt import release
from gate.errors import GateError

PATH = ".github/workflows/gate.yml"
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2"
MAX_SHARDS = 256  # GitHub runs at most 256 jobs per matrix

_CHECKOUT_STEP = f"""\
      - uses: {CHECKOUT}
        with:
          fetch-depth: 0    # the merge base of base and head must be in the clone
          persist-credentials: false
"""
_POSTING = """\
    permissions:
      contents: read        # the checkout
      checks: write         # the check run and its annotations
      pull-requests: write  # one comment, edited on every push
      issues: write         # the needs-review label
"""


def _action() -> str:
    return f"{release.ACTION}@{release.ACTION_COMMIT}  # {release.TAG}"


def _head(comment: str) -> str:
    """The workflow's lines before its jobs: `comment`, the triggers (a review judges the head
    again: a person's approval turns a needs-review green, docs/action.md), no default
    permissions."""
    return comment + (
        "name: gate\non:\n  pull_request:\n"
        "  pull_request_review:  # a person's approval turns a needs-review green\n"
        "    types: [submitted, dismissed]\n\npermissions: {}\n\njobs:\n")


def check_shards(shards: int) -> None:
    if not 2 <= shards <= MAX_SHARDS:
        raise GateError(f"--shards {shards}: give the number of jobs to split the tests "
                        f"across, from 2 to {MAX_SHARDS} (GitHub's limit per matrix); "
                        "without --shards, one job runs them all")


def text(shards: int | None = None, setup: str = "") -> str:
    """The workflow; with `shards`, the matrix of shard jobs and the merge job; `setup`: the
    steps that set up what the project's install needs (`setup_steps.text`), after the
    checkout."""
    if shards is not None:
        return _sharded(shards, setup)
    comment = "# The gate judges each pull request on a clean checkout (written by `gate init`).\n"
    return _head(comment) + f"""\
  gate:
    runs-on: ubuntu-latest
    timeout-minutes: 30
{_POSTING}    steps:
{_CHECKOUT_STEP}{setup}      - id: gate
        uses: {_action()}
"""


def _sharded(shards: int, setup: str = "") -> str:
    check_shards(shards)
    numbers = ", ".join(str(i) for i in range(1, shards + 1))
    return _head(
        f"# The gate judges each pull request on a clean checkout, its tests split across "
        f"{shards} jobs\n# whose reports one job merges into the verdict (written by "
        f"`gate init --shards {shards}`).\n") + f"""\
  shard:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    strategy:
      fail-fast: false      # every shard reports, whatever the others do
      matrix:
        shard: [{numbers}]
    permissions:
      contents: read        # the checkout; a shard posts nothing
    steps:
{_CHECKOUT_STEP}{setup}      - uses: {_action()}
        with:
          shard: ${{{{ matrix.shard }}}}/{shards}

  merge:
    needs: shard
    # Also when a shard failed, to name it; not when the run was cancelled.
    if: ${{{{ !cancelled() }}}}
    runs-on: ubuntu-latest
    timeout-minutes: 15
{_POSTING}    steps:
{_CHECKOUT_STEP}      - id: gate
        uses: {_action()}
        with:
          mode: merge
"""
