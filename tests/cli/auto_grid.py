#!/usr/bin/env python3
"""--algorithm auto against the simulated best, on the three machine presets.

Complete exchange on each preset's fabric kind (delta: wormhole meshes, ipsc860:
circuit-switched hypercubes, meganode: store-and-forward tori), three fabrics and three
block sizes each: every alltoall algorithm the fabric supports is simulated on the TLM
platform, then `--algorithm auto` is run. The algorithm it chooses must take at most 5 %
longer than the fastest one, its run must be that algorithm's run, and it must name a
runner-up. The table of the outcome is docs/algorithms.md's "Choosing an algorithm"
block; the test fails when the doc's table differs (--update rewrites it).

usage: auto_grid.py TESSERA DOC [--update]
"""
import json
import pathlib
import re
import subprocess
import sys

GRID = [
    ("delta", ["mesh:4x4", "mesh:6x8", "mesh:8x8"]),
    ("ipsc860", ["hypercube:3", "hypercube:4", "hypercube:6"]),
    ("meganode", ["torus:4x4", "torus:6x8", "torus:8x8"]),
]
SIZES = [64, 1024, 8192]
TOLERANCE = 0.05
BEGIN = "<!-- generated: tests/cli/auto_grid.py -->\n"
END = "<!-- end generated -->"


def run(tessera, machine, fabric, size, algorithm):
    cmd = [tessera, "run", "--machine", machine, "--fabric", fabric, "--collective", "alltoall",
           "--algorithm", algorithm, "--bytes", str(size), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    j = json.loads(p.stdout)
    if not j.get("verified"):
        raise SystemExit(f"{' '.join(cmd)}: not verified")
    return j


def main():
    tessera, doc = sys.argv[1], pathlib.Path(sys.argv[2])
    update = "--update" in sys.argv[3:]
    failures = []
    rows = []
    worst = 0.0
    cells = 0
    for machine, fabrics in GRID:
        for fabric in fabrics:
            for size in SIZES:
                auto = run(tessera, machine, fabric, size, "auto")
                choice = auto["algorithm_choice"]
                where = f"{machine} {fabric} {size} B"
                if choice["chosen"] != auto["algorithm"]:
                    failures.append(f"{where}: ran {auto['algorithm']}, chose {choice['chosen']}")
                if not choice.get("runner_up"):
                    failures.append(f"{where}: no runner-up named")
                # Every algorithm the fabric supports, those with the same schedule too.
                names = []
                for e in choice["estimates"]:
                    names += [e["algorithm"], *e["same_schedule"]]
                sim = {a: run(tessera, machine, fabric, size, a)["cycles"] for a in names}
                best_alg = min(sim, key=lambda a: (sim[a], names.index(a)))
                best = sim[best_alg]
                chosen = choice["chosen"]
                if auto["cycles"] != sim[chosen]:
                    failures.append(f"{where}: the auto run took {auto['cycles']} cycles, "
                                    f"{chosen} alone {sim[chosen]}")
                gap = sim[chosen] / best - 1
                worst = max(worst, gap)
                cells += 1
                if gap > TOLERANCE:
                    failures.append(f"{where}: chose {chosen} ({sim[chosen]} cycles), "
                                    f"{100 * gap:.1f} % over {best_alg} ({best})")
                est = {e["algorithm"]: e["cycles"] for e in choice["estimates"]}
                error = est[chosen] / sim[chosen] - 1
                rows.append(f"| {machine} | {fabric} | {size} | {chosen} | {choice['runner_up']} | "
                            f"{best_alg} | {100 * gap:.1f} | {100 * error:+.1f} |")
    table = ("| machine | fabric | bytes | chosen | runner-up | fastest simulated | "
             "gap % | estimate error % |\n|---|---|---|---|---|---|---|---|\n" +
             "\n".join(rows) + f"\n\nWorst gap over the {cells} cells: {100 * worst:.1f} %.\n")
    text = doc.read_text()
    m = re.search(re.escape(BEGIN) + r"(.*?)" + re.escape(END), text, re.S)
    if m is None:
        failures.append(f"{doc}: no block '{BEGIN.strip()}'")
    elif m.group(1) != table:
        if update:
            doc.write_text(text[:m.start(1)] + table + text[m.end(1):])
            print(f"updated {doc}")
        else:
            failures.append(f"{doc}: the auto grid table differs from this run's; rerun "
                            f"tests/cli/auto_grid.py {tessera} {doc} --update")
    print(table)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
