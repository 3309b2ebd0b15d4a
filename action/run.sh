#!/usr/bin/env bash
# The Action's "Run the gate" step. Inputs arrive as GATE_* variables (never spliced into this
# script). No token is in this step's environment: the install and test commands it runs see none.
# Modes: a whole run (the default); a shard of a matrix (GATE_SHARD=I/N: its partial report goes
# to the artifact gate-shard-I, nothing is published); merge (the shards' reports, downloaded
# into $RUNNER_TEMP/gate-shards, judged as one run and published).
set -uo pipefail
gate="$RUNNER_TEMP/gate-venv/bin/gate"
report="$RUNNER_TEMP/gate-report.json"
durations="$RUNNER_TEMP/gate-durations.json"  # what the durations cache restores and saves
output="${GITHUB_OUTPUT:-/dev/null}"
mode="${GATE_MODE:-local}"
shard="${GATE_SHARD:-}"

if [ -n "$shard" ]; then
  if ! [[ "$shard" =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || (( BASH_REMATCH[1] > BASH_REMATCH[2] )); then
    echo "::error title=gate::the shard input is I/N, shard I of N counted from 1 (e.g. \`shard: \${{ matrix.shard }}/4\`), not '${shard//%/%25}'"
    exit 2
  fi
  if [ "$mode" != local ]; then
    echo "::error title=gate::the shard input goes with mode local (the default), not $mode: the merge job (mode merge) has no shard"
    exit 2
  fi
  index="${BASH_REMATCH[1]}"
  echo "shard-index=$index" >> "$output"
  rm -rf "$RUNNER_TEMP/gate-shard"  # the artifact holds this shard's report only
  mkdir -p "$RUNNER_TEMP/gate-shard"
  report="$RUNNER_TEMP/gate-shard/shard-$index.json"
fi

if [ "$mode" = merge ]; then
  shopt -s nullglob
  reports=("$RUNNER_TEMP"/gate-shards/*.json)
  if [ "${#reports[@]}" = 0 ]; then
    echo "::error title=gate::no shard's report was downloaded (artifacts gate-shard-*): run the shard jobs (the input shard: I/N) before this one, with needs: naming them"
    exit 2
  fi
  args=(merge "${reports[@]}" --report "$report")
  [ "${GATE_CACHE:-true}" = "true" ] && args+=(--durations-out "$durations")
elif [ -z "${GATE_BASE:-}" ] || [ -z "${GATE_HEAD:-}" ]; then
  echo "::error title=gate::no base or head commit: outside a pull_request event, set the base and head inputs"
  exit 2
elif [ "$mode" = "checks" ]; then
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
  if [ -n "$shard" ]; then
    args+=(--shard "$shard")
    if [ "${GATE_CACHE:-true}" = "true" ]; then
      # No durations restored (a first run): an empty file, so that shard 1 pins "none" to
      # this run and a re-run shard splits by counts as the others did.
      [ -f "$durations" ] || echo '{"format": 1, "seconds": {}}' > "$durations"
      args+=(--durations "$durations")
    fi
  fi
fi
[ "$mode" = merge ] || args+=(--base "$GATE_BASE" --head "$GATE_HEAD" --report "$report")
rm -f "$report"  # a report there after the run is this run's
[ -n "${GATE_CONFIG:-}" ] && args+=(--config "$GATE_CONFIG")
[ "${GATE_STRICT:-false}" = "true" ] && args+=(--strict)

# The report shows what the judged commands printed: with workflow commands stopped under a
# token it cannot guess, none of it is read as one (an `::error` forged, an `::add-mask::`).
token="gate-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
echo "::stop-commands::$token"
if [ "$mode" = merge ]; then
  # A merge is short: its messages are kept, to name in the job's error what is missing.
  errors="$(mktemp)"
  "$gate" "${args[@]}" 2> "$errors"
  code=$?
  cat "$errors" >&2
  said="$(grep '^gate: error: ' "$errors" | tail -n 1)"
  said="${said#gate: error: }"
  rm -f "$errors"
else
  "$gate" "${args[@]}"
  code=$?
fi
echo "::$token::"
case "$code" in
  0|1|3)  # pass, fail, needs-review: the publish step reports and decides
    if [ "$mode" = merge ] && [ "${GATE_CACHE:-true}" = "true" ]; then
      echo "durations=$durations" >> "$output"  # for the step that saves them
    fi
    exit 0 ;;
  2) if [ "$mode" != merge ] && [ -z "$shard" ] && [ -s "$report" ]; then
       # A report, but nothing it says is the change's (a command not found, failures alike
       # on the base): the publish step reports it and exits 2 in the same words.
       exit 0
     fi
     if [ "$mode" = merge ]; then
       echo "::error title=gate: the shards cannot be merged::${said//%/%25} (Re-run the shard job it names, or all jobs when it says every shard: the merge job runs again after it.)"
     else
       echo "::error title=gate::the gate could not judge this change (exit $code): the message above says what to do"
     fi
     exit 2 ;;
  *) echo "::error title=gate::the gate could not judge this change (exit $code): the message above says what to do"
     exit "$code" ;;
esac
