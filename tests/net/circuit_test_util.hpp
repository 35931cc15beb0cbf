// What the circuit engine's tests share (test_circuit_*.cpp): parameters, cubes and
// messages, Boppana90 §2's cost of one message, and runs that read each message's t0, S
// and E.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/runtime/fabric.hpp"

namespace circuit_test {

namespace net = tessera::net;
using net::cycle_t;

// The engine's parameters with start-up xi and tau cycles a hop, the rest at defaults.
inline net::circuit_params params(cycle_t xi, cycle_t tau) {
  net::circuit_params p;
  p.xi = xi;
  p.tau = tau;
  return p;
}

inline tessera::fabric cube(std::uint32_t d) {
  return tessera::parse_fabric("hypercube:" + std::to_string(d)).value;
}

inline net::timed_xfer msg(std::uint64_t id, std::uint32_t src, std::uint32_t dst,
                           std::uint64_t bytes, cycle_t at = 0) {
  net::timed_xfer t;
  t.x.id = id;
  t.x.src = src;
  t.x.dst = dst;
  t.x.bytes = bytes;
  t.at = at;
  return t;
}

// Boppana's cost of one k-element message over i hops.
inline cycle_t boppana(cycle_t xi, cycle_t tau, cycle_t i, cycle_t k) {
  return xi + i * tau + i + k - 1;
}

// Per message: taken by its interface (t0), path complete (S), delivered (E).
struct msg_times {
  cycle_t t0{0};
  cycle_t s{0};
  cycle_t e{0};
};

// Replays msgs and reads S through the engine's setup observer.
inline std::vector<msg_times> run(net::circuit_engine& e,
                                  const std::vector<net::timed_xfer>& msgs) {
  std::map<std::uint64_t, cycle_t> setup;
  e.set_setup_observer([&setup](std::uint64_t id, cycle_t s) { setup[id] = s; });
  const auto r = net::replay(e, msgs);
  e.set_setup_observer({});
  std::vector<msg_times> out;
  for (std::size_t i = 0; i < msgs.size(); ++i)
    out.push_back({r[i].started, setup.at(msgs[i].x.id), r[i].delivered});
  return out;
}

// Drives e over msgs, all posted at 0, as replay does, up to and including cycle
// `until`, and leaves the run there.
inline void run_until(net::engine& e, const std::vector<net::timed_xfer>& msgs, cycle_t until) {
  for (const auto& m : msgs)
    e.inject(m.x, 0);
  e.arbitrate(0);
  for (cycle_t t = e.next_event(); t <= until && t != net::never; t = e.next_event()) {
    e.fire(t);
    e.arbitrate(t);
  }
}

inline bool contains(const std::vector<std::string>& lines, const std::string& want) {
  for (const auto& l : lines)
    if (l == want) return true;
  return false;
}

}  // namespace circuit_test
