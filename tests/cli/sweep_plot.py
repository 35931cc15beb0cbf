#!/usr/bin/env python3
"""`tessera sweep --plot` with eight series of long names (docs/sweeps.md): every legend
entry must hold its series' whole name and lie inside the picture's viewBox, as headless
Chromium (Debian's) lays the text out; the picture must render (not blank, no console
message).

Usage: sweep_plot.py TESSERA [CHROMIUM]
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from svgcheck import FLAGS, SVG, check, finish, render  # noqa: E402

tessera = sys.argv[1]
chromium = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else "/usr/bin/chromium"

# Two traffic patterns, two packet sizes and two seeds: eight series, each named after
# its three values ("traffic transpose, packet-flits 4, seed 1000000002"), each with an
# average, a p99 and a saturation entry in the legend.
SWEEP = ["--model", "tlm", "--fabric", "mesh:4x4", "--traffic", "uniform,transpose",
         "--packet-flits", "2,4", "--seed", "1000000001,1000000002", "--rate", "0.01,0.3",
         "--cycles", "600", "--jobs", "2"]

# A legend entry's text: in its group, or (as the writer once drew them) a text of the
# legend's size right under the root.
LEGEND = "g.legend-entry > text, svg > text[font-size='11']"

# Measures each legend entry's text where Chromium draws it, in the SVG's user units.
MEASURE = "<script>\nconst LEGEND = " + json.dumps(LEGEND) + ";\n" + """const svg = document.querySelector('svg');
const vb = svg.viewBox.baseVal;
const entries = [];
for (const t of document.querySelectorAll(LEGEND)) {
  const b = t.getBBox();
  entries.push({text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height});
}
document.getElementById('result').textContent =
    JSON.stringify({viewbox: [vb.x, vb.y, vb.width, vb.height], entries: entries});
</script>"""


def measure(svg_text, d):
    body = re.sub(r"^<\?xml[^>]*>\s*", "", svg_text)
    page = os.path.join(d, "measure.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("<!doctype html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">"
                + body + "<pre id=\"result\"></pre>" + MEASURE + "</body></html>")
    r = subprocess.run([chromium, *FLAGS, f"--user-data-dir={d}/profile-measure", "--dump-dom",
                        "file://" + page], capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="result">(.*?)</pre>', r.stdout, re.S)
    return json.loads(html.unescape(m.group(1))) if m and m.group(1) else None


with tempfile.TemporaryDirectory() as d:
    plot = os.path.join(d, "plot.svg")
    p = subprocess.run([tessera, "sweep", *SWEEP, "--csv", os.path.join(d, "rows.csv"), "--plot",
                        plot], capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"the sweep: exit {p.returncode} {p.stderr.strip()[:300]}")
    text = open(plot, encoding="utf-8").read()
    root = ET.fromstring(text)
    series = [g.get("data-name") for g in root.iter(SVG + "g")
              if "series" in (g.get("class") or "").split()]
    entries = [g for g in root.iter(SVG + "g") if "legend-entry" in (g.get("class") or "").split()]
    legend = ["".join(t.itertext()) for t in root
              if t.tag == SVG + "text" and t.get("font-size") == "11"]
    legend += ["".join(t.itertext()) for g in entries for t in g if t.tag == SVG + "text"]
    groups = {re.sub(r", (average|p99|saturation .*)$", "", s) for s in series}
    check(len(groups) == 8, f"eight series ({len(groups)}: {sorted(groups)[:2]}...)")
    longest = max((len(s) for s in series), default=0)
    check(longest >= 50, f"names long enough to need wrapping (the longest {longest} characters)")
    check(legend == series, f"a legend entry per series, with its whole name "
          f"({len(legend)} entries for {len(series)} series)")
    m = measure(text, d)
    check(m is not None, "Chromium measured the legend")
    if m is not None:
        vx, vy, vw, vh = m["viewbox"]
        check([e["text"] for e in m["entries"]] == series,
              "Chromium reads every legend name whole")
        outside = [e for e in m["entries"]
                   if e["x"] < vx or e["y"] < vy or e["x"] + e["w"] > vx + vw
                   or e["y"] + e["h"] > vy + vh]
        check(not outside, f"every legend name inside the viewBox {vw:g} x {vh:g} "
              f"({len(outside)} outside, e.g. {outside[:1]})")
        boxes = sorted((e["y"], e["y"] + e["h"]) for e in m["entries"])
        overlaps = [a for a, b in zip(boxes, boxes[1:]) if b[0] < a[1] - 0.5]
        check(not overlaps, f"no two legend entries overlap ({len(overlaps)} do)")
    render(chromium, plot, d, "plot", int(float(root.get("width"))),
           int(float(root.get("height"))) + 10, 0.02)

sys.exit(finish())
