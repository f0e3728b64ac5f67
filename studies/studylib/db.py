"""The study's results: one SQLite file (schema in docs/guides/what-if-studies.md).

Every run goes in by one transaction (its runs row, config, kernels, figures, pipes, ports): a
reader or a killed writer never sees half a run. A run's key is unique: a rerun of the same
point replaces its row, never adds one.
"""
import json
import os
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS study (
  key TEXT PRIMARY KEY,                 -- name, title, spec (the file's text), kernel, preset
  value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  run_id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL UNIQUE,         -- hash of kernel, preset and every --set: the identity
  point_index INTEGER NOT NULL,         -- place in the spec's expansion
  point TEXT NOT NULL,                  -- the varied parameters, JSON
  kernel TEXT NOT NULL,
  preset TEXT NOT NULL,
  status INTEGER NOT NULL,              -- the simulator's exit status; -N: killed by signal N
  message TEXT NOT NULL,                -- why it failed ('' when status is 0)
  wall_s REAL NOT NULL,                 -- measured by the runner
  sim_wall_s REAL, sim_events INTEGER, sim_peak_rss_MiB REAL, sim_time_ns REAL,
  version TEXT NOT NULL,                -- ascend-sim --version of the binary that ran it
  command_line TEXT NOT NULL,           -- reruns it by hand
  out_dir TEXT NOT NULL,                -- its folder (stats.json, config.ini), from the database's
  host TEXT NOT NULL,
  batch_job TEXT NOT NULL,              -- Slurm's ARRAYJOB_TASK for a task ('' for a local run)
  finished_at TEXT NOT NULL,
  attempt TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS config (
  run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
  key TEXT NOT NULL,
  value,                                -- a number when it reads as one, else text
  origin TEXT NOT NULL,                 -- varied, fixed (by the spec) or resolved (config.ini)
  PRIMARY KEY (run_id, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS kernels (
  run_id INTEGER NOT NULL REFERENCES runs ON DELETE CASCADE,
  kernel_idx INTEGER NOT NULL,          -- order in stats.json's kernels[]
  name TEXT NOT NULL,
  start_ns REAL NOT NULL,
  latency_ns REAL NOT NULL,
  PRIMARY KEY (run_id, kernel_idx));
CREATE TABLE IF NOT EXISTS figures (
  run_id INTEGER NOT NULL, kernel_idx INTEGER NOT NULL,
  figure TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL,
  PRIMARY KEY (run_id, kernel_idx, figure),
  FOREIGN KEY (run_id, kernel_idx) REFERENCES kernels ON DELETE CASCADE) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pipes (
  run_id INTEGER NOT NULL, kernel_idx INTEGER NOT NULL,
  pipe TEXT NOT NULL, mean_busy_pct REAL NOT NULL, max_busy_pct REAL NOT NULL,
  PRIMARY KEY (run_id, kernel_idx, pipe),
  FOREIGN KEY (run_id, kernel_idx) REFERENCES kernels ON DELETE CASCADE) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ports (
  run_id INTEGER NOT NULL, kernel_idx INTEGER NOT NULL,
  port TEXT NOT NULL, bytes INTEGER NOT NULL, busy_ns REAL NOT NULL, utilization_pct REAL NOT NULL,
  PRIMARY KEY (run_id, kernel_idx, port),
  FOREIGN KEY (run_id, kernel_idx) REFERENCES kernels ON DELETE CASCADE) WITHOUT ROWID;
"""

# Statuses that are the simulator's verdict on the run's parameters: a rerun would repeat them,
# so a rerun skips them. Anything else (killed, timed out, internal error) is run again.
FINAL_STATUSES = {0, 2, 3, 4, 5, 6}


def typed(v):
    if isinstance(v, (int, float)):
        return v
    try:
        return int(v)
    except ValueError:
        pass
    try:
        return float(v)
    except ValueError:
        return v


def connect(path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    con = sqlite3.connect(path, timeout=120, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    con.executescript(SCHEMA)
    have = {r[1] for r in con.execute("PRAGMA table_info(runs)")}
    missing = {"batch_job"} - have
    if missing:
        raise RuntimeError(f"{path} was made by an older study.py (no {', '.join(missing)}): "
                           "move it away and rebuild it from the runs' folders with `study.py "
                           "gather SPEC`")
    return con


def write_study(con, study):
    rows = {"name": study.name, "title": study.title, "kernel": study.kernel,
            "preset": study.preset, "spec": study.text, "varied": json.dumps(study.varied),
            "quick": "1" if study.quick else "0"}
    con.execute("BEGIN IMMEDIATE")
    con.executemany("INSERT OR REPLACE INTO study VALUES (?, ?)", rows.items())
    con.execute("COMMIT")


def done(con):
    """run_key -> (status, attempt) of every run in the database."""
    return {k: (s, a) for k, s, a in con.execute("SELECT run_key, status, attempt FROM runs")}


def import_run(con, rec, out_dir, fixed_keys=()):
    """Puts one run (runs.load's record) in, replacing an earlier attempt of the same key."""
    sim = rec["simulator"]
    con.execute("BEGIN IMMEDIATE")
    try:
        con.execute("DELETE FROM runs WHERE run_key = ?", (rec["key"],))
        cur = con.execute(
            "INSERT INTO runs (run_key, point_index, point, kernel, preset, status, message, "
            "wall_s, sim_wall_s, sim_events, sim_peak_rss_MiB, sim_time_ns, version, "
            "command_line, out_dir, host, batch_job, finished_at, attempt) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rec["key"], rec["index"], json.dumps(rec["point"]), rec["kernel"], rec["preset"],
             rec["status"], rec["message"], rec["wall_s"], sim.get("wall_s"),
             sim.get("scheduler_events"), sim.get("peak_rss_MiB"), sim.get("sim_time_ns"),
             rec["version"], rec["command_line"], out_dir, rec["host"], rec.get("batch_job", ""),
             rec["finished_at"],
             rec["attempt"]))
        run_id = cur.lastrowid
        config = {k: (v, "resolved") for k, v in rec["config"].items()}
        for k, v in rec["sets"].items():
            config[k] = (config.get(k, (v,))[0], "varied" if k in rec["point"] else "fixed")
        con.executemany("INSERT INTO config VALUES (?, ?, ?, ?)",
                        [(run_id, k, typed(v), o) for k, (v, o) in config.items()])
        for k in rec["kernels"]:
            con.execute("INSERT INTO kernels VALUES (?, ?, ?, ?, ?)",
                        (run_id, k["idx"], k["name"], k["start_ns"], k["latency_ns"]))
            con.executemany("INSERT INTO figures VALUES (?, ?, ?, ?, ?)",
                            [(run_id, k["idx"], f, v, u) for f, (v, u) in k["figures"].items()])
            con.executemany("INSERT INTO pipes VALUES (?, ?, ?, ?, ?)",
                            [(run_id, k["idx"], p, m, x) for p, (m, x) in k["pipes"].items()])
            con.executemany("INSERT INTO ports VALUES (?, ?, ?, ?, ?, ?)",
                            [(run_id, k["idx"], *p) for p in k["ports"]])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return run_id


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def refresh_view(con):
    """The view `results`: one row per kernel record (a failed run: one row, no kernel), with
    the varied parameters and every figure as columns."""
    varied = json.loads((con.execute("SELECT value FROM study WHERE key = 'varied'").fetchone()
                         or ["[]"])[0])
    figures = [f for (f,) in con.execute("SELECT DISTINCT figure FROM figures ORDER BY figure")
               if f != "latency_ns"]
    cols = ["r.run_id", "r.point_index", "r.status"]
    cols += [f"(SELECT value FROM config c WHERE c.run_id = r.run_id AND c.key = '{k}') AS "
             f"{_quote(k)}" for k in varied]
    cols += ["k.kernel_idx", "k.name AS kernel", "k.latency_ns"]
    cols += [f"(SELECT value FROM figures f WHERE f.run_id = k.run_id AND f.kernel_idx = "
             f"k.kernel_idx AND f.figure = '{f}') AS {_quote(f)}" for f in figures]
    cols += ["r.wall_s", "r.message", "r.out_dir"]
    con.execute("BEGIN IMMEDIATE")
    con.execute("DROP VIEW IF EXISTS results")
    con.execute("CREATE VIEW results AS SELECT " + ",\n  ".join(cols) +
                "\nFROM runs r LEFT JOIN kernels k ON k.run_id = r.run_id"
                "\nORDER BY r.point_index, k.kernel_idx")
    con.execute("COMMIT")


def load_run(path, ident):
    """A run of the database (its run_id, or its run_key), in the shape compare reads."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    row = con.execute("SELECT run_id, run_key, status, message, out_dir, point FROM runs WHERE "
                      "run_id = ? OR run_key = ?", (typed(ident), str(ident))).fetchone()
    if row is None:
        raise LookupError(f"{path}: no run with id or key '{ident}'")
    run_id, key, status, message, out_dir, point = row
    if status != 0:
        raise LookupError(f"{path}: run {run_id} failed (exit {status}: {message})")
    config = {k: str(v) for k, v in con.execute(
        "SELECT key, value FROM config WHERE run_id = ?", (run_id,))}
    kernels = []
    for idx, name, start, lat in con.execute(
            "SELECT kernel_idx, name, start_ns, latency_ns FROM kernels WHERE run_id = ? "
            "ORDER BY kernel_idx", (run_id,)).fetchall():
        q = (run_id, idx)
        kernels.append({
            "idx": idx, "name": name, "start_ns": start, "latency_ns": lat,
            "figures": {f: (v, u) for f, v, u in con.execute(
                "SELECT figure, value, unit FROM figures WHERE run_id = ? AND kernel_idx = ?", q)},
            "pipes": {p: (m, x) for p, m, x in con.execute(
                "SELECT pipe, mean_busy_pct, max_busy_pct FROM pipes WHERE run_id = ? AND "
                "kernel_idx = ?", q)},
            "ports": con.execute("SELECT port, bytes, busy_ns, utilization_pct FROM ports "
                                 "WHERE run_id = ? AND kernel_idx = ?", q).fetchall(),
        })
    varied = " ".join(f"{k}={v}" for k, v in json.loads(point).items())
    label = f"{path}:{ident} (run {run_id}, {out_dir}; {varied})"
    return {"label": label, "config": config, "kernels": kernels}
