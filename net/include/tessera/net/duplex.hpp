// The half-duplex NIC (Bokhari91 §5; Thakur93 §2, beta_sr against beta_ex;
// docs/delta.md), stated once for every model that has it: the circuit engine, the
// wormhole engine and the estimator of analytic/ each keep their own clock and their own
// record of streams, and ask this policy what the rule decides.
//
// A tile's transmit and its receive proceed together only when they start within
// duplex_window cycles of each other; otherwise the later one is late and gives way to
// the stream of the other direction, which keeps running. With duplex_exchange a
// transmit to a tile and a receive from that same tile (an exchange) always overlap.
// Control messages neither wait nor make others wait. How a late stream gives way:
//  - holding its path (holds()): it starts when the other stream ends, the channels it
//    took held meanwhile. duplex_hold asks for that on the wormhole mesh; a circuit
//    always does it, since its path is set up before its stream starts;
//  - otherwise a late transmit waits at its NIC before it takes a channel, and a late
//    receive drains from the network at once but completes only one receive length
//    after the transmit ends (serial_end).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "tessera/net/engine.hpp"

namespace tessera::net {

// The rule's parameters, a member of each engine's parameters that has the rule (the
// registry declares their rows once for all of them). Off by default.
struct duplex_params {
  bool half_duplex{false};
  cycle_t duplex_window{0};
  bool duplex_exchange{false};
  // A late stream waits holding its path; engines whose paths are always held when a
  // stream could start (circuits) ignore it and have no row for it.
  bool duplex_hold{false};
};

// One direction's stream at a tile: it started at `start` and runs until before `end`
// (never while its end is not known); `peer` is the tile at its other end. The default
// stream ended before time 0 began, so it never makes anything late. Time is cycle_t in
// the engines and a double in the estimator, which holds whole cycles.
template <typename Time>
struct duplex_stream {
  Time start{0};
  Time end{0};
  std::uint32_t peer{std::numeric_limits<std::uint32_t>::max()};
};

class duplex_policy {
 public:
  duplex_policy() = default;
  // path_held: a late stream of this engine holds its path whatever duplex_hold says.
  explicit duplex_policy(const duplex_params& p, bool path_held = false)
      : window_{p.duplex_window},
        on_{p.half_duplex},
        exchange_{p.duplex_exchange},
        hold_{p.half_duplex && (p.duplex_hold || path_held)} {}

  // Half duplex at all.
  [[nodiscard]] bool on() const { return on_; }
  // The rule applies to a message: half duplex, and the message is not control.
  [[nodiscard]] bool applies(bool control) const { return on_ && !control; }
  // A late stream waits with its path held (else: serial_end, or a transmit waiting
  // before its path). Never in full duplex.
  [[nodiscard]] bool holds() const { return hold_; }

  // A stream that would start at t, with `peer` at its other end, is late against the
  // tile's stream of the other direction that started at `began` with `began_peer` and
  // still runs at t: it gives way until that stream ends.
  template <typename Time>
  [[nodiscard]] bool late(Time began, std::uint32_t began_peer, Time t, std::uint32_t peer) const {
    return on_ && t > began + static_cast<Time>(window_) && !(exchange_ && began_peer == peer);
  }
  template <typename Time>
  [[nodiscard]] bool late(const duplex_stream<Time>& other, Time t, std::uint32_t peer) const {
    return t < other.end && late(other.start, other.peer, t, peer);
  }

  // A late receive that did not hold its path drained at once, ending at rx_end; it
  // completes after the transmit, ending at tx_end, at its own length.
  template <typename Time>
  [[nodiscard]] static Time serial_end(Time rx_end, Time tx_end, Time rx_length) {
    return std::max(rx_end, tx_end + rx_length);
  }

 private:
  cycle_t window_{0};
  bool on_{false};
  bool exchange_{false};
  bool hold_{false};
};

}  // namespace tessera::net
