#!/usr/bin/env python3
"""A tile under GDB (docs/tiles.md, "Debugging a tile"), through the built CLI and
gdb-multiarch in batch mode.

Tile 1 of a 2 x 2 mesh runs the pairwise-exchange all-to-all on a Cortex-M4 core with
`--gdb 1:0`; GDB attaches before the tile's first instruction, breaks at the executor's
op dispatch (begin_op) and prints the op, then at the end of that op (finish_op) reads the
receive buffer, whose block must be the one tile 0 sent tile 1, byte for byte as the
payload definition (Tessera's data_byte: mix32 of block id and offset, computed here on
its own) says; then it detaches, and the run must finish and verify. Also: bad uses exit 2
with one line. Usage: gdb_session.py TESSERA TILE_IMAGE GDB
"""
import re
import socket
import subprocess
import sys
import time

tessera, image, gdb = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


M = 0xFFFFFFFF


def mix32(a, b):
    x = ((a * 0x9E3779B1) & M) ^ (((b + 0x7F4A7C15) & M) * 0x85EBCA6B & M)
    x ^= x >> 15
    x = (x * 0x2C1B3C6D) & M
    x ^= x >> 12
    x = (x * 0x297A2D39) & M
    x ^= x >> 15
    return x


run = [tessera, "run", "--model", "tlm", "--fabric", "mesh:2x2", "--collective", "alltoall",
       "--algorithm", "pex", "--bytes", "64", "--tiles", "cortex-m4"]
proc = subprocess.Popen(run + ["--gdb", "1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
line = proc.stderr.readline()
m = re.match(r"tessera: tile 1 waits for GDB on 127\.0\.0\.1:(\d+) \(target remote :\1\)$",
             line.rstrip("\n"))
check(m is not None, f"the run names its GDB port: {line!r}")
if m is None:
    proc.kill()
    sys.exit(1)
port = m.group(1)
ex = "tessera::executor<tessera::mmio_nic<tessera::tile::tile_bus>, " \
     "tessera::fw::collective_program>::"
script = [
    f"file {image}",
    f"target remote :{port}",
    "info registers pc",
    f"break {ex}begin_op",
    "continue",
    "print this->op_",
    "delete",
    f"break {ex}finish_op",
    "continue",
    "print this->op_.kind",
    "print this->buf_.recv_ids._M_ptr[0].v_",
    "x/72xb this->buf_.rx._M_ptr",
    "stepi",
    "info registers pc",
    "detach",
]
args = [gdb, "-batch", "-nx"]
for s in script:
    args += ["-ex", s]
g = subprocess.run(args, capture_output=True, text=True, timeout=120)
out = g.stdout
print(out)
check(g.returncode == 0, f"gdb exits 0 (got {g.returncode}: {g.stderr.strip()})")
# Stopped before the first instruction: the image's entry point.
check(re.search(r"pc\s+0x[0-9a-f]+\s+0x[0-9a-f]+ <_start>", out) is not None,
      "the tile waits at _start")
check("Breakpoint 1, " + ex + "begin_op" in out, "the op dispatch breakpoint is hit")
check(re.search(r"\$1 = \{kind = tessera::op_kind::exchange, step = 1, to = 0, from = 0", out)
      is not None, "the first op is the exchange with tile 0 in step 1")
check("$2 = tessera::op_kind::exchange" in out, "finish_op ends that exchange")
bid = re.search(r"\$3 = (\d+)", out)
check(bid is not None and int(bid.group(1)) == 0 * 4 + 1,
      "the block received is tile 0's block for tile 1 (id src * p + dst = 1)")
data = [int(b, 16) for b in re.findall(r"0x([0-9a-f]{2})\b", "\n".join(
    l.split(":", 1)[1] for l in out.splitlines() if re.match(r"0x[0-9a-f]+:\s", l)))]
check(len(data) == 72, f"72 bytes of the receive buffer read ({len(data)})")
if len(data) == 72:
    rec_id = int.from_bytes(bytes(data[0:4]), "little")
    rec_len = int.from_bytes(bytes(data[4:8]), "little")
    check((rec_id, rec_len) == (1, 64), f"the record names block 1 of 64 bytes ({rec_id}, {rec_len})")
    want = [mix32(1, i) & 0xFF for i in range(64)]
    bad = [i for i in range(64) if data[8 + i] != want[i]]
    check(not bad, f"every byte of block 1 is the payload's (differ at {bad[:8]})")
pcs = re.findall(r"pc\s+(0x[0-9a-f]+)", out)
check(len(pcs) >= 2, "stepi moves the pc")
check("[Inferior 1 (Remote target) detached]" in out, "gdb detaches")
try:
    rest, err = proc.communicate(timeout=300)
except subprocess.TimeoutExpired:
    proc.kill()
    rest, err = proc.communicate()
check(proc.returncode == 0, f"the run exits 0 after the detach (got {proc.returncode}: {err})")
check(re.search(r"verified\s+yes, 1024 bytes checked", rest) is not None,
      "the run verifies every byte")

# Bad uses: one line on stderr, exit 2.
busy = socket.socket()
busy.bind(("127.0.0.1", 0))
busy.listen(1)
taken = busy.getsockname()[1]
bad = [
    (run + ["--gdb", "4"], r"^tessera: --gdb: tile 4 is not on the fabric \(tiles 0\.\.3\)$"),
    (run[:-2] + ["--gdb", "0"], r"^tessera: --gdb goes with --tiles cortex-m4"),
    (run + ["--gdb", f"1:{taken}"], rf"^tessera: --gdb: cannot listen on port {taken} \("),
    (run + ["--gdb", "1:70000"], r"^tessera: --gdb 70000 is too large, at most 65535$"),
    (run + ["--gdb", "x"], r"^tessera: --gdb "),
    ([tessera, "crosscheck", "--models", "tlm,tlm"] + run[4:] + ["--gdb", "0"],
     r"^tessera: --gdb does not go with crosscheck"),
    ([tessera, "sweep"] + run[2:] + ["--gdb", "0"],
     r"^tessera: --gdb does not go with sweep"),
]
for cmd, pattern in bad:
    r = subprocess.run([c for c in cmd], capture_output=True, text=True, timeout=60)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and re.search(pattern, lines[0]) is not None,
          f"{' '.join(cmd[-2:])}: exit 2 with one line matching {pattern!r} "
          f"(got {r.returncode}: {r.stderr.strip()!r})")
busy.close()

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("gdb session: all checks passed")
