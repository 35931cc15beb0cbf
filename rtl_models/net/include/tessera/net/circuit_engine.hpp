// Circuit-switched hypercube (Bokhari §2, Boppana §2): each message first spends
// `xi` cycles of start-up at its source, then a setup header claims the e-cube path
// one directed link at a time, `tau` cycles per hop, and last the destination's
// ejection port; once the whole path is held the data streams through it one element
// (`width` bytes) per cycle, pipelined, so a k-element message over i hops takes
// exactly xi + i*tau + i + k - 1 cycles; the path is released when the tail arrives.
//
// Timing of one message, with g_j the cycle hop j is granted:
//   start-up from t0; hop 1 requested at t0 + xi; hop j+1 requested at g_j + tau;
//   the destination's ejection port requested at g_i + tau (at t0 + xi for a message
//   to the tile itself) and granted at S, which completes the setup; tail delivered
//   at E = max(S, E_prev) + i + k - 1 where E_prev is the tail of the source's
//   previous message (a tile streams one message at a time). Unblocked:
//   g_j = t0 + xi + (j-1) tau and S = g_i + tau, so E - t0 is the formula.
//
// As in the RTL cube (rtl_models/rtl/tsr_cube_node.sv, docs/rtl.md), a tile's
// ejection port is a resource like a link, held by one circuit at a time and granted
// by the same arbitration: two circuits into one tile take turns.
//
// Blocked setup:
//   hold_wait      (default, the iPSC) the header keeps what it holds and waits;
//   release_retry  the header gives up its links and restarts from the source
//                  `retry` cycles later (no new start-up).
// When a held link or port frees, or several headers ask for a free one in one cycle,
// the arbitration picks: lowest_id (lowest source tile, Bokhari Fig. 6), fifo (earliest
// request, then lowest source) or round_robin (the first source at or after the
// link's pointer, cyclically; the pointer then moves past the winner).
//
// With xi_held = h, the header leaves after xi - h cycles and the last h cycles of
// the start-up run once the path is held: E = max(S + h, E_prev) + i + k - 1, the
// same single-message time, but every contended link stays held h cycles longer.
//
// Pre-setup (Boppana §3.3, realizes AAP'): while a tile's message streams, its next
// posted message may start up and set up its path, provided the first link of that
// path is free when it starts; its data follows the previous tail. Without it a tile
// starts a message only when the previous one has been delivered.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::net {

enum class circuit_arbitration : std::uint8_t { lowest_id, fifo, round_robin };
enum class circuit_blocking : std::uint8_t { hold_wait, release_retry };

struct circuit_params {
  cycle_t xi{100};          // start-up cycles of a data message
  cycle_t tau{2};           // setup cycles per hop
  std::uint32_t width{1};   // bytes per element (one element per cycle)
  cycle_t control_xi{100};  // start-up of a control message (reserve, ack, sync)
  // The part of a data message's start-up that comes after its path is set up, with
  // the path held (0: all of xi precedes the header, as Boppana counts it). One
  // message's time does not depend on it; how long contended links stay held does.
  cycle_t xi_held{0};
  circuit_arbitration arbitration{circuit_arbitration::lowest_id};
  circuit_blocking blocking{circuit_blocking::hold_wait};
  cycle_t retry{1};  // release_retry: cycles before the header tries again
  bool presetup{false};
};

// Throws input_error naming the offending value.
void validate(const circuit_params& p);

class circuit_engine final : public engine {
 public:
  // Told the cycle S in which a message's path completes (its ejection port granted),
  // which the listener does not report; crosschecks against the RTL compare it.
  using setup_observer = std::function<void(std::uint64_t id, cycle_t s)>;

  circuit_engine(const fabric& f, circuit_params p);

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override { return events_.next(); }
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override { return live_ == 0; }
  // The cube links ("dim d") with traffic, then the ejection ports ("eject", from and
  // to the tile) with traffic.
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] contention_stat contention() const override { return cont_; }
  [[nodiscard]] std::vector<std::string> stuck() const override;

  void set_setup_observer(setup_observer o) { on_setup_ = std::move(o); }

  // Elements of a message (ceil(bytes / width), at least 1).
  [[nodiscard]] std::uint64_t elements(const xfer& x) const;

 private:
  static constexpr std::uint32_t none = 0xffffffffU;

  enum class stage : std::uint8_t { queued, startup, setup, waiting, streaming, retrying };

  struct message {
    xfer x;
    stage st{stage::queued};
    // Resources in hop order: the e-cube links, then the destination's ejection port.
    std::vector<std::uint32_t> path;
    std::uint32_t held{0};  // links 0 .. held-1 are ours
    cycle_t requested{0};   // when the pending request was made
  };
  // A link or an ejection port.
  struct link {
    std::uint32_t holder{none};
    cycle_t since{0};
    std::vector<std::uint32_t> waiting;  // message slots asking for this link
    std::uint32_t rr{0};
    cycle_t busy{0};
    std::uint64_t messages{0};
    std::uint32_t max_queue{0};
  };
  struct source {
    std::deque<std::uint32_t> queue;  // posted, not started
    std::uint32_t active{0};          // started, not delivered
    std::uint32_t streaming{none};    // the message now streaming, if any
    cycle_t last_tail{0};             // tail of the latest message to stream
  };
  enum class ev_kind : std::uint8_t { startup_done, header_hop, tail, retry };
  struct event {
    ev_kind kind;
    std::uint32_t slot;
  };

  std::uint32_t alloc(const xfer& x);
  [[nodiscard]] std::uint32_t eject(std::uint32_t tile) const { return cube_links_ + tile; }
  [[nodiscard]] std::uint32_t owner(std::uint32_t r) const {
    return r < cube_links_ ? r / f_.ports() : r - cube_links_;
  }
  [[nodiscard]] std::string resource_name(std::uint32_t r) const;
  void try_start(std::uint32_t tile, cycle_t now);
  void request(std::uint32_t slot, cycle_t now);
  void grant(std::uint32_t link_index, std::uint32_t slot, cycle_t now);
  void setup_complete(std::uint32_t slot, cycle_t now);
  void release_all(std::uint32_t slot, cycle_t now);
  // Index into cands of the request the arbitration grants.
  std::size_t pick(const link& l, const std::vector<std::uint32_t>& cands) const;

  fabric f_;
  circuit_params p_;
  std::uint32_t cube_links_{0};  // links_ below are cube links, from here ejection ports
  std::vector<message> msgs_;
  std::vector<std::uint32_t> free_;
  std::vector<link> links_;
  std::vector<source> src_;
  std::vector<std::uint32_t> dirty_;  // links with waiting requests to arbitrate
  std::vector<bool> is_dirty_;
  std::vector<std::uint32_t> start_dirty_;  // tiles that may start a message
  event_queue<event> events_;
  contention_stat cont_{};
  std::uint64_t live_{0};
  setup_observer on_setup_;
};

}  // namespace tessera::net
