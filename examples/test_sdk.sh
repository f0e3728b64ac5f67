#!/usr/bin/env bash
# test_sdk.sh BUILD_DIR SOURCE_DIR CXX: the SDK as a user meets it.
#  1. a kernel calling an API the facade lacks does not compile, and the message names it;
#  2. a pointer that GmAlloc did not return is exit 2, an ASSERT that fails exit 5;
#  3. the installed package, used from a folder outside the source tree: the vector add builds
#     with its own CMakeLists.txt (find_package(ascend_sim)), runs bit-exact, its timing test
#     passes once recorded; the mixed cube + vector example likewise; and ascend-sim-build builds
#     the vector add in one command.
set -euo pipefail
build=$(realpath "$1"); src=$(realpath "$2"); cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
inc=(-I"$src/sdk/include" -I"$src" -I"$src/examples/common")

# 1. An API not modelled: a compile error that names it.
cat > "$work/sig.cpp" <<'K'
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void sig(GM_ADDR x) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  AscendC::LocalTensor<float> t = b.Get<float>();
  AscendC::Tanh(t, t, 64);
}
K
if "$cxx" -std=c++17 -fsyntax-only "${inc[@]}" -DASCENDC_CPU_DEBUG "$work/sig.cpp" 2>"$work/sig.err"; then
  fail "a kernel calling Tanh compiled"
fi
grep -q "AscendC::Tanh is not modelled yet" "$work/sig.err" || { cat "$work/sig.err"; fail "the message does not name Tanh"; }
echo "ok: an API not modelled fails to compile, naming it"

# 2. Misuse at run time, through the installed package below.
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
cat > "$work/misuse.cpp" <<'K'
#include <cstdlib>
#include <cstring>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n) {
  ASSERT(n % 2 == 0);
  AscendC::GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer((__gm__ uint8_t*)x, 64);
  (void)g.GetValue(0);
}
int main(int argc, char** argv) {
  uint8_t* good = (uint8_t*)AscendC::GmAlloc(64);
  uint8_t* bad = (uint8_t*)std::malloc(64);
  if (argc > 1 && std::strcmp(argv[1], "malloc") == 0) ICPU_RUN_KF(k, 1, bad, 2);
  ICPU_RUN_KF(k, 1, good, 3);
  return 0;
}
K
"$prefix/bin/ascend-sim-build" -o "$work/misuse" "$work/misuse.cpp" >/dev/null
set +e
ASCEND_SIM_OUT= "$work/misuse" malloc 2>"$work/m1.err" >/dev/null; s1=$?
ASCEND_SIM_OUT= "$work/misuse" 2>"$work/m2.err" >/dev/null; s2=$?
set -e
[ "$s1" = 5 ] && grep -q "GetValue on .*: not inside a GM allocation" "$work/m1.err" \
  || { cat "$work/m1.err"; fail "a malloc'd pointer used as GM: exit $s1"; }
[ "$s2" = 5 ] && grep -q "ASSERT(n % 2 == 0) failed" "$work/m2.err" \
  || { cat "$work/m2.err"; fail "a failed ASSERT: exit $s2"; }
echo "ok: a foreign pointer used as GM is exit 5, a failed ASSERT exit 5, each with its message"

# A user's kernel may run longer than the built-in kernels' 50 ms watchdog: 60 ms of simulated
# work ends normally; with the watchdog set to 50 ms it is a hang, exit 3.
cat > "$work/long.cpp" <<'K'
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void long_kernel(GM_ADDR) {
  AscendC::SimStall(AscendC::SimCyclesIn(60000000000ull));
}
int main() {
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
  ICPU_RUN_KF(long_kernel, 1, x);
  return 0;
}
K
"$prefix/bin/ascend-sim-build" -o "$work/long" "$work/long.cpp" >/dev/null
ASCEND_SIM_OUT= "$work/long" >"$work/long.out" 2>&1 || { cat "$work/long.out"; fail "a 60 ms kernel did not end normally"; }
set +e
ASCEND_SIM_OUT= ASCEND_SIM_SET=sim.poll_timeout_us=50000 "$work/long" >/dev/null 2>"$work/long.err"; s=$?
set -e
[ "$s" = 3 ] && grep -q "past sim.poll_timeout_us" "$work/long.err" \
  || { cat "$work/long.err"; fail "a 60 ms kernel under a 50 ms watchdog: exit $s, not 3"; }
echo "ok: a user's kernel runs past 50 ms; the watchdog, when set, still ends it with exit 3"

# A kernel that overflows its thread's stack (a large local array, a deep recursion) is a kernel
# fault naming the core and sim.thread_stack_KiB, not a bare segmentation fault; with the stack
# raised the same kernel runs.
cat > "$work/deep.cpp" <<'K'
#include <cstdlib>
#include "tikicpulib.h"
__aicore__ int depth(volatile char* p, int n) {
  volatile char frame[1024];
  frame[0] = p ? p[0] : 1;
  return n == 0 ? frame[0] : depth(frame, n - 1) + frame[0];
}
extern "C" __global__ __aicore__ void deep(GM_ADDR x, int32_t n) {
  (void)x;
  volatile char big[256 * 1024];
  big[0] = 1;
  if (n == 1) big[sizeof big - 1] = static_cast<char>(depth(big, 10));
  if (n == 2) big[0] = static_cast<char>(depth(nullptr, 100000));
}
int main(int argc, char** argv) {
  (void)argc;
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
  ICPU_RUN_KF(deep, 1, x, std::atoi(argv[1]));
  return 0;
}
K
"$prefix/bin/ascend-sim-build" -o "$work/deep" "$work/deep.cpp" >/dev/null
overflow() {  # overflow STACK_KiB CASE EXPECTED_STATUS
  set +e
  ASCEND_SIM_OUT= ASCEND_SIM_SET=sim.thread_stack_KiB=$1 "$work/deep" "$2" 2>"$work/deep.err" >/dev/null
  local s=$?
  set -e
  [ "$s" = "$3" ] || { cat "$work/deep.err"; fail "stack $1 KiB, case $2: exit $s, not $3"; }
  if [ "$3" = 5 ]; then
    grep -q "kernel 'deep' die 0 core 0: the kernel overflowed its stack (sim.thread_stack_KiB = $1)" \
      "$work/deep.err" || { cat "$work/deep.err"; fail "the overflow message"; }
  fi
}
overflow 128 1 5   # a 256 KiB local array
overflow 1024 1 0  # fits once the stack is raised
overflow 1024 2 5  # 100,000 nested calls
echo "ok: a kernel overflowing its stack is exit 5 naming the core and sim.thread_stack_KiB"

# Cube and mixed launches: blockDim beyond the die's AICs (AIC_MODE) or AI Cores (MIX_MODE) is
# exit 2 naming the mode; a vector buffer on an AIC of a cube launch, and a Matmul used before
# REGIST_MATMUL_OBJ, are kernel faults (exit 5) naming them.
cat > "$work/modes.cpp" <<'K'
#include <cstdlib>
#include <cstring>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void mm_on_aiv(GM_ADDR x) {
  AscendC::GlobalTensor<half> g;
  g.SetGlobalBuffer((__gm__ half*)x, 32);
  AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, half>,
                  AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, half>>
      mm;
  if ASCEND_IS_AIV {
    mm.SetTensorA(g);
    mm.SetTensorB(g);
    mm.IterateAll(g);
  }
}
extern "C" __global__ __aicore__ void vec_on_aic(GM_ADDR x) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  pipe.InitBuffer(b, 256);
  (void)x;
}
int main(int argc, char** argv) {
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(64);
  const char* what = argv[1];
  if (std::strcmp(what, "aic25") == 0) AscendC::SetKernelMode(KernelMode::AIC_MODE);
  if (std::strcmp(what, "mix25") == 0) AscendC::SetKernelMode(KernelMode::MIX_MODE);
  if (std::strcmp(what, "vec") == 0) AscendC::SetKernelMode(KernelMode::AIC_MODE);
  if (std::strcmp(what, "mm") == 0) {
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(mm_on_aiv, 1, x);
  }
  ICPU_RUN_KF(vec_on_aic, std::strcmp(what, "vec") == 0 ? 1 : 25, x);
  return 0;
}
K
"$prefix/bin/ascend-sim-build" -o "$work/modes" "$work/modes.cpp" >/dev/null
expect() {  # expect STATUS TEXT ARG
  set +e; ASCEND_SIM_OUT= "$work/modes" "$3" 2>"$work/modes.err" >/dev/null; local s=$?; set -e
  [ "$s" = "$1" ] && grep -q "$2" "$work/modes.err" || { cat "$work/modes.err"; fail "$3: exit $s"; }
}
expect 2 "blockDim 25 outside \[1, 24\] (AIC_MODE" aic25
expect 2 "blockDim 25 outside \[1, 24\] (MIX_MODE" mix25
expect 5 "an AIC has no UB" vec
expect 5 "a Matmul call before REGIST_MATMUL_OBJ on this AIV" mm
echo "ok: AIC_MODE and MIX_MODE launches beyond the die are exit 2; a UB buffer on an AIC and a"
echo "    Matmul used before its registration are exit 5"

# 3. The installed package from a clean folder: the example's own CMakeLists.txt.
mkdir -p "$work/user"
cp -r "$src/examples/add_custom" "$src/examples/common" "$work/user/"
rm -f "$work/user/add_custom/add_custom.golden.json"
cmake -S "$work/user/add_custom" -B "$work/user/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/user/build" -j2 >/dev/null
(cd "$work/user/build" && python3 -c 'import numpy' 2>/dev/null && py=python3 || py=/usr/bin/python3
 cd "$work/user/build" && "$py" ../add_custom/scripts/gen_data.py && ./add_custom_app > run.log \
   && "$py" ../add_custom/scripts/verify_result.py) || fail "the installed vector add"
grep -q "kernel add_custom on preset a3, 1 rank(s) x 8 of 48 AIV cores" "$work/user/build/run.log" || { cat "$work/user/build/run.log"; fail "no timing summary"; }
[ -f "$work/user/build/ascend-sim-out/stats.json" ] || fail "no stats.json"
[ -f "$work/user/build/ascend-sim-out/trace.json" ] || fail "no trace.json"
[ -f "$work/user/build/ascend-sim-out/waves.vcd" ] || fail "no waves.vcd"
cmake --build "$work/user/build" --target add_custom_timing_update_golden >/dev/null
(cd "$work/user/build" && ctest --output-on-failure -R add_custom_timing >/dev/null) || fail "the user's timing test"
echo "ok: the installed package builds, runs and times the vector add outside the source tree"

# The mixed example (one AIC and two AIVs per block, the Matmul API's headers lib/matmul_intf.h
# and tiling/tiling_api.h) from the installed package too, bit-exact.
cp -r "$src/examples/matmul_leakyrelu_custom" "$work/user/"
cmake -S "$work/user/matmul_leakyrelu_custom" -B "$work/user/build_mix" \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/user/build_mix" -j2 >/dev/null
(cd "$work/user/build_mix" && python3 -c 'import numpy' 2>/dev/null && py=python3 || py=/usr/bin/python3
 cd "$work/user/build_mix" && "$py" ../matmul_leakyrelu_custom/scripts/gen_data.py \
   && ./matmul_leakyrelu_custom_app > run.log \
   && "$py" ../matmul_leakyrelu_custom/scripts/verify_result.py) || fail "the installed mixed example"
grep -q "4 of 48 AIV cores + 2 of 24 AIC cores" "$work/user/build_mix/run.log" || { cat "$work/user/build_mix/run.log"; fail "no mixed summary"; }
echo "ok: the installed package builds and runs the mixed cube + vector example"

# ascend-sim-build: the same files in one command.
"$prefix/bin/ascend-sim-build" -o "$work/app" "$work/user/add_custom/main.cpp" \
  "$work/user/add_custom/add_custom.cpp" -I "$work/user/common" >/dev/null
(cd "$work/user/build" && ASCEND_SIM_OUT= "$work/app" | grep -q "AIV cores") || fail "ascend-sim-build"
echo "ok: ascend-sim-build"
