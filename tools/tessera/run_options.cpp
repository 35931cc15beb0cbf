#include "run_options.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/models/registry.hpp"

namespace tessera::cli {
namespace {

using namespace on;

constexpr std::uint8_t work = collective | schedule;  // the tile runtime runs op streams
constexpr std::uint8_t runtime = collective | schedule | pattern;  // tiles post messages

constexpr std::string_view workload_group = "workload (exactly one)";
constexpr std::string_view model_group = "fabric and model";
constexpr std::string_view collective_group = "collective options (--collective)";
constexpr std::string_view traffic_group = "synthetic traffic options (--traffic)";
constexpr std::string_view runtime_group = "tile runtime, protocol and faults";
constexpr std::string_view output_group = "output";

// One row per option: the rule columns (what it takes, where it applies), then the help.
constexpr std::array table{
    // name, value name, repeated, workloads, platform only, selector, group, help
    run_option{"collective", "C", false, collective, false, true, workload_group,
               "bcast, reduce, allgather, reduce-scatter, allreduce, prefix, scatter, gather, "
               "alltoall, shift"},
    run_option{"schedule", "FILE", false, schedule, false, true, workload_group,
               "a schedule JSON (docs/schedule-format.md, `tessera schedule` writes them): every "
               "tile runs its op stream, every block the delivery contract names (or, without "
               "one, every message) is checked byte by byte"},
    run_option{
        "pattern", "FILE", false, pattern, true, true, workload_group,
        R"(tlm and rtl: JSON {"transfers": [{"src", "dst", "bytes", "start"}]}; each transfer posted at its start cycle, checked byte by byte)"},
    run_option{
        "traffic", "K", false, traffic, true, true, workload_group,
        "tlm and rtl: synthetic traffic, BookSim-style: uniform, transpose, bitcomp, bitrev, "
        "hotspot, neighbor (the options below); reports average and maximum latency "
        "(creation to tail arrival) and accepted throughput"},
    run_option{"fabric", "F", false, any, false, false, model_group,
               "mesh:RxC, torus:RxC, hypercube:D, ring:P"},
    run_option{"model", "M", false, any, false, false, model_group,
               "the network model:\n"
               "alphabeta (default): Grama's ideal network on the host: a message of m bytes "
               "costs ts + tw m cycles; tiles are single-ported; no contention.\n"
               "tlm: the SystemC TLM-2.0 platform: tiles are SC_THREADs, NICs talk to the fabric "
               "over TLM sockets (docs/tlm.md); without --model, an option only the platform "
               "takes (--machine, --pattern, --traffic, --switching other than ideal, --tiles, "
               "--routes, --payload-bytes) selects it.\n"
               "rtl: the same platform over the Verilated RTL fabric (the tlm2rtl bridge, "
               "docs/rtl.md): wormhole meshes and tori up to 8x8, store-and-forward tori 4x4 "
               "and 8x8, hypercubes up to 7 dimensions; the engine parameters are the RTL's "
               "run-time inputs."},
    run_option{"switching", "S", false, any, true, false, model_group,
               "the timing engine (tessera models); by default the fabric's: wormhole on a mesh, "
               "circuit on a hypercube, store-forward on a torus or ring. The engines each "
               "model drives:"},
    run_option{"machine", "M", false, any, true, false, model_group,
               "tlm and rtl: ipsc860 (circuit hypercube), meganode (torus), delta (wormhole "
               "mesh); sets the switching and its parameters and reports time_us "
               "(docs/machines.md); --param overrides single values; rtl refuses a parameter "
               "its fabrics do not build (the half-duplex NICs of ipsc860 and delta)"},
    run_option{"tiles", "T", false, collective, true, false, model_group,
               "tlm and rtl: native (default; the runtime compiled into the simulation) or "
               "cortex-m4 (the tile image on an ISS core per tile: instructions, compute and NIC "
               "waits per tile; the cpu_mhz, fabric_mhz, cpi and quantum params, docs/tiles.md)"},
    run_option{"firmware", "FILE", false, collective, true, false, model_group,
               "--tiles cortex-m4: the tile image to run (default: this build's "
               "tessera_tile.elf)"},
    run_option{"gdb", "TILE[:PORT]", false, collective, true, false, model_group,
               "--tiles cortex-m4: a GDB server on TILE's core at 127.0.0.1:PORT (default "
               "3333; 0 takes a free port, named on stderr); the run waits for the debugger before "
               "the tile's first instruction and "
               "the whole simulation stops while the tile does (docs/tiles.md)"},
    run_option{
        "routes", "FILE", false, any, true, false, model_group,
        R"(tlm store-forward: explicit forwarding entries, JSON {"routes": [{"tile", "dst", "port"}]} (port E, W, S, N, +1, -1); tiles without an entry keep dimension order)"},
    run_option{"param", "k=v", true, any, false, false, model_group,
               "a parameter of the engine or the run: key, default, meaning"},
    run_option{"algorithm", "A", false, collective, false, false, collective_group,
               "default per fabric (docs/collectives.md); the list is below. alltoall also takes "
               "auto: the algorithm with the least estimated time on this model, engine and "
               "machine, named in the report with the runner-up (docs/algorithms.md, \"Choosing "
               "an algorithm\")"},
    run_option{"root", "R", false, collective, false, false, collective_group,
               "root tile of bcast, reduce, scatter, gather (default 0)"},
    run_option{"bytes", "M", false, collective, false, false, collective_group,
               "Grama's m: bytes each tile contributes or receives (default 1024)"},
    run_option{"type", "T", false, collective, false, false, collective_group,
               "i32 (default), u32, i64, u64, f32, f64 (reductions)"},
    run_option{"op", "O", false, collective, false, false, collective_group,
               "sum (default), min, max, band, bor, bxor (reductions)"},
    run_option{"shift", "Q", false, collective, false, false, collective_group,
               "the q of the circular shift, 0 < q < p (default 1)"},
    run_option{"packets", "Q", false, collective, false, false, collective_group,
               "edst broadcasts: packets per tree (default: the whole count next to the optimum "
               "of b(L, h, d) = (sqrt((h-1) beta) + sqrt(tau L/d))^2, Bermond92 §2.1, with the "
               "model's beta and tau, or ts and tw)"},
    run_option{"pair-sync", "", false, collective, false, false, collective_group,
               "alltoall: before every exchange the two tiles exchange zero-byte messages "
               "(Bokhari's pairwise synchronization)"},
    run_option{"payload-bytes", "P", false, collective, true, false, collective_group,
               "tlm and rtl: carry and verify P bytes of every M-byte unit and charge the fabric "
               "for M (P divides --bytes M); for runs whose data would not fit in memory, e.g. a "
               "16x32 complete exchange of 16 KB blocks"},
    run_option{"rate", "R", false, traffic, true, false, traffic_group,
               "packets per tile per cycle (default 0.01)"},
    run_option{"packet-flits", "F", false, traffic, true, false, traffic_group,
               "flits per packet (default 8)"},
    run_option{"packet-sizes", "F:W,...", false, traffic, true, false, traffic_group,
               "packet sizes in flits with integer weights, e.g. 1:4,8:1 (BookSim's packet_size "
               "and packet_size_rate); instead of --packet-flits"},
    run_option{"self-packets", "", false, traffic, true, false, traffic_group,
               "a packet may go to its own source, through the tile's router, as in BookSim2 "
               "(uniform draws from every tile; a tile a pattern maps onto itself sends to "
               "itself)"},
    run_option{"injection", "I", false, traffic, true, false, traffic_group,
               "bernoulli (default: a packet each cycle with probability R) or on-off (bursts: "
               "rate R / (on / (on + off)) while on)"},
    run_option{"burst-on", "N", false, traffic, true, false, traffic_group,
               "--injection on-off: mean cycles a source stays on (default 10)"},
    run_option{"burst-off", "N", false, traffic, true, false, traffic_group,
               "--injection on-off: mean cycles a source stays off (default 10)"},
    run_option{"cycles", "C", false, traffic, true, false, traffic_group,
               "cycles of injection (default 10000)"},
    run_option{"warmup", "W", false, traffic, true, false, traffic_group,
               "cycles before latency is measured (default C/10)"},
    run_option{"seed", "S", false, traffic, true, false, traffic_group,
               "the random seed (default 1)"},
    run_option{"hotspot", "T", false, traffic, true, false, traffic_group,
               "--traffic hotspot: the tile 1/4 of the packets go to (default 0)"},
    run_option{"source-queue", "Q", false, traffic, true, false, traffic_group,
               "packets a tile may have in flight (created, not yet arrived; default 64); "
               "a packet created while Q are out is not injected, only counted"},
    run_option{"protocol", "P", false, runtime, false, false, runtime_group,
               "raw (default); forced: a message arriving before its receive is posted is lost "
               "(iPSC-860); unforced: above the threshold a reserve/ack exchange precedes the "
               "message; reliable: sequence numbers, a checksum, acks and retransmission "
               "(docs/faults.md)"},
    run_option{"prepost", "", false, work, false, false, runtime_group,
               "post every receive, then a global barrier, before the first op"},
    run_option{"send-ahead", "", false, work, false, false, runtime_group,
               "post the next op's send while the current one is in flight (implied by "
               "presetup=1)"},
    run_option{"fault", "F", true, runtime, false, false, runtime_group,
               "inject a fault (repeatable, docs/faults.md): link=A-B@T (the link A->B fails at "
               "cycle T), drop=S->D#N (the N-th data message S->D is lost), stall=T@C+D (tile T "
               "stops from cycle C for D cycles), corrupt=S->D#N (one byte of it is flipped)"},
    run_option{"fault-file", "FILE", false, runtime, false, false, runtime_group,
               "faults one per line, '#' comments"},
    run_option{"transfers", "", false, any, false, false, output_group,
               "list every transfer in the JSON (default: the first 4096)"},
    run_option{"trace", "FILE", false, work, false, false, output_group,
               "write a timeline trace (Chrome trace-event JSON; open it in ui.perfetto.dev or "
               "chrome://tracing): a track per tile with its ops and what they waited for, a flow "
               "per message from where the network took it to its delivery, and the steps "
               "(docs/visualize.md)"},
    run_option{"timeline", "F.svg", false, work, false, false, output_group,
               "the same as a picture: a row per tile with its ops coloured by kind and its "
               "waits inside them, a line per message, the steps, the links held "
               "(docs/visualize.md)"},
    run_option{"trace-tiles", "L", false, work, false, false, output_group,
               "only these tiles' tracks and the messages to or from them (0-3,7)"},
    run_option{"trace-window", "A:B", false, work, false, false, output_group,
               "only what overlaps cycles A to B (B may be left out)"},
    run_option{"heatmap", "F.svg", false, any, true, false, output_group,
               "tlm and rtl: the fabric drawn as it is (mesh grid, torus with its wrap links, "
               "ring, hypercube by dimension), each directed link coloured by --heatmap-metric"},
    run_option{"heatmap-metric", "M", false, any, true, false, output_group,
               "utilization (default; busy cycles over the run's), messages, contention (most "
               "waiting at once); wormhole: flits, stall, stall-no-credit, stall-arbitration, "
               "stall-no-vc (cycles flits it brought waited in the next router)"},
    run_option{"heatmap-steps", "", false, work, true, false, output_group,
               "a panel per step instead (the first 256, fewer on large fabrics): how many of the "
               "step's messages cross each link (dimension-order routes)"},
    run_option{"json", "", false, any, false, false, output_group, "one JSON object on stdout"},
};

constexpr std::array kinds{workload_kind::collective, workload_kind::schedule,
                           workload_kind::pattern, workload_kind::traffic};

std::uint8_t bit(workload_kind k) {
  return static_cast<std::uint8_t>(1U << static_cast<unsigned>(k));
}

// The models that run tiles on the platform, for a refusal: "tlm or rtl".
std::string platform_models() {
  return models::model_names({models::model_kind::platform}, " or ");
}

const run_option* find(std::string_view name) {
  for (const run_option& o : table)
    if (o.name == name) return &o;
  return nullptr;
}

// "--collective or --schedule": the workloads an option goes with.
std::string workloads_text(std::uint8_t mask) {
  std::string out;
  std::size_t n = 0;
  for (const workload_kind k : kinds)
    if ((mask & bit(k)) != 0) ++n;
  std::size_t i = 0;
  for (const workload_kind k : kinds) {
    if ((mask & bit(k)) == 0) continue;
    if (i > 0) out += i + 1 == n ? " or " : ", ";
    out += "--" + std::string(workload_option(k));
    ++i;
  }
  return out;
}

}  // namespace

std::span<const run_option> run_option_table() {
  return table;
}

void declare_run_options(command_line& c, const std::set<std::string>& except, bool grouped) {
  std::string_view group;
  for (const run_option& o : table) {
    if (except.contains(std::string(o.name))) continue;
    if (grouped && o.group != group) {
      group = o.group;
      c.group(std::string(group));
    }
    std::string help(o.help);
    // The registry's parameter table, as `tessera models` prints it, laid out for the
    // help's explanation column.
    if (o.name == "switching") {
      for (const models::model_info& m : models::models()) {
        std::string engines;
        for (const models::switching sw : m.engines)
          engines += (engines.empty() ? "" : ", ") + std::string(models::switching_name(sw));
        help += "\n" + std::string(m.name) + ": " +
                (engines.empty() ? "none (a closed form)" : engines);
      }
    }
    if (o.name == "param") {
      std::istringstream lines(models::params_help());
      std::string line;
      while (std::getline(lines, line)) {
        const std::size_t cut = std::min({line.find_first_not_of(' '), line.size(), help_column});
        help += "\n" + line.substr(cut);
      }
    }
    c.add({std::string(o.name), std::string(o.value_name), help, o.repeated});
  }
}

std::string_view workload_option(workload_kind k) {
  switch (k) {
    case workload_kind::collective:
      return "collective";
    case workload_kind::schedule:
      return "schedule";
    case workload_kind::pattern:
      return "pattern";
    case workload_kind::traffic:
      return "traffic";
  }
  return "?";
}

std::string implied_model(const args& a, std::string& why) {
  const run::run_config defaults;
  why.clear();
  const models::model_info* base = models::find_model(defaults.model);
  for (const std::string& name : a.given()) {
    const run_option* o = find(name);
    if (o == nullptr || !o->platform_only) continue;
    models::switching sw{};
    if (name == "switching" && base != nullptr && models::parse_switching(*a.get(name), sw) &&
        models::drives(*base, sw)) {
      continue;  // an engine the default model drives (ideal)
    }
    why = name;
    return std::string(models::default_model(models::model_kind::platform).name);
  }
  return defaults.model;
}

workload_kind check_run_options(const args& a, std::string_view model) {
  // The workload: exactly one selector.
  const run_option* chosen = nullptr;
  for (const std::string& name : a.given()) {
    const run_option* o = find(name);
    if (o == nullptr || !o->selector) continue;
    if (chosen != nullptr) {
      throw input_error("--" + std::string(chosen->name) + " and --" + name +
                        " are two workloads; give one");
    }
    chosen = o;
  }
  // A tile image that declares its own contract is its own workload (docs/tiles.md, "A
  // contract of one's own"): --firmware without a selector; the platform checks the image.
  if (chosen == nullptr && !a.has("firmware")) {
    throw input_error(
        "'tessera run' needs a workload: --collective, --schedule, --pattern or --traffic (or "
        "--firmware with an image that declares its own contract)");
  }
  workload_kind w = workload_kind::collective;
  for (const workload_kind k : kinds)
    if (chosen != nullptr && workload_option(k) == chosen->name) w = k;
  const std::string named = "--" + std::string(chosen != nullptr ? chosen->name : "firmware");

  const models::model_info* on = models::find_model(model);
  const bool platform = on != nullptr && models::is_platform(*on);  // tlm and rtl
  if ((chosen == nullptr || chosen->platform_only) && !platform)
    throw input_error(named + " needs --model " + platform_models());
  for (const std::string& name : a.given()) {
    const run_option* o = find(name);
    if (o == nullptr || o->selector) continue;
    if ((o->workloads & bit(w)) == 0) {
      throw input_error("--" + name + " does not apply to " + named + " (it goes with " +
                        workloads_text(o->workloads) + ")");
    }
    if (o->platform_only && !platform) {
      // --switching names an engine: any model that drives it takes it (the registry).
      models::switching sw{};
      const models::model_info* m = models::find_model(model);
      if (name == "switching" && m != nullptr && models::parse_switching(*a.get(name), sw) &&
          models::drives(*m, sw)) {
        continue;
      }
      throw input_error("--" + name + " needs --model " + platform_models());
    }
  }
  // The one option that depends on a workload's value.
  if (w == workload_kind::traffic && a.has("hotspot") && *a.get("traffic") != "hotspot") {
    throw input_error("--hotspot goes with --traffic hotspot, not --traffic " +
                      shown(*a.get("traffic")));
  }
  if (w == workload_kind::traffic && a.has("packet-sizes") && a.has("packet-flits"))
    throw input_error("--packet-sizes and --packet-flits both give the packet size: give one");
  for (const char* burst : {"burst-on", "burst-off"}) {
    if (w == workload_kind::traffic && a.has(burst) &&
        a.get("injection").value_or("bernoulli") != "on-off") {
      throw input_error("--" + std::string(burst) +
                        " goes with --injection on-off, not --injection " +
                        shown(a.get("injection").value_or("bernoulli")));
    }
  }
  return w;
}

}  // namespace tessera::cli
