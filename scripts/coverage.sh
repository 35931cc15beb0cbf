#!/usr/bin/env bash
# Coverage of the router RTL (docs/rtl.md, "Coverage"): scripts/coverage.sh OUT
# [--rank] [--check] [--tests REGEX] [--build DIR] [--jobs N] [--tops fifo,mesh,torus,cube]
# [--no-build] [--no-run] [--no-html]. Builds the small tops with Verilator's line,
# toggle and user coverage, runs the RTL regression on them, and writes
# OUT/coverage.info (lcov), OUT/html/ and OUT/summary.json (per module).
set -euo pipefail
exec python3 "$(dirname "$0")/coverage.py" "$@"
