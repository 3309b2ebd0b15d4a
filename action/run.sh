#!/usr/bin/env bash
# The Action's "Run the gate" step. Inputs arrive as GATE_* variables (never spliced into this
# script). No token is in this step's environment: the install and test commands it runs see none.
set -uo pipefail
gate="$RUNNER_TEMP/gate-venv/bin/gate"
report="$RUNNER_TEMP/gate-report.json"

if [ -z "${GATE_BASE:-}" ] || [ -z "${GATE_HEAD:-}" ]; then
  echo "::error title=gate::no base or head commit: outside a pull_request event, set the base and head inputs"
  exit 2
fi

if [ "${GATE_MODE:-local}" = "checks" ]; then
  args=(scan)  # the other checks on the head are the runtime evidence; see `gate publish`
else
  args=(run)
  [ -n "${GATE_INSTALL:-}" ] && args+=(--install "$GATE_INSTALL")
  [ -n "${GATE_TEST:-}" ] && args+=(--test "$GATE_TEST")
  [ -n "${GATE_RUNS:-}" ] && args+=(--runs "$GATE_RUNS")
  if [ "${GATE_CACHE:-true}" = "true" ]; then
    export GATE_CACHE_DIR="$RUNNER_TEMP/gate-cache"  # what the cache step restores and saves
  else
    args+=(--no-cache)
  fi
  if [ -n "${GATE_LOGS_ARTIFACT:-}" ]; then
    # Uploaded by the next step. A gate step earlier in the job left its own logs (already
    # uploaded): the gate writes only into an empty directory.
    rm -rf "$RUNNER_TEMP/gate-logs"
    args+=(--logs "$RUNNER_TEMP/gate-logs")
  fi
  # The judged code runs in the isolation boundary; on Linux its absence is an error.
  isolation="${GATE_ISOLATION:-}"
  [ -z "$isolation" ] && { [ "$(uname -s)" = Linux ] && isolation=required || isolation=auto; }
  args+=(--isolation "$isolation")
fi
args+=(--base "$GATE_BASE" --head "$GATE_HEAD" --report "$report")
[ -n "${GATE_CONFIG:-}" ] && args+=(--config "$GATE_CONFIG")
[ "${GATE_STRICT:-false}" = "true" ] && args+=(--strict)

# The report shows what the judged commands printed: with workflow commands stopped under a
# token it cannot guess, none of it is read as one (an `::error` forged, an `::add-mask::`).
token="gate-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
echo "::stop-commands::$token"
"$gate" "${args[@]}"
code=$?
echo "::$token::"
case "$code" in
  0|1|3) exit 0 ;;  # pass, fail, needs-review: the publish step reports and decides
  *) echo "::error title=gate::the gate could not judge this change (exit $code): the message above says what to do"
     exit "$code" ;;
esac
