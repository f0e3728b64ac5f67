"""Figures against a parameter, from the database, and the study's Markdown summary.

matplotlib (Debian's python3-matplotlib, already a dependency of the validation tier): one
library for PNG and SVG, no second tool to drive through a pipe, and the test can read the
images back with it.
"""
import json
import os
import sqlite3



def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _where(text):
    """'key=value, key2=value2' -> [(key, value)]."""
    out = []
    for item in (s.strip() for s in (text or "").split(",")):
        if item:
            k, _, v = item.partition("=")
            out.append((k.strip(), v.strip()))
    return out


def plot_data(con, study, p):
    """The lines of one [plot]: [(label, [(x, y, run_id)])], from the runs of the spec."""
    keys = {r.key for r in study.runs()}
    x_key, y_fig = p["x"], p["y"]
    series = [s.strip() for s in p.get("series", "").split(",") if s.strip()]
    kernels = [s.strip() for s in p.get("kernels", "").split(",") if s.strip()]
    where = _where(p.get("where"))
    rows = con.execute(
        "SELECT r.run_id, r.run_key, k.kernel_idx, k.name, "
        "  CASE WHEN ? = 'latency_ns' THEN k.latency_ns ELSE "
        "  (SELECT value FROM figures f WHERE f.run_id = k.run_id AND f.kernel_idx = k.kernel_idx"
        "   AND f.figure = ?) END "
        "FROM runs r JOIN kernels k ON k.run_id = r.run_id WHERE r.status = 0 "
        "ORDER BY r.point_index, k.kernel_idx", (y_fig, y_fig)).fetchall()
    cfg_cache = {}

    def cfg(run_id):
        if run_id not in cfg_cache:
            cfg_cache[run_id] = {k: v for k, v in con.execute(
                "SELECT key, value FROM config WHERE run_id = ?", (run_id,))}
        return cfg_cache[run_id]

    lines = {}
    for run_id, key, idx, name, y in rows:
        if key not in keys or y is None or (kernels and name not in kernels):
            continue
        c = cfg(run_id)
        if any(str(c.get(k)) != v and _num(c.get(k)) != _num(v) for k, v in where):
            continue
        lines.setdefault((name, tuple(f"{s}={c.get(s)}" for s in series)), []).append(
            (c.get(x_key), y, run_id))
    one_kernel = len({name for name, _ in lines}) == 1
    out = []
    for (name, parts), pts in lines.items():
        lbl = ", ".join(([] if one_kernel else [name]) + list(parts)) or name
        if all(_num(x) is not None for x, _, _ in pts):
            pts.sort(key=lambda t: _num(t[0]))
        out.append((lbl, pts))
    return out


def draw(study, paths, formats=None):
    """Every [plot] of the spec into WORK/NAME.{png,svg}, with the values drawn in NAME.json."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    con = sqlite3.connect(f"file:{paths.db}?mode=ro", uri=True)
    written = []
    for p in study.plots:
        lines = plot_data(con, study, p)
        if not lines:
            print(f"plot: {p['name']}: no finished run has {p['y']}; nothing drawn")
            continue
        unit = (con.execute("SELECT unit FROM figures WHERE figure = ? LIMIT 1", (p["y"],))
                .fetchone() or ["ns" if p["y"].endswith("_ns") else ""])[0]
        scale = 1e-3 if unit == "ns" else 1.0  # latencies read best in us
        shown_unit = "us" if unit == "ns" else unit
        fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
        numeric = all(_num(x) is not None for _, pts in lines for x, _, _ in pts)
        for lbl, pts in lines:
            xs = [_num(x) if numeric else str(x) for x, _, _ in pts]
            ax.plot(xs, [y * scale for _, y, _ in pts], marker="o", label=lbl)
        if numeric and p.get("logx"):
            ax.set_xscale("log", base=float(p["logx"]))
            xt = sorted({_num(x) for _, pts in lines for x, _, _ in pts})
            ax.set_xticks(xt, [f"{x:g}" for x in xt])
        if p.get("logy"):
            ax.set_yscale("log", base=float(p["logy"]))
        ax.set_xlabel(p.get("xlabel", p["x"]))
        y_name = p["y"][:-3] if unit == "ns" and p["y"].endswith("_ns") else p["y"]
        ax.set_ylabel(p.get("ylabel", f"{y_name} ({shown_unit})" if shown_unit else y_name))
        ax.set_title(p.get("title", f"{p['y']} against {p['x']}"), fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, ncol=2 if len(lines) > 6 else 1)
        fig.tight_layout()
        for fmt in formats or study.plot_formats:
            path = os.path.join(paths.work, f"{p['name']}.{fmt}")
            fig.savefig(path, metadata={"Date": None} if fmt == "svg" else {"Software": None})
            written.append(path)
        plt.close(fig)
        with open(os.path.join(paths.work, f"{p['name']}.json"), "w") as f:
            json.dump({"x": p["x"], "y": p["y"], "unit": unit,
                       "lines": [{"label": lbl, "points": [{"x": x, "y": y, "run_id": rid}
                                                          for x, y, rid in pts]}
                                 for lbl, pts in lines]}, f, indent=1)
    con.close()
    return written


def _fmt(v, unit):
    if v is None:
        return ""
    if unit == "ns":
        return f"{v / 1000:.2f}"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def summary_markdown(study, paths, command):
    """The study's README: what it asks, how to run it, the plots, the table, the failures."""
    con = sqlite3.connect(f"file:{paths.db}?mode=ro", uri=True)
    keys = {r.key for r in study.runs()}
    runs = [r for r in con.execute(
        "SELECT run_id, run_key, point_index, point, status, message, wall_s FROM runs "
        "ORDER BY point_index") if r[1] in keys]
    ok = [r for r in runs if r[4] == 0]
    md = [f"# {study.title}", ""]
    if study.description:
        md += [" ".join(study.description.split()), ""]
    md += [
          f"Generated by `studies/study.py` from `{os.path.basename(study.path)}` (the spec below): "
          f"{len(study.runs())} runs of `--kernel {study.kernel} --preset {study.preset}`"
          f"{' (the --quick variant)' if study.quick else ''}; {len(runs)} in the database, "
          f"{len(ok)} ok, {len(runs) - len(ok)} failed; "
          f"{sum(r[6] for r in runs):.0f} s of run time in all.", "",
          "```sh", command, "```", ""]
    for p in study.plots:
        png = f"{p['name']}.png"
        if os.path.exists(os.path.join(paths.work, png)):
            md += [f"![{p.get('title', p['name'])}]({png})", ""]
    names = [n for (n,) in con.execute("SELECT DISTINCT name FROM kernels ORDER BY kernel_idx")
             if not study.collect_kernels or n in study.collect_kernels]
    units = dict(con.execute("SELECT figure, unit FROM figures GROUP BY figure"))
    units["latency_ns"] = "ns"
    cols = [(n, f) for n in names for f in study.collect
            if con.execute("SELECT 1 FROM figures f JOIN kernels k USING (run_id, kernel_idx) "
                           "WHERE k.name = ? AND f.figure = ? LIMIT 1", (n, f)).fetchone()]
    def heading(n, f):
        if units.get(f) == "ns":
            return f"{n} {f[:-3] if f.endswith('_ns') else f} (us)"
        return f"{n} {f} ({units[f]})" if units.get(f) else f"{n} {f}"
    head = study.varied + [heading(n, f) for n, f in cols]
    md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run_id, key, idx, point, status, msg, wall in runs:
        pt = json.loads(point)
        vals = []
        for n, f in cols:
            v = con.execute("SELECT f.value FROM figures f JOIN kernels k USING (run_id, "
                            "kernel_idx) WHERE run_id = ? AND k.name = ? AND f.figure = ?",
                            (run_id, n, f)).fetchone()
            vals.append(_fmt(v[0], units.get(f)) if v else
                        (f"exit {status}" if status else ""))
        md.append("| " + " | ".join([str(pt.get(k, "")) for k in study.varied] + vals) + " |")
    failed = [r for r in runs if r[4] != 0]
    if failed:
        md += ["", "Failed runs:", ""]
        md += [f"- run {r[2]} `{r[3]}`: exit {r[4]}: {r[5]}" for r in failed]
    md += ["", "The database (`study.db`, schema in docs/guides/what-if-studies.md):",
           "", "```sh",
           f"sqlite3 -header -column {os.path.relpath(paths.db, paths.work)} "
           "'SELECT * FROM results LIMIT 5'", "```", "", "The spec:", "", "```ini",
           study.text.rstrip(), "```", ""]
    con.close()
    path = os.path.join(paths.work, "README.md")
    with open(path, "w") as f:
        f.write("\n".join(md))
    return path
