#!/usr/bin/env python3
"""`tessera reproduce PAPER --plots DIR`: every figure the JSON report lists is written as
DIR/<id>.svg, parses as SVG, carries its title and both axis labels, and holds each of
the report's series with as many points as the report gives it (paper series as marks,
simulated ones as lines). Usage: figures.py TESSERA PAPER
"""
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

tessera, paper = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"
problems = []

with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([tessera, "reproduce", paper, "--plots", d, "--json"],
                       capture_output=True, text=True, timeout=1200)
    # Exit 1 says rows miss their tolerance, and the report names them; this test is
    # about the figures, so it needs the report whole, whatever the verdict.
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL reproduce {paper}: exit {p.returncode}: {p.stderr.strip()}")
    report = json.loads(p.stdout)
    if (p.returncode == 1) == (report.get("pass", True) and not report.get("rows_failed")):
        sys.exit(f"FAIL reproduce {paper}: exit {p.returncode} against its report's verdict")
    if not report["figures"]:
        problems.append("the report lists no figure")
    for fig in report["figures"]:
        path = f"{d}/{fig['id']}.svg"
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            problems.append(f"{path}: {e}")
            continue
        if root.tag != NS + "svg":
            problems.append(f"{path}: the root is {root.tag}, not svg")
        texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
        for want in (fig["title"], fig["x_label"], fig["y_label"]):
            if not any(t.startswith(want) for t in texts):
                problems.append(f"{path}: no text '{want}'")
        groups = {g.get("data-name"): g for g in root.iter(NS + "g")
                  if g.get("class") == "series"}
        for s in fig["series"]:
            g = groups.get(s["name"])
            if g is None:
                problems.append(f"{path}: series '{s['name']}' is not drawn")
                continue
            n = len(s["points"])
            kind = "paper" if s["paper"] else "simulated"
            marks = len(list(g.iter(NS + "circle")))
            lines = list(g.iter(NS + "polyline"))
            drawn = marks if s["paper"] else (
                len(lines[0].get("points").split()) if lines else 0)
            if g.get("data-kind") != kind or drawn != n:
                problems.append(f"{path}: series '{s['name']}' drawn as {g.get('data-kind')} "
                                f"with {drawn} points, the report has {kind} with {n}")
        print(f"{'ok  ' if not problems else '    '} {fig['id']}.svg: "
              f"{len(fig['series'])} series")

for p_ in problems:
    print("FAIL", p_)
sys.exit(1 if problems else 0)
