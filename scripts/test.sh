#!/usr/bin/env bash
# The README test command: installs what is missing, builds everything once (the
# bare-metal tile image too, whose sizes it prints), runs the whole suite with ctest,
# then rebuilds the host code with ASan+UBSan and runs the host tests again under the
# sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${TESSERA_JOBS:-2}
scripts/install-deps.sh

echo "== build (build/) =="
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$jobs"

# The tile image's code and RAM use (docs/baremetal.md); says "skipped" without the
# cross tools.
echo "== bare-metal size report =="
cmake --build build --target baremetal-size

echo "== tests =="
ctest --test-dir build -j "$jobs" --output-on-failure

# Every reader of user input under libFuzzer with ASan+UBSan, from the seed corpus in
# tests/fuzz/corpus, for TESSERA_FUZZ_SECONDS each (docs/development.md, "Fuzzing").
echo "== fuzz: libFuzzer targets (build-fuzz/) =="
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_FUZZ=ON \
  -DTESSERA_FUZZ_SECONDS="${TESSERA_FUZZ_SECONDS:-30}"
cmake --build build-fuzz -j "$jobs"
ctest --test-dir build-fuzz -j "$jobs" --output-on-failure

echo "== sanitizers: ASan+UBSan host build (build-asan/) =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON \
  -DTESSERA_HOST_ONLY=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure -L 'unit|firmware|analytic|cli|net'
