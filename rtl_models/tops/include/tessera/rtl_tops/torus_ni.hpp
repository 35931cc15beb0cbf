#pragma once

// The tile side of a torus top's network interfaces (tsr_torus_ni), once for the engine
// and the testbench. The driver offers each tile's messages to its NI in posting order,
// each from its post cycle on, with the payload a packet at a time (data_i holds the bytes
// from data_offset_o on, torus_check::payload_byte of each packet); the NI cuts a message
// into packets numbered seq, seq + 1, ... and writes one a cycle into its node, and the
// driver reports each packet written (stored, and free to leave, that cycle). The monitor
// reads the arrivals (a packet complete in an input buffer of a tile it is for) and the
// ejection ports.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "tessera/rtl_tops/torus_check.hpp"
#include "tessera/rtl_tops/torus_top.hpp"

namespace tessera::rtl_tops {

// A message as a tile hands it to its NI.
struct torus_message {
  std::uint64_t id = 0;  // the user's name for it
  unsigned src = 0;
  unsigned dst = 0;  // a multicast message: the header's, not a tile it goes to
  bool multicast = false;
  unsigned tree = 0;               // a multicast message's forwarding table entry
  std::uint16_t seq = 0;           // its first packet's number
  std::uint32_t len = 1;           // payload bytes, at least 1
  std::uint32_t packet_bytes = 0;  // 0: one packet
  std::uint64_t post = 0;          // offered from this cycle on
};

template <class Top>
class torus_driver {
 public:
  using model = typename Top::model;

  explicit torus_driver(model& m)
      : m_(m),
        q_(Top::tiles),
        taken_(Top::tiles, false),
        sent_(Top::tiles, 0),
        pkt_(Top::tiles, 0) {
    set_mask(m_.msg_valid_i, 0);
    set_mask(m_.data_valid_i, 0);
  }

  // Queues a message behind every message of its tile posted no later (posting order).
  // A message is never posted before the cycle it is sent in, so it never goes ahead of
  // the one the NI is working on.
  void send(const torus_message& msg) {
    auto& q = q_[msg.src];
    const auto at =
        std::upper_bound(q.begin(), q.end(), msg.post,
                         [](std::uint64_t post, const torus_message& m) { return post < m.post; });
    q.insert(at, msg);
  }

  // Sets the NI inputs of cycle `now`: each tile's message in progress, or, when `offer`,
  // the front of its queue once posted, and the payload of the packet its NI writes next.
  void drive(std::uint64_t now, bool offer = true) {
    std::uint64_t valid = 0;
    for (unsigned t = 0; t < Top::tiles; ++t) {
      const auto& q = q_[t];
      if (q.empty() || !(taken_[t] || (offer && q.front().post <= now))) continue;
      const torus_message& cur = q.front();
      valid |= std::uint64_t{1} << t;
      message_word w;
      w.dst = static_cast<std::uint16_t>(cur.dst);
      w.multicast = cur.multicast;
      w.tree = static_cast<std::uint8_t>(cur.tree);
      w.seq = cur.seq;
      w.len = cur.len;
      w.packet_bytes = cur.packet_bytes;
      set_message(m_.msg_i, w, t * torus_msg_bits);
      const unsigned seq = (cur.seq + pkt_[t]) & 0xffffU;
      const std::uint32_t n = packet_len(cur, sent_[t]);
      auto* const data = lane_words<torus_max_bytes * 8>(m_.data_i, t);
      for (unsigned word = 0; word < torus_max_bytes / 4; ++word) {
        std::uint32_t v = 0;
        for (unsigned b = 0; b < 4 && word * 4 + b < n; ++b)
          v |= static_cast<std::uint32_t>(torus_check::payload_byte(t, seq, word * 4 + b))
               << (8 * b);
        data[word] = v;
      }
    }
    set_mask(m_.msg_valid_i, valid);
    set_mask(m_.data_valid_i, valid);
    valid_ = valid;
  }

  // Reads the handshakes of cycle `now` (after the inputs settled): on_taken(message) for
  // a message its NI took, on_written(message, header, now) for each packet an NI wrote
  // into its node. Returns whether anything was taken or written. An NI that writes with
  // no message in progress, or asks for bytes the driver is not at, is in error().
  template <class OnTaken, class OnWritten>
  bool sample(std::uint64_t now, OnTaken on_taken, OnWritten on_written) {
    bool moved = false;
    const auto ready = static_cast<std::uint64_t>(m_.data_ready_o);
    const auto taken = static_cast<std::uint64_t>(m_.msg_ready_o) & valid_;
    for (unsigned t = 0; t < Top::tiles; ++t) {
      if (((taken >> t) & 1U) != 0 && !taken_[t]) {
        taken_[t] = true;
        moved = true;
        on_taken(q_[t].front());
      }
      if (((ready >> t) & 1U) == 0) continue;
      if (q_[t].empty() || !taken_[t]) {
        fail("tile " + std::to_string(t) + "'s NI wrote a packet with no message in progress");
        continue;
      }
      if (const std::uint64_t offset = lane<16>(m_.data_offset_o, t); offset != sent_[t]) {
        fail("tile " + std::to_string(t) + "'s NI asked for byte " + std::to_string(offset) +
             " of its message, the driver is at byte " + std::to_string(sent_[t]));
        continue;
      }
      const torus_message& msg = q_[t].front();
      torus_hdr h;
      h.src = static_cast<std::uint16_t>(t);
      h.dst = static_cast<std::uint16_t>(msg.dst);
      h.multicast = msg.multicast;
      h.tree = static_cast<std::uint8_t>(msg.tree);
      h.seq = static_cast<std::uint16_t>(msg.seq + pkt_[t]);
      h.len = static_cast<std::uint16_t>(packet_len(msg, sent_[t]));
      moved = true;
      on_written(msg, h, now);
      sent_[t] += h.len;
      ++pkt_[t];
      if (sent_[t] == msg.len) {
        sent_[t] = 0;
        pkt_[t] = 0;
        taken_[t] = false;
        q_[t].pop_front();
      }
    }
    return moved;
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

  const std::string& error() const { return error_; }

 private:
  static std::uint32_t packet_len(const torus_message& m, std::uint32_t sent) {
    const std::uint32_t left = m.len - sent;
    return m.packet_bytes == 0 ? left : std::min(left, m.packet_bytes);
  }
  void fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }

  model& m_;
  std::vector<std::deque<torus_message>> q_;  // per tile: the front is the NI's
  std::vector<bool> taken_;                   // per tile: the front was taken
  std::vector<std::uint32_t> sent_;           // bytes of the front message written
  std::vector<std::uint32_t> pkt_;            // packets of the front message written
  std::uint64_t valid_ = 0;                   // the tiles offered this cycle
  std::string error_;
};

template <class Top>
class torus_monitor {
 public:
  explicit torus_monitor(const typename Top::model& m) : m_(m) {}

  // The arrivals on the link inputs, which report from a register: read after the clock
  // edge that ended the cycle before `at`, on_arrival(tile, port, header, at).
  template <class OnArrival>
  bool links(std::uint64_t at, OnArrival on_arrival) const {
    bool any = false;
    for (unsigned t = 0; t < Top::tiles; ++t) {
      const std::uint64_t bits = lane<torus_ports>(m_.arrive_o, t);
      for (unsigned port = 0; port < torus_local; ++port) {
        if (((bits >> port) & 1U) == 0) continue;
        any = true;
        on_arrival(t, port, get_hdr(m_.arrive_hdr_o, (t * torus_ports + port) * torus_hdr_bits),
                   at);
      }
    }
    return any;
  }

  // After the inputs of `now` settled: the local input's arrival (a packet an NI wrote to
  // its own tile arrives in its write cycle), on_arrival(tile, torus_local, header, now),
  // and each ejection port's cycle, on_eject(tile, word).
  template <class OnArrival, class OnEject>
  bool local(std::uint64_t now, OnArrival on_arrival, OnEject on_eject) const {
    bool any = false;
    for (unsigned t = 0; t < Top::tiles; ++t) {
      if (((lane<torus_ports>(m_.arrive_o, t) >> torus_local) & 1U) != 0) {
        any = true;
        on_arrival(t, torus_local,
                   get_hdr(m_.arrive_hdr_o, (t * torus_ports + torus_local) * torus_hdr_bits), now);
      }
      const link_word w = get_link(m_.rx_o, t * torus_link_bits);
      if (w.hdr_valid || w.byte_valid) {
        any = true;
        on_eject(t, w);
      }
    }
    return any;
  }

 private:
  const typename Top::model& m_;
};

}  // namespace tessera::rtl_tops
