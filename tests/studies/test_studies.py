#!/usr/bin/env python3
"""The study tool (studies/study.py) as an architect uses it, against the real simulator.

  test_studies.py BINARY GROUP      GROUP: spec | sweep | plot_compare | examples

spec          the spec's expansion: ranges, product, zip, --quick, run keys, bad specs (exit 2)
sweep         a failing run (exit 2, its message), a killed simulator run, a killed runner: no
              half row, nothing lost; a rerun skips what is done and adds no duplicate
plot_compare  the plots exist and are not blank; the plotted values read back from the database
              equal the runs' stats.json; compare of two folders and of database rows
examples      both example studies' --quick variants, each by its one command
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STUDY = os.path.join(REPO, "studies", "study.py")
sys.path.insert(0, os.path.join(REPO, "studies"))
from studylib import spec  # noqa: E402

FAILS = []


def check(cond, what):
    print(f"{'ok  ' if cond else 'FAIL'} {what}")
    if not cond:
        FAILS.append(what)
    return cond


def study(binary, *args, timeout=600):
    p = subprocess.run([sys.executable, STUDY, *args, "--sim", binary], capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def cmdline(pid):
    """The arguments of pid, or none once it has exited (a run can end between listing and reading)."""
    try:
        return open(f"/proc/{pid}/cmdline").read().split("\0")
    except OSError:
        return []


def children(pid):
    """Process ids whose parent is pid."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = open(f"/proc/{d}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d))
    return out


def alive(pid):
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    except OSError:
        return False


def rows(db, sql, args=()):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


# ---------------------------------------------------------------------------------------------

def test_spec(binary, tmp):
    check(spec.parse_values("100..400 step 100", "t") == ["100", "200", "300", "400"],
          "a range with a step is inclusive")
    check(spec.parse_values("8..256 x2", "t") == ["8", "16", "32", "64", "128", "256"],
          "a geometric range")
    check(spec.parse_values("0.5..1.5 step 0.25", "t") == ["0.5", "0.75", "1", "1.25", "1.5"],
          "a fractional range prints its values plainly")
    check(spec.parse_values("uniform, zipf:1.2, 1..3", "t") == ["uniform", "zipf:1.2", "1", "2",
                                                                "3"], "lists mix text and ranges")
    p = write(os.path.join(tmp, "s.ini"), """
[study]
kernel = dispatch
[fixed]
run.check = 0
[vary]
ep.world_size = 4, 8
fabric.port_GBps = 100..300 step 100
[zip]
dispatch.bs = 16, 32
dispatch.hidden = 1024, 2048
[quick]
ep.world_size = 4
sim.payload = 0
""")
    s = spec.Study(p)
    runs = s.runs()
    check(len(runs) == 2 * 3 * 2, f"product of two axes and a zip axis: {len(runs)} runs, want 12")
    check(all((r.sets["dispatch.bs"], r.sets["dispatch.hidden"]) in {("16", "1024"), ("32", "2048")}
              for r in runs), "zipped keys move together")
    check(len({r.key for r in runs}) == 12, "every point has its own key")
    check(all(r.sets["run.check"] == "0" for r in runs), "fixed keys reach every run")
    q = spec.Study(p, quick=True)
    check(len(q.runs()) == 6 and all(r.sets["sim.payload"] == "0" and r.sets["ep.world_size"] ==
                                     "4" for r in q.runs()), "--quick replaces and adds values")
    a = spec.Run(0, "dispatch", "a3", {}, {"x.a": "1", "x.b": "2"})
    b = spec.Run(5, "dispatch", "a3", {"x.b": "2"}, {"x.b": "2", "x.a": "1"})
    check(a.key == b.key, "a run's key does not depend on order or place in the sweep")
    check(a.key != spec.Run(0, "combine", "a3", {}, a.sets).key, "the kernel is part of the key")
    bad = write(os.path.join(tmp, "bad.ini"), "[vary]\ndispatch.bs = 1, 2\ndispatch.hidden = 1\n"
                "[zip]\nep.world_size = 2, 4\nfabric.port_GBps = 1\n")
    rc, out = study(binary, "list", bad)
    check(rc == 2 and "as many values" in out, f"zip of unequal lengths: exit 2 ({rc}): {out[-200:]}")
    typo = write(os.path.join(tmp, "typo.ini"), "[vary]\nfabric.port_GBsp = 100, 200\n")
    rc, out = study(binary, "sweep", typo, "--work", os.path.join(tmp, "w"))
    check(rc == 2 and "did you mean fabric.port_GBps" in out,
          f"an unknown key stops the sweep before any run (exit {rc}): {out.strip()[-200:]}")
    check(not os.path.exists(os.path.join(tmp, "w", "runs")), "...and runs nothing")
    rc, out = study(binary, "sweep", write(os.path.join(tmp, "k.ini"), "[study]\nkernel = dispach\n"),
                    "--work", os.path.join(tmp, "w"))
    check(rc == 2 and "dispach" in out and "did you mean" in out,
          f"an unknown kernel stops the sweep with the simulator's message: {out.strip()[-160:]}")
    rc, out = study(binary, "list", write(os.path.join(tmp, "r.ini"), "[vary]\na.b = 5..1\n"))
    check(rc == 2 and "does not go" in out, "a descending range is exit 2")


# ---------------------------------------------------------------------------------------------

SWEEP_SPEC = """
[study]
name = robustness
kernel = moe
jobs = 2
[fixed]
run.check = 0
sim.payload = 0
ep.world_size = 8
[vary]
fabric.port_GBps = 0, 100, 200, 300
[plot latency]
x = fabric.port_GBps
y = latency_ns
kernels = dispatch, combine
[plot send]
x = fabric.port_GBps
y = phase.send_ns
kernels = dispatch
"""


def no_half_rows(db, what):
    """Every ok run has all of its kernels, figures, pipes and ports; nothing is orphaned."""
    integ = rows(db, "PRAGMA integrity_check")[0][0]
    half = rows(db, "SELECT r.run_id FROM runs r WHERE r.status = 0 AND (SELECT count(*) FROM "
                    "kernels k WHERE k.run_id = r.run_id) != 3 OR r.status = 0 AND (SELECT "
                    "count(*) FROM config c WHERE c.run_id = r.run_id AND c.origin = "
                    "'resolved') < 50")
    kernels_without = rows(db, "SELECT count(*) FROM kernels k WHERE NOT EXISTS (SELECT 1 FROM "
                               "figures f WHERE f.run_id = k.run_id AND f.kernel_idx = "
                               "k.kernel_idx) OR NOT EXISTS (SELECT 1 FROM pipes p WHERE "
                               "p.run_id = k.run_id AND p.kernel_idx = k.kernel_idx)")[0][0]
    orphans = rows(db, "SELECT (SELECT count(*) FROM kernels WHERE run_id NOT IN (SELECT run_id "
                       "FROM runs)) + (SELECT count(*) FROM figures WHERE run_id NOT IN (SELECT "
                       "run_id FROM runs)) + (SELECT count(*) FROM config WHERE run_id NOT IN "
                       "(SELECT run_id FROM runs))")[0][0]
    dup = rows(db, "SELECT count(*) - count(DISTINCT run_key) FROM runs")[0][0]
    return check(integ == "ok" and not half and not kernels_without and not orphans and not dup,
                 f"{what}: database intact, no half run (integrity {integ}, half {half}, kernels "
                 f"without figures {kernels_without}, orphans {orphans}, duplicates {dup})")


def test_sweep(binary, tmp):
    spec_path = write(os.path.join(tmp, "robust.ini"), SWEEP_SPEC)
    work = os.path.join(tmp, "work")
    db = os.path.join(work, "study.db")
    runs = spec.Study(spec_path).runs()
    key_of = {r.point["fabric.port_GBps"]: r.key for r in runs}

    # 1. A failing run and a killed simulator run: the sweep goes on and records both.
    proc = subprocess.Popen([sys.executable, STUDY, "sweep", spec_path, "--work", work, "--sim",
                             binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    victim, t0 = None, time.time()
    while victim is None and time.time() - t0 < 60 and proc.poll() is None:
        for c in children(proc.pid):
            if "fabric.port_GBps=100" in cmdline(c):
                time.sleep(0.3)  # well inside its ~1 s run
                os.kill(c, signal.SIGKILL)
                victim = c
        time.sleep(0.02)
    out = proc.communicate(timeout=300)[0]
    check(victim is not None, "found the simulator run of fabric.port_GBps=100 and killed it")
    check(proc.returncode == 1, f"a sweep with failed runs ends with exit 1 ({proc.returncode})")
    check("exit 2: ascend-sim: bad input: parameter fabric.port_GBps = '0'" in out,
          "the out-of-range run has its line: exit status and the simulator's message")
    check("exit -9: killed by signal 9 (SIGKILL)" in out, "the killed run has its line")
    st = dict(rows(db, "SELECT run_key, status FROM runs"))
    check(st == {key_of["0"]: 2, key_of["100"]: -9, key_of["200"]: 0, key_of["300"]: 0},
          f"every run is recorded once with its status: {sorted(st.values())}")
    msg = rows(db, "SELECT message FROM runs WHERE run_key = ?", (key_of["0"],))[0][0]
    check("out of range" in msg, f"the failed run's message is in the database: {msg}")
    no_half_rows(db, "after a failed and a killed run")

    # 2. The rerun redoes the killed run only.
    rc, out = study(binary, "sweep", spec_path, "--work", work)
    check("1 run(s) now, 3 skipped" in out, f"the rerun skips the 3 finished runs: {out[-300:]}")
    check(rc == 1, "the study still has its failed run: exit 1")
    st = dict(rows(db, "SELECT run_key, status FROM runs"))
    check(st.get(key_of["100"]) == 0 and len(st) == 4, "the killed run is done now, 4 rows")
    no_half_rows(db, "after the rerun")
    rc, out = study(binary, "sweep", spec_path, "--work", work)
    check("0 run(s) now, 4 skipped" in out and rows(db, "SELECT count(*) FROM runs")[0][0] == 4,
          "a third run does nothing")
    rc, out = study(binary, "sweep", spec_path, "--work", work, "--retry-failed")
    check("1 run(s) now, 3 skipped" in out and rows(db, "SELECT count(*) FROM runs")[0][0] == 4,
          "--retry-failed redoes the failed run, in place")
    dirs = sorted(os.listdir(os.path.join(work, "runs")))
    check(dirs == sorted(key_of.values()), f"one folder per run, no partial left: {dirs}")

    # 3. The runner itself killed outright while runs are in flight.
    spec2 = write(os.path.join(tmp, "kill.ini"),
                  SWEEP_SPEC.replace("0, 100, 200, 300", "100..600 step 100"))
    work2 = os.path.join(tmp, "work2")
    db2 = os.path.join(work2, "study.db")
    proc = subprocess.Popen([sys.executable, STUDY, "sweep", spec2, "--work", work2, "--sim",
                             binary], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0, sims = time.time(), []
    while time.time() - t0 < 120:
        try:
            done = os.path.exists(db2) and rows(db2, "SELECT count(*) FROM runs")[0][0]
        except sqlite3.OperationalError:  # the file is there, its tables not yet
            done = False
        sims = children(proc.pid)
        if done and len(sims) == 2:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    check(len(sims) == 2, f"killed the runner with two runs in flight ({len(sims)})")
    time.sleep(1)
    check(not any(alive(s) for s in sims), "its simulator runs died with it")
    n = rows(db2, "SELECT count(*) FROM runs")[0][0]
    check(0 < n < 6, f"the database holds the runs finished before the kill ({n} of 6)")
    no_half_rows(db2, "after killing the runner")
    rc, out = study(binary, "sweep", spec2, "--work", work2)
    check(rc == 0 and f"{6 - n} run(s) now, {n} skipped" in out,
          f"the rerun completes the study: {out.strip().splitlines()[-1]}")
    check(rows(db2, "SELECT count(*), count(DISTINCT run_key), sum(status = 0) FROM runs")[0] ==
          (6, 6, 6), "6 runs, once each, all ok")
    no_half_rows(db2, "after completing")
    check(sorted(os.listdir(os.path.join(work2, "runs"))) ==
          sorted(r.key for r in spec.Study(spec2).runs()), "the partial folders are gone")
    view = rows(db2, "SELECT count(*), count(DISTINCT kernel) FROM results")[0]
    check(view == (18, 3), f"the results view: a row per kernel record (18, 3 kernels): {view}")


# ---------------------------------------------------------------------------------------------

def distinct_colors(png):
    import matplotlib.image as mpimg
    img = mpimg.imread(png)
    flat = (img[:, :, :3] * 255).astype(int).reshape(-1, 3)
    return len({tuple(p) for p in flat[::7]}), img.shape


def stats_of(out_dir):
    return json.load(open(os.path.join(out_dir, "stats.json")))


def test_plot_compare(binary, tmp):
    spec_path = write(os.path.join(tmp, "pc.ini"), SWEEP_SPEC.replace(
        "[study]", "[study]\nplot_formats = png, svg"))
    work = os.path.join(tmp, "work")
    rc, out = study(binary, "sweep", spec_path, "--work", work, "--plot")
    check(rc == 1 and "plot: " in out, "the sweep (one run fails on purpose), then the plots")
    for name in ("latency", "send"):
        png, svg = os.path.join(work, name + ".png"), os.path.join(work, name + ".svg")
        check(os.path.exists(png) and os.path.getsize(png) > 15000,
              f"{name}.png exists and is not trivial ({os.path.getsize(png) if os.path.exists(png) else 0} B)")
        n, shape = distinct_colors(png)
        check(n > 20, f"{name}.png has lines, text and markers: {n} distinct colours, {shape}")
        check(os.path.exists(svg) and open(svg).read().count("<path") > 10, f"{name}.svg drawn")
    md = open(os.path.join(work, "README.md")).read()
    check("![" in md and "(latency.png)" in md and "| fabric.port_GBps |" in md
          and "exit 2: ascend-sim: bad input" in md,
          "README.md embeds the plots, tabulates the runs and lists the failed one")

    # The values drawn are the runs' own figures, and the database agrees with stats.json.
    db = os.path.join(work, "study.db")
    lat = json.load(open(os.path.join(work, "latency.json")))
    pts = [(ln["label"], p) for ln in lat["lines"] for p in ln["points"]]
    check(len(pts) == 6 and {ln["label"] for ln in lat["lines"]} == {"dispatch", "combine"},
          f"latency: 3 ok runs x 2 kernels, a line per kernel ({len(pts)} points)")
    bad = 0
    for label, p in pts:
        out_dir = os.path.join(work, rows(db, "SELECT out_dir FROM runs WHERE run_id = ?",
                                          (p["run_id"],))[0][0])
        s = stats_of(out_dir)
        rec = [k for k in s["kernels"] if k["name"] == label][0]
        cfg = open(os.path.join(out_dir, "config.ini")).read()
        bad += p["y"] != rec["latency_ns"] or f"port_GBps = {p['x']}" not in cfg
    check(bad == 0 and pts, "every plotted latency equals its run's stats.json, x its config.ini")
    send = json.load(open(os.path.join(work, "send.json")))
    bad = 0
    for ln in send["lines"]:
        for p in ln["points"]:
            out_dir = os.path.join(work, rows(db, "SELECT out_dir FROM runs WHERE run_id = ?",
                                              (p["run_id"],))[0][0])
            rec = [k for k in stats_of(out_dir)["kernels"] if k["name"] == "dispatch"][0]
            bad += p["y"] != max(rec["phase_max_over_cores"]["send_ns"])
    check(bad == 0 and send["lines"][0]["points"],
          "every plotted send phase equals the slowest rank's in stats.json")
    # Every figure the database holds for a run, against that run's stats.json, computed here.
    bad = []
    for run_id, out_dir in rows(db, "SELECT run_id, out_dir FROM runs WHERE status = 0"):
        s = stats_of(os.path.join(work, out_dir))
        for i, rec in enumerate(s["kernels"]):
            got = dict(rows(db, "SELECT figure, value FROM figures WHERE run_id = ? AND "
                                "kernel_idx = ?", (run_id, i)))
            want = {"latency_ns": rec["latency_ns"]}
            for ph, per_rank in rec.get("phase_max_over_cores", {}).items():
                want["phase." + ph] = max(per_rank)
            if "rank_bandwidth_GBps" in rec:
                v = rec["rank_bandwidth_GBps"]
                want["rank_bandwidth_GBps.mean"] = sum(v) / len(v)
                want["rank_bandwidth_GBps.min"] = min(v)
            if rec["ports"]:
                want["port_utilization_pct.max"] = max(p["utilization_pct"] for p in rec["ports"])
            bad += [(run_id, rec["name"], f, got.get(f), v) for f, v in want.items()
                    if got.get(f) is None or abs(got[f] - v) > 1e-9 * max(1, abs(v))]
            ports = {p["name"]: (p["bytes"], p["busy_ns"], p["utilization_pct"])
                     for p in rec["ports"]}
            got_ports = {p: (b, t, u) for p, b, t, u in rows(
                db, "SELECT port, bytes, busy_ns, utilization_pct FROM ports WHERE run_id = ? "
                    "AND kernel_idx = ?", (run_id, i))}
            bad += [(run_id, rec["name"], "ports")] if ports != got_ports else []
            busy = {}
            for r in rec["ranks"]:
                for pipe, vals in r["pipe_busy_pct"].items():
                    busy.setdefault(pipe, []).extend(vals)
            got_pipes = dict(rows(db, "SELECT pipe, max_busy_pct FROM pipes WHERE run_id = ? "
                                      "AND kernel_idx = ?", (run_id, i)))
            bad += [(run_id, rec["name"], "pipes")] if got_pipes != {
                p: max(v) for p, v in busy.items()} else []
    check(not bad, f"the database's latencies, phases, bandwidths, ports and pipes equal each "
                   f"run's stats.json: {bad[:3]}")
    lat_by_port = sorted((p["x"], p["y"]) for label, p in pts if label == "dispatch")
    check(lat_by_port[0][1] > lat_by_port[-1][1],
          f"a faster link makes dispatch faster in the plotted data: {lat_by_port}")

    # compare: two folders, then the same runs as database rows.
    key = {r.point["fabric.port_GBps"]: r.key for r in spec.Study(spec_path).runs()}
    a, b = (os.path.join(work, "runs", key[p]) for p in ("100", "300"))
    p = subprocess.run([sys.executable, STUDY, "compare", a, b], capture_output=True, text=True)
    out = p.stdout
    print(out[:1500])
    sa, sb = stats_of(a), stats_of(b)
    la, lb = sa["kernels"][0]["latency_ns"], sb["kernels"][0]["latency_ns"]
    want = f"{la:>14.3f} {lb:>14.3f} {lb - la:>+14.3f} {(lb - la) / la * 100:>+7.1f}%"
    check(p.returncode == 0 and want in out, f"compare: dispatch latency A, B, B-A, rel: {want}")
    check("fabric.port_GBps" in out and "100" in out.split("fabric.port_GBps")[1][:40],
          "compare names the config key that differs, with both values")
    check(all(s in out for s in ("phase.send_ns", "MTE3 mean", "ub_egress", "kernel combine")),
          "compare shows phases, pipes and ports of every kernel")
    ida = rows(os.path.join(work, "study.db"), "SELECT run_id FROM runs WHERE run_key = ?",
               (key["100"],))[0][0]
    p2 = subprocess.run([sys.executable, STUDY, "compare", a, f"{db}:{ida}"], capture_output=True,
                        text=True)
    diffs = [ln for ln in p2.stdout.splitlines() if ln.strip() and "+0.000" not in ln
             and ln.startswith("  ") and ln.split()[-1].endswith("%")]
    check(p2.returncode == 0 and "config keys that differ: none" in p2.stdout and not diffs,
          f"a folder and its own database row compare equal: {diffs[:3]}")
    p3 = subprocess.run([sys.executable, STUDY, "compare", f"{db}:{key['300']}", a,
                         "--threshold", "5"], capture_output=True, text=True)
    check(p3.returncode == 1 and "latency regressions above 5%: dispatch" in p3.stdout,
          "--threshold: a slower B is exit 1 naming the kernels")
    p4 = subprocess.run([sys.executable, STUDY, "compare", a, f"{db}:{key['0']}"],
                        capture_output=True, text=True)
    check(p4.returncode == 2 and "failed (exit 2" in p4.stderr, "comparing with a failed run: exit 2")


# ---------------------------------------------------------------------------------------------

def test_examples(binary, tmp):
    for name, n_full in (("ep_bandwidth", 24), ("split_skew", 15)):
        spec_path = os.path.join(REPO, "studies", name, "study.ini")
        rc, out = study(binary, "list", spec_path)
        check(rc == 0 and f"{n_full} runs" in out, f"{name}: the full study has {n_full} runs")
        work = os.path.join(tmp, name)
        t0 = time.time()
        rc, out = study(binary, "sweep", spec_path, "--quick", "--plot", "--work", work)
        check(rc == 0, f"{name}: the --quick study in one command ({time.time() - t0:.1f} s)")
        s = spec.Study(spec_path, quick=True)
        n = rows(os.path.join(work, "study.db"), "SELECT count(*) FROM runs WHERE status = 0")[0][0]
        check(n == len(s.runs()), f"{name}: {n} runs ok")
        for p in s.plots:
            png = os.path.join(work, p["name"] + ".png")
            check(os.path.exists(png) and distinct_colors(png)[0] > 20, f"{name}: {p['name']}.png")
        if rc:
            print(out[-1500:])
    # The committed results are the full studies' and agree with their specs.
    for name in ("ep_bandwidth", "split_skew"):
        folder = os.path.join(REPO, "studies", name)
        s = spec.Study(os.path.join(folder, "study.ini"))
        db = os.path.join(folder, "study.db")
        have = {k for (k,) in rows(db, "SELECT run_key FROM runs WHERE status = 0")} \
            if os.path.exists(db) else set()
        check(have == {r.key for r in s.runs()}, f"{name}: study.db holds every run of its spec")
        md = open(os.path.join(folder, "README.md")).read() \
            if os.path.exists(os.path.join(folder, "README.md")) else ""
        check(all(f"({p['name']}.png)" in md and os.path.exists(
            os.path.join(folder, p["name"] + ".png")) for p in s.plots),
            f"{name}: README.md embeds its committed plots")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        # Read the images back with Debian's matplotlib (the interpreter on PATH may lack it).
        if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
            os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
        sys.exit("matplotlib is missing (apt-get install python3-matplotlib)")
    binary, group = os.path.abspath(sys.argv[1]), sys.argv[2]
    tests = {"spec": test_spec, "sweep": test_sweep, "plot_compare": test_plot_compare,
             "examples": test_examples}
    with tempfile.TemporaryDirectory(prefix="studies-") as tmp:
        tests[group](binary, tmp)
    print(f"studies.{group}: {len(FAILS)} failed")
    sys.exit(1 if FAILS else 0)


if __name__ == "__main__":
    main()
