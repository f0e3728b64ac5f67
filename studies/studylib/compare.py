"""Two runs side by side: per kernel its latency, phases and figures, per pipe its busy share,
per port its utilisation, and the config keys that differ. Absolute and relative differences,
B against A."""
import os

from . import db, runs


def load(ref):
    """An --out folder, or DB:ID (a run of a study's database by run_id or run_key)."""
    if os.path.isdir(ref):
        return runs.load_out_dir(ref)
    path, sep, ident = ref.rpartition(":")
    if sep and os.path.isfile(path):
        return db.load_run(path, ident)
    raise LookupError(f"'{ref}' is neither an --out folder (with stats.json) nor DB:RUN "
                      "(a study database and a run_id or run_key)")


def _rel(a, b):
    if a == 0:
        return "" if b == 0 else "new"
    return f"{(b - a) / abs(a) * 100:+.1f}%"


def _row(name, a, b, width=32):
    if a is None or b is None:
        return f"  {name:<{width}} {'-' if a is None else f'{a:.3f}':>14} " \
               f"{'-' if b is None else f'{b:.3f}':>14}"
    return f"  {name:<{width}} {a:>14.3f} {b:>14.3f} {b - a:>+14.3f} {_rel(a, b):>8}"


def _pair_kernels(ka, kb):
    """Kernel records matched by name and occurrence (moe's layers, repeated launches)."""
    def keyed(ks):
        seen, out = {}, {}
        for k in ks:
            n = seen.get(k["name"], 0)
            seen[k["name"]] = n + 1
            out[(k["name"], n)] = k
        return out
    a, b = keyed(ka), keyed(kb)
    order = list(a) + [k for k in b if k not in a]
    return [(k, a.get(k), b.get(k)) for k in order]


def report(A, B, ports_top=8, threshold=None):
    """The text of the comparison, and whether a latency grew more than threshold %."""
    out = [f"A: {A['label']}", f"B: {B['label']}", ""]
    ca, cb = A["config"], B["config"]
    differ = [k for k in sorted(set(ca) | set(cb))
              if db.typed(ca.get(k, "")) != db.typed(cb.get(k, ""))]
    out.append("config keys that differ" + ("" if differ else ": none"))
    for k in differ:
        out.append(f"  {k:<40} {ca.get(k, '-'):>14} {cb.get(k, '-'):>14}")
    regressed = []
    head = f"  {'':<32} {'A':>14} {'B':>14} {'B-A':>14} {'rel':>8}"
    for (name, n), ka, kb in _pair_kernels(A["kernels"], B["kernels"]):
        title = name + (f" #{n + 1}" if n else "")
        out += ["", f"kernel {title}" + ("" if ka and kb else
                                         f": only in {'A' if ka else 'B'}")]
        if not (ka and kb):
            continue
        out.append(head)
        out.append(_row("latency_ns", ka["latency_ns"], kb["latency_ns"]))
        if threshold is not None and ka["latency_ns"] and \
                (kb["latency_ns"] - ka["latency_ns"]) / ka["latency_ns"] * 100 > threshold:
            regressed.append(title)
        fa, fb = ka["figures"], kb["figures"]
        figs = [f for f in sorted(set(fa) | set(fb)) if f != "latency_ns"]
        phases = [f for f in figs if f.startswith("phase.")]
        # Phases always; the other figures when they moved (the rest are counts, sizes).
        moved = [f for f in figs if f not in phases and fa.get(f) != fb.get(f)]
        for f in phases + moved:
            out.append(_row(f, fa.get(f, (None,))[0], fb.get(f, (None,))[0]))
        same = len(figs) - len(phases) - len(moved)
        if same:
            out.append(f"  ({same} other figures equal)")
        pipes = sorted(set(ka["pipes"]) | set(kb["pipes"]))
        if any(v[1] for k in (ka, kb) for v in k["pipes"].values()):
            out.append("  pipes, busy % (mean over cores; max)")
        else:
            pipes = []  # a kernel that only waits (moe's experts stand-in)
        for p in pipes:
            pa, pb = ka["pipes"].get(p), kb["pipes"].get(p)
            out.append(_row(f"{p} mean", pa and pa[0], pb and pb[0]))
            out.append(_row(f"{p} max", pa and pa[1], pb and pb[1]))
        pa = {p[0]: p[3] for p in ka["ports"]}
        pb = {p[0]: p[3] for p in kb["ports"]}
        names = sorted(set(pa) | set(pb),
                       key=lambda p: (-abs(pb.get(p, 0) - pa.get(p, 0)), p))
        if names:
            out.append(f"  ports, utilization % ({len(names)} ports carried traffic; "
                       f"the {min(ports_top, len(names))} that moved most)")
        for p in names[:ports_top]:
            out.append(_row(p, pa.get(p), pb.get(p)))
    if threshold is not None:
        out += ["", f"latency regressions above {threshold:g}%: "
                + (", ".join(regressed) if regressed else "none")]
    return "\n".join(out), bool(regressed)
