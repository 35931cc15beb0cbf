// `tessera run --model tlm`: the SystemC platform with a timing engine per switching
// mode, machine presets, collectives and patterns. Parsing the model parameters
// lives here because only this file knows the platform's option types.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "readers.hpp"
#include "run_request.hpp"
#include "tessera/analytic/thakur_delta.hpp"
#include "tessera/bridge/tlm2rtl.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"
#include "tessera/tlm/delta.hpp"
#include "tessera/tlm/machines.hpp"
#include "tessera/tlm/pattern.hpp"
#include "tessera/tlm/platform.hpp"
#include "tessera/tlm/traffic.hpp"

namespace tessera::cli {
namespace {

namespace tlmm = tlm_models;

std::string machine_names() {
  std::string out;
  for (const auto& m : tlmm::machines())
    out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

void apply_param(tlmm::platform_options& o, const std::string& key, const std::string& v) {
  models::set_param(o, o.sw, key, v);
}

// The engine's parameters and unforced_threshold, from the registry's table.
nlohmann::ordered_json params_json(const tlmm::platform_options& o) {
  static constexpr std::string_view common[] = {"unforced_threshold"};
  return models::params_json(o, o.sw, common);
}

nlohmann::ordered_json links_json(const std::vector<net::link_stat>& links, std::uint64_t cycles) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& l : links) {
    arr.push_back({{"from", l.from},
                   {"to", l.to},
                   {"link", l.name},
                   {"busy", l.busy},
                   {"utilization",
                    cycles == 0 ? 0.0 : static_cast<double>(l.busy) / static_cast<double>(cycles)},
                   {"messages", l.messages},
                   {"max_queue", l.max_queue}});
  }
  return arr;
}

nlohmann::ordered_json contention_json(const net::contention_stat& c) {
  return {{"blocked", c.blocked},
          {"blocked_cycles", c.blocked_cycles},
          {"max_blocked", c.max_blocked},
          {"retries", c.retries}};
}

struct setup {
  tlmm::platform_options o;
  const tlmm::machine* m{nullptr};
};

setup make_setup(const run_request& r) {
  setup s;
  const fabric& f = r.c.f;
  if (r.machine) {
    s.m = tlmm::find_machine(*r.machine);
    if (s.m == nullptr)
      throw input_error("--machine '" + shown(*r.machine) + "' is not known (" + machine_names() +
                        ")");
    if (s.m->kind != f.kind) {
      throw input_error("--machine " + *r.machine + " is a " + std::string(kind_name(s.m->kind)) +
                        ", but --fabric " + r.fabric_spec + " is a " +
                        std::string(kind_name(f.kind)));
    }
  }
  s.o.sw = models::default_switching(f.kind);
  if (s.m != nullptr && !models::parse_switching(s.m->switching, s.o.sw))
    throw input_error("machine table: bad switching");
  if (r.switching) {
    tlmm::switching sw{};
    if (!models::parse_switching(*r.switching, sw))
      throw input_error("--switching '" + shown(*r.switching) + "' is not a switching mode (" +
                        models::switching_names() + ")");
    if (s.m != nullptr && sw != s.o.sw)
      throw input_error("--switching " + *r.switching + " contradicts --machine " + *r.machine +
                        " (" + std::string(s.m->switching) + ")");
    s.o.sw = sw;
  }
  if (s.m != nullptr) {
    for (const auto& [k, v] : s.m->params)
      apply_param(s.o, std::string(k), std::string(v));
  }
  for (const auto& [k, v] : r.params)
    apply_param(s.o, k, v);
  if (r.routes) {
    if (s.o.sw != tlmm::switching::store_forward)
      throw input_error("forwarding tables (--routes) apply to store-forward switching");
    s.o.forwarding = load_routes(*r.routes, f);
    if (s.o.forwarding.empty()) throw input_error("--routes has no entries");
  }
  s.o.proto = r.proto;
  s.o.faults = r.faults;
  if (r.model == "rtl") {
    // The same platform; the fabric's engine is the bridge to the Verilated RTL.
    s.o.model = "rtl";
    s.o.model_engine = &bridge::make_rtl_engine;
  }
  s.o.prepost = r.prepost;
  s.o.send_ahead = r.send_ahead;
  return s;
}

void put_platform(nlohmann::ordered_json& j, const run_request& r, const setup& s) {
  j["command"] = "run";
  j["model"] = s.o.model;
  j["switching"] = std::string(models::switching_name(s.o.sw));
  if (s.m != nullptr) {
    j["machine"] = {
        {"name", s.m->name}, {"us_per_cycle", s.m->us_per_cycle}, {"source", s.m->source}};
  }
  j["fabric"] = r.fabric_spec;
  j["tiles"] = r.c.f.tiles();
}

int run_pattern_cmd(const run_request& r, const setup& s, std::ostream& out, std::ostream& err) {
  const auto transfers = load_pattern(*r.pattern, r.c.f);
  const tlmm::pattern_outcome o = tlmm::run_pattern(r.c.f, transfers, s.o);
  const double us = s.m != nullptr ? s.m->us_per_cycle : 0.0;  // 0: no machine, no time_us
  if (r.json) {
    nlohmann::ordered_json j;
    put_platform(j, r, s);
    j["pattern"] = *r.pattern;
    j["protocol"] = std::string(protocol_name(r.proto));
    j["params"] = params_json(s.o);
    j["cycles"] = o.cycles;
    if (us > 0) j["time_us"] = static_cast<double>(o.cycles) * us;
    j["verified"] = o.verified;
    j["completed"] = o.completed;
    if (!o.verified) j["failure"] = o.failure;
    j["messages"] = transfers.size();
    j["control_messages"] = o.control_messages;
    if (!o.faults.empty()) put_faults(j, o.faults, o.lost, o.lost_total);
    auto arr = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const auto& t = transfers[i];
      const auto& tt = o.transfers[i];
      nlohmann::ordered_json e{{"transfer", i},
                               {"src", t.src},
                               {"dst", t.dst},
                               {"bytes", t.bytes},
                               {"posted", tt.posted},
                               {"started", tt.started},
                               {"delivered", tt.delivered},
                               {"cycles", tt.delivered - tt.posted}};
      if (us > 0) e["time_us"] = static_cast<double>(tt.delivered - tt.posted) * us;
      arr.push_back(std::move(e));
    }
    j["per_transfer"] = std::move(arr);
    j["links"] = links_json(o.links, o.cycles);
    j["contention"] = contention_json(o.contention);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << "pattern " << *r.pattern << " (" << transfers.size() << " transfers) on " << r.fabric_spec
       << ", " << s.o.model << " " << models::switching_name(s.o.sw)
       << (s.m != nullptr ? ", machine " + std::string(s.m->name) : "") << '\n';
    os << "  cycles      " << o.cycles;
    if (us > 0) os << "  (" << static_cast<double>(o.cycles) * us << " us)";
    os << "\n  verified    " << (o.verified ? "yes" : "NO") << '\n';
    os << "  contention  " << o.contention.blocked << " blocked requests, "
       << o.contention.blocked_cycles << " cycles waited\n";
    if (o.control_messages > 0) os << "  control     " << o.control_messages << " messages\n";
    print_faults(os, o.faults, o.lost_total);
    for (std::size_t i = 0; i < transfers.size() && i < 32; ++i) {
      const auto& tt = o.transfers[i];
      os << "    " << transfers[i].src << " -> " << transfers[i].dst << ": " << tt.posted << ".."
         << tt.delivered << " (" << tt.delivered - tt.posted << ")\n";
    }
    out << os.str();
  }
  if (!o.verified) {
    err << "tessera: " << o.failure << '\n';
    return 1;
  }
  return 0;
}

double parse_rate(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !(v > 0.0 && v <= 1.0))
    throw input_error("--rate '" + shown(text) + "' is not a number in (0, 1] packets/tile/cycle");
  return v;
}

int run_traffic_cmd(const run_request& r, const setup& s, std::ostream& out, std::ostream& err) {
  tlmm::traffic_options t;
  if (!tlmm::parse_traffic(*r.traffic, t.kind)) {
    throw input_error(
        "--traffic '" + shown(*r.traffic) +
        "' is not a pattern (uniform, transpose, bitcomp, bitrev, hotspot, neighbor)");
  }
  if (r.rate) t.rate = parse_rate(*r.rate);
  if (r.packet_flits)
    t.packet_flits =
        static_cast<std::uint32_t>(parse_count("packet-flits", *r.packet_flits, 1U << 20));
  if (r.cycles) t.cycles = parse_count("cycles", *r.cycles, 1ULL << 40);
  t.warmup = r.warmup ? parse_count("warmup", *r.warmup, 1ULL << 40) : t.cycles / 10;
  if (r.seed) t.seed = parse_count("seed", *r.seed, ~0ULL);
  if (r.hotspot)
    t.hotspot = static_cast<std::uint32_t>(parse_count("hotspot", *r.hotspot, 0xffffffffULL));
  t.flit_bytes = models::engine(s.o.sw).unit_bytes(s.o);
  t.keep_transfers = r.all_transfers && r.json;
  const tlmm::traffic_outcome o = tlmm::run_traffic(r.c.f, t, s.o);
  const double us = s.m != nullptr ? s.m->us_per_cycle : 0.0;
  if (r.json) {
    nlohmann::ordered_json j;
    put_platform(j, r, s);
    j["traffic"] = {{"pattern", tlmm::traffic_name(t.kind)},
                    {"rate", t.rate},
                    {"packet_flits", t.packet_flits},
                    {"flit_bytes", t.flit_bytes},
                    {"cycles", t.cycles},
                    {"warmup", t.warmup},
                    {"seed", t.seed}};
    if (t.kind == tlmm::traffic_kind::hotspot) j["traffic"]["hotspot"] = t.hotspot;
    j["params"] = params_json(s.o);
    j["cycles"] = o.end;
    j["verified"] = o.verified;
    j["drained"] = o.drained;
    if (!o.failure.empty()) j["failure"] = o.failure;
    j["packets"] = {{"created", o.created},
                    {"delivered", o.delivered},
                    {"measured", o.measured},
                    {"measured_delivered", o.measured_delivered}};
    j["latency"] = {{"average", o.avg_latency}, {"minimum", o.min_latency},
                    {"maximum", o.max_latency}, {"p50", o.p50_latency},
                    {"p90", o.p90_latency},     {"p99", o.p99_latency}};
    if (t.keep_transfers) put_transfers(j, o.transfers, true);
    if (us > 0) j["latency"]["average_us"] = o.avg_latency * us;
    j["offered"] = o.offered;
    j["accepted"] = {{"packets", o.accepted_packets}, {"flits", o.accepted_flits}};
    j["links"] = links_json(o.links, o.end);
    j["contention"] = contention_json(o.contention);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << tlmm::traffic_name(t.kind) << " traffic on " << r.fabric_spec << ", " << s.o.model << " "
       << models::switching_name(s.o.sw) << ", rate " << t.rate << " packets/tile/cycle, "
       << t.packet_flits << "-flit packets, cycles " << t.warmup << ".." << t.cycles << '\n';
    os << "  packets     " << o.created << " created, " << o.delivered << " delivered, "
       << o.measured << " measured\n";
    os << "  latency     average " << o.avg_latency << ", minimum " << o.min_latency << ", maximum "
       << o.max_latency << ", p50 " << o.p50_latency << ", p99 " << o.p99_latency << " cycles\n";
    os << "  throughput  offered " << o.offered << ", accepted " << o.accepted_packets
       << " packets/tile/cycle (" << o.accepted_flits << " flits)\n";
    os << "  verified    " << (o.verified ? "yes" : "NO") << (o.drained ? "" : " (not drained)")
       << '\n';
    out << os.str();
  }
  if (!o.verified) {
    err << "tessera: " << o.failure << '\n';
    return 1;
  }
  if (!o.drained) err << "tessera: note: " << o.failure << '\n';
  return 0;
}

}  // namespace

bool model_available(std::string_view model) {
  return model == "alphabeta" || model == "tlm" || model == "rtl";
}

int run_tlm(const run_request& r, std::ostream& out, std::ostream& err) {
  // Before SystemC starts: its banner would land on stdout, before the JSON.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const setup s = make_setup(r);
  if (r.pattern) return run_pattern_cmd(r, s, out, err);
  if (r.traffic) return run_traffic_cmd(r, s, out, err);
  if (r.schedule_file) {
    const nic::prepared_schedule ps = load_schedule_file(r);
    const tlmm::platform_outcome po = tlmm::run_schedule(r.c.f, ps, s.o);
    const double us = s.m != nullptr ? s.m->us_per_cycle : 0.0;
    if (r.json) {
      nlohmann::ordered_json j;
      put_platform(j, r, s);
      j["schedule"] = *r.schedule_file;
      j["protocol"] = std::string(protocol_name(r.proto));
      j["params"] = params_json(s.o);
      put_outcome(j, po.run, us);
      put_steps_tiles(j, po.run);
      put_transfers(j, po.transfers, r.all_transfers);
      j["links"] = links_json(po.links, po.run.cycles);
      j["contention"] = contention_json(po.contention);
      out << j.dump(2) << '\n';
    } else {
      std::ostringstream os;
      os << "schedule " << *r.schedule_file << " on " << r.fabric_spec << ", " << s.o.model << " "
         << models::switching_name(s.o.sw) << '\n';
      print_outcome(os, po.run);
      out << os.str();
    }
    if (!po.run.verified) {
      err << "tessera: " << po.run.failure << '\n';
      return 1;
    }
    return 0;
  }

  run_request planned = r;
  std::optional<edst_plan> edst;
  {
    fw::tree_family fam{};
    if (fw::is_edst(r.c, fam)) {
      if (s.o.sw != tlmm::switching::store_forward && r.packets == 0) {
        throw input_error("--algorithm " + r.algorithm + " on --switching " +
                          std::string(models::switching_name(s.o.sw)) +
                          " needs --packets (the automatic count uses store-forward beta and tau)");
      }
      edst = plan_edst(planned, static_cast<double>(s.o.torus.beta),
                       static_cast<double>(s.o.torus.tau));
    }
  }
  fw::collective_params c = planned.c;
  tlmm::platform_options opt = s.o;
  if (r.payload_bytes) {
    const auto p = parse_count("payload-bytes", *r.payload_bytes, r.c.bytes);
    if (p == 0 || r.c.bytes % p != 0) {
      throw input_error("--payload-bytes " + *r.payload_bytes + " does not divide --bytes " +
                        std::to_string(r.c.bytes));
    }
    const fw::collective_info& ci = fw::info(r.c.coll);
    if (ci.reduction && p % elem_bytes(r.c.type) != 0) {
      throw input_error("--payload-bytes " + *r.payload_bytes + " is not a multiple of the " +
                        std::to_string(elem_bytes(r.c.type)) + "-byte element");
    }
    c.bytes = static_cast<std::uint32_t>(p);
    opt.wire_scale = r.c.bytes / p;
    if (edst && c.bytes / edst->trees < edst->packets) {
      throw input_error("--payload-bytes " + *r.payload_bytes +
                        " leaves empty packets: " + std::to_string(edst->trees) + " trees x " +
                        std::to_string(edst->packets) + " packets need at least that many bytes");
    }
  }
  const tlmm::platform_outcome po = tlmm::run_collective(c, opt);
  const nic::run_outcome& o = po.run;
  const double us = s.m != nullptr ? s.m->us_per_cycle : 0.0;  // 0: no machine, no time_us
  if (r.json) {
    nlohmann::ordered_json j;
    put_platform(j, r, s);
    put_collective(j, r);
    if (r.payload_bytes) j["payload_bytes"] = c.bytes;
    j["params"] = params_json(s.o);
    put_outcome(j, o, us);
    if (edst && s.o.sw == tlmm::switching::store_forward) put_edst(j, *edst);
    put_steps_tiles(j, o);
    put_transfers(j, po.transfers, r.all_transfers);
    j["links"] = links_json(po.links, o.cycles);
    j["contention"] = contention_json(po.contention);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    const fw::collective_info& ci = fw::info(r.c.coll);
    os << ci.name << " (" << r.algorithm << ") on " << r.fabric_spec << ", " << r.c.f.tiles()
       << " tiles, m = " << r.c.bytes << " bytes, " << s.o.model << " "
       << models::switching_name(s.o.sw)
       << (s.m != nullptr ? " (machine " + std::string(s.m->name) + ")" : "") << ", protocol "
       << protocol_name(r.proto) << (r.prepost ? " with prepost" : "") << '\n';
    if (us > 0) os << "  time        " << static_cast<double>(o.cycles) * us << " us\n";
    if (edst && s.o.sw == tlmm::switching::store_forward) print_edst(os, *edst);
    print_outcome(os, o);
    os << "  contention  " << po.contention.blocked << " blocked requests, "
       << po.contention.blocked_cycles << " cycles waited\n";
    out << os.str();
  }
  if (!o.verified) {
    err << "tessera: " << o.failure << '\n';
    return 1;
  }
  return 0;
}

int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const tlmm::machine* m = tlmm::find_machine("delta");
  if (m == nullptr) throw input_error("the delta preset is missing");
  tlmm::platform_options o;
  if (!models::parse_switching(m->switching, o.sw)) throw input_error("delta: bad switching");
  for (const auto& [k, v] : m->params)
    apply_param(o, std::string(k), std::string(v));
  const tlmm::delta_tlm_fit fit = tlmm::fit_delta_tlm(o);
  const auto cells = tlmm::delta_cells();
  struct row {
    tlmm::delta_cell cell;
    tlmm::cell_run run;
    double model_s{0};
    double deviation{0};
  };
  std::vector<row> rows;
  std::map<std::uint32_t, std::pair<double, double>> sums;  // table -> (sum, max) |dev|
  std::map<std::uint32_t, int> counts;
  int failures = 0;
  for (const auto& c : cells) {
    if (!tables.empty() && tables.count(c.table) == 0) continue;
    row r{c, tlmm::run_delta_cell(c.alg, c.rows, c.cols, c.bytes, o), 0, 0};
    if (!r.run.ok) {
      ++failures;
      err << "tessera: table " << c.table << " " << c.rows << "x" << c.cols << " " << c.bytes
          << " bytes: " << r.run.failure << '\n';
    }
    r.model_s = static_cast<double>(r.run.cycles) * m->us_per_cycle * 1e-6;
    r.deviation = (r.model_s - c.paper_s) / c.paper_s;
    if (!c.fitted) {
      auto& [sum, mx] = sums[c.table];
      sum += std::fabs(r.deviation);
      mx = std::max(mx, std::fabs(r.deviation));
      ++counts[c.table];
    }
    rows.push_back(r);
  }
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "reproduce";
    j["paper"] = "thakur";
    j["source"] = thakur_source;
    j["model"] = "tlm: wormhole mesh, machine delta";
    j["params"] = params_json(o);
    j["us_per_cycle"] = m->us_per_cycle;
    j["fit"] = {{"cells", "Table 2, 4 x 4 column"},
                {"alpha_us", fit.alpha_us},
                {"alpha_cycles", fit.alpha_cycles},
                {"beta_sat_us_per_byte", fit.beta_sat_us},
                {"rms_s", fit.rms_s}};
    auto arr = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      arr.push_back({{"table", r.cell.table},
                     {"algorithm", std::string(fw::info(r.cell.alg).name)},
                     {"mesh", std::to_string(r.cell.rows) + "x" + std::to_string(r.cell.cols)},
                     {"bytes", r.cell.bytes},
                     {"paper", r.cell.paper_s},
                     {"simulated", r.model_s},
                     {"cycles", r.run.cycles},
                     {"deviation", r.deviation},
                     {"verified", r.run.ok},
                     {"fitted", r.cell.fitted}});
    }
    j["rows"] = std::move(arr);
    auto sum = nlohmann::ordered_json::array();
    for (const auto& [t, v] : sums) {
      sum.push_back({{"table", t},
                     {"mean_abs_deviation", v.first / counts[t]},
                     {"max_abs_deviation", v.second}});
    }
    j["tables"] = std::move(sum);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << std::fixed;
    os << "Thakur " << thakur_tables_name(tables)
       << " (Touchstone Delta) on the TLM platform, machine delta\n";
    os << "fit on Table 2, 4x4 (platform at alpha = 0, then least squares): alpha = "
       << std::setprecision(1) << fit.alpha_us << " us (" << fit.alpha_cycles
       << " cycles), beta_sat = " << std::setprecision(5) << fit.beta_sat_us << " us/byte, rms "
       << std::setprecision(4) << fit.rms_s << " s\n";
    std::uint32_t current = 0;
    for (const auto& r : rows) {
      if (r.cell.table != current) {
        current = r.cell.table;
        os << "\nTable " << current << " (" << fw::info(r.cell.alg).name << ")\n"
           << "  mesh      bytes     paper s       tlm s   deviation\n";
      }
      os << "  " << std::left << std::setw(8)
         << (std::to_string(r.cell.rows) + "x" + std::to_string(r.cell.cols)) << std::right
         << std::setw(7) << r.cell.bytes << std::setw(12) << std::setprecision(3) << r.cell.paper_s
         << std::setw(12) << r.model_s << std::setw(10) << std::setprecision(1) << r.deviation * 100
         << " %" << (r.cell.fitted ? "  (fitted)" : "") << (r.run.ok ? "" : "  NOT VERIFIED")
         << '\n';
    }
    os << "\nmean / max |deviation| of the predicted cells:\n";
    for (const auto& [t, v] : sums) {
      os << "  Table " << t << ": " << std::setprecision(1) << v.first / counts[t] * 100 << " % / "
         << v.second * 100 << " %\n";
    }
    out << os.str();
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace tessera::cli

// libsystemc carries a main() that calls sc_main, so the library needs the symbol to
// link. The CLI has its own main and starts SystemC itself, only for --model tlm,
// which keeps the SystemC banner and set-up out of every other command. This lives
// here, in an object every CLI binary pulls in, and is never called.
extern "C" int sc_main(int argc, char* argv[]) {
  (void)argc;
  (void)argv;
  return 2;
}
