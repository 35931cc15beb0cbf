#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fifo_dut.hpp"

namespace tessera::tb {

// Clock, reset, cycle count, timeout and the optional waveform. One cycle is two time
// units: inputs settle with the clock low, then the rising edge, then the falling edge.
class sim_control {
 public:
  sim_control(VerilatedContext& context, fifo_dut& dut, std::uint64_t timeout_cycles)
      : context_(context), dut_(dut), timeout_cycles_(timeout_cycles) {}

  sim_control(const sim_control&) = delete;
  sim_control& operator=(const sim_control&) = delete;

  ~sim_control() {
#if TESSERA_RTL_TRACE_FST
    if (trace_) trace_->close();
#endif
  }

#if TESSERA_RTL_TRACE_FST
  // The context must have had traceEverOn(true) before the model was built.
  void open_trace(const std::string& path) {
    trace_ = std::make_unique<VerilatedFstC>();
    dut_.trace(*trace_, 99);
    trace_->open(path.c_str());
  }
#endif

  // Holds rst_ni low for `cycles` clock cycles, releases it with the clock low and
  // restarts the cycle count, so cycle 0 is the first one in which the DUT may move data.
  void reset(unsigned cycles) {
    fifo_pins& pins = dut_.pins();
    pins.clk_i = 0;
    pins.rst_ni = 0;
    settle();
    for (unsigned i = 0; i < cycles; ++i)
      step();
    pins.rst_ni = 1;
    settle();
    cycles_ = 0;
  }

  // Re-evaluates after the testbench changed inputs, without a clock edge.
  void settle() {
    dut_.eval();
  }

  void step() {
    fifo_pins& pins = dut_.pins();
    dump();
    context_.timeInc(1);
    pins.clk_i = 1;
    dut_.eval();
    dump();
    context_.timeInc(1);
    pins.clk_i = 0;
    dut_.eval();
    ++cycles_;
  }

  std::uint64_t cycles() const {
    return cycles_;
  }
  bool timed_out() const {
    return cycles_ >= timeout_cycles_;
  }

 private:
  void dump() {
#if TESSERA_RTL_TRACE_FST
    if (trace_) trace_->dump(context_.time());
#endif
  }

  VerilatedContext& context_;
  fifo_dut& dut_;
  std::uint64_t timeout_cycles_;
  std::uint64_t cycles_ = 0;
#if TESSERA_RTL_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
};

}  // namespace tessera::tb
