#!/usr/bin/env python3
"""A sweep handed to GNU parallel (Debian's `parallel`) and to a Slurm array script,
then collected, must give the rows the same sweep gives run locally (docs/sweeps.md).
Usage: sweep_parallel.py TESSERA
"""
import os
import subprocess
import sys
import tempfile
import time

tessera = sys.argv[1]
SWEEP = ["--fabric", "ring:8,hypercube:3", "--collective", "allgather", "--bytes", "64:1024:x4",
         "--param", "ts=10,100"]
problems = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        problems.append(what)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


with tempfile.TemporaryDirectory() as d:
    local = run([tessera, "sweep", *SWEEP, "--jobs", "2", "--csv", f"{d}/local.csv"])
    check(local.returncode == 0, f"local sweep: exit {local.returncode} {local.stderr.strip()}")

    emit = run([tessera, "sweep", *SWEEP, "--emit-jobs", f"{d}/jobs.txt", "--slurm",
                f"{d}/jobs.sbatch", "--job-dir", f"{d}/jobs"])
    check(emit.returncode == 0, f"emit: exit {emit.returncode} {emit.stderr.strip()}")
    lines = open(f"{d}/jobs.txt").read().splitlines()
    check(len(lines) == 12, f"one command a run ({len(lines)} for 12)")

    start = time.monotonic()
    par = run(["parallel", "-j", "2"], stdin=open(f"{d}/jobs.txt"))
    took = time.monotonic() - start
    check(par.returncode == 0, f"GNU parallel ran the 12 jobs in {took:.2f} s "
          f"(exit {par.returncode} {par.stderr.strip()[:200]})")
    got = run([tessera, "sweep", "--collect", f"{d}/jobs", "--csv", f"{d}/collected.csv"])
    check(got.returncode == 0, f"collect: exit {got.returncode} {got.stderr.strip()}")
    same = open(f"{d}/local.csv").read() == open(f"{d}/collected.csv").read()
    check(same, "the collected CSV is the local sweep's, byte for byte")

    # The Slurm script's body, as one array task would run it (no Slurm here).
    os.remove(f"{d}/jobs/run-000007.json")
    missing = run([tessera, "sweep", "--collect", f"{d}/jobs"])
    check(missing.returncode == 1 and "did not run" in missing.stderr,
          f"a job with no row makes the collection exit 1 ({missing.returncode})")
    task = run(["sh", f"{d}/jobs.sbatch"], env={**os.environ, "SLURM_ARRAY_TASK_ID": "7"})
    check(task.returncode == 0, f"the Slurm script runs task 7 (exit {task.returncode} "
          f"{task.stderr.strip()})")
    again = run([tessera, "sweep", "--collect", f"{d}/jobs", "--csv", f"{d}/again.csv"])
    check(again.returncode == 0 and open(f"{d}/again.csv").read() == open(f"{d}/local.csv").read(),
          "with task 7 rerun by the Slurm script the rows are whole again")

for p in problems:
    print("FAIL", p)
sys.exit(1 if problems else 0)
