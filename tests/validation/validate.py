#!/usr/bin/env python3
"""The validation tier: runs every published measurement of published.json on ascend-sim and
writes a table of published, simulated and error.

  python3 tests/validation/validate.py BINARY [--tier fast|full] [--out DIR] [--only ID...]

  --tier fast   the CI subset (every point but the EP 128 kernels); full: every point
  --out DIR     writes DIR/validation.csv, DIR/validation.json and DIR/validation.png
                (default: validation-out)

The table goes to the terminal. Exit status: 0 when every point marked must_hold is within its
tolerance, 1 when one is not, 2 on a usage or run error. Points without must_hold are reported
(OK or MISS) but do not fail the command: they are the open calibration targets (docs/validation.md).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def plot_with_system_python(out_dir):
    """matplotlib may be missing from the interpreter on PATH (a pyenv) but present in Debian's
    python3-matplotlib, which the bootstrap installs: plot there."""
    for py in ("/usr/bin/python3",):
        if os.path.exists(py) and os.path.realpath(py) != os.path.realpath(sys.executable):
            r = subprocess.run([py, __file__, "--plot-only", out_dir])
            return r.returncode == 0
    return False


def plot(out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if plot_with_system_python(out_dir):
            return
        sys.exit("validate: matplotlib is missing (apt-get install python3-matplotlib)")
    rows = json.load(open(os.path.join(out_dir, "validation.json")))["points"]
    groups = []
    for r in rows:
        if r["group"] not in groups:
            groups.append(r["group"])
    cols = 3
    nrows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(13, 3.6 * nrows), squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, g in zip(axes.flat, groups):
        pts = sorted((r for r in rows if r["group"] == g), key=lambda r: r["x"])
        xs = [r["x"] for r in pts]
        ax.plot(xs, [r["published"] for r in pts], "o-", color="black", label="published")
        ax.plot(xs, [r["simulated"] for r in pts], "s--", color="tab:red", label="ascend-sim")
        for r in pts:
            lo, hi = r["published"] * (1 - r["tolerance_pct"] / 100), r["published"] * (
                1 + r["tolerance_pct"] / 100)
            ax.plot([r["x"], r["x"]], [lo, hi], color="grey", alpha=0.5, lw=6)
        if g.startswith("dma") or g == "dispatch" or g == "combine":
            ax.set_xscale("log", base=2)
        if g == "ub_latency":
            ax.set_xticks(xs, [r["xlabel"] for r in pts])
        ax.set_xlabel(pts[0]["xlabel"] if g != "ub_latency" else "path")
        ax.set_ylabel(pts[0]["unit"])
        ax.set_title(g)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("ascend-sim against published measurements (grey: the ±tolerance band)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "validation.png"), dpi=110)


def run_point(binary, p, cache):
    key = tuple(p["args"])
    if key not in cache:
        with tempfile.TemporaryDirectory() as d:
            cmd = [binary, *p["args"], "--quiet", "--out", d]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.stderr.write(f"validate: {' '.join(cmd)} exited {r.returncode}\n{r.stderr}")
                sys.exit(2)
            cache[key] = json.load(open(os.path.join(d, "stats.json")))
    stats = cache[key]
    fig = p["figure"]
    for k in stats["kernels"]:
        if k["name"] != fig["kernel"]:
            continue
        if "reduce" not in fig:
            return k[fig["key"]] * p["scale"], None
        # A figure per rank (each die's own latency): its mean, and the slowest die beside it.
        values = k[fig["key"]]
        if fig["reduce"] != "mean" or not values:
            sys.exit(f"validate: {p['id']}: reduce '{fig['reduce']}' of {len(values)} values")
        return sum(values) / len(values) * p["scale"], max(values) * p["scale"]
    sys.exit(f"validate: {p['id']}: no kernel '{fig['kernel']}' in stats.json")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?")
    ap.add_argument("--tier", choices=["fast", "full"], default="full")
    ap.add_argument("--out", default="validation-out")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--data", default=os.path.join(HERE, "published.json"))
    ap.add_argument("--plot-only")
    a = ap.parse_args()
    if a.plot_only:
        plot(a.plot_only)
        return 0
    if not a.binary:
        ap.error("the ascend-sim binary is required")
    data = json.load(open(a.data))
    points = [p for p in data["points"] if a.tier == "full" or p["tier"] == "fast"]
    if a.only:
        points = [p for p in points if p["id"] in a.only]
    cache, rows = {}, []
    for p in points:
        sim, slowest = run_point(a.binary, p, cache)
        err = 100.0 * (sim - p["published"]) / p["published"]
        ok = abs(err) <= p["tolerance_pct"]
        rows.append({**{k: p[k] for k in ("id", "group", "x", "xlabel", "source", "workload",
                                          "published", "unit", "tolerance_pct")},
                     "simulated": round(sim, 4), "error_pct": round(err, 2), "ok": ok,
                     "slowest_die": None if slowest is None else round(slowest, 4),
                     "must_hold": bool(p.get("must_hold", False)),
                     "command": "ascend-sim " + " ".join(p["args"])})
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "validation.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "source", "published", "simulated", "unit", "error_pct",
                    "tolerance_pct", "ok", "must_hold", "command"])
        for r in rows:
            w.writerow([r["id"], r["source"], r["published"], r["simulated"], r["unit"],
                        r["error_pct"], r["tolerance_pct"], r["ok"], r["must_hold"],
                        r["command"]])
    json.dump({"tier": a.tier, "sources": data["sources"], "points": rows},
              open(os.path.join(a.out, "validation.json"), "w"), indent=1)
    plot(a.out)
    print(f"{'point':<24} {'source':<8} {'published':>10} {'simulated':>10} {'unit':<5} "
          f"{'error':>8}  status   (slowest die)")
    for r in rows:
        status = ("OK" if r["ok"] else "MISS") + ("" if r["must_hold"] else " (open target)"
                                                  if not r["ok"] else "")
        slowest = "" if r["slowest_die"] is None else f"   ({r['slowest_die']:.2f})"
        print(f"{r['id']:<24} {r['source']:<8} {r['published']:>10.2f} {r['simulated']:>10.2f} "
              f"{r['unit']:<5} {r['error_pct']:>+7.1f}%  {status:<6}{slowest}")
    # The growth across EP of each kernel (first to last point): the shape, apart from the level.
    # It must hold when the first and last points of the published set both ran (the full tier).
    growth = data.get("growth", {"groups": [], "tolerance_pp": 10})
    failed = []
    for g in growth["groups"]:
        pts = sorted((r for r in rows if r["group"] == g), key=lambda r: r["x"])
        every = sorted(p["x"] for p in data["points"] if p["group"] == g)
        if len(pts) < 2 or pts[-1]["x"] == pts[0]["x"]:
            continue
        pub = 100 * (pts[-1]["published"] / pts[0]["published"] - 1)
        sim = 100 * (pts[-1]["simulated"] / pts[0]["simulated"] - 1)
        whole = (pts[0]["x"], pts[-1]["x"]) == (every[0], every[-1])
        ok = abs(sim - pub) <= growth["tolerance_pp"]
        slow = ""
        if pts[0]["slowest_die"] is not None and pts[-1]["slowest_die"] is not None:
            slow = (f"; slowest die {100 * (pts[-1]['slowest_die'] / pts[0]['slowest_die'] - 1):+.1f}"
                    f"%")
        print(f"{g} growth EP {pts[0]['x']} -> {pts[-1]['x']}: published {pub:+.1f}%, "
              f"simulated {sim:+.1f}% ({sim - pub:+.1f} pp; within {growth['tolerance_pp']} pp: "
              f"{'OK' if ok else 'MISS'}{'' if whole else ', not checked on this subset'}{slow})")
        if whole and not ok:
            failed.append(f"{g}_growth")
    held = [r for r in rows if r["must_hold"]]
    failed = [r["id"] for r in held if not r["ok"]] + failed
    print(f"{sum(r['ok'] for r in rows)} of {len(rows)} points within tolerance; "
          f"{len(held) - len(failed)} of {len(held)} must-hold points hold. "
          f"Written: {a.out}/validation.{{csv,json,png}}")
    if failed:
        print("must-hold points missed: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
