// A platform run's set-up: the machine preset, the switching, the parameters over them
// (the engine's defaults, the models' own, the machine's, then --param), the routes; the
// platform's answers to run() that need no run (its timing, its switching, a preset).
#include "platform_setup.hpp"

#include "report.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

namespace tessera::run::detail {

std::string machine_names() {
  std::string out;
  for (const auto& m : tlmm::machines())
    out += (out.empty() ? "" : ", ") + std::string(m.name);
  return out;
}

nlohmann::ordered_json params_json(const tlmm::platform_options& o, bool cpu) {
  static constexpr std::string_view common[] = {"unforced_threshold"};
  static constexpr std::string_view with_cpu[] = {
      "unforced_threshold", "cpu_mhz", "fabric_mhz", "cpi", "quantum", "untimed_max"};
  if (cpu) return models::params_json(o, o.sw, with_cpu);
  return models::params_json(o, o.sw, common);
}

nlohmann::ordered_json links_json(const std::vector<net::link_stat>& links, std::uint64_t cycles) {
  auto arr = nlohmann::ordered_json::array();
  for (const auto& l : links) {
    nlohmann::ordered_json row{
        {"from", l.from},
        {"to", l.to},
        {"link", l.name},
        {"busy", l.busy},
        {"utilization",
         cycles == 0 ? 0.0 : static_cast<double>(l.busy) / static_cast<double>(cycles)},
        {"messages", l.messages},
        {"max_queue", l.max_queue}};
    if (!l.vcs.empty()) {
      // Per VC (docs/wormhole.md, "Statistics"), and the channel's totals over its VCs.
      net::vc_stat sum;
      auto vcs = nlohmann::ordered_json::array();
      for (std::size_t v = 0; v < l.vcs.size(); ++v) {
        const net::vc_stat& s = l.vcs[v];
        sum.flits += s.flits;
        sum.no_credit += s.no_credit;
        sum.arbitration += s.arbitration;
        sum.no_vc += s.no_vc;
        vcs.push_back(
            {{"vc", v},
             {"flits", s.flits},
             {"busy", s.busy},
             {"stall",
              {{"no_credit", s.no_credit}, {"arbitration", s.arbitration}, {"no_vc", s.no_vc}}}});
      }
      row["flits"] = sum.flits;
      row["stall"] = {
          {"no_credit", sum.no_credit}, {"arbitration", sum.arbitration}, {"no_vc", sum.no_vc}};
      row["vcs"] = std::move(vcs);
    }
    arr.push_back(std::move(row));
  }
  return arr;
}

nlohmann::ordered_json contention_json(const net::contention_stat& c) {
  return {{"blocked", c.blocked},
          {"blocked_cycles", c.blocked_cycles},
          {"max_blocked", c.max_blocked},
          {"retries", c.retries}};
}

const tlmm::machine* find_machine(const run_config& r) {
  if (!r.machine) return nullptr;
  const tlmm::machine* m = tlmm::find_machine(*r.machine);
  if (m == nullptr)
    throw input_error("--machine '" + shown(*r.machine) + "' is not known (" + machine_names() +
                      ")");
  if (m->kind != r.c.f.kind) {
    throw input_error("--machine " + *r.machine + " is a " + std::string(kind_name(m->kind)) +
                      ", but --fabric " + r.fabric_spec + " is a " +
                      std::string(kind_name(r.c.f.kind)));
  }
  return m;
}

models::switching switching_of(const run_config& r, const tlmm::machine* m) {
  models::switching sw = models::default_switching(r.c.f.kind);
  if (m != nullptr && !models::parse_switching(m->switching, sw))
    throw input_error("machine table: bad switching");
  if (r.switching) {
    models::switching given{};
    if (!models::parse_switching(*r.switching, given))
      throw input_error("--switching '" + shown(*r.switching) + "' is not a switching mode (" +
                        models::switching_names() + ")");
    if (m != nullptr && given != sw)
      throw input_error("--switching " + *r.switching + " contradicts --machine " + *r.machine +
                        " (" + std::string(m->switching) + ")");
    sw = given;
  }
  return sw;
}

setup make_setup(const run_config& r) {
  setup s;
  s.m = find_machine(r);
  s.o.sw = switching_of(r, s.m);
  // The engine's defaults, the models' own (the RTL torus's packet size), the machine's,
  // then --param.
  for (const std::string& name : r.default_models) {
    if (const models::model_info* mi = models::find_model(name); mi != nullptr)
      models::apply_model_defaults(s.o, s.o.sw, *mi);
  }
  s.o.model = models::find_model(r.model);  // run() found it
  if (s.o.model != nullptr) models::apply_model_defaults(s.o, s.o.sw, *s.o.model);
  if (s.m != nullptr) {
    for (const auto& [k, v] : s.m->params)
      models::set_param(s.o, s.o.sw, k, v);
  }
  for (const auto& [k, v] : r.params)
    models::set_param(s.o, s.o.sw, k, v);
  if (r.routes) {
    if (models::engine(s.o.sw).set_routes == nullptr)
      throw input_error("forwarding tables (--routes) apply to store-forward switching");
    s.o.forwarding = *r.routes;
    if (s.o.forwarding.empty()) throw input_error("--routes has no entries");
  }
  s.o.proto = r.proto;
  s.o.faults = r.faults;
  s.o.prepost = r.prepost;
  s.o.send_ahead = r.send_ahead;
  s.o.trace_ops = r.trace;
  return s;
}

void put_platform(nlohmann::ordered_json& j, const run_config& r, const setup& s) {
  j["command"] = "run";
  j["model"] = s.o.model_name();
  j["switching"] = std::string(models::switching_name(s.o.sw));
  if (s.m != nullptr) {
    j["machine"] = {
        {"name", s.m->name}, {"us_per_cycle", s.m->us_per_cycle}, {"source", s.m->source}};
  }
  j["fabric"] = r.fabric_spec;
  j["tiles"] = r.c.f.tiles();
}

std::string model_text(const setup& s) {
  return std::string(s.o.model_name()) + " " + std::string(models::switching_name(s.o.sw));
}

timing platform_timing(const run_config& r) {
  const setup s = make_setup(r);
  return {s.o.sw, s.o};
}

bool platform_available() {
  return true;
}

}  // namespace tessera::run::detail

namespace tessera::run {

models::switching platform_switching(const run_config& config) {
  return detail::switching_of(config, detail::find_machine(config));
}

models::engine_params platform_params(const run_config& config) {
  (void)runnable_model(config.model);
  return detail::make_setup(config).o;
}

machine_preset find_machine_preset(std::string_view name) {
  const tlm_models::machine* m = tlm_models::find_machine(name);
  if (m == nullptr) {
    throw input_error("--machine '" + shown(std::string(name)) + "' is not known (" +
                      detail::machine_names() + ")");
  }
  machine_preset p;
  p.us_per_cycle = m->us_per_cycle;
  for (const auto& [k, v] : m->params)
    p.params.emplace_back(std::string(k), std::string(v));
  return p;
}

}  // namespace tessera::run
