#pragma once

#include <memory>
#include <vector>

#include <verilated.h>
#if TESSERA_RTL_TRACE_FST
#include <verilated_fst_c.h>
#endif

namespace tessera::tb {

// The FIFO's ports. Verilator emits an unrelated class per parameter set, so the
// testbench talks to whichever configuration it runs through these references.
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

class fifo_dut {
 public:
  virtual ~fifo_dut() = default;

  virtual fifo_pins& pins() = 0;
  virtual unsigned depth() const = 0;
  virtual void eval() = 0;
  virtual void final() = 0;
#if TESSERA_RTL_TRACE_FST
  virtual void trace(VerilatedFstC& fst, int levels) = 0;
#endif
};

// Depths that have a Verilated model (rtl_models/rtl/CMakeLists.txt makes them).
std::vector<unsigned> fifo_depths();

// Null when no model was Verilated for `depth`.
std::unique_ptr<fifo_dut> make_fifo_dut(unsigned depth, VerilatedContext& context);

}  // namespace tessera::tb
