#!/usr/bin/env python3
"""The Slurm path against a real single-node Slurm started here, compared with the local path.

  test_slurm.py BINARY

Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm) on localhost from a generated
minimal slurm.conf in a temporary folder (own ports, own munge socket: nothing of the machine's
is used or changed), sweeps one spec locally and as a job array (`study.py slurm --wait`, which
submits with sbatch --array and gathers), and checks that both databases hold the same rows and
figures (wall times, hosts and attempts aside). Exit 77 (ctest: skipped) with the reason when
Slurm is not installed or its daemons cannot start on this machine; stops every daemon it
started, by pid.
"""
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STUDY = os.path.join(os.path.dirname(os.path.dirname(HERE)), "studies", "study.py")
SKIP = 77

SPEC = """
[study]
name = slurm_vs_local
kernel = dispatch
jobs = 2
[fixed]
run.check = 0
sim.payload = 0
ep.world_size = 4
dispatch.bs = 16
dispatch.hidden = 1024
[vary]
dispatch.send_split = entry, token
fabric.port_GBps = 0, 100, 400     # 0 is out of range: a failed run goes through both paths
"""

# Columns that may differ between two executions of the same run.
VOLATILE = {"run_id", "batch_job", "wall_s", "sim_wall_s", "sim_peak_rss_MiB", "host", "finished_at",
            "attempt", "command_line"}


def first_difference(a, b, path=""):
    """Where two JSON values first differ (a dotted path), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path} ({json.dumps(a)[:40]} / {json.dumps(b)[:40]})"


def outputs_alike(local, remote):
    """Each successful run's stats.json and config.ini, from the local sweep (two workers at a
    time) against the Slurm array's: (files alike, [files that differ])."""
    def outs(work):
        con = sqlite3.connect(os.path.join(work, "study.db"))
        return {k: os.path.join(work, d) for k, d in
                con.execute("SELECT run_key, out_dir FROM runs WHERE status = 0")}

    def stats(path):
        with open(path) as f:
            j = json.load(f)
        for k in ("wall_s", "peak_rss_MiB", "event_wall_s", "kernel_wall_s"):
            j["simulator"].pop(k, None)
        for k in ("command_line", "argv"):  # they name the run's own folder
            j.get("run", {}).pop(k, None)
        return j

    a, b = outs(local), outs(remote)
    same, differ = 0, []
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            differ.append(f"{key}: only one side ran it")
            continue
        for name in ("stats.json", "config.ini"):
            pa, pb = os.path.join(a[key], name), os.path.join(b[key], name)
            if name == "stats.json":
                ja, jb = stats(pa), stats(pb)
                alike = ja == jb
                if not alike:
                    differ.append(f"{key}/{name} at {first_difference(ja, jb)}")
                    continue
            else:
                with open(pa, "rb") as fa, open(pb, "rb") as fb:
                    alike = fa.read() == fb.read()
            if alike:
                same += 1
            else:
                differ.append(f"{key}/{name}")
    return same, differ


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def skip(reason, logs=()):
    print(f"SKIP: {reason}")
    for path in logs:
        if os.path.exists(path):
            print(f"--- {path}\n" + open(path, errors="replace").read()[-2000:])
    sys.exit(SKIP)


def table(db, sql):
    con = sqlite3.connect(db)
    cur = con.execute(sql)
    cols = [d[0] for d in cur.description]
    out = [dict(zip(cols, r)) for r in cur.fetchall()]
    con.close()
    return out


def snapshot(db):
    """Every row of every table, keyed by run_key instead of run_id, volatile columns dropped."""
    snap = {}
    snap["runs"] = sorted(tuple((k, v) for k, v in r.items() if k not in VOLATILE)
                          for r in table(db, "SELECT * FROM runs"))
    for t in ("config", "kernels", "figures", "pipes", "ports"):
        snap[t] = sorted(tuple((k, v) for k, v in r.items() if k not in VOLATILE)
                         for r in table(db, f"SELECT r.run_key, t.* FROM {t} t JOIN runs r "
                                            "USING (run_id)"))
    return snap


class Cluster:
    def __init__(self, tmp):
        self.tmp = tmp
        self.pidfiles = []
        for d in ("munge", "state", "spool", "log"):
            os.makedirs(os.path.join(tmp, d))
        os.chmod(os.path.join(tmp, "munge"), 0o700)
        self.conf = os.path.join(tmp, "slurm.conf")
        self.logs = [os.path.join(tmp, "log", n) for n in ("munged.log", "slurmctld.log",
                                                           "slurmd.log")]

    def start(self):
        t = self.tmp
        key = os.path.join(t, "munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        sock = os.path.join(t, "munge", "munge.sock")
        pid = os.path.join(t, "munge", "munged.pid")
        self.pidfiles.append(pid)
        r = subprocess.run(["munged", "--force", f"--key-file={key}", f"--socket={sock}",
                            f"--pid-file={pid}", f"--log-file={self.logs[0]}",
                            f"--seed-file={os.path.join(t, 'munge', 'seed')}"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            skip(f"munged does not start here: {r.stderr.strip()}", self.logs)
        host = socket.gethostname().split(".")[0]
        with open(self.conf, "w") as f:
            f.write(f"""ClusterName=studytest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
StateSaveLocation={t}/state
SlurmdSpoolDir={t}/spool
SlurmctldPidFile={t}/slurmctld.pid
SlurmdPidFile={t}/slurmd.pid
SlurmctldLogFile={self.logs[1]}
SlurmdLogFile={self.logs[2]}
# No cgroups: processes are tracked by parentage, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
NodeName=studynode NodeHostname={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=study Nodes=studynode Default=YES MaxTime=INFINITE State=UP
""")
        os.environ["SLURM_CONF"] = self.conf
        self.pidfiles += [os.path.join(t, "slurmctld.pid"), os.path.join(t, "slurmd.pid")]
        for cmd in (["slurmctld", "-f", self.conf, "-i"],
                    ["slurmd", "-f", self.conf, "-N", "studynode"]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                skip(f"{cmd[0]} does not start here (exit {r.returncode}): {r.stderr.strip()}",
                     self.logs)
        t0 = time.time()
        while time.time() - t0 < 60:
            r = subprocess.run(["sinfo", "-h", "-N", "-o", "%t"], capture_output=True, text=True)
            if r.stdout.strip() == "idle":
                print(f"ok   a one-node Slurm is up ({time.time() - t0:.1f} s): {t}")
                return
            time.sleep(0.5)
        skip(f"the Slurm node did not become idle in 60 s (sinfo: {r.stdout.strip()} "
             f"{r.stderr.strip()})", self.logs)

    def stop(self):
        for pidfile in reversed(self.pidfiles):
            try:
                pid = int(open(pidfile).read().split()[0])
                os.kill(pid, 15)
            except (OSError, ValueError):
                pass
        time.sleep(0.5)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    missing = [t for t in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo")
               if not shutil.which(t, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")]
    if missing:
        skip(f"not installed: {', '.join(missing)} (apt-get install slurm-wlm munge; "
             "bash .ci/bootstrap installs them)")
    if os.geteuid() != 0:
        skip("the test runs slurmd as root (as CI does); run it as root")
    os.environ["PATH"] += ":/usr/sbin:/sbin"
    fails = []

    def check(cond, what):
        print(f"{'ok  ' if cond else 'FAIL'} {what}")
        if not cond:
            fails.append(what)

    with tempfile.TemporaryDirectory(prefix="studies-slurm-") as tmp:
        os.chmod(tmp, 0o755)
        spec = os.path.join(tmp, "spec.ini")
        with open(spec, "w") as f:
            f.write(SPEC)
        local, remote = os.path.join(tmp, "local"), os.path.join(tmp, "slurm")
        r = subprocess.run([sys.executable, STUDY, "sweep", spec, "--work", local, "--sim",
                            binary], capture_output=True, text=True, timeout=600)
        check(r.returncode == 1, f"the local sweep: 6 runs, the 2 at port 0 fail (exit {r.returncode})")
        cluster = Cluster(os.path.join(tmp, "cluster"))
        try:
            cluster.start()
            t0 = time.time()
            r = subprocess.run([sys.executable, STUDY, "slurm", spec, "--work", remote, "--sim",
                                binary, "--wait"], capture_output=True, text=True, timeout=600)
            print(r.stdout + r.stderr)
            check("sbatch" not in r.stderr and "submitted job array" in r.stdout,
                  f"study.py slurm submitted one array ({time.time() - t0:.1f} s with the wait)")
            check(r.returncode == 1 and "6 run(s) imported (2 failed)" in r.stdout,
                  "the gather imported every task's run, the 2 failed ones too")
            script = [f for f in os.listdir(os.path.join(remote, "slurm")) if f.endswith(".sh")]
            text = open(os.path.join(remote, "slurm", script[0])).read() if script else ""
            check("#SBATCH --array=0-5" in text, "one array task per run (--array=0-5)")
            logs = os.listdir(os.path.join(remote, "slurm", "logs"))
            check(len(logs) == 6, f"six task logs written by Slurm: {sorted(logs)}")
            jobs = sorted(j for (j,) in sqlite3.connect(os.path.join(remote, "study.db")).execute(
                "SELECT batch_job FROM runs"))
            check(sorted(f"{j}.out" for j in jobs) == sorted(logs),
                  f"each run in the database names the array task that ran it: {jobs}")
            a, b = snapshot(os.path.join(local, "study.db")), snapshot(os.path.join(remote,
                                                                                     "study.db"))
            for t in a:
                diff = set(a[t]) ^ set(b[t])
                check(a[t] == b[t] and len(a[t]) > 0,
                      f"table {t}: {len(a[t])} rows, the same from Slurm as from the local "
                      f"run" + (f"; differ: {sorted(diff)[:2]}" if diff else ""))
            same, differ = outputs_alike(local, remote)
            check(same > 0 and not differ,
                  f"stats.json and config.ini of {same} runs alike from two local workers and from "
                  f"Slurm's tasks (the simulator's wall time, memory and command line aside)"
                  + (f"; differ: {differ[:3]}" if differ else ""))
            r = subprocess.run([sys.executable, STUDY, "slurm", spec, "--work", remote, "--sim",
                                binary], capture_output=True, text=True)
            check(r.returncode == 0 and "nothing to submit" in r.stdout,
                  "resubmitting a finished study submits nothing")
        finally:
            cluster.stop()
    print(f"slurm: {len(fails)} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
