#!/usr/bin/env python3
"""`tessera reproduce PAPER --plots DIR`: the paper's verdict (exit 0, no row failing,
every known deviation with its reason and analysis, unique row ids), and every figure
the JSON report lists is written as DIR/<id>.svg, parses as SVG, carries its title and both axis labels, and holds each of
the report's series with as many points as the report gives it (paper series as marks,
simulated ones as lines). Usage: figures.py TESSERA PAPER
"""
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

tessera, paper = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"
problems = []

with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([tessera, "reproduce", paper, "--plots", d, "--json"],
                       capture_output=True, text=True, timeout=1200)
    # The verdict too (this test runs every paper once, so it is where each paper's exit
    # status is checked): exit 0, no row failing, every row that misses its tolerance a
    # known deviation with its reason and an anchor of docs/reproduction.md, every row id
    # unique. Exit 1 names each problem on stderr.
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL reproduce {paper}: exit {p.returncode}: {p.stderr.strip()}")
    report = json.loads(p.stdout)
    if p.returncode != 0 or not report["pass"] or report["rows_failed"] != 0:
        problems.append(f"exit {p.returncode}, {report['rows_failed']} rows failed: "
                        f"{p.stderr.strip()}")
    ids = [r["id"] for r in report["rows"]]
    if len(set(ids)) != len(ids):
        problems.append("row ids repeat: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    doc = Path(__file__).resolve().parents[2] / "docs" / "reproduction.md"
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.*)$", doc.read_text(), re.M)}
    counts = {"pass": 0, "known deviation": 0, "fail": 0}
    for r in report["rows"]:
        counts[r["verdict"]] += 1
        if r["verdict"] == "known deviation":
            anchor = r["doc"].partition("#")[2]
            if not r["reason"] or anchor not in anchors:
                problems.append(f"{r['id']}: known deviation without a reason or with "
                                f"'{r['doc']}', not a heading of docs/reproduction.md")
    if [counts["pass"], counts["known deviation"], counts["fail"]] != \
            [report["rows_passed"], report["rows_known"], report["rows_failed"]]:
        problems.append(f"the counts {report['rows_passed']}, {report['rows_known']}, "
                        f"{report['rows_failed']} are not the rows' verdicts {counts}")
    print(f"{'ok  ' if not problems else '    '} verdicts: {counts['pass']} pass, "
          f"{counts['known deviation']} known deviations, {counts['fail']} fail")
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
