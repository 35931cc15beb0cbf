#pragma once

// The senders: one message queue per tile, fed to its network interface one request at
// a time (valid held until ready), and the elements of the oldest message the interface
// took and has not handed over, offered in order (tx valid/ready); under pre-setup the
// interface holds two. With idle > 0 a sender withholds an element at random, which puts
// bubbles into the circuit; timing checks need idle = 0.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <vector>

#include "tessera/rtl_tops/cube_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

struct cube_message {
  unsigned src = 0;
  unsigned dst = 0;
  unsigned seq = 0;
  std::vector<std::uint32_t> elements;  // k of them
  std::uint64_t not_before = 0;         // first cycle it may be requested
  // Its own start-up and held part, on the tile's xi inputs while it is requested
  // (unset: the inputs stay as the testbench set them).
  std::optional<std::uint16_t> xi;
  std::optional<std::uint16_t> xi_held;
};

class cube_driver {
 public:
  cube_driver(cube_model& m, double idle, std::uint64_t seed)
      : m_(m),
        q_(cube_tiles),
        active_(cube_tiles),
        withheld_(cube_tiles, false),
        rng_(seed),
        idle_(idle) {}

  // Tile t never hands over an element (its circuits stay up: the watchdog's test).
  void withhold(unsigned t) { withheld_[t] = true; }

  void send(cube_message msg) {
    const unsigned src = msg.src;
    q_[src].push_back(std::move(msg));
  }

  // Sets the inputs of cycle `now`. The element offered is the next one of the oldest
  // message the interface took, or element 0 of the request offered now (a message to
  // its own tile with xi = 0 can start streaming in the cycle it is taken).
  void drive(std::uint64_t now) {
    for (unsigned t = 0; t < cube_tiles; ++t) {
      const bool offer = !q_[t].empty() && q_[t].front().not_before <= now;
      m_.req_valid_i[t] = offer ? 1 : 0;
      if (offer) {
        const cube_message& msg = q_[t].front();
        m_.req_i[t] =
            pack_req(static_cast<std::uint16_t>(msg.dst), static_cast<std::uint16_t>(msg.seq),
                     static_cast<std::uint16_t>(msg.elements.size()));
        if (msg.xi) m_.xi_i[t] = *msg.xi;
        if (msg.xi_held) m_.xi_held_i[t] = *msg.xi_held;
      }
      const cube_message* cur = nullptr;
      std::size_t at = 0;
      if (!active_[t].empty()) {
        cur = &active_[t].front().msg;
        at = active_[t].front().next;
      } else if (offer) {
        cur = &q_[t].front();
      }
      const bool give =
          cur != nullptr && !withheld_[t] && !(idle_ > 0.0 && idle_dist_(rng_) < idle_);
      m_.tx_valid_i[t] = give ? 1 : 0;
      m_.tx_data_i[t] = give ? cur->elements[at] : 0U;
    }
  }

  // Reads the handshakes of cycle `now` (after the inputs settled). on_accept(msg, now)
  // reports a request the interface took.
  template <class OnAccept>
  void sample(std::uint64_t now, OnAccept on_accept) {
    for (unsigned t = 0; t < cube_tiles; ++t) {
      if (m_.req_valid_i[t] && m_.req_ready_o[t]) {
        active_[t].push_back(active{std::move(q_[t].front()), 0});
        q_[t].pop_front();
        on_accept(active_[t].back().msg, now);
      }
      if (m_.tx_valid_i[t] && m_.tx_ready_o[t] && !active_[t].empty()) {
        active& a = active_[t].front();
        if (++a.next == a.msg.elements.size()) active_[t].pop_front();
      }
    }
  }

  // True while some queued message may not be requested yet.
  bool waiting_for_time(std::uint64_t now) const {
    for (const auto& q : q_)
      if (!q.empty() && q.front().not_before > now) return true;
    return false;
  }

  bool idle() const {
    for (unsigned t = 0; t < cube_tiles; ++t)
      if (!q_[t].empty() || !active_[t].empty()) return false;
    return true;
  }

  // True while tile t has a message whose elements are not all taken.
  bool sending(unsigned t) const { return !active_[t].empty(); }

 private:
  struct active {
    cube_message msg;
    std::size_t next = 0;  // elements taken
  };
  cube_model& m_;
  std::vector<std::deque<cube_message>> q_;
  std::vector<std::deque<active>> active_;  // taken, oldest first
  std::vector<bool> withheld_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> idle_dist_{0.0, 1.0};
  double idle_;
};

}  // namespace tessera::tb
