#!/usr/bin/env python3
"""The full --check matrix of MoeDistributeDispatch, as one command:

    python3 tests/dispatch/matrix.py [build/ascend-sim] [--jobs 2]

Every value the issue lists appears in at least one scenario: EP 2, 4, 8, 16, 32; BS 1, 7, 128,
512; tp 1 and 2; hidden 1024, 4096, 7168; top-1, 6, 8, 16; 1 to 24 experts per rank; with and without shared
experts and shared-expert ranks; int8 and none; bf16 and fp16; both token-nums types; a partial
active mask; uniform and heavily skewed routing. Each scenario runs the CLI with the check on;
the script prints one line per scenario and exits 1 if any fails. The test suite runs a
representative subset (tests/test_dispatch.cpp).
"""
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BASE = {"ep": 8, "bs": 16, "hidden": 1024, "topk": 8, "experts": 64, "quant": "int8",
        "dtype": "bf16", "token-nums-type": 1, "routing": "uniform"}

SCENARIOS = [
    {"ep": 2, "experts": 2, "bs": 1, "topk": 1},          # 1 expert per rank, 1 token
    {"ep": 2, "experts": 48, "topk": 16},                 # 24 experts per rank, top-16
    {"ep": 4, "bs": 7, "topk": 6, "experts": 24, "dtype": "fp16", "hidden": 4096},
    {"ep": 4, "bs": 128, "experts": 16, "hidden": 7168},
    {"ep": 4, "bs": 512, "experts": 16, "topk": 8, "quant": "none"},
    {"ep": 8, "bs": 128, "experts": 64, "hidden": 7168, "quant": "none", "dtype": "fp16"},
    {"ep": 8, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 24},
    {"ep": 8, "shared-experts": 2, "shared-expert-ranks": 4, "experts": 8, "topk": 1},
    {"ep": 16, "bs": 128, "experts": 256, "hidden": 7168},  # the default scenario
    {"ep": 16, "experts": 16, "token-nums-type": 0, "active-tokens": 5},
    {"ep": 16, "experts": 32, "routing": "zipf:3"},       # one expert gets most tokens
    {"ep": 32, "bs": 7, "experts": 64, "topk": 6, "hidden": 4096},
    {"ep": 32, "experts": 32, "routing": "balanced", "quant": "none"},
    {"ep": 8, "experts": 64, "set": ["dispatch.send_split=rank"]},
    {"ep": 8, "experts": 64, "set": ["dispatch.buffer_num=1"]},
    {"ep": 8, "experts": 64, "set": ["dispatch.quant_before_send=0"]},
    {"ep": 8, "experts": 64, "set": ["dispatch.calls=3", "dispatch.delay_rank=5"]},
    {"ep": 8, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 24,
     "set": ["dispatch.shared_send_cores=12"]},
    {"ep": 7, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 10, "topk": 4},  # W % R != 0
    {"ep": 4, "shared-experts": 1, "experts": 16},        # a local shared expert, never sent
    {"ep": 4, "experts": 16, "hidden": 1030, "dtype": "fp16"},  # H not a multiple of 16
    # V3: special experts, 2-D masks, expert and smooth scales, scale-down
    {"ep": 5, "experts": 20, "zero-experts": 2, "copy-experts": 2, "const-experts": 2},
    {"ep": 7, "experts": 14, "topk": 4, "zero-experts": 3, "copy-experts": 2, "const-experts": 3,
     "set": ["dispatch.special_weight=1e9"]},  # every token all-special
    {"ep": 9, "experts": 18, "mask": "2d", "set": ["dispatch.mask_rate=0.02"]},
    {"ep": 8, "experts": 64, "mask": "2d", "zero-experts": 4,
     "set": ["dispatch.mask_rate=0.5", "dispatch.masked_tokens=8"]},
    {"ep": 8, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 24, "mask": "2d",
     "set": ["dispatch.masked_tokens=16"]},  # every token masked
    {"ep": 6, "experts": 24, "expert-scales": 1, "smooth-scales": 1, "bs": 128, "hidden": 7168},
    {"ep": 8, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 24, "smooth-scales": 1,
     "expert-scales": 1, "set": ["dispatch.send_split=rank"]},
    {"ep": 16, "experts": 32, "dead-ranks": 7, "scale-down": 1},
    {"ep": 16, "shared-experts": 1, "shared-expert-ranks": 2, "experts": 28,
     "dead-ranks": "1,4,9-10", "scale-down": 1, "mask": "2d", "const-experts": 2},
    {"ep": 32, "experts": 64, "dead-ranks": "0,31", "scale-down": 1, "expert-scales": 1},
    # TP = 2: EP x 2 dies, L = 1 (E = EP - shared-expert ranks)
    {"ep": 3, "experts": 3, "topk": 2, "tp": 2},
    {"ep": 8, "experts": 8, "bs": 32, "hidden": 7168, "tp": 2},
    {"ep": 5, "experts": 4, "topk": 3, "shared-experts": 1, "shared-expert-ranks": 1, "tp": 2,
     "dtype": "fp16"},
    {"ep": 9, "experts": 9, "tp": 2, "mask": "2d", "zero-experts": 1, "copy-experts": 1,
     "expert-scales": 1, "smooth-scales": 1},
    {"ep": 16, "experts": 16, "tp": 2, "quant": "none", "token-nums-type": 0},
    {"ep": 4, "experts": 4, "topk": 4, "tp": 2, "set": ["dispatch.calls=2", "dispatch.send_split=token"]},
]


def command(binary, scenario):
    args = [binary, "--kernel", "dispatch"]
    merged = {**BASE, **scenario}
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

    def run(scenario):
        args = command(binary, scenario)
        proc = subprocess.run(args, capture_output=True, text=True)
        return args, proc

    failed = 0
    with ThreadPoolExecutor(jobs) as pool:
        for args, proc in pool.map(run, SCENARIOS):
            ok = proc.returncode == 0
            failed += not ok
            detail = "" if ok else (proc.stderr.strip().splitlines() or ["?"])[0]
            print(f"{'pass' if ok else 'FAIL'}  {' '.join(args[3:])}  {detail}")
    print(f"{len(SCENARIOS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
