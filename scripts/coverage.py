#!/usr/bin/env python3
"""Coverage of the router RTL from the RTL regression (docs/rtl.md, "Coverage").

Usage: coverage.py OUT [--build DIR] [--jobs N] [--tests REGEX] [--rank] [--check]
                       [--tops fifo,mesh,torus,cube] [--no-build] [--no-run] [--no-html]

Configures and builds DIR (default OUT/build) with TESSERA_RTL_COVERAGE=ON, which
verilates the small tops (--tops: the FIFOs, the 4 x 4 VC mesh, the 4 x 4 torus, the
7-cube; all four by default) with Verilator's line, toggle and user coverage; runs the
RTL regression there (ctest label rtl, but the lint and synthesis checks; --tests narrows
it by name), in which every test that runs a model writes its counts into
DIR/rtl-coverage/<test> (the tests' TESSERA_RTL_COVERAGE_DIR); merges the counts with
verilator_coverage into OUT/coverage.dat and OUT/coverage.info (lcov), writes an HTML
report with genhtml (OUT/html), and OUT/summary.json: per module its line (Verilator's
line and branch points), toggle and user cover points, hit and total, each point counted
once over all instances of the module (a point is hit when any instance hit it; a toggle
point when its bit changed at least twice, up and down), the points missed, and which of
them docs/rtl.md waives ("What stays uncovered", with the reason).
--rank adds verilator_coverage --rank's smallest set of tests that keeps the coverage
(OUT/rank.txt, and "rank" in the summary). --check exits 1 unless every module meets the
goals (GOALS below) or the waivers cover what it misses, every user cover point was hit,
and every waiver still matches a missed point (the tops are reported only).
--no-build takes DIR as it is (its TESSERA_RTL_COVERAGE_TOPS); --no-run reports on the
counts in DIR/rtl-coverage as they are (ctest's coverage.rtl, after the RTL tests).
A test that fails exits 1 too.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOPS = ("fifo", "mesh", "torus", "cube")

# The goals per module: percent of line (and branch) points and of toggle points.
GOALS = {"line": 95.0, "toggle": 85.0}
# The tops are the testbench side of each fabric (the NIs' wiring, the observation
# ports); they are reported, their goals not held.
REPORT_ONLY = re.compile(r"^tsr_\w+_top$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def configure_and_build(build, jobs, tops):
    run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
         "-DTESSERA_HOST_TESTS=OFF", "-DTESSERA_RTL_COVERAGE=ON",
         "-DTESSERA_RTL_COVERAGE_TOPS=" + ";".join(tops)], stdout=subprocess.DEVNULL)
    run(["cmake", "--build", build, "-j", str(jobs)])


def read_cache(build):
    """The entries of a build's CMakeCache.txt (empty when it has none)."""
    entries = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    entries[m.group(1)] = m.group(2)
    except OSError:
        pass
    return entries


def has_points(path):
    """Whether a coverage file holds any point (a run of a model built without coverage
    writes a file with none)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(line.startswith("C '") for line in f)


def parse_dat(path):
    """The points of a Verilator coverage file: (keys dict, count)."""
    points = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("C '"):
                continue
            body, _, count = line.rstrip("\n").rpartition("' ")
            keys = {}
            for field in body[3:].split("\x01")[1:]:
                key, _, value = field.partition("\x02")
                keys[key] = value
            points.append((keys, int(count)))
    return points


def inner_path(hier, name):
    """The generate blocks of a point within its module: the trailing gen_* scopes of
    its hierarchy (an instance name never starts with gen_), and the point's name."""
    parts = hier.split(".")
    if parts and parts[-1] == name:
        parts = parts[:-1]
    inner = []
    for part in reversed(parts):
        # A generate scope, gen_x or gen_x[3]; a merged name (gen_tile[*_ctl, Verilator's
        # common prefix of several instances) ends the path.
        if not re.fullmatch(r"gen_\w+(\[\d+\])?", part):
            break
        inner.append(part)
    return ".".join(reversed(inner))


def summarize(points):
    """Per module and kind: each point once over the instances, hit when any instance hit it."""
    merged = {}
    for keys, count in points:
        page = keys.get("page", "")
        kind, _, module = page.partition("/")
        kind = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle",
                "v_user": "user"}.get(kind)
        if kind is None:
            continue
        if kind == "toggle":
            ident = (keys.get("o", ""), inner_path(keys.get("h", ""), ""))
        elif kind == "user":
            ident = (keys.get("f"), keys.get("l"), keys.get("o"),
                     inner_path(keys.get("h", ""), keys.get("o", "")))
        else:
            ident = (keys.get("f"), keys.get("l"), keys.get("n"), keys.get("o"))
        slot = merged.setdefault(module, {}).setdefault(kind, {})
        slot[ident] = slot.get(ident, 0) + count
    modules = {}
    for module, kinds in sorted(merged.items()):
        entry = {}
        for kind in ("line", "toggle", "user"):
            pts = kinds.get(kind, {})
            least = 2 if kind == "toggle" else 1  # a toggle point: up and down
            hit = sum(1 for c in pts.values() if c >= least)
            entry[kind] = {"hit": hit, "total": len(pts),
                           "percent": round(100.0 * hit / len(pts), 1) if pts else None}
            missed = sorted(k for k, c in pts.items() if c < least)
            entry[kind]["missed"] = [point_name(kind, k) for k in missed]
        modules[module] = entry
    return modules


def point_name(kind, ident):
    """A point's name in the summary and the waivers: file:line for a line point, the
    signal and bit within its module for a toggle point (gen scopes first), the cover
    point's name (after its gen scopes) for a user point."""
    if kind == "line":
        return f"{os.path.basename(ident[0] or '')}:{ident[1]}"
    if kind == "toggle":
        return (ident[1] + "." if ident[1] else "") + ident[0]
    return (ident[3] + "." if ident[3] else "") + ident[2]


def group_bits(names):
    """Bits of one signal together, for reading: sig[3], sig[7] -> sig[3,7]."""
    bits = {}
    for name in names:
        m = re.match(r"(.*)\[(\d+)\]$", name)
        base, bit = (m.group(1), int(m.group(2))) if m else (name, None)
        bits.setdefault(base, []).append(bit)
    out = []
    for base, v in sorted(bits.items()):
        idx = sorted(x for x in v if x is not None)
        out.append(base + ("[" + ",".join(map(str, idx)) + "]" if idx else ""))
    return out


WAIVERS_BEGIN = "<!-- coverage waivers: scripts/coverage.py reads this table -->"
WAIVERS_END = "<!-- end of the coverage waivers -->"


def read_waivers(path):
    """The waivers docs/rtl.md lists ("What stays uncovered"): rows | module | kind |
    `pattern` ... | reason |. A pattern names points as the summary does; * matches any
    text and a trailing [a:b] the bits a to b."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if WAIVERS_BEGIN not in text or WAIVERS_END not in text:
        raise SystemExit(f"coverage.py: {path} has no coverage waiver table")
    table = text.split(WAIVERS_BEGIN, 1)[1].split(WAIVERS_END, 1)[0]
    waivers = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("module", "") or set(cells[0]) <= set("-: "):
            continue
        module, kind, points, reason = cells
        patterns = re.findall(r"`([^`]+)`", points)
        if kind not in ("line", "toggle", "user") or not patterns or not reason:
            raise SystemExit(f"coverage.py: {path}: bad waiver row: {line.strip()}")
        waivers.append({"module": module.strip("`"), "kind": kind, "patterns": patterns,
                        "reason": reason, "used": 0})
    return waivers


def pattern_matches(pattern, name):
    m = re.fullmatch(r"(.*)\[(\d+):(\d+)\]", pattern)
    base = m.group(1) if m else pattern
    base_re = ".*".join(re.escape(part) for part in base.split("*"))
    if not m:
        return re.fullmatch(base_re, name) is not None
    b = re.fullmatch(base_re + r"\[(\d+)\]", name)
    return b is not None and int(m.group(2)) <= int(b.group(1)) <= int(m.group(3))


def base_module(name):
    """tsr_fifo__W3c_D8 -> tsr_fifo: a parameterized copy's module."""
    return re.sub(r"__.*$", "", name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--build")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("TESSERA_JOBS", "2")))
    ap.add_argument("--tests", default="")
    ap.add_argument("--rank", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-html", action="store_true")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument("--tops")
    a = ap.parse_args()
    tops = [t for t in (a.tops or ",".join(TOPS)).split(",") if t]
    for t in tops:
        if t not in TOPS:
            print(f"coverage.py: --tops {t} is not one of {', '.join(TOPS)}", file=sys.stderr)
            return 2
    if a.jobs < 1:
        print(f"coverage.py: --jobs {a.jobs} is not at least 1", file=sys.stderr)
        return 2
    out = os.path.abspath(a.out)
    build = os.path.abspath(a.build or os.path.join(out, "build"))
    os.makedirs(out, exist_ok=True)
    for tool in ("verilator_coverage", "cmake", "ctest", "ninja"):
        if shutil.which(tool) is None:
            print(f"coverage.py: {tool} not found (scripts/install-deps.sh)", file=sys.stderr)
            return 2

    if a.no_build:
        cache = read_cache(build)
        if cache.get("TESSERA_RTL_COVERAGE", "OFF").upper() not in ("ON", "1", "TRUE", "YES"):
            print(f"coverage.py: --build {build} is not a coverage build "
                  "(TESSERA_RTL_COVERAGE=ON)", file=sys.stderr)
            return 2
        if a.tops is not None:
            print("coverage.py: --tops chooses what a build instruments; with --no-build "
                  f"{build}'s TESSERA_RTL_COVERAGE_TOPS holds", file=sys.stderr)
            return 2
        tops = [t for t in cache.get("TESSERA_RTL_COVERAGE_TOPS", "").split(";") if t]

    t0 = time.monotonic()
    if not a.no_build:
        configure_and_build(build, a.jobs, tops)
    t_build = time.monotonic() - t0

    counts = os.path.join(build, "rtl-coverage")
    t1 = time.monotonic()
    failed_run = False
    if not a.no_run:
        cmd = ["ctest", "--test-dir", build, "-j", str(a.jobs), "-L", "^rtl$", "-E",
               r"^rtl\.(lint|synth)\.", "--output-on-failure"]
        if a.tests:
            cmd += ["-R", a.tests]
        failed_run = subprocess.run(cmd).returncode != 0
    t_run = time.monotonic() - t1

    # One file per test (for --rank), then all merged.
    dat_root = os.path.join(out, "tests")
    shutil.rmtree(dat_root, ignore_errors=True)
    os.makedirs(dat_root)
    per_test, user_files = [], []
    for test in sorted(os.listdir(counts)) if os.path.isdir(counts) else []:
        folder = os.path.join(counts, test)
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                       if f.startswith("cov-") and f.endswith(".dat"))
        files = [f for f in files if has_points(f)]
        if not files:
            continue
        user_files += [os.path.join(folder, f) for f in sorted(os.listdir(folder))
                       if f.startswith("user-") and f.endswith(".dat")]
        path = os.path.join(dat_root, test + ".dat")
        if len(files) == 1:
            shutil.copyfile(files[0], path)
        else:
            run(["verilator_coverage", "--write", path] + files, stdout=subprocess.DEVNULL)
        per_test.append(path)
    if not per_test:
        print(f"coverage.py: no test wrote coverage into {counts} (is {build} a coverage "
              "build, and have its RTL tests run?)", file=sys.stderr)
        return 1
    merged = os.path.join(out, "coverage.dat")
    info = os.path.join(out, "coverage.info")
    run(["verilator_coverage", "--write", merged] + per_test, stdout=subprocess.DEVNULL)
    run(["verilator_coverage", "--write-info", info, merged], stdout=subprocess.DEVNULL)
    if not a.no_html and shutil.which("genhtml"):
        run(["genhtml", "--quiet", "--branch-coverage", "-o", os.path.join(out, "html"), info],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    rank = None
    if a.rank:
        p = run(["verilator_coverage", "--rank"] + per_test, capture_output=True, text=True)
        with open(os.path.join(out, "rank.txt"), "w") as f:
            f.write(p.stdout)
        # Rows "covered, rank, rank points, "file"": rank 0 adds nothing to the tests
        # ranked before it; the others, in rank order, keep all the coverage.
        ranked = []
        for line in p.stdout.splitlines():
            m = re.match(r'\s*(\d+),\s*(\d+),\s*(\d+),\s*"(.*)\.dat"\s*$', line)
            if m and int(m.group(2)) > 0:
                ranked.append((int(m.group(2)), os.path.basename(m.group(4)), int(m.group(3))))
        rank = [{"test": t, "new_points": pts} for _, t, pts in sorted(ranked)]

    # The user cover points per instance (user-*.dat, coverage.hpp), for the points
    # inside generate loops; the others from the merged counts.
    points = [(k, c) for k, c in parse_dat(merged) if not k.get("page", "").startswith("v_user/")]
    for f in user_files:
        points += parse_dat(f)
    # Parameterized copies of one module (tsr_fifo__W3c_D8) counted under its name.
    for keys, _ in points:
        kind, _, module = keys.get("page", "").partition("/")
        keys["page"] = kind + "/" + base_module(module)
    modules = summarize(points)

    # The goals, less what docs/rtl.md waives with its reason.
    waivers = read_waivers(os.path.join(ROOT, "docs", "rtl.md"))
    shortfalls = []
    for name, entry in modules.items():
        for kind in ("line", "toggle", "user"):
            k = entry[kind]
            k["waived"], k["unwaived"] = [], []
            for point in k.pop("missed"):
                hits = [w for w in waivers if w["module"] == name and w["kind"] == kind
                        and any(pattern_matches(p, point) for p in w["patterns"])]
                for w in hits:
                    w["used"] += 1
                (k["waived"] if hits else k["unwaived"]).append(point)
        if REPORT_ONLY.match(name):
            entry["goals"] = "reported"
            continue
        short = []
        for kind, goal in GOALS.items():
            pct, left = entry[kind]["percent"], entry[kind]["unwaived"]
            if pct is not None and pct < goal and left:
                short.append(f"{name}: {kind} {pct} % below {goal} %, not waived: "
                             + ", ".join(group_bits(left) if kind == "toggle" else left))
        for missed in entry["user"]["unwaived"]:
            short.append(f"{name}: user cover point {missed} never hit")
        waived = any(entry[kind]["waived"] for kind in ("line", "toggle", "user"))
        entry["goals"] = "short" if short else "met with waivers" if waived else "met"
        shortfalls += short
    # A waiver that no longer matches a missed point (its points are covered now, or
    # renamed) goes, so the list stays what is really left out.
    for w in waivers:
        if w["module"] in modules and not w["used"]:
            shortfalls.append(f"{w['module']}: the {w['kind']} waiver for "
                              f"{' '.join(w['patterns'])} matches no missed point")
    for entry in modules.values():
        for kind in ("line", "toggle", "user"):
            entry[kind]["waived_points"] = len(entry[kind]["waived"])
        toggle = entry["toggle"]
        toggle["waived"], toggle["unwaived"] = (group_bits(toggle["waived"]),
                                                group_bits(toggle["unwaived"]))

    summary = {"tops": tops, "tests": len(per_test), "tests_failed": failed_run,
               "build_seconds": round(t_build, 1), "run_seconds": round(t_run, 1),
               "goals": GOALS, "modules": modules, "shortfalls": shortfalls, "rank": rank}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)

    print(f"{'module':24} {'line':>16} {'toggle':>20} {'user':>12}  goals (wN: N points waived)")
    for name, e in modules.items():
        cols = []
        for kind, width in (("line", 16), ("toggle", 20), ("user", 12)):
            k = e[kind]
            waived = k["waived_points"]
            cell = f"{k['hit']}/{k['total']} {k['percent'] if k['percent'] is not None else '-'}"
            cols.append((cell + (f" w{waived}" if waived else "")).rjust(width))
        print(f"{name:24} {cols[0]} {cols[1]} {cols[2]}  {e['goals']}")
    print(f"{len(per_test)} tests wrote counts{' (some FAILED)' if failed_run else ''}, "
          f"build {t_build:.0f} s, run {t_run:.0f} s; {out}/summary.json, {info}")
    if rank is not None:
        print(f"rank: {len(rank)} of {len(per_test)} tests keep the coverage ({out}/rank.txt):")
        for r in rank:
            print(f"  {r['test']} (+{r['new_points']} points)")
    for s in shortfalls:
        print("short: " + s)
    if failed_run:
        return 1
    if a.check and shortfalls:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
