"""The same spec as a Slurm job array: one task per pending run, then a gather into the database.

Each task runs exactly what the local runner runs (runs.execute) and leaves RUNS/KEY/ with its
result.json; `gather` puts every finished folder the database does not have yet into it, by the
same import as the local path, so both give the same database.
"""
import json
import os
import shlex
import subprocess
import sys
import time

from . import db, runs, sweep

MAX_ARRAY = 1000  # Slurm's default MaxArraySize is 1001 (indices 0..1000)


def write_job(study, paths, binary, todo, python, study_py):
    slurm_dir = os.path.join(paths.work, "slurm")
    os.makedirs(os.path.join(slurm_dir, "logs"), exist_ok=True)
    os.makedirs(paths.runs, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    manifest = os.path.join(slurm_dir, f"manifest-{stamp}.json")
    with open(manifest, "w") as f:
        json.dump({"binary": binary, "version": runs.simulator_version(binary),
                   "runs_dir": paths.runs, "timeout_s": study.timeout_s,
                   "runs": [r.to_json() for r in todo]}, f, indent=1)
    opts = study.slurm
    scripts = []
    for chunk, offset in enumerate(range(0, len(todo), MAX_ARRAY)):
        n = min(MAX_ARRAY, len(todo) - offset)
        limit = f"%{opts['max_parallel']}" if opts.get("max_parallel") else ""
        lines = ["#!/bin/bash",
                 f"#SBATCH --job-name=study-{study.name}",
                 f"#SBATCH --array=0-{n - 1}{limit}",
                 f"#SBATCH --output={slurm_dir}/logs/%A_%a.out",
                 f"#SBATCH --cpus-per-task={opts.get('cpus_per_task', '1')}"]
        for key, flag in (("partition", "--partition"), ("time", "--time"), ("mem", "--mem"),
                          ("account", "--account")):
            if opts.get(key):
                lines.append(f"#SBATCH {flag}={opts[key]}")
        for extra in shlex.split(opts.get("extra", "")):
            lines.append(f"#SBATCH {extra}")
        lines += ["# One run of the study per task: runs/KEY/ with its result.json.",
                  f"exec {shlex.quote(opts.get('python', python))} {shlex.quote(study_py)} task "
                  f"{shlex.quote(manifest)} $((SLURM_ARRAY_TASK_ID + {offset}))", ""]
        script = os.path.join(slurm_dir, f"array-{stamp}-{chunk}.sh")
        with open(script, "w") as f:
            f.write("\n".join(lines))
        scripts.append(script)
    return manifest, scripts


def submit(scripts, wait):
    ids = []
    for s in scripts:
        cmd = ["sbatch", "--parsable"] + (["--wait"] if wait and len(scripts) == 1 else []) + [s]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0 and not (wait and out.stdout.strip()):
            raise RuntimeError(f"sbatch failed (exit {out.returncode}): {out.stderr.strip()}")
        ids.append(out.stdout.strip().split(";")[0])
    if wait and len(scripts) > 1:
        # Several arrays: wait for all with one dependency job.
        subprocess.run(["sbatch", "--wait", "--parsable", f"--dependency=afterany:{':'.join(ids)}",
                        "--output=/dev/null", "--wrap=true"], capture_output=True, text=True)
    return ids


def task(manifest_path, index):
    m = json.load(open(manifest_path))
    run = m["runs"][index]
    final = runs.execute(runs.spec_mod.Run.from_json(run), m["runs_dir"], m["binary"],
                         m["version"], m["timeout_s"])
    rec = json.load(open(os.path.join(final, "result.json")))
    print(f"task {index}: run {rec['index']} [{rec['key']}]: exit {rec['status']} "
          f"{rec['message']}".rstrip())


def gather(study, paths):
    """Imports every finished run folder the database lacks; returns (imported, missing runs)."""
    con = db.connect(paths.db)
    db.write_study(con, study)
    have = db.done(con)
    imported = []
    for name in sorted(os.listdir(paths.runs)) if os.path.isdir(paths.runs) else []:
        d = os.path.join(paths.runs, name)
        res = os.path.join(d, "result.json")
        if name.startswith(".") or not os.path.exists(res):
            continue
        r = json.load(open(res))
        if have.get(r["key"], (None, None))[1] == r["attempt"]:
            continue
        imported.append(sweep.import_dir(con, paths, d))
    db.refresh_view(con)
    have = db.done(con)
    missing = [r for r in study.runs() if r.key not in have]
    con.close()
    for rec in imported:
        if rec["status"] != 0:
            print(f"FAIL run {rec['index']} [{rec['key']}] {sweep.label(rec)}: exit "
                  f"{rec['status']}: {rec['message']}", file=sys.stderr)
    return imported, missing
