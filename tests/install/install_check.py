#!/usr/bin/env python3
"""The installed Tessera (docs/baremetal.md, "Installing Tessera"), checked from outside the build.

prefix: `cmake --install` into a scratch prefix; the files are there; a project of its own
  (tests/install/out_of_tree) finds the package there, builds the ring all-gather of
  examples/firmware as a tile image with tessera_add_tile_image, and the installed CLI runs
  it on Cortex-M4 tiles: exit 0, every block verified, the image's path in the JSON; the
  project's own ctest (tessera_add_tile_test) passes. The installed CLI runs its installed
  default image and reads its installed RTL (`tessera area`), and after the prefix is moved
  it finds them at the new place; $TESSERA_DATA_DIR points another process at them.
deb: `cpack -G DEB`; the control fields (Package, Version, Depends naming SystemC and
  Unicorn), the file list, and the unpacked package's CLI (--version, a run on Cortex-M4
  tiles with the packaged image).

Everything is written under SCRATCH (in the build directory), emptied first.
usage: install_check.py prefix BUILD_DIR REPO SCRATCH GENERATOR VERSION
       install_check.py deb BUILD_DIR SCRATCH VERSION
"""
import json
import os
import shutil
import subprocess
import sys

failures = []
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


def run(cmd, expect_failure=False, env=None, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                       env=env or ENV, timeout=300, **kw)
    if r.returncode != 0 and not expect_failure:
        print(f"  $ {' '.join(cmd)}\n  exit {r.returncode}\n  stdout: {r.stdout[-3000:]}"
              f"\n  stderr: {r.stderr[-3000:]}")
    return r


def must(cmd, **kw):
    r = run(cmd, **kw)
    if r.returncode != 0:
        sys.exit(f"install_check: {cmd[0]} {cmd[1] if len(cmd) > 1 else ''} failed")
    return r


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def arm_elf(path):
    """True for a 32-bit little-endian ARM executable (ELF class 1, data 1, machine 40)."""
    with open(path, "rb") as f:
        head = f.read(20)
    return (len(head) == 20 and head[:4] == b"\x7fELF" and head[4] == 1 and head[5] == 1
            and int.from_bytes(head[16:18], "little") == 2
            and int.from_bytes(head[18:20], "little") == 40)


def check_run(tessera, args, image, what, env=None):
    """Runs `tessera run --model tlm --tiles cortex-m4 ... --json`: exit 0, verified, every
    tile's bytes checked, and the image it names is `image`."""
    r = run([tessera, "run", "--model", "tlm", "--tiles", "cortex-m4", *args, "--json"],
            env=dict(ENV, **(env or {})))
    if not check(r.returncode == 0, f"{what}: exit 0"):
        return
    try:
        j = json.loads(r.stdout)
    except ValueError as e:
        check(False, f"{what}: stdout is one JSON object ({e})")
        return
    check(j.get("verified") is True, f"{what}: verified")
    checked = j.get("bytes_checked", 0)
    check(isinstance(checked, int) and checked > 0, f"{what}: {checked} bytes checked")
    check(j.get("tiles_model") == "cortex-m4", f"{what}: on Cortex-M4 tiles")
    check(os.path.realpath(j.get("firmware", "")) == os.path.realpath(image),
          f"{what}: ran {image} (JSON says {j.get('firmware')})")


# The files of the installed tree (relative to the prefix) the checks below rely on.
INSTALLED = [
    "bin/tessera",
    "include/tessera/runtime/executor.hpp",
    "include/tessera/runtime/tile_abi.hpp",
    "include/tessera/firmware/collective.hpp",
    "include/tessera/tile/tile_app.hpp",
    "lib/tessera/cortex-m4/libtessera_tile.a",
    "lib/tessera/cortex-m4/tile_cm4.ld",
    "lib/cmake/Tessera/TesseraConfig.cmake",
    "lib/cmake/Tessera/TesseraConfigVersion.cmake",
    "lib/cmake/Tessera/TesseraTargets.cmake",
    "lib/cmake/Tessera/TesseraTileImage.cmake",
    "share/tessera/tessera_tile.elf",
    "share/tessera/rtl/tsr_pkg.sv",
    "share/tessera/rtl/tsr_cube_ni.sv",
]
RING = ["--fabric", "mesh:4x4", "--collective", "allgather", "--algorithm", "ring",
        "--bytes", "256"]
DEFAULT_RUN = ["--fabric", "mesh:2x2", "--collective", "allreduce", "--bytes", "64"]
# A small design of the RTL, a few seconds of Yosys: the hypercube's network interface.
AREA = ["area", "--router", "cube-ni", "--param", "dims=2", "--target", "ice40", "--json"]


def area_reads(tessera, rtl, cache, what):
    """The CLI's `tessera area` synthesizes from `rtl`: it works, and with one of that
    directory's files gone it refuses (exit 2), naming that file."""
    r = run([tessera, *AREA, "--cache", fresh(cache)])
    if check(r.returncode == 0, f"{what}: tessera area exit 0"):
        luts = json.loads(r.stdout).get("ice40", {}).get("lut4", 0)
        check(luts > 0, f"{what}: tessera area: {luts} LUT4")
    pkg = os.path.join(rtl, "tsr_pkg.sv")
    os.rename(pkg, pkg + ".away")
    r = run([tessera, *AREA, "--cache", fresh(cache)], expect_failure=True)
    os.rename(pkg + ".away", pkg)
    check(r.returncode == 2 and f"tessera: area: no RTL file {pkg} " in r.stderr,
          f"{what}: tessera area reads {rtl} (without its tsr_pkg.sv: exit {r.returncode}, "
          f"stderr {r.stderr.strip()!r})")


def check_prefix(build, repo, scratch, generator, version):
    fresh(scratch)
    prefix = os.path.join(scratch, "prefix")
    must(["cmake", "--install", build, "--prefix", prefix])
    for f in INSTALLED:
        check(os.path.isfile(os.path.join(prefix, f)), f"installed {f}")
    tessera = os.path.join(prefix, "bin", "tessera")
    r = run([tessera, "--version"])
    check(r.returncode == 0 and version in r.stdout, f"installed tessera --version: {version}")

    # The project of one's own: its Tessera is the scratch prefix's, nothing else.
    oot = os.path.join(scratch, "out_of_tree")
    must(["cmake", "-S", os.path.join(repo, "tests", "install", "out_of_tree"), "-B", oot,
          "-G", generator, f"-DCMAKE_PREFIX_PATH={prefix}",
          "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF",
          "-DRING_ALLGATHER_SOURCE="
          + os.path.join(repo, "examples", "firmware", "ring_allgather.cpp")])
    with open(os.path.join(oot, "CMakeCache.txt"), encoding="utf-8") as f:
        found = [l.split("=", 1)[1].strip() for l in f if l.startswith("Tessera_DIR:")]
    check(found == [os.path.join(prefix, "lib", "cmake", "Tessera")],
          f"find_package(Tessera) found the install ({found})")
    must(["cmake", "--build", oot])
    image = os.path.join(oot, "ring_allgather.elf")
    check(os.path.isfile(image) and arm_elf(image),
          "tessera_add_tile_image built ring_allgather.elf, a 32-bit ARM executable")
    check(os.path.isfile(image + ".map"), "with its link map")
    check_run(tessera, ["--firmware", image, *RING], image,
              "installed CLI, ring_allgather.elf on mesh:4x4")
    r = run(["ctest", "--test-dir", oot, "--output-on-failure"])
    check(r.returncode == 0 and "tests passed, 0 tests failed out of 1" in r.stdout,
          "the project's tessera_add_tile_test passes")
    # A build with nothing changed leaves the image alone.
    before = os.path.getmtime(image)
    must(["cmake", "--build", oot])
    check(os.path.getmtime(image) == before, "an up-to-date image is not relinked")

    # The installed data: the default image and the RTL, found from the CLI's own place.
    check_run(tessera, DEFAULT_RUN, os.path.join(prefix, "share", "tessera", "tessera_tile.elf"),
              "installed CLI, default image")
    area_reads(tessera, os.path.join(prefix, "share", "tessera", "rtl"),
               os.path.join(scratch, "area-cache"), "installed CLI")
    # A process that is not the installed CLI (the Python module runs in the interpreter's)
    # is pointed at the data by $TESSERA_DATA_DIR: here the build tree's CLI.
    data = os.path.join(prefix, "share", "tessera")
    check_run(os.path.join(build, "tessera"), DEFAULT_RUN, os.path.join(data, "tessera_tile.elf"),
              "build-tree CLI, TESSERA_DATA_DIR at the install", {"TESSERA_DATA_DIR": data})

    moved = os.path.join(scratch, "moved")
    os.rename(prefix, moved)
    check_run(os.path.join(moved, "bin", "tessera"), DEFAULT_RUN,
              os.path.join(moved, "share", "tessera", "tessera_tile.elf"),
              "moved prefix, default image")


def check_deb(build, scratch, version):
    fresh(scratch)
    must(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"),
          "-B", scratch], cwd=scratch)
    debs = [f for f in os.listdir(scratch) if f.endswith(".deb")]
    if not check(len(debs) == 1, f"cpack made one .deb ({debs})"):
        return
    deb = os.path.join(scratch, debs[0])
    print(f"     {debs[0]}: {os.path.getsize(deb)} bytes")

    fields = {}
    for name in ["Package", "Version", "Architecture", "Maintainer", "Depends", "Recommends",
                 "Description"]:
        fields[name] = must(["dpkg-deb", "-f", deb, name]).stdout.strip()
    arch = must(["dpkg", "--print-architecture"]).stdout.strip()
    check(fields["Package"] == "tessera", f"Package: {fields['Package']}")
    check(fields["Version"] == version, f"Version: {fields['Version']} (project {version})")
    check(fields["Architecture"] == arch, f"Architecture: {fields['Architecture']}")
    check(fields["Maintainer"] != "" and fields["Description"] != "",
          "Maintainer and Description given")
    depends = [d.strip().split(" ")[0] for d in fields["Depends"].split(",") if d.strip()]
    print(f"     Depends: {fields['Depends']}")
    for lib in ["libsystemc", "libunicorn2", "libelf1", "libstdc++6"]:
        check(lib in depends, f"Depends names {lib}")
    for pkg in ["gcc-arm-none-eabi", "picolibc-arm-none-eabi", "yosys"]:
        check(pkg in fields["Recommends"], f"Recommends names {pkg}")

    listing = must(["dpkg-deb", "-c", deb]).stdout.splitlines()
    files = {l.split()[-1].lstrip(".") for l in listing if l and not l.startswith("d")}
    owners = {l.split()[1] for l in listing if l}
    print(f"     {len(files)} files")
    for f in INSTALLED:
        check(f"/usr/{f}" in files, f"the .deb holds /usr/{f}")
    check(owners == {"root/root"}, f"every entry owned by root ({owners})")

    root = os.path.join(scratch, "root")
    must(["dpkg-deb", "-x", deb, root])
    tessera = os.path.join(root, "usr", "bin", "tessera")
    r = run([tessera, "--version"])
    check(r.returncode == 0 and version in r.stdout,
          f"unpacked tessera --version: {r.stdout.strip()}")
    check_run(tessera, DEFAULT_RUN,
              os.path.join(root, "usr", "share", "tessera", "tessera_tile.elf"),
              "unpacked CLI, packaged default image")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "prefix" and len(sys.argv) == 7:
        check_prefix(*sys.argv[2:])
    elif mode == "deb" and len(sys.argv) == 5:
        check_deb(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
