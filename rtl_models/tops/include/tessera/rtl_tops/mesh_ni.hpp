#pragma once

// The tile side of a mesh top's network interfaces (tsr_mesh_ni), once for the engine and
// the testbench: the driver offers each tile's messages to its NI in order and hands over
// a word per flit when the NI takes one; the monitor says when the tiles take ejected
// flits and reads them. Both may hold back at random (a testbench's back-pressure); the
// engine never does.
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tessera/rtl_tops/mesh_check.hpp"
#include "tessera/rtl_tops/mesh_top.hpp"

namespace tessera::rtl_tops {

// A message as a tile hands it to its NI.
struct mesh_message {
  std::uint64_t id = 0;  // the user's name for it
  unsigned src = 0;      // tile ids of the shape
  unsigned dst = 0;
  std::uint32_t seq = 0;    // its number at src: flit k carries mesh_check::word(src, seq, k)
  std::uint32_t flits = 1;  // at least 1
  std::uint32_t packet_flits = 0;  // flits per packet; 0: one packet
  std::uint64_t not_before = 0;    // offered from this cycle on
};

template <class Model>
class mesh_driver {
 public:
  // With idle > 0 a tile withholds its next word with that probability each cycle.
  mesh_driver(Model& m, const mesh_shape& shape, double idle = 0.0, std::uint64_t seed = 0)
      : m_(m),
        shape_(shape),
        q_(shape.tiles()),
        sending_(shape.tiles()),
        next_(shape.tiles(), 0),
        flits_in_(shape.tiles(), 0),
        taken_(shape.tiles(), 0),
        idle_(idle),
        rng_(seed) {
    set_mask(m_.msg_valid_i, 0);
    set_mask(m_.data_valid_i, 0);
  }

  // Messages of one tile are offered in the order they are sent here.
  void send(const mesh_message& msg) { q_[msg.src].push_back(msg); }

  // Sets the NI inputs of cycle `now`: each tile's message in progress, or, when `offer`,
  // the front of its queue once its cycle has come, with the word of its next flit.
  void drive(std::uint64_t now, bool offer = true) {
    std::bernoulli_distribution stall(idle_);
    std::uint64_t valid = 0;
    std::uint64_t data_valid = 0;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      const mesh_message* cur = nullptr;
      if (sending_[t]) {
        cur = &*sending_[t];
      } else if (offer && !q_[t].empty() && q_[t].front().not_before <= now) {
        cur = &q_[t].front();
        valid |= std::uint64_t{1} << p;
      }
      if (cur == nullptr) continue;
      set_lane<6>(m_.msg_dst_row_i, p, shape_.row(cur->dst));
      set_lane<6>(m_.msg_dst_col_i, p, shape_.col(cur->dst));
      set_lane<16>(m_.msg_flits_i, p, cur->flits);
      set_lane<16>(m_.msg_packet_flits_i, p, cur->packet_flits);
      set_lane<mesh_flit_bits>(m_.data_i, p, mesh_check::word(cur->src, cur->seq, next_[t]));
      if (!(idle_ > 0 && stall(rng_))) data_valid |= std::uint64_t{1} << p;
    }
    set_mask(m_.msg_valid_i, valid);
    set_mask(m_.data_valid_i, data_valid);
  }

  // Reads the handshakes of cycle `now` (after the inputs settled). A message the NI
  // takes has started: on_start(message, now). Returns whether a message or a flit went
  // in. A flit taken with no message in progress is an error of the NI (error()).
  template <class OnStart>
  bool sample(std::uint64_t now, OnStart on_start) {
    bool moved = false;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      if (bit(m_.msg_valid_i, p) && bit(m_.msg_ready_o, p)) {
        sending_[t] = q_[t].front();
        q_[t].pop_front();
        ++taken_[t];
        moved = true;
        on_start(*sending_[t], now);
      }
      if (bit(m_.data_ready_o, p)) {
        if (!sending_[t]) {
          if (error_.empty())
            error_ = "tile " + std::to_string(t) + "'s NI took a flit with no message in progress";
          continue;
        }
        ++flits_in_[t];
        moved = true;
        if (++next_[t] == sending_[t]->flits) {
          sending_[t].reset();
          next_[t] = 0;  // with alpha 0 the next message's flit 0 goes in the cycle it is taken
        }
      }
    }
    return moved;
  }

  // True while some tile's next message may not start yet.
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().not_before > now) return true;
    return false;
  }

  // Flits and messages tile t's NI took.
  std::uint64_t flits_in(unsigned t) const { return flits_in_[t]; }
  std::uint64_t taken(unsigned t) const { return taken_[t]; }
  const std::string& error() const { return error_; }

 private:
  Model& m_;
  mesh_shape shape_;
  std::vector<std::deque<mesh_message>> q_;
  std::vector<std::optional<mesh_message>> sending_;
  std::vector<std::uint32_t> next_;  // the next flit of the message being sent
  std::vector<std::uint64_t> flits_in_;
  std::vector<std::uint64_t> taken_;
  double idle_;
  std::mt19937_64 rng_;
  std::string error_;
};

template <class Model>
class mesh_monitor {
 public:
  // With stall > 0 a tile refuses the next cycle's flit with that probability; tiles
  // outside the shape are always ready. Ready from reset on.
  mesh_monitor(Model& m, const mesh_shape& shape, double stall = 0.0, std::uint64_t seed = 0)
      : m_(m), shape_(shape), stall_(stall), rng_(seed) {
    set_mask(m_.rx_ready_i, ~std::uint64_t{0});
  }

  // Sets the tiles' readiness for the coming cycle (tsr_mesh_ni registers it).
  void drive() {
    if (!(stall_ > 0)) return;
    std::bernoulli_distribution stall(stall_);
    std::uint64_t ready = ~std::uint64_t{0};
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      if (stall(rng_)) ready &= ~(std::uint64_t{1} << shape_.phys(t));
    }
    set_mask(m_.rx_ready_i, ready);
  }

  // The flits ejected in this cycle: on_flit(tile, flit). Returns whether there were any.
  template <class OnFlit>
  bool sample(OnFlit on_flit) const {
    if (mask(m_.rx_valid_o) == 0) return false;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned phys = shape_.phys(t);
      if (bit(m_.rx_valid_o, phys)) on_flit(t, rx_flit(m_, phys, shape_));
    }
    return true;
  }

 private:
  Model& m_;
  mesh_shape shape_;
  double stall_;
  std::mt19937_64 rng_;
};

}  // namespace tessera::rtl_tops
