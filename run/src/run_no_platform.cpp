// Builds without SystemC (the sanitizer build): the platform models are refused.
#include "report.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/rtl_engines/rtl_model.hpp"

namespace tessera::run::detail {
namespace {

// The RTL is not built here: --model rtl is declared, not available (platform_available).
const models::model_registrar rtl_model{rtl_engines::rtl_model_info(nullptr)};

}  // namespace

bool platform_available() {
  return false;
}

std::unique_ptr<run_result> run_platform(run_config r) {
  throw input_error("--model '" + r.model + "' is not available in this build (models: alphabeta)");
}

timing platform_timing(const run_config& r) {
  run_platform(r);  // refuses
  return {};
}

}  // namespace tessera::run::detail

namespace tessera::run {

models::switching platform_switching(const run_config& config) {
  detail::run_platform(config);  // refuses
  return models::switching::ideal;
}

models::engine_params platform_params(const run_config& config) {
  detail::run_platform(config);  // refuses
  return {};
}

machine_preset find_machine_preset(std::string_view name) {
  throw input_error("--machine '" + std::string(name) +
                    "': the machine presets are the platform's, not in this build");
}

}  // namespace tessera::run
