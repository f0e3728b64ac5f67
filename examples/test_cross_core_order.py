#!/usr/bin/env python3
"""test_cross_core_order.py APP WORK_DIR: the mixed example's AIVs start on the AIC's result
only when it is there, and no later than the cross-core flag says.

The program runs twice in WORK_DIR (its input/ is there): at the default crosscore.flag_cycles and
1000 cycles more. In each run's trace, every AIV's first MTE2 read must start after the last
FIXPIPE write of its AIC (AIV i belongs to AIC i // 2); the gap between the two must grow by
exactly 1000 cycles of the core clock, so the wait is the flag's and nothing else's."""
import configparser
import json
import os
import subprocess
import sys
import tempfile


def run(app, work, extra_cycles):
    out = tempfile.mkdtemp()
    env = dict(os.environ, ASCEND_SIM_OUT=out, ASCEND_SIM_QUIET="1", ASCEND_SIM_VCD="0")
    if extra_cycles:
        ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
        ini.read(os.path.join(run.default_out, "config.ini"))
        cycles = int(ini["crosscore"]["flag_cycles"]) + extra_cycles
        env["ASCEND_SIM_SET"] = f"crosscore.flag_cycles={cycles}"
    subprocess.run([app], cwd=work, env=env, check=True)
    with open(os.path.join(out, "trace.json")) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    lanes = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    fix_end, mte2_start = {}, {}
    for e in events:
        if e.get("ph") != "X":
            continue
        core, _, pipe = lanes[(e["pid"], e["tid"])].rpartition(" ")
        core = core.rsplit(".", 1)[-1]
        if core.startswith("aic") and pipe == "FIXP":
            fix_end[core] = max(fix_end.get(core, 0.0), e["ts"] + e["dur"])
        if core.startswith("aiv") and pipe == "MTE2":
            mte2_start[core] = min(mte2_start.get(core, float("inf")), e["ts"])
    gaps = {}
    for aiv, start in sorted(mte2_start.items()):
        aic = f"aic{int(aiv[3:]) // 2}"
        gaps[aiv] = start - fix_end[aic]  # microseconds
        if gaps[aiv] < 0:
            sys.exit(f"FAIL: {aiv} reads at {start} us, before {aic}'s FIXPIPE ends at "
                     f"{fix_end[aic]} us")
    return out, gaps


def main():
    app, work = os.path.realpath(sys.argv[1]), sys.argv[2]
    run.default_out, base = run(app, work, 0)
    if len(base) != 4:
        sys.exit(f"FAIL: {len(base)} AIVs read the workspace, expected 4")
    _, later = run(app, work, 1000)
    ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
    ini.read(os.path.join(run.default_out, "config.ini"))
    want_us = 1000 / float(ini["core"]["clock_GHz"]) / 1000
    for aiv in base:
        grew = later[aiv] - base[aiv]
        print(f"{aiv}: first read {base[aiv] * 1000:.3f} ns after its AIC's result, "
              f"{later[aiv] * 1000:.3f} ns with 1000 flag cycles more")
        if abs(grew - want_us) > 2e-6:
            sys.exit(f"FAIL: {aiv}'s wait grew by {grew * 1000:.3f} ns, not the 1000 cycles "
                     f"({want_us * 1000:.3f} ns) the flag added")
    print("ok: every AIV starts on its AIC's result once the flag arrives, and not before")


main()
