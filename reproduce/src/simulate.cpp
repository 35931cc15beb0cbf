#include <cmath>
#include <string>

#include "papers.hpp"
#include "tessera/run/run.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/isolated.hpp"

namespace tessera::reproduce {

double simulate_cycles(run::run_config cfg) {
  if (cfg.model != "tlm" && cfg.model != "rtl") {
    const auto res = run::run(std::move(cfg));
    return res->verified() ? res->json()["cycles"].get<double>() : NAN;
  }
  // The child prints "cycles" or "unverified", or "refused <why>" for an input error.
  const isolated_result child = run_isolated_process([&]() -> std::string {
    try {
      const auto res = run::run(cfg);
      return res->verified() ? std::to_string(res->json()["cycles"].get<std::uint64_t>())
                             : std::string("unverified");
    } catch (const input_error& e) {
      return std::string("refused ") + e.what();
    }
  });
  if (!child.ok() || child.exit_status != 0) {
    throw std::runtime_error("a " + cfg.model + " run on " + cfg.fabric_spec +
                             " did not finish: " +
                             (child.failure.empty() ? child.text : child.failure));
  }
  if (child.text.rfind("refused ", 0) == 0) throw input_error(child.text.substr(8));
  if (child.text == "unverified") return NAN;
  return std::stod(child.text);
}

}  // namespace tessera::reproduce
