#!/usr/bin/env bash
# test_buffer_num.sh APP_BN2 APP_BN1 EXAMPLE_DIR TIMING_GOLDEN_PY: the vector add double-buffered
# and single-buffered gives the same bit-exact z; the single-buffered one is slower, and the
# timing test recorded for the double-buffered kernel fails on it with a diff naming the latency.
set -euo pipefail
bn2=$(realpath "$1"); bn1=$(realpath "$2"); src=$(realpath "$3"); golden_py=$(realpath "$4")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(dirname "$(realpath "$0")")
ASCEND_SIM_OUT=$work/bn2 bash "$here/run_example.sh" "$bn2" "$src" "$work/data" >/dev/null
ASCEND_SIM_OUT=$work/bn1 bash "$here/run_example.sh" "$bn1" "$src" "$work/data" >/dev/null
latency() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernels'][0]['latency_ns'])" "$1/stats.json"; }
l2=$(latency "$work/bn2"); l1=$(latency "$work/bn1")
echo "add_custom latency: BUFFER_NUM 2 $l2 ns, BUFFER_NUM 1 $l1 ns"
python3 -c "import sys; l2, l1 = map(float, sys.argv[1:]); sys.exit(0 if l1 > 1.05 * l2 else 1)" "$l2" "$l1" \
  || { echo "FAIL: single buffering should be slower by more than 5%"; exit 1; }
cd "$work/data"
set +e
out=$(python3 "$golden_py" check "$src/add_custom.golden.json" -- "$bn1")
status=$?
set -e
echo "$out"
[ "$status" = 1 ] || { echo "FAIL: the timing test should fail (exit 1) on BUFFER_NUM 1, got $status"; exit 1; }
grep -q "latency_ns: golden" <<<"$out" || { echo "FAIL: the diff does not name latency_ns"; exit 1; }
echo "PASS"
