#!/usr/bin/env python3
"""The full --check matrix of MoeDistributeCombine and the moe round trip, as one command:

    python3 tests/combine/matrix.py [build/ascend-sim] [--jobs 2]

It takes the dispatch matrix's workloads (tests/dispatch/matrix.py: every EP size, batch size,
hidden size, top-k, experts per rank, shared experts, mask, dtype and routing skew the dispatch
issue lists) and runs each as `--kernel combine` and as `--kernel moe`, with and without
communication quantization, plus combine's own knobs. One line per run; exits 1 if any fails.
The test suite runs a representative subset (tests/test_combine.cpp).
"""
import importlib.util
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

_spec = importlib.util.spec_from_file_location(
    "dispatch_matrix", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dispatch",
                                    "matrix.py"))
dispatch_matrix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dispatch_matrix)

WORKLOADS = [s for s in dispatch_matrix.SCENARIOS if "set" not in s]  # dispatch-only knobs out
KNOBS = [
    {"set": ["combine.receiver=ready_first"]},
    {"set": ["combine.rows_per_barrier=2"]},
    {"set": ["combine.buffer_num=1"]},
    {"set": ["combine.shared_expert_x=1"], "shared-experts": 1, "experts": 16, "ep": 4},
    {"set": ["moe.layers=3"], "active-tokens": 11},
    {"set": ["moe.dispatch=alltoallv"], "routing": "zipf:2"},
    {"set": ["moe.dispatch=alltoallv"], "quant": "none", "dtype": "fp16"},
    # V3
    {"set": ["combine.const_alpha=softmax", "dispatch.special_weight=4"], "const-experts": 3,
     "ep": 5, "experts": 20},
    {"set": ["combine.receiver=ready_first", "dispatch.masked_tokens=5"], "mask": "2d",
     "copy-experts": 1, "ep": 5, "experts": 20},
    {"set": ["dispatch.special_weight=1e9", "moe.layers=2"], "zero-experts": 2, "copy-experts": 2,
     "const-experts": 4, "topk": 4, "ep": 7, "experts": 14},
    {"set": ["moe.layers=2"], "dead-ranks": "2,5", "scale-down": 1, "mask": "2d", "ep": 8,
     "experts": 16, "expert-scales": 1, "smooth-scales": 1},
    # TP = 2
    {"set": ["moe.layers=2"], "tp": 2, "ep": 7, "experts": 7, "topk": 4, "const-experts": 1},
    {"set": ["combine.receiver=ready_first"], "tp": 2, "ep": 4, "experts": 4, "topk": 4},
]


def runs():
    for scenario in WORKLOADS:
        for kernel in ("combine", "moe"):
            # communication quantization is tp < 2 only ([OLD]): refused with tp = 2
            for comm in ("none",) if scenario.get("tp") == 2 else ("none", "int8"):
                yield kernel, {**scenario, "comm-quant": comm}
    for knob in KNOBS:
        yield ("moe" if any(s.startswith("moe.") for s in knob["set"]) else "combine"), knob


def command(binary, kernel, scenario):
    args = [binary, "--kernel", kernel]
    merged = {**dispatch_matrix.BASE, **scenario}
    if kernel == "combine":
        merged.pop("quant", None)
        merged.pop("token-nums-type", None)
    for key, value in merged.items():
        if key == "set":
            for kv in value:
                args += ["--set", kv]
        else:
            args += [f"--{key}", str(value)]
    return args


def main():
    binary = next((a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()),
                  "build/ascend-sim")
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    todo = list(runs())

    def run(item):
        args = command(binary, *item)
        return args, subprocess.run(args, capture_output=True, text=True)

    failed = 0
    with ThreadPoolExecutor(jobs) as pool:
        for args, proc in pool.map(run, todo):
            ok = proc.returncode == 0
            failed += not ok
            detail = "" if ok else (proc.stderr.strip().splitlines() or ["?"])[0]
            print(f"{'pass' if ok else 'FAIL'}  {' '.join(args[1:])}  {detail}", flush=True)
    print(f"{len(todo) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
