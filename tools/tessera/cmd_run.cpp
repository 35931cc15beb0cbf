#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "readers.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "tessera/alphabeta/run.hpp"
#include "tessera/analytic/grama.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"
#include "tessera/schedule/json_io.hpp"
#include "workload.hpp"

namespace tessera::cli {

std::string run_help() {
  return R"(usage: tessera run --fabric F (--collective C [--algorithm A] | --schedule FILE |
                                --pattern FILE |
                                --traffic K [--rate R] [--packet-flits F] ...)
                   [--model alphabeta|tlm|rtl] [--switching S] [--machine M]
                   [--param key=value ...] [--root R] [--bytes M]
                   [--protocol raw|forced|unforced|reliable] [--prepost] [--send-ahead]
                   [--fault F ...] [--fault-file FILE]
                   [--type T] [--op O] [--shift Q] [--packets Q] [--transfers] [--json]

Simulation: every tile runs the collective's op stream on the tile runtime, data
moves through the network model, and every byte every tile ends with is checked.

  --model alphabeta  (default) Grama's ideal network on the host: a message of m
                     bytes costs ts + tw m cycles; tiles are single-ported; no
                     contention
  --model tlm        the SystemC TLM-2.0 platform: tiles are SC_THREADs, NICs talk
                     to the fabric over TLM sockets (docs/tlm.md)
  --model rtl        the same platform over the Verilated RTL fabric (the tlm2rtl
                     bridge, docs/rtl.md): wormhole meshes up to 8x8 and tori
                     4x4 and 8x8 so far; the engine parameters are the RTL's
                     run-time inputs
  --switching S      the timing engine (tessera models): tlm takes wormhole
                     (mesh default), circuit (hypercube default), store-forward
                     (torus and ring default) or ideal (any fabric); alphabeta
                     takes ideal, the one it drives
  --machine M        tlm only: ipsc860 (circuit hypercube), meganode (torus),
                     delta (wormhole mesh); sets the switching and its parameters
                     and reports time_us (docs/machines.md); --param overrides
                     single values
  --fabric F       mesh:RxC, torus:RxC, hypercube:D, ring:P
  --collective C   bcast, reduce, allgather, reduce-scatter, allreduce, prefix,
                   scatter, gather, alltoall, shift
  --schedule FILE  a schedule JSON (docs/schedule-format.md, `tessera schedule`
                   writes them): every tile runs its op stream, every block the
                   delivery contract names (or, without one, every message) is
                   checked byte by byte
  --pattern FILE   tlm only: JSON {"transfers": [{"src", "dst", "bytes", "start"}]};
                   each transfer posted at its start cycle, checked byte by byte
  --traffic K      tlm only: synthetic traffic, BookSim-style: uniform, transpose,
                   bitcomp, bitrev, hotspot (1/4 of packets to --hotspot T, default
                   0), neighbor; with --rate R (packets/tile/cycle, default 0.01),
                   --packet-flits F (8), --cycles C (10000), --warmup W (C/10),
                   --seed S (1); reports average and maximum latency (creation to
                   tail arrival) and accepted throughput
  --algorithm A    default per fabric (docs/collectives.md); see below
  --root R         root tile of bcast, reduce, scatter, gather (default 0)
  --bytes M        Grama's m: bytes each tile contributes or receives (default 1024)
  --param k=v      a parameter of the engine or the run: key, default, meaning
)" + models::params_help() +
         R"(  --protocol P     raw (default); forced: a message arriving before its receive is
                   posted is lost (iPSC-860); unforced: above the threshold a
                   reserve/ack exchange precedes the message; reliable: sequence
                   numbers, a checksum, acks and retransmission (docs/faults.md)
  --fault F        inject a fault (repeatable, docs/faults.md): link=A-B@T (the link
                   A->B fails at cycle T), drop=S->D#N (the N-th data message S->D is
                   lost), stall=T@C+D (tile T stops from cycle C for D cycles),
                   corrupt=S->D#N (one byte of it is flipped)
  --fault-file FILE  faults one per line, '#' comments
  --prepost        post every receive, then a global barrier, before the first op
  --send-ahead     post the next op's send while the current one is in flight
                   (implied by presetup=1)
  --routes FILE    tlm store-forward: explicit forwarding entries, JSON
                   {"routes": [{"tile", "dst", "port"}]} (port E, W, S, N, +1, -1);
                   tiles without an entry keep dimension order
  --payload-bytes P  tlm: carry and verify P bytes of every M-byte unit and charge
                   the fabric for M (P divides --bytes M); for runs whose data would
                   not fit in memory, e.g. a 16x32 complete exchange of 16 KB blocks
  --type T         i32 (default), u32, i64, u64, f32, f64 (reductions)
  --op O           sum (default), min, max, band, bor, bxor (reductions)
  --shift Q        the q of the circular shift, 0 < q < p (default 1)
  --packets Q      edst broadcasts: packets per tree (default: the whole count next
                   to the optimum of b(L, h, d) = (sqrt((h-1) beta) + sqrt(tau L/d))^2,
                   002 §2.1, with the model's beta and tau, or ts and tw)
  --transfers      tlm: list every transfer in the JSON (default: the first 4096)
  --json           one JSON object on stdout

algorithms:
  bcast           binomial, mesh, scatter-allgather; on a torus, pipelined on
                  edge-disjoint spanning trees (002, docs/trees.md): edst-single,
                  edst-saad-schultz, edst-simmen, edst-3d2, edst-optimal
  reduce          binomial, mesh, reduce-scatter-gather
  allgather       ring, mesh, hypercube
  reduce-scatter  ring, mesh, hypercube
  allreduce       recursive-doubling, ring, mesh, reduce-bcast,
                  reduce-scatter-allgather
  prefix          hypercube, linear
  scatter/gather  binomial
  alltoall        naive, linear, pairwise, pex, pex-gen, pex-gen-shift, gen, stable,
                  standard, ring, mesh, aap, aap-prime
  shift           ring, mesh, powers-of-two, direct

exit status: 0 verified, 1 a lost, duplicated or corrupted block, a deadlock or a
timeout (the reason names the tile and block, or the fault), 2 bad input.
)";
}

namespace {

std::string list_algorithms(fw::collective c) {
  std::string out;
  if (c == fw::collective::alltoall) {
    for (const auto& a : fw::a2a_algorithms)
      out += (out.empty() ? "" : ", ") + std::string(a.name);
    return out;
  }
  for (const auto& a : fw::tb_algorithms) {
    if (a.coll != c) continue;
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

std::string collective_list() {
  std::string out;
  for (const auto& c : fw::collectives) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

std::string need_text(fw::fabric_need n) {
  switch (n) {
    case fw::fabric_need::power_of_two:
      return "a power-of-two tile count";
    case fw::fabric_need::torus:
      return "a torus fabric";
    default:
      return "a mesh or torus fabric";
  }
}

std::string usable_algorithms(fw::collective c, const fabric& f) {
  std::string out;
  for (const auto& a : fw::tb_algorithms) {
    if (a.coll != c || !fw::fabric_meets(a.needs, f)) continue;
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

// The collective, its algorithm and its options.
void parse_collective(const args& a, run_request& r) {
  const std::uint32_t p = r.c.f.tiles();
  r.has_collective = true;
  const std::string coll = a.require("collective");
  if (!fw::parse_collective(coll, r.c.coll)) {
    throw input_error("--collective '" + shown(coll) +
                      "' is not known (available: " + collective_list() + ")");
  }
  const fw::collective_info& ci = fw::info(r.c.coll);

  if (const auto alg = a.get("algorithm")) {
    r.algorithm = *alg;
    if (r.c.coll == fw::collective::alltoall) {
      if (!fw::parse_a2a_algorithm(*alg, r.c.a2a)) {
        throw input_error(
            "--algorithm '" + shown(*alg) +
            "' is not an alltoall algorithm (available: " + list_algorithms(r.c.coll) + ")");
      }
    } else if (!fw::parse_tb_algorithm(r.c.coll, *alg, r.c.alg)) {
      throw input_error("--algorithm '" + shown(*alg) + "' is not a " + coll +
                        " algorithm (available: " + list_algorithms(r.c.coll) + ")");
    }
  } else if (r.c.coll == fw::collective::alltoall) {
    r.c.a2a = fw::default_a2a_algorithm(r.c.f);
    r.algorithm = std::string(fw::info(r.c.a2a).name);
  } else {
    r.c.alg = fw::default_algorithm(r.c.coll, r.c.f);
    r.algorithm = std::string(fw::tb_algorithm_name(r.c.alg));
  }

  if (r.c.coll == fw::collective::alltoall) {
    require_a2a_supported(r.c.a2a, r.c.f, r.fabric_spec);
    if (p > max_alltoall_tiles) {
      throw input_error("--fabric " + r.fabric_spec + " has " + std::to_string(p) +
                        " tiles; alltoall is limited to " + std::to_string(max_alltoall_tiles));
    }
  } else {
    const fw::fabric_need need = fw::needs(r.c.coll, r.c.alg);
    if (!fw::fabric_meets(need, r.c.f)) {
      const std::string has = need == fw::fabric_need::power_of_two
                                  ? "has " + std::to_string(p) + " tiles"
                                  : "is a " + std::string(kind_name(r.c.f.kind));
      throw input_error("--algorithm " + r.algorithm + " needs " + need_text(need) + ", but " +
                        r.fabric_spec + " " + has + "; use " + usable_algorithms(r.c.coll, r.c.f));
    }
  }

  if (const auto root = a.get("root")) {
    if (!ci.rooted) throw input_error("--root does not apply to " + coll + ", which has no root");
    const auto v = parse_count("root", *root, 0xffffffffULL);
    if (v >= p) {
      throw input_error("--root " + *root + " is not a tile of " + r.fabric_spec + " (tiles 0.." +
                        std::to_string(p - 1) + ")");
    }
    r.c.root = static_cast<std::uint32_t>(v);
  }
  fw::tree_family fam{};
  const bool edst = fw::is_edst(r.c, fam);
  if (edst) {
    const fw::tree_error e = fw::tree_support(fam, r.c.f, r.c.root);
    if (e != fw::tree_error::none) {
      throw input_error("--algorithm " + r.algorithm + " " + std::string(fw::tree_error_text(e)) +
                        ", but --fabric is " + r.fabric_spec);
    }
  }
  if (const auto q = a.get("packets")) {
    if (!edst) {
      throw input_error(
          "--packets goes with an edst broadcast (--collective bcast --algorithm "
          "edst-...), not " +
          coll + " " + r.algorithm);
    }
    const auto v = parse_count("packets", *q, 1ULL << 20);
    if (v == 0) throw input_error("--packets 0 is not a positive packet count");
    r.packets = static_cast<std::uint32_t>(v);
  }

  const std::string bytes = a.get("bytes").value_or("1024");
  r.c.bytes = static_cast<std::uint32_t>(parse_count("bytes", bytes, 1ULL << 30, 1));

  if (const auto t = a.get("type")) {
    if (!ci.reduction) throw input_error("--type does not apply to " + coll);
    if (!parse_elem_type(*t, r.c.type))
      throw input_error("--type '" + shown(*t) +
                        "' is not an element type (i32, u32, i64, u64, f32, f64)");
  } else {
    r.c.type = elem_type::i32;
  }
  if (const auto o = a.get("op")) {
    if (!ci.reduction) throw input_error("--op does not apply to " + coll);
    if (!parse_reduce_op(*o, r.c.rop))
      throw input_error("--op '" + shown(*o) +
                        "' is not a reduction (sum, min, max, band, bor, bxor)");
    if (!reduce_supported(r.c.type, r.c.rop))
      throw input_error("--op " + *o + " is not defined on " + std::string(info(r.c.type).name) +
                        " elements");
  }
  if (ci.reduction && r.c.bytes % elem_bytes(r.c.type) != 0) {
    throw input_error("--bytes " + bytes + " is not a multiple of the " +
                      std::to_string(elem_bytes(r.c.type)) + "-byte " +
                      std::string(info(r.c.type).name) + " element");
  }

  if (const auto q = a.get("shift")) {
    if (r.c.coll != fw::collective::shift) throw input_error("--shift does not apply to " + coll);
    const auto v = parse_count("shift", *q, 0xffffffffULL);
    if (v == 0 || v >= p) {
      throw input_error("--shift " + *q + " is not between 1 and " + std::to_string(p - 1) +
                        " (p = " + std::to_string(p) + ")");
    }
    r.c.shift = static_cast<std::uint32_t>(v);
  } else if (r.c.coll == fw::collective::shift && p < 2) {
    throw input_error("--collective shift needs at least 2 tiles");
  }
}

run_request parse_request(const args& a) {
  run_request r;
  if (const auto model = a.get("model")) {
    if (models::find_model(*model) == nullptr)
      throw input_error("--model '" + shown(*model) + "' is not a model (alphabeta, tlm, rtl)");
    r.model = *model;
  }
  r.workload = check_run_options(a, r.model);
  r.fabric_spec = a.require("fabric");
  r.c.f = parse_fabric_arg(r.fabric_spec);
  r.pattern = a.get("pattern");
  r.traffic = a.get("traffic");
  r.rate = a.get("rate");
  r.packet_flits = a.get("packet-flits");
  r.cycles = a.get("cycles");
  r.warmup = a.get("warmup");
  r.seed = a.get("seed");
  r.hotspot = a.get("hotspot");
  r.payload_bytes = a.get("payload-bytes");
  r.routes = a.get("routes");
  r.schedule_file = a.get("schedule");
  if (r.workload == workload_kind::collective) parse_collective(a, r);
  for (const std::string& kv : a.all("param")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw input_error("--param '" + shown(kv) + "' is not key=value");
    r.params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  if (const auto pr = a.get("protocol")) {
    if (!parse_protocol(*pr, r.proto))
      throw input_error("--protocol '" + shown(*pr) + "' is not raw, forced, unforced or reliable");
    if (r.proto == protocol::reliable && r.workload == workload_kind::pattern) {
      throw input_error(
          "--protocol reliable does not apply to --pattern (its tiles post bare messages; the "
          "reliable protocol is the tile runtime's: use --schedule)");
    }
  }
  r.prepost = a.flag("prepost");
  r.send_ahead = a.flag("send-ahead");
  r.switching = a.get("switching");
  r.machine = a.get("machine");
  r.json = a.flag("json");
  r.all_transfers = a.flag("transfers");
  // Parameters that only one protocol or workload reads are refused elsewhere, so none
  // is accepted without effect.
  for (const auto& [key, val] : r.params) {
    if (key == "max_retries" && r.proto != protocol::reliable)
      throw input_error("--param max_retries goes with --protocol reliable");
    if (key == "unforced_threshold" && r.proto != protocol::unforced)
      throw input_error("--param unforced_threshold goes with --protocol unforced");
    if (r.workload == workload_kind::traffic &&
        (key == "max_cycles" || key == "unforced_threshold")) {
      throw input_error("--param " + key +
                        " does not apply to --traffic (--cycles and the drain limit end it)");
    }
  }
  if (r.send_ahead && r.proto == protocol::unforced) {
    throw input_error(
        "--send-ahead does not apply to --protocol unforced (an UNFORCED message reserves "
        "before it goes)");
  }
  r.faults = load_faults(a.all("fault"), a.get("fault-file"), r.c.f);
  if (r.workload == workload_kind::pattern) {
    for (const nic::fault_spec& f : r.faults) {
      if (f.kind == nic::fault_kind::stall) {
        throw input_error("--fault " + f.text +
                          " does not apply to --pattern: a stall holds a tile running the tile "
                          "runtime (--collective, --schedule)");
      }
    }
  }
  return r;
}

ab::run_options alphabeta_options(const run_request& r) {
  ab::run_options opt;
  opt.proto = r.proto;
  opt.prepost = r.prepost;
  opt.send_ahead = r.send_ahead;
  opt.faults = r.faults;
  // The alphabeta model drives the registry's ideal engine on the host.
  models::engine_params prm;
  for (const auto& [key, val] : r.params) {
    if (models::find_param(models::switching::ideal, key) == nullptr) {
      throw input_error("--param '" + shown(key) + "' is not a parameter of the alphabeta model (" +
                        models::param_keys(models::switching::ideal) + ")");
    }
    models::set_param(prm, models::switching::ideal, key, val);
  }
  opt.prm.ts = prm.ideal.ts;
  opt.prm.tw = prm.ideal.tw;
  opt.unforced_threshold = prm.unforced_threshold;
  opt.max_cycles = prm.max_cycles;
  opt.max_retries = prm.max_retries;
  return opt;
}

}  // namespace

nic::prepared_schedule load_schedule_file(const run_request& r) {
  const schedule s =
      schedule_from_value(read_json_file("--schedule", *r.schedule_file, max_schedule_bytes));
  if (s.tiles != r.c.f.tiles()) {
    throw input_error("--schedule '" + shown(*r.schedule_file, 160) + "' is for " +
                      std::to_string(s.tiles) + " tiles, but --fabric " + shown(r.fabric_spec) +
                      " has " + std::to_string(r.c.f.tiles()));
  }
  return nic::prepare(s);
}

std::optional<edst_plan> plan_edst(run_request& r, double beta, double tau) {
  fw::tree_family fam{};
  if (!fw::is_edst(r.c, fam)) return std::nullopt;
  edst_plan e;
  e.family = fam;
  e.trees = fw::info(fam).trees;
  e.depth = fw::family_depth(fam, r.c.f);
  const double L = r.c.bytes;
  const double d = e.trees;
  const double h = e.depth;
  const std::uint32_t most = r.c.bytes / e.trees;  // every packet keeps a byte
  if (most == 0) {
    throw input_error("--bytes " + std::to_string(r.c.bytes) + " is less than one byte per tree (" +
                      std::to_string(e.trees) + " trees)");
  }
  auto slots = [&](std::uint32_t q) { return fw::edst_slots(fam, r.c.f, q); };
  auto time = [&](std::uint32_t q) {
    return static_cast<double>(slots(q)) * (beta + tau * std::ceil(L / (d * q)));
  };
  if (r.packets > 0) {
    if (r.packets > most) {
      throw input_error("--packets " + std::to_string(r.packets) + " is more than the " +
                        std::to_string(most) + " bytes of each tree's part (--bytes " +
                        std::to_string(r.c.bytes) + " over " + std::to_string(e.trees) + " tree" +
                        (e.trees > 1 ? "s" : "") + ")");
    }
    e.packets = r.packets;
  } else {
    // 002 §2.1: b is least at q* = sqrt((h - 1) tau L / (d beta)); take the better
    // whole count next to it.
    e.automatic = true;
    const double star = beta > 0 ? std::sqrt((h - 1) * tau * L / (d * beta)) : most;
    const auto lo =
        static_cast<std::uint32_t>(std::clamp(std::floor(star), 1.0, static_cast<double>(most)));
    const std::uint32_t hi = std::min(lo + 1, most);
    e.packets = time(hi) < time(lo) ? hi : lo;
  }
  r.c.packets = e.packets;
  e.slots = slots(e.packets);
  e.pipeline = static_cast<double>(e.slots) * (beta + tau * L / (d * e.packets));
  const double root = std::sqrt((h - 1) * beta) + std::sqrt(tau * L / d);
  e.b = root * root;
  if (fam == fw::tree_family::saad_schultz && tau > 0 && h > 1) {
    e.l0 = beta / (2 * tau) * h * h / (h - 1);
    e.paper = L <= e.l0 ? e.b
                        : e.b + tau * L / 2 + std::sqrt(beta * tau * L * (h - 1) / 2) -
                              h / 2 * (beta + std::sqrt(beta * tau * L / (2 * (h - 1))));
  }
  return e;
}

void put_edst(nlohmann::ordered_json& j, const edst_plan& e) {
  j["packets"] = e.packets;
  j["packets_automatic"] = e.automatic;
  j["trees"] = e.trees;
  j["tree_depth"] = e.depth;
  j["pipeline"] = {{"formula", e.family == fw::tree_family::saad_schultz
                                   ? "max(h + q - 1, 2q + line - 1) (beta + tau L / (d q))"
                                   : "(h + q - 1) (beta + tau L / (d q))"},
                   {"slots", e.slots},
                   {"cycles", e.pipeline}};
  j["b"] = {{"formula", "(sqrt((h - 1) beta) + sqrt(tau L / d))^2"},
            {"source", "002 Bermond, Michallon, Trystram, section 2.1"},
            {"cycles", e.b}};
  if (e.family == fw::tree_family::saad_schultz && e.l0 > 0) {
    j["saad_schultz"] = {{"L0", e.l0},
                         {"regime", e.b == e.paper ? "L <= L0: the fill-in hides in the empty phase"
                                                   : "L > L0: the fill-in outlasts the pipeline"},
                         {"source", "002 section 2.3"},
                         {"cycles", e.paper}};
  }
}

void print_edst(std::ostream& os, const edst_plan& e) {
  os << "  trees       " << e.trees << " of depth " << e.depth << ", " << e.packets
     << " packets per tree" << (e.automatic ? " (from the optimum of b)" : "") << '\n';
  os << "  pipeline    " << e.slots << " slots = " << e.pipeline << " cycles; b(L, h, d) = " << e.b
     << '\n';
  if (e.family == fw::tree_family::saad_schultz && e.l0 > 0) {
    os << "  fill-in     L0 = " << e.l0 << " bytes; 002 §2.3 gives " << e.paper << " cycles\n";
  }
}

void put_collective(nlohmann::ordered_json& j, const run_request& r) {
  const fw::collective_info& ci = fw::info(r.c.coll);
  j["collective"] = std::string(ci.name);
  j["algorithm"] = r.algorithm;
  if (ci.rooted) j["root"] = r.c.root;
  if (r.c.coll == fw::collective::shift) j["shift"] = r.c.shift;
  j["bytes"] = r.c.bytes;
  if (ci.reduction) {
    j["type"] = std::string(info(r.c.type).name);
    j["op"] = std::string(reduce_op_name(r.c.rop));
  }
  j["protocol"] = std::string(protocol_name(r.proto));
  j["prepost"] = r.prepost;
}

void put_outcome(nlohmann::ordered_json& j, const nic::run_outcome& o, double us_per_cycle) {
  j["cycles"] = o.cycles;
  if (us_per_cycle > 0) j["time_us"] = static_cast<double>(o.cycles) * us_per_cycle;
  j["verified"] = o.verified;
  j["completed"] = o.completed;
  if (!o.verified) j["failure"] = o.failure;
  j["messages"] = o.data_messages;
  j["control_messages"] = o.control_messages;
  j["dropped"] = o.dropped;
  j["memory_bytes"] = o.memory_bytes;
  if (o.timed_out) j["timed_out"] = true;
  if (!o.faults.empty()) put_faults(j, o.faults, o.lost, o.lost_total);
  if (o.reliable.acks_sent > 0 || o.reliable.retransmissions > 0) {
    j["reliable"] = {{"retransmissions", o.reliable.retransmissions},
                     {"timeout_cycles", o.reliable.timeout_cycles},
                     {"rejected_damaged", o.reliable.rejected_damaged},
                     {"rejected_duplicate", o.reliable.rejected_duplicate},
                     {"rejected_gap", o.reliable.rejected_gap},
                     {"acks", o.reliable.acks_sent}};
  }
}

void put_faults(nlohmann::ordered_json& j, const std::vector<nic::fault_report>& faults,
                const std::vector<nic::lost_report>& lost, std::uint64_t lost_total) {
  auto fs = nlohmann::ordered_json::array();
  for (const nic::fault_report& f : faults) {
    nlohmann::ordered_json e{{"fault", f.fault}, {"kind", f.kind}, {"acted", f.acted}};
    if (f.acted) e["first_cycle"] = f.first_cycle;
    if (f.kind == "stall") {
      e["held_cycles"] = f.held_cycles;
    } else {
      e["messages"] = f.messages;
    }
    fs.push_back(std::move(e));
  }
  j["faults"] = std::move(fs);
  auto ls = nlohmann::ordered_json::array();
  for (const nic::lost_report& l : lost) {
    ls.push_back({{"tile", l.tile},
                  {"source", l.source},
                  {"block", l.block},
                  {"step", l.step},
                  {"kind", l.kind},
                  {"cycle", l.cycle},
                  {"cause", l.cause},
                  {"fault", l.fault}});
  }
  j["lost"] = std::move(ls);
  if (lost_total > lost.size()) j["lost_omitted"] = lost_total - lost.size();
}

void print_faults(std::ostream& os, const std::vector<nic::fault_report>& faults,
                  std::uint64_t lost_total) {
  for (const nic::fault_report& f : faults) {
    os << "  fault       " << f.fault << ": ";
    if (!f.acted) {
      os << "did not act\n";
    } else if (f.kind == "stall") {
      os << "held the tile " << f.held_cycles << " cycles from cycle " << f.first_cycle << '\n';
    } else {
      os << f.messages << " message" << (f.messages == 1 ? "" : "s") << " from cycle "
         << f.first_cycle << '\n';
    }
  }
  if (!faults.empty()) os << "  lost        " << lost_total << " messages\n";
}

// per_transfer[]: the first 4096 messages, or all of them with --transfers.
void put_transfers(nlohmann::ordered_json& j, const std::vector<nic::transfer_record>& all,
                   bool every) {
  const std::size_t limit = every ? all.size() : 4096;
  auto arr = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < all.size() && i < limit; ++i) {
    const auto& t = all[i];
    arr.push_back({{"src", t.header.src},
                   {"dst", t.header.dst},
                   {"kind", std::string(msg_kind_name(t.header.kind))},
                   {"step", t.header.tag},
                   {"bytes", t.header.bytes},
                   {"start", t.start},
                   {"end", t.end}});
  }
  j["per_transfer"] = std::move(arr);
  if (limit < all.size()) j["per_transfer_omitted"] = all.size() - limit;
}

void put_steps_tiles(nlohmann::ordered_json& j, const nic::run_outcome& o) {
  auto steps = nlohmann::ordered_json::array();
  for (const auto& s : o.steps) {
    steps.push_back({{"step", s.step},
                     {"start", s.start},
                     {"end", s.end},
                     {"cycles", s.end - s.start},
                     {"messages", s.messages},
                     {"bytes", s.bytes}});
  }
  j["per_step"] = std::move(steps);
  auto tiles = nlohmann::ordered_json::array();
  for (std::size_t t = 0; t < o.tiles.size(); ++t) {
    tiles.push_back({{"tile", t},
                     {"finish", o.tiles[t].finish},
                     {"messages", o.tiles[t].messages},
                     {"bytes", o.tiles[t].bytes},
                     {"peak_blocks", o.tiles[t].peak_blocks}});
  }
  j["per_tile"] = std::move(tiles);
}

void print_outcome(std::ostream& os, const nic::run_outcome& o) {
  os << "  cycles      " << o.cycles << '\n';
  os << "  verified    " << (o.verified ? "yes" : "NO") << '\n';
  os << "  messages    " << o.data_messages << " data, " << o.control_messages << " control, "
     << o.dropped << " dropped\n";
  print_faults(os, o.faults, o.lost_total);
  if (o.reliable.acks_sent > 0 || o.reliable.retransmissions > 0) {
    os << "  reliable    " << o.reliable.retransmissions << " retransmissions ("
       << o.reliable.timeout_cycles << " cycles of expired timers), " << o.reliable.rejected_damaged
       << " damaged, " << o.reliable.rejected_duplicate << " duplicates, "
       << o.reliable.rejected_gap << " out of order, " << o.reliable.acks_sent << " acks\n";
  }
  os << "  steps       " << o.steps.size() << '\n';
  const std::size_t listed = o.steps.size() <= 16 ? o.steps.size() : 16;
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& s = o.steps[i];
    os << "    step " << s.step << ": cycles " << s.start << ".." << s.end << " ("
       << s.end - s.start << "), " << s.messages << " messages, " << s.bytes << " bytes\n";
  }
  if (listed < o.steps.size()) os << "    ... " << o.steps.size() - listed << " more steps\n";
}

int cmd_run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  const args a("run", argv, run_value_options(), run_flag_options(), run_repeated_options());
  if (a.flag("help")) {
    out << run_help();
    return 0;
  }
  run_request r = parse_request(a);
  if (r.model == "tlm" || r.model == "rtl") return run_tlm(r, out, err);
  if (r.schedule_file) {
    const nic::prepared_schedule ps = load_schedule_file(r);
    ab::run_options opt = alphabeta_options(r);
    std::vector<nic::transfer_record> transfers;
    opt.transfers = &transfers;
    const ab::run_outcome o = ab::run_schedule(r.c.f, ps, opt);
    if (r.json) {
      nlohmann::ordered_json j;
      j["command"] = "run";
      j["model"] = "alphabeta";
      j["fabric"] = r.fabric_spec;
      j["tiles"] = r.c.f.tiles();
      j["schedule"] = *r.schedule_file;
      j["protocol"] = std::string(protocol_name(r.proto));
      j["params"] = {{"ts", opt.prm.ts}, {"tw", opt.prm.tw}};
      put_outcome(j, o, 0.0);
      put_steps_tiles(j, o);
      put_transfers(j, transfers, r.all_transfers);
      out << j.dump(2) << '\n';
    } else {
      std::ostringstream os;
      os << "schedule " << *r.schedule_file << " on " << r.fabric_spec
         << ", alphabeta ts = " << opt.prm.ts << " tw = " << opt.prm.tw << '\n';
      print_outcome(os, o);
      out << os.str();
    }
    if (!o.verified) {
      err << "tessera: " << o.failure << '\n';
      return 1;
    }
    return 0;
  }

  ab::run_options opt = alphabeta_options(r);
  std::vector<nic::transfer_record> transfers;
  opt.transfers = &transfers;
  const auto edst = plan_edst(r, static_cast<double>(opt.prm.ts), static_cast<double>(opt.prm.tw));
  const ab::run_outcome o = ab::run_collective(r.c, opt);
  const auto grama = analytic::grama_cycles(r.c, opt.prm.ts, opt.prm.tw);
  const fw::collective_info& ci = fw::info(r.c.coll);

  if (r.json) {
    nlohmann::ordered_json j;
    j["command"] = "run";
    j["model"] = "alphabeta";
    j["fabric"] = r.fabric_spec;
    j["tiles"] = r.c.f.tiles();
    put_collective(j, r);
    j["params"] = {
        {"ts", opt.prm.ts}, {"tw", opt.prm.tw}, {"unforced_threshold", opt.unforced_threshold}};
    put_outcome(j, o, 0.0);
    if (edst) put_edst(j, *edst);
    if (grama) {
      j["closed_form"] = {{"formula", grama->formula},
                          {"source", "003 Grama " + grama->source},
                          {"cycles", grama->cycles}};
    }
    put_steps_tiles(j, o);
    put_transfers(j, transfers, r.all_transfers);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << ci.name << " (" << r.algorithm << ") on " << r.fabric_spec << ", " << r.c.f.tiles()
       << " tiles, m = " << r.c.bytes << " bytes, alphabeta ts = " << opt.prm.ts
       << " tw = " << opt.prm.tw << ", protocol " << protocol_name(opt.proto)
       << (opt.prepost ? " with prepost" : "") << '\n';
    if (grama) {
      os << "  closed form " << grama->cycles << "  = " << grama->formula << "  (003 Grama "
         << grama->source << ")\n";
    }
    if (edst) print_edst(os, *edst);
    print_outcome(os, o);
    out << os.str();
  }
  if (!o.verified) {
    err << "tessera: " << o.failure << '\n';
    return 1;
  }
  return 0;
}

}  // namespace tessera::cli
