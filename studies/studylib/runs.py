"""One run of the simulator, in its own folder, and the figures read back from its outputs.

A run writes into RUNS/.KEY.partial-ATTEMPT/ and, once the simulator has exited and result.json
(status, message, wall time) is written, that folder is renamed RUNS/KEY/ in one step: a folder
named by its key is always complete. The local runner and a Slurm task do the same.
"""
import ctypes
import datetime
import functools
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import time
import uuid

from . import spec as spec_mod

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent):
    # A runner killed outright takes its simulator runs with it: no orphan keeps writing. Runs in
    # the child between fork and exec; a runner killed before the prctl has already left it an
    # orphan, which the signal would never reach, so it goes at once.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


class Handle:
    """A run in flight."""

    def __init__(self, run, runs_dir, binary):
        self.run = run
        self.runs_dir = runs_dir
        self.attempt = uuid.uuid4().hex[:12]
        self.tmp = os.path.join(runs_dir, f".{run.key}.partial-{self.attempt}")
        os.makedirs(self.tmp)
        self.argv = [binary, "--kernel", run.kernel, "--preset", run.preset]
        for k, v in run.sets.items():
            self.argv += ["--set", f"{k}={v}"]
        self.argv += ["--quiet", "--out"]
        self.t0 = time.time()
        with open(os.path.join(self.tmp, "stdout.txt"), "w") as out, \
                open(os.path.join(self.tmp, "stderr.txt"), "w") as err:
            self.proc = subprocess.Popen(self.argv + [self.tmp], stdout=out, stderr=err,
                                         stdin=subprocess.DEVNULL,
                                         preexec_fn=functools.partial(_die_with_parent,
                                                                      os.getpid()))
        self.timed_out = False

    def kill_for_timeout(self):
        self.timed_out = True
        self.proc.kill()


def _message(status, stderr, timed_out, timeout_s):
    if timed_out:
        return f"timed out after {timeout_s:g} s (killed)"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = "?"
        return f"killed by signal {-status} ({name})"
    if status == 0:
        return ""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    heads = [ln for ln in lines if ln.startswith("ascend-sim:") and "warning" not in ln[:30]]
    msg = (heads or lines or ["(no message on stderr)"])[0]
    return msg[:400]


def finish(h, version, timeout_s=0):
    """Writes result.json and moves the run's folder to RUNS/KEY; returns that path."""
    status = h.proc.wait()
    wall = time.time() - h.t0
    stderr = open(os.path.join(h.tmp, "stderr.txt"), errors="replace").read()
    final = os.path.join(h.runs_dir, h.run.key)
    result = {
        **h.run.to_json(),
        "status": status,
        "message": _message(status, stderr, h.timed_out, timeout_s),
        "wall_s": round(wall, 3),
        "host": socket.gethostname(),
        "finished_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "attempt": h.attempt,
        "version": version,
        "command_line": shlex.join(h.argv + [final]),
        # Slurm's array job and task ids when a task ran it ('' locally): its log's name.
        "batch_job": (f"{os.environ['SLURM_ARRAY_JOB_ID']}_{os.environ['SLURM_ARRAY_TASK_ID']}"
                      if "SLURM_ARRAY_JOB_ID" in os.environ else ""),
    }
    tmp_json = os.path.join(h.tmp, "result.json.tmp")
    with open(tmp_json, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp_json, os.path.join(h.tmp, "result.json"))
    if os.path.exists(final):
        # An older attempt (killed, timed out): keep it aside until the new one is in place.
        old = os.path.join(h.runs_dir, f".{h.run.key}.old-{h.attempt}")
        os.rename(final, old)
        os.rename(h.tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(h.tmp, final)
    return final


def execute(run, runs_dir, binary, version, timeout_s):
    """One run from start to result (a Slurm task)."""
    h = Handle(run, runs_dir, binary)
    try:
        h.proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        h.kill_for_timeout()
    return finish(h, version, timeout_s)


def clean_partials(runs_dir):
    """Folders of attempts that never finished (their runner was killed)."""
    if not os.path.isdir(runs_dir):
        return
    for name in os.listdir(runs_dir):
        if name.startswith(".") and (".partial-" in name or ".old-" in name):
            shutil.rmtree(os.path.join(runs_dir, name), ignore_errors=True)


def simulator_version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise spec_mod.SpecError(f"cannot run the simulator {binary}: {e}")
    return out.stdout.strip().replace("ascend-sim ", "")


# ---- figures out of stats.json ----

def _unit(name, units):
    if name in units:
        return units[name]
    for suffix, unit in (("_ns", "ns"), ("_GBps", "GB/s"), ("_pct", "%"), ("_bytes", "B"),
                         ("bytes", "B"), ("_us", "us")):
        if name.endswith(suffix):
            return unit
    return ""


def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def kernel_figures(rec):
    """Every numeric figure of a kernel record, flat: name -> (value, unit).

    A number is taken as it is; a per-rank list gives NAME.min, NAME.mean and NAME.max; the
    per-rank phase times (phase_max_over_cores) give phase.P, the maximum over ranks (the
    console's phase time); a dict of numbers gives NAME.SUB.
    """
    units = rec.get("units", {})
    out = {}
    for name, v in rec.items():
        if name in ("ranks", "ports", "units"):
            continue
        unit = _unit(name, units)
        if _num(v):
            out[name] = (float(v), unit)
        elif isinstance(v, list) and v and all(_num(x) for x in v):
            unit = unit.replace(" per rank", "")
            out[name + ".min"] = (float(min(v)), unit)
            out[name + ".mean"] = (sum(v) / len(v), unit)
            out[name + ".max"] = (float(max(v)), unit)
        elif isinstance(v, dict):
            prefix = "phase." if name == "phase_max_over_cores" else name + "."
            for sub, x in v.items():
                if _num(x):
                    out[prefix + sub] = (float(x), _unit(sub, {}))
                elif isinstance(x, list) and x and all(_num(y) for y in x):
                    out[prefix + sub] = (float(max(x)), _unit(sub, {}))
    ranks = rec.get("ranks", [])
    for name in ("scalar_stall_pct", "hbm_utilization_pct"):
        vals = []
        for r in ranks:
            v = r.get(name)
            vals += v if isinstance(v, list) else [v] if _num(v) else []
        if vals:
            out[name + ".mean"] = (sum(vals) / len(vals), "%")
            out[name + ".max"] = (float(max(vals)), "%")
    if rec.get("ports"):
        out["port_utilization_pct.max"] = (max(p["utilization_pct"] for p in rec["ports"]), "%")
    return out


def kernel_pipes(rec):
    """Per pipe: mean and max busy % over every core of every rank that ran the kernel."""
    per_pipe = {}
    for r in rec.get("ranks", []):
        for pipe, vals in r.get("pipe_busy_pct", {}).items():
            per_pipe.setdefault(pipe, []).extend(vals)
    return {p: (sum(v) / len(v), max(v)) for p, v in per_pipe.items() if v}


def kernels_of(stats):
    """The kernel records of a stats.json, reduced to what the database and compare hold."""
    out = []
    for i, rec in enumerate(stats.get("kernels", [])):
        out.append({
            "idx": i,
            "name": rec["name"],
            "start_ns": rec.get("start_ns", 0.0),
            "latency_ns": rec["latency_ns"],
            "figures": kernel_figures(rec),
            "pipes": kernel_pipes(rec),
            "ports": [(p["name"], p["bytes"], p["busy_ns"], p["utilization_pct"])
                      for p in rec.get("ports", [])],
        })
    return out


def read_config_ini(path):
    """The resolved parameters of config.ini: key -> value text."""
    out, section = {}, ""
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif "=" in line:
            k, v = (s.strip() for s in line.split("=", 1))
            out[f"{section}.{k}" if section else k] = v
    return out


def load(run_dir):
    """A finished run's folder as one record: result, config, simulator figures, kernels."""
    result = json.load(open(os.path.join(run_dir, "result.json")))
    stats_path = os.path.join(run_dir, "stats.json")
    cfg_path = os.path.join(run_dir, "config.ini")
    stats = json.load(open(stats_path)) if result["status"] == 0 and os.path.exists(stats_path) else {}
    result["config"] = read_config_ini(cfg_path) if stats and os.path.exists(cfg_path) else {}
    result["simulator"] = stats.get("simulator", {})
    result["kernels"] = kernels_of(stats) if stats else []
    return result


def load_out_dir(out_dir):
    """Any --out folder (a study's run or a run by hand), in the shape compare reads."""
    stats = json.load(open(os.path.join(out_dir, "stats.json")))
    cfg = os.path.join(out_dir, "config.ini")
    return {"label": out_dir, "config": read_config_ini(cfg) if os.path.exists(cfg) else {},
            "kernels": kernels_of(stats)}
