#pragma once

// The tile side of the cube top's network interfaces (tsr_cube_ni), once for the engine
// and the testbench. The driver keeps a message queue per tile, offers its front to the
// NI as a request (valid held until ready) with the message's own start-up on the tile's
// xi inputs when it has one, and hands over the elements of the oldest message the NI
// took and has not had all of (tx valid/ready; cube_check::word of each); under
// pre-setup the NI holds two. A tile may withhold its elements at random, or for ever
// (bubbles in a circuit; a circuit that never ends). The monitor reads the ejection
// ports.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "tessera/rtl_tops/cube_check.hpp"
#include "tessera/rtl_tops/cube_top.hpp"

namespace tessera::rtl_tops {

// A message as a tile hands it to its NI.
struct cube_message {
  std::uint64_t id = 0;  // the user's name for it
  unsigned src = 0;
  unsigned dst = 0;
  std::uint16_t seq = 0;
  std::uint32_t k = 1;           // elements, at least 1
  std::uint64_t not_before = 0;  // first cycle it may be requested
  // Its own start-up and held part, on the tile's xi inputs while it is requested
  // (unset: the inputs stay as they are).
  std::optional<std::uint16_t> xi;
  std::optional<std::uint16_t> xi_held;
};

class cube_driver {
 public:
  // Drives tiles 0 .. tiles - 1 (a sub-cube). With idle > 0 a tile withholds the element
  // it would hand over with that probability.
  cube_driver(cube_model& m, unsigned tiles, double idle = 0.0, std::uint64_t seed = 0)
      : m_(m),
        tiles_(tiles),
        q_(tiles),
        active_(tiles),
        withheld_(tiles, false),
        rng_(seed),
        idle_(idle) {
    for (unsigned t = 0; t < cube_tiles; ++t) {
      set_lane<1>(m_.req_valid_i, t, 0);
      set_lane<1>(m_.tx_valid_i, t, 0);
    }
  }

  // Tile t never hands over an element (its circuits stay up).
  void withhold(unsigned t) { withheld_[t] = true; }

  void send(const cube_message& msg) { q_[msg.src].push_back(msg); }

  // Sets the inputs of cycle `now`. The request is the queue front once its cycle has
  // come (when `offer`); the element is the next one of the oldest message the NI took,
  // or element 0 of the request offered now (a message to its own tile with no start-up
  // streams in the cycle it is taken).
  void drive(std::uint64_t now, bool offer = true) {
    for (unsigned t = 0; t < tiles_; ++t) {
      const bool request = offer && !q_[t].empty() && q_[t].front().not_before <= now;
      set_lane<1>(m_.req_valid_i, t, request ? 1 : 0);
      if (request) {
        const cube_message& msg = q_[t].front();
        set_lane<cube_req_bits>(m_.req_i, t,
                                pack_req(static_cast<std::uint16_t>(msg.dst), msg.seq,
                                         static_cast<std::uint16_t>(msg.k)));
        if (msg.xi) set_lane<16>(m_.xi_i, t, *msg.xi);
        if (msg.xi_held) set_lane<16>(m_.xi_held_i, t, *msg.xi_held);
      }
      const cube_message* cur = nullptr;
      std::uint32_t at = 0;
      if (!active_[t].empty()) {
        cur = &active_[t].front().msg;
        at = active_[t].front().next;
      } else if (request) {
        cur = &q_[t].front();
      }
      const bool give =
          cur != nullptr && !withheld_[t] && !(idle_ > 0.0 && idle_dist_(rng_) < idle_);
      set_lane<1>(m_.tx_valid_i, t, give ? 1 : 0);
      set_lane<cube_data_width>(m_.tx_data_i, t, give ? cube_check::word(t, cur->seq, at) : 0U);
    }
  }

  // Reads the handshakes of cycle `now` (after the inputs settled): on_taken(msg, now)
  // for a request an NI took. Returns whether a request or an element went in.
  template <class OnTaken>
  bool sample(std::uint64_t now, OnTaken on_taken) {
    bool moved = false;
    for (unsigned t = 0; t < tiles_; ++t) {
      if (lane<1>(m_.req_valid_i, t) != 0 && lane<1>(m_.req_ready_o, t) != 0) {
        active_[t].push_back(active{q_[t].front(), 0});
        q_[t].pop_front();
        moved = true;
        on_taken(active_[t].back().msg, now);
      }
      if (lane<1>(m_.tx_valid_i, t) != 0 && lane<1>(m_.tx_ready_o, t) != 0 && !active_[t].empty()) {
        moved = true;
        active& a = active_[t].front();
        if (++a.next == a.msg.k) active_[t].pop_front();
      }
    }
    return moved;
  }

  // True while some queued message may not be requested yet.
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().not_before > now) return true;
    return false;
  }

  bool idle() const {
    for (unsigned t = 0; t < tiles_; ++t)
      if (!q_[t].empty() || !active_[t].empty()) return false;
    return true;
  }

 private:
  struct active {
    cube_message msg;
    std::uint32_t next = 0;  // elements taken
  };
  cube_model& m_;
  unsigned tiles_;
  std::vector<std::deque<cube_message>> q_;
  std::vector<std::deque<active>> active_;  // taken, oldest first
  std::vector<bool> withheld_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> idle_dist_{0.0, 1.0};
  double idle_;
};

class cube_monitor {
 public:
  // Reads tiles 0 .. tiles - 1 (a sub-cube).
  cube_monitor(const cube_model& m, unsigned tiles) : m_(m), tiles_(tiles) {}

  // The ejection ports in this cycle: on_rx(tile, rx) for each with a circuit set up or an
  // element. Returns whether there was any.
  template <class OnRx>
  bool sample(OnRx on_rx) const {
    bool any = false;
    for (unsigned t = 0; t < tiles_; ++t) {
      const bool start = lane<1>(m_.rx_start_o, t) != 0;
      const bool valid = lane<1>(m_.rx_valid_o, t) != 0;
      if (!start && !valid) continue;
      any = true;
      cube_rx rx;
      rx.start = start;
      if (rx.start) rx.hdr = cube_hdr_at(m_.rx_hdr_o, t);
      rx.valid = valid;
      rx.last = lane<1>(m_.rx_last_o, t) != 0;
      rx.data = static_cast<std::uint32_t>(lane<cube_data_width>(m_.rx_data_o, t));
      on_rx(t, rx);
    }
    return any;
  }

 private:
  const cube_model& m_;
  unsigned tiles_;
};

}  // namespace tessera::rtl_tops
