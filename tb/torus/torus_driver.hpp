#pragma once

// The tiles' side of the network interfaces' message ports (tsr_torus_ni): one queue of
// messages per tile in posting order, each offered from its post cycle on, its payload
// a packet at a time (data_i holds the bytes from data_offset_o on). The NI cuts a
// message into packets numbered seq, seq + 1, ... and writes one a cycle into its node;
// the driver reports each packet written (it is stored, and may leave, that cycle).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/rtl_tops/torus_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

// A packet's payload into data_i: bytes[first .. first + n), the rest zero.
template <class Wide>
void set_payload(Wide& w, const std::vector<std::uint8_t>& bytes, std::size_t first,
                 std::size_t n) {
  for (unsigned word = 0; word < torus_max_bytes / 4; ++word) {
    std::uint32_t v = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const std::size_t b = word * 4 + k;
      if (b < n) v |= static_cast<std::uint32_t>(bytes[first + b]) << (8 * k);
    }
    w[word] = v;
  }
}

struct torus_message {
  torus_hdr hdr;  // dst, multicast, tree and the first packet's seq (src: the tile)
  std::vector<std::uint8_t> bytes;
  unsigned packet_bytes = 0;  // 0: one packet
  std::uint64_t post = 0;     // the cycle the tile posts it
};

template <class Dut>
class torus_driver {
 public:
  using model = typename Dut::model;

  explicit torus_driver(model& m)
      : m_(m), q_(Dut::tiles), sent_(Dut::tiles, 0), pkt_(Dut::tiles, 0) {}

  // Queues a message behind every message of the tile posted no later (posting order).
  // A message is never posted before the cycle it is sent in, so it never goes ahead of
  // the one the NI is working on.
  void send(unsigned tile, torus_message msg) {
    auto& q = q_[tile];
    const auto at =
        std::upper_bound(q.begin(), q.end(), msg.post,
                         [](std::uint64_t post, const torus_message& m) { return post < m.post; });
    q.insert(at, std::move(msg));
  }

  // Sets the NI inputs of cycle `now`.
  void drive(std::uint64_t now) {
    std::uint64_t valid = 0;
    for (unsigned t = 0; t < Dut::tiles; ++t) {
      auto& q = q_[t];
      const bool offer = !q.empty() && q.front().post <= now;
      message_word w;
      if (offer) {
        const torus_message& msg = q.front();
        w = {msg.hdr.dst,
             msg.hdr.multicast,
             msg.hdr.tree,
             msg.hdr.seq,
             static_cast<unsigned>(msg.bytes.size()),
             msg.packet_bytes};
        valid |= std::uint64_t{1} << t;
        set_payload(m_.data_i[t], msg.bytes, sent_[t], packet_len(msg, sent_[t]));
      }
      set_message(m_.msg_i[t], w);
    }
    m_.msg_valid_i = static_cast<std::remove_reference_t<decltype(m_.msg_valid_i)>>(valid);
    m_.data_valid_i = static_cast<std::remove_reference_t<decltype(m_.data_valid_i)>>(valid);
  }

  // Reads the handshakes of cycle `now` (after the inputs settled): on_written(header,
  // now) for each packet the NI wrote into its node this cycle.
  template <class OnWritten>
  void sample(std::uint64_t now, OnWritten on_written) {
    const auto ready = static_cast<std::uint64_t>(m_.data_ready_o);
    for (unsigned t = 0; t < Dut::tiles; ++t) {
      if (((ready >> t) & 1U) == 0) continue;
      if (m_.data_offset_o[t] != sent_[t])
        throw std::logic_error("tile " + std::to_string(t) + ": NI asked for byte " +
                               std::to_string(m_.data_offset_o[t]) + ", driver at " +
                               std::to_string(sent_[t]));
      const torus_message& msg = q_[t].front();
      torus_hdr h = msg.hdr;
      h.src = static_cast<std::uint16_t>(t);
      h.seq = static_cast<std::uint16_t>(msg.hdr.seq + pkt_[t]);
      h.len = static_cast<std::uint16_t>(packet_len(msg, sent_[t]));
      on_written(h, now);
      sent_[t] += h.len;
      ++pkt_[t];
      if (sent_[t] == msg.bytes.size()) {
        sent_[t] = 0;
        pkt_[t] = 0;
        q_[t].pop_front();
      }
    }
  }

  // True while some tile's next message is not posted yet (its post cycle is ahead).
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().post > now) return true;
    return false;
  }

  bool idle() const {
    for (const auto& q : q_)
      if (!q.empty()) return false;
    return true;
  }

 private:
  static std::size_t packet_len(const torus_message& m, std::size_t sent) {
    const std::size_t left = m.bytes.size() - sent;
    return m.packet_bytes == 0 ? left : std::min<std::size_t>(left, m.packet_bytes);
  }

  model& m_;
  std::vector<std::deque<torus_message>> q_;
  std::vector<std::size_t> sent_;  // bytes of the front message written
  std::vector<unsigned> pkt_;      // packets of the front message written
};

}  // namespace tessera::tb
