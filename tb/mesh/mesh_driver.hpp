#pragma once

// The tiles' side of the NIs' injection ports: a queue of messages per tile, offered
// from their start cycle on, and a payload word per flit when the NI takes one. With
// a back-pressure probability the payload is withheld at random cycles.
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "tessera/rtl_tops/mesh_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

struct mesh_message {
  unsigned src = 0;  // tile ids of the shape
  unsigned dst = 0;
  unsigned seq = 0;           // the source's message number
  unsigned flits = 1;         // total flits, at least 1
  unsigned packet_flits = 0;  // flits per packet; 0: one packet
  std::uint64_t not_before = 0;

  unsigned packets() const {
    return packet_flits == 0 ? 1 : (flits + packet_flits - 1) / packet_flits;
  }
};

// Payload word k of message (src, seq): distinct per message and flit, so a lost,
// swapped or repeated flit shows.
inline std::uint32_t mesh_word(unsigned src, unsigned seq, unsigned k) {
  std::uint32_t x = (src + 1U) * 0x9e3779b1U ^ (seq + 1U) * 0x85ebca6bU ^ (k + 1U) * 0xc2b2ae35U;
  x ^= x >> 15;
  return x * 0x2c1b3c6dU;
}

template <class Model>
class mesh_driver {
 public:
  mesh_driver(Model& m, const mesh_shape& shape, double idle, std::uint64_t seed)
      : m_(m),
        shape_(shape),
        q_(shape.tiles()),
        sending_(shape.tiles()),
        next_(shape.tiles(), 0),
        idle_(idle),
        rng_(seed) {}

  // Messages of one tile are offered in the order they are sent here.
  void send(const mesh_message& msg) { q_[msg.src].push_back(msg); }

  // Sets the NI inputs of cycle `now`.
  void drive(std::uint64_t now) {
    std::bernoulli_distribution stall(idle_);
    std::uint64_t valid = 0;
    std::uint64_t data_valid = 0;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      const mesh_message* cur = nullptr;
      if (sending_[t]) {
        cur = &*sending_[t];
      } else if (!q_[t].empty() && q_[t].front().not_before <= now) {
        cur = &q_[t].front();
        valid |= std::uint64_t{1} << p;
      }
      const mesh_message& msg = cur != nullptr ? *cur : blank_;
      m_.msg_dst_row_i[p] = static_cast<std::uint8_t>(shape_.row(msg.dst));
      m_.msg_dst_col_i[p] = static_cast<std::uint8_t>(shape_.col(msg.dst));
      m_.msg_flits_i[p] = static_cast<std::uint16_t>(msg.flits);
      m_.msg_packet_flits_i[p] = static_cast<std::uint16_t>(msg.packet_flits);
      m_.data_i[p] = mesh_word(msg.src, msg.seq, next_[t]);
      if (cur != nullptr && !(idle_ > 0 && stall(rng_))) data_valid |= std::uint64_t{1} << p;
    }
    set_mask(m_.msg_valid_i, valid);
    set_mask(m_.data_valid_i, data_valid);
  }

  // Reads the handshakes of cycle `now` (after the inputs settled). A message the NI
  // takes in this cycle has started: on_start(message, now).
  template <class OnStart>
  void sample(std::uint64_t now, OnStart on_start) {
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      if (bit(m_.msg_valid_i, p) && bit(m_.msg_ready_o, p)) {
        sending_[t] = q_[t].front();
        q_[t].pop_front();
        on_start(*sending_[t], now);
      }
      if (bit(m_.data_ready_o, p)) {
        if (++next_[t] == sending_[t]->flits) {
          sending_[t].reset();
          next_[t] = 0;  // with alpha 0 the next message's flit 0 goes in the cycle it is taken
        }
      }
    }
  }

  // True while some tile's next message may not start yet.
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().not_before > now) return true;
    return false;
  }

 private:
  Model& m_;
  mesh_shape shape_;
  std::vector<std::deque<mesh_message>> q_;
  std::vector<std::optional<mesh_message>> sending_;
  std::vector<unsigned> next_;  // the next flit of the message being sent
  double idle_;
  std::mt19937_64 rng_;
  mesh_message blank_;
};

}  // namespace tessera::tb
