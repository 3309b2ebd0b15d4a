"""The workflow `gate init` adds: one job that runs the gate's Action on every pull request."""
from __future__ import annotations

from gate.adopt import release

PATH = ".github/workflows/gate.yml"
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2"


def text() -> str:
    return f"""\
# The gate judges each pull request on a clean checkout (written by `gate init`).
name: gate
on:
  pull_request:

permissions: {{}}

jobs:
  gate:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    permissions:
      contents: read        # the checkout
      checks: write         # the check run and its annotations
      pull-requests: write  # one comment, edited on every push
      issues: write         # the needs-review label
    steps:
      - uses: {CHECKOUT}
        with:
          fetch-depth: 0    # the merge base of base and head must be in the clone
          persist-credentials: false
      - id: gate
        uses: {release.ACTION}@{release.ACTION_COMMIT}  # {release.TAG}
"""
