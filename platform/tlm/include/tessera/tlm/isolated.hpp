// SystemC elaborates once per process, but a test case or a reproduction often
// wants several platform runs. run_isolated runs a function in a forked child
// (tessera::run_isolated_process) and returns the text it produced; the parent never
// touches SystemC. A child that dies yields "error: ...". (In tests the child must not
// use Catch2.)
#pragma once

#include <string>

#include "tessera/common/isolated.hpp"

namespace tessera::tlm_models {

template <typename F>
std::string run_isolated(F&& f) {
  const tessera::isolated_result r =
      tessera::run_isolated_process([&]() -> std::string { return f(); });
  if (!r.failure.empty()) return "error: " + r.failure;
  if (r.too_long) return "error: the child's output exceeds 1 GiB";
  // 70: f threw, and the text is its "error: <what>".
  if (r.exited && (r.exit_status == 0 || r.exit_status == 70)) return r.text;
  return r.exited ? "error: the child died (exit status " + std::to_string(r.exit_status) + ")"
                  : "error: the child died (signal " + std::to_string(r.signal) + ")";
}

}  // namespace tessera::tlm_models
