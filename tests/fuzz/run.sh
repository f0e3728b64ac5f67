#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan, build-fuzz/) and runs each one:
#   bash tests/fuzz/run.sh [runs=N | time=SECONDS] [HARNESS...]
# default runs=100000 over every harness (ini set npy cli plan acl asc_rewriter). Each starts from its seed corpus
# (tests/fuzz/corpus/NAME, read only) and its regression inputs, grows a working corpus in
# build-fuzz/corpus/NAME, and writes what it finds to build-fuzz/findings/NAME/. Prints one line
# per harness: inputs run, seconds, findings; exits 1 if any harness found anything.
# `bash .ci/bootstrap fuzz ...` installs clang and libFuzzer (Debian: clang, libclang-rt-14-dev)
# first. FUZZ_BUILD_DIR (default build-fuzz) and FUZZ_JOBS (default 2) can be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=(-runs=100000)
harnesses=()
for a in "$@"; do
  case "$a" in
    runs=*) limit=(-runs="${a#runs=}") ;;
    time=*) limit=(-max_total_time="${a#time=}") ;;
    *) harnesses+=("$a") ;;
  esac
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=(ini set npy cli plan acl asc_rewriter)
build=${FUZZ_BUILD_DIR:-build-fuzz}
targets=()
for h in "${harnesses[@]}"; do [ "$h" = asc_rewriter ] || targets+=("fuzz_$h"); done
if [ ${#targets[@]} -gt 0 ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DASCEND_FUZZ=ON >/dev/null
  cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target "${targets[@]}"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for h in "${harnesses[@]}"; do
  if [ "$h" = asc_rewriter ]; then
    # The launch rewriter of ascend-sim-asc (Python): its own driver, the same budget.
    found="$PWD/$build/findings/$h" log="$build/fuzz_$h.log"
    rm -rf "$found"
    mkdir -p "$build"
    start=$(date +%s)
    py=python3
    python3 -c "import numpy" 2>/dev/null || py=/usr/bin/python3
    case "${limit[0]}" in
      -runs=*) budget=--runs="${limit[0]#-runs=}" ;;
      *) budget=--time="${limit[0]#-max_total_time=}" ;;
    esac
    if "$py" tests/fuzz/fuzz_asc_rewriter.py "$budget" \
        --save "$found" >"$log" 2>&1; then
      result=ok
    else
      result="FINDING (see $log and $found/)"
      status=1
    fi
    echo "fuzz $h: $(tail -1 "$log" | grep -Eo '[0-9]+ inputs' || echo '?') in" \
         "$(($(date +%s) - start)) s, $(ls "$found" 2>/dev/null | wc -l) finding(s): $result"
    continue
  fi
  # Absolute paths: the npy and cli harnesses work in a scratch directory of their own.
  work="$PWD/$build/corpus/$h" found="$PWD/$build/findings/$h"
  rm -rf "$found"  # a previous run's findings were reported by that run
  mkdir -p "$work" "$found"
  seeds=("$PWD/tests/fuzz/corpus/$h")
  [ -d tests/fuzz/regressions/"$h" ] && seeds+=("$PWD/tests/fuzz/regressions/$h")
  log="$build/fuzz_$h.log"
  start=$(date +%s)
  # -close_fd_mask=1: the harnesses' standard output is closed; a finding's message (stderr) and
  # libFuzzer's report reach the log.
  if "$build/tests/fuzz/fuzz_$h" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
      -close_fd_mask=1 -print_final_stats=1 -artifact_prefix="$found/" "$work" "${seeds[@]}" \
      >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log and $found/)"
    status=1
  fi
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
  echo "fuzz $h: $runs inputs in $(($(date +%s) - start)) s, $(ls "$found" | wc -l) finding(s): $result"
done
exit $status
