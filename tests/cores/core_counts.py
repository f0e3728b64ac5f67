#!/usr/bin/env python3
"""The what-if "fewer vector cores": every kernel, at every AIV count from 1 to 48, on a small
workload, must finish with outputs that match its golden reference (exit 0). A hang, a deadlock, a
fault or a wrong output at any count fails the test and names the kernel and the count.

  core_counts.py BIN [--counts 1-48] [--kernels a,b] [-- EXTRA ARGS...]

EXTRA ARGS go to every run (e.g. --racecheck, or --ep 8).
"""
import concurrent.futures
import os
import subprocess
import sys

# Kernel -> arguments of a small checked workload. Kernels that take their core count from a
# parameter of their own get it set to the die's count.
KERNELS = {
    "dispatch": ["--ep", "4", "--experts", "8", "--bs", "8", "--hidden", "1024"],
    "combine": ["--ep", "4", "--experts", "8", "--bs", "8", "--hidden", "1024"],
    "moe": ["--ep", "4", "--experts", "8", "--bs", "8", "--hidden", "1024"],
    "alltoallv_dispatch": ["--ep", "4", "--experts", "8", "--bs", "8", "--hidden", "1024"],
    "ffn_worker_batching": ["--attn-ranks", "2", "--bs", "8", "--hidden", "1024"],
    "pipeline": [],
    "reduce_sum": ["--set", "reduce_sum.rows=16"],
    "stream": [],
    "syncbug": [],
    "ub_write": [],
    "flag_ring": ["--ep", "4"],
    # V3: special experts, a 2-D mask, expert and smooth scales, and a rank scaled
    # down, through the round trip.
    "moe:v3": ["--ep", "5", "--experts", "10", "--bs", "8", "--hidden", "1024", "--topk", "4",
               "--zero-experts", "1", "--copy-experts", "1", "--const-experts", "1",
               "--mask", "2d", "--expert-scales", "1", "--smooth-scales", "1",
               "--dead-ranks", "2", "--scale-down", "1"],
    # TP = 2: the AllGatherV and the ReduceScatterV through the round trip.
    "moe:tp2": ["--ep", "3", "--experts", "3", "--bs", "8", "--hidden", "1024", "--topk", "2",
                "--tp", "2"],
}
OWN_CORES = {"reduce_sum": "reduce_sum.cores", "stream": "stream.cores", "syncbug": "syncbug.cores", "ub_write": "ub_write.cores",
             "flag_ring": "flag_ring.cores"}


def parse_counts(text):
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def run(binary, kernel, n, extra):
    args = [binary, "--kernel", kernel.split(":")[0], *KERNELS[kernel], "--set", f"die.aiv_count={n}",
            "--set", "sim.poll_timeout_us=20000", *extra]
    if kernel in OWN_CORES:
        args += ["--set", f"{OWN_CORES[kernel]}={n}"]
    if kernel == "ub_write":  # its bytes split evenly into 32-B multiples per core
        args += ["--set", f"ub_write.bytes={n * 32768}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    ok = p.returncode == 0 and "match" in p.stdout + p.stderr or (
        p.returncode == 0 and kernel in ("ub_write", "flag_ring"))
    return kernel, n, ok, p.returncode, " ".join(args[1:]), (p.stderr or p.stdout)[-600:]


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    binary = argv[0]
    counts = parse_counts("1-48")
    kernels = list(KERNELS)
    for i, a in enumerate(argv):
        if a == "--counts":
            counts = parse_counts(argv[i + 1])
        if a == "--kernels":
            kernels = argv[i + 1].split(",")
    jobs = [(k, n) for k in kernels for n in counts]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for kernel, n, ok, code, cmd, tail in pool.map(lambda j: run(binary, j[0], j[1], extra), jobs):
            if not ok:
                failed += 1
                print(f"FAIL {kernel} at {n} cores (exit {code}): ascend-sim {cmd}\n{tail}")
    print(f"{len(jobs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
