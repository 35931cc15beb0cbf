#!/usr/bin/env python3
"""`tessera reproduce PAPER --model rtl` against `--model tlm`: every row within its
tolerance on the Verilated RTL, and every simulated value equal to the TLM engine's (the
engines follow the RTL's rules cycle for cycle, docs/rtl.md). The rtl report has the
rows the RTL can run (Bokhari's section 6 needs the engine's half-duplex interface;
Bermond's rows need tori of 4 x 4 or 8 x 8 and packets of 256 bytes at most); each is
compared with the tlm row of the same source and case, and the tlm report's own verdict
on the rows the RTL cannot run is not this check's. TLM_REPORT is `reproduce PAPER --json`
or `reproduce all --json` on the default model (tlm for these papers).
Run by bench/reproduce_rtl.sh, not by the test suite: the three papers take six minutes
of Verilated simulation (the crosschecks of tests/rtl hold the RTL to the engines).
usage: reproduce_rtl.py TESSERA PAPER TLM_REPORT"""
import json
import subprocess
import sys
import tempfile


def main():
    tessera, paper, tlm_report = sys.argv[1:4]
    with open(tlm_report, encoding="utf-8") as f:
        report = json.load(f)
    tlm = [x for x in report.get("papers", [report]) if x["paper"] == paper]
    if len(tlm) != 1 or not tlm[0]["model"].startswith("tlm,"):
        sys.exit(f"{tlm_report} has no tlm report of {paper}")
    tlm = tlm[0]
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([tessera, "reproduce", paper, "--model", "rtl", "--json"],
                           capture_output=True, text=True, cwd=d, check=False)
    if r.returncode != 0:
        sys.exit(f"reproduce {paper} --model rtl: exit {r.returncode}: {r.stderr.strip()}")
    rtl = json.loads(r.stdout)
    if not rtl["model"].startswith("rtl,"):
        sys.exit(f"the rtl report names its model '{rtl['model']}'")
    if not rtl["pass"] or rtl["rows_failed"] != 0:
        sys.exit(f"{rtl['rows_failed']} rows fail on the rtl model")
    by_case = {(a["source"], a["what"]): a for a in tlm["rows"]}
    missing = [b["what"] for b in rtl["rows"] if (b["source"], b["what"]) not in by_case]
    if missing or not rtl["rows"]:
        sys.exit(f"{len(rtl['rows'])} rtl rows, {len(missing)} not in the tlm report "
                 f"(first: {missing[:1]})")
    differ = [(b["what"], by_case[(b["source"], b["what"])]["simulated"], b["simulated"])
              for b in rtl["rows"] if by_case[(b["source"], b["what"])]["simulated"] != b["simulated"]]
    if differ:
        sys.exit(f"{len(differ)} rows differ, first: {differ[0]}")
    print(f"{paper}: {len(rtl['rows'])} rows, all within tolerance on the rtl model and equal "
          "to the tlm model's")


if __name__ == "__main__":
    main()
