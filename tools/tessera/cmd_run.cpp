#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_file.hpp"
#include "readers.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/pictures/heatmap.hpp"
#include "tessera/pictures/timeline.hpp"
#include "tessera/pictures/trace.hpp"
#include "tessera/run/collective_check.hpp"
#include "tessera/run/run.hpp"
#include "tessera/schedule/json_io.hpp"
#include "workload.hpp"

namespace tessera::cli {

command_line run_command_line() {
  command_line c("run",
                 R"(tessera run --fabric F (--collective C [--algorithm A] | --schedule FILE |
                                --pattern FILE |
                                --traffic K [--rate R] [--packet-flits F | --packet-sizes F:W,...]
                                [--injection bernoulli|on-off] ...)
                   [--model alphabeta|tlm|rtl] [--switching S] [--machine M]
                   [--tiles native|cortex-m4] [--firmware FILE.elf] [--gdb TILE[:PORT]]
                   [--param key=value ...] [--root R] [--bytes M]
                   [--protocol raw|forced|unforced|reliable] [--prepost] [--send-ahead]
                   [--pair-sync] [--fault F ...] [--fault-file FILE]
                   [--type T] [--op O] [--shift Q] [--packets Q] [--transfers]
                   [--trace FILE] [--timeline FILE.svg] [--trace-tiles L]
                   [--trace-window A:B]
                   [--heatmap FILE.svg [--heatmap-metric M | --heatmap-steps]] [--json])",
                 R"(Simulation: every tile runs the collective's op stream on the tile runtime, data
moves through the network model, and every byte every tile ends with is checked.
An option given with a workload or model it does not apply to is refused.)");
  declare_run_options(c);
  // The algorithms of each collective, from the firmware's tables.
  std::string algorithms =
      wrap_text(
          "algorithms (--algorithm); the edst-* broadcasts run on a torus, pipelined on "
          "edge-disjoint spanning trees (Bermond92, docs/trees.md):",
          0, 0, 88) +
      '\n';
  for (const fw::collective_info& ci : fw::collectives) {
    std::string head = "  " + std::string(ci.name);
    head.resize(18, ' ');
    std::string names = run::algorithm_list(ci.kind);
    if (ci.kind == fw::collective::alltoall) names += ", auto";  // run::choose_algorithm
    algorithms += head + wrap_text(names, 18, 18, 88) + '\n';
  }
  c.footer(algorithms + R"(
exit status: 0 verified (or nothing to check: no message carries a data byte; a note
says so), 1 a lost, duplicated, corrupted or mis-sized block, a deadlock or a timeout
(the reason names the tile and block, or the fault), 2 bad input.)");
  return c;
}

namespace {

std::string collective_list() {
  std::string out;
  for (const auto& c : fw::collectives) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

// The collective, its algorithm and its options: what each option gives, and whether
// it applies to the collective; the domain is the run library's (collective_check.hpp).
// A tile image's own contract (no --collective): --bytes, --type and --op give its blocks;
// the options of a built-in collective are refused.
void parse_own_contract(const args& a, run::run_config& r) {
  for (const char* o : {"algorithm", "root", "shift", "packets", "pair-sync"}) {
    if (a.has(o)) {
      throw input_error("--" + std::string(o) +
                        " goes with --collective; an image's own contract (--firmware without "
                        "--collective) has none");
    }
  }
  r.own_contract = true;
  r.c.bytes = static_cast<std::uint32_t>(
      parse_count("bytes", a.get("bytes").value_or("1024"), 1ULL << 30, 1));
  r.c.type = elem_type::i32;
  if (const auto t = a.get("type"); t && !parse_elem_type(*t, r.c.type))
    throw input_error("--type '" + shown(*t) +
                      "' is not an element type (i32, u32, i64, u64, f32, f64)");
  if (const auto o = a.get("op"); o && !parse_reduce_op(*o, r.c.rop))
    throw input_error("--op '" + shown(*o) +
                      "' is not a reduction (sum, min, max, band, bor, bxor)");
}

void parse_collective(const args& a, run::run_config& r) {
  if (!a.has("collective")) {
    parse_own_contract(a, r);
    return;
  }
  const std::string coll = a.require("collective");
  if (!fw::parse_collective(coll, r.c.coll)) {
    throw input_error("--collective '" + shown(coll) +
                      "' is not known (available: " + collective_list() + ")");
  }
  const fw::collective_info& ci = fw::info(r.c.coll);
  r.algorithm = a.get("algorithm").value_or("");
  run::resolve_algorithm(r);
  r.c.pair_sync = a.flag("pair-sync");
  if (const auto root = a.get("root")) {
    if (!ci.rooted) throw input_error("--root does not apply to " + coll + ", which has no root");
    r.c.root = static_cast<std::uint32_t>(parse_count("root", *root, 0xffffffffULL));
  }
  if (const auto q = a.get("packets")) {
    fw::tree_family fam{};
    if (!fw::is_edst(r.c, fam)) {
      throw input_error(
          "--packets goes with an edst broadcast (--collective bcast --algorithm "
          "edst-...), not " +
          coll + " " + r.algorithm);
    }
    const auto v = parse_count("packets", *q, 1ULL << 20);
    if (v == 0) throw input_error("--packets 0 is not a positive packet count");
    r.packets = static_cast<std::uint32_t>(v);
  }
  r.c.bytes = static_cast<std::uint32_t>(
      parse_count("bytes", a.get("bytes").value_or("1024"), 1ULL << 30, 1));
  r.c.type = elem_type::i32;
  if (const auto t = a.get("type")) {
    if (!ci.reduction) throw input_error("--type does not apply to " + coll);
    if (!parse_elem_type(*t, r.c.type))
      throw input_error("--type '" + shown(*t) +
                        "' is not an element type (i32, u32, i64, u64, f32, f64)");
  }
  if (const auto o = a.get("op")) {
    if (!ci.reduction) throw input_error("--op does not apply to " + coll);
    if (!parse_reduce_op(*o, r.c.rop))
      throw input_error("--op '" + shown(*o) +
                        "' is not a reduction (sum, min, max, band, bor, bxor)");
  }
  if (const auto q = a.get("shift")) {
    if (r.c.coll != fw::collective::shift) throw input_error("--shift does not apply to " + coll);
    r.c.shift = static_cast<std::uint32_t>(parse_count("shift", *q, 0xffffffffULL));
  }
  run::check_collective(r);
}

double parse_rate(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !(v > 0.0 && v <= 1.0))
    throw input_error("--rate '" + shown(text) + "' is not a number in (0, 1] packets/tile/cycle");
  return v;
}

// "1:4,8:1": packet sizes in flits with their weights.
std::vector<std::pair<std::uint32_t, std::uint32_t>> parse_packet_sizes(const std::string& text) {
  const std::string bad = "--packet-sizes '" + shown(text) + "'";
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t colon = item.find(':');
    const std::string flits = item.substr(0, colon);
    const std::string weight = colon == std::string::npos ? "1" : item.substr(colon + 1);
    const auto number = [](const std::string& x) {
      return !x.empty() && x.size() <= 9 && x.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!number(flits) || !number(weight))
      throw input_error(bad + " is not a list of FLITS:WEIGHT (e.g. 1:4,8:1)");
    const auto f = static_cast<std::uint32_t>(std::stoul(flits));
    const auto w = static_cast<std::uint32_t>(std::stoul(weight));
    if (f == 0 || f > (1U << 20))
      throw input_error(bad + ": size " + flits + " is not 1..1048576 flits");
    if (w == 0 || w > (1U << 20))
      throw input_error(bad + ": weight " + weight + " is not 1..1048576");
    if (out.size() == 64) throw input_error(bad + " has more than 64 sizes");
    out.emplace_back(f, w);
    at = comma + 1;
  }
  return out;
}

// --burst-on, --burst-off: mean cycles, 1..1e9.
double parse_burst(const char* name, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !(v >= 1.0 && v <= 1e9))
    throw input_error("--" + std::string(name) + " '" + shown(text) +
                      "' is not a number of cycles in 1..1e9");
  return v;
}

// --traffic and the options that go with it.
void parse_traffic(const args& a, run::traffic_config& t) {
  t.pattern = a.require("traffic");
  if (const auto v = a.get("rate")) t.rate = parse_rate(*v);
  if (const auto v = a.get("packet-flits"))
    t.packet_flits = static_cast<std::uint32_t>(parse_count("packet-flits", *v, 1U << 20));
  if (const auto v = a.get("cycles")) t.cycles = parse_count("cycles", *v, 1ULL << 40);
  if (const auto v = a.get("warmup")) t.warmup = parse_count("warmup", *v, 1ULL << 40);
  if (const auto v = a.get("seed")) t.seed = parse_count("seed", *v, ~0ULL);
  if (const auto v = a.get("hotspot"))
    t.hotspot = static_cast<std::uint32_t>(parse_count("hotspot", *v, 0xffffffffULL));
  if (const auto v = a.get("source-queue"))
    t.source_queue = static_cast<std::uint32_t>(parse_count("source-queue", *v, 65536, 1));
  if (const auto v = a.get("packet-sizes")) t.packet_sizes = parse_packet_sizes(*v);
  t.self_packets = a.has("self-packets");
  if (const auto v = a.get("injection")) {
    if (*v != "bernoulli" && *v != "on-off")
      throw input_error("--injection '" + shown(*v) + "' is not bernoulli or on-off");
    t.injection = *v;
  }
  if (const auto v = a.get("burst-on")) t.burst_on = parse_burst("burst-on", *v);
  if (const auto v = a.get("burst-off")) t.burst_off = parse_burst("burst-off", *v);
}

// "0-3,7": the tiles --trace-tiles keeps.
std::vector<bool> parse_tile_list(const std::string& text, std::uint32_t tiles) {
  std::vector<bool> keep(tiles, false);
  const std::string bad = "--trace-tiles '" + shown(text) + "'";
  if (text.empty()) throw input_error(bad + " names no tile (e.g. 0-3,7)");
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t dash = item.find('-');
    const std::string lo_text = item.substr(0, dash);
    const std::string hi_text = dash == std::string::npos ? lo_text : item.substr(dash + 1);
    if (lo_text.empty() || hi_text.empty() ||
        lo_text.find_first_not_of("0123456789") != std::string::npos ||
        hi_text.find_first_not_of("0123456789") != std::string::npos || lo_text.size() > 9 ||
        hi_text.size() > 9) {
      throw input_error(bad + " is not a list of tiles and ranges (e.g. 0-3,7)");
    }
    const std::uint64_t lo = std::stoull(lo_text);
    const std::uint64_t hi = std::stoull(hi_text);
    if (lo > hi) throw input_error(bad + ": range " + item + " runs backwards");
    if (hi >= tiles) {
      throw input_error(bad + ": tile " + std::to_string(hi) + " is not a tile of the fabric (0.." +
                        std::to_string(tiles - 1) + ")");
    }
    for (std::uint64_t t = lo; t <= hi; ++t)
      keep[t] = true;
    at = comma + 1;
  }
  return keep;
}

// --trace FILE and --timeline FILE.svg [--trace-tiles LIST] [--trace-window A:B]; the
// files are opened (and emptied) now, so a path that cannot be written is bad input
// before the run.
void parse_trace(const args& a, run_request& q, std::uint32_t tiles) {
  const auto file = a.get("trace");
  const auto picture = a.get("timeline");
  if (!file && !picture) {
    for (const char* o : {"trace-tiles", "trace-window"}) {
      if (a.has(o))
        throw input_error("--" + std::string(o) + " goes with --trace FILE or --timeline FILE");
    }
    return;
  }
  for (const auto& [opt, name] : {std::pair{"trace", file}, std::pair{"timeline", picture}})
    if (name) check_writable("--" + std::string(opt), *name);
  if (file && picture && *file == *picture)
    throw input_error("--trace and --timeline name the same file '" + shown(*file) + "'");
  q.trace_file = file.value_or("");
  q.timeline_file = picture.value_or("");
  q.config.trace = true;
  if (const auto t = a.get("trace-tiles")) q.trace_filter.tiles = parse_tile_list(*t, tiles);
  if (const auto w = a.get("trace-window")) {
    const std::size_t colon = w->find(':');
    const std::string bad = "--trace-window '" + shown(*w) + "'";
    if (colon == std::string::npos)
      throw input_error(bad + " is not FROM:TO in cycles (TO may be left out)");
    const std::string from = w->substr(0, colon);
    const std::string to = w->substr(colon + 1);
    for (const std::string& v : {from, to}) {
      if (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 18)
        throw input_error(bad + " is not FROM:TO in cycles (TO may be left out)");
    }
    q.trace_filter.from = from.empty() ? 0 : std::stoull(from);
    if (!to.empty()) {
      q.trace_filter.to = std::stoull(to);
      if (q.trace_filter.to <= q.trace_filter.from)
        throw input_error(bad + " is empty: TO must be above FROM");
    }
  }
}

// The heat map metrics read from the per-VC statistics (docs/wormhole.md, "Statistics").
bool per_vc_metric(std::string_view m) {
  return m == "flits" || m == "stall" || m == "stall-no-credit" || m == "stall-arbitration" ||
         m == "stall-no-vc";
}

// A per-VC metric needs wormhole switching on a model that moves flits one at a time: the
// RTL, or on the TLM the flit engine (param engine flit, set here unless given).
void need_vc_stats(run_request& q) {
  run::run_config& r = q.config;
  models::switching sw = models::default_switching(r.c.f.kind);
  if (r.switching) models::parse_switching(*r.switching, sw);
  const std::string m = "--heatmap-metric " + q.heatmap_metric;
  if (sw != models::switching::wormhole) {
    throw input_error(m +
                      " counts the flits and stalls of wormhole routers' VCs; the run's "
                      "switching is " +
                      std::string(models::switching_name(sw)) + " (--switching wormhole)");
  }
  if (r.model != "tlm" && r.model != "rtl") {
    throw input_error(m + " needs a model that moves flits: --model tlm or rtl, not " +
                      shown(r.model));
  }
  if (r.model != "tlm") return;
  for (const auto& [k, v] : r.params)
    if (k == "engine") return;  // given: a closed form is refused after the run
  r.params.emplace_back("engine", "flit");
}

// --heatmap FILE.svg [--heatmap-metric M] [--heatmap-steps]; the file is opened now.
void parse_heatmap(const args& a, run_request& q) {
  const auto file = a.get("heatmap");
  if (!file) {
    for (const char* o : {"heatmap-metric", "heatmap-steps"}) {
      if (a.has(o)) throw input_error("--" + std::string(o) + " goes with --heatmap FILE.svg");
    }
    return;
  }
  if (file->empty()) throw input_error("--heatmap needs a file name");
  q.heatmap_steps = a.flag("heatmap-steps");
  if (const auto m = a.get("heatmap-metric")) {
    if (q.heatmap_steps) {
      throw input_error(
          "--heatmap-metric does not apply to --heatmap-steps (a step's panel "
          "shows how many of its messages cross each link)");
    }
    if (*m != "utilization" && *m != "messages" && *m != "contention" && *m != "energy" &&
        !per_vc_metric(*m)) {
      throw input_error("--heatmap-metric '" + shown(*m) +
                        "' is not utilization, messages, contention, energy, flits, stall, "
                        "stall-no-credit, stall-arbitration or stall-no-vc");
    }
    if (*m == "energy" && q.config.model != "tlm" && q.config.model != "rtl") {
      throw input_error(
          "--heatmap-metric energy needs a model that counts energy events: "
          "--model tlm or rtl, not " +
          shown(q.config.model));
    }
    q.heatmap_metric = *m;
  }
  if (per_vc_metric(q.heatmap_metric)) need_vc_stats(q);
  const run::run_config& r = q.config;
  fw::tree_family fam{};
  if (q.heatmap_steps && r.workload == workload_kind::collective && fw::is_edst(r.c, fam)) {
    throw input_error("--heatmap-steps draws dimension-order routes; --algorithm " + r.algorithm +
                      " forwards along its trees");
  }
  if (q.heatmap_steps && a.has("routes"))
    throw input_error("--heatmap-steps draws dimension-order routes, not --routes tables");
  check_writable("--heatmap", *file);
  q.heatmap_file = *file;
}

// Writes the heat map of a finished run from its report's links (or its steps).
nlohmann::ordered_json write_heatmap_file(const run_request& q, const run::trace_data& d,
                                          const nlohmann::ordered_json& j) {
  pictures::heatmap_input in;
  in.f = q.config.c.f;
  in.title = d.title;
  const std::uint64_t cycles = j.value("cycles", std::uint64_t{0});
  std::size_t omitted = 0;
  if (q.heatmap_steps) {
    double top = 0;
    in.panels = pictures::step_panels(in.f, d.transfers, top, q.heatmap_order);
    // A page of small multiples holds 256 panels, and 200,000 links in all (a 16 x 32
    // mesh: 97 panels); the steps past them are counted.
    const std::size_t links = std::max<std::size_t>(in.f.link_slots(), 1);
    const std::size_t max_panels = std::clamp<std::size_t>(200000 / links, 1, 256);
    if (in.panels.size() > max_panels) {
      omitted = in.panels.size() - max_panels;
      in.panels.resize(max_panels);
    }
    in.metric = "messages of the step crossing each directed link (dimension-order routes)";
    in.scale_max = std::max(top, 1.0);
    in.integer_scale = true;
  } else {
    pictures::heatmap_panel p;
    p.title = "the whole run, " + std::to_string(cycles) + " cycles";
    double top = 0;
    const bool per_vc = per_vc_metric(q.heatmap_metric);
    for (const auto& l : j.value("links", nlohmann::ordered_json::array())) {
      if (per_vc && !l.contains("vcs")) {
        throw input_error("--heatmap-metric " + q.heatmap_metric +
                          ": the closed form counts no per-VC statistics (param engine auto "
                          "chose it); run with --param engine=flit");
      }
    }
    // Per link, the energy of its hops (docs/ppa.md, "Energy"), by "from to name".
    std::map<std::string, double> hop_pj;
    if (j.contains("energy")) {
      for (const auto& e : j["energy"]["links"]) {
        hop_pj[std::to_string(e["from"].get<std::uint32_t>()) + " " +
               std::to_string(e["to"].get<std::uint32_t>()) + " " + e["link"].get<std::string>()] =
            e["pj"].get<double>();
      }
    }
    for (const auto& l : j.value("links", nlohmann::ordered_json::array())) {
      if (l["from"] == l["to"]) continue;  // injection and ejection channels
      pictures::heatmap_link x;
      x.from = l["from"].get<std::uint32_t>();
      x.to = l["to"].get<std::uint32_t>();
      x.name = l["link"].get<std::string>();
      const auto busy = l["busy"].get<std::uint64_t>();
      const auto msgs = l["messages"].get<std::uint64_t>();
      const auto peak = l["max_queue"].get<std::uint64_t>();
      std::uint64_t stall[3] = {0, 0, 0};  // no credit, arbitration, no VC
      if (l.contains("stall")) {
        stall[0] = l["stall"]["no_credit"].get<std::uint64_t>();
        stall[1] = l["stall"]["arbitration"].get<std::uint64_t>();
        stall[2] = l["stall"]["no_vc"].get<std::uint64_t>();
      }
      const auto pj_at =
          hop_pj.find(std::to_string(x.from) + " " + std::to_string(x.to) + " " + x.name);
      const double pj = pj_at == hop_pj.end() ? 0.0 : pj_at->second;
      if (q.heatmap_metric == "utilization") {
        x.value = l["utilization"].get<double>();
      } else if (q.heatmap_metric == "energy") {
        x.value = pj;
      } else if (q.heatmap_metric == "flits") {
        x.value = static_cast<double>(l["flits"].get<std::uint64_t>());
      } else if (q.heatmap_metric == "stall") {
        x.value = static_cast<double>(stall[0] + stall[1] + stall[2]);
      } else if (q.heatmap_metric == "stall-no-credit") {
        x.value = static_cast<double>(stall[0]);
      } else if (q.heatmap_metric == "stall-arbitration") {
        x.value = static_cast<double>(stall[1]);
      } else if (q.heatmap_metric == "stall-no-vc") {
        x.value = static_cast<double>(stall[2]);
      } else {
        x.value = static_cast<double>(q.heatmap_metric == "messages" ? msgs : peak);
      }
      std::ostringstream os;
      os << "utilization " << l["utilization"].get<double>() << " (" << busy << " of " << cycles
         << " cycles), " << msgs << (msgs == 1 ? " message" : " messages") << ", at most " << peak
         << " waiting";
      if (l.contains("vcs")) {
        os << "; " << l["flits"].get<std::uint64_t>() << " flits; stalled behind it " << stall[0]
           << " cycles for a credit, " << stall[1] << " losing arbitration, " << stall[2]
           << " for a VC";
      }
      if (j.contains("energy")) os << "; " << pj << " pJ in its hops";
      x.detail = os.str();
      top = std::max(top, x.value);
      p.links.push_back(std::move(x));
    }
    in.panels.push_back(std::move(p));
    if (q.heatmap_metric == "utilization") {
      in.metric =
          "link utilization: cycles each directed link was held or transmitting, over "
          "the run's cycles";
      in.scale_max = 1.0;
    } else if (q.heatmap_metric == "energy") {
      in.metric =
          "energy of each directed link's hops, pJ: its traversals, each unit's read and "
          "switching before it and write after it, its heads' grants (preset " +
          j["energy"]["preset"].get<std::string>() + ")";
      in.scale_max = top > 0 ? top : 1.0;
    } else {
      if (q.heatmap_metric == "messages") {
        in.metric = "messages each directed link carried";
      } else if (q.heatmap_metric == "contention") {
        in.metric = "contention: most messages or headers waiting for each directed link at once";
      } else if (q.heatmap_metric == "flits") {
        in.metric = "flits each directed link carried";
      } else if (q.heatmap_metric == "stall") {
        in.metric = "stall cycles of the flits each directed link brought to the next router";
      } else {
        const std::string cause = q.heatmap_metric == "stall-no-credit"     ? "waiting for a credit"
                                  : q.heatmap_metric == "stall-arbitration" ? "losing arbitration"
                                                                            : "waiting for a VC";
        in.metric =
            "stall cycles " + cause + " of the flits each directed link brought to the next router";
      }
      in.scale_max = std::max(top, 1.0);
      in.integer_scale = true;
    }
  }
  output_file file{"--heatmap", q.heatmap_file};
  pictures::write_heatmap(file.stream(), in);
  file.close();
  nlohmann::ordered_json info{{"file", q.heatmap_file},
                              {"metric", q.heatmap_steps ? "step load" : q.heatmap_metric},
                              {"panels", in.panels.size()},
                              {"scale_max", in.scale_max}};
  if (omitted > 0) info["steps_left_out"] = omitted;
  return info;
}

// Reads --schedule FILE and prepares it for the fabric.
void load_schedule_file(const std::string& file, run::run_config& r) {
  const schedule s = schedule_from_value(read_json_file("--schedule", file, max_schedule_bytes));
  if (s.tiles != r.c.f.tiles()) {
    throw input_error("--schedule '" + shown(file, 160) + "' is for " + std::to_string(s.tiles) +
                      " tiles, but --fabric " + shown(r.fabric_spec) + " has " +
                      std::to_string(r.c.f.tiles()));
  }
  r.schedule_name = file;
  r.schedule = resolve_schedule(s);
}

}  // namespace

namespace {
bool has_param(const run::run_config& r, std::string_view key) {
  for (const auto& [k, v] : r.params)
    if (k == key) return true;
  return false;
}
}  // namespace

run_request parse_request(const args& a) {
  run_request q;
  run::run_config& r = q.config;
  if (const auto model = a.get("model")) {
    r.model = run::runnable_model(*model).name;
  } else {
    // --machine, --pattern, --traffic, --switching wormhole, ...: the model they need.
    std::string why;
    r.model = implied_model(a, why);
  }
  r.workload = check_run_options(a, r.model);
  r.fabric_spec = a.require("fabric");
  r.c.f = parse_fabric_arg(r.fabric_spec);
  if (r.workload == workload_kind::collective) parse_collective(a, r);
  if (const auto p = a.get("payload-bytes"))
    r.payload_bytes = parse_count("payload-bytes", *p, r.c.bytes);
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
  if (const auto t = a.get("tiles")) {
    if (*t != "native" && *t != "cortex-m4")
      throw input_error("--tiles '" + shown(*t) + "' is not native or cortex-m4");
    r.tiles = *t;
  }
  if (const auto f = a.get("firmware")) {
    if (r.tiles != "cortex-m4")
      throw input_error(
          "--firmware goes with --tiles cortex-m4 (native tiles run the host's "
          "runtime)");
    // An empty name is not the default image: leave --firmware out for that.
    if (f->empty())
      throw input_error("--firmware needs a file name (without --firmware: this build's image)");
    r.firmware = *f;
  }
  if (const auto g = a.get("gdb")) {
    if (r.tiles != "cortex-m4")
      throw input_error("--gdb goes with --tiles cortex-m4 (a native tile has no core to debug)");
    const auto colon = g->find(':');
    const std::string tile = g->substr(0, colon);
    const std::uint64_t t = parse_count("gdb", tile, 65535);
    if (t >= r.c.f.tiles()) {
      throw input_error("--gdb: tile " + tile + " is not on the fabric (tiles 0.." +
                        std::to_string(r.c.f.tiles() - 1) + ")");
    }
    r.gdb_tile = static_cast<std::uint32_t>(t);
    if (colon != std::string::npos) {
      // Port 0: any free port, named on stderr as the run starts.
      r.gdb_port = static_cast<std::uint16_t>(parse_count("gdb", g->substr(colon + 1), 65535));
    }
  }
  r.prepost = a.flag("prepost");
  r.send_ahead = a.flag("send-ahead");
  r.switching = a.get("switching");
  r.machine = a.get("machine");
  q.json = a.flag("json");
  r.all_transfers = a.flag("transfers");
  parse_trace(a, q, r.c.f.tiles());
  parse_heatmap(a, q);
  // A traffic run keeps its packets only for the JSON (crosscheck compares them).
  if (r.workload == workload_kind::traffic) r.all_transfers = r.all_transfers && q.json;
  // Parameters that only one protocol or workload reads are refused elsewhere, so none
  // is accepted without effect.
  for (const auto& [key, val] : r.params) {
    if (key == "max_retries" && r.proto != protocol::reliable)
      throw input_error("--param max_retries goes with --protocol reliable");
    if (key == "unforced_threshold" && r.proto != protocol::unforced)
      throw input_error("--param unforced_threshold goes with --protocol unforced");
    if ((key == "jitter_seed" || key == "jitter_percent") && !has_param(r, "jitter"))
      throw input_error("--param " + key + " goes with --param jitter");
    for (const models::param& cp : models::cpu_params_table()) {
      if (cp.key == key && r.tiles != "cortex-m4")
        throw input_error("--param " + key + " goes with --tiles cortex-m4");
    }
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
    for (const harness::fault_spec& f : r.faults) {
      if (f.kind == harness::fault_kind::stall) {
        throw input_error("--fault " + f.text +
                          " does not apply to --pattern: a stall holds a tile running the tile "
                          "runtime (--collective, --schedule)");
      }
    }
  }
  // Every routing reaches the engines (TLM and RTL); the link faults and the per-step heat
  // map find a message's links on its path fixed in advance: dimension order, xy or yx.
  // O1TURN's paths are chosen per packet and the adaptive routings' as the run goes, so
  // those two refuse them.
  const auto routing = std::find_if(r.params.begin(), r.params.end(), [](const auto& kv) {
    return kv.first == "routing" && kv.second != "xy" && kv.second != "yx";
  });
  if (routing != r.params.end()) {
    const std::string given = "--param routing=" + routing->second;
    for (const harness::fault_spec& f : r.faults) {
      if (f.kind == harness::fault_kind::link) {
        throw input_error("--fault " + f.text + " with " + given +
                          ": link faults find the messages they stop on paths fixed in "
                          "advance (routing xy or yx); this routing decides them per packet "
                          "or as the run goes");
      }
    }
    if (q.heatmap_steps) {
      throw input_error("--heatmap-steps with " + given +
                        ": the step panels draw paths fixed in advance (routing xy or yx); "
                        "this routing decides them per packet or as the run goes");
    }
  }
  if (std::any_of(r.params.begin(), r.params.end(),
                  [](const auto& kv) { return kv.first == "routing" && kv.second == "yx"; }))
    q.heatmap_order = dim_order::yx;
  // The files last, once every option is known good.
  if (const auto file = a.get("routes")) {
    if (run::platform_switching(r) != models::switching::store_forward)
      throw input_error("forwarding tables (--routes) apply to store-forward switching");
    r.routes = load_routes(*file, r.c.f);
  }
  switch (r.workload) {
    case workload_kind::schedule:
      load_schedule_file(*a.get("schedule"), r);
      break;
    case workload_kind::pattern:
      r.pattern_name = *a.get("pattern");
      r.pattern = load_pattern(r.pattern_name, r.c.f);
      break;
    case workload_kind::traffic:
      parse_traffic(a, r.traffic);
      break;
    case workload_kind::collective:
      break;
  }
  return q;
}

int cmd_run(const args& a, std::ostream& out, std::ostream& err) {
  run_request q = parse_request(a);
  const std::unique_ptr<run::run_result> res = run::run(std::move(q.config));
  // The trace is written for a failed run too: it shows where the run went wrong.
  // What the trace and the heat map draw, taken from the result once.
  std::optional<run::trace_data> drawn;
  if (!q.trace_file.empty() || !q.timeline_file.empty() || !q.heatmap_file.empty())
    drawn = res->trace();
  std::optional<pictures::trace_counts> traced;
  if (!q.trace_file.empty()) {
    output_file file{"--trace", q.trace_file};
    traced = pictures::write_trace(file.stream(), *drawn, q.trace_filter);
    file.close();
  }
  std::optional<pictures::timeline_counts> pictured;
  if (!q.timeline_file.empty()) {
    output_file file{"--timeline", q.timeline_file};
    pictured = pictures::write_timeline_svg(file.stream(), *drawn, q.trace_filter);
    file.close();
  }
  nlohmann::ordered_json j = res->json();
  std::optional<nlohmann::ordered_json> heat;
  if (!q.heatmap_file.empty()) heat = write_heatmap_file(q, *drawn, j);
  if (q.json) {
    if (heat) j["heatmap"] = *heat;
    if (traced) {
      j["trace"] = {{"file", q.trace_file},
                    {"spans", traced->spans},
                    {"messages", traced->messages},
                    {"steps", traced->steps},
                    {"link_spans", traced->link_spans}};
    }
    if (pictured) {
      j["timeline"] = {{"file", q.timeline_file},        {"spans", pictured->spans},
                       {"messages", pictured->messages}, {"message_arrows", pictured->arrows},
                       {"steps", pictured->steps},       {"link_spans", pictured->link_spans}};
    }
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    res->write_text(os);
    if (heat) {
      os << "  heatmap     " << q.heatmap_file << " (" << (*heat)["metric"].get<std::string>()
         << ", " << (*heat)["panels"].get<std::size_t>() << " panel"
         << ((*heat)["panels"].get<std::size_t>() == 1 ? "" : "s");
      if (heat->contains("steps_left_out"))
        os << "; the " << (*heat)["steps_left_out"].get<std::size_t>()
           << " steps past them left out";
      os << ")\n";
    }
    if (traced) {
      os << "  trace       " << q.trace_file << " (" << traced->spans << " spans, "
         << traced->messages << " messages, " << traced->steps << " steps, " << traced->link_spans
         << " link spans; open it in ui.perfetto.dev)\n";
    }
    if (pictured) {
      os << "  timeline    " << q.timeline_file << " (" << pictured->spans << " spans, "
         << pictured->messages << " messages"
         << (pictured->arrows < pictured->messages
                 ? " in " + std::to_string(pictured->arrows) + " arrows"
                 : std::string{})
         << ", " << pictured->steps << " steps, " << pictured->link_spans << " link spans drawn)\n";
    }
    out << os.str();
  }
  if (res->exit_status() != 0) {
    err << "tessera: " << res->failure() << '\n';
    return 1;
  }
  if (const std::string note = res->note(); !note.empty()) err << "tessera: note: " << note << '\n';
  return 0;
}

}  // namespace tessera::cli
