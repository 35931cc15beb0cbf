// run() on the SystemC platform: its results, one class a workload (a pattern, synthetic
// traffic, a schedule, a collective on native or Cortex-M4 tiles), each running the
// platform once over the set-up platform_setup.cpp makes.
#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "platform_setup.hpp"
#include "report.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/iss/iss_platform.hpp"
#include "tessera/price/energy.hpp"
#include "tessera/tlm/pattern.hpp"
#include "tessera/tlm/traffic.hpp"

namespace tessera::run::detail {
namespace {

class platform_pattern {
 public:
  explicit platform_pattern(const run_config& r)
      : r_(r), s_(make_setup(r)), o_(tlmm::run_pattern(r.c.f, r.pattern, s_.o)) {}

  [[nodiscard]] nlohmann::ordered_json json() const {
    const double us = s_.us();
    nlohmann::ordered_json j;
    put_platform(j, r_, s_);
    j["pattern"] = r_.pattern_name;
    j["protocol"] = std::string(protocol_name(r_.proto));
    j["params"] = params_json(s_.o);
    j["cycles"] = o_.cycles;
    if (us > 0) j["time_us"] = static_cast<double>(o_.cycles) * us;
    j["verified"] = o_.verified;
    j["completed"] = o_.completed;
    j["bytes_checked"] = o_.bytes_checked;
    if (!o_.verified && !o_.nothing_checked) j["failure"] = o_.failure;
    j["messages"] = r_.pattern.size();
    j["control_messages"] = o_.control_messages;
    if (!o_.faults.empty()) put_faults(j, o_.faults, o_.lost, o_.lost_total);
    auto arr = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r_.pattern.size(); ++i) {
      const auto& t = r_.pattern[i];
      const auto& tt = o_.transfers[i];
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
    j["links"] = links_json(o_.links, o_.cycles);
    j["contention"] = contention_json(o_.contention);
    j["energy"] = price::energy_json(o_.energy, s_.o.energy, o_.cycles);
    return j;
  }
  void write_text(std::ostream& os) const {
    const double us = s_.us();
    os << "pattern " << r_.pattern_name << " (" << r_.pattern.size() << " transfers) on "
       << r_.fabric_spec << ", " << model_text(s_)
       << (s_.m != nullptr ? ", machine " + std::string(s_.m->name) : "") << '\n';
    os << "  cycles      " << o_.cycles;
    if (us > 0) os << "  (" << static_cast<double>(o_.cycles) * us << " us)";
    os << "\n  verified    " << verified_text(o_.verified, o_.nothing_checked, o_.bytes_checked)
       << '\n';
    os << "  contention  " << o_.contention.blocked << " blocked requests, "
       << o_.contention.blocked_cycles << " cycles waited\n";
    os << "  energy      " << price::energy_text(o_.energy, s_.o.energy, o_.cycles) << '\n';
    if (o_.control_messages > 0) os << "  control     " << o_.control_messages << " messages\n";
    print_faults(os, o_.faults, o_.lost_total);
    for (std::size_t i = 0; i < r_.pattern.size() && i < 32; ++i) {
      const auto& tt = o_.transfers[i];
      os << "    " << r_.pattern[i].src << " -> " << r_.pattern[i].dst << ": " << tt.posted << ".."
         << tt.delivered << " (" << tt.delivered - tt.posted << ")\n";
    }
  }
  [[nodiscard]] bool verified() const { return o_.verified; }
  [[nodiscard]] bool nothing_checked() const { return o_.nothing_checked; }
  [[nodiscard]] std::string failure() const { return o_.failure; }
  [[nodiscard]] static std::string note() { return {}; }

 private:
  const run_config& r_;
  setup s_;
  tlmm::pattern_outcome o_;
};

tlmm::traffic_options traffic_options(const run_config& r, const setup& s) {
  const traffic_config& c = r.traffic;
  tlmm::traffic_options t;
  if (!tlmm::parse_traffic(c.pattern, t.kind)) {
    throw input_error("--traffic '" + shown(c.pattern) + "' is not a pattern (" +
                      tlmm::traffic_names() + ")");
  }
  if (c.rate) t.rate = *c.rate;
  if (c.packet_flits) t.packet_flits = *c.packet_flits;
  for (const auto& [flits, weight] : c.packet_sizes)
    t.packet_sizes.push_back({flits, weight});
  if (!c.injection.empty() && !tlmm::parse_injection(c.injection, t.injection))
    throw input_error("--injection '" + shown(c.injection) + "' is not bernoulli or on-off");
  if (c.burst_on) t.burst_on = *c.burst_on;
  t.self_packets = c.self_packets;
  if (c.burst_off) t.burst_off = *c.burst_off;
  if (c.cycles) t.cycles = *c.cycles;
  t.warmup = c.warmup.value_or(t.cycles / 10);
  if (c.seed) t.seed = *c.seed;
  if (c.hotspot) t.hotspot = *c.hotspot;
  if (c.source_queue) t.source_queue = *c.source_queue;
  t.flit_bytes = models::engine(s.o.sw).unit_bytes(s.o);
  t.keep_transfers = r.all_transfers;
  return t;
}

class platform_traffic {
 public:
  explicit platform_traffic(const run_config& r)
      : r_(r),
        s_(make_setup(r)),
        t_(traffic_options(r, s_)),
        o_(tlmm::run_traffic(r.c.f, t_, s_.o)) {}

  [[nodiscard]] nlohmann::ordered_json json() const {
    nlohmann::ordered_json j;
    put_platform(j, r_, s_);
    j["traffic"] = {{"pattern", tlmm::traffic_name(t_.kind)},
                    {"rate", t_.rate},
                    {"packet_flits", t_.packet_flits},
                    {"flit_bytes", t_.flit_bytes},
                    {"cycles", t_.cycles},
                    {"warmup", t_.warmup},
                    {"seed", t_.seed},
                    {"source_queue", t_.source_queue}};
    if (t_.kind == tlmm::traffic_kind::hotspot) j["traffic"]["hotspot"] = t_.hotspot;
    if (!t_.packet_sizes.empty()) {
      j["traffic"]["packet_flits"] = tlmm::mean_packet_flits(t_);
      nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
      for (const tlmm::packet_size& z : t_.packet_sizes)
        sizes.push_back({{"flits", z.flits}, {"weight", z.weight}});
      j["traffic"]["packet_sizes"] = sizes;
    }
    j["traffic"]["injection"] = tlmm::injection_name(t_.injection);
    if (t_.self_packets) j["traffic"]["self_packets"] = true;
    if (t_.injection == tlmm::injection_kind::on_off) {
      j["traffic"]["burst_on"] = t_.burst_on;
      j["traffic"]["burst_off"] = t_.burst_off;
    }
    j["params"] = params_json(s_.o);
    j["cycles"] = o_.end;
    j["verified"] = o_.verified;
    j["drained"] = o_.drained;
    if (!o_.failure.empty()) j["failure"] = o_.failure;
    j["packets"] = {
        {"created", o_.created},           {"delivered", o_.delivered},
        {"measured", o_.measured},         {"measured_delivered", o_.measured_delivered},
        {"not_injected", o_.not_injected}, {"not_injected_measured", o_.not_injected_measured}};
    // Past saturation the latency measured grows with the run's length, not with the
    // load: it is kept apart, under a name that says so.
    const char* lat = saturated() ? "latency_unbounded" : "latency";
    j["saturated"] = saturated();
    j[lat] = {{"average", o_.avg_latency}, {"minimum", o_.min_latency}, {"maximum", o_.max_latency},
              {"p50", o_.p50_latency},     {"p90", o_.p90_latency},     {"p99", o_.p99_latency}};
    if (t_.keep_transfers) put_transfers(j, o_.transfers, true);
    if (s_.us() > 0) j[lat]["average_us"] = o_.avg_latency * s_.us();
    j["offered"] = o_.offered;
    j["accepted"] = {{"packets", o_.accepted_packets}, {"flits", o_.accepted_flits}};
    j["links"] = links_json(o_.links, o_.end);
    j["contention"] = contention_json(o_.contention);
    j["energy"] = price::energy_json(o_.energy, s_.o.energy, o_.end);
    return j;
  }
  void write_text(std::ostream& os) const {
    os << tlmm::traffic_name(t_.kind) << " traffic on " << r_.fabric_spec << ", " << model_text(s_)
       << ", rate " << t_.rate << " packets/tile/cycle";
    if (t_.injection == tlmm::injection_kind::on_off)
      os << " in bursts (on " << t_.burst_on << ", off " << t_.burst_off << " cycles)";
    if (t_.packet_sizes.empty()) {
      os << ", " << t_.packet_flits << "-flit packets";
    } else {
      os << ", packets of";
      const char* sep = " ";
      for (const tlmm::packet_size& z : t_.packet_sizes) {
        os << sep << z.flits << (z.weight != 1 ? " (x" + std::to_string(z.weight) + ")" : "");
        sep = ", ";
      }
      os << " flits";
    }
    os << ", cycles " << t_.warmup << ".." << t_.cycles << '\n';
    os << "  packets     " << o_.created << " created, " << o_.delivered << " delivered, "
       << o_.measured << " measured";
    if (o_.not_injected > 0) {
      os << ", " << o_.not_injected << " not injected (a source queue held " << t_.source_queue
         << " packets in flight)";
    }
    os << '\n';
    if (saturated()) {
      os << "  latency     not reported: past saturation it measures how long packets wait in "
            "full queues, which grows with the run and --source-queue, not the fabric (this "
            "run's average "
         << o_.avg_latency << " cycles)\n";
    } else {
      os << "  latency     average " << o_.avg_latency << ", minimum " << o_.min_latency
         << ", maximum " << o_.max_latency << ", p50 " << o_.p50_latency << ", p99 "
         << o_.p99_latency << " cycles\n";
    }
    os << "  throughput  offered " << o_.offered << ", accepted " << o_.accepted_packets
       << " packets/tile/cycle (" << o_.accepted_flits << " flits)\n";
    os << "  verified    " << (o_.verified ? "yes" : "NO") << (o_.drained ? "" : " (not drained)")
       << '\n';
    os << "  energy      " << price::energy_text(o_.energy, s_.o.energy, o_.end) << '\n';
  }
  [[nodiscard]] bool verified() const { return o_.verified; }
  [[nodiscard]] std::string failure() const { return o_.verified ? std::string{} : o_.failure; }
  // A run that did not drain in time is verified as far as it went; say so, and say
  // when the load was past saturation.
  [[nodiscard]] std::string note() const {
    if (!o_.drained) return o_.failure;
    if (!saturated()) return {};
    std::ostringstream os;
    os << "the offered load is beyond saturation: the fabric accepted " << o_.accepted_packets
       << " of " << o_.offered << " packets/tile/cycle";
    return os.str();
  }
  // Saturated: the run could not drain, or the fabric accepted less than 95 % of the
  // load offered in the measurement window (docs/tlm.md).
  [[nodiscard]] bool saturated() const {
    return !o_.drained || o_.accepted_packets < 0.95 * o_.offered;
  }

 private:
  const run_config& r_;
  setup s_;
  tlmm::traffic_options t_;
  tlmm::traffic_outcome o_;
};

// A platform run, for its timeline trace.
trace_data platform_trace(const run_config& r, const setup& s, const tlmm::platform_outcome& po,
                          const std::string& what) {
  trace_data d;
  d.available = true;
  d.f = r.c.f;
  d.title = what + " on " + r.fabric_spec + ", " + model_text(s) +
            (s.m != nullptr ? " (machine " + std::string(s.m->name) + ")" : "");
  d.model = s.o.model_name();
  d.us_per_cycle = s.us();
  d.cycles = po.run.cycles;
  d.spans_recorded = r.trace;  // ISS tiles: from their boot blocks at each wfi
  d.spans = po.run.ops;
  d.transfers = po.transfers;
  d.steps = po.run.steps;
  d.links = po.busy;
  return d;
}

class platform_schedule {
 public:
  explicit platform_schedule(const run_config& r)
      : r_(r), s_(make_setup(r)), po_(tlmm::run_schedule(r.c.f, r.schedule, s_.o)) {}

  [[nodiscard]] nlohmann::ordered_json json() const {
    nlohmann::ordered_json j;
    put_platform(j, r_, s_);
    j["schedule"] = r_.schedule_name;
    j["protocol"] = std::string(protocol_name(r_.proto));
    j["params"] = params_json(s_.o);
    put_outcome(j, po_.run, s_.us());
    put_steps_tiles(j, po_.run);
    put_transfers(j, po_.transfers, r_.all_transfers);
    j["links"] = links_json(po_.links, po_.run.cycles);
    j["contention"] = contention_json(po_.contention);
    j["energy"] = price::energy_json(po_.energy, s_.o.energy, po_.run.cycles);
    return j;
  }
  void write_text(std::ostream& os) const {
    os << "schedule " << r_.schedule_name << " on " << r_.fabric_spec << ", " << model_text(s_)
       << '\n';
    print_outcome(os, po_.run);
    os << "  energy      " << price::energy_text(po_.energy, s_.o.energy, po_.run.cycles) << '\n';
  }
  [[nodiscard]] bool verified() const { return po_.run.verified; }
  [[nodiscard]] bool nothing_checked() const { return po_.run.nothing_checked; }
  [[nodiscard]] std::string failure() const { return po_.run.failure; }
  [[nodiscard]] static std::string note() { return {}; }
  [[nodiscard]] trace_data trace() const {
    return platform_trace(r_, s_, po_, "schedule " + r_.schedule_name);
  }

 private:
  const run_config& r_;
  setup s_;
  tlmm::platform_outcome po_;
};

class platform_collective {
 public:
  explicit platform_collective(run_config& r) : r_(r), s_(make_setup(r)) {
    fw::tree_family fam{};
    if (fw::is_edst(r_.c, fam)) {
      if (s_.o.sw != tlmm::switching::store_forward && r_.packets == 0) {
        throw input_error("--algorithm " + r_.algorithm + " on --switching " +
                          std::string(models::switching_name(s_.o.sw)) +
                          " needs --packets (the automatic count uses store-forward beta and tau)");
      }
      edst_ =
          plan_edst(r_, static_cast<double>(s_.o.torus.beta), static_cast<double>(s_.o.torus.tau));
      if (s_.o.sw != tlmm::switching::store_forward) edst_.reset();  // no b(L, h, d) to show
    }
    fw::collective_params c = r_.c;
    tlmm::platform_options opt = s_.o;
    if (r_.own_contract) {
      if (r_.tiles != "cortex-m4")
        throw input_error(
            "--firmware without --collective (an image's own contract) runs on --tiles cortex-m4");
      if (r_.payload_bytes)
        throw input_error(
            "--payload-bytes goes with a built-in --collective, not an image's own contract");
      if (const auto k = iss::image_contract(r_.firmware))
        r_.contract_name = iss::contract_name(*k);
    }
    if (r_.payload_bytes) {
      const std::uint64_t p = *r_.payload_bytes;
      const std::string given = std::to_string(p);
      if (p == 0 || p > r_.c.bytes || r_.c.bytes % p != 0) {
        throw input_error("--payload-bytes " + given + " does not divide --bytes " +
                          std::to_string(r_.c.bytes));
      }
      if (fw::info(r_.c.coll).reduction && p % elem_bytes(r_.c.type) != 0) {
        throw input_error("--payload-bytes " + given + " is not a multiple of the " +
                          std::to_string(elem_bytes(r_.c.type)) + "-byte element");
      }
      c.bytes = static_cast<std::uint32_t>(p);
      opt.wire_scale = r_.c.bytes / p;
      if (fw::is_edst(r_.c, fam)) {
        const std::uint32_t trees = fw::info(fam).trees;
        if (c.bytes / trees < r_.c.packets) {
          throw input_error("--payload-bytes " + given + " leaves empty packets: " +
                            std::to_string(trees) + " trees x " + std::to_string(r_.c.packets) +
                            " packets need at least that many bytes");
        }
      }
      payload_ = c.bytes;
    }
    if (r_.tiles == "cortex-m4") {
      iss::iss_options io;
      io.firmware = r_.firmware;
      io.gdb_tile = r_.gdb_tile;
      io.gdb_port = r_.gdb_port;
      io.own_contract = r_.own_contract;
      io.cpu_khz = opt.cpu.cpu_mhz * 1000;
      // The fabric clock: given, or the machine's (its cycle time), or 1 GHz.
      io.fabric_khz = opt.cpu.fabric_mhz > 0 ? opt.cpu.fabric_mhz * 1000
                      : s_.m != nullptr
                          ? static_cast<std::uint64_t>(1000.0 / s_.m->us_per_cycle + 0.5)
                          : 1'000'000;
      io.cpi = opt.cpu.cpi;
      io.quantum = opt.cpu.quantum;
      io.untimed_max = opt.cpu.untimed_max;
      // A tile image that never finishes stops at its instruction budget, unless the
      // user set the cycle limit (docs/tiles.md, "A tile that never finishes").
      io.instruction_budget = std::none_of(r_.params.begin(), r_.params.end(),
                                           [](const auto& kv) { return kv.first == "max_cycles"; });
      fabric_khz_ = io.fabric_khz;
      firmware_ = io.firmware.empty() ? iss::default_firmware() : io.firmware;
      po_ = iss::run_collective(c, opt, io);
    } else {
      po_ = tlmm::run_collective(c, opt);
    }
  }

  [[nodiscard]] nlohmann::ordered_json json() const {
    const harness::run_outcome& o = po_.run;
    nlohmann::ordered_json j;
    put_platform(j, r_, s_);
    const bool iss = !po_.cpu.empty();
    if (iss) {
      j["tiles_model"] = "cortex-m4";
      j["firmware"] = firmware_;
      j["fabric_khz"] = fabric_khz_;
    }
    put_collective(j, r_);
    if (payload_) j["payload_bytes"] = *payload_;
    j["params"] = params_json(s_.o, iss);
    put_outcome(j, o, s_.us());
    if (edst_) put_edst(j, *edst_);
    put_steps_tiles(j, o);
    for (std::size_t t = 0; t < po_.cpu.size() && t < j["per_tile"].size(); ++t) {
      j["per_tile"][t]["instructions"] = po_.cpu[t].instructions;
      j["per_tile"][t]["setup_instructions"] = po_.cpu[t].setup_instructions;
      j["per_tile"][t]["compute_cycles"] = po_.cpu[t].compute_cycles;
      j["per_tile"][t]["wait_cycles"] = po_.cpu[t].wait_cycles;
      if (po_.cpu[t].instruction_budget > 0)
        j["per_tile"][t]["instruction_budget"] = po_.cpu[t].instruction_budget;
    }
    put_transfers(j, po_.transfers, r_.all_transfers);
    j["links"] = links_json(po_.links, o.cycles);
    j["contention"] = contention_json(po_.contention);
    j["energy"] = price::energy_json(po_.energy, s_.o.energy, o.cycles);
    return j;
  }
  void write_text(std::ostream& os) const {
    const harness::run_outcome& o = po_.run;
    const double us = s_.us();
    os << collective_title(r_) << " on " << r_.fabric_spec << ", " << r_.c.f.tiles()
       << " tiles, m = " << r_.c.bytes << " bytes, " << model_text(s_)
       << (s_.m != nullptr ? " (machine " + std::string(s_.m->name) + ")" : "") << ", protocol "
       << protocol_name(r_.proto) << (r_.prepost ? " with prepost" : "") << '\n';
    print_choice(os, r_);
    if (us > 0) os << "  time        " << static_cast<double>(o.cycles) * us << " us\n";
    if (edst_) print_edst(os, *edst_);
    print_outcome(os, o);
    os << "  contention  " << po_.contention.blocked << " blocked requests, "
       << po_.contention.blocked_cycles << " cycles waited\n";
    os << "  energy      " << price::energy_text(po_.energy, s_.o.energy, po_.run.cycles) << '\n';
    if (!po_.cpu.empty()) {
      tlmm::tile_cpu sum;
      for (const tlmm::tile_cpu& c : po_.cpu) {
        sum.instructions += c.instructions;
        sum.setup_instructions += c.setup_instructions;
        sum.compute_cycles += c.compute_cycles;
        sum.wait_cycles += c.wait_cycles;
      }
      os << "  tiles       cortex-m4 (" << firmware_ << "): " << sum.instructions
         << " instructions, " << sum.compute_cycles << " cycles computing, " << sum.wait_cycles
         << " cycles waiting on the NIC, summed over the tiles (and " << sum.setup_instructions
         << " instructions making their data and reports)\n";
    }
  }
  [[nodiscard]] bool verified() const { return po_.run.verified; }
  [[nodiscard]] bool nothing_checked() const { return po_.run.nothing_checked; }
  [[nodiscard]] std::string failure() const { return po_.run.failure; }
  [[nodiscard]] static std::string note() { return {}; }
  [[nodiscard]] trace_data trace() const {
    return platform_trace(r_, s_, po_, collective_title(r_));
  }

 private:
  run_config& r_;
  setup s_;
  std::optional<edst_plan> edst_;
  std::optional<std::uint64_t> payload_;
  tlmm::platform_outcome po_;
  std::string firmware_;
  std::uint64_t fabric_khz_{0};
};

}  // namespace

}  // namespace tessera::run::detail

namespace tessera::run::detail {

std::unique_ptr<run_result> run_platform(run_config r) {
  // Before SystemC starts: its banner would land on stdout, before the JSON.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  if (r.tiles != "native" && r.tiles != "cortex-m4")
    throw input_error("--tiles '" + shown(r.tiles) + "' is not native or cortex-m4");
  if (r.tiles == "cortex-m4" && r.workload != workload_kind::collective) {
    throw input_error(
        "--tiles cortex-m4 runs the tile image on a --collective; --schedule, "
        "--pattern and --traffic run on native tiles");
  }
  switch (r.workload) {
    case workload_kind::pattern:
      return std::make_unique<owning<platform_pattern>>(std::move(r));
    case workload_kind::traffic:
      return std::make_unique<owning<platform_traffic>>(std::move(r));
    case workload_kind::schedule:
      return std::make_unique<owning<platform_schedule>>(std::move(r));
    case workload_kind::collective:
      break;
  }
  return std::make_unique<owning<platform_collective>>(std::move(r));
}

}  // namespace tessera::run::detail

// libsystemc carries a main() that calls sc_main, so the library needs the symbol to
// link. The CLI has its own main and starts SystemC itself, only for the platform
// models, which keeps the SystemC banner and set-up out of every other command. This
// lives here, in an object every binary that runs a model pulls in, and is never called.
extern "C" int sc_main(int argc, char* argv[]) {
  (void)argc;
  (void)argv;
  return 2;
}
