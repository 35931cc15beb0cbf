#!/usr/bin/env python3
"""Prove the RTL's formal properties by k-induction with Yosys 0.23 and yosys-smtbmc
(docs/rtl.md, "Formal properties").

Usage: formal.py OUT [NAME...] [--solver z3] [--yosys PATH] [--smtbmc PATH] [--list]

Each harness rtl_models/formal/<module>_formal.sv declares, in `// formal:` comment
lines, the RTL it reads and its checks:
  // formal: rtl tsr_fifo [more modules]
  // formal: property NAME k=K [Param=Value ...] asserts=A_A,B_A [assumes=C_A,...]
  //   -- what it says
  // formal: cover NAME t=T [Param=Value ...] -- what must be reachable
  // formal: negative NAME k=K [Param=Value ...] asserts=A_A -- a broken variant that must fail
(a line starting `//   ` continues the one before). A property keeps only the named
assertions (the harness's and the RTL's `*_A` labels, each wherever it is, or as
INSTANCE.LABEL only under the harness's instance INSTANCE; the others are removed) and is
proven when both the base case (yosys-smtbmc -t K: no failure in the first K cycles from
reset) and the induction step (yosys-smtbmc -i -t K: K cycles that satisfy the
assertions are always followed by one that does) pass. `assumes=` turns the named
assertions (the RTL's checks of its inputs) into assumptions, the environment's guarantees,
for every kind of check. A cover check passes when every
cover statement of the harness and its RTL is reached within T cycles (yosys-smtbmc -c).
Options of a line: `engine=sat` proves the property with Yosys's own `sat -tempinduct`
(a SAT solver on the bit-blasted model; base case from reset and induction step, for
lengths 1..K) instead of yosys-smtbmc, for models the SMT solvers do not finish;
`solver=S` runs the check's yosys-smtbmc with solver S instead of --solver's; `heavy`
marks a check of minutes, run only when named.

NAME selects a property, cover or negative check by its name, or all those of a module
(tsr_fifo); without NAME every property and cover runs, negatives and heavy checks only
when named.
Writes OUT/<name>/ (the Yosys script and log, the SMT-LIB model, the solver logs, and a
VCD counterexample for a failure) and OUT/summary.json; prints one line per check; exit 1
when any check fails (a negative check fails as it should: status "failed", expected).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl_models", "rtl")
HARNESSES = os.path.join(ROOT, "rtl_models", "formal")

# Yosys 0.23 does not parse an immediate assertion's action block (`assert (x) else
# $error(...)`), which the RTL gives every assertion for the simulations' messages: the
# flow reads a copy of each RTL file without the action blocks, the rest unchanged.
ACTION = re.compile(r"\belse\s+\$(error|fatal|warning|info)\s*\(")


# Nor does it parse a concurrent assertion's clocking event or `disable iff`: `assert
# property (@(posedge clk) disable iff (C) E)` becomes `assert property ((C) || (E))`,
# checked in every step as yosys-smtbmc checks any assertion.
CONCURRENT = re.compile(r"\bassert\s+property\s*\(")
CLOCKING = re.compile(r"\s*@\s*\(\s*(posedge|negedge)\s+\w+\s*\)\s*")
DISABLE = re.compile(r"disable\s+iff\s*\(")


def matching(text, j):
    """The index just past the parenthesis closing the one open before text[j]."""
    depth = 1
    while depth:
        c = text[j]
        if c == '"':
            j = text.index('"', j + 1)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        j += 1
    return j


def plain_concurrent(text):
    out, i = [], 0
    while True:
        m = CONCURRENT.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        end = matching(text, m.end())
        body = text[m.end():end - 1]
        c = CLOCKING.match(body)
        if c:
            body = body[c.end():]
        d = DISABLE.match(body)
        if d:
            close = matching(body, d.end())
            body = f"({body[d.end():close - 1]}) || ({body[close:].strip()})"
        out.append(text[i:m.start()] + "assert property (" + body + ")")
        i = end


def strip_actions(text):
    out, i = [], 0
    while True:
        m = ACTION.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        i = matching(text, m.end())  # the statement's ';' stays


def parse_harness(path):
    """The checks a harness declares, as dicts."""
    module = os.path.basename(path)[:-len("_formal.sv")]
    lines, rtl, checks = [], [], []
    for raw in open(path):
        if raw.startswith("// formal: "):
            lines.append(raw[len("// formal: "):].strip())
        elif raw.startswith("//   ") and lines:
            lines[-1] += " " + raw[len("//   "):].strip()
    for line in lines:
        head, _, what = line.partition(" -- ")
        words = head.split()
        if words[0] == "rtl":
            rtl += words[1:]
            continue
        kind, name = words[0], words[1]
        heavy = "heavy" in words[2:]
        words = [w for w in words if w != "heavy"]
        check = {"name": name, "kind": kind, "module": module, "harness": path,
                 "parameters": {}, "asserts": [], "assumes": [], "what": what.strip(),
                 "depth": None, "engine": "smtbmc", "heavy": heavy}
        for w in words[2:]:
            key, _, value = w.partition("=")
            if key in ("k", "t"):
                check["depth"] = int(value)
            elif key == "asserts":
                check["asserts"] = value.split(",")
            elif key == "assumes":
                check["assumes"] = value.split(",")
            elif key == "solver":
                check["solver"] = value
            elif key == "engine":
                if value not in ("smtbmc", "sat"):
                    sys.exit(f"{path}: {name}: engine must be smtbmc or sat, not {value}")
                check["engine"] = value
            else:
                check["parameters"][key] = value
        if kind not in ("property", "cover", "negative") or check["depth"] is None:
            sys.exit(f"{path}: bad formal line: {line}")
        if kind != "property" and check["engine"] == "sat":
            # Yosys's sat reaches no cover and names no failed assertion.
            sys.exit(f"{path}: {name}: a {kind} check runs with yosys-smtbmc")
        if kind != "cover" and not check["asserts"]:
            sys.exit(f"{path}: {name} names no assertion")
        checks.append(check)
    for c in checks:
        c["rtl"] = rtl
    return checks


def all_checks():
    checks = []
    for path in sorted(glob.glob(os.path.join(HARNESSES, "tsr_*_formal.sv"))):
        checks += parse_harness(path)
    return checks


def by_name(label):
    """A Yosys selection of the assertions a check names: LABEL anywhere in the design, or
    INSTANCE.LABEL only under the harness's instance (or generate block) INSTANCE."""
    inst, _, name = label.rpartition(".")
    if inst:
        return f"n:{inst}*.{name}"
    return f"n:{name} n:*.{name} %u"


def build_model(check, work, yosys):
    """Writes work/model.smt2 for one check; returns (ok, seconds, message)."""
    src = os.path.join(work, "rtl")
    os.makedirs(src, exist_ok=True)
    files = sorted(glob.glob(os.path.join(RTL, "*_pkg.sv")))
    files += [os.path.join(RTL, m + ".sv") for m in check["rtl"]]
    copies = []
    for f in files:
        dst = os.path.join(src, os.path.basename(f))
        with open(f) as i, open(dst, "w") as o:
            o.write(plain_concurrent(strip_actions(i.read())))
        copies.append(dst)
    top = os.path.basename(check["harness"])[:-3]
    script = ["read_verilog -formal -sv " + " ".join(copies + [check["harness"]])]
    if check["parameters"]:
        sets = " ".join(f"-set {k} {v}" for k, v in check["parameters"].items())
        script.append(f"chparam {sets} {top}")
    script += [f"prep -top {top}", "flatten", "opt_clean"]
    if check["assumes"]:
        # The RTL's checks of its inputs, taken as what the environment guarantees.
        for a in check["assumes"]:
            script.append(f"select -assert-min 1 t:$assert {by_name(a)} %i")
        sel = " ".join(by_name(a) for a in check["assumes"])
        sel += " %u" * (len(check["assumes"]) - 1)
        script.append(f"chformal -assert -assert2assume t:$assert {sel} %i")
    if check["kind"] == "cover":
        script.append("chformal -assert -remove")
    else:
        for a in check["asserts"]:
            script.append(f"select -assert-min 1 t:$assert {by_name(a)} %i")
        keep = " ".join(by_name(a) for a in check["asserts"])
        unions = " %u" * (len(check["asserts"]) - 1)
        script.append(f"chformal -assert -remove t:$assert {keep}{unions} %d")
        script.append("chformal -cover -remove")
    script += ["memory_nordff", "memory_map", "opt -fast", "async2sync"]
    if check["engine"] == "sat":
        # Yosys's own k-induction (a SAT solver on the bit-blasted model): the base case
        # from the initial state (the harness's reset) and the induction step for lengths
        # 1..K, stopping at the first length whose step holds.
        script += ["opt -full", "sat -tempinduct -prove-asserts -set-assumes -maxsteps "
                   f"{check['depth']} -dump_vcd " + os.path.join(work, "cex.vcd")]
    else:
        script += ["dffunmap", "write_smt2 -wires " + os.path.join(work, "model.smt2")]
    ys = os.path.join(work, "model.ys")
    with open(ys, "w") as f:
        f.write("\n".join(script) + "\n")
    log = os.path.join(work, "yosys.log")
    start = time.monotonic()
    proc = subprocess.run([yosys, "-q", "-l", log, "-s", ys], capture_output=True, text=True)
    secs = time.monotonic() - start
    if proc.returncode != 0:
        text = open(log).read() if os.path.exists(log) else proc.stderr
        errs = [l for l in text.splitlines() if "ERROR" in l] or text.splitlines()[-3:]
        return False, secs, "yosys: " + " | ".join(errs)
    return True, secs, ""


def smtbmc(args, work, tag, smtbmc_bin, solver):
    """Runs one yosys-smtbmc pass; returns (passed, seconds, failed assertions, vcd)."""
    vcd = os.path.join(work, f"{tag}.vcd")
    if os.path.exists(vcd):
        os.remove(vcd)
    # --unroll: z3 4.8 takes seconds to minutes on the model's function definitions where
    # their unrolled expressions take milliseconds.
    cmd = [smtbmc_bin, "-s", solver, "--unroll"] + args + ["--dump-vcd", vcd,
                                               os.path.join(work, "model.smt2")]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - start
    with open(os.path.join(work, f"{tag}.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    passed = proc.returncode == 0 and "Status: PASSED" in proc.stdout
    failed = sorted(set(re.findall(r"Assert failed in \S+: (\S+)", proc.stdout)))
    failed += sorted(set(re.findall(r"Unreached cover statement at (\S+)", proc.stdout)))
    return passed, secs, failed, (vcd if os.path.exists(vcd) else None)


def sat_result(result, work, secs, error):
    """The outcome of Yosys's `sat -tempinduct` from its log: proven at some length up to
    the depth, or the base case failed (a counterexample from reset), or no induction step
    held up to the depth. Yosys's sat does not say which assertion failed."""
    log = os.path.join(work, "yosys.log")
    text = open(log).read() if os.path.exists(log) else ""
    vcd = os.path.join(work, "cex.vcd")
    result["sat_seconds"] = round(secs, 2)  # one process: base cases and steps together
    lengths = re.findall(r"\*\* Trying induction with length (\d+) \*\*", text)
    if "Induction step proven: SUCCESS!" in text:
        result.update({"status": "proven", "proven_at": int(lengths[-1])})
    elif not lengths:
        result["error"] = error or "yosys: no induction ran"
    else:
        result.update({"failed_in": "base" if "model found for base case" in text else "step",
                       "vcd": vcd if os.path.exists(vcd) else None})
    return result


def run_check(check, out, tools):
    work = os.path.join(out, check["name"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    result = {k: check[k] for k in ("name", "kind", "module", "parameters", "asserts",
                                    "assumes", "what", "depth")}
    result["harness"] = os.path.relpath(check["harness"], ROOT)
    result.update({"status": "failed", "base_seconds": None, "step_seconds": None,
                   "vcd": None, "failed": []})
    result["engine"] = check["engine"]
    ok, ysecs, msg = build_model(check, work, tools["yosys"])
    result["yosys_seconds"] = round(ysecs, 2)
    if check["engine"] == "sat":
        return sat_result(result, work, ysecs, msg)
    if not ok:
        result["error"] = msg
        return result
    k = str(check["depth"])
    if check["kind"] == "cover":
        passed, secs, failed, vcd = smtbmc(["-c", "-t", k], work, "cover", tools["smtbmc"],
                                           check.get("solver", tools["solver"]))
        result.update({"base_seconds": round(secs, 2), "vcd": vcd, "failed": failed,
                       "status": "reached" if passed else "failed"})
        return result
    passed, secs, failed, vcd = smtbmc(["-t", k], work, "base", tools["smtbmc"],
                                       tools["solver"])
    result["base_seconds"] = round(secs, 2)
    if not passed:
        result.update({"failed": failed, "vcd": vcd, "failed_in": "base"})
        return result
    passed, secs, failed, vcd = smtbmc(["-i", "-t", k], work, "step", tools["smtbmc"],
                                       tools["solver"])
    result["step_seconds"] = round(secs, 2)
    if not passed:
        result.update({"failed": failed, "vcd": vcd, "failed_in": "step"})
        return result
    result["status"] = "proven"
    return result


def main(argv):
    args, names, tools = argv[1:], [], {"solver": "z3", "yosys": "yosys",
                                         "smtbmc": "yosys-smtbmc"}
    listing = False
    out = None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--solver", "--yosys", "--smtbmc"):
            tools[a[2:]] = args[i + 1]
            i += 2
            continue
        if a == "--list":
            listing = True
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif out is None and not listing:
            out = a
        else:
            names.append(a)
        i += 1
    checks = all_checks()
    if listing:
        for c in checks:
            print(f"{c['kind']:9} {c['name']:40} {c['what']}")
        return 0
    if out is None:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    if names:
        chosen = [c for c in checks if c["name"] in names or c["module"] in names]
        # A module name selects its properties and covers; a negative or a heavy property
        # only by name.
        chosen = [c for c in chosen
                  if (c["kind"] != "negative" and not c["heavy"]) or c["name"] in names]
        unknown = [n for n in names if not any(n in (c["name"], c["module"]) for c in checks)]
        if unknown:
            print("formal: no such check: " + ", ".join(unknown), file=sys.stderr)
            return 2
    else:
        chosen = [c for c in checks if c["kind"] != "negative" and not c["heavy"]]
    needed = [tools["yosys"], tools["smtbmc"], tools["solver"]]
    needed += sorted({c["solver"] for c in chosen if "solver" in c})
    for tool in needed:
        if not shutil.which(tool):
            print(f"formal: {tool} not found (bash scripts/install-deps.sh installs it)",
                  file=sys.stderr)
            return 2
    os.makedirs(out, exist_ok=True)
    results, bad = [], 0
    for check in chosen:
        r = run_check(check, out, tools)
        results.append(r)
        expected = "failed" if check["kind"] == "negative" else (
            "reached" if check["kind"] == "cover" else "proven")
        r["expected"] = expected
        params = " ".join(f"{k}={v}" for k, v in r["parameters"].items())
        times = f"base {r['base_seconds']} s" if r["base_seconds"] is not None else ""
        if r["step_seconds"] is not None:
            times += f", step {r['step_seconds']} s"
        if r.get("sat_seconds") is not None:
            times = f"sat {r['sat_seconds']} s"
            if r.get("proven_at"):
                times += f", proven at length {r['proven_at']}"
        depth = ("t" if check["kind"] == "cover" else "k") + f"={r['depth']}"
        line = f"{r['status']:8} {r['name']:36} {r['module']} {params} {depth} {times}"
        if r.get("failed_in"):
            which = ", ".join(r["failed"]) or (
                "Yosys sat names no assertion, see the counterexample"
                if r["engine"] == "sat" else "?")
            line += f" (fails in the {r['failed_in']} case: {which})"
        if r.get("error"):
            line += " " + r["error"]
        print(line.rstrip(), flush=True)
        if r["vcd"] and r["status"] == "failed":
            print(f"         counterexample: {r['vcd']}", flush=True)
        if r["status"] != expected:
            bad += 1
        elif check["kind"] == "negative" and not r["vcd"]:
            print(f"         no counterexample written for {r['name']}", flush=True)
            bad += 1
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"solver": tools["solver"], "checks": results}, f, indent=1)
        f.write("\n")
    return 1 if bad or any(r["status"] == "failed" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
