#include "workload.hpp"

#include <cmath>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/run/collective_check.hpp"
#include "tessera/schedule/build.hpp"
#include "tessera/schedule/json_io.hpp"

namespace tessera::cli {
namespace {

constexpr std::uint64_t max_block_bytes = std::uint64_t{1} << 30;

}  // namespace

fabric parse_fabric_arg(const std::string& spec) {
  const auto r = parse_fabric(spec);
  if (!r.ok()) {
    throw input_error("--fabric '" + shown(spec) + "': " + std::string(describe(r.error)));
  }
  return r.value;
}

analytic::model_params parse_params(const std::vector<std::string>& pairs) {
  analytic::model_params m;
  for (const auto& kv : pairs) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) {
      throw input_error("--param '" + shown(kv) + "' is not key=value");
    }
    const std::string key = kv.substr(0, eq);
    const std::string text = kv.substr(eq + 1);
    double v = 0;
    std::size_t used = 0;
    try {
      v = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || text.empty() || !std::isfinite(v) || v < 0) {
      throw input_error("--param " + shown(key) + "='" + shown(text) +
                        "' is not a non-negative number");
    }
    if (key == "alpha" || key == "ts") {
      m.alpha = v;
    } else if (key == "beta" || key == "tw") {
      m.beta = v;
    } else if (key == "beta_ex") {
      m.beta_ex = v;
    } else if (key == "beta_sr") {
      m.beta_sr = v;
    } else if (key == "beta_sat") {
      m.beta_sat = v;
    } else if (key == "xi") {
      m.xi = v;
    } else if (key == "tau") {
      m.tau = v;
    } else if (key == "width") {
      if (v <= 0) throw input_error("--param width='" + shown(text) + "' must be positive");
      m.width = v;
    } else {
      throw input_error("--param '" + shown(key) +
                        "' is not a model parameter (alpha, beta, beta_ex, beta_sr, beta_sat, "
                        "xi, tau, width)");
    }
  }
  return m;
}

std::string canonical_collective(const std::string& name) {
  if (name == "alltoall" || name == "complete-exchange" || name == "a2a") return "alltoall";
  throw input_error("--collective '" + shown(name) + "' is not known (available: alltoall)");
}

schedule build_collective(const std::string& collective, const std::string& algorithm,
                          const fabric& f, const std::string& fabric_spec, std::uint64_t bytes) {
  fw::collective_params c;
  c.coll = fw::collective::alltoall;
  if (!fw::parse_algorithm(algorithm, c)) {
    throw input_error("--algorithm '" + shown(algorithm) + "' is not an " + collective +
                      " algorithm (available: " + run::algorithm_list(c.coll) + ")");
  }
  const fw::a2a_algorithm alg = c.a2a;
  run::require_a2a_supported(alg, f, fabric_spec);
  if (f.tiles() > max_alltoall_tiles) {
    throw input_error("--fabric " + fabric_spec + " has " + std::to_string(f.tiles()) +
                      " tiles; alltoall analysis is limited to " +
                      std::to_string(max_alltoall_tiles));
  }
  return build_alltoall(alg, f, bytes);
}

workload load_workload(const args& a, const std::string& algorithm) {
  workload w;
  w.fabric_spec = a.require("fabric");
  w.fab = parse_fabric_arg(w.fabric_spec);
  if (auto b = a.get("bytes")) w.bytes = parse_count("bytes", *b, max_block_bytes);
  w.sw = models::default_switching(w.fab.kind);
  if (auto s = a.get("switching")) {
    // The closed forms cover these three; the ideal network is alphabeta's own.
    if (!models::parse_switching(*s, w.sw) || w.sw == models::switching::ideal) {
      throw input_error("--switching '" + shown(*s) +
                        "' is not a switching mode (wormhole, circuit, store-forward)");
    }
  }
  w.params = parse_params(a.all("param"));

  if (auto file = a.get("schedule")) {
    if (a.get("collective") || !algorithm.empty()) {
      throw input_error("--schedule replaces --collective and --algorithm; give one of them");
    }
    if (a.get("bytes")) {
      throw input_error(
          "--bytes does not apply to --schedule (the file gives the bytes of each op)");
    }
    w.sched = schedule_from_value(read_json_file("--schedule", *file, max_schedule_bytes));
    if (w.sched.tiles != w.fab.tiles()) {
      throw input_error("--schedule '" + shown(*file, 160) + "' has " +
                        std::to_string(w.sched.tiles) + " tiles but --fabric " + w.fabric_spec +
                        " has " + std::to_string(w.fab.tiles()));
    }
    w.collective = w.sched.collective;
    w.algorithm = w.sched.algorithm;
    w.bytes = w.sched.block_bytes;
    return w;
  }
  w.collective = canonical_collective(a.require("collective"));
  if (algorithm.empty()) throw input_error("--algorithm is required with --collective");
  w.algorithm = algorithm;
  w.sched = build_collective(w.collective, w.algorithm, w.fab, w.fabric_spec, w.bytes);
  return w;
}

}  // namespace tessera::cli
