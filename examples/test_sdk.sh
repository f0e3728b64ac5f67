#!/usr/bin/env bash
# test_sdk.sh BUILD_DIR SOURCE_DIR CXX: the SDK as a user meets it.
#  1. a kernel calling an API the facade lacks does not compile, and the message names it;
#  2. a pointer that GmAlloc did not return is exit 2, an ASSERT that fails exit 5;
#  3. the installed package, used from a folder outside the source tree: the vector add builds
#     with its own CMakeLists.txt (find_package(ascend_sim)), runs bit-exact, its timing test
#     passes once recorded; and ascend-sim-build builds it in one command.
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
  AscendC::Sigmoid(t, t, 64);
}
K
if "$cxx" -std=c++17 -fsyntax-only "${inc[@]}" -DASCENDC_CPU_DEBUG "$work/sig.cpp" 2>"$work/sig.err"; then
  fail "a kernel calling Sigmoid compiled"
fi
grep -q "AscendC::Sigmoid is not modelled yet" "$work/sig.err" || { cat "$work/sig.err"; fail "the message does not name Sigmoid"; }
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
  (void)x;
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
[ "$s1" = 2 ] && grep -q "argument 1 is a pointer that AscendC::GmAlloc did not return" "$work/m1.err" \
  || { cat "$work/m1.err"; fail "a malloc'd pointer: exit $s1"; }
[ "$s2" = 5 ] && grep -q "ASSERT(n % 2 == 0) failed" "$work/m2.err" \
  || { cat "$work/m2.err"; fail "a failed ASSERT: exit $s2"; }
echo "ok: a foreign pointer is exit 2, a failed ASSERT exit 5, each with its message"

# 3. The installed package from a clean folder: the example's own CMakeLists.txt.
mkdir -p "$work/user"
cp -r "$src/examples/add_custom" "$src/examples/common" "$work/user/"
rm -f "$work/user/add_custom/add_custom.golden.json"
cmake -S "$work/user/add_custom" -B "$work/user/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/user/build" -j2 >/dev/null
(cd "$work/user/build" && python3 -c 'import numpy' 2>/dev/null && py=python3 || py=/usr/bin/python3
 cd "$work/user/build" && "$py" ../add_custom/scripts/gen_data.py && ./add_custom_app > run.log \
   && "$py" ../add_custom/scripts/verify_result.py) || fail "the installed vector add"
grep -q "add_custom on preset a3, 8 of 48 AIV cores" "$work/user/build/run.log" || { cat "$work/user/build/run.log"; fail "no timing summary"; }
[ -f "$work/user/build/ascend-sim-out/stats.json" ] || fail "no stats.json"
[ -f "$work/user/build/ascend-sim-out/trace.json" ] || fail "no trace.json"
[ -f "$work/user/build/ascend-sim-out/waves.vcd" ] || fail "no waves.vcd"
cmake --build "$work/user/build" --target add_custom_timing_update_golden >/dev/null
(cd "$work/user/build" && ctest --output-on-failure -R add_custom_timing >/dev/null) || fail "the user's timing test"
echo "ok: the installed package builds, runs and times the vector add outside the source tree"

# ascend-sim-build: the same files in one command.
"$prefix/bin/ascend-sim-build" -o "$work/app" "$work/user/add_custom/main.cpp" \
  "$work/user/add_custom/add_custom.cpp" -I "$work/user/common" >/dev/null
(cd "$work/user/build" && ASCEND_SIM_OUT= "$work/app" | grep -q "AIV cores") || fail "ascend-sim-build"
echo "ok: ascend-sim-build"
