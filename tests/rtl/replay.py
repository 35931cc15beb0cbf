#!/usr/bin/env python3
"""A testbench run ends with its seed, and a failing one with the command that replays it
(tb/common/tb_main.hpp, docs/rtl.md "Add your own golden test").

Runs CMD and requires exit status EXIT and a stderr line matching PATTERN. After an exit
0 or 1, stdout must end with "<tb>: seed S" (S the --seed given, else 1); after an exit 1,
stderr must hold "<tb>: replay: <command> --seed S", and running that command must give
the same exit status, stdout and stderr: the failure replays exactly.

usage: replay.py EXIT PATTERN -- CMD...
"""
import os
import re
import shlex
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main(argv):
    want_exit, pattern = int(argv[1]), re.compile(argv[2])
    if argv[3] != "--":
        print(__doc__)
        return 2
    cmd = argv[4:]
    code, out, err = run(cmd)
    print(f"$ {shlex.join(cmd)}\n(exit {code})\n{out}{err}", end="")
    bad = []
    if code != want_exit:
        bad.append(f"exit {code}, want {want_exit}")
    if not any(pattern.search(line) for line in err.splitlines()):
        bad.append(f"no stderr line matches {pattern.pattern!r}")
    tb = os.path.basename(cmd[0])
    seed = cmd[cmd.index("--seed") + 1] if "--seed" in cmd[:-1] else "1"
    if want_exit in (0, 1) and not out.endswith(f"{tb}: seed {seed}\n"):
        bad.append(f"stdout does not end with '{tb}: seed {seed}'")
    if want_exit == 1:
        lines = [l for l in err.splitlines() if l.startswith(f"{tb}: replay: ")]
        if len(lines) != 1 or not lines[0].endswith(f" --seed {seed}"):
            bad.append(f"no single '{tb}: replay: ... --seed {seed}' line")
        else:
            again = shlex.split(lines[0][len(f"{tb}: replay: "):])
            print(f"$ {shlex.join(again)}")
            if run(again) != (code, out, err):
                bad.append("the replay command gave another result")
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
