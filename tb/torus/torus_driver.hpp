#pragma once

// The tiles' side of the network interfaces' message ports (tsr_torus_ni): one queue of
// messages per tile, each offered from its start cycle on, its payload a byte per cycle
// as the NI takes it. The NI cuts a message into packets and numbers them seq, seq + 1,
// ...; the driver reports each packet's completion in the node.
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
  explicit torus_driver(torus_model& m) : m_(m), q_(torus_tiles), at_(torus_tiles, 0) {}

  // A message of one packet.
  void send(unsigned tile, torus_packet p) {
    const std::uint64_t nb = p.not_before;
    q_[tile].push_back({{std::move(p)}, 0, nb});
  }
  // A message of several packets with consecutive seq, all but the last of
  // packet_bytes bytes, all with the first packet's destination or tree.
  void send_message(unsigned tile, std::vector<torus_packet> packets, unsigned packet_bytes) {
    const std::uint64_t nb = packets.front().not_before;
    q_[tile].push_back({std::move(packets), packet_bytes, nb});
  }

  // Sets the NI inputs of cycle `now`.
  void drive(std::uint64_t now) {
    std::uint16_t valid = 0;
    std::uint16_t data_valid = 0;
    for (unsigned t = 0; t < torus_tiles; ++t) {
      auto& q = q_[t];
      const bool offer = !q.empty() && (at_[t] > 0 || q.front().not_before <= now);
      message_word w;
      if (offer) {
        const message& msg = q.front();
        const torus_hdr& h = msg.packets.front().hdr;
        w = {h.dst, h.multicast, h.tree, h.seq, total(msg), msg.packet_bytes};
        if (at_[t] == 0) valid = static_cast<std::uint16_t>(valid | (1U << t));
        data_valid = static_cast<std::uint16_t>(data_valid | (1U << t));
        m_.data_i[t] = byte_at(msg, at_[t]);
      }
      set_message(m_.msg_i[t], w);
    }
    m_.msg_valid_i = valid;
    m_.data_valid_i = data_valid;
  }

  // Reads the handshakes of cycle `now` (after the inputs settled). A packet whose last
  // byte went in this cycle is complete in the node from the next:
  // on_ready(header, now + 1).
  template <class OnReady>
  void sample(std::uint64_t now, OnReady on_ready) {
    for (unsigned t = 0; t < torus_tiles; ++t) {
      if (((m_.data_ready_o >> t) & 1U) == 0) continue;
      const message& msg = q_[t].front();
      const std::size_t k = at_[t]++;
      std::size_t end = 0;
      for (const torus_packet& p : msg.packets) {
        end += p.bytes.size();
        if (k + 1 == end) on_ready(p.hdr, now + 1);
      }
      if (at_[t] == end) {
        at_[t] = 0;
        q_[t].pop_front();
      }
    }
  }

  // True while some tile's next message may not start yet (its not_before is ahead).
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
  struct message {
    std::vector<torus_packet> packets;
    unsigned packet_bytes = 0;
    std::uint64_t not_before = 0;
  };
  static unsigned total(const message& m) {
    std::size_t n = 0;
    for (const torus_packet& p : m.packets)
      n += p.bytes.size();
    return static_cast<unsigned>(n);
  }
  static std::uint8_t byte_at(const message& m, std::size_t k) {
    for (const torus_packet& p : m.packets) {
      if (k < p.bytes.size()) return p.bytes[k];
      k -= p.bytes.size();
    }
    return 0;
  }

  torus_model& m_;
  std::vector<std::deque<message>> q_;
  std::vector<std::size_t> at_;  // bytes of the front message sent
};

}  // namespace tessera::tb
