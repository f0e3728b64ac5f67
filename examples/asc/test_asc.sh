#!/usr/bin/env bash
# test_asc.sh BUILD_DIR SOURCE_DIR: the .asc flow as a user meets it. The installed package
# (temp prefix); each of the eight examples of examples/asc configured with its own CMakeLists.txt
# (-DCMAKE_PREFIX_PATH=prefix), built, run on its NumPy inputs, checked against its golden, and
# its summary's simulated latency printed; the sim and cpu run modes; another architecture a
# configure error naming it; the ACL runtime's argument checks returning its error codes.
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
py=python3
python3 -c 'import numpy' 2>/dev/null || py=/usr/bin/python3

run_example() {  # run_example NAME [cmake args...]
  local ex=$1; shift
  local b=$work/$ex-build
  cmake -S "$src/examples/asc/$ex" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$work/$ex.cfg" \
    || { cat "$work/$ex.cfg"; fail "$ex: configure"; }
  cmake --build "$b" -j2 > "$work/$ex.bld" 2>&1 || { cat "$work/$ex.bld"; fail "$ex: build"; }
  (cd "$b" && "$py" "$src/examples/asc/$ex/scripts/gen_data.py" && ./demo > run.txt 2> run.err \
     && "$py" "$src/examples/asc/$ex/scripts/verify_result.py" output/output.bin output/golden.bin) \
    || { cat "$b/run.txt" "$b/run.err" 2>/dev/null; fail "$ex: run or check"; }
  grep -qE "^  latency +[0-9.]+ us$" "$b/run.txt" \
    || { cat "$b/run.txt"; fail "$ex: no simulated latency printed"; }
  echo "ok: $ex: $(grep -E '^ascend-sim: ' "$b/run.txt" | head -1)"
}
run_example add
grep -q "there is no NPU here; the program runs on ascend-sim's simulated die" "$work/add.cfg" \
  || { cat "$work/add.cfg"; fail "npu mode: no status line"; }
[ "$(grep -c '^ascend-sim: kernel vadd on preset' "$work/add-build/run.txt")" = 1 ] || fail "add: one launch"
run_example leaky_relu
[ "$(grep -c '^ascend-sim: kernel leaky_relu on preset a3, 1 rank(s) x 16 of [0-9]* AIV' "$work/leaky_relu-build/run.txt")" = 2 ] \
  || { cat "$work/leaky_relu-build/run.txt"; fail "leaky_relu: two launches of 16 AIVs"; }
run_example matmul
grep -qE '^ascend-sim: kernel matmul_bias on preset a3, 1 rank\(s\) x 2 of [0-9]+ AIC cores' "$work/matmul-build/run.txt" \
  || { cat "$work/matmul-build/run.txt"; fail "matmul: __cube__ is not 2 AICs"; }
grep -q '"entry": "<<<>>>"' "$work/matmul-build/ascend-sim-out/stats.json" || fail "stats.json entry"
# Our own examples: vector (row reductions, a softmax with Div, a double-buffered fp16 axpy),
# cube (Mmad and Fixpipe by hand on 4 AICs) and mixed (__mix__(1, 2): the AIC's product
# post-processed by its AIVs through GM, ordered by a cross-core flag).
run_example reduce_rows
grep -qE '^ascend-sim: kernel reduce_rows on preset a3, 1 rank\(s\) x 8 of [0-9]+ AIV cores' "$work/reduce_rows-build/run.txt" \
  || fail "reduce_rows: not 8 AIVs"
run_example softmax_div
run_example axpy_stream
run_example mmad_cube
grep -qE '^ascend-sim: kernel mmad_cube on preset a3, 1 rank\(s\) x 4 of [0-9]+ AIC cores' "$work/mmad_cube-build/run.txt" \
  || { cat "$work/mmad_cube-build/run.txt"; fail "mmad_cube: __cube__ is not 4 AICs"; }
run_example mix_postproc
grep -qE '^ascend-sim: kernel matmul_relu on preset a3, 1 rank\(s\) x 4 of [0-9]+ AIV cores \+ 2 of [0-9]+ AIC cores' \
  "$work/mix_postproc-build/run.txt" \
  || { cat "$work/mix_postproc-build/run.txt"; fail "mix_postproc: __mix__(1, 2) is not 2 AI Cores"; }
# Each of them synchronises itself: with the compiler's automatic sync off, the race check finds
# nothing.
for ex in reduce_rows softmax_div axpy_stream mmad_cube mix_postproc; do
  (cd "$work/$ex-build" && ASCEND_SIM_SET="run.racecheck=1;compiler.auto_sync=0" ASCEND_SIM_OUT= \
     ./demo > racecheck.txt 2>&1) || { cat "$work/$ex-build/racecheck.txt"; fail "$ex: race check"; }
done
echo "ok: our examples race-free with compiler.auto_sync=0"

rm -rf "$work/add-build"
run_example add -DCMAKE_ASC_RUN_MODE=sim
rm -rf "$work/add-build"
run_example add -DCMAKE_ASC_RUN_MODE=cpu
grep -q "ASCENDC_CPU_DEBUG" "$work/add.cfg" || fail "cpu mode: no status line"

set +e
cmake -S "$src/examples/asc/add" -B "$work/arch" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_ASC_ARCHITECTURES=dav-3510 > "$work/arch.out" 2>&1; s=$?
set -e
[ "$s" != 0 ] && grep -q "CMAKE_ASC_ARCHITECTURES='dav-3510' is not modelled" "$work/arch.out" \
  || { cat "$work/arch.out"; fail "dav-3510 configured"; }
echo "ok: another architecture is a configure error naming it"

# The ACL runtime's argument checks.
mkdir -p "$work/acl"
cat > "$work/acl/acl.asc" <<'K'
#include <cstdio>
#include "acl/acl.h"
int main() {
  void* d = nullptr;
  char host[64];
  if (aclrtMalloc(&d, 16, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_ERROR_RT_CONTEXT_NULL) return 10;
  aclInit(nullptr);
  if (aclInit(nullptr) != ACL_ERROR_REPEAT_INITIALIZE) return 11;
  if (aclrtSetDevice(1) != ACL_ERROR_RT_INVALID_DEVICEID) return 12;
  aclrtSetDevice(0);
  if (aclrtMalloc(&d, 16, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 13;
  if (aclrtMemcpy(nullptr, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_ERROR_INVALID_PARAM) return 14;
  if (aclrtMemcpy(d, 64, host, 32, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_ERROR_INVALID_PARAM) return 15;
  if (aclrtMemcpy(d, 16, host, 32, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_ERROR_INVALID_PARAM) return 16;
  if (aclrtMemcpy(d, 16, host, 16, (aclrtMemcpyKind)9) != ACL_ERROR_INVALID_PARAM) return 17;
  if (aclrtMemcpy(host, 16, host, 16, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_ERROR_INVALID_PARAM) return 18;
  if (aclrtMemcpy(d, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 19;
  if (aclrtFree(host) != ACL_ERROR_RT_PARAM_INVALID) return 20;
  if (aclrtSynchronizeStream((aclrtStream)host) != ACL_ERROR_RT_PARAM_INVALID) return 21;
  if (aclrtGetLastError(ACL_RT_THREAD_LEVEL) != ACL_ERROR_RT_CONTEXT_NULL) return 22;
  std::printf("acl checks pass\n");
  return 0;
}
K
cat > "$work/acl/CMakeLists.txt" <<'K'
cmake_minimum_required(VERSION 3.16)
find_package(ASC REQUIRED)
project(acl_checks LANGUAGES ASC CXX)
add_executable(demo acl.asc)
K
cmake -S "$work/acl" -B "$work/acl/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/acl/b" >/dev/null
set +e
"$work/acl/b/demo" > "$work/acl/out" 2> "$work/acl/err"; s=$?
set -e
[ "$s" = 0 ] || { cat "$work/acl/out" "$work/acl/err"; fail "ACL checks: exit $s"; }
grep -q "aclrtMemcpy: 32 bytes from dst 0x[0-9a-f]* run past the end of its aclrtMalloc allocation (error 100000)" "$work/acl/err" \
  && grep -q "aclrtMemcpy: unknown kind 9" "$work/acl/err" \
  || { cat "$work/acl/err"; fail "ACL messages"; }
echo "ok: the ACL runtime returns its error codes, with a message on stderr"
