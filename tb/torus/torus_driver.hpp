#pragma once

// The network interfaces' injection side: one packet queue per tile, fed into the
// local port a byte per cycle (the header with byte 0), only while the node has a
// free input buffer (credits).
#include <cstdint>
#include <deque>
#include <vector>

#include "torus_dut.hpp"

namespace tessera::tb {

struct torus_packet {
  torus_hdr hdr;
  std::vector<std::uint8_t> bytes;
  std::uint64_t not_before = 0;  // first cycle it may start
};

class torus_driver {
 public:
  explicit torus_driver(torus_model& m)
      : m_(m), q_(torus_tiles), at_(torus_tiles, 0), credits_(torus_tiles, torus_buffers) {}

  void send(unsigned tile, torus_packet p) { q_[tile].push_back(std::move(p)); }

  // Sets the inputs of cycle `now`. A packet whose last byte goes in this cycle is
  // complete in the node from the next one: ready[(src, seq)] = now + 1.
  template <class OnReady>
  void drive(std::uint64_t now, OnReady on_ready) {
    for (unsigned t = 0; t < torus_tiles; ++t) {
      link_word w;
      auto& q = q_[t];
      if (!q.empty() && (at_[t] > 0 || (credits_[t] > 0 && q.front().not_before <= now))) {
        const torus_packet& p = q.front();
        if (at_[t] == 0) {
          w.hdr_valid = true;
          w.hdr = p.hdr;
          --credits_[t];
        }
        w.byte_valid = true;
        w.data = p.bytes[at_[t]];
        if (++at_[t] == p.bytes.size()) {
          on_ready(p.hdr, now + 1);
          at_[t] = 0;
          q.pop_front();
        }
      }
      set_link(m_.inject_i[t], w);
    }
  }

  // Reads the buffers each node freed in this cycle (after the inputs settled). The
  // local input's buffers are all of dateline class 0: the low torus_credit_bits.
  void sample() {
    for (unsigned t = 0; t < torus_tiles; ++t)
      credits_[t] += m_.inject_credit_o[t] & ((1U << torus_credit_bits) - 1U);
  }

  // True while some tile's next packet may not start yet (its not_before is ahead).
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().not_before > now) return true;
    return false;
  }

  bool idle() const {
    for (const auto& q : q_)
      if (!q.empty()) return false;
    return true;
  }

 private:
  torus_model& m_;
  std::vector<std::deque<torus_packet>> q_;
  std::vector<std::size_t> at_;
  std::vector<unsigned> credits_;
};

}  // namespace tessera::tb
