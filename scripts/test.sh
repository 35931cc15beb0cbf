#!/usr/bin/env bash
# The README test command: installs what is missing, builds everything once (the
# bare-metal tile image too, whose sizes it prints), runs the suite with ctest, then
# rebuilds the host code with clang under ASan+UBSan and runs there the fuzz targets and
# the host tests (built only there).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${TESSERA_JOBS:-2}
scripts/install-deps.sh

echo "== build (build/) =="
# The host test binaries (unit, firmware, analytic, net, the CLI's host cases) are built
# and run in build-san/ only, under the sanitizers (TESSERA_HOST_TESTS, tests/CMakeLists.txt);
# the CLI's front end at -O1 (TESSERA_FRONT_END_OPT, CMakeLists.txt).
# The 4 x 4 tops and the FIFOs with Verilator's coverage, for the coverage.rtl test
# (docs/rtl.md, "Coverage"); the cube's coverage build is left to scripts/coverage.sh.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_HOST_TESTS=OFF -DTESSERA_FRONT_END_OPT=-O1 \
  -DTESSERA_RTL_COVERAGE=ON -DTESSERA_RTL_COVERAGE_TOPS="fifo;mesh;torus"
cmake --build build -j "$jobs"

# The tile image's code and RAM use (docs/baremetal.md); says "skipped" without the
# cross tools.
echo "== bare-metal size report =="
cmake --build build --target baremetal-size

echo "== tests =="
ctest --test-dir build -j "$jobs" --output-on-failure

# One clang build with ASan+UBSan (build-san/) serves both the fuzzing and the
# sanitizer runs: every reader of user input runs under libFuzzer from the seed corpus in
# tests/fuzz/corpus for TESSERA_FUZZ_SECONDS each (docs/development.md, "Fuzzing"), and
# the host tests run again under the sanitizers, with leak detection.
echo "== sanitizers and fuzzing: ASan+UBSan host build (build-san/) =="
# -O1 with line tables only, as sanitizer and fuzzing builds usually are: stack traces
# keep their lines, and the largest files compile about 13 % faster than at -O2 -g. The
# test binaries' own sources at -O0 (tests/CMakeLists.txt: half the compile time), but
# the one whose tests run a reference model of their own at -O1.
CXX=clang++ cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DTESSERA_FUZZ_SECONDS="${TESSERA_FUZZ_SECONDS:-10}" \
  -DTESSERA_TEST_CXX_FLAGS="-O0;-gline-tables-only" -DTESSERA_TEST_REFERENCE_CXX_FLAGS="-O1;-gline-tables-only"
cmake --build build-san -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-san -j "$jobs" --output-on-failure -L 'fuzz|unit|firmware|analytic|cli|net'
