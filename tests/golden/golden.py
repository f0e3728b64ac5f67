#!/usr/bin/env python3
"""Golden timing regression.

Each traces/golden/NAME.json holds the command-line arguments of one scenario and the timing
figures it produced. `check` reruns the scenario and compares the figures exactly (the simulator
is deterministic: same inputs, same seed, same numbers on any machine) and prints a readable diff.
`update` rewrites the golden files on purpose, after a change that is meant to move timing.

  golden.py check  BIN GOLDEN_DIR [NAME ...]
  golden.py update BIN GOLDEN_DIR [NAME ...]
  golden.py add    BIN GOLDEN_DIR NAME -- ARGS...   (a new scenario)

`check ... --set KEY=VALUE` (repeatable) runs every scenario with those settings added: a switch
that must leave timing identical (sim.check_issue_timing=1, sim.arbitration=calendar) is checked
against the same goldens.
"""
import json
import os
import subprocess
import sys
import tempfile

# The figures and the diff are shared with users' own timing tests (sdk/timing_golden.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sdk"))
from timing_golden import diff, figures  # noqa: E402


class ScenarioFailed(Exception):
    pass


def run_stats(binary, args):
    """The stats.json of one run (ScenarioFailed if the simulator exits non-zero)."""
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run([binary, *args, "--out", out], capture_output=True, text=True)
        if proc.returncode != 0:
            raise ScenarioFailed(f"scenario failed (exit {proc.returncode}): {' '.join(args)}\n"
                                 f"{proc.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            return json.load(f)


def run(binary, args):
    try:
        return figures(run_stats(binary, args))
    except ScenarioFailed as e:
        raise SystemExit(str(e))


def scenario_files(golden_dir, names):
    files = sorted(f for f in os.listdir(golden_dir) if f.endswith(".json"))
    if names:
        files = [n + ".json" for n in names]
    return [os.path.join(golden_dir, f) for f in files]


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "update", "add"):
        raise SystemExit(__doc__)
    mode, binary, golden_dir = sys.argv[1:4]
    rest, extra = [], []
    argv = iter(sys.argv[4:])
    for a in argv:
        if a == "--set" and mode == "check":
            extra += ["--set", next(argv)]
        else:
            rest.append(a)
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
        got = run(binary, golden["args"] + extra)
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
