#include "run_options.hpp"

#include <array>

#include "tessera/models/registry.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"

namespace tessera::cli {
namespace {

using namespace on;

constexpr std::uint8_t work = collective | schedule;  // the tile runtime runs op streams
constexpr std::uint8_t runtime = collective | schedule | pattern;  // tiles post messages

//                 name          value  repeated workloads   tlm    selector
constexpr std::array table{
    run_option{"collective", true, false, collective, false, true},
    run_option{"schedule", true, false, schedule, false, true},
    run_option{"pattern", true, false, pattern, true, true},
    run_option{"traffic", true, false, traffic, true, true},
    run_option{"fabric", true, false, any, false, false},
    run_option{"model", true, false, any, false, false},
    run_option{"param", true, true, any, false, false},
    run_option{"switching", true, false, any, true, false},
    run_option{"machine", true, false, any, true, false},
    run_option{"routes", true, false, any, true, false},
    run_option{"algorithm", true, false, collective, false, false},
    run_option{"root", true, false, collective, false, false},
    run_option{"bytes", true, false, collective, false, false},
    run_option{"type", true, false, collective, false, false},
    run_option{"op", true, false, collective, false, false},
    run_option{"shift", true, false, collective, false, false},
    run_option{"packets", true, false, collective, false, false},
    run_option{"payload-bytes", true, false, collective, true, false},
    run_option{"tiles", true, false, collective, true, false},
    run_option{"firmware", true, false, collective, true, false},
    run_option{"protocol", true, false, runtime, false, false},
    run_option{"prepost", false, false, work, false, false},
    run_option{"send-ahead", false, false, work, false, false},
    run_option{"pair-sync", false, false, collective, false, false},
    run_option{"fault", true, true, runtime, false, false},
    run_option{"fault-file", true, false, runtime, false, false},
    run_option{"transfers", false, false, any, false, false},
    run_option{"trace", true, false, work, false, false},
    run_option{"timeline", true, false, work, false, false},
    run_option{"trace-tiles", true, false, work, false, false},
    run_option{"trace-window", true, false, work, false, false},
    run_option{"heatmap", true, false, any, true, false},
    run_option{"heatmap-metric", true, false, any, true, false},
    run_option{"heatmap-steps", false, false, work, true, false},
    run_option{"rate", true, false, traffic, true, false},
    run_option{"packet-flits", true, false, traffic, true, false},
    run_option{"cycles", true, false, traffic, true, false},
    run_option{"warmup", true, false, traffic, true, false},
    run_option{"seed", true, false, traffic, true, false},
    run_option{"hotspot", true, false, traffic, true, false},
    run_option{"json", false, false, any, false, false},
    run_option{"help", false, false, any, false, false},
};

constexpr std::array kinds{workload_kind::collective, workload_kind::schedule,
                           workload_kind::pattern, workload_kind::traffic};

std::uint8_t bit(workload_kind k) {
  return static_cast<std::uint8_t>(1U << static_cast<unsigned>(k));
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

std::set<std::string> run_value_options() {
  std::set<std::string> out;
  for (const run_option& o : table)
    if (o.value) out.emplace(o.name);
  return out;
}

std::set<std::string> run_flag_options() {
  std::set<std::string> out;
  for (const run_option& o : table)
    if (!o.value) out.emplace(o.name);
  return out;
}

std::set<std::string> run_repeated_options() {
  std::set<std::string> out;
  for (const run_option& o : table)
    if (o.repeated) out.emplace(o.name);
  return out;
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
    if (o == nullptr || !o->tlm_only) continue;
    models::switching sw{};
    if (name == "switching" && base != nullptr && models::parse_switching(*a.get(name), sw) &&
        models::drives(*base, sw)) {
      continue;  // an engine the default model drives (ideal)
    }
    why = name;
    return "tlm";
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
  if (chosen == nullptr) {
    throw input_error(
        "'tessera run' needs a workload: --collective, --schedule, --pattern or --traffic");
  }
  workload_kind w = workload_kind::collective;
  for (const workload_kind k : kinds)
    if (workload_option(k) == chosen->name) w = k;
  const std::string named = "--" + std::string(chosen->name);

  const models::model_info* on = models::find_model(model);
  const bool platform = on != nullptr && on->timed_platform;  // tlm and rtl
  if (chosen->tlm_only && !platform) throw input_error(named + " needs --model tlm");
  for (const std::string& name : a.given()) {
    const run_option* o = find(name);
    if (o == nullptr || o->selector) continue;
    if ((o->workloads & bit(w)) == 0) {
      throw input_error("--" + name + " does not apply to " + named + " (it goes with " +
                        workloads_text(o->workloads) + ")");
    }
    if (o->tlm_only && !platform) {
      // --switching names an engine: any model that drives it takes it (the registry).
      models::switching sw{};
      const models::model_info* m = models::find_model(model);
      if (name == "switching" && m != nullptr && models::parse_switching(*a.get(name), sw) &&
          models::drives(*m, sw)) {
        continue;
      }
      throw input_error("--" + name + " needs --model tlm");
    }
  }
  // The one option that depends on a workload's value.
  if (w == workload_kind::traffic && a.has("hotspot") && *a.get("traffic") != "hotspot") {
    throw input_error("--hotspot goes with --traffic hotspot, not --traffic " +
                      shown(*a.get("traffic")));
  }
  return w;
}

}  // namespace tessera::cli
