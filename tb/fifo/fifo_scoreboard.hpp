#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <vector>

#include "fifo_monitor.hpp"

namespace tessera::tb {

// Reference model: a queue with the DUT's depth. Every cycle it checks the DUT's flags,
// fill level and head word against the model, so a lost, repeated, reordered or
// invented word fails at the cycle it appears.
class fifo_scoreboard {
 public:
  fifo_scoreboard(unsigned depth, const std::vector<std::uint32_t>& stimulus)
      : depth_(depth), stimulus_(stimulus) {}

  void check(const fifo_sample& sample, std::uint64_t cycle) {
    if (failed()) return;
    const std::size_t held = model_.size();
    if (sample.usage != held) {
      return fail(cycle, "usage_o is " + std::to_string(sample.usage) + ", model holds " +
                             std::to_string(held));
    }
    if (sample.ready_o != (held < depth_)) {
      return fail(cycle, "ready_o is " + std::to_string(sample.ready_o) + " with " +
                             std::to_string(held) + " of " + std::to_string(depth_) +
                             " entries used");
    }
    if (sample.valid_o != (held > 0)) {
      return fail(cycle, "valid_o is " + std::to_string(sample.valid_o) + " with " +
                             std::to_string(held) + " entries used");
    }
    if (sample.valid_o && sample.data_out != model_.front()) {
      return fail(cycle, "data_o is " + hex(sample.data_out) + ", expected word " +
                             std::to_string(delivered_) + " = " + hex(model_.front()));
    }
    if (sample.push) {
      if (accepted_ >= stimulus_.size() || sample.data_in != stimulus_[accepted_]) {
        return fail(cycle, "upstream pushed " + hex(sample.data_in) + " out of stimulus order");
      }
      model_.push_back(sample.data_in);
      ++accepted_;
    }
    if (sample.pop) {
      model_.pop_front();
      ++delivered_;
    }
  }

  bool complete() const { return delivered_ == stimulus_.size(); }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  std::size_t delivered() const { return delivered_; }

 private:
  void fail(std::uint64_t cycle, const std::string& what) {
    error_ = "cycle " + std::to_string(cycle) + ": " + what;
  }

  static std::string hex(std::uint32_t word) {
    std::ostringstream out;
    out << "0x" << std::hex << word;
    return out.str();
  }

  unsigned depth_;
  const std::vector<std::uint32_t>& stimulus_;
  std::deque<std::uint32_t> model_;
  std::size_t accepted_ = 0;
  std::size_t delivered_ = 0;
  std::string error_;
};

}  // namespace tessera::tb
