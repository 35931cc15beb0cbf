#!/usr/bin/env bash
# The paper reproductions on the Verilated RTL (docs/reproduction.md): Bokhari's rows of
# sections 2-4 on the 7-cube (about a minute and a half), Bermond's rows the 4 x 4 and
# 8 x 8 tori can run (about two minutes) and Boppana's on the cube (about three), each
# row within its tolerance and every simulated value equal to the TLM engine's
# (bench/reproduce_rtl.py). Not part of the test suite, for its time: there the
# crosschecks of tests/rtl hold the Verilated fabrics to the engines run by run, and
# `reproduce.all` runs the papers on the engines. Run it by hand after a build:
#   cmake --build build && bash bench/reproduce_rtl.sh build [PAPER...]
# Exit 1 when a paper's rtl rows fail or differ from its tlm rows.
set -euo pipefail
dir=${1:-build}
shift || true
papers=("$@")
[ ${#papers[@]} -gt 0 ] || papers=(bokhari bermond boppana)
here=$(cd "$(dirname "$0")" && pwd)
tessera=$(cd "$dir" && pwd)/tessera
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for paper in "${papers[@]}"; do
  start=$(date +%s)
  "$tessera" reproduce "$paper" --json > "$work/$paper-tlm.json" || {
    echo "FAIL $paper: reproduce $paper (tlm) exit $?"; status=1; continue; }
  if python3 "$here/reproduce_rtl.py" "$tessera" "$paper" "$work/$paper-tlm.json"; then
    echo "ok   $paper: $(( $(date +%s) - start )) s"
  else
    status=1
  fi
done
exit $status
