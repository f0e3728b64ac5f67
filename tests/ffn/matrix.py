#!/usr/bin/env python3
"""The full --check matrix of FfnWorkerBatching, as one command:

    python3 tests/ffn/matrix.py [build/ascend-sim] [--jobs 2]

Covers A in {1, 4, 16, 64}, M in {1, 2, 4}, BS in {1, 8, 64, 256}, topK + 1 in {2, 9, 17}, the
three token dtypes, both modes (RECV need_schedule=1, NORM 0), mask rates 0, 0.3 and 1.0, sort
sizes that fit one core's UB and that do not (multi-core sort + merges), several FFN ranks and
layers. Every value appears in at least one scenario (not the full cross product). Each scenario
runs the CLI with the check on; one line per scenario; exit 1 if any fails. The test suite runs a
representative subset (tests/test_ffn.cpp, tests/cli/test_ffn_cli.sh).
"""
import itertools
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BASE = {"attn-ranks": 4, "micro-batches": 2, "bs": 8, "topk": 8, "experts": 32, "hidden": 128,
        "token-dtype": "int8", "need-schedule": 1, "mask-rate": 0}

SCENARIOS = []
# A x M x mode x dtype, at small BS (the per-A sweep)
for a, m, mode, dt in itertools.product([1, 4, 16, 64], [1, 2, 4], [1, 0], ["fp16", "bf16", "int8"]):
    if (a + m + mode + len(dt)) % 3 == 0 or a in (1, 64):
        SCENARIOS.append({"attn-ranks": a, "micro-batches": m, "need-schedule": mode,
                          "token-dtype": dt, "bs": 8 if a < 64 else 1})
# BS x topK+1 x mask rate
for bs, topk, mask in itertools.product([1, 8, 64, 256], [1, 8, 16], [0, 0.3, 1.0]):
    SCENARIOS.append({"bs": bs, "topk": topk, "mask-rate": mask, "micro-batches": 1,
                      "attn-ranks": 4 if bs < 256 else 16, "hidden": 32})
# sort sizes beyond one core's UB (the real limit: Y above sortLoopMaxElement = 7680)
SCENARIOS += [
    {"attn-ranks": 16, "bs": 256, "topk": 16, "micro-batches": 1, "hidden": 32},      # Y 69632
    {"attn-ranks": 64, "bs": 64, "topk": 16, "micro-batches": 1, "hidden": 16,
     "need-schedule": 0, "token-dtype": "bf16"},                                      # Y 69632
    {"attn-ranks": 64, "bs": 256, "topk": 8, "micro-batches": 1, "hidden": 16,
     "mask-rate": 0.3, "token-dtype": "fp16"},                                        # Y 147456
    {"attn-ranks": 16, "bs": 64, "set": ["ffn.sort_max_elements=256"], "mask-rate": 0.3},
    {"attn-ranks": 16, "bs": 64, "set": ["ffn.sort_max_elements=256", "ffn.sort_cores=1"]},
    # several FFN ranks, layers, skewed routing, NORM with out_num < A, staggered starts
    {"attn-ranks": 8, "experts": 64, "layers": 3, "set": ["ffn.ffn_ranks=4"]},
    {"attn-ranks": 16, "routing": "zipf:2", "set": ["ffn.ffn_ranks=2"], "layers": 2},
    {"attn-ranks": 8, "need-schedule": 0, "set": ["ffn.out_num=5"]},
    {"attn-ranks": 16, "set": ["ffn.start_skew_us=30", "ffn.skew_dist=uniform"]},
    {"attn-ranks": 4, "hidden": 7168, "bs": 64},                                      # real H
    {"attn-ranks": 4, "routing": "balanced", "experts": 8, "set": ["ffn.buffer_num=1"]},
]


def args_of(s):
    merged = {**BASE, **s}
    out = ["--kernel", "ffn_worker_batching"]
    for k, v in merged.items():
        if k == "set":
            for kv in v:
                out += ["--set", kv]
        else:
            out += [f"--{k}", str(v)]
    return out


def main():
    argv = sys.argv[1:]
    jobs = 2
    if "--jobs" in argv:
        i = argv.index("--jobs")
        jobs = int(argv[i + 1])
        del argv[i:i + 2]
    binary = argv[0] if argv else "build/ascend-sim"

    def run(s):
        a = args_of(s)
        p = subprocess.run([binary, *a], capture_output=True, text=True)
        line = next((l for l in p.stdout.splitlines() if "latency" in l), "").strip()
        return p.returncode, " ".join(a[2:]), line or p.stderr.strip().splitlines()[-1:]

    failed = 0
    with ThreadPoolExecutor(jobs) as ex:
        for code, a, line in ex.map(run, SCENARIOS):
            print(f"{'ok  ' if code == 0 else 'FAIL'} {a}: {line if code == 0 else f'exit {code} {line}'}")
            failed += code != 0
    print(f"{len(SCENARIOS) - failed} of {len(SCENARIOS)} scenarios pass")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
