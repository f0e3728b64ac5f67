"""The local runner: the spec's runs, one simulator process each, `jobs` at a time."""
import os
import sys
import time

from . import db, runs


def show(path):
    """A path as the user reads it: relative when below the current folder."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


class Paths:
    """Where a study keeps its results: the database, the runs' folders, plots and summary."""

    def __init__(self, study, work=None):
        default = os.path.join(study.dir, "quick") if study.quick else study.dir
        self.work = os.path.abspath(work or default)
        self.db = os.path.join(self.work, "study.db")
        self.runs = os.path.join(self.work, "runs")


def pending(study, con, force=False, retry_failed=False):
    """The runs still to do and how many are already done."""
    have = db.done(con)
    todo, skipped = [], 0
    for r in study.runs():
        st = have.get(r.key, (None,))[0]
        if st is None or force or st not in db.FINAL_STATUSES or (retry_failed and st != 0):
            todo.append(r)
        else:
            skipped += 1
    return todo, skipped


def import_dir(con, paths, run_dir):
    rec = runs.load(run_dir)
    db.import_run(con, rec, os.path.relpath(run_dir, paths.work))
    return rec


class Progress:
    """A bar rewritten in place on a terminal; a line per finished run elsewhere (logs, CI)."""

    def __init__(self, total):
        self.total, self.done, self.failed = total, 0, 0
        self.t0 = time.time()
        self.tty = sys.stderr.isatty()
        self.drawn = 0.0

    def line(self, running):
        width = 30
        filled = width * self.done // max(self.total, 1)
        el = time.time() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else 0
        return (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                f"failed {self.failed} running {running} {el:.0f} s"
                + (f" eta {eta:.0f} s" if self.done else ""))

    def update(self, running, force=False):
        if self.tty and (force or time.time() - self.drawn > 0.25):
            self.drawn = time.time()
            sys.stderr.write("\r" + self.line(running) + "\033[K")
            sys.stderr.flush()

    def finished(self, rec, running):
        self.done += 1
        ok = rec["status"] == 0
        self.failed += not ok
        text = (f"FAIL run {rec['index']} [{rec['key']}] {label(rec)}: exit {rec['status']}: "
                f"{rec['message']}" if not ok else None)
        if self.tty:
            if text:
                sys.stderr.write("\r\033[K" + text + "\n")
            self.update(running, force=True)
        else:
            sys.stderr.write((text or f"ok   run {rec['index']} [{rec['key']}] {label(rec)} "
                              f"({rec['wall_s']:.1f} s)") + f"  [{self.done}/{self.total}]\n")
        sys.stderr.flush()

    def close(self):
        if self.tty:
            sys.stderr.write("\r\033[K")


def label(rec):
    return " ".join(f"{k}={v}" for k, v in rec["point"].items()) or "(the base run)"


def run_local(study, paths, binary, jobs, force=False, retry_failed=False):
    """Runs what is not done yet; returns (done now, skipped, failed records)."""
    os.makedirs(paths.runs, exist_ok=True)
    con = db.connect(paths.db)
    db.write_study(con, study)
    db.refresh_view(con)  # the view exists from the start, even if this sweep is stopped
    runs.clean_partials(paths.runs)
    todo, skipped = pending(study, con, force, retry_failed)
    version = runs.simulator_version(binary)
    stale = con.execute("SELECT count(*) FROM runs WHERE version != ?", (version,)).fetchone()[0]
    if stale:
        print(f"sweep: note: {stale} run(s) in the database were made by another simulator build "
              f"than {version}; --force redoes them", file=sys.stderr)
    print(f"sweep: {study.name}: {len(todo) + skipped} runs, {skipped} already in "
          f"{show(paths.db)}, {len(todo)} to run, {jobs} at a time", file=sys.stderr)
    progress = Progress(len(todo))
    failed, queue, running = [], list(todo), []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                running.append(runs.Handle(queue.pop(0), paths.runs, binary))
            progress.update(len(running))
            time.sleep(0.05)
            for h in list(running):
                if h.proc.poll() is None:
                    if time.time() - h.t0 > study.timeout_s:
                        h.kill_for_timeout()
                    continue
                running.remove(h)
                rec = import_dir(con, paths, runs.finish(h, version, study.timeout_s))
                if rec["status"] != 0:
                    failed.append(rec)
                progress.finished(rec, len(running))
    except KeyboardInterrupt:
        for h in running:
            h.proc.kill()
        progress.close()
        print(f"\nsweep: interrupted: {progress.done} run(s) saved, {len(running)} stopped, "
              f"{len(queue)} not started; the same command goes on from here", file=sys.stderr)
        raise SystemExit(130)
    progress.close()
    db.refresh_view(con)
    con.close()
    return len(todo), skipped, failed


def summary(study, paths, done_now, skipped, failed):
    con = db.connect(paths.db)
    total, ok = con.execute("SELECT count(*), sum(status = 0) FROM runs").fetchone()
    keys = {r.key for r in study.runs()}
    bad = [r for r in con.execute("SELECT point_index, run_key, point, status, message FROM runs "
                                  "WHERE status != 0 ORDER BY point_index") if r[1] in keys]
    con.close()
    print(f"sweep: {study.name}: {done_now} run(s) now, {skipped} skipped (already done), "
          f"{len(failed)} failed now; the database has {total} run(s), {ok or 0} ok, "
          f"{len(bad)} failed: {show(paths.db)}")
    for idx, key, point, status, msg in bad:
        print(f"  failed: run {idx} [{key}] {point}: exit {status}: {msg}")
    return len(bad)
