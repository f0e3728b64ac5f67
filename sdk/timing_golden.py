#!/usr/bin/env python3
"""Timing goldens: the figures of a run that are timing, recorded once and compared on every
later run with a readable diff. ascend-sim's own golden tests (tests/golden/golden.py) and a
user's timing tests (ascend_sim_add_timing_test, cmake/AscendSimTiming.cmake) share this file.

For a user's program built on tikicpulib.h:
  timing_golden.py check  GOLDEN [--tolerance PCT] -- PROGRAM [ARGS...]
  timing_golden.py update GOLDEN -- PROGRAM [ARGS...]
`check` runs the program (ASCEND_SIM_OUT set to a temporary folder), takes the figures of every
kernel launch from its stats.json and compares them with GOLDEN: exactly by default (the
simulator is deterministic), or each number within PCT percent. `update` records them.
Exit status: 0 same, 1 different (the diff is printed), 2 usage or a failed run.
"""
import json
import os
import subprocess
import sys
import tempfile

# The figures that are timing: per kernel, these keys (when present) and, per rank, these.
KERNEL_KEYS = ["name", "latency_ns", "rank_latency_ns", "bandwidth_GBps", "bytes",
               "first_write_512B_latency_ns", "link_class_bytes", "ports"]
RANK_KEYS = ["latency_ns", "pipe_busy_pct", "scalar_stall_pct", "hbm_bytes", "hbm_utilization_pct",
             "aic"]


def figures(stats):
    """The timing figures of every kernel record of a stats.json."""
    return [
        {**{k: kern[k] for k in KERNEL_KEYS if k in kern},
         "ranks": [{k: r[k] for k in RANK_KEYS if k in r} for r in kern["ranks"]]}
        for kern in stats["kernels"]
    ]


def diff(want, got, path="kernels", tolerance_pct=0.0):
    """Lines describing every difference between two JSON values (numbers may differ by up to
    tolerance_pct percent of the golden)."""
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k in sorted(set(want) | set(got)):
            if k not in got:
                out.append(f"  {path}.{k}: missing now (golden {json.dumps(want[k])[:80]})")
            elif k not in want:
                out.append(f"  {path}.{k}: new (now {json.dumps(got[k])[:80]})")
            else:
                out += diff(want[k], got[k], f"{path}.{k}", tolerance_pct)
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"  {path}: {len(want)} entries in golden, {len(got)} now"]
        out = []
        for i, (w, g) in enumerate(zip(want, got)):
            out += diff(w, g, f"{path}[{i}]", tolerance_pct)
        return out
    numbers = isinstance(want, (int, float)) and isinstance(got, (int, float))
    if numbers and not isinstance(want, bool) and tolerance_pct > 0:
        if abs(got - want) <= abs(want) * tolerance_pct / 100.0:
            return []
    if want != got:
        change = ""
        if numbers and want:
            change = f"  ({(got - want) / want * 100:+.4f}%)"
        return [f"  {path}: golden {want}, now {got}{change}"]
    return []


def run_program(cmd):
    """Runs a tikicpulib.h program and returns its stats.json (its own outputs stay where it
    writes them)."""
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, ASCEND_SIM_OUT=out, ASCEND_SIM_TRACE="0", ASCEND_SIM_VCD="0",
                   ASCEND_SIM_QUIET="1")
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"the program failed (exit {proc.returncode}): {' '.join(cmd)}\n"
                  f"{proc.stdout}{proc.stderr}", file=sys.stderr)
            sys.exit(2)
        path = os.path.join(out, "stats.json")
        if not os.path.exists(path):
            print(f"{' '.join(cmd)} wrote no stats.json: does it launch a kernel through "
                  "ICPU_RUN_KF?", file=sys.stderr)
            sys.exit(2)
        with open(path) as f:
            return json.load(f)


def main(argv):
    if len(argv) < 4 or argv[0] not in ("check", "update") or "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    mode, golden = argv[0], argv[1]
    opts, cmd = argv[2:argv.index("--")], argv[argv.index("--") + 1:]
    tolerance = 0.0
    if opts[:1] == ["--tolerance"] and len(opts) == 2:
        tolerance = float(opts[1])
    elif opts:
        print(f"unknown options {opts}\n{__doc__}", file=sys.stderr)
        return 2
    got = figures(run_program(cmd))
    if mode == "update":
        with open(golden, "w") as f:
            json.dump({"program": [os.path.basename(cmd[0]), *cmd[1:]], "kernels": got}, f,
                      indent=1)
            f.write("\n")
        print(f"recorded {golden}")
        return 0
    if not os.path.exists(golden):
        print(f"no golden {golden} yet: record it with timing_golden.py update {golden} -- "
              f"{' '.join(cmd)}", file=sys.stderr)
        return 2
    with open(golden) as f:
        want = json.load(f)["kernels"]
    lines = diff(want, got, tolerance_pct=tolerance)
    if lines:
        how = "exactly" if tolerance == 0 else f"within {tolerance}%"
        print(f"timing differs from {golden} ({how}):")
        print("\n".join(lines[:40]) + ("\n  ..." if len(lines) > 40 else ""))
        print(f"If the change is meant to move timing: timing_golden.py update {golden} -- "
              f"{' '.join(cmd)}")
        return 1
    print(f"timing matches {golden}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
