#!/usr/bin/env bash
# Determinism: two identical runs give byte-identical outputs: stats.json (the simulator's wall
# time and memory aside), config.ini, trace.json, waves.vcd and --dump's tensors; at EP 64
# (timing-only, so that it takes seconds) and on a checked run with payload.
# Usage: test_determinism.sh path/to/ascend-sim
set -u
sim=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# twice NAME ARGS...: runs the command in $tmp/NAME/a and $tmp/NAME/b (so that the command lines,
# out/ included, are the same) and compares every output.
twice() {
  local name=$1
  shift
  for side in a b; do
    mkdir -p "$tmp/$name/$side"
    local status=0
    (cd "$tmp/$name/$side" && "$sim" "$@" --quiet >stdout 2>stderr) || status=$?
    [ $status -eq 0 ] || {
      failed=$((failed + 1))
      echo "FAIL: $name: ascend-sim $* exited $status in $side"
      cat "$tmp/$name/$side/stderr"
      return
    }
  done
  local a="$tmp/$name/a" b="$tmp/$name/b" files
  files=$(cd "$a" && find out -type f | sort)
  if [ "$files" != "$(cd "$b" && find out -type f | sort)" ] || [ -z "$files" ]; then
    failed=$((failed + 1))
    echo "FAIL: $name: the runs wrote different files"
    return
  fi
  for f in $files; do
    if [ "$(basename "$f")" = stats.json ]; then
      # The simulator's own wall time (and its split) and memory are the only figures that may
      # differ.
      "$py" - "$a/$f" "$b/$f" <<'PY' && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: $name: $f differs"; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for j in (a, b):
    for k in ("wall_s", "peak_rss_MiB", "event_wall_s", "kernel_wall_s"):
        j["simulator"].pop(k)
sys.exit(0 if a == b else 1)
PY
    elif cmp -s "$a/$f" "$b/$f"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $name: $f differs"
    fi
  done
}

twice ep64 --ep 64 --bs 32 --no-check --set sim.payload=0 --out out --trace --vcd \
  --set trace.ranks=0,63
twice checked --kernel moe --ep 4 --experts 16 --bs 16 --hidden 1024 --out out --trace \
  --dump out/tensors
twice ffn_worker_batching --kernel ffn_worker_batching --attn-ranks 4 --bs 8 --hidden 64 --out out \
  --dump out/tensors

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
