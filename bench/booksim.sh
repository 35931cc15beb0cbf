#!/usr/bin/env bash
# Tessera's wormhole mesh beside BookSim2 on the same traffic (docs/wormhole.md, "Side by
# side with BookSim2"). BookSim2 is not a dependency of Tessera; build it by hand:
#
#   apt-get install -y flex bison
#   git clone https://github.com/booksim/booksim2 && make -C booksim2/src
#   bench/booksim.sh booksim2/src/booksim [build/tessera]
#
# Both sides: a k x k mesh, dimension-order routing, one virtual channel of 4 flits per
# input, 8-flit packets, Bernoulli sources, latency from a packet's creation to its
# tail's arrival, packets to their own source as BookSim2's patterns send them
# (--self-packets: uniform draws from every node, the transpose diagonal sends to itself). BookSim2's input-queued router with speculative allocation: routing,
# VC and switch allocation (in parallel), switch traversal, a one-cycle link and
# one-cycle credit channel. Tessera's parameters that give that router: router_delay 1
# (routing and VC allocation), pipeline 3 (switch allocation, traversal, link),
# credit_delay 2 (a slot's round trip of pipeline + credit_delay = 5 cycles) and alpha 1
# (BookSim2's injection channel): a lone packet over h hops takes 14 + 4h cycles on both.
#
# Prints, per mesh and pattern: the accepted throughput at an offered 0.2 packets per
# node and cycle (far past saturation); the saturation rate, the highest offered load
# whose average latency stays below three times the zero-load latency (bisection, on
# each simulator); and the average latency at 0.1 .. 0.9 of BookSim2's saturation rate,
# each a mean over three seeds; with Tessera's difference from BookSim2.
set -euo pipefail
booksim=${1:?usage: bench/booksim.sh BOOKSIM_BINARY [TESSERA_CLI]}
cli=${2:-build/tessera}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tessera_params=(--param vcs=1 --param buffer=4 --param router_delay=1 --param pipeline=3
                --param credit_delay=2 --param alpha=1 --param width=4)

# BookSim2's configuration for a k x k mesh, a pattern, a rate, a simulation type and a
# seed.
booksim_config() {
  cat > "$work/config" <<EOF
topology = mesh;
k = $1;
n = 2;
routing_function = dim_order;
num_vcs = 1;
vc_buf_size = 4;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters = 1;
speculative = 1;
routing_delay = 1;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
credit_delay = 0;
input_speedup = 1;
output_speedup = 1;
internal_speedup = 1.0;
traffic = $2;
packet_size = 8;
injection_rate = $3;
injection_rate_uses_flits = 0;
sim_type = $4;
warmup_periods = 3;
sample_period = 10000;
sim_count = 1;
seed = $5;
EOF
}

booksim_value() {  # BookSim2's overall average of a statistic, or "-" when it did not settle
  { "$booksim" "$work/config" 2>/dev/null || true; } |
    awk -v key="$1" '/Overall Traffic Statistics/ {o = 1}
      o && index($0, key " average =") { for (i = 1; i < NF; i++) if ($i == "=") print $(i + 1); exit }' |
    grep . || echo -
}

tessera_json() {  # mesh, pattern, rate, cycles, seed
  "$cli" run --model tlm --fabric "mesh:$1x$1" --traffic "$2" --rate "$3" --packet-flits 8 \
    --cycles "$4" --warmup $(($4 / 10)) --seed "$5" --self-packets "${tessera_params[@]}" \
    --json 2>/dev/null
}

mean() { awk '{ if ($1 == "-" || $1 == "") bad = 1; s += $1; n++ } END { if (bad || n == 0) print "-"; else printf "%.2f", s / n }'; }
diff_pct() { awk -v b="$1" -v t="$2" 'BEGIN{ if (b == "-" || t == "-") print "-"; else printf "%+.1f%%", 100 * (t - b) / b }'; }

booksim_latency() {  # mesh, pattern, rate, seed
  booksim_config "$1" "$2" "$3" latency "$4"
  booksim_value "Packet latency"
}
tessera_latency() {  # mesh, pattern, rate, seed
  tessera_json "$1" "$2" "$3" 100000 "$4" |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j.get("latency", {}).get("average", "-"))'
}

# The saturation rate of one simulator: the highest offered load (packets per node and
# cycle) whose average latency stays below three times the zero-load latency (the latency
# at a tenth of `upper`), by bisection between that tenth and `upper`, seed 1.
saturation() {  # tool, mesh, pattern, upper
  local tool=$1 k=$2 pattern=$3 lo hi zero mid l
  lo=$(awk -v u="$4" 'BEGIN{printf "%.6f", u / 10}')
  hi=$4
  zero=$("${tool}_latency" "$k" "$pattern" "$lo" 1)
  for _ in 1 2 3 4 5 6 7 8; do
    mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN{printf "%.6f", (a + b) / 2}')
    l=$("${tool}_latency" "$k" "$pattern" "$mid" 1)
    if awk -v l="$l" -v z="$zero" 'BEGIN{exit !(l != "-" && l != "" && l + 0 < 3 * z)}'; then
      lo=$mid
    else
      hi=$mid
    fi
  done
  echo "$lo"
}

# TESSERA_BOOKSIM_MESHES (default "8 16"), TESSERA_BOOKSIM_PATTERNS ("uniform transpose")
# and TESSERA_BOOKSIM_SEEDS ("1 2 3") narrow a run.
seeds=${TESSERA_BOOKSIM_SEEDS:-1 2 3}
printf '%-7s %-10s %-22s %9s %10s %10s %8s\n' mesh pattern measure rate booksim2 tessera diff
for k in ${TESSERA_BOOKSIM_MESHES:-8 16}; do
  for pattern in ${TESSERA_BOOKSIM_PATTERNS:-uniform transpose}; do
    # Accepted packets per node and cycle at an offered 0.2, far past saturation.
    booksim_config "$k" "$pattern" 0.2 throughput 1
    bacc=$(booksim_value "Accepted packet rate")
    tacc=$(tessera_json "$k" "$pattern" 0.2 20000 1 |
           python3 -c 'import json,sys; print(round(json.load(sys.stdin)["accepted"]["packets"], 6))')
    printf '%-7s %-10s %-22s %9s %10s %10s %8s\n' "${k}x$k" "$pattern" "accepted at 0.2" - "$bacc" \
      "$tacc" "$(diff_pct "$bacc" "$tacc")"
    upper=$(awk -v a="$bacc" -v b="$tacc" 'BEGIN{printf "%.6f", 1.05 * (a > b ? a : b)}')
    bsat=$(saturation booksim "$k" "$pattern" "$upper")
    tsat=$(saturation tessera "$k" "$pattern" "$upper")
    printf '%-7s %-10s %-22s %9s %10s %10s %8s\n' "${k}x$k" "$pattern" "saturation rate" - "$bsat" \
      "$tsat" "$(diff_pct "$bsat" "$tsat")"
    # Average latency at fractions of BookSim2's saturation rate, each the mean of the
    # seeds' runs (near saturation one run's average varies by 20 % with the seed).
    for f in 0.1 0.3 0.5 0.7 0.8 0.9; do
      rate=$(awk -v s="$bsat" -v f="$f" 'BEGIN{printf "%.5f", s * f}')
      b=$(for seed in $seeds; do booksim_latency "$k" "$pattern" "$rate" "$seed"; done | mean)
      t=$(for seed in $seeds; do tessera_latency "$k" "$pattern" "$rate" "$seed"; done | mean)
      printf '%-7s %-10s %-22s %9s %10s %10s %8s\n' "${k}x$k" "$pattern" "latency at $f x sat" \
        "$rate" "$b" "$t" "$(diff_pct "$b" "$t")"
    done
  done
done
