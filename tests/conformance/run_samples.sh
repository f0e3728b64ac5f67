#!/usr/bin/env bash
# run_samples.sh APP SAMPLES_DIR NAME [CASE...]
# The conformance tier: one public Ascend C sample, unchanged, as its own run.sh runs it in
# CPU-debug mode, but on ascend-sim. APP is the sample's program, built from all of its C++
# sources (kernel, main.cpp, host tiling) against the SDK by tests/CMakeLists.txt (the sample's
# own CMake files need CANN). In a copy of the sample's folder: its input generator (the one
# run.sh calls), the program (each CASE is an argument to the generator and the program, as
# run.sh passes it), and its own verification script (scripts/verify_result.py with run.sh's
# arguments; a sample without one is checked by tests/conformance/verify/NAME.sh, written from
# what its generator defines). It prints the simulated latency and per-pipe busy the run reports.
# Exit status: 0 verified, 1 failed (the step and its first lines named), 77 skipped (the
# samples folder is absent).
set -uo pipefail
app=$1
samples=$2
name=$3
shift 3
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("")
here=$(dirname "$(realpath "$0")")
# The samples' scripts need NumPy: the python3 on PATH if it has it, else Debian's, where the
# project's bootstrap installs python3-numpy.
py=python3
python3 -c "import numpy" 2>/dev/null || py=/usr/bin/python3

if [ ! -d "$samples/$name" ]; then
  echo "conformance $name: skipped: $samples/$name is absent (the public samples are not beside" \
       "this checkout)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$samples/$name" "$work/$name"
cd "$work/$name"
chmod -R u+w .
mkdir -p input output

fail() {
  echo "conformance $name: FAILED at $1"
  [ -n "${2:-}" ] && sed -n '1,40p' "$2"
  exit 1
}

# The generator: the one run.sh calls. Generators that need a package Debian 12 does not have
# (TensorFlow) or that this machine lacks (torch) run from tests/conformance/gen/NAME.py, a
# NumPy port written from the sample's README that writes the same files.
gen=$(grep -o "python3 [^ ]*gen_data.py" run.sh 2>/dev/null | head -1 | awk '{print $2}')
[ -n "$gen" ] || gen=$(ls ./*.py 2>/dev/null | grep -v verify | head -1)
[ -n "$gen" ] || fail "input generation: no generator found"
for mod in torch tensorflow; do
  if grep -q "^import $mod\|^from $mod" "$gen" && ! "$py" -c "import $mod" 2>/dev/null; then
    echo "conformance $name: inputs from tests/conformance/gen/$name.py ($gen needs $mod)"
    gen=$here/gen/$name.py
  fi
done

[ -x "$app" ] || fail "build: $app was not built"

verify=$(grep -o "python3 scripts/verify_result.py.*" run.sh 2>/dev/null | head -1 | sed 's/^python3 //')
# A sample whose kernel has a hazard the CPU twin hides (tests/conformance/expect/NAME says
# "race" and why): run with the race check on; when the inputs raise the hazard, the check must
# name it (exit 6, a GM read after write); when they do not, the run must verify as any other.
racy=0
[ "$(head -1 "$here/expect/$name" 2>/dev/null)" = race ] && racy=1
for c in "${cases[@]}"; do
  label=${c:+ $c}
  # shellcheck disable=SC2086
  "$py" "$gen" $c >"$work/gen.log" 2>&1 || fail "input generation$label" "$work/gen.log"
  if [ $racy = 1 ]; then
    # shellcheck disable=SC2086
    ASCEND_SIM_OUT= ASCEND_SIM_SET="run.racecheck=1" "$app" $c >"$work/run.log" 2>&1
    status=$?
    if [ $status = 6 ] && grep -q "read after write on GM" "$work/run.log"; then
      echo "conformance $name$label: built, ran; its kernel races on these inputs, as" \
           "tests/conformance/expect/$name says:"
      grep -m1 "read after write on GM" "$work/run.log" | cut -c1-200 | sed 's/^/  /'
      continue
    fi
    [ $status = 0 ] || fail "run$label with the race check (exit $status)" "$work/run.log"
  fi
  # shellcheck disable=SC2086
  ASCEND_SIM_OUT="$work/out" "$app" $c >"$work/run.log" 2>&1 \
    || fail "run$label (exit $?)" "$work/run.log"
  if [ -n "$verify" ]; then
    # shellcheck disable=SC2086
    "$py" $verify >"$work/verify.log" 2>&1 || fail "verification$label" "$work/verify.log"
  elif [ -f "$here/verify/$name.sh" ]; then
    PYTHON=$py bash "$here/verify/$name.sh" >"$work/verify.log" 2>&1 \
      || fail "verification$label" "$work/verify.log"
  else
    fail "verification$label: the sample has no verification script and tests/conformance/verify/$name.sh is absent"
  fi
  # Some verification scripts print their verdict and exit 0 either way: the verdict decides.
  if grep -q "\[ERROR\]\|result error" "$work/verify.log" || ! grep -qi "pass" "$work/verify.log"; then
    fail "verification$label: its verdict is not a pass" "$work/verify.log"
  fi
  echo "conformance $name$label: built, ran, verified ($(tail -1 "$work/verify.log"))"
  grep "^ascend-sim:\|^  latency\|AIV pipe busy  mean\|AIC pipe busy  mean\|slowest" "$work/run.log" | sed 's/^/  /'
done
exit 0
