#!/usr/bin/env python3
"""`tessera run --heatmap` on every fabric kind, tlm and rtl (docs/visualize.md).

For each run the SVG must parse and hold one link element per directed link of the
fabric, each with the value the run's JSON report gives that link (utilization, or
messages, or the most waiting at once), the unused ones grey and equal values in equal
colours. With --heatmap-steps on a mesh, each step's panel must hold, per link, the
number of that step's messages whose XY route crosses it, computed here from the
report's transfers (an independent walk of Thakur's XY routing). Each SVG must also
render in headless Chromium (Debian's): a screenshot that is not blank and no console
message. Usage: heatmap_svg.py TESSERA [CHROMIUM]
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from svgcheck import SVG, check, finish, render  # noqa: E402

tessera = sys.argv[1]
chromium = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"



def directed_links(kind, rows, cols, dim):
    """Every directed link (from, to, name) of the fabric, as the engines name them."""
    out = set()
    if kind in ("mesh", "torus"):
        wrap = kind == "torus"
        for t in range(rows * cols):
            r, c = divmod(t, cols)
            for name, dr, dc in (("E", 0, 1), ("W", 0, -1), ("S", 1, 0), ("N", -1, 0)):
                rr, cc = r + dr, c + dc
                if wrap:
                    rr, cc = rr % rows, cc % cols
                    if (dr and rows == 1) or (dc and cols == 1):
                        continue
                elif not (0 <= rr < rows and 0 <= cc < cols):
                    continue
                out.add((t, rr * cols + cc, name))
    elif kind == "hypercube":
        for t in range(1 << dim):
            for b in range(dim):
                out.add((t, t ^ (1 << b), f"dim {b}"))
    elif kind == "ring":
        p = cols
        for t in range(p):
            out.add((t, (t + 1) % p, "+1"))
            out.add((t, (t - 1) % p, "-1"))
    return out


def links_of(svg_path):
    root = ET.parse(svg_path).getroot()
    panels = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "panel":
            continue
        links = {}
        for e in g.iter(SVG + "g"):
            if e.get("class") == "link":
                key = (int(e.get("data-from")), int(e.get("data-to")), e.get("data-name"))
                links[key] = (float(e.get("data-value")), e.get("data-colour"))
        panels.append(links)
    return root, panels



def xy_route(src, dst, cols, yx=False):
    """The directed links of Thakur's XY route on a mesh: X first, then Y (yx: Y first)."""
    r, c = divmod(src, cols)
    tr, tc = divmod(dst, cols)
    hops = []

    def walk_x():
        nonlocal c
        while c != tc:
            step = 1 if tc > c else -1
            hops.append((r * cols + c, r * cols + c + step, "E" if step > 0 else "W"))
            c += step

    def walk_y():
        nonlocal r
        while r != tr:
            step = 1 if tr > r else -1
            hops.append((r * cols + c, (r + step) * cols + c, "S" if step > 0 else "N"))
            r += step

    for walk in ((walk_y, walk_x) if yx else (walk_x, walk_y)):
        walk()
    return hops


RUNS = [
    ("mesh", "tlm", "mesh:4x4", "alltoall --algorithm gen", "utilization"),
    ("torus", "tlm", "torus:4x4", "alltoall", "messages"),
    ("hypercube", "tlm", "hypercube:4", "alltoall --algorithm pairwise", "contention"),
    ("ring", "tlm", "ring:6", "allgather", "utilization"),
    ("rtl-mesh", "rtl", "mesh:4x4", "alltoall --algorithm pex", "utilization"),
]

with tempfile.TemporaryDirectory() as d:
    for name, model, fabric, coll, metric in RUNS:
        svg = f"{d}/{name}.svg"
        cmd = [tessera, "run", "--model", model, "--fabric", fabric, "--collective", *coll.split(),
               "--bytes", "64", "--heatmap", svg, "--heatmap-metric", metric, "--json"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, f"{name}: exit {p.returncode} {p.stderr.strip()}")
        if p.returncode != 0:
            continue
        report = json.loads(p.stdout)
        check(report["heatmap"]["panels"] == 1 and report["heatmap"]["metric"] == metric,
              f"{name}: the report names the heat map ({report['heatmap']})")
        kind, size = fabric.split(":")
        rows, cols = (map(int, size.split("x")) if "x" in size else (1, int(size)))
        dim = int(size) if kind == "hypercube" else 0
        want = directed_links(kind, rows, cols, dim)
        _, panels = links_of(svg)
        check(len(panels) == 1, f"{name}: one panel ({len(panels)})")
        got = panels[0]
        check(set(got) == want, f"{name}: one element per directed link "
              f"({len(got)} drawn, {len(want)} in the fabric)")
        key = {"utilization": "utilization", "messages": "messages", "contention": "max_queue"}
        reported = {(l["from"], l["to"], l["link"]): l[key[metric]] for l in report["links"]
                    if l["from"] != l["to"]}
        wrong = [k for k in want if abs(got.get(k, (-1, ""))[0] - reported.get(k, 0)) > 1e-5]
        check(not wrong, f"{name}: every link's value is the report's {metric} "
              f"({len(wrong)} differ, e.g. {wrong[:1]})")
        grey = [k for k, (v, c) in got.items() if (v == 0) != (c == "#c8c8c8")]
        check(not grey, f"{name}: the unused links and only they are grey ({grey[:1]})")
        by_value = {}
        for v, c in got.values():
            by_value.setdefault(round(v, 9), set()).add(c)
        check(all(len(c) == 1 for c in by_value.values()),
              f"{name}: equal values, equal colours")
        render(chromium, svg, d, name, 900, 900, 0.005)

    # Step panels on a mesh: each step's load per link, walked here along XY routes, and
    # along YX routes under --param routing=yx.
    for routing in ("xy", "yx"):
        svg = f"{d}/steps-{routing}.svg"
        p = subprocess.run([tessera, "run", "--model", "tlm", "--fabric", "mesh:4x4", "--collective",
                            "alltoall", "--algorithm", "gen", "--bytes", "64", "--heatmap", svg,
                            "--heatmap-steps", "--transfers", "--json", "--param",
                            f"routing={routing}"],
                           capture_output=True, text=True, timeout=600)
        check(p.returncode == 0, f"steps {routing}: exit {p.returncode} {p.stderr.strip()}")
        if p.returncode == 0:
            report = json.loads(p.stdout)
            _, panels = links_of(svg)
            check(len(panels) == len(report["per_step"]),
                  f"steps: a panel per step ({len(panels)} for {len(report['per_step'])})")
            loads = {}
            for t in report["per_transfer"]:
                if t["kind"] != "data":
                    continue
                per = loads.setdefault(t["step"], {})
                for hop in xy_route(t["src"], t["dst"], 4, routing == "yx"):
                    per[hop] = per.get(hop, 0) + 1
            steps = sorted(loads)
            mismatched = []
            for i, step in enumerate(steps):
                if i >= len(panels):
                    break
                drawn = {k: v for k, (v, c) in panels[i].items() if v > 0}
                if drawn != {k: float(v) for k, v in loads[step].items()}:
                    mismatched.append(step)
            check(not mismatched, f"steps {routing}: every panel's loads are its step's {routing} loads "
                  f"({len(mismatched)} steps differ)")
            top = max(max(v.values()) for v in loads.values())
            check(report["heatmap"]["scale_max"] == top, f"steps: the scale runs to the largest load "
                  f"({report['heatmap']['scale_max']} against {top})")
            render(chromium, svg, d, f"steps-{routing}", 900, 900, 0.005)

sys.exit(finish())
