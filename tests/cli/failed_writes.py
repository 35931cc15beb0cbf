#!/usr/bin/env python3
"""Every write the CLI makes, made to fail: a write that fails is exit 2 with one stderr
line, never a silent 0 (docs/cli.md, "Exit status").

- stdout on /dev/full and closed (`>&-`), for every command: one line "cannot write
  the output to stdout" and exit 2;
- with stdout closed, a file an option writes is still whole (the closed descriptor's
  number is not handed to the file, where stdout's text would land);
- every file an option writes (--trace, --timeline, --heatmap, --csv, --jsonl, --plot,
  --emit-jobs, --slurm, --html, --plots), given /dev/full: one line naming the option and
  the file, exit 2, and under --json one JSON object with the error.

usage: failed_writes.py TESSERA_BINARY
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# One invocation of every command that writes to stdout (each exits 0 on a normal run).
COMMANDS = [
    "--help",
    "--version",
    "help run",
    "run --help",
    "run --fabric mesh:2x2 --collective alltoall",
    "run --fabric mesh:2x2 --collective alltoall --json",
    "run --model tlm --fabric mesh:2x2 --collective bcast",
    "schedule --fabric mesh:2x2 --collective alltoall --algorithm gen",
    "analyze --fabric mesh:2x2 --collective alltoall --algorithm gen",
    "analyze --fabric mesh:2x2 --collective alltoall --algorithm gen --json",
    "compare --fabric mesh:2x2 --collective alltoall --algorithms gen,pex",
    "trees --fabric torus:3x3 --algorithm single",
    "models",
    "models --json",
    "crosscheck --models alphabeta,alphabeta --fabric ring:4 --collective bcast",
    "sweep --fabric ring:4 --collective bcast --bytes 64,128",
    "sweep --fabric ring:4 --collective bcast --bytes 64,128 --csv {d}/s.csv",
    "reproduce grama",
]

# A file option given /dev/full: (what the stderr line names, arguments).
FILES = [
    ("--trace '/dev/full': write failed", "run --fabric ring:4 --collective bcast --trace /dev/full"),
    ("--timeline '/dev/full': write failed",
     "run --fabric ring:4 --collective bcast --timeline /dev/full"),
    ("--heatmap '/dev/full': write failed",
     "run --model tlm --fabric ring:4 --collective bcast --heatmap /dev/full"),
    ("--csv '/dev/full': write failed", "sweep --fabric ring:4 --collective bcast --bytes 64,128 --csv /dev/full"),
    ("--jsonl '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 64,128 --csv {d}/j.csv --jsonl /dev/full"),
    ("--plot '/dev/full': write failed",
     "sweep --model tlm --fabric mesh:2x2 --traffic uniform --cycles 400 --rate 0.01,0.02 "
     "--csv {d}/p.csv --plot /dev/full"),
    ("--emit-jobs '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 64,128 --job-dir {d}/e --emit-jobs /dev/full"),
    ("--slurm '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 64,128 --job-dir {d}/e --slurm /dev/full"),
    ("--html '/dev/full'", "reproduce grama --html /dev/full"),
]

problems = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        problems.append(what)


def run(binary, args, d, redirect):
    cmd = f"{shlex.quote(binary)} {args.replace('{d}', shlex.quote(d))} {redirect}"
    return subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=300,
                          env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))


def one_line(err):
    return err.endswith("\n") and err.count("\n") == 1


def main():
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="tessera_writes_") as d:
        for args in COMMANDS:
            for redirect, cause in ((">/dev/full", "No space left on device"),
                                    (">&-", "Bad file descriptor")):
                r = run(binary, args, d, redirect)
                err = r.stderr.decode("utf-8", "replace")
                want = f"tessera: cannot write the output to stdout: {cause}\n"
                check(r.returncode == 2 and err.endswith(want) and err.count(want) == 1,
                      f"tessera {args} {redirect}: exit {r.returncode}, stderr ends "
                      f"{err[-120:]!r}")
        # A closed stdout does not hand its number to a file the run writes.
        trace = os.path.join(d, "t.json")
        r = run(binary, f"run --fabric ring:4 --collective bcast --trace {trace}", d, ">&-")
        with open(trace, encoding="utf-8") as f:
            text = f.read()
        try:
            whole = "traceEvents" in json.loads(text)
        except ValueError:
            whole = False
        check(r.returncode == 2 and whole,
              f"stdout closed: exit {r.returncode} and the --trace file is whole JSON "
              f"({text[:60]!r})")
        for names, args in FILES:
            for json_mode in (False, True):
                a = args + (" --json" if json_mode else "")
                r = run(binary, a, d, "")
                err = r.stderr.decode("utf-8", "replace")
                out = r.stdout.decode("utf-8", "replace")
                ok = r.returncode == 2 and one_line(err) and names in err
                if json_mode:
                    try:
                        j = json.loads(out)
                        ok = ok and j.get("exit_status") == 2 and names in j.get("error", "")
                    except ValueError:
                        ok = False
                else:
                    ok = ok and out == ""
                check(ok, f"tessera {a}: exit {r.returncode}, stderr {err[:160]!r}, "
                      f"stdout {out[:80]!r}")
    print(f"{len(COMMANDS)} commands with stdout full and closed, {len(FILES)} file options "
          f"on /dev/full: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
