#!/usr/bin/env python3
"""compare_modes.py's budgets on figures built by hand, then on two runs of the simulator: a
setting that leaves timing identical is within budget (exit 0), one that moves a port's busy time
by 3.8 % is not (exit 1, the port named).  Usage: test_compare_modes.py BIN GOLDEN_DIR"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from compare_modes import compare  # noqa: E402


def kernel(latency=10000.0, ranks=(10000.0, 9000.0), busy=50.0, link=1000, port_busy=800.0,
           instrs=64, hbm_busy_ps=1_000_000, mte2_bytes=4096):
    return [{"name": "k", "latency_ns": latency, "rank_latency_ns": list(ranks),
             "link_class_bytes": {"d2d": link},
             "ports": [{"name": "p", "bytes": 64, "busy_ns": port_busy, "utilization_pct": 8.0}],
             "ranks": [{"latency_ns": r, "pipe_busy_pct": {"MTE2": [busy, 1.0]},
                        "mte2_bytes": mte2_bytes} for r in ranks],
             "modules": [{"path": "die0.hbm", "counters": {"busy_ps": hbm_busy_ps}},
                         {"path": "die0.aiv0", "counters": {"MTE2.instrs": instrs,
                                                             "SCALAR.resumes_flag": 3}}]}]


def over(**b):
    return compare(kernel(), kernel(**b))[1]


failures = []


def expect(what, got, want):
    if bool(got) != want:
        failures.append(f"{what}: {'outside' if got else 'within'} budget, expected "
                        f"{'outside' if want else 'within'}: {got}")


expect("identical", over(), False)
expect("latency +0.99 %", over(latency=10099.0), False)
expect("latency +1.01 %", over(latency=10101.0), True)
small = compare(kernel(latency=1000.0), kernel(latency=1019.0))[1]
expect("latency under 2 us, +19 ns", small, False)
small = compare(kernel(latency=1000.0), kernel(latency=1021.0))[1]
expect("latency under 2 us, +21 ns", small, True)
expect("one rank +1.8 %", over(ranks=(10180.0, 9000.0), latency=10050.0), False)
expect("mean +1.5 %", over(ranks=(10150.0, 9135.0), latency=10050.0), True)
expect("busy +1.8 %", over(busy=50.9), False)
expect("busy +2.2 %", over(busy=51.1), True)
expect("a link class one byte more", over(link=1001), True)
expect("port busy +15 ns (under the 20 ns floor)", over(port_busy=815.0), False)
expect("port busy +25 ns (+3 %)", over(port_busy=825.0), True)
expect("one MTE2 instruction more", over(instrs=65), True)
expect("MTE2 bytes differ", over(mte2_bytes=4097), True)
expect("HBM busy +15 ns", over(hbm_busy_ps=1_015_000), False)
expect("HBM busy +25 ns (+2.5 %)", over(hbm_busy_ps=1_025_000), True)

binary, golden = sys.argv[1], sys.argv[2]
tool = [sys.executable, os.path.join(here, "compare_modes.py"), binary, golden]
same = subprocess.run(tool + ["--set", "sim.arbitration=calendar", "stream_1core"],
                      capture_output=True, text=True)
if same.returncode != 0:
    failures.append(f"calendar arbitration, exit {same.returncode}:\n{same.stdout}{same.stderr}")
moved = subprocess.run(tool + ["--set", "fabric.d2d_GBps=260", "dispatch_ep8_int8"],
                       capture_output=True, text=True)
if moved.returncode != 1 or "ports[20].busy_ns" not in moved.stdout:
    failures.append(f"a slower d2d link, exit {moved.returncode}:\n{moved.stdout}{moved.stderr}")

print("\n".join(failures) or "ok: budgets and both runs as expected")
sys.exit(1 if failures else 0)
