#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "papers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/isolated.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/run.hpp"

namespace tessera::reproduce {

namespace {

nlohmann::json pick(const run::run_result& res, const std::vector<std::string>& keys) {
  const nlohmann::ordered_json all = res.json();
  // "verified": the run's cycles count. A run with nothing to check passes unverified
  // and times as well (Bokhari's Figure 2 starts at a 0-byte message).
  nlohmann::json out{{"verified", res.exit_status() == 0}, {"cycles", all["cycles"]}};
  for (const std::string& k : keys)
    if (all.contains(k)) out[k] = all[k];
  return out;
}

}  // namespace

run::run_config collective_config(const std::string& spec, const fabric& f, fw::collective coll,
                                  const std::string& alg, std::uint32_t bytes) {
  run::run_config cfg;
  cfg.fabric_spec = spec;
  cfg.c.f = f;
  cfg.c.coll = coll;
  cfg.c.bytes = bytes;
  cfg.c.type = elem_type::i32;
  cfg.algorithm = alg;
  if (!fw::parse_algorithm(alg, cfg.c))
    throw input_error("reproduce: no algorithm '" + alg + "' for this collective");
  return cfg;
}

namespace {

// What the child of one run prints: the picked JSON, or "refused <why>" for an input
// error.
std::string child_text(const run::run_config& cfg, const std::vector<std::string>& keys) {
  try {
    return pick(*run::run(cfg), keys).dump();
  } catch (const input_error& e) {
    return std::string("refused ") + e.what();
  }
}

nlohmann::json from_child(const run::run_config& cfg, const isolated_result& child) {
  if (!child.ok() || child.exit_status != 0) {
    throw std::runtime_error("a " + cfg.model + " run on " + cfg.fabric_spec + " did not finish: " +
                             (child.failure.empty() ? child.text : child.failure));
  }
  if (child.text.rfind("refused ", 0) == 0) throw input_error(child.text.substr(8));
  return nlohmann::json::parse(child.text);
}

// A platform model (SystemC) runs in a child process: SystemC elaborates once a process.
bool on_platform(const run::run_config& cfg) {
  const models::model_info* m = models::find_model(cfg.model);
  return m != nullptr && models::is_platform(*m);
}

}  // namespace

nlohmann::json simulate(run::run_config cfg, const std::vector<std::string>& keys) {
  if (!on_platform(cfg)) return pick(*run::run(std::move(cfg)), keys);
  return from_child(cfg, run_isolated_process([&] { return child_text(cfg, keys); }));
}

double simulate_cycles(run::run_config cfg) {
  const nlohmann::json j = simulate(std::move(cfg), {});
  return j["verified"].get<bool>() ? j["cycles"].get<double>() : NAN;
}

std::vector<nlohmann::json> simulate_all(const std::vector<run::run_config>& cfgs,
                                         const std::vector<std::string>& keys, unsigned jobs) {
  std::vector<nlohmann::json> out(cfgs.size());
  std::vector<std::exception_ptr> errors(cfgs.size());
  // Platform runs go to children, `jobs` at a time; the parent never runs two models side
  // by side, so host-only runs go one after another in this process.
  if (std::all_of(cfgs.begin(), cfgs.end(), on_platform)) {
    run_isolated_pool(
        cfgs.size(), jobs, [&](std::size_t i) { return child_text(cfgs[i], keys); },
        [&](std::size_t i, const isolated_result& child) {
          try {
            out[i] = from_child(cfgs[i], child);
          } catch (...) {
            errors[i] = std::current_exception();
          }
        });
  } else {
    for (std::size_t i = 0; i < cfgs.size(); ++i) {
      try {
        out[i] = on_platform(cfgs[i])
                     ? from_child(cfgs[i],
                                  run_isolated_process([&] { return child_text(cfgs[i], keys); }))
                     : pick(*run::run(cfgs[i]), keys);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

std::vector<double> simulate_cycles_all(const std::vector<run::run_config>& cfgs, unsigned jobs) {
  std::vector<double> out;
  for (const nlohmann::json& j : simulate_all(cfgs, {}, jobs))
    out.push_back(j["verified"].get<bool>() ? j["cycles"].get<double>() : NAN);
  return out;
}

}  // namespace tessera::reproduce
