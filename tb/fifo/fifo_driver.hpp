#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "tessera/rtl_tops/fifo_top.hpp"

namespace tessera::tb {

// Drives every DUT input except clock and reset: the stimulus words upstream, in order,
// and ready downstream. Each side holds back at random with its own probability so the
// FIFO sees back-pressure from both. A word once offered stays offered, unchanged, until
// it is taken, as valid/ready requires.
class fifo_driver {
 public:
  fifo_driver(rtl_tops::fifo_pins& pins, const std::vector<std::uint32_t>& words, double in_idle,
              double out_stall, std::uint64_t seed)
      : pins_(pins), words_(words), rng_(seed), in_idle_(in_idle), out_stall_(out_stall) {}

  void idle() {
    pins_.valid_i = 0;
    pins_.data_i = 0;
    pins_.ready_i = 0;
  }

  // Sets this cycle's inputs; called with the clock low.
  void drive() {
    if (!offering_ && next_ < words_.size() && !in_idle_(rng_)) {
      offering_ = true;
      pins_.data_i = words_[next_];
    }
    pins_.valid_i = offering_;
    pins_.ready_i = !out_stall_(rng_);
  }

  // Told whether the coming edge takes the offered word.
  void on_edge(bool pushed) {
    if (pushed) {
      offering_ = false;
      ++next_;
    }
  }

 private:
  rtl_tops::fifo_pins& pins_;
  const std::vector<std::uint32_t>& words_;
  std::mt19937_64 rng_;
  std::bernoulli_distribution in_idle_;
  std::bernoulli_distribution out_stall_;
  std::size_t next_ = 0;
  bool offering_ = false;
};

}  // namespace tessera::tb
