#include <cmath>
#include <string>

#include "papers.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/run/run.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/isolated.hpp"

namespace tessera::reproduce {

namespace {

nlohmann::json pick(const run::run_result& res, const std::vector<std::string>& keys) {
  const nlohmann::ordered_json all = res.json();
  nlohmann::json out{{"verified", res.verified()}, {"cycles", all["cycles"]}};
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
  const bool known = coll == fw::collective::alltoall
                         ? fw::parse_a2a_algorithm(alg, cfg.c.a2a)
                         : fw::parse_tb_algorithm(coll, alg, cfg.c.alg);
  if (!known) throw input_error("reproduce: no algorithm '" + alg + "' for this collective");
  return cfg;
}

nlohmann::json simulate(run::run_config cfg, const std::vector<std::string>& keys) {
  if (cfg.model != "tlm" && cfg.model != "rtl") return pick(*run::run(std::move(cfg)), keys);
  // The child prints the picked JSON, or "refused <why>" for an input error.
  const isolated_result child = run_isolated_process([&]() -> std::string {
    try {
      return pick(*run::run(cfg), keys).dump();
    } catch (const input_error& e) {
      return std::string("refused ") + e.what();
    }
  });
  if (!child.ok() || child.exit_status != 0) {
    throw std::runtime_error("a " + cfg.model + " run on " + cfg.fabric_spec + " did not finish: " +
                             (child.failure.empty() ? child.text : child.failure));
  }
  if (child.text.rfind("refused ", 0) == 0) throw input_error(child.text.substr(8));
  return nlohmann::json::parse(child.text);
}

double simulate_cycles(run::run_config cfg) {
  const nlohmann::json j = simulate(std::move(cfg), {});
  return j["verified"].get<bool>() ? j["cycles"].get<double>() : NAN;
}

}  // namespace tessera::reproduce
