#pragma once

// The Verilated FIFO cell (rtl_models/rtl/tsr_fifo.sv), once per depth of fifo_tops
// (limits.hpp). Verilator emits an unrelated class per parameter set, so a user talks
// to whichever depth it runs through fifo_top and the references of fifo_pins.
#include <memory>
#include <vector>

#include <verilated.h>
#if TESSERA_RTL_TRACE_FST
#include <verilated_fst_c.h>
#endif

namespace tessera::rtl_tops {

// The FIFO's ports.
struct fifo_pins {
  CData& clk_i;
  CData& rst_ni;
  CData& valid_i;
  CData& ready_o;
  IData& data_i;
  CData& valid_o;
  CData& ready_i;
  IData& data_o;
  CData& usage_o;
};

class fifo_top {
 public:
  virtual ~fifo_top() = default;

  virtual fifo_pins& pins() = 0;
  virtual unsigned depth() const = 0;
  virtual void eval() = 0;
  virtual void final() = 0;
#if TESSERA_RTL_TRACE_FST
  virtual void trace(VerilatedFstC& fst, int levels) = 0;
#endif
};

// Depths that have a Verilated model (fifo_tops).
std::vector<unsigned> fifo_depths();

// Null when no model was Verilated for `depth`.
std::unique_ptr<fifo_top> make_fifo_top(unsigned depth, VerilatedContext& context);

}  // namespace tessera::rtl_tops
