#!/usr/bin/env python3
"""The layout's rules, checked over the tracked files (docs/development.md, "Layout").

1. Dependencies point one way. Each folder has a layer; an #include and a CMake link
   may go to the same layer or a lower one, never higher, and nothing outside tests/
   reaches into tests/. Within a layer, the pairs in FORBIDDEN stay apart (the
   Verilated engines and the testbenches share rtl_models/, neither includes the other).
2. Files do one job: no C++ or SystemVerilog source over MAX_LINES lines, but for the
   documented exceptions.

Usage: check_layout.py REPO_ROOT. Exit 0 when every rule holds; else 1, one line per
breach naming the file (and line) and the rule.
"""
import os
import re
import subprocess
import sys

# Layers, lowest first; a path takes the layer of its longest matching prefix.
LAYERS = [
    ("common/", 0),
    ("runtime/", 1),
    ("firmware/", 2),
    ("baremetal/", 3),
    ("schedule/", 3),
    ("analytic/", 4),          # rung 1: closed forms
    ("net/", 5),               # rung 2: timing engines
    ("rtl_models/rtl/", 5),    # rung 3: the RTL
    ("rtl_models/tops/", 5),   # the Verilated tops, described once
    ("models/", 6),            # the registry, over the engines
    ("price/", 6),             # area from synthesis of the RTL sources
    ("rtl_models/engines/", 7),  # the Verilated engines register with it
    ("tb/", 7),
    ("platform/", 8),
    ("run/", 9),
    ("pictures/", 10),
    ("reproduce/", 10),
    ("sweep/", 10),
    ("tools/", 11),
    ("python/", 11),           # the Python module, over the CLI library
    ("examples/", 11),
    ("bench/", 12),
    ("tests/", 12),
]
FORBIDDEN = [
    ("rtl_models/", "tb/"),
    ("tb/", "rtl_models/engines/"),
]
MAX_LINES = 900
# One documented state machine, and generated tables.
SIZE_EXCEPTIONS = {
    "runtime/include/tessera/runtime/executor.hpp",
    "firmware/include/tessera/firmware/optimal_trees_table.hpp",
}
SOURCE = (".cpp", ".hpp", ".h", ".sv", ".svh")


def layer(path):
    best = None
    for prefix, rank in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, rank)
    return best


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    return [f for f in out if f]


def include_index(files):
    """tessera/x/y.hpp -> the file that holds it (every include/ directory)."""
    index = {}
    for f in files:
        m = re.search(r"(?:^|/)include/(.+)$", f)
        if m:
            index.setdefault(m.group(1), f)
    return index


def resolve(includer, name, index, present):
    if name in index:
        return index[name]
    local = os.path.normpath(os.path.join(os.path.dirname(includer), name))
    if local in present:
        return local
    # A directory added with target_include_directories: the unique tracked file that
    # ends with the name.
    hits = [f for f in present if f.endswith("/" + name)]
    return hits[0] if len(hits) == 1 else None


def breach(src, dst):
    a, b = layer(src), layer(dst)
    if a is None or b is None:
        return None
    if dst.startswith("tests/") and not src.startswith("tests/"):
        return "production code reaches into tests/"
    for x, y in FORBIDDEN:
        if src.startswith(x) and dst.startswith(y):
            return f"{x} does not include {y}"
    if b[1] > a[1]:
        return f"layer {a[0]} ({a[1]}) depends on the higher {b[0]} ({b[1]})"
    return None


def check_includes(root, files, problems):
    present = set(files)
    index = include_index(files)
    for f in files:
        if not f.endswith(SOURCE):
            continue
        with open(os.path.join(root, f), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line) or re.match(
                    r"\s*`include\s+\"([^\"]+)\"", line)
                if not m:
                    continue
                target = resolve(f, m.group(1), index, present)
                if target is None:
                    continue  # a generated header (Verilated models, all_headers.cpp)
                why = breach(f, target)
                if why:
                    problems.append(f"{f}:{n}: includes {target}: {why}")


def cmake_targets(root, files):
    """tessera_x / tessera::x -> the folder whose CMakeLists.txt defines it."""
    where = {}
    for f in files:
        if not f.endswith("CMakeLists.txt"):
            continue
        text = open(os.path.join(root, f)).read()
        for m in re.finditer(r"add_(?:library|executable)\(\s*([A-Za-z0-9_]+)", text):
            where[m.group(1)] = os.path.dirname(f) + "/"
        for m in re.finditer(r"add_library\(\s*(tessera::[A-Za-z0-9_]+)\s+ALIAS\s+([A-Za-z0-9_]+)",
                             text):
            where[m.group(1)] = None, m.group(2)
    out = {}
    for name, value in where.items():
        if isinstance(value, tuple):
            value = where.get(value[1])
        if isinstance(value, str):
            out[name] = value
    return out


def check_links(root, files, problems):
    targets = cmake_targets(root, files)
    for f in files:
        if not f.endswith("CMakeLists.txt") or f.startswith("tests/"):
            continue
        text = open(os.path.join(root, f)).read()
        for m in re.finditer(r"target_link_libraries\(\s*([A-Za-z0-9_]+)(.*?)\)\s*$", text,
                             re.S | re.M):
            user = targets.get(m.group(1))
            if user is None:
                continue
            for used in re.findall(r"tessera(?:::|_)[A-Za-z0-9_]+", m.group(2)):
                folder = targets.get(used)
                if folder is None:
                    continue
                why = breach(user, folder)
                if why:
                    line = text[: m.start()].count("\n") + 1
                    problems.append(f"{f}:{line}: {m.group(1)} links {used} ({folder}): {why}")


def check_sizes(root, files, problems):
    for f in files:
        if not f.endswith(SOURCE) or f in SIZE_EXCEPTIONS:
            continue
        with open(os.path.join(root, f), errors="replace") as fh:
            lines = sum(1 for _ in fh)
        if lines > MAX_LINES:
            problems.append(f"{f}: {lines} lines, over {MAX_LINES}: split it by job")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = tracked(root)
    problems = []
    check_includes(root, files, problems)
    check_links(root, files, problems)
    check_sizes(root, files, problems)
    for p in problems:
        print(p)
    print(f"{len(files)} files: {len(problems)} breaches of the layout")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
