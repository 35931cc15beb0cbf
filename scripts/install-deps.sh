#!/usr/bin/env bash
# Installs the Debian 12 packages Tessera builds with, only those that are missing.
# Used by both README commands and by CI; needs root (or sudo) when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  catch2 nlohmann-json3-dev
  # The CLI's argument parsing and --help (tools/tessera/args.hpp): header-only CLI11.
  libcli11-dev
  libsystemc-dev verilator zlib1g-dev
  # The ISS tiles (docs/tiles.md): the Unicorn engine's Cortex-M4 and libelf for images.
  libunicorn-dev libelf-dev
  python3
  # The Python module (docs/python.md): pybind11, headers; pytest, pandas, matplotlib for tests.
  python3-dev python3-pybind11 pybind11-dev python3-pytest python3-pandas python3-matplotlib
  # The reproduction page's render test (tests/reproduce/html_page.py): headless Chromium.
  chromium
  # Sweeps handed to GNU parallel (docs/sweeps.md, tests/cli/sweep_parallel.py).
  parallel
  # The fuzz targets (tests/fuzz): clang with libFuzzer's runtime.
  clang libclang-rt-14-dev
  # `tessera area` and the synthesis checks (docs/ppa.md, tests/rtl rtl.synth.*): Yosys
  # 0.23 with its ABC.
  yosys
  # The formal proofs (scripts/formal.sh, docs/rtl.md): yosys-smtbmc's solver (Debian's boolector 1.5
  # answers "unknown" to what yosys-smtbmc sends), and cvc4 for the mesh router's cover check, which
  # z3 does not finish in minutes.
  z3 cvc4
  # The coverage report (scripts/coverage.sh, docs/rtl.md): genhtml for its HTML pages.
  lcov
  # The .deb's Depends from the libraries the CLI links (cpack: dpkg-shlibdeps and file).
  dpkg-dev file
)

# The bare-metal tile image (docs/baremetal.md): cross compiler, picolibc and its
# libstdc++, and qemu to run the image. Optional: when they cannot be installed the
# build skips the bare-metal part and says so.
baremetal_packages=(
  gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc picolibc-arm-none-eabi qemu-system-arm
  # A tile under GDB (docs/tiles.md, "Debugging a tile"; tests/iss/gdb_session.py).
  gdb-multiarch
)

missing_of() {
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      echo "$p"
    fi
  done
}

mapfile -t missing < <(missing_of "${packages[@]}")
mapfile -t missing_baremetal < <(missing_of "${baremetal_packages[@]}")

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_baremetal[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ${#missing_baremetal[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing_baremetal[*]} (bare-metal image)"
  if ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing_baremetal[@]}"; then
    echo "install-deps: could not install ${missing_baremetal[*]}:" \
      "the build will skip the bare-metal image" >&2
  fi
fi
