#!/usr/bin/env python3
"""`tessera run --timeline FILE.svg` against `--trace FILE.json` of the same run
(docs/visualize.md, tessera/pictures/timeline.hpp).

Each run writes both. The SVG must parse and hold, for every op and wait span of the
JSON trace, one rectangle of its kind on its tile's row, with the same start and end in
the same unit and its x and width where the picture's declared axis puts them; one line
per message flow, from its sender's row at its start to its receiver's at its end; one
rectangle per step and per link interval, on the link tracks the trace names. A run on
ISS tiles must draw their op spans too, and a filtered run (tiles and a window) must
draw what the same filter keeps in the trace.
Each SVG must render in headless Chromium (Debian's): not blank, no console message.
Usage: timeline_svg.py TESSERA [CHROMIUM] [--no-iss]  (--no-iss: no tile image was built)
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
no_iss = "--no-iss" in sys.argv[2:]
rest = [a for a in sys.argv[2:] if a and a != "--no-iss"]  # CMake may pass ""
chromium = rest[0] if rest else "/usr/bin/chromium"



def near(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))



def kind_of(name):
    """The picture's class for a JSON span name: its op kind's colour group."""
    first = name.split()[0]
    if first in ("exchange", "sendrecv", "send", "recv", "idle", "drain"):
        return first
    if first in ("barrier", "pair_sync", "prologue"):
        return "sync"
    if first in ("shuffle", "combine"):
        return "compute"
    return "?"


def trace_parts(path):
    t = json.load(open(path))
    head = t["otherData"]["tessera"]
    ops, waits, starts, finishes, steps, links, link_names = [], [], {}, {}, 0, [], set()
    for e in t["traceEvents"]:
        if e["ph"] == "X" and e["pid"] == 1:
            a = e["args"]
            span = (e["tid"], e["ts"], e["ts"] + e["dur"], a["start_cycle"], a["end_cycle"],
                    e["name"])
            (waits if e["cat"] == "wait" else ops).append(span)
        elif e["ph"] == "s":
            starts[e["id"]] = e
        elif e["ph"] == "f":
            finishes[e["id"]] = e
        elif e["ph"] == "b" and e["cat"] == "step":
            steps += 1
        elif e["ph"] == "X" and e["cat"] == "link":
            links.append(e)
        elif e["ph"] == "M" and e["pid"] == 3 and e["name"] == "thread_name":
            link_names.add(e["args"]["name"])
    return head, ops, waits, starts, finishes, steps, links, link_names


def classes(e):
    return (e.get("class") or "").split()


def tiles_of(text):
    """ "0-7,9" -> {0, ..., 7, 9}"""
    out = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


MAX_ARROWS = 500  # tessera/pictures/timeline.hpp, timeline_max_arrows


def check_aggregates(name, root, lines, flows, starts, finishes, report):
    """Past MAX_ARROWS messages each line stands for several: together they account for
    every message exactly once, each inside its line's sender and receiver blocks and
    times, of its line's kind."""
    check(len(lines) <= MAX_ARROWS, f"{name}: at most {MAX_ARROWS} arrows ({len(lines)})")
    check(len(flows) > MAX_ARROWS, f"{name}: aggregated only past {MAX_ARROWS} messages")
    seen, bad, counts = [], [], True
    for l in lines:
        ids = [int(i) for i in l.get("data-ids").split()]
        counts = counts and int(l.get("data-count")) == len(ids)
        src, dst = tiles_of(l.get("data-src-tiles")), tiles_of(l.get("data-dst-tiles"))
        a, b = float(l.get("data-start")), float(l.get("data-end"))
        for i in ids:
            s, f = starts.get(i), finishes.get(i)
            if (s is None or f is None or s["tid"] not in src or f["tid"] not in dst
                    or s["ts"] < a - 1e-9 or f["ts"] > b + 1e-9
                    or ("data" in classes(l)) != s["name"].startswith("data ")):
                bad.append(i)
        seen += ids
    check(counts, f"{name}: every arrow's data-count is the number of its messages")
    check(len(seen) == len(set(seen)) and set(seen) == flows,
          f"{name}: the arrows account for every message once ({len(seen)} ids, "
          f"{len(set(seen))} distinct, {len(flows)} flows)")
    check(not bad, f"{name}: every message inside its arrow's blocks, times and kind "
          f"({len(bad)} not, e.g. {bad[:3]})")
    notes = " ".join(e.text for e in root.iter(SVG + "text") if "note" in classes(e))
    check(f"Messages: {len(flows)} in {len(lines)} arrows" in notes,
          f"{name}: the picture says the messages are aggregated ({notes[:200]!r})")


def check_run(name, args, d, kept_tiles=None, window=None, aggregated=None):
    svg, trace = f"{d}/{name}.svg", f"{d}/{name}.json"
    cmd = [tessera, "run", *args, "--timeline", svg, "--trace", trace, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"{name}: exit {p.returncode} {p.stderr.strip()}")
    if p.returncode != 0:
        return
    report = json.loads(p.stdout)
    head, ops, waits, starts, finishes, steps, links, link_names = trace_parts(trace)
    root = ET.parse(svg).getroot()
    check(root.tag == SVG + "svg" and root.get("width") == "1200", f"{name}: an SVG 1200 wide")
    unit = "us" if head["time_unit"] == "us" else "cycle"
    check(root.get("data-unit") == unit, f"{name}: the trace's unit ({root.get('data-unit')})")
    check(root.get("data-op-spans") == ("true" if head["op_spans"] else "false"),
          f"{name}: says whether op spans were recorded")
    x0, k = float(root.get("data-x0")), float(root.get("data-px-per-cycle"))
    lo, hi = int(root.get("data-from-cycle")), int(root.get("data-to-cycle"))
    if window:
        check((lo, hi) == window, f"{name}: the axis is the window ({lo}, {hi})")

    def x(c):
        return x0 + (min(max(c, lo), hi) - lo) * k

    rects = list(root.iter(SVG + "rect"))
    lines = [e for e in root.iter(SVG + "line") if "msg" in classes(e)]
    check(not [r for r in rects if "merged" in classes(r)], f"{name}: nothing merged")

    # Op and wait spans: the same ones as the trace, one rectangle each.
    for what, spans, cls in (("op", ops, "op"), ("wait", waits, "wait")):
        drawn = sorted(((int(r.get("data-tile")), float(r.get("data-start")),
                         float(r.get("data-end")), r) for r in rects if cls in classes(r)),
                       key=lambda x: (*x[:3], x[3].find(SVG + "title").text))
        check(len(drawn) == len(spans), f"{name}: a rectangle per {what} span "
              f"({len(drawn)} drawn, {len(spans)} in the trace)")
        want = sorted(spans, key=lambda s: (s[0], s[1], s[2], s[5]))
        bad = []
        for (tile, ts, te, c0, c1, label), (t, a, b, r) in zip(want, drawn):
            ok = (t == tile and near(a, ts) and near(b, te)
                  and abs(float(r.get("x")) - x(c0)) <= 0.006
                  and abs(float(r.get("width")) - (x(c1) - x(c0))) <= 0.011)
            if what == "op":
                ok = ok and classes(r)[1:] == [kind_of(label)]
            title = r.find(SVG + "title")
            ok = ok and title is not None and title.text.split("\n")[0] == label
            if not ok:
                bad.append((tile, ts, te, label))
        check(not bad, f"{name}: every {what} rectangle at its span's times, x and width "
              f"({len(bad)} differ, e.g. {bad[:1]})")

    # Messages: one line per flow whose two ends have rows.
    rows = {}
    for e in root.iter(SVG + "text"):
        if "row-name" in classes(e) and e.text.startswith("tile "):
            rows[int(e.text.split()[1])] = float(e.get("data-mid"))  # the row's centre
    want_tiles = kept_tiles if kept_tiles is not None else range(head["tiles"])
    check(sorted(rows) == sorted(want_tiles), f"{name}: a row per kept tile ({len(rows)})")
    flows = {i for i in starts if starts[i]["tid"] in rows and finishes[i]["tid"] in rows}
    aggregates = [l for l in lines if "aggregate" in classes(l)]
    if aggregated is not None:
        check(bool(aggregates) == aggregated and (not aggregates or len(aggregates) == len(lines)),
              f"{name}: {'aggregate arrows' if aggregated else 'an arrow per message'} "
              f"({len(aggregates)} of {len(lines)} lines aggregate)")
    if aggregates:
        check_aggregates(name, root, lines, flows, starts, finishes, report)
        lines = []  # the checks below are for an arrow per message
    ids = [int(l.get("data-id")) for l in lines]
    check(aggregates or (len(ids) == len(set(ids)) and set(ids) == flows),
          f"{name}: one line per message ({len(ids)} lines, {len(flows)} flows)")
    bad = []
    for l in lines:
        i = int(l.get("data-id"))
        s, f = starts.get(i), finishes.get(i)
        if s is None or f is None:
            continue
        a0, a1 = s["args"]["start_cycle"], s["args"]["end_cycle"]
        ok = (int(l.get("data-src")) == s["tid"] and int(l.get("data-dst")) == f["tid"]
              and near(float(l.get("data-start")), s["ts"])
              and near(float(l.get("data-end")), f["ts"])
              and ("data" in classes(l)) == s["name"].startswith("data "))
        if window is None:
            ok = ok and (abs(float(l.get("x1")) - x(a0)) <= 0.006
                         and abs(float(l.get("x2")) - x(a1)) <= 0.006
                         and abs(float(l.get("y1")) - rows[s["tid"]]) <= 0.006
                         and abs(float(l.get("y2")) - rows[f["tid"]]) <= 0.006)
        if not ok:
            bad.append(i)
    check(not bad, f"{name}: every line from its sender's row at its start to its receiver's "
          f"at its end ({len(bad)} differ, e.g. {bad[:1]})")
    left = len(starts) - len(flows)
    if left:
        notes = " ".join(e.text for e in root.iter(SVG + "text") if "note" in classes(e))
        check(f"{left} message" in notes, f"{name}: says {left} messages were left out")

    # Steps and links.
    n_steps = len([r for r in rects if "step" in classes(r)])
    check(n_steps == steps, f"{name}: a rectangle per step ({n_steps}, {steps} in the trace)")
    drawn_links = [r for r in rects if "link" in classes(r)]
    check(len(drawn_links) == len(links),
          f"{name}: a rectangle per link interval ({len(drawn_links)}, {len(links)})")
    names = {e.text for e in root.iter(SVG + "text") if "row-name" in classes(e)}
    check(link_names <= names, f"{name}: the link rows are the trace's link tracks "
          f"({len(link_names - names)} missing)")
    if "timeline" in report:  # the --json report's counts, when it gives them
        tl = report["timeline"]
        arrows = len([e for e in root.iter(SVG + "line") if "msg" in classes(e)])
        check((tl.get("spans"), tl.get("messages"), tl.get("message_arrows"), tl.get("steps"),
               tl.get("link_spans")) ==
              (len(ops) + len(waits), len(flows), arrows, steps, len(links)),
              f"{name}: the report's counts are what was drawn ({tl})")
    render(chromium, svg, d, name, 1200, min(int(float(root.get("height"))) + 10, 4000), 0.02)
    return root


with tempfile.TemporaryDirectory() as d:
    # Bokhari's stable schedule on the iPSC-860 3-cube (docs/visualize.md): microseconds,
    # the prologue's barrier waits, circuit-switched link tracks.
    check_run("ipsc-stable", ["--model", "tlm", "--machine", "ipsc860", "--fabric", "hypercube:3",
                              "--collective", "alltoall", "--algorithm", "stable", "--protocol",
                              "forced", "--prepost", "--bytes", "1000"], d)
    # Thakur's GEN on a wormhole mesh: cycles, overlapping worms in link lanes.
    check_run("mesh-gen", ["--model", "tlm", "--fabric", "mesh:4x4", "--collective", "alltoall",
                           "--algorithm", "gen", "--bytes", "256"], d, aggregated=False)
    # The same, tiles 0-7 over a window: what the trace's filter keeps.
    check_run("mesh-window", ["--model", "tlm", "--fabric", "mesh:4x4", "--collective",
                              "alltoall", "--algorithm", "gen", "--bytes", "256",
                              "--trace-tiles", "0-7", "--trace-window", "500:1500"], d,
              kept_tiles=range(8), window=(500, 1500))
    # 64 tiles, 4032 messages: more than a picture shows one by one, so each arrow
    # stands for a step's messages between two blocks of tile rows.
    check_run("mesh-8x8", ["--model", "tlm", "--fabric", "mesh:8x8", "--collective", "alltoall",
                           "--algorithm", "pex", "--bytes", "64"], d, aggregated=True)
    size = os.path.getsize(f"{d}/mesh-8x8.svg")
    print(f"mesh-8x8: {size / 1e6:.2f} MB")
    # ISS tiles: their op spans come from the tile image's op marks (docs/visualize.md).
    root = None if no_iss else check_run(
        "iss", ["--model", "tlm", "--tiles", "cortex-m4", "--fabric", "mesh:2x2", "--collective",
                "alltoall", "--bytes", "64"], d)
    if root is not None:
        notes = " ".join(e.text for e in root.iter(SVG + "text") if "note" in classes(e))
        check("Op spans were not recorded" not in notes, "iss: op spans recorded")

sys.exit(finish())
