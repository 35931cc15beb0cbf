#!/usr/bin/env python3
"""Bad input on every subcommand, run through the built binary.

Each case gives the expected exit status (2 bad input, 1 a failed run), a piece of
text the stderr line must contain (the offending value), and the arguments. Every case
runs twice, as given and with --json added, and must print exactly one line on stderr,
nothing on stdout for exit 2 without --json, and with --json exactly one JSON object
(for bad input: "error" naming the value and "exit_status": 2). No case may crash, hang (10 s) or take more than 1 GiB.

usage: bad_inputs.py TESSERA_BINARY
"""
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile

# (exit, names, arguments); {d} is a scratch directory holding the fixtures below.
CASES = [
    # the command line itself
    (2, "'frobnicate'", "frobnicate"),
    (2, "'--bogus'", "analyze --fabric mesh:4x4 --collective alltoall --algorithm gen --bogus 1"),
    (2, "'stray'", "run --fabric mesh:4x4 stray"),
    (2, "--fabric", "run --collective bcast"),
    (2, "--fabric needs a value", "run --collective bcast --fabric"),
    (2, "--bytes given twice", "run --fabric ring:4 --collective bcast --bytes 8 --bytes 16"),
    (2, "--json takes no value", "run --fabric ring:4 --collective bcast --json=yes"),
    (2, "needs a workload", "run --fabric ring:4"),
    # the parser (CLI11, tools/tessera/args.hpp): every form an option takes
    (2, "'--fabrc'", "run --fabrc=ring:4 --collective bcast"),
    (2, "'-x'", "trees --fabric torus:4x4 --algorithm single -x"),
    (2, "--fabric needs a value (got the option '--bytes')", "run --collective bcast --fabric --bytes 8"),
    (2, "--chart takes no value (got '1')",
     "analyze --fabric ring:4 --collective alltoall --algorithm ring --chart=1"),
    (2, "--root given twice ('1' and '2')", "trees --fabric torus:4x4 --algorithm single --root 1 --root=2"),
    (2, "--index needs a value", "sweep --job {d}/s.json --index"),
    (2, "'grama'", "reproduce thakur grama"),
    (2, "crosscheck takes --models A,B, not --model", "crosscheck --model tlm --fabric ring:4 --collective bcast"),
    (2, "--trace does not go with crosscheck",
     "crosscheck --models alphabeta,tlm --fabric ring:4 --collective bcast --trace {d}/t.json"),
    (2, "'--frob' for 'tessera models'", "models --frob"),
    # odd option forms: one line naming the word, never an internal error
    (2, "'--=x' is not an option", "run --fabric ring:4 --collective bcast --=x"),
    (2, "'--=' is not an option", "run --fabric ring:4 --collective bcast --="),
    (2, "'-=' is not an option", "run --fabric ring:4 --collective bcast -="),
    (2, "'---' is not an option", "analyze --fabric ring:4 --collective alltoall --algorithm ring ---"),
    (2, "'---x'", "run --fabric ring:4 --collective bcast ---x"),
    (2, "'=x'", "run --fabric ring:4 --collective bcast =x"),
    (2, "--json takes no value (got '')", "run --fabric ring:4 --collective bcast --json="),
    (2, "--prepost takes no value (got '')", "run --fabric ring:4 --collective bcast --prepost="),
    (2, "unexpected argument '--bytes' for 'tessera run' (after '--'",
     "run --fabric ring:4 --collective bcast -- --bytes 8"),
    # a flag twice, an option accepted without effect
    (2, "option --markdown given twice", "models --markdown --markdown"),
    (2, "option --prepost given twice", "run --fabric ring:4 --collective bcast --prepost --prepost"),
    (2, "--firmware needs a file name",
     "run --model tlm --tiles cortex-m4 --fabric mesh:2x2 --collective bcast --firmware ''"),
    (2, "--firmware goes with --tiles cortex-m4",
     "crosscheck --models tlm,tlm --fabric ring:4 --collective bcast --firmware {d}/s.json"),
    # an image's own contract (--firmware without --collective, docs/tiles.md)
    (2, "--firmware needs --model tlm or rtl",
     "run --model alphabeta --fabric ring:4 --firmware {d}/s.json"),
    (2, "is not an ELF file",
     "run --model tlm --tiles cortex-m4 --fabric ring:4 --firmware {d}/s.json"),
    (2, "--root goes with --collective",
     "run --model tlm --tiles cortex-m4 --fabric ring:4 --firmware {d}/s.json --root 1"),
    (2, "--shift goes with --collective",
     "run --model tlm --tiles cortex-m4 --fabric ring:4 --firmware {d}/s.json --shift 1"),
    (2, "--param cpu_mhz goes with --tiles cortex-m4",
     "crosscheck --models alphabeta,tlm --fabric ring:4 --collective bcast --param cpu_mhz=100"),
    (2, "--transfers does not go with crosscheck",
     "crosscheck --models alphabeta,tlm --fabric ring:4 --collective bcast --transfers"),
    (2, "--transfers does not go with sweep", "sweep --fabric ring:4 --collective bcast --transfers"),
    # fabrics
    (2, "'mesh'", "run --fabric mesh --collective bcast"),
    (2, "'mesh:4'", "run --fabric mesh:4 --collective bcast"),
    (2, "'mesh:0x4'", "run --fabric mesh:0x4 --collective bcast"),
    (2, "'mesh:1x1'", "run --fabric mesh:1x1 --collective bcast"),
    (2, "'mesh:300x300'", "run --fabric mesh:300x300 --collective bcast"),
    (2, "'hypercube:0'", "run --fabric hypercube:0 --collective bcast"),
    (2, "'hypercube:17'", "run --fabric hypercube:17 --collective bcast"),
    (2, "'ring:1'", "run --fabric ring:1 --collective bcast"),
    (2, "'ring:-4'", "run --fabric ring:-4 --collective bcast"),
    (2, "'torus:4x4x4'", "run --fabric torus:4x4x4 --collective bcast"),
    (2, "'star:8'", "run --fabric star:8 --collective bcast"),
    (2, "(2000 bytes)", "run --fabric mesh:" + "9" * 1995 + " --collective bcast"),
    (2, "'mesh:4\\x01x4'", "run --fabric $'mesh:4\\x01x4' --collective bcast"),
    # numbers at and past their limits
    (2, "--bytes 0 is too small", "run --fabric ring:4 --collective bcast --bytes 0"),
    (2, "too large, at most 1073741824",
     "run --fabric ring:4 --collective bcast --bytes 4611686018427387904"),
    (2, "--bytes 1073741825 is too large", "run --fabric ring:4 --collective bcast --bytes 1073741825"),
    (2, "'-8'", "run --fabric ring:4 --collective bcast --bytes -8"),
    (2, "'1e3'", "run --fabric ring:4 --collective bcast --bytes 1e3"),
    (2, "'0x10'", "analyze --fabric ring:4 --collective alltoall --algorithm ring --bytes 0x10"),
    (2, "--root 4", "run --fabric ring:4 --collective bcast --root 4"),
    (2, "--root 99999999999", "run --fabric ring:4 --collective bcast --root 99999999999"),
    (2, "--shift 4", "run --fabric ring:4 --collective shift --shift 4"),
    (2, "--shift 0", "run --fabric ring:4 --collective shift --shift 0"),
    (2, "--packets 0", "run --fabric torus:4x4 --collective bcast --algorithm edst-single --packets 0"),
    (2, "--packets 2000000",
     "run --fabric torus:4x4 --collective bcast --algorithm edst-single --packets 2000000"),
    (2, "ts 1099511627777",
     "run --fabric ring:4 --collective bcast --param ts=1099511627777"),
    (2, "max_cycles 0", "run --fabric ring:4 --collective bcast --param max_cycles=0"),
    (2, "max_retries 1001",
     "run --fabric ring:4 --collective bcast --protocol reliable --param max_retries=1001"),
    (2, "--param max_retries goes with --protocol reliable",
     "run --fabric ring:4 --collective bcast --param max_retries=3"),
    (2, "--param unforced_threshold goes with --protocol unforced",
     "run --fabric ring:4 --collective bcast --param unforced_threshold=50"),
    (2, "--param max_cycles does not apply to --traffic",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --param max_cycles=100"),
    (2, "--send-ahead does not apply to --protocol unforced",
     "run --fabric ring:4 --collective bcast --protocol unforced --send-ahead"),
    (2, "'abc'", "run --fabric ring:4 --collective bcast --param ts=abc"),
    (2, "eager_copy 1000001", "run --model tlm --fabric mesh:4x4 --collective bcast --param eager_copy=1000001"),
    (2, "duplex_hold=2", "run --model tlm --fabric mesh:4x4 --collective bcast --param duplex_hold=2"),
    (2, "eager_bytes '-1'", "run --model tlm --fabric mesh:4x4 --collective bcast --param eager_bytes=-1"),
    (2, "alpha_eager", "run --model tlm --fabric hypercube:3 --collective bcast --param alpha_eager=5"),
    (2, "'=5'", "run --fabric ring:4 --collective bcast --param =5"),
    (2, "'nan'", "analyze --fabric ring:4 --collective alltoall --algorithm ring --param alpha=nan"),
    (2, "'inf'", "analyze --fabric ring:4 --collective alltoall --algorithm ring --param alpha=inf"),
    (2, "width='0'", "analyze --fabric ring:4 --collective alltoall --algorithm ring --param width=0"),
    (2, "--rate '0'", "run --model tlm --fabric mesh:4x4 --traffic uniform --rate 0"),
    (2, "--rate '1.5'", "run --model tlm --fabric mesh:4x4 --traffic uniform --rate 1.5"),
    (2, "--rate 'nan'", "run --model tlm --fabric mesh:4x4 --traffic uniform --rate nan"),
    (2, "--warmup 100", "run --model tlm --fabric mesh:4x4 --traffic uniform --cycles 100 --warmup 100"),
    (2, "--hotspot 16", "run --model tlm --fabric mesh:4x4 --traffic hotspot --hotspot 16"),
    (2, "--packet-flits 0", "run --model tlm --fabric mesh:4x4 --traffic uniform --packet-flits 0"),
    (2, "--payload-bytes 3", "run --model tlm --fabric mesh:4x4 --collective bcast --bytes 8 --payload-bytes 3"),
    # names
    (2, "'gossip'", "run --fabric ring:4 --collective gossip"),
    (2, "'quick'", "run --fabric ring:4 --collective bcast --algorithm quick"),
    (2, "'lazy'", "run --fabric ring:4 --collective bcast --protocol lazy"),
    (2, "'analytic'", "run --model analytic --fabric ring:4 --collective bcast"),
    (2, "'optical'", "run --model tlm --fabric ring:4 --collective bcast --switching optical"),
    (2, "'cray'", "run --model tlm --fabric ring:4 --collective bcast --machine cray"),
    (2, "--machine ipsc860", "run --model tlm --fabric ring:4 --collective bcast --machine ipsc860"),
    (2, "'i128'", "run --fabric ring:4 --collective allreduce --type i128"),
    (2, "'xor'", "run --fabric ring:4 --collective allreduce --op xor"),
    (2, "--op band", "run --fabric ring:4 --collective allreduce --type f32 --op band"),
    (2, "'swirl'", "run --model tlm --fabric mesh:4x4 --traffic swirl"),
    (2, "--traffic transpose", "run --model tlm --fabric mesh:4x8 --traffic transpose"),
    (2, "'pexx'", "analyze --fabric mesh:4x4 --collective alltoall --algorithm pexx"),
    (2, "--algorithm pex needs a power-of-two", "run --fabric mesh:4x5 --collective alltoall --algorithm pex"),
    (2, "'fox'", "reproduce fox"),
    (2, "'alpha'", "reproduce thakur --model alpha"),
    (2, "--table '9'", "reproduce thakur --table 9"),
    (2, "--table", "reproduce thakur --table"),
    (2, "--model", "reproduce grama --model tlm"),
    (2, "--table", "reproduce grama --table 2"),
    (2, "--html", "reproduce all --html"),
    (2, "'/nonexistent/dir/page.html'", "reproduce all --html /nonexistent/dir/page.html"),
    (2, "--jobs", "reproduce thakur --model analytic --jobs 2"),
    (2, "--seeds '0'", "reproduce bokhari --seeds 0"),
    (2, "--seeds '8x'", "reproduce bokhari --seeds 8x"),
    (2, "--envelope-seeds '1'", "reproduce bokhari --envelope-seeds 1"),
    (2, "--jobs", "reproduce bokhari --jobs"),
    (2, "--jobs", "reproduce grama --jobs 2"),
    (2, "--seeds", "reproduce thakur --seeds 4"),
    (2, "--seeds", "reproduce bokhari --model rtl --seeds 4"),
    (2, "'zigzag'", "trees --fabric torus:4x4 --algorithm zigzag"),
    (2, "--root 16", "trees --fabric torus:4x4 --algorithm single --root 16"),
    (2, "mesh:4x4", "trees --fabric mesh:4x4 --algorithm single"),
    (2, "--algorithms ',gen'", "compare --fabric mesh:4x4 --collective alltoall --algorithms ,gen"),
    # options that do not go together
    (2, "--pattern and --schedule", "run --model tlm --fabric ring:4 --pattern {d}/p.json --schedule {d}/s.json"),
    (2, "--schedule and --traffic", "run --model tlm --fabric ring:4 --schedule {d}/s.json --traffic uniform"),
    (2, "--algorithm does not apply to --schedule", "run --fabric ring:4 --schedule {d}/s.json --algorithm ring"),
    (2, "--root does not apply to --schedule", "run --fabric ring:4 --schedule {d}/s.json --root 1"),
    (2, "--type does not apply to --schedule", "run --fabric ring:4 --schedule {d}/s.json --type f32"),
    (2, "--op does not apply to --schedule", "run --fabric ring:4 --schedule {d}/s.json --op max"),
    (2, "--bytes does not apply to --pattern", "run --model tlm --fabric ring:4 --pattern {d}/p.json --bytes 8"),
    (2, "--hotspot goes with --traffic hotspot", "run --model tlm --fabric mesh:4x4 --traffic uniform --hotspot 3"),
    (2, "--source-queue 0 is too small", "run --model tlm --fabric mesh:4x4 --traffic uniform --source-queue 0"),
    (2, "--source-queue 65537 is too large", "run --model tlm --fabric mesh:4x4 --traffic uniform --source-queue 65537"),
    (2, "--source-queue 200 on 65536 tiles", "run --model tlm --fabric mesh:256x256 --traffic uniform --source-queue 200"),
    (2, "--source-queue does not apply to --collective", "run --fabric mesh:4x4 --collective bcast --source-queue 4"),
    (2, "--rate does not apply to --collective", "run --fabric ring:4 --collective bcast --rate 0.1"),
    (2, "--pattern needs --model tlm", "run --model alphabeta --fabric ring:4 --pattern {d}/p.json"),
    (2, "--switching needs --model tlm",
     "run --model alphabeta --fabric ring:4 --collective bcast --switching circuit"),
    (2, "circuit switching needs a hypercube", "run --fabric ring:4 --collective bcast --switching circuit"),
    (2, "--version takes only --json", "--version --frob"),
    (2, "--bytes '9:1' runs backwards", "sweep --fabric ring:4 --collective bcast --bytes 9:1"),
    (2, "--rate '0:0.3:log'", "sweep --model tlm --fabric mesh:4x4 --traffic uniform --rate 0:0.3:log"),
    (2, "--plot draws a load-latency curve", "sweep --fabric ring:4 --collective bcast --plot {d}/p.svg"),
    (2, "--index goes with --job", "sweep --fabric ring:4 --collective bcast --index 3"),
    (2, "--trace does not go with sweep", "sweep --fabric ring:4 --collective bcast --bytes 8,16 --trace {d}/t.json"),
    (2, "is not a sweep's sweep.json", "sweep --job {d}/s.json --index 0"),
    (2, "--emit-jobs", "sweep --fabric ring:4 --collective bcast --bytes 64,128 --emit-jobs {d}/j.txt --csv {d}/x.csv"),
    (2, "--trace-window 'x:9'", "run --fabric ring:4 --collective bcast --trace {d}/t.json --trace-window x:9"),
    (2, "--trace-tiles '0-9'", "run --fabric ring:4 --collective bcast --trace {d}/t.json --trace-tiles 0-9"),
    (2, "--trace does not apply to --traffic", "run --model tlm --fabric mesh:4x4 --traffic uniform --trace {d}/t.json"),
    (2, "--heatmap-metric goes with --heatmap", "run --model tlm --fabric mesh:4x4 --collective bcast --heatmap-metric messages"),
    (2, "--heatmap-metric 'heat'", "run --model tlm --fabric mesh:4x4 --collective bcast --heatmap {d}/h.svg --heatmap-metric heat"),
    (2, "--heatmap needs --model tlm", "run --model alphabeta --fabric mesh:4x4 --collective bcast --heatmap {d}/h.svg"),
    (2, "--heatmap-steps draws dimension-order routes",
     "run --model tlm --fabric torus:4x4 --collective bcast --algorithm edst-single --heatmap {d}/h.svg --heatmap-steps"),
    (2, "--heatmap-metric does not apply to --heatmap-steps",
     "run --model tlm --fabric mesh:4x4 --collective bcast --heatmap {d}/h.svg --heatmap-steps --heatmap-metric messages"),
    (2, "--heatmap-steps with --param routing=odd-even: the step panels draw paths fixed in advance (routing xy or yx)",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=odd-even --heatmap {d}/h.svg --heatmap-steps"),
    (2, "--fault link=0-1@0 with --param routing=o1turn: link faults find the messages they stop on paths fixed in advance (routing xy or yx)",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=o1turn --param vcs=2 --fault link=0-1@0"),
    (2, "--param routing=zx is not xy, yx, o1turn, west-first, north-last, negative-first or odd-even",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=zx"),
    (2, "wormhole: param routing o1turn needs vcs >= 2 (a VC class for XY packets and one for YX), got vcs 1",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=o1turn"),
    (2, "wormhole: param routing odd-even with vc_share=fixed is not modelled",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=odd-even --param vcs=2 --param vc_share=fixed"),
    (2, "--fault link=0-1@0 with --param routing=west-first: link faults find the messages they stop on paths fixed in advance",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param routing=west-first --fault link=0-1@0"),
    (2, "wormhole: param pipeline 2 with vc_share=fixed is not modelled",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param pipeline=2 --param vcs=2 --param vc_share=fixed"),
    (2, "wormhole: pipeline 17 is out of range 1..16",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param pipeline=17"),
    (2, "--traffic tornado needs a mesh, torus or ring",
     "run --model tlm --fabric hypercube:4 --traffic tornado"),
    (2, "--packet-sizes '1:0': weight 0 is not 1..1048576",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --packet-sizes 1:0"),
    (2, "--packet-sizes and --packet-flits both give the packet size: give one",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --packet-sizes 1:1 --packet-flits 4"),
    (2, "--injection 'bursty' is not bernoulli or on-off",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --injection bursty"),
    (2, "--burst-on goes with --injection on-off, not --injection bernoulli",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --burst-on 5"),
    (2, "--burst-off '0.5' is not a number of cycles in 1..1e9",
     "run --model tlm --fabric mesh:4x4 --traffic uniform --injection on-off --burst-off 0.5"),
    (2, "wormhole: param half_duplex 1 with vcs 2 shared round robin is not modelled",
     "run --model tlm --fabric mesh:4x4 --collective bcast --param vcs=2 --param half_duplex=1"),
    (2, "--protocol reliable does not apply to --pattern",
     "run --model tlm --fabric ring:4 --pattern {d}/p.json --protocol reliable"),
    (2, "--fault does not apply to --traffic", "run --model tlm --fabric mesh:4x4 --traffic uniform --fault stall=1@0+5"),
    (2, "--schedule replaces --collective", "analyze --fabric ring:4 --schedule {d}/s.json --collective alltoall"),
    (2, "--packets goes with an edst broadcast", "run --fabric ring:4 --collective bcast --packets 3"),
    # faults
    (2, "'flood=1'", "run --fabric ring:4 --collective bcast --fault flood=1"),
    (2, "'link=0-2@5'", "run --fabric ring:4 --collective bcast --fault link=0-2@5"),
    (2, "'drop=0->9#1'", "run --fabric ring:4 --collective bcast --fault 'drop=0->9#1'"),
    (2, "'drop=0->1#0'", "run --fabric ring:4 --collective bcast --fault 'drop=0->1#0'"),
    (2, "'stall=1@5'", "run --fabric ring:4 --collective bcast --fault stall=1@5"),
    (2, "'stall=1@5+0'", "run --fabric ring:4 --collective bcast --fault stall=1@5+0"),
    (2, "'corrupt=2->2#1'", "run --fabric ring:4 --collective bcast --fault 'corrupt=2->2#1'"),
    (2, "2^60", "run --fabric ring:4 --collective bcast --fault link=0-1@99999999999999999999"),
    (2, "line 2", "run --fabric ring:4 --collective bcast --fault-file {d}/faults.txt"),
    # a fault given twice (a second drop finds nothing left, a second flip undoes the first)
    (2, "the fault corrupt=0->1#1 is given twice",
     "run --fabric ring:4 --collective bcast --fault 'corrupt=0->1#1' --fault 'corrupt=0->1#01'"),
    (2, "the fault drop=0->1#1 is given twice",
     "run --model tlm --fabric ring:4 --collective bcast --fault 'drop=0->1#1' --fault 'drop=0->1#1'"),
    (2, "the fault stall=1@0+5 is given twice",
     "run --fabric ring:4 --collective bcast --fault stall=1@0+5 --fault-file {d}/stall.txt"),
    (2, "the fault link=0-1@5 is given twice",
     "run --fabric ring:4 --collective bcast --fault link=0-1@5 --fault link=0-1@5"),
    (2, "--fault stall=0@0+5 does not apply to --pattern",
     "run --model tlm --fabric ring:4 --pattern {d}/p.json --fault stall=0@0+5"),
    # files
    (2, "is a directory", "run --model tlm --fabric ring:4 --pattern {d}"),
    (2, "is a directory", "run --model tlm --fabric torus:4x4 --collective bcast --routes {d}"),
    (2, "is a directory", "analyze --fabric ring:4 --schedule {d}"),
    (2, "cannot be opened", "run --fabric ring:4 --schedule {d}/missing.json"),
    (2, "'/dev/zero' is not JSON", "run --fabric ring:4 --schedule /dev/zero"),
    (2, "crosscheck: --schedule '/dev/zero' is not a regular file",
     "crosscheck --models alphabeta,alphabeta --fabric ring:4 --schedule /dev/zero"),
    (2, "--job '/dev/zero' is not JSON", "sweep --job /dev/zero --index 0"),
    (2, "holds more than 16777216 JSON values", "sweep --job {d}/fifo --index 0"),
    (2, "holds more than 16777216 JSON values", "sweep --collect {d}/fifodir"),
    # files that cannot be written: one line naming the option and the file
    (2, "--trace '/dev/full': write failed", "run --fabric ring:4 --collective bcast --trace /dev/full"),
    (2, "--csv '/dev/full': write failed", "sweep --fabric ring:4 --collective bcast --bytes 8,16 --csv /dev/full"),
    (2, "--jsonl '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 8,16 --jsonl /dev/full --csv {d}/x.csv"),
    (2, "--slurm '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 8,16 --job-dir {d}/sj --slurm /dev/full"),
    (2, "--emit-jobs '/dev/full': write failed",
     "sweep --fabric ring:4 --collective bcast --bytes 8,16 --job-dir {d}/sj --emit-jobs /dev/full"),
    (2, "holds more than 16777216 JSON values", "run --fabric ring:4 --schedule {d}/fifo"),
    (2, "is not JSON", "run --fabric ring:4 --schedule {d}/empty.json"),
    (2, "is not JSON", "run --fabric ring:4 --schedule {d}/binary.bin"),
    (2, "nests deeper than 64", "run --fabric ring:4 --schedule {d}/deep.json"),
    (2, "nests deeper than 64", "run --model tlm --fabric ring:4 --pattern {d}/deep.json"),
    (2, "number overflow", "analyze --fabric ring:2 --schedule {d}/overflow.json"),
    (2, "schedule must be a JSON object", "run --fabric ring:4 --schedule {d}/array.json"),
    (2, "schedule.tiles = \"4\"", "run --fabric ring:4 --schedule {d}/tiles_string.json"),
    (2, "has 4 tiles", "analyze --fabric ring:8 --schedule {d}/s.json"),
    (2, "ops[0][0] (send) names tile 0", "run --fabric ring:4 --schedule {d}/self.json"),
    (2, "does not split into 3 equal blocks", "run --fabric ring:4 --schedule {d}/split.json"),
    (2, "is not a name", "analyze --fabric ring:4 --schedule {d}/longname.json"),
    # block sizes: one per block, the same for analyze and every run model
    (2, "ops[1][1] sends block 0 as 1 byte, but block 0 has 64 bytes (as ops[0][0] sends it)",
     "analyze --fabric ring:3 --schedule {d}/truncate.json"),
    (2, "ops[1][1] sends block 0 as 1 byte, but block 0 has 64 bytes (as ops[0][0] sends it)",
     "run --fabric ring:3 --schedule {d}/truncate.json"),
    (2, "ops[1][1] sends block 0 as 128 bytes, but block 0 has 64 bytes",
     "analyze --fabric ring:3 --schedule {d}/pad.json"),
    (2, "ops[1][1] sends block 0 as 128 bytes, but block 0 has 64 bytes",
     "run --model tlm --fabric ring:3 --schedule {d}/pad.json"),
    (2, "ops[0][1] sends block 0 as 1 byte, but block 0 has 64 bytes",
     "analyze --fabric ring:3 --schedule {d}/twosizes.json"),
    (2, "ops[0][1] sends block 0 as 1 byte, but block 0 has 64 bytes",
     "run --fabric ring:3 --schedule {d}/twosizes.json"),
    (2, "start 18446744073709551615 is too large", "run --model tlm --fabric ring:4 --pattern {d}/start.json"),
    (2, "bytes -5 is negative", "run --model tlm --fabric ring:4 --pattern {d}/negative.json"),
    (2, "src \"0\" is not a whole number", "run --model tlm --fabric ring:4 --pattern {d}/srcstring.json"),
    (2, "unknown field \"when\"", "run --model tlm --fabric ring:4 --pattern {d}/unknownfield.json"),
    (2, "has no transfers", "run --model tlm --fabric ring:4 --pattern {d}/notransfers.json"),
    (2, "port \"Q\"", "run --model tlm --fabric torus:4x4 --collective bcast --routes {d}/badport.json"),
    (2, "loops", "run --model tlm --fabric torus:4x4 --collective bcast --routes {d}/loop.json"),
    (2, 'entry 1 (tile 0, dst 5, port "S") contradicts entry 0 (tile 0, dst 5, port "E")',
     "run --model tlm --fabric torus:4x4 --collective bcast --routes {d}/routeclash.json"),
    (2, 'entry 2 (tile 0, dst 5, port 0) repeats entry 0 (tile 0, dst 5, port "E")',
     "run --model tlm --fabric torus:4x4 --collective bcast --routes {d}/routetwice.json"),
    (2, "forwarding tables can deadlock: their routes close a cycle of buffer dependencies, tile 0 E class0",
     "run --model tlm --switching store-forward --fabric mesh:2x2 --collective alltoall --routes {d}/turns.json"),
    (2, "--param beta does not change the routes of wormhole switching", "check-routes --fabric mesh:4x4 --param beta=5"),
    (2, "--param buffers does not change the routes of wormhole switching",
     "check-routes --fabric torus:4x4 --switching wormhole --param buffers=2"),
    (2, "forwarding tables (--routes) apply to store-forward switching",
     "check-routes --fabric mesh:4x4 --routes {d}/loop.json"),
    (2, "--switching wormhole does not run on hypercube:3", "check-routes --fabric hypercube:3 --switching wormhole"),
    (2, "--switching ideal has no routes to check", "check-routes --fabric ring:4 --switching ideal"),
    (2, "--switching 'frob' is not an engine", "check-routes --fabric ring:4 --switching frob"),
    (2, "routes of mesh:256x256 are too many to check", "check-routes --fabric mesh:256x256"),
    (2, "routing odd-even on torus:4x4 is not modelled",
     "check-routes --fabric torus:4x4 --switching wormhole --param routing=odd-even"),
    (2, "o1turn needs vcs >= 2", "check-routes --fabric mesh:4x4 --param routing=o1turn"),
    (2, "vcs 17", "check-routes --fabric mesh:4x4 --param vcs=17"),
    (2, "loops", "check-routes --fabric torus:4x4 --routes {d}/loop.json"),
    (2, "has no entries", "check-routes --fabric torus:4x4 --routes {d}/noroutes.json"),
    (2, "--param 'vcs' is not key=value", "check-routes --fabric mesh:4x4 --param vcs"),
    # failed runs: exit 1, the reason on stderr
    (1, "deadlock", "run --fabric ring:3 --schedule {d}/deadlock.json"),
    (1, "tile 1 never got block", "run --fabric ring:4 --schedule {d}/s.json --fault link=0-1@0"),
    (1, "the receive expects 16", "run --fabric ring:2 --schedule {d}/mismatch.json"),
    (1, "the receive expects 16", "run --model tlm --fabric ring:2 --schedule {d}/mismatch.json"),
    (1, "stopped at cycle 50 by max_cycles",
     "run --model tlm --fabric mesh:4x4 --collective alltoall --param max_cycles=50"),
    (1, "stopped at cycle 50 by max_cycles",
     "run --fabric mesh:4x4 --collective alltoall --param max_cycles=50"),
    (1, "dropped in the fabric", "run --fabric hypercube:3 --collective alltoall --fault 'drop=0->1#1'"),
    (1, "flipped", "run --model tlm --fabric hypercube:3 --collective alltoall --fault 'corrupt=0->1#1'"),
    (1, "FORCED", "run --fabric hypercube:3 --collective alltoall --algorithm naive --protocol forced"),
    (1, "FORCED", "run --model tlm --fabric hypercube:3 --collective alltoall --algorithm naive --protocol forced"),
]

FIXTURES = {
    "s.json": '{"tiles": 4, "ops": [[{"op": "send", "peer": 1, "bytes": 8}], '
              '[{"op": "recv", "peer": 0, "bytes": 8}], [], []]}',
    "p.json": '{"transfers": [{"src": 0, "dst": 1, "bytes": 8}]}',
    "faults.txt": "link=0-1@5\nstall=9@0+1\n",
    "stall.txt": "stall=1@0+5\n",
    "empty.json": "",
    "deep.json": "[" * 100000 + "]" * 100000,
    "overflow.json": '{"tiles": 1e999, "ops": []}',
    "array.json": "[]",
    "tiles_string.json": '{"tiles": "4", "ops": []}',
    "self.json": '{"tiles": 4, "ops": [[{"op": "send", "peer": 0, "bytes": 8}], [], [], []]}',
    "split.json": '{"tiles": 4, "ops": [[{"op": "send", "peer": 1, "bytes": 10, '
                  '"send_blocks": [1, 2, 3]}], [], [], []]}',
    "longname.json": '{"tiles": 4, "collective": "' + "x" * 500 + '", "ops": [[], [], [], []]}',
    "start.json": '{"transfers": [{"src": 0, "dst": 1, "bytes": 8, "start": 18446744073709551615}]}',
    "negative.json": '{"transfers": [{"src": 0, "dst": 1, "bytes": -5}]}',
    "srcstring.json": '{"transfers": [{"src": "0", "dst": 1, "bytes": 5}]}',
    "unknownfield.json": '{"transfers": [{"src": 0, "dst": 1, "bytes": 5, "when": 3}]}',
    "notransfers.json": '{"transfers": []}',
    "badport.json": '{"routes": [{"tile": 0, "dst": 5, "port": "Q"}]}',
    "turns.json": '{"routes": [{"tile": 1, "dst": 2, "port": "S"}, {"tile": 2, "dst": 1, "port": "N"}]}',
    "noroutes.json": '{"routes": []}',
    "loop.json": '{"routes": [{"tile": 0, "dst": 2, "port": "E"}, {"tile": 1, "dst": 2, "port": "W"}]}',
    "routeclash.json": '{"routes": [{"tile": 0, "dst": 5, "port": "E"}, {"tile": 0, "dst": 5, "port": "S"}]}',
    "routetwice.json": '{"routes": [{"tile": 0, "dst": 5, "port": "E"}, {"tile": 1, "dst": 5, "port": "S"}, '
                       '{"tile": 0, "dst": 5, "port": 0}]}',
    "deadlock.json": '{"tiles": 3, "ops": [[{"op": "recv", "peer": 2, "bytes": 8}, '
                     '{"op": "send", "peer": 1, "bytes": 8}], [{"op": "recv", "peer": 0, "bytes": 8}, '
                     '{"op": "send", "peer": 2, "bytes": 8}], [{"op": "recv", "peer": 1, "bytes": 8}, '
                     '{"op": "send", "peer": 0, "bytes": 8}]]}',
    "truncate.json": '{"tiles": 3, "ops": [[{"op": "send", "peer": 1, "bytes": 64, "send_blocks": [0]}], '
                     '[{"op": "recv", "peer": 0, "bytes": 64}, {"op": "send", "peer": 2, "bytes": 1, '
                     '"send_blocks": [0]}], [{"op": "recv", "peer": 1, "bytes": 1}]]}',
    "pad.json": '{"tiles": 3, "ops": [[{"op": "send", "peer": 1, "bytes": 64, "send_blocks": [0]}], '
                '[{"op": "recv", "peer": 0, "bytes": 64}, {"op": "send", "peer": 2, "bytes": 128, '
                '"send_blocks": [0]}], [{"op": "recv", "peer": 1, "bytes": 128}]]}',
    "twosizes.json": '{"tiles": 3, "ops": [[{"op": "send", "peer": 1, "bytes": 64, "send_blocks": [0]}, '
                     '{"op": "send", "peer": 2, "bytes": 1, "send_blocks": [0]}], '
                     '[{"op": "recv", "peer": 0, "bytes": 64}], [{"op": "recv", "peer": 0, "bytes": 64}]]}',
    "mismatch.json": '{"tiles": 2, "ops": [[{"op": "send", "peer": 1, "bytes": 8}], '
                     '[{"op": "recv", "peer": 0, "bytes": 16}]]}',
}


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(binary, args, d):
    cmd = shlex.quote(binary) + " " + args.replace("{d}", shlex.quote(d))
    # The timeout only catches a hang: the slowest row (the fifo's 16 M JSON values) takes
    # about 4 s on an idle core and took 10 s on 2 cores shared with other tests.
    return subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=60,
                          preexec_fn=limit_memory,
                          env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))


def check(binary, code, names, args, d, json_mode):
    if json_mode:
        args = args + " --json"
    writer = None
    if "{d}/fifo" in args:  # {d}/fifodir/sweep.json is the same fifo
        # An endless stream of valid JSON: the reader must stop at its own limit.
        fifo = shlex.quote(os.path.join(d, "fifo"))
        writer = subprocess.Popen(["bash", "-c", f"{{ printf '['; yes '0,'; }} > {fifo} 2>/dev/null"])
    try:
        r = run(binary, args, d)
    except subprocess.TimeoutExpired:
        return [f"hung (10 s): {args}"]
    finally:
        if writer is not None:
            writer.kill()
            writer.wait()
    problems = []
    err = r.stderr.decode("utf-8", "replace")
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != code:
        problems.append(f"exit {r.returncode}, expected {code}")
    if not (err.endswith("\n") and err.count("\n") == 1):
        problems.append(f"stderr is not one line: {err[:400]!r}")
    if names not in err:
        problems.append(f"stderr does not name {names!r}: {err[:300]!r}")
    if json_mode:
        try:
            obj = json.loads(out)
            if not isinstance(obj, dict):
                problems.append("stdout JSON is not an object")
            elif code == 2 and (obj.get("exit_status") != 2 or names not in obj.get("error", "")):
                problems.append(f"the JSON does not carry the error: {out[:300]!r}")
        except ValueError as e:
            problems.append(f"stdout is not one JSON object: {e}: {out[:200]!r}")
    elif code == 2 and out:
        problems.append(f"stdout is not empty: {out[:200]!r}")
    return [f"{p}\n    tessera {args}" for p in problems]


def main():
    binary = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory(prefix="tessera_bad_") as d:
        for name, text in FIXTURES.items():
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(d, "binary.bin"), "wb") as f:
            f.write(bytes(range(256)) * 64)
        os.mkfifo(os.path.join(d, "fifo"))
        os.mkdir(os.path.join(d, "fifodir"))
        os.symlink(os.path.join(d, "fifo"), os.path.join(d, "fifodir", "sweep.json"))
        for code, names, args in CASES:
            for json_mode in (False, True):
                failures += check(binary, code, names, args, d, json_mode)
    distinct = len({args for _, _, args in CASES})
    print(f"{len(CASES)} bad inputs ({distinct} distinct), each run plain and with --json: "
          f"{len(failures)} problems")
    for f in failures:
        print("  " + f)
    if distinct < 80:
        print("fewer than 80 distinct cases")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
