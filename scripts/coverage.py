#!/usr/bin/env python3
"""Coverage of the router RTL from the RTL regression (docs/rtl.md, "Coverage").

Usage: coverage.py OUT [--build DIR] [--jobs N] [--tests REGEX] [--rank] [--check]
                       [--tops fifo,mesh,torus,cube] [--no-build] [--no-run] [--no-html]

Configures and builds DIR (default OUT/build) with TESSERA_RTL_COVERAGE=ON, which
verilates the small tops (the FIFOs, the 4 x 4 VC mesh, the 4 x 4 torus, the 7-cube) with
Verilator's line, toggle and user coverage and leaves the 8 x 8 models out; runs every
test of the coverage regression (ctest label rtl-small: the testbenches' runs on those
tops; --tests narrows it by name) with TESSERA_RTL_COVERAGE_DIR set to a folder of the
test's own; merges the counts with verilator_coverage into OUT/coverage.dat and
OUT/coverage.info (lcov), writes an HTML report with genhtml (OUT/html), and
OUT/summary.json: per module its line (Verilator's line and branch points), toggle and
user cover points, hit and total, each point counted once over all instances of the
module (a point is hit when any instance hit it; a toggle point when its bit changed at
least twice, up and down), and the points never hit.
--rank adds verilator_coverage --rank's smallest set of tests that keeps the coverage
(OUT/rank.txt, and "rank" in the summary). --check exits 1 unless every module meets the
goals (GOALS below; the tops are reported only) and every user cover point was hit.
--no-build reuses DIR as it is; --no-run reports on the counts of an earlier run in OUT. A test that fails exits 1 too, with its name and output.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Per top: the models a coverage build verilates (rtl_models/rtl/CMakeLists.txt
# TESSERA_RTL_ONLY) and the testbench that drives them.
TOPS = {"fifo": ("fifo_d[0-9]+", "tb_fifo"), "mesh": ("mesh_4x4_vc4", "tb_mesh"),
        "torus": ("torus_4x4", "tb_torus"), "cube": ("cube_7", "tb_cube")}

# The goals per module: percent of line (and branch) points and of toggle points.
GOALS = {"line": 95.0, "toggle": 85.0}
# The tops are the testbench side of each fabric (the NIs' wiring, the observation
# ports); they are reported, their goals not held.
REPORT_ONLY = re.compile(r"^tsr_\w+_top$")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def configure_and_build(build, jobs, tops):
    models = "^Vtsr_(" + "|".join(TOPS[t][0] for t in tops) + ")$"
    run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
         "-DTESSERA_HOST_TESTS=OFF", "-DTESSERA_RTL_COVERAGE=ON", "-DTESSERA_RTL_TRACE=OFF",
         "-DTESSERA_RTL_ONLY=" + models], stdout=subprocess.DEVNULL)
    run(["cmake", "--build", build, "-j", str(jobs), "--target"] + [TOPS[t][1] for t in tops])


def regression(build, pattern, tops):
    """The coverage regression's tests from ctest: name, command, directory, properties."""
    cmd = ["ctest", "--test-dir", build, "--show-only=json-v1", "-L", "rtl-small"]
    if pattern:
        cmd += ["-R", pattern]
    tests = json.loads(run(cmd, capture_output=True, text=True).stdout)["tests"]
    benches = {TOPS[t][1] for t in tops}
    out = []
    for t in tests:
        if not re.match(r"rtl\.(" + "|".join(benches) + r")\.", t["name"]):
            continue
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        out.append({"name": t["name"], "command": t["command"],
                    "cwd": props.get("WORKING_DIRECTORY", build), "props": props})
    return out


def passed(test, rc, output):
    """ctest's verdict on a finished test (the properties the regression uses)."""
    props = test["props"]
    if "PASS_REGULAR_EXPRESSION" in props:
        ok = any(re.search(r, output) for r in props["PASS_REGULAR_EXPRESSION"])
    else:
        ok = rc == 0
    if any(re.search(r, output) for r in props.get("FAIL_REGULAR_EXPRESSION", [])):
        ok = False
    if props.get("WILL_FAIL"):
        ok = not ok
    return ok


def run_test(test, dat_root):
    folder = os.path.join(dat_root, test["name"])
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    env = dict(os.environ, TESSERA_RTL_COVERAGE_DIR=folder)
    for item in test["props"].get("ENVIRONMENT", []):
        key, _, value = item.partition("=")
        env[key] = value
    start = time.monotonic()
    try:
        p = subprocess.run(test["command"], cwd=test["cwd"], env=env, capture_output=True,
                           text=True, errors="replace",
                           timeout=float(test["props"].get("TIMEOUT", 600)))
        rc, output = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, output = -1, "timed out"
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.startswith("cov-") and f.endswith(".dat"))
    return {"name": test["name"], "ok": passed(test, rc, output), "rc": rc, "output": output,
            "files": files, "seconds": round(time.monotonic() - start, 2)}


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
        if not part.startswith("gen_"):
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
            if kind == "user":
                entry["user_missed"] = [
                    f"{k[2]}{' (' + k[3] + ')' if k[3] else ''} line {k[1]}" for k in missed]
            elif kind == "toggle":
                # Bits of one signal together: "sig[3], sig[7]" -> "sig[3,7]".
                bits = {}
                for k in missed:
                    name = (k[1] + "." if k[1] else "") + k[0]
                    m = re.match(r"(.*)\[(\d+)\]$", name)
                    base, bit = (m.group(1), m.group(2)) if m else (name, None)
                    bits.setdefault(base, []).append(bit)
                entry["toggle_missed"] = [
                    b + ("[" + ",".join(x for x in v if x is not None) + "]"
                         if any(x is not None for x in v) else "") for b, v in sorted(bits.items())]
            elif kind == "line":
                entry["line_missed"] = sorted({f"{os.path.basename(k[0] or '')}:{k[1]} {k[3]}"
                                               for k in missed})
        modules[module] = entry
    return modules


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
    ap.add_argument("--tops", default=",".join(TOPS))
    a = ap.parse_args()
    tops = [t for t in a.tops.split(",") if t]
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

    t0 = time.monotonic()
    if not a.no_build:
        configure_and_build(build, a.jobs, tops)
    t_build = time.monotonic() - t0

    tests = [] if a.no_run else regression(build, a.tests, tops)
    if not tests and not a.no_run:
        print(f"coverage.py: no test of label rtl-small matches '{a.tests}'", file=sys.stderr)
        return 2
    dat_root = os.path.join(out, "tests")
    t1 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda t: run_test(t, dat_root), tests))
    t_run = time.monotonic() - t1
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        print(f"coverage.py: test {r['name']} failed (exit {r['rc']}):\n{r['output'][-2000:]}",
              file=sys.stderr)

    # One file per test, then all merged.
    per_test = []
    if a.no_run:  # the counts of an earlier run in OUT/tests
        per_test = sorted(os.path.join(dat_root, f) for f in os.listdir(dat_root)
                          if f.endswith(".dat"))
    for r in results:
        if not r["files"]:
            continue
        path = os.path.join(dat_root, r["name"] + ".dat")
        run(["verilator_coverage", "--write", path] + r["files"], stdout=subprocess.DEVNULL)
        per_test.append(path)
    if not per_test:
        print("coverage.py: no test wrote coverage (is the build a coverage build?)",
              file=sys.stderr)
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
    for folder in sorted(os.listdir(dat_root)):
        path = os.path.join(dat_root, folder)
        if os.path.isdir(path):
            for f in sorted(os.listdir(path)):
                if f.startswith("user-") and f.endswith(".dat"):
                    points += parse_dat(os.path.join(path, f))
    # Parameterized copies of one module (tsr_fifo__W3c_D8) counted under its name.
    for keys, _ in points:
        kind, _, module = keys.get("page", "").partition("/")
        keys["page"] = kind + "/" + base_module(module)
    modules = summarize(points)

    shortfalls = []
    for name, entry in modules.items():
        if REPORT_ONLY.match(name):
            entry["goals"] = "reported"
            continue
        for kind, goal in GOALS.items():
            pct = entry[kind]["percent"]
            if pct is not None and pct < goal:
                shortfalls.append(f"{name}: {kind} {pct} % below {goal} %")
        for missed in entry.get("user_missed", []):
            shortfalls.append(f"{name}: user cover point {missed} never hit")
        entry["goals"] = "met" if not any(s.startswith(name + ":") for s in shortfalls) \
            else "short"

    summary = {"tests": len(results), "failed": [r["name"] for r in failed],
               "build_seconds": round(t_build, 1), "run_seconds": round(t_run, 1),
               "goals": GOALS, "modules": modules, "shortfalls": shortfalls,
               "rank": rank,
               "test_seconds": {r["name"]: r["seconds"] for r in results}}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)

    print(f"{'module':24} {'line':>16} {'toggle':>16} {'user':>12}")
    for name, e in modules.items():
        cols = []
        for kind, width in (("line", 16), ("toggle", 16), ("user", 12)):
            k = e[kind]
            cols.append(f"{k['hit']}/{k['total']} {k['percent'] if k['percent'] is not None else '-'}"
                        .rjust(width))
        print(f"{name:24} {cols[0]} {cols[1]} {cols[2]}")
    print(f"{len(results)} tests ({len(failed)} failed), build {t_build:.0f} s, "
          f"run {t_run:.0f} s; {out}/summary.json, {info}")
    if rank is not None:
        print(f"rank: {len(rank)} tests keep the coverage ({out}/rank.txt)")
    for s in shortfalls:
        print("short: " + s)
    if failed:
        return 1
    if a.check and shortfalls:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
