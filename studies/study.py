#!/usr/bin/env python3
"""What-if studies on ascend-sim: a sweep spec, its runs, a results database, plots, comparisons.

  study.py sweep SPEC [--quick] [--jobs N] [--work DIR] [--force] [--retry-failed] [--plot]
  study.py plot SPEC [--quick] [--work DIR] [--format png,svg]
  study.py compare A B [--ports N] [--threshold PCT]
  study.py slurm SPEC [--quick] [--work DIR] [--wait] [--no-submit]
  study.py gather SPEC [--quick] [--work DIR]
  study.py list SPEC [--quick]
  study.py task MANIFEST INDEX            (what one Slurm array task runs)

SPEC is an INI file (studies/studylib/spec.py, docs/guides/what-if-studies.md). Results go to the
spec's folder (study.db, runs/, plots, README.md), or WORK; --quick uses the spec's [quick]
values and SPEC_DIR/quick/. A and B of compare are --out folders or DB:RUN (run_id or run_key).
The simulator is build/ascend-sim of this repository, or --sim PATH, or $ASCEND_SIM.
Exit status: 0 ok; 1 some runs failed (sweep, gather) or a latency regressed (compare
--threshold); 2 bad input.
"""
import argparse
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from studylib import compare, db, plot, slurm, spec, sweep  # noqa: E402

show = sweep.show
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM_PYTHON = "/usr/bin/python3"


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


def draw_and_summarize(study, paths, command, formats=None):
    if not have_matplotlib():
        # The interpreter on PATH may be a pyenv without matplotlib; Debian's python3 has it.
        if os.path.exists(SYSTEM_PYTHON) and \
                os.path.realpath(SYSTEM_PYTHON) != os.path.realpath(sys.executable):
            argv = [SYSTEM_PYTHON, os.path.abspath(__file__), "plot", study.path,
                    "--work", paths.work, "--summary-command", command]
            argv += ["--quick"] if study.quick else []
            argv += ["--format", ",".join(formats)] if formats else []
            return subprocess.run(argv).returncode
        print("plot: matplotlib is missing (apt-get install python3-matplotlib)", file=sys.stderr)
        return 2
    for path in plot.draw(study, paths, formats):
        print(f"plot: {show(path)}")
    print(f"plot: {show(plot.summary_markdown(study, paths, command))}")
    return 0


def command_of(study):
    parts = ["python3", "studies/study.py", "sweep", os.path.relpath(study.path, REPO)]
    return shlex.join(parts + (["--quick"] if study.quick else []) + ["--plot"])


def main():
    ap = argparse.ArgumentParser(prog="study.py", description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("command", choices=["sweep", "plot", "compare", "slurm", "gather", "list",
                                        "task"])
    ap.add_argument("args", nargs="+")
    ap.add_argument("--quick", action="store_true", help="the spec's [quick] variant")
    ap.add_argument("--work", help="where the database, runs and plots go")
    ap.add_argument("--jobs", type=int, help="runs at a time (default: the spec's, or nproc)")
    ap.add_argument("--sim", default=os.environ.get("ASCEND_SIM",
                                                    os.path.join(REPO, "build", "ascend-sim")),
                    help="the simulator (default: $ASCEND_SIM, or build/ascend-sim of this repo)")
    ap.add_argument("--force", action="store_true", help="redo every run")
    ap.add_argument("--retry-failed", action="store_true", help="redo the failed runs too")
    ap.add_argument("--plot", action="store_true", help="sweep: then plot and summarize")
    ap.add_argument("--format", help="plot formats, e.g. png,svg (default: the spec's or png)")
    ap.add_argument("--summary-command", help=argparse.SUPPRESS)  # the plot step re-executed
    ap.add_argument("--ports", type=int, default=8, help="compare: ports to list per kernel")
    ap.add_argument("--threshold", type=float, help="compare: exit 1 if a latency grows more")
    ap.add_argument("--wait", action="store_true", help="slurm: wait for the array, then gather")
    ap.add_argument("--no-submit", action="store_true", help="slurm: write the job, do not submit")
    a = ap.parse_args()
    formats = a.format.split(",") if a.format else None

    if a.command == "task":
        slurm.task(a.args[0], int(a.args[1]))
        return 0
    if a.command == "compare":
        if len(a.args) != 2:
            ap.error("compare needs two runs: A B")
        try:
            A, B = compare.load(a.args[0]), compare.load(a.args[1])
        except (LookupError, OSError, ValueError) as e:
            print(f"compare: {e}", file=sys.stderr)
            return 2
        text, regressed = compare.report(A, B, a.ports, a.threshold)
        print(text)
        return 1 if regressed else 0

    try:
        study = spec.Study(a.args[0], quick=a.quick)
        todo_runs = study.runs()
    except spec.SpecError as e:
        print(f"study: {e}", file=sys.stderr)
        return 2
    paths = sweep.Paths(study, a.work)
    binary = os.path.abspath(a.sim)
    if a.command in ("sweep", "slurm") and not os.access(binary, os.X_OK):
        print(f"study: no simulator at {binary} (build it: bash .ci/bootstrap build; or --sim)",
              file=sys.stderr)
        return 2
    if a.command == "list":
        for r in todo_runs:
            print(f"{r.index:4d} [{r.key}] {r.label()}")
        print(f"{len(todo_runs)} runs")
        return 0
    if a.command in ("sweep", "slurm"):
        err = check_keys(binary, study)
        if err:
            print(f"study: {err}", file=sys.stderr)
            return 2
    command = a.summary_command or command_of(study)
    if a.command == "sweep":
        done_now, skipped, failed = sweep.run_local(study, paths, binary, a.jobs or study.jobs,
                                                    a.force, a.retry_failed)
        # 1 while any run of the spec has failed, now or before (a rerun skips those).
        rc = 1 if sweep.summary(study, paths, done_now, skipped, failed) else 0
        if a.plot:
            rc = draw_and_summarize(study, paths, command, formats) or rc
        return rc
    if a.command == "plot":
        if not os.path.exists(paths.db):
            print(f"plot: no database at {paths.db}: run the sweep first", file=sys.stderr)
            return 2
        return draw_and_summarize(study, paths, command, formats)
    if a.command == "slurm":
        con = db.connect(paths.db)
        db.write_study(con, study)
        todo, skipped = sweep.pending(study, con, a.force, a.retry_failed)
        con.close()
        if not todo:
            print(f"slurm: all {skipped} runs are in {show(paths.db)}; nothing to submit")
            return 0
        manifest, scripts = slurm.write_job(study, paths, binary, todo, sys.executable,
                                            os.path.abspath(__file__))
        print(f"slurm: {len(todo)} runs ({skipped} already done): {show(manifest)}; "
              + ", ".join(show(s) for s in scripts))
        if a.no_submit:
            return 0
        ids = slurm.submit(scripts, a.wait)
        print(f"slurm: submitted job array {', '.join(ids)}" +
              ("" if a.wait else f"; when it is done: python3 studies/study.py gather "
               f"{show(study.path)}" + (f" --work {a.work}" if a.work else "")))
        if not a.wait:
            return 0
    # gather (or slurm --wait, once the array is done)
    imported, missing = slurm.gather(study, paths)
    failed = [r for r in imported if r["status"] != 0]
    print(f"gather: {len(imported)} run(s) imported ({len(failed)} failed) into "
          f"{show(paths.db)}; {len(missing)} of the spec's {len(todo_runs)} runs "
          "have no result yet")
    return 1 if failed or missing else 0


def check_keys(binary, study):
    """The kernel, preset and every key of the spec exist (a typo fails here, not N times)."""
    import json
    out = subprocess.run([binary, "--list-params", "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        return f"{binary} --list-params failed: {out.stderr.strip()}"
    base = subprocess.run([binary, "--kernel", study.kernel, "--preset", study.preset,
                           "--dry-run"], capture_output=True, text=True)
    if base.returncode != 0:
        return f"{study.path}: kernel {study.kernel}, preset {study.preset}: " + \
            base.stderr.strip().splitlines()[-1]
    known = {p["key"] for p in json.loads(out.stdout)}
    unknown = [k for k in study.keys() if k not in known]
    if unknown:
        import difflib
        hints = [f"{k}" + (f" (did you mean {m[0]}?)" if (m := difflib.get_close_matches(
            k, known, 1)) else "") for k in unknown]
        return f"{study.path}: unknown parameter(s): " + ", ".join(hints)
    return None


if __name__ == "__main__":
    sys.exit(main())
