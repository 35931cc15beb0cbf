#pragma once

// Verilator coverage out of a run (docs/rtl.md, "Coverage"). In a build with
// TESSERA_RTL_COVERAGE=ON the small tops count their line, toggle and user cover points;
// a coverage_dump made after the model and destroyed before it (a member declared after
// the model, as in sim_control and the engines) writes the context's counts to a file of
// its own in $TESSERA_RTL_COVERAGE_DIR, when that is set, for scripts/coverage.sh to
// merge. In any other build it does nothing.
class VerilatedContext;

namespace tessera::rtl_tops {

// True in a build whose Verilated models were built with coverage.
bool coverage_built();

class coverage_dump {
 public:
  explicit coverage_dump(VerilatedContext& context) : context_(context) {}
  ~coverage_dump();
  coverage_dump(const coverage_dump&) = delete;
  coverage_dump& operator=(const coverage_dump&) = delete;

 private:
  VerilatedContext& context_;
};

}  // namespace tessera::rtl_tops
