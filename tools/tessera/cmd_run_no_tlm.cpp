// Builds without SystemC (the sanitizer build): --model tlm is refused.
#include "run_request.hpp"
#include "tessera/schedule/errors.hpp"

namespace tessera::cli {

bool model_available(std::string_view model) {
  return model == "alphabeta";
}

int run_tlm(const run_request& r, std::ostream& out, std::ostream& err) {
  (void)out;
  (void)err;
  throw input_error("--model '" + r.model + "' is not available in this build (models: alphabeta)");
}

int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err) {
  (void)tables;
  (void)json;
  (void)out;
  (void)err;
  throw input_error("--model 'tlm' is not available in this build (models: analytic)");
}

}  // namespace tessera::cli
