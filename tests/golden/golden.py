#!/usr/bin/env python3
"""Golden timing regression.

Each traces/golden/NAME.json holds the command-line arguments of one scenario and the timing
figures it produced. `check` reruns the scenario and compares the figures exactly (the simulator
is deterministic: same inputs, same seed, same numbers on any machine) and prints a readable diff.
`update` rewrites the golden files on purpose, after a change that is meant to move timing.

  golden.py check  BIN GOLDEN_DIR [NAME ...]
  golden.py update BIN GOLDEN_DIR [NAME ...]
  golden.py add    BIN GOLDEN_DIR NAME -- ARGS...   (a new scenario)
"""
import json
import os
import subprocess
import sys
import tempfile

# The figures that are timing: per kernel, these keys (when present) and, per rank, these.
KERNEL_KEYS = ["name", "latency_ns", "rank_latency_ns", "bandwidth_GBps", "bytes",
               "first_write_512B_latency_ns", "link_class_bytes", "ports"]
RANK_KEYS = ["latency_ns", "pipe_busy_pct", "scalar_stall_pct", "hbm_bytes", "hbm_utilization_pct"]


def run(binary, args):
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run([binary, *args, "--out", out], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"scenario failed (exit {proc.returncode}): {' '.join(args)}\n{proc.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
    return [
        {**{k: kern[k] for k in KERNEL_KEYS if k in kern},
         "ranks": [{k: r[k] for k in RANK_KEYS if k in r} for r in kern["ranks"]]}
        for kern in stats["kernels"]
    ]


def diff(want, got, path="kernels"):
    """Lines describing every difference between two JSON values."""
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k in sorted(set(want) | set(got)):
            if k not in got:
                out.append(f"  {path}.{k}: missing now (golden {json.dumps(want[k])[:80]})")
            elif k not in want:
                out.append(f"  {path}.{k}: new (now {json.dumps(got[k])[:80]})")
            else:
                out += diff(want[k], got[k], f"{path}.{k}")
        return out
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return [f"  {path}: {len(want)} entries in golden, {len(got)} now"]
        out = []
        for i, (w, g) in enumerate(zip(want, got)):
            out += diff(w, g, f"{path}[{i}]")
        return out
    if want != got:
        change = ""
        if isinstance(want, (int, float)) and isinstance(got, (int, float)) and want:
            change = f"  ({(got - want) / want * 100:+.4f}%)"
        return [f"  {path}: golden {want}, now {got}{change}"]
    return []


def scenario_files(golden_dir, names):
    files = sorted(f for f in os.listdir(golden_dir) if f.endswith(".json"))
    if names:
        files = [n + ".json" for n in names]
    return [os.path.join(golden_dir, f) for f in files]


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "update", "add"):
        raise SystemExit(__doc__)
    mode, binary, golden_dir = sys.argv[1:4]
    rest = sys.argv[4:]
    if mode == "add":
        name, args = rest[0], rest[rest.index("--") + 1:]
        path = os.path.join(golden_dir, name + ".json")
        with open(path, "w") as f:
            json.dump({"args": args, "kernels": run(binary, args)}, f, indent=1)
            f.write("\n")
        print(f"added {path}")
        return
    failed = 0
    for path in scenario_files(golden_dir, rest):
        with open(path) as f:
            golden = json.load(f)
        got = run(binary, golden["args"])
        name = os.path.basename(path)[:-5]
        if mode == "update":
            golden["kernels"] = got
            with open(path, "w") as f:
                json.dump(golden, f, indent=1)
                f.write("\n")
            print(f"updated {name}")
            continue
        lines = diff(golden["kernels"], got)
        if lines:
            failed += 1
            print(f"{name}: timing differs from traces/golden/{name}.json "
                  f"(ascend-sim {' '.join(golden['args'])})")
            print("\n".join(lines[:40]) + ("\n  ..." if len(lines) > 40 else ""))
        else:
            print(f"{name}: matches")
    if mode == "check":
        print(f"{len(scenario_files(golden_dir, rest)) - failed} passed, {failed} failed")
        if failed:
            print("If the change is meant to move timing: python3 tests/golden/golden.py update "
                  "build/ascend-sim traces/golden")
            sys.exit(1)


if __name__ == "__main__":
    main()
