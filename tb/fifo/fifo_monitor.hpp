#pragma once

#include <cstdint>

#include "tessera/rtl_tops/fifo_top.hpp"

namespace tessera::tb {

// What the DUT shows just before a rising edge, and so what that edge will do.
struct fifo_sample {
  bool push;
  bool pop;
  std::uint32_t data_in;
  std::uint32_t data_out;
  bool ready_o;
  bool valid_o;
  unsigned usage;
};

class fifo_monitor {
 public:
  explicit fifo_monitor(const rtl_tops::fifo_pins& pins) : pins_(pins) {}

  // Call after the inputs have settled and before the edge.
  fifo_sample sample() const {
    return {pins_.valid_i && pins_.ready_o,
            pins_.valid_o && pins_.ready_i,
            pins_.data_i,
            pins_.data_o,
            pins_.ready_o != 0,
            pins_.valid_o != 0,
            pins_.usage_o};
  }

 private:
  const rtl_tops::fifo_pins& pins_;
};

}  // namespace tessera::tb
