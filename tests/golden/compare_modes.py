#!/usr/bin/env python3
"""Two configurations of every golden scenario, figure by figure, against fidelity budgets.

Each scenario of GOLDEN_DIR runs twice: as its golden file gives it (A) and with the --set
settings added (B). Every timing figure of B is compared with A's under the budget of its kind,
and one row per scenario gives the largest deviation of each kind:

  kind        figures                                              budget
  latency     each kernel's latency_ns                             1 % (20 ns under 2 us)
  mean        the mean of a kernel's rank_latency_ns               1 %
  rank        each rank's latency (rank_latency_ns, ranks[].lat.)  2 %
  busy        each core's pipe busy share (ranks[].pipe_busy_pct)  2 % (0.1 point under 5 %)
  share       HBM and port use (hbm_utilization_pct, ports' and     1 % (0.1 point under 5 %;
              modules' busy time)                                  20 ns of busy time)
  exact       bytes per link class, HBM and MTE bytes, each module's  exact
              instructions per pipe, transfers and bytes

This is the comparison a second timing mode is held to against the reference model (docs/dev/
testing.md); it answers as well how far any setting moves every golden figure.

  compare_modes.py BIN GOLDEN_DIR --set KEY=VALUE [--set ...] [NAME ...]

Both runs add stats.modules=1 (an observation: it changes no timing) for the modules' counters.

Exit status: 0 every figure within its budget; 1 some figure outside it (listed); 2 usage or a
failed run.
"""
import json
import os
import sys

from golden import ScenarioFailed, run_stats, scenario_files, figures

KINDS = ["latency", "mean", "rank", "busy", "share", "exact"]


def within(kind, a, b, ns=False):
    """Whether b is within kind's budget of a (`ns`: a time, whose floor is 20 ns); and the
    deviation, % of a."""
    dev = abs(b - a)
    rel = dev / abs(a) * 100 if a else (0.0 if b == a else float("inf"))
    if kind == "exact":
        return a == b, rel
    if kind == "latency":
        return rel <= 1.0 or (a < 2000 and dev <= 20), rel
    if kind in ("busy", "share"):
        budget = 2.0 if kind == "busy" else 1.0
        return rel <= budget or (dev <= 20 if ns else a < 5 and dev <= 0.1), rel
    return rel <= (1.0 if kind == "mean" else 2.0), rel


def pairs(fa, fb):
    """(kind, where, a, b) for every compared figure of two figures() lists."""
    out = []
    if len(fa) != len(fb):
        return [("exact", "kernel count", len(fa), len(fb))]
    for i, (ka, kb) in enumerate(zip(fa, fb)):
        at = f"{ka.get('name', '?')}[{i}]"
        out.append(("latency", f"{at}.latency_ns", ka["latency_ns"], kb["latency_ns"]))
        ra, rb = ka.get("rank_latency_ns", []), kb.get("rank_latency_ns", [])
        if ra and len(ra) == len(rb):
            out.append(("mean", f"{at}.rank_latency_ns mean", sum(ra) / len(ra), sum(rb) / len(rb)))
        out += [("rank", f"{at}.rank_latency_ns[{r}]", x, y) for r, (x, y) in enumerate(zip(ra, rb))]
        if len(ra) != len(rb):
            out.append(("exact", f"{at}.ranks", len(ra), len(rb)))
        if "bytes" in ka or "bytes" in kb:
            out.append(("exact", f"{at}.bytes", ka.get("bytes"), kb.get("bytes")))
        lca, lcb = ka.get("link_class_bytes", {}), kb.get("link_class_bytes", {})
        for c in sorted(set(lca) | set(lcb)):
            out.append(("exact", f"{at}.link_class_bytes.{c}", lca.get(c, 0), lcb.get(c, 0)))
        pa, pb = ka.get("ports", []), kb.get("ports", [])
        if len(pa) != len(pb):
            out.append(("exact", f"{at}.ports", len(pa), len(pb)))
        for j, (x, y) in enumerate(zip(pa, pb)):
            for k in sorted(set(x) | set(y)):
                if isinstance(x.get(k), (int, float)) and not isinstance(x.get(k), bool):
                    kind = "exact" if k == "bytes" else "share"
                    out.append((kind, f"{at}.ports[{j}].{k}", x[k], y.get(k)))
        for r, (xa, xb) in enumerate(zip(ka.get("ranks", []), kb.get("ranks", []))):
            here = f"{at}.ranks[{r}]"
            if "latency_ns" in xa:
                out.append(("rank", f"{here}.latency_ns", xa["latency_ns"], xb.get("latency_ns")))
            if "hbm_bytes" in xa:
                out.append(("exact", f"{here}.hbm_bytes", xa["hbm_bytes"], xb.get("hbm_bytes")))
            if "hbm_utilization_pct" in xa:
                out.append(("share", f"{here}.hbm_utilization_pct", xa["hbm_utilization_pct"],
                            xb.get("hbm_utilization_pct")))
            busy_a, busy_b = xa.get("pipe_busy_pct", {}), xb.get("pipe_busy_pct", {})
            for pipe in sorted(set(busy_a) | set(busy_b)):  # per pipe, one share per core
                va, vb = busy_a.get(pipe, []), busy_b.get(pipe, [])
                if len(va) != len(vb):
                    out.append(("exact", f"{here}.pipe_busy_pct.{pipe} cores", len(va), len(vb)))
                for c, (x, y) in enumerate(zip(va, vb)):
                    out.append(("busy", f"{here}.pipe_busy_pct.{pipe}[{c}]", x, y))
            for key in ("mte2_bytes", "mte3_bytes"):
                if key in xa:
                    out.append(("exact", f"{here}.{key}", xa[key], xb.get(key)))
        ma = {m["path"]: m["counters"] for m in ka.get("modules", [])}
        mb = {m["path"]: m["counters"] for m in kb.get("modules", [])}
        for path in sorted(set(ma) | set(mb)):
            ca, cb = ma.get(path, {}), mb.get(path, {})
            for c in sorted(set(ca) | set(cb)):
                where = f"{at}.{path}.{c}"
                if c.endswith(".instrs") or c in ("transfers", "bytes"):
                    out.append(("exact", where, ca.get(c), cb.get(c)))
                elif c == "busy_ps":  # a resource's busy time, in ns for the floor
                    a_ns = None if c not in ca else ca[c] / 1000
                    b_ns = None if c not in cb else cb[c] / 1000
                    out.append(("share", where[:-3] + "_ns", a_ns, b_ns))
    return out


def compare(fa, fb):
    """The largest deviation per kind, and the figures outside their budget."""
    worst, over = {k: 0.0 for k in KINDS}, []
    for kind, where, a, b in pairs(fa, fb):
        if a is None or b is None:
            ok, rel = a == b, 0.0 if a == b else float("inf")
        else:
            ok, rel = within(kind, a, b, where.endswith("_ns"))
        worst[kind] = max(worst[kind], rel)
        if not ok:
            over.append(f"  {where} ({kind}): {a} -> {b}")
    return worst, over


def run(binary, args):
    """The timing figures of a run, each kernel with its modules' counters."""
    try:
        stats = run_stats(binary, args + ["--set", "stats.modules=1"])
    except ScenarioFailed as e:
        print(e)
        sys.exit(2)
    figs = figures(stats)
    for fig, kern in zip(figs, stats["kernels"]):
        fig["modules"] = kern.get("modules", [])
        for fr, kr in zip(fig["ranks"], kern["ranks"]):
            fr.update({k: kr[k] for k in ("mte2_bytes", "mte3_bytes") if k in kr})
    return figs


def main():
    argv, sets, names = sys.argv[1:], [], []
    if len(argv) < 2:
        raise SystemExit(__doc__)
    binary, golden_dir = argv[:2]
    it = iter(argv[2:])
    for a in it:
        if a == "--set":
            sets += ["--set", next(it, "")]
        else:
            names.append(a)
    if not sets:
        print("compare_modes.py: give at least one --set KEY=VALUE for B", file=sys.stderr)
        sys.exit(2)
    bad = 0
    print(f"B = A with {' '.join(sets[1::2])}; largest deviation per kind, % of A")
    print(f"{'scenario':<40}" + "".join(f"{k:>9}" for k in KINDS) + "  within budget")
    paths = scenario_files(golden_dir, names)
    for path in paths:
        name = os.path.basename(path)[:-5]
        with open(path) as f:
            args = json.load(f)["args"]
        worst, over = compare(run(binary, args), run(binary, args + sets))
        bad += bool(over)
        print(f"{name:<40}" + "".join(f"{worst[k]:>9.3f}" for k in KINDS) +
              ("  yes" if not over else f"  NO ({len(over)})"))
        for line in over[:10]:
            print(line)
    print(f"{len(paths) - bad} within budget, {bad} outside")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
