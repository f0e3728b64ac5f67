#!/usr/bin/env bash
# run_example.sh APP EXAMPLE_DIR [WORK_DIR]: the example's NumPy inputs and golden
# (scripts/gen_data.py), its program on ascend-sim (outputs in WORK_DIR/ascend-sim-out), then
# the check against the golden (scripts/verify_result.py). Exit status: the first that fails.
set -euo pipefail
app=$(realpath "$1")
src=$(realpath "$2")
work=${3:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
py=python3
python3 -c 'import numpy' 2>/dev/null || py=/usr/bin/python3
"$py" "$src/scripts/gen_data.py"
ASCEND_SIM_OUT=${ASCEND_SIM_OUT:-$work/ascend-sim-out} "$app"
"$py" "$src/scripts/verify_result.py"
