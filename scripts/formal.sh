#!/usr/bin/env bash
# Formal properties of the router RTL, proven by k-induction with Yosys and yosys-smtbmc
# (docs/rtl.md, "Formal properties"): scripts/formal.sh OUT [NAME...]. Writes OUT/<name>/
# and OUT/summary.json, prints one line per check, exits 1 if any fails.
set -euo pipefail
exec python3 "$(dirname "$0")/formal.py" "$@"
