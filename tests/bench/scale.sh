#!/usr/bin/env bash
# Scale benchmarks (not part of the test suite): wall time and peak memory of the simulator on
# the scenarios docs/performance.md reports. Usage: bash tests/bench/scale.sh [path/to/ascend-sim]
set -euo pipefail
sim=${1:-build/ascend-sim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf "%-58s %10s %10s %12s %12s\n" scenario wall_s peak_MiB sim_latency_us events
run() {
  local name=$1
  shift
  "$sim" "$@" --out "$out" >/dev/null
  python3 - "$out/stats.json" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
k, m = s["kernels"][-1], s["simulator"]
print(f"{sys.argv[2]:<58} {m['wall_s']:10.2f} {m['peak_rss_MiB']:10.0f} {k['latency_ns']/1000:12.3f} {m['scheduler_events']:12d}")
PY
}
run "dispatch default (EP 16, BS 128, H 7168, top-8, 256 experts, int8), checked" --kernel dispatch
run "dispatch EP 64, default workload, checked" --kernel dispatch --ep 64
run "dispatch EP 256, default workload, timing-only, no check" --kernel dispatch --ep 256 --no-check --set sim.payload=0
run "flag_ring, 256 ranks x 48 cores" --kernel flag_ring --ep 256
run "flag_ring, 768 ranks x 8 cores (die.aiv_count=8)" --kernel flag_ring --ep 768 --set die.aiv_count=8 --set flag_ring.cores=8
run "ub_write, 48 cores, 48 MiB to another node" --kernel ub_write --ep 32 --set ub_write.dst=20 --set ub_write.cores=48 --set ub_write.bytes=50331648
run "stream read, 48 cores x 16 MiB" --kernel stream --set stream.cores=48 --set stream.bytes_per_core=16777216
run "pipeline, 4096 tiles" --kernel pipeline --set pipeline.tiles=4096
