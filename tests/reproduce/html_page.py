#!/usr/bin/env python3
"""The page `tessera reproduce all --html FILE` wrote (the fixture reproduce_all,
reproduce_all.py, leaves it and the JSON report in OUTDIR) in headless Chromium
(Debian's): the page renders
(a screenshot that is not blank), the browser logs no console message (the page has no
script, so any message is an error: a blocked resource, a parse problem), and the DOM
Chromium built holds every paper's section, every figure as inline SVG and every row of
the JSON report. Usage: html_page.py OUTDIR [CHROMIUM]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from pngread import png_pixels  # noqa: E402

outdir = sys.argv[1]
chromium = sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
problems = []


with tempfile.TemporaryDirectory() as d:
    page = os.path.abspath(f"{outdir}/reproduction.html")
    with open(f"{outdir}/report.json", encoding="utf-8") as f:
        report = json.load(f)
    url = "file://" + page

    # The DOM Chromium built from the page.
    dom = subprocess.run([chromium, *FLAGS, f"--user-data-dir={d}/profile1", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120)
    html = dom.stdout
    papers = report["papers"]
    want = {
        "paper sections": (len(re.findall(r'<section id="[^"]+" class="paper">', html)),
                           len(papers)),
        "inline figures": (html.count("<svg "), sum(len(x["figures"]) for x in papers)),
        "row lines": (len(re.findall(r"<tr(?: class=\"(?:fail|known)\")? id=\"[^\"]+\"><td>", html)),
                      report["rows_total"]),
        # Known deviations apart from failures: their own class, and their reason shown.
        "known deviation rows": (len(re.findall(r'<tr class="known" id="', html)),
                                 report["rows_known"]),
        "known deviation reasons": (len(re.findall(r'<tr class="known reason">', html)),
                                    report["rows_known"]),
        "failed rows": (len(re.findall(r'<tr class="fail" id="', html)), report["rows_failed"]),
    }
    for what, (got, expected) in want.items():
        ok = got == expected
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got} (the report has {expected})")
        if not ok:
            problems.append(what)

    # A screenshot, with the browser's log on stderr.
    shot = f"{d}/page.png"
    run = subprocess.run([chromium, *FLAGS, f"--user-data-dir={d}/profile2",
                          "--enable-logging=stderr", "--v=0", "--window-size=1280,2000",
                          f"--screenshot={shot}", url],
                         capture_output=True, text=True, timeout=120)
    console = [l for l in run.stderr.splitlines() if "CONSOLE" in l]
    print(f"{'ok  ' if not console else 'FAIL'} console messages: {len(console)}")
    if console:
        problems.append("console: " + console[0])
    try:
        w, h, bpp, rows = png_pixels(shot)
        inked = 0
        colours = set()
        for line in rows[::4]:
            for x in range(0, w * bpp, bpp * 4):
                px = line[x:x + 3]
                colours.add(px)
                if px != b"\xff\xff\xff":
                    inked += 1
        sampled = len(rows[::4]) * len(range(0, w * bpp, bpp * 4))
        share = inked / sampled
        ok = share > 0.02 and len(colours) > 20
        print(f"{'ok  ' if ok else 'FAIL'} screenshot {w}x{h}: {share:.1%} of sampled pixels "
              f"not white, {len(colours)} colours")
        if not ok:
            problems.append("the screenshot is blank")
    except (OSError, ValueError) as e:
        problems.append(f"screenshot: {e}")

for p_ in problems:
    print("FAIL", p_)
sys.exit(1 if problems else 0)
