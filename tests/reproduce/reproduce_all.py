#!/usr/bin/env python3
"""`tessera reproduce all --html reproduction.html --plots figures --json`, once for the
suite (the fixture reproduce_all): every paper's verdict (exit 0, no row failing, every
known deviation with its reason and an anchor of docs/reproduction.md, unique row ids),
and every figure the JSON report lists is written as figures/<id>.svg, parses as SVG,
carries its title and both axis labels, and holds each of the report's series with as
many points as the report gives it (paper series as marks, simulated ones as lines).

It leaves OUTDIR/report.json, OUTDIR/reproduction.html and OUTDIR/figures for the tests
that read them (html_page.py) and a record of the run for
docs/reproduction.md's command (tests/support/recorded.py).
Usage: reproduce_all.py TESSERA OUTDIR RECORD_DIR
"""
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from recorded import run_and_record  # noqa: E402

tessera, outdir, record_dir = sys.argv[1], sys.argv[2], sys.argv[3]
NS = "{http://www.w3.org/2000/svg}"
DOC_COMMAND = "build/tessera reproduce all --html reproduction.html"
problems = []


def check_paper(report, figdir):
    """The verdict and figures of one paper's report."""
    paper = report["paper"]
    bad = []
    if not report["pass"] or report["rows_failed"] != 0:
        bad.append(f"{report['rows_failed']} rows failed")
    ids = [r["id"] for r in report["rows"]]
    if len(set(ids)) != len(ids):
        bad.append("row ids repeat: " + ", ".join(sorted({i for i in ids if ids.count(i) > 1})))
    doc = Path(__file__).resolve().parents[2] / "docs" / "reproduction.md"
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.*)$", doc.read_text(), re.M)}
    counts = {"pass": 0, "known deviation": 0, "fail": 0}
    for r in report["rows"]:
        counts[r["verdict"]] += 1
        if r["verdict"] == "known deviation":
            anchor = r["doc"].partition("#")[2]
            if not r["reason"] or anchor not in anchors:
                bad.append(f"{r['id']}: known deviation without a reason or with "
                           f"'{r['doc']}', not a heading of docs/reproduction.md")
    if [counts["pass"], counts["known deviation"], counts["fail"]] != \
            [report["rows_passed"], report["rows_known"], report["rows_failed"]]:
        bad.append(f"the counts {report['rows_passed']}, {report['rows_known']}, "
                   f"{report['rows_failed']} are not the rows' verdicts {counts}")
    print(f"{'ok  ' if not bad else '    '} {paper} verdicts: {counts['pass']} pass, "
          f"{counts['known deviation']} known deviations, {counts['fail']} fail")
    if not report["figures"]:
        bad.append("the report lists no figure")
    for fig in report["figures"]:
        path = f"{figdir}/{fig['id']}.svg"
        before = len(bad)
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            bad.append(f"{path}: {e}")
            continue
        if root.tag != NS + "svg":
            bad.append(f"{path}: the root is {root.tag}, not svg")
        texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
        for want in (fig["title"], fig["x_label"], fig["y_label"]):
            if not any(t.startswith(want) for t in texts):
                bad.append(f"{path}: no text '{want}'")
        groups = {g.get("data-name"): g for g in root.iter(NS + "g")
                  if g.get("class") == "series"}
        for s in fig["series"]:
            g = groups.get(s["name"])
            if g is None:
                bad.append(f"{path}: series '{s['name']}' is not drawn")
                continue
            n = len(s["points"])
            kind = "paper" if s["paper"] else "simulated"
            marks = len(list(g.iter(NS + "circle")))
            lines = list(g.iter(NS + "polyline"))
            drawn = marks if s["paper"] else (
                len(lines[0].get("points").split()) if lines else 0)
            if g.get("data-kind") != kind or drawn != n:
                bad.append(f"{path}: series '{s['name']}' drawn as {g.get('data-kind')} "
                           f"with {drawn} points, the report has {kind} with {n}")
        print(f"{'ok  ' if len(bad) == before else '    '} {fig['id']}.svg: "
              f"{len(fig['series'])} series")
    return [f"{paper}: {b}" for b in bad]


shutil.rmtree(outdir, ignore_errors=True)
os.makedirs(outdir)
p = run_and_record(os.path.join(record_dir, "reproduce-all.run.json"), "reproduce.all",
                   DOC_COMMAND, ["--plots", "figures", "--json"], tessera, outdir)
# Exit 1 names each failing row on stderr; the verdicts below name them again by paper.
if p.returncode not in (0, 1):
    sys.exit(f"FAIL reproduce all: exit {p.returncode}: {p.stderr.strip()}")
with open(os.path.join(outdir, "report.json"), "w", encoding="utf-8") as f:
    f.write(p.stdout)
report = json.loads(p.stdout)
if p.returncode != 0:
    problems.append(f"exit {p.returncode}: {p.stderr.strip()}")
if (p.returncode == 1) == (report["pass"] and not report["rows_failed"]):
    problems.append(f"exit {p.returncode} against the report's verdict")
papers = [x["paper"] for x in report["papers"]]
if sorted(papers) != ["bermond", "bokhari", "boppana", "grama", "thakur"]:
    problems.append(f"the report's papers are {papers}")
for paper_report in report["papers"]:
    problems += check_paper(paper_report, os.path.join(outdir, "figures"))
for sums in ("rows_total", "rows_passed", "rows_known", "rows_failed"):
    key = "rows" if sums == "rows_total" else sums
    got = sum(len(x["rows"]) if key == "rows" else x[key] for x in report["papers"])
    if got != report[sums]:
        problems.append(f"{sums} {report[sums]} is not the papers' sum {got}")

for p_ in problems:
    print("FAIL", p_)
sys.exit(1 if problems else 0)
