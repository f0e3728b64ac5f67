#!/usr/bin/env bash
# test_rewriter.sh ASCEND_SIM_ASC: the launch rewriter alone on tricky inputs: templates,
# newlines, launches in strings, comments and raw strings left alone, line count kept, the
# qualifier of each kernel chosen, and a malformed launch an error at its file:line, exit 2.
set -euo pipefail
asc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$work/t.asc" <<'K'
template <int N> __global__ __cube__ void mm(GM_ADDR a) {}
extern "C" __global__ __aicore__ void plain(GM_ADDR a, int n);
__global__ __mix__(1, 2) void mixk(GM_ADDR a) {}
__global__ __vector__ void add(GM_ADDR x, GM_ADDR y) {}
int main() {
  const char* s = "k<<<1, 0, s>>>(x)";  // add<<<1,0,s>>>(x) in a comment
  /* add<<<1, 0, s>>>(x)
     spanning */
  char c = '<'; int big = 1'000'000;
  add<<<8, 0, stream>>>(x, y);
  mm<16><<<
      std::min<uint32_t>(4, n),
      nullptr, stream>>>
      (a);
  ns::plain<<<1, 0, nullptr>>>(f(a, b), "<<<)");
  mixk<<<2,0,stream>>>();
  auto r = R"x(add<<<1,0,s>>>(q))x";
}
K
python3 "$asc" --rewrite "$work/t.asc" > "$work/out"
[ "$(wc -l < "$work/t.asc")" = "$(wc -l < "$work/out")" ] || fail "the line count changed"
expect() { grep -qF -- "$1" "$work/out" || { cat "$work/out"; fail "missing: $1"; }; }
expect '::ascend::sdk::launch_kernel("add", ::ascend::sdk::KernelKind::Vector, add, 8, 0, stream, x, y);'
expect '::ascend::sdk::launch_kernel("mm", ::ascend::sdk::KernelKind::Cube, mm<16>,'
expect '::ascend::sdk::launch_kernel("plain", ::ascend::sdk::KernelKind::Default, ns::plain, 1, 0, nullptr, f(a, b), "<<<)");'
expect '::ascend::sdk::launch_kernel("mixk", ::ascend::sdk::KernelKind::Mix12, mixk, 2,0,stream);'
expect 'const char* s = "k<<<1, 0, s>>>(x)";  // add<<<1,0,s>>>(x) in a comment'
expect '/* add<<<1, 0, s>>>(x)'
expect 'auto r = R"x(add<<<1,0,s>>>(q))x";'
[ "$(grep -c "<<<" "$work/out")" = 4 ] || { cat "$work/out"; fail "a launch in a string or comment was touched"; }
# mm's launch spans 4 lines; the call that replaces it ends on the line its ')' was on.
[ "$(sed -n 14p "$work/out")" = ");" ] || { cat -A "$work/out"; fail "mm's launch moved lines"; }
echo "ok: launches rewritten; strings, comments, raw strings, digit separators left alone"

bad() {  # bad LINE2 MESSAGE
  printf 'int main() {\n  %s\n}\n' "$1" > "$work/bad.asc"
  set +e
  python3 "$asc" --rewrite "$work/bad.asc" > /dev/null 2> "$work/err"
  local s=$?
  set -e
  [ "$s" = 2 ] && grep -qF "$work/bad.asc:2: error: " "$work/err" && grep -qF -- "$2" "$work/err" \
    || { cat "$work/err"; fail "'$1': exit $s, expected 2 and '$2'"; }
}
bad 'add<<<1, 0>>>(x);' 'malformed kernel launch: add<<<...>>>: expected <<<blockDim, l2ctrl, stream>>>, found 2 arguments'
bad 'add<<<1, 0, s, t>>>(x);' 'found 4 arguments'
bad 'add<<<1, 0, s>>>;' "expected '(' and the kernel's arguments after '>>>'"
bad 'add<<<1, 0, s(x);' "';' before the launch's '>>>'"
bad '<<<1, 0, s>>>(x);' "'<<<' without a kernel name before it"
bad 'add<<<1, 0, s>>>(x;' "add<<<...>>>(: the kernel's argument list is not closed"
bad '__global__ __mix__(2, 3) void q() {}' '__mix__(2, 3): ascend-sim launches __mix__(1, 2) and __mix__(1, 1)'
echo "ok: malformed launches are file:line errors, exit 2"

set +e
python3 "$asc" --rewrite "$work/absent.asc" > /dev/null 2> "$work/err"; s=$?
set -e
[ "$s" = 2 ] && grep -qF "ascend-sim-asc: cannot read $work/absent.asc" "$work/err" \
  || { cat "$work/err"; fail "an absent file: exit $s, expected 2 and 'cannot read'"; }
# Bytes that are not UTF-8 and carriage returns come back as they were (a UTF-8 terminal's strict
# standard output included).
printf 'k<<<1, 0, s>>>(x); /* \xff */\r\nint y; // \xc3\x28\r\n' > "$work/bytes.asc"
PYTHONIOENCODING=utf-8:strict python3 "$asc" --rewrite "$work/bytes.asc" > "$work/bytes.out"
printf '::ascend::sdk::launch_kernel("k", ::ascend::sdk::KernelKind::Default, k, 1, 0, s, x); /* \xff */\r\nint y; // \xc3\x28\r\n' \
  | cmp -s - "$work/bytes.out" || { od -c "$work/bytes.out"; fail "bytes changed"; }
echo "ok: an absent file is exit 2; bytes that are not UTF-8 and CRs kept"

# An unqualified kernel that registers a Matmul object (here in a header of its folder) is a 1:2
# mixed kernel; without one it stays Default; a qualifier wins.
mkdir -p "$work/mm"
printf '#define X 1\ninline void body() { REGIST_MATMUL_OBJ(&pipe, ws, mm, &t); }\n' > "$work/mm/kernel.h"
printf '#include "kernel.h"\n__global__ __aicore__ void k(GM_ADDR a) { body(); }\n__global__ __vector__ void v(GM_ADDR a) {}\nvoid h() { k<<<2, 0, s>>>(a); v<<<2, 0, s>>>(a); }\n' > "$work/mm/t.asc"
python3 "$asc" --rewrite "$work/mm/t.asc" > "$work/mm/out"
grep -qF 'launch_kernel("k", ::ascend::sdk::KernelKind::Mix12, k, 2, 0, s, a)' "$work/mm/out" \
  && grep -qF 'launch_kernel("v", ::ascend::sdk::KernelKind::Vector, v, 2, 0, s, a)' "$work/mm/out" \
  || { cat "$work/mm/out"; fail "a kernel that registers a Matmul object is not Mix12"; }
printf '// REGIST_MATMUL_OBJ in a comment only\n__global__ __aicore__ void k(GM_ADDR a) {}\nvoid h() { k<<<2, 0, s>>>(a); }\n' > "$work/mm/c.asc"
python3 "$asc" --rewrite "$work/mm/c.asc" | grep -qF 'KernelKind::Default, k, 2' \
  || fail "a comment's REGIST_MATMUL_OBJ typed the kernel"
echo "ok: an unqualified kernel that registers a Matmul object is 1:2 mixed"

# A launch through a function pointer (a name that is no kernel of the file) takes the kind the
# file's kernels share; with kernels of several kinds it stays Default.
printf '__global__ __cube__ void a(GM_ADDR x) {}\n__global__ __cube__ void b(GM_ADDR x) {}\nvoid h() { constexpr auto pick = b; pick<<<2, 0, s>>>(x); }\n' > "$work/ptr.asc"
python3 "$asc" --rewrite "$work/ptr.asc" | grep -qF 'launch_kernel("pick", ::ascend::sdk::KernelKind::Cube, pick, 2' \
  || fail "a pointer to one of the file's cube kernels is not launched on the AICs"
printf '__global__ __cube__ void a(GM_ADDR x) {}\n__global__ __vector__ void b(GM_ADDR x) {}\nvoid h() { auto pick = b; pick<<<2, 0, s>>>(x); }\n' > "$work/ptr2.asc"
python3 "$asc" --rewrite "$work/ptr2.asc" | grep -qF 'launch_kernel("pick", ::ascend::sdk::KernelKind::Default, pick, 2' \
  || fail "a pointer among kernels of several kinds is not Default"
echo "ok: a launch through a function pointer takes its file's one kernel kind"
