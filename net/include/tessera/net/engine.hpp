// The timing core of a fabric model, in plain C++ so the same engine runs under the
// SystemC platform (platform/tlm) and in host unit tests. An engine sees messages,
// not bytes: the NIC keeps the payload, the engine decides when each message starts,
// which links it holds and when its tail reaches the destination.
//
// Driving protocol (the TLM fabric module follows it, so do tests):
//   at each simulated time t, in this order:
//     fire(t)       applies every event due at t (tail arrivals, header hops,
//                   link releases); deliveries are reported to the listener;
//     inject(x, t)  for every message posted at t (the tiles react to deliveries);
//     arbitrate(t)  grants what can be granted at t, after every injection of t is
//                   in, so ties are broken by the engine's rule and not by the
//                   order in which tiles happened to run;
//   and repeat while next_event() == t; then advance to next_event().
// Times are cycles of the fabric clock.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tessera::net {

struct energy_counts;  // energy.hpp

using cycle_t = std::uint64_t;
inline constexpr cycle_t never = std::numeric_limits<cycle_t>::max();

// One message as the engine sees it.
struct xfer {
  std::uint64_t id{0};  // unique in a run, assigned by the caller
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint64_t bytes{0};  // payload bytes; 0 for control messages
  bool control{false};     // reserve/ack/sync/pair: header only
  // A control message the program itself sends as a zero-byte message (pairwise
  // synchronization, Bokhari §5), not one its message layer adds (reserve, ack) or its
  // barrier: the circuit engine charges it a zero-byte message's start-up (xi, xi_held),
  // Bokhari §2.2, instead of control_xi.
  bool program{false};
  std::uint32_t tree{0};  // store-forward engines: forwarding table id (0 = unicast)

  // A control message of the message layer or its barrier (reserve, ack, sync), which
  // the circuit engine starts after control_xi.
  [[nodiscard]] bool layer_control() const { return control && !program; }
};

// Receives the engine's reports. Calls happen inside fire() and arbitrate().
class listener {
 public:
  // The message left its source queue: start-up began or it claimed its first resource.
  virtual void started(std::uint64_t id, cycle_t t) = 0;
  // The tail reached the destination; the message is delivered and its send complete.
  virtual void delivered(std::uint64_t id, cycle_t t) = 0;

 protected:
  ~listener() = default;
};

// Busy time and queueing of one directed channel (link, injection or ejection port).
// One virtual channel of a wormhole channel, from the models that move flits one at a
// time (the flit engine, the RTL mesh): docs/wormhole.md, "Statistics". The stall cycles
// are counted at the FIFO the channel feeds (the next router's input VC; the local input
// for the injection channel; none behind the ejection): a cycle in which that FIFO's
// front flit had waited out the pipeline (and a head its router delay) and did not leave,
// by what it lacked at the start of the cycle.
struct vc_stat {
  std::uint64_t flits{0};  // flits that crossed the channel on this VC
  cycle_t busy{0};         // cycles from each head's crossing to its tail's, inclusive
  cycle_t no_credit{0};    // no free slot behind its output VC (a head: behind any free VC)
  cycle_t arbitration{0};  // it could go, and the output sent another flit
  cycle_t no_vc{0};        // a head whose class's VCs at its output were all held
  bool operator==(const vc_stat&) const = default;
};

struct link_stat {
  std::uint32_t from{0};
  std::uint32_t to{0};
  std::string name;  // "dim 2", "E", "inject", ...
  cycle_t busy{0};   // cycles held or transmitting
  std::uint64_t messages{0};
  std::uint32_t max_queue{0};  // most messages/headers waiting for it at once
  // What crossed it, in the switching's unit: flits (wormhole), elements (circuit),
  // bytes (store-and-forward); the energy counts (energy.hpp) are made of these.
  std::uint64_t units{0};
  std::vector<vc_stat> vcs;  // per VC in use, where the model counts them; else empty
};

// One interval a directed link was held or transmitting, for timeline traces: the link
// from `from` through its port `port` (E, W, S, N; dim k; +1, -1) to `to`, over cycles
// [start, end), by the message src -> dst.
struct link_busy {
  std::uint32_t from{0};
  std::uint32_t to{0};
  std::uint32_t port{0};
  cycle_t start{0};
  cycle_t end{0};
  std::uint32_t src{0};
  std::uint32_t dst{0};
};

struct contention_stat {
  std::uint64_t blocked{0};   // requests that had to wait for a held channel
  cycle_t blocked_cycles{0};  // total waiting, over all requests
  cycle_t max_blocked{0};     // longest single wait
  std::uint64_t retries{0};   // release-and-retry restarts
};

class engine {
 public:
  virtual ~engine() = default;

  void set_listener(listener* l) { listener_ = l; }

  virtual void inject(const xfer& x, cycle_t now) = 0;
  virtual void arbitrate(cycle_t now) = 0;
  [[nodiscard]] virtual cycle_t next_event() const = 0;
  virtual void fire(cycle_t now) = 0;

  // True when nothing is queued, in flight or scheduled.
  [[nodiscard]] virtual bool idle() const = 0;
  // Channels with any traffic, in a stable order.
  [[nodiscard]] virtual std::vector<link_stat> links() const = 0;
  [[nodiscard]] virtual contention_stat contention() const = 0;
  // Messages that are not delivered and what each waits for, for deadlock reports.
  [[nodiscard]] virtual std::vector<std::string> stuck() const = 0;
  // A fault of the model itself, found while running (the RTL bridge: a flit lost,
  // repeated, corrupted or misrouted by the Verilated fabric), naming the tile, the
  // message and the flit; empty when there is none. An engine with a failure stops
  // reporting events, and the run fails with this text.
  [[nodiscard]] virtual std::string failure() const { return {}; }
  // The events that cost energy so far, per router and per link (energy.hpp); an engine
  // that does not count them returns none (no routers).
  [[nodiscard]] virtual energy_counts energy() const;

  // With recording on, the engine keeps every interval a link is held (link_busy); the
  // engines that model links one by one do (circuit, store-forward, wormhole).
  virtual void record_links(bool on) { record_ = on; }
  [[nodiscard]] virtual const std::vector<link_busy>& link_intervals() const { return busy_; }

 protected:
  void note_link(std::uint32_t from, std::uint32_t to, std::uint32_t port, cycle_t start,
                 cycle_t end, const xfer& x) {
    if (record_) busy_.push_back({from, to, port, start, end, x.src, x.dst});
  }

  listener* listener_{nullptr};

 private:
  bool record_{false};
  std::vector<link_busy> busy_;
};

}  // namespace tessera::net
