#!/usr/bin/env bash
# The simulator's speed targets (docs/performance.md), measured on this machine: wall time and peak memory
# of the scale runs, the event rate against a raw SystemC skeleton with the same number of
# threads (measured in the same run, side by side), and how wall time scales with the EP size.
# A benchmark, not a test: it takes minutes. Usage: bash tests/bench/targets.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
sim=$build/ascend-sim
cmake --build "$build" --target ascend-sim bench_skeleton -j"$(nproc)" >/dev/null
export SC_COPYRIGHT_MESSAGE=DISABLE
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
timing_only=(--no-check --set sim.payload=0 --quiet)

# One run: NAME then ascend-sim arguments; appends "name wall rss events threads event_wall
# kernel_wall" to runs.txt.
run() {
  local name=$1
  shift
  "$sim" "$@" --out "$out/r" >/dev/null
  python3 - "$out/r/stats.json" "$name" >>"$out/runs.txt" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
m, k = s["simulator"], s["kernels"][0]
threads = len(k["ranks"]) * k["ranks"][0].get("cores", len(k["ranks"][0]["core_latency_ns"]))
print(sys.argv[2], m["wall_s"], m["peak_rss_MiB"], m["scheduler_events"], threads,
      m["event_wall_s"], m["kernel_wall_s"])
PY
}

run moe256 --kernel moe --ep 256 "${timing_only[@]}"
need=$((2 * 768 * 48 + 4096))
have=$(cat /proc/sys/vm/max_map_count)
if [ "$have" -ge "$need" ]; then
  run moe768 --kernel moe --ep 768 --experts 768 --set hccl.buffsize_MB=3000 "${timing_only[@]}"
else
  echo "moe768 skipped: vm.max_map_count is $have; sudo sysctl -w vm.max_map_count=$((2 * need))" \
    >>"$out/skipped.txt"
fi
run default --quiet
for ep in 16 32 64 128; do run "scale$ep" --kernel moe --ep "$ep" "${timing_only[@]}"; done

# The skeleton with the EP 256 run's threads and events.
read -r _ _ _ events threads _ _ < <(grep '^moe256 ' "$out/runs.txt")
"$build/bench_skeleton" "$threads" "$events" >"$out/skeleton.txt"

python3 - "$out" <<'PY'
import math, os, sys
d = sys.argv[1]
runs, split = {}, {}
for line in open(f"{d}/runs.txt"):
    name, wall, rss, events, threads, ev_wall, k_wall = line.split()
    runs[name] = (float(wall), float(rss), int(events), int(threads))
    split[name] = (float(ev_wall), float(k_wall))
skel = dict(l.split() for l in open(f"{d}/skeleton.txt"))
print("| run | target wall | wall | target peak RSS | peak RSS | verdict |")
print("|---|---|---|---|---|---|")
def row(label, name, wall_max, rss_max_mib):
    if name not in runs:
        print(f"| {label} | {wall_max} s | not run | | | skipped |")
        return
    w, r, _, _ = runs[name]
    ok = w <= wall_max and (rss_max_mib is None or r <= rss_max_mib)
    rss_t = f"{rss_max_mib / 1024:.0f} GiB" if rss_max_mib else ""
    print(f"| {label} | {wall_max} s | {w:.1f} s | {rss_t} | {r / 1024:.2f} GiB | {'PASS' if ok else 'MISS'} |")
row("moe EP 256, timing-only", "moe256", 10, 3 * 1024)
row("moe EP 768, 768 experts, timing-only", "moe768", 45, 8 * 1024)
row("default scenario, payload and check", "default", 5, None)
if os.path.exists(f"{d}/skipped.txt"):
    print(open(f"{d}/skipped.txt").read().strip())
# Where the scale runs' wall time went (stats.json simulator.event_wall_s, kernel_wall_s).
for name in ("moe256", "moe768"):
    if name in runs:
        w, e, k = runs[name][0], *split[name]
        print(f"{name}: wall {w:.1f} s = model events {e:.1f} s ({runs[name][2] / 1e6:.1f} M, "
              f"{e / runs[name][2] * 1e6:.2f} us each) + kernel threads {k:.1f} s + the rest "
              f"{w - e - k:.1f} s (set-up, outputs, SystemC's switching)")
w, _, events, threads = runs["moe256"]
rate, sk = events / w, float(skel["wakeups_per_s"])
print(f"\nevent rate at {threads} threads: ascend-sim {rate / 1e6:.2f} M events/s, raw SystemC "
      f"skeleton {sk / 1e6:.2f} M wake-ups/s, ratio {rate / sk:.2f} (target >= 0.5: "
      f"{'PASS' if rate / sk >= 0.5 else 'MISS'})")
xs, ys = [], []
for ep in (16, 32, 64, 128, 256):
    name = "moe256" if ep == 256 else f"scale{ep}"
    xs.append(math.log(ep)); ys.append(math.log(runs[name][0]))
n = len(xs); mx, my = sum(xs) / n, sum(ys) / n
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
walls = ", ".join(f"EP {e}: {runs['moe256' if e == 256 else f'scale{e}'][0]:.1f} s" for e in (16, 32, 64, 128, 256))
print(f"scaling (moe, timing-only, default workload): {walls}; wall ~ W^{slope:.2f} "
      f"(target <= 1.1: {'PASS' if slope <= 1.1 else 'MISS'})")
PY
