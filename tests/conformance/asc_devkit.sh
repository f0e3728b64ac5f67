#!/usr/bin/env bash
# asc_devkit.sh DIR [-o FILE] [-b BUILD_DIR | -p PREFIX] [-t SECONDS] [-f REGEX] [-n] [-k]
# The asc-devkit tier: every Atlas A2/A3 (dav-2201) example of an asc-devkit checkout at DIR
# (examples/01_simd_cpp_api/{00_introduction,03_basic_api,04_advanced_api,05_best_practices}),
# built with its own unchanged CMakeLists.txt against ascend-sim's installed ASC package and run
# as its README's "build and run" block says (its cmake line with -DCMAKE_PREFIX_PATH added and
# the architecture dav-2201, make -j1, python3 with NumPy, ./demo), one at a time in a copy of its
# folder, at niceness 10. Prints a Markdown table: example, built, verified, the simulated latency of
# the run's summary lines (their sum when the program launches more than once), or the first
# error line. Examples out of A2/A3 (register-based reg_* APIs, dav-3510 or dav-2002 only, by
# the README's supported-products list, else the CMake architecture list) are listed with why.
#   -o FILE      also write the table to FILE
#   -b BUILD_DIR the ascend-sim build to install into a temporary prefix (default: build/ beside
#                this script's checkout); -p PREFIX uses an installed prefix instead
#   -t SECONDS   per-example time limit (default 900)
#   -f REGEX     only the examples whose path (under 01_simd_cpp_api) matches REGEX
#   -n           build nothing: list the examples, A2/A3 or not (and why not)
#   -k           keep the working folder (each example's copy, its build and its logs) and say where
# Exit status: 0 when the table was made (the last line gives the counts), 77 when DIR is absent,
# 2 on a usage error.
set -uo pipefail
usage() { sed -n '2,21p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
dir=$1
shift
out_file="" build_dir="" prefix="" limit=900 filter="" list_only=0 keep=0
while getopts "o:b:p:t:f:nk" opt; do
  case $opt in
    o) out_file=$OPTARG ;;
    b) build_dir=$OPTARG ;;
    p) prefix=$OPTARG ;;
    t) limit=$OPTARG ;;
    f) filter=$OPTARG ;;
    n) list_only=1 ;;
    k) keep=1 ;;
    *) usage ;;
  esac
done
root=$dir/examples/01_simd_cpp_api
if [ ! -d "$root" ]; then
  echo "asc_devkit: skipped: $root is absent (no asc-devkit checkout at $dir)"
  exit 77
fi
root=$(realpath "$root")
# Everything it starts runs at niceness 10 (the examples build one at a time, make -j1).
[ "$(nice)" -ge 10 ] || renice -n 10 -p $$ >/dev/null
here=$(dirname "$(realpath "$0")")
py=python3
python3 -c "import numpy" 2>/dev/null || py=/usr/bin/python3
work=$(mktemp -d)
if [ $keep = 1 ]; then
  echo "asc_devkit: the working folder is kept: $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
start=$(date +%s)

if [ $list_only = 1 ]; then
  prefix=$work
elif [ -z "$prefix" ]; then
  build_dir=${build_dir:-$here/../../build}
  prefix=$work/prefix
  if ! cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1; then
    echo "asc_devkit: cannot install the ASC package from $build_dir:" >&2
    sed -n '1,20p' "$work/install.log" >&2
    exit 2
  fi
fi
prefix=$(realpath "$prefix")

# support EXAMPLE_DIR: prints "in", or "out: REASON".
support() {
  local d=$1 rel=${1#"$root"/}
  if [[ "/$rel" =~ /[0-9]*_?reg_ ]]; then
    echo "out: register-based (reg_*) API, Ascend 950 (dav-3510) only"
    return
  fi
  local products
  products=$(awk '/支持的产品|Supported Products/{s=1;next} /^#/{s=0} s' "$d/README.md" 2>/dev/null)
  if [ -n "$products" ]; then
    if grep -qE 'Atlas A[23]' <<<"$products"; then
      echo in
    elif grep -qE 'Ascend 950' <<<"$products"; then
      echo "out: Ascend 950PR/950DT (dav-3510) only, by its README"
    else
      echo "out: $(grep -oE 'Atlas [^|]*' <<<"$products" | head -1 | sed 's/ *$//') only, by its README"
    fi
    return
  fi
  local archs
  archs=$(grep -ohE 'dav-[0-9]+' "$d/CMakeLists.txt" "$d/README.md" 2>/dev/null | sort -u | tr '\n' ' ')
  if grep -q 'dav-2201' <<<"$archs"; then
    echo in
  else
    echo "out: ${archs:-no architecture named} only, by its CMake/README (no products list)"
  fi
}

# run_block EXAMPLE_DIR COPY: the README's build-and-run block, rewritten as said above, run in
# COPY. Each step appends "STEP NAME STATUS LOG" to COPY/.steps.
make_block() {
  local d=$1
  awk '/^ *```(bash|shell|sh)/{inb=1; blk=""; next}
       /^ *```/{ if (inb && blk ~ /mkdir -p build/ && blk ~ /cmake/) { print blk; exit } inb=0; next }
       inb {blk = blk $0 "\n"}' "$d/README.md"
}

cat >"$work/prelude.sh" <<'EOF'
set -e
step() { echo "STEP $1 $2 $3" >>"$COPY/.steps"; }
n=0
cmake() {
  n=$((n+1))
  local log=$COPY/.log.cmake$n args=() arch=0 a
  for a in "$@"; do
    case $a in
      --build) command cmake "$@" >"$log" 2>&1; local s=$?; step build $s "$log"; return $s ;;
      -DCMAKE_ASC_ARCHITECTURES=*) arch=1; args+=(-DCMAKE_ASC_ARCHITECTURES=dav-2201) ;;
      *) args+=("$a") ;;
    esac
  done
  [ $arch = 1 ] || args+=(-DCMAKE_ASC_ARCHITECTURES=dav-2201)
  command cmake "${args[@]}" -DCMAKE_PREFIX_PATH="$PREFIX" >"$log" 2>&1 && s=0 || s=$?
  step configure $s "$log"
  return $s
}
make() {
  n=$((n+1))
  local log=$COPY/.log.make$n
  command make -j1 >"$log" 2>&1 && s=0 || s=$?
  step build $s "$log"
  return $s
}
python3() {
  n=$((n+1))
  local log=$COPY/.log.py$n kind=python
  case "$*" in *gen*) kind=gen ;; *verif*|*compare*|*check*) kind=verify ;; esac
  "$PY" "$@" >"$log" 2>&1 && s=0 || s=$?
  cat "$log"
  step $kind $s "$log"
  return $s
}
run_demo() {
  n=$((n+1))
  local log=$COPY/.log.run$n
  "$@" >"$log" 2>&1 && s=0 || s=$?
  step run $s "$log"
  return $s
}
EOF

# first_error LOG: the line that says what went wrong.
first_error() {
  local l
  l=$(grep -m1 -E 'error:|Error:|ERROR|error ratio|[Ff]ail|not modelled|Traceback|No module|No such file|Assertion|terminate|abort|CMake Error' "$1")
  if grep -q '^CMake Error' <<<"$l"; then
    l=$(grep -A3 -m1 '^CMake Error' "$1" | sed -n '2,4p' | grep -m1 -v '^ *$')
  fi
  if grep -q '^Traceback' <<<"$l"; then l=$(grep -vE '^\s' "$1" | tail -1); fi
  [ -n "$l" ] || l=$(grep -v '^\s*$' "$1" | tail -1)
  l=$(sed -E "s|($work/)?ex/[^ :]*/||g; s|$prefix/||g; s/\|/\\\\|/g" <<<"$l")
  echo "${l:0:220}"
}

# readme_expected DIR: the lines of the output block that follows the README's "执行结果" (run
# result) heading, for the examples whose only check is what they print.
readme_expected() {
  awk '/执行结果/ {f = 1} f && /^ *```/ {if (inb) exit; inb = 1; next} inb {sub(/^ +/, ""); if (length) print}' \
    "$1/README.md" 2>/dev/null
}

# missing_lines LOG...: the expected lines (stdin) that the logs do not print as often as expected
# (the cores print in any order).
missing_lines() {
  sort | uniq -c | while read -r want line; do
    # shellcheck disable=SC2068
    have=$(cat $@ | grep -cF -- "$line")
    [ "$have" -ge "$want" ] || echo "$line"
  done
}

rows=() outs=() n_in=0 n_built=0 n_ver=0
mapfile -t examples < <(cd "$root" && find 00_introduction 03_basic_api 04_advanced_api 05_best_practices \
  -name CMakeLists.txt -not -path '*/build/*' 2>/dev/null | sed 's|/CMakeLists.txt$||' | sort)
for rel in "${examples[@]}"; do
  [ -z "$filter" ] || [[ "$rel" =~ $filter ]] || continue
  d=$root/$rel
  sup=$(support "$d")
  if [ "$sup" != in ]; then
    outs+=("| $rel | ${sup#out: } |")
    continue
  fi
  n_in=$((n_in + 1))
  if [ $list_only = 1 ]; then
    rows+=("| $rel | | | | not built (-n) |")
    continue
  fi
  copy=$work/ex/$rel
  mkdir -p "$(dirname "$copy")"
  cp -r "$d" "$copy"
  chmod -R u+w "$copy"
  : >"$copy/.steps"
  block=$(make_block "$d")
  if [ -z "$block" ]; then
    rows+=("| $rel | no | no | | its README has no build-and-run block |")
    continue
  fi
  notes=""
  grep -q 'pip install' <<<"$block" && notes="README pip-installs $(grep -o 'pip install.*' <<<"$block" | head -1 | cut -d' ' -f3-); "
  for mod in torch tensorflow ml_dtypes en_dtypes; do
    if grep -qsE "^\s*(import|from) $mod" "$copy"/scripts/*.py "$copy"/*.py && ! "$py" -c "import $mod" 2>/dev/null; then
      notes+="scripts need $mod (absent); "
    fi
  done
  {
    cat "$work/prelude.sh"
    sed -E 's/^\s*#.*//; s/\s+#.*$//; /set_env\.sh|pip install|msprof|msopprof|^\s*cat .*OPPROF/d;
            s#(^|[;&|])(\s*)\./demo#\1\2run_demo ./demo#g' <<<"$block"
  } >"$copy/.run.sh"
  t0=$(date +%s)
  (cd "$copy" && COPY=$copy PREFIX=$prefix PY=$py timeout -k 10 "$limit" bash "$copy/.run.sh") \
    >"$copy/.out" 2>&1
  status=$?
  secs=$(($(date +%s) - t0))
  built=no verified=no lat="" err=""
  if grep -q '^STEP configure 0' "$copy/.steps" && grep -q '^STEP build 0' "$copy/.steps" \
     && ! grep -qE '^STEP (configure|build) [1-9]' "$copy/.steps"; then
    built=yes
    n_built=$((n_built + 1))
  fi
  failed=$(grep -m1 -E '^STEP [a-z]+ [1-9]' "$copy/.steps")
  runlogs=$(awk '$2=="run"{print $4}' "$copy/.steps")
  if [ -n "$runlogs" ]; then
    # shellcheck disable=SC2086
    lat=$(grep -hE '^  latency +[0-9.]+ us$' $runlogs \
      | awk '{v+=$(NF-1); k++} END {if (k==1) printf "%.2f us", v; else if (k>1) printf "%.2f us (%d launches)", v, k}')
  fi
  if [ $status = 124 ] || [ $status = 137 ]; then
    err="timed out after ${limit} s"
  elif [ -n "$failed" ]; then
    read -r _ stepname stepstatus steplog <<<"$failed"
    err="$stepname: $(first_error "$steplog")"
    [ "$stepname" = run ] && [ "$stepstatus" -gt 128 ] && err="run: killed by signal $((stepstatus - 128)): $(first_error "$steplog")"
  elif [ $status != 0 ]; then
    err="the README block failed (exit $status): $(first_error "$copy/.out")"
  elif [ -z "$runlogs" ]; then
    err="the README block did not run ./demo"
  else
    # The verdict: the verification step passed and printed its verdict (some scripts exit 0 on
    # a failure), or, without one, the program printed its own.
    # shellcheck disable=SC2086
    verdict_logs=$(awk '$2=="verify"{print $4}' "$copy/.steps")
    [ -n "$verdict_logs" ] || verdict_logs=$runlogs
    # shellcheck disable=SC2086
    if grep -qiE 'error ratio: [0-9.]+, tolerance' $verdict_logs \
       && ! grep -qiE '(^|[^a-z])pass' $verdict_logs; then
      err="verify: $(grep -ihE -m1 'error ratio' $verdict_logs)"
    elif grep -qiE '\[ERROR\]|fail|mismatch|not equal|wrong' $verdict_logs \
         && ! grep -qiE '(^|[^a-z])pass' $verdict_logs; then
      err="verify: $(grep -ihE -m1 '\[ERROR\]|fail|mismatch|not equal|wrong' $verdict_logs | cut -c1-200)"
    elif grep -qiE '(^|[^a-z])pass|success' $verdict_logs; then
      verified=yes
    elif [ -z "$(awk '$2=="verify"' "$copy/.steps")" ]; then
      # No verification step: the README's expected output, where it gives one, is the check.
      # shellcheck disable=SC2086
      missing=$(readme_expected "$d" | missing_lines $runlogs)
      if [ -n "$(readme_expected "$d")" ] && [ -z "$missing" ]; then
        verified=yes
        err="checked against the output its README expects"
      elif [ -n "$missing" ]; then
        err="run: the README expects '$(head -1 <<<"$missing" | cut -c1-120)' (not printed)"
      else
        verified=ran
        err="no check in the example (its output is only printed)"
      fi
    else
      err="verify: no verdict printed"
    fi
  fi
  [ $verified = yes ] && n_ver=$((n_ver + 1))
  [ -n "$notes" ] && err="${err:+$err; }${notes%; }"
  rows+=("| $rel | $built | $verified | $lat | $err |")
  echo "asc_devkit: $rel: built $built, verified $verified ${lat:+, $lat}${err:+ ($err)} [${secs} s]" >&2
done

elapsed=$(($(date +%s) - start))
{
  echo "| example | built | verified | simulated latency | first error / note |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Out of A2/A3 (not built):"
  echo
  echo "| example | why |"
  echo "| --- | --- |"
  [ ${#outs[@]} = 0 ] || printf '%s\n' "${outs[@]}"
  echo
  echo "A2/A3 examples: $n_in, built: $n_built, verified: $n_ver; out of A2/A3: ${#outs[@]}; ${elapsed} s"
} >"$work/table.md"
cat "$work/table.md"
[ -z "$out_file" ] || cp "$work/table.md" "$out_file"
exit 0
