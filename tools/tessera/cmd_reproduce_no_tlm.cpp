// Builds without SystemC (the sanitizer build): reproduce --model tlm is refused.
#include "run_request.hpp"
#include "tessera/schedule/errors.hpp"

namespace tessera::cli {

int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err) {
  (void)tables;
  (void)json;
  (void)out;
  (void)err;
  throw input_error("--model 'tlm' is not available in this build (models: analytic)");
}

}  // namespace tessera::cli
