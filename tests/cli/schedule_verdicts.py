#!/usr/bin/env python3
"""One verdict per schedule file: `analyze` and `run` on every model agree.

Each schedule below (4 tiles, run on mesh:2x2 with alphabeta, tlm and rtl, and on
hypercube:2) has an expected verdict written from docs/schedule-format.md "Checker
semantics", not from the program's output:

  verified         exit 0, "verified": true, "bytes_checked" the bytes derived below;
  nothing checked  exit 0, "verified": false, "bytes_checked": 0, a note on stderr;
  failed           exit 1, one stderr line naming the cause;
  refused          exit 2, one stderr line naming the op and both sizes.

`analyze --json` and every `run --json` must give the expected verdict, so they agree.
Then 0-byte and 8-byte patterns on tlm and rtl: a pattern with nothing to check is not
verified either.

usage: schedule_verdicts.py TESSERA_BINARY EXAMPLES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

BLOCK = 64
RUNS = [("mesh:2x2", "alphabeta"), ("mesh:2x2", "tlm"), ("mesh:2x2", "rtl"),
        ("hypercube:2", "tlm"), ("hypercube:2", "rtl")]


def send(peer, nbytes, blocks=None):
    op = {"op": "send", "peer": peer, "bytes": nbytes}
    if blocks is not None:
        op["send_blocks"] = blocks
    return op


def recv(peer, nbytes):
    return {"op": "recv", "peer": peer, "bytes": nbytes}


def relay(first, relayed, expected):
    """Tile 0 sends block 0 to tile 1 as `first` bytes, tile 1 relays it to tile 2."""
    return {"tiles": 4, "ops": [[send(1, first, [0])],
                                [recv(0, first), send(2, relayed, [0])],
                                [recv(1, expected)], []]}


def alltoall(nbytes):
    """Complete exchange on 4 tiles, pairwise: block s*4+t goes from s to t in one
    exchange of step s xor t (Bokhari91's pairwise exchange)."""
    ops = []
    for t in range(4):
        ops.append([{"op": "exchange", "peer": t ^ k, "bytes": nbytes, "step": k,
                     "send_blocks": [t * 4 + (t ^ k)], "recv_blocks": [(t ^ k) * 4 + t]}
                    for k in range(1, 4)])
    return {"tiles": 4, "collective": "alltoall", "ops": ops}


# name -> (schedule, verdict, bytes checked or the text the refusal/failure names)
CASES = {
    # tiles 1 and 2 each end holding the 64-byte block they received
    "good_relay": (relay(BLOCK, BLOCK, BLOCK), "verified", 2 * BLOCK),
    # every tile wants the 3 blocks of the others
    "alltoall": (alltoall(BLOCK), "verified", 4 * 3 * BLOCK),
    "truncating_relay": (relay(BLOCK, 1, 1), "refused",
                         "ops[1][1] sends block 0 as 1 byte, but block 0 has 64 bytes (as ops[0][0]"),
    "padding_relay": (relay(BLOCK, 2 * BLOCK, 2 * BLOCK), "refused",
                      "ops[1][1] sends block 0 as 128 bytes, but block 0 has 64 bytes"),
    # a 1-byte send without block_bytes of a block the tile sent at 64 bytes before
    "one_byte_send": ({"tiles": 4, "ops": [[send(1, BLOCK, [0]), send(2, 1, [0])],
                                           [recv(0, BLOCK)], [recv(0, BLOCK)], []]},
                      "refused", "ops[0][1] sends block 0 as 1 byte, but block 0 has 64 bytes"),
    "all_zero": (alltoall(0), "nothing checked", 0),
    "only_sync": ({"tiles": 4, "ops": [[{"op": "barrier"}, {"op": "pair_sync", "peer": 1}],
                                       [{"op": "barrier"}, {"op": "pair_sync", "peer": 0}],
                                       [{"op": "barrier"}], [{"op": "barrier"}]]},
                  "nothing checked", 0),
    "size_mismatch": ({"tiles": 4, "ops": [[send(1, 8)], [recv(0, 16)], [], []]},
                      "failed", "16"),
    "never_received": ({"tiles": 4, "ops": [[send(1, 8)], [], [], []]}, "failed", "tile 1"),
    "unmatched_receive": ({"tiles": 4, "ops": [[], [recv(0, 8)], [], []]}, "failed", "tile 1"),
}
EXIT = {"verified": 0, "nothing checked": 0, "failed": 1, "refused": 2}


def tessera(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, timeout=120,
                       env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def judge(what, code, out, err, verdict, detail):
    problems = []
    if code != EXIT[verdict]:
        problems.append(f"exit {code}, expected {EXIT[verdict]} ({verdict}): {err.strip()[:300]}")
        return problems
    if err.count("\n") > 1:
        problems.append(f"stderr is more than one line: {err[:300]!r}")
    j = json.loads(out)
    if verdict == "refused":
        if detail not in j.get("error", "") or detail not in err:
            problems.append(f"the refusal does not name {detail!r}: {err.strip()}")
        return problems
    if verdict == "failed":
        if j.get("verified") is not False or detail not in err:
            problems.append(f"not failed naming {detail!r}: {err.strip()}")
        return problems
    if j.get("verified") is not (verdict == "verified"):
        problems.append(f"\"verified\": {j.get('verified')}, expected {verdict}")
    if j.get("bytes_checked") != detail:
        problems.append(f"\"bytes_checked\": {j.get('bytes_checked')}, expected {detail}")
    if verdict == "nothing checked" and "nothing to check" not in err:
        problems.append(f"no note that nothing was checked: {err!r}")
    return problems


def main():
    binary = os.path.abspath(sys.argv[1])
    examples = sys.argv[2]
    failures = []
    checked = 0
    with tempfile.TemporaryDirectory(prefix="tessera_verdicts_") as d:
        cases = dict(CASES)
        # Bokhari91 §5's pairwise_F: zero-byte synchronization beside 64-byte exchanges.
        with open(os.path.join(examples, "schedules", "pairwise-f-4.json"), encoding="utf-8") as f:
            cases["pairwise_f"] = (json.load(f), "verified", 4 * 3 * BLOCK)
        for name, (sched, verdict, detail) in cases.items():
            path = os.path.join(d, name + ".json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(sched, f)
            runs = [("analyze", ["analyze", "--fabric", "mesh:2x2", "--schedule", path, "--json"])]
            for fab, model in RUNS:
                runs.append((f"run --model {model} --fabric {fab}",
                             ["run", "--model", model, "--fabric", fab, "--schedule", path, "--json"]))
            for what, args in runs:
                code, out, err = tessera(binary, args)
                checked += 1
                failures += [f"{name}: {what}: {p}" for p in judge(what, code, out, err, verdict, detail)]
            # The text report never says verified when nothing was checked.
            code, out, err = tessera(binary, ["run", "--fabric", "mesh:2x2", "--schedule", path])
            if verdict == "nothing checked" and "verified    yes" in out:
                failures.append(f"{name}: the text report says verified: {out!r}")
        for nbytes, verdict, total in ((0, "nothing checked", 0), (8, "verified", 16)):
            path = os.path.join(d, f"pattern{nbytes}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump({"transfers": [{"src": 0, "dst": 3, "bytes": nbytes},
                                         {"src": 3, "dst": 0, "bytes": nbytes}]}, f)
            for fab, model in RUNS[1:]:
                code, out, err = tessera(binary, ["run", "--model", model, "--fabric", fab,
                                                  "--pattern", path, "--json"])
                checked += 1
                failures += [f"pattern of {nbytes}-byte transfers: {model} {fab}: {p}"
                             for p in judge("run", code, out, err, verdict, total)]
    print(f"{checked} verdicts on {len(cases)} schedules and 2 patterns: {len(failures)} problems")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
