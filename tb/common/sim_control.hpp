#pragma once

// Clock, reset, cycle count and the optional FST waveform for a Verilated model driven
// directly (a model with clk_i and rst_ni pins). One cycle is two time units: the
// testbench sets inputs with the clock low and calls settle(), samples outputs, then
// edge() makes the rising and the falling edge. run_loop.hpp runs the cycles. In a
// coverage build the run's counts are written when the sim_control goes (coverage.hpp).
#include <cstdint>
#include <memory>
#include <string>

#include <verilated.h>
#if TESSERA_RTL_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include "tessera/rtl_tops/coverage.hpp"
#include "tessera/rtl_tops/pins.hpp"

namespace tessera::tb {

template <class Model>
class sim_control {
 public:
  sim_control(VerilatedContext& context, Model& model) : context_(context), model_(model) {}
  ~sim_control() {
#if TESSERA_RTL_TRACE_FST
    if (trace_) trace_->close();
#endif
  }
  sim_control(const sim_control&) = delete;
  sim_control& operator=(const sim_control&) = delete;

#if TESSERA_RTL_TRACE_FST
  // The context must have had traceEverOn(true) before the model was built.
  void open_trace(const std::string& path) {
    trace_ = std::make_unique<VerilatedFstC>();
    model_.trace(trace_.get(), 99);
    trace_->open(path.c_str());
  }
#endif

  // The tops' reset (rtl_tops::reset), traced, and restarts the count: cycle 0 is the
  // first in which the DUT may move data.
  void reset(unsigned cycles = rtl_tops::reset_cycles) {
    rtl_tops::reset(model_, cycles, [this] { edge(); });
    now_ = 0;
  }
  // Re-evaluates after the testbench changed inputs, without a clock edge.
  void settle() {
    model_.eval();
  }
  // A whole cycle: the rising edge, then the falling edge evaluated.
  void edge() {
    rise();
    model_.eval();
  }
  // The rising edge only. The clock goes low without an evaluation, so the next settle()
  // evaluates the falling edge together with the new inputs: one evaluation fewer per
  // cycle than edge(), for a model with no logic on the falling clock edge.
  void rise() {
    dump();
    context_.timeInc(1);
    model_.clk_i = 1;
    model_.eval();
    dump();
    context_.timeInc(1);
    model_.clk_i = 0;
    ++now_;
  }
  std::uint64_t now() const {
    return now_;
  }
  // The RTL called $finish, or $stop for a failed assertion.
  bool finished() const {
    return context_.gotFinish();
  }

 private:
  void dump() {
#if TESSERA_RTL_TRACE_FST
    if (trace_) trace_->dump(context_.time());
#endif
  }
  VerilatedContext& context_;
  Model& model_;
  std::uint64_t now_ = 0;
#if TESSERA_RTL_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  rtl_tops::coverage_dump coverage_{context_};  // before the model goes
};

}  // namespace tessera::tb
