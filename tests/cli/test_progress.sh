#!/usr/bin/env bash
# The progress line on stderr: shown when stderr is a terminal, gone with --quiet, and neither
# way changes a figure or an event of the run. `script` gives the run a terminal.
set -euo pipefail
sim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
args="--kernel moe --ep 4 --experts 8 --bs 8 --hidden 1024"
export ASCEND_SIM_PROGRESS_AFTER_MS=0  # show it at once, however short the run
script -qec "$sim $args --out $tmp/shown" /dev/null >"$tmp/shown.txt"
script -qec "$sim $args --quiet --out $tmp/quiet" /dev/null >"$tmp/quiet.txt"
"$sim" $args --out "$tmp/plain" >"$tmp/plain.txt" 2>&1  # not a terminal: no line either
grep -q "M events/s" "$tmp/shown.txt" || fail "no progress line on a terminal"
! grep -q "M events/s" "$tmp/quiet.txt" || fail "--quiet still shows the progress line"
! grep -q "M events/s" "$tmp/plain.txt" || fail "a progress line on a stderr that is not a terminal"
python3 - "$tmp" <<'PY'
import json, sys
def timing(run):
    s = json.load(open(f"{sys.argv[1]}/{run}/stats.json"))
    m = s["simulator"]
    return s["kernels"], m["scheduler_events"], m["delta_cycles"], m["sim_time_ns"]
shown, quiet, plain = timing("shown"), timing("quiet"), timing("plain")
assert shown == quiet == plain, "the progress line changed the run"
PY
echo "progress line: shown on a terminal, off with --quiet, figures identical"
