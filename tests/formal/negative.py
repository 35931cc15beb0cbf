#!/usr/bin/env python3
"""The formal flow catches a bug: scripts/formal.py OUT NAME on a negative check (a
deliberately broken variant) must exit 1, record the check as failed in OUT/summary.json
with the assertion that failed, and write a non-empty VCD counterexample.

Usage: negative.py FORMAL_PY OUT NAME ASSERTION
"""
import json
import os
import subprocess
import sys


def main(argv):
    formal, out, name, assertion = argv[1:5]
    proc = subprocess.run([sys.executable, formal, out, name], capture_output=True, text=True)
    print(proc.stdout + proc.stderr, end="")
    if proc.returncode != 1:
        print(f"FAIL: expected exit 1 from the broken variant, got {proc.returncode}")
        return 1
    checks = json.load(open(os.path.join(out, "summary.json")))["checks"]
    check = next((c for c in checks if c["name"] == name), None)
    if check is None or check["status"] != "failed":
        print(f"FAIL: {name} not recorded as failed")
        return 1
    if not any(f.endswith(assertion) for f in check["failed"]):
        print(f"FAIL: {assertion} not among the failed assertions {check['failed']}")
        return 1
    vcd = check["vcd"]
    if not vcd or not os.path.isfile(vcd) or os.path.getsize(vcd) == 0:
        print(f"FAIL: no counterexample VCD for {name}")
        return 1
    if f"counterexample: {vcd}" not in proc.stdout:
        print("FAIL: the counterexample's path is not printed")
        return 1
    print(f"ok: {name} fails in the {check.get('failed_in')} case on {assertion}, counterexample {vcd}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
