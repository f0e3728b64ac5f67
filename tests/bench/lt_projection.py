#!/usr/bin/env python3
"""What a loosely-timed mode could save, measured on the reference model (docs/performance.md).

Runs `moe` timing-only at each EP size with stats.modules=1 and prints, per AIV kernel thread
(the mean over every core of every rank, dispatch and combine launches together):
  - its resumptions by the cause of the wait it resumed from (SCALAR.resumes_*);
  - the windows of 1, 2, 5 and 10 us of simulated time in which it resumed
    (SCALAR.active_windows_*), the least number of quantum synchronisations a loosely-timed run
    with that quantum would need;
and the model events per kernel thread, which a mode that times pipes at issue would remove but
for the resumptions. A benchmark, not a test: EP 256 takes about half a minute.

  python3 tests/bench/lt_projection.py [--sim build/ascend-sim] [--ep 8 32 128]
"""
import argparse
import collections
import json
import os
import subprocess
import tempfile


def run(sim, ep):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sim, "--kernel", "moe", "--ep", str(ep), "--no-check", "--quiet",
                        "--set", "sim.payload=0", "--set", "stats.modules=1", "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "stats.json")) as f:
            return json.load(f)


def per_thread(stats):
    """Sums each SCALAR counter over every AIV of every launch; returns (sums, threads)."""
    sums = collections.Counter()
    threads = set()
    for k in stats["kernels"]:
        for m in k.get("modules", []):
            path = m["path"]
            if not path.rsplit(".", 1)[-1].startswith("aiv"):
                continue
            threads.add(path)
            for name, value in m["counters"].items():
                if name.startswith("SCALAR.resumes_") or name.startswith("SCALAR.active_windows_"):
                    sums[name] += value
    return sums, len(threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", default="build/ascend-sim")
    ap.add_argument("--ep", type=int, nargs="+", default=[8, 32, 128])
    a = ap.parse_args()
    rows = []
    for ep in a.ep:
        s = run(a.sim, ep)
        sums, threads = per_thread(s)
        events = s["simulator"]["scheduler_events"]
        rows.append((ep, threads, events, sums))
    causes = sorted({n for _, _, _, sums in rows for n in sums
                     if n.startswith("SCALAR.resumes_") and sums[n]})
    windows = sorted({n for _, _, _, sums in rows for n in sums
                      if n.startswith("SCALAR.active_windows_")},
                     key=lambda n: int(n.rsplit("_", 1)[1][:-2]))
    print("per AIV kernel thread (the mean), dispatch and combine launches together")
    print("resumptions by the cause of the wait:")
    print(f"{'EP':>5} {'threads':>8} {'events':>8}", *(f"{n[15:]:>10}" for n in causes),
          f"{'all':>8}")
    for ep, threads, events, sums in rows:
        print(f"{ep:>5} {threads:>8} {events / threads:>8.0f}",
              *(f"{sums[n] / threads:>10.1f}" for n in causes),
              f"{sum(sums[n] for n in causes) / threads:>8.1f}")
    print("windows of simulated time with a resumption (quantum syncs a loosely-timed run needs):")
    print(f"{'EP':>5}", *(f"{n[22:]:>8}" for n in windows))
    for ep, threads, events, sums in rows:
        print(f"{ep:>5}", *(f"{sums[n] / threads:>8.1f}" for n in windows))

if __name__ == "__main__":
    main()
