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

echo "== sanitizers: ASan+UBSan host build (build-asan/) =="
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON \
  -DTESSERA_HOST_ONLY=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure -L 'unit|firmware|analytic|cli|net'
