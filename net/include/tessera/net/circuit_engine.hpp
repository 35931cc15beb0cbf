// Circuit-switched hypercube (Bokhari, "Complete Exchange on the iPSC-860", §2;
// Boppana and Raghavendra, "Optimal and Practical Routing Methods for a Massive Data
// Movement Operation on Hypercubes", §2): a message first spends xi cycles of start-up
// at its source, then a setup header claims its e-cube path one directed link at a
// time, tau cycles per hop, and last the destination's ejection port; once the whole
// path is held the k elements (`width` bytes each) stream through it one per cycle,
// pipelined, so a message over i hops takes exactly xi + i tau + i + k - 1 cycles.
//
// The rules are those of the Verilated cube (rtl_models/rtl/tsr_cube_node.sv,
// tsr_cube_ni.sv, tsr_cube_top.sv) as tb/cube/cube_reference.hpp and docs/rtl.md
// state them, so that the engine and the RTL agree cycle for cycle; what the RTL lacks
// (fifo, release_retry, tau 0) is an addition that vanishes at its default. For a
// message of k elements over i hops, posted at its source in cycle p:
//
//   resources  the D links out of every node (dimension d: n to n ^ 2^d) and every
//              tile's ejection port. A circuit holds the i links of its e-cube path,
//              lowest dimension first, then the destination's ejection port: hop
//              positions j = 0 .. i - 1, and i. A resource is held by one circuit at a
//              time; a message to its own tile holds only its ejection port.
//   posting    a tile's interface takes its next message, in posting order, in the
//              first cycle t0 >= p in which it is idle (listener started(t0)). It is
//              idle from the start and from S' + k of the message it took before: the
//              cycle after it handed over that message's last element.
//   start-up   the header asks for its first resource in cycle t0 + xi - xi_held
//              (t0 + control_xi for a control message of the message layer: reserve,
//              ack, barrier; a pairwise synchronization, xfer::program, is a zero-byte
//              message of the program and starts like data); with no start-up, in t0.
//   setup      a header asking for a resource in cycle c, or waiting for it since an
//              earlier cycle, is granted it in c if it is free in c and the header wins
//              among all headers asking for it in c: lowest_id ranks by source (Bokhari
//              Fig. 6); fifo by the cycle of the request, then by source; round_robin
//              by (source - pointer) mod 2^D, where every resource has a pointer that
//              starts at 0 and becomes winner + 1 after each grant. Equal ranks go to
//              the lower message id (they need two headers of one source in setup,
//              which the interface never has). A header granted a link in g asks for
//              the next resource in g + tau (tau = 0, which the RTL does not allow:
//              in g, once the requests made earlier in g are settled). The grant of
//              the destination's ejection port, in cycle S, completes the path
//              (set_setup_observer). A blocked header keeps what it holds and waits
//              (hold_wait).
//   stream     the first element enters the source node in S' = S + xi_held (S for a
//              control message; pre-setup below may delay it), element e in S' + e,
//              and crosses the node at hop position j in S' + e + j: the tail is
//              delivered in E = S' + i + k - 1 (listener delivered(E)).
//   teardown   the resource at hop position j is busy from its grant through
//              S' + k - 1 + j, the cycle the tail crosses its node, and free, grantable
//              in that very cycle, from S' + k + j; the ejection port from E + 1. The
//              source's interface is idle from S' + k (see posting).
//   control    a control message (x.control: reserve, ack, sync) and a message of no
//              bytes are one element; a control message uses control_xi and no xi_held
//              (a pairwise synchronization: xi and xi_held, one element).
//
// Unblocked, hop j is granted at t0 + xi - xi_held + j tau, S = t0 + xi - xi_held +
// i tau and E - t0 is Boppana's formula for every xi_held: xi_held (the last part of
// the start-up, run with the path held; the iPSC-860 preset needs it, docs/machines.md)
// only lengthens how long a contended path stays held.
//
// Release and retry (blocking = release_retry; no RTL counterpart): a header that is
// refused a resource (held, or granted to another header in the same cycle) releases
// everything it holds in that cycle, where other headers may take it, and asks for its
// first resource again `retry` cycles later, without a new start-up; it keeps its
// interface meanwhile. Progressive teardown applies to complete circuits only.
//
// Pre-setup (presetup, Boppana §3.3, their AAP'): in addition to posting, a tile's
// interface takes its next message while it still hands over the previous one: in any
// cycle t0 >= p in which exactly one message of the tile is taken and not handed over,
// that message's path completed in an earlier cycle (S < t0), and the first resource of
// the new message's path was not held at the end of cycle t0 - 1 (free from t0 by
// teardown, or never held; a grant in t0 itself to another header does not count). Both
// are registered state in the RTL interface (tsr_cube_ni: its slot past setup, its
// node's busy_o), so taking the message does not wait on the grants of t0. The new
// header starts up and sets up by the rules above, but its data follows the previous
// message's last element into the node: its first element enters at
// S' = max(S + xi_held, S'_prev + k_prev), and its resources are held through
// S' + k - 1 + j. So at most one message is set up ahead of the one being sent, and
// without contention its setup hides behind the previous stream.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "tessera/common/range.hpp"
#include "tessera/net/duplex.hpp"
#include "tessera/net/energy.hpp"
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
  cycle_t control_xi{100};  // start-up of a control message (reserve, ack, barrier)
  // The part of a data message's start-up that comes after its path is set up, with
  // the path held (0: all of xi precedes the header, as Boppana counts it). One
  // message's time does not depend on it; how long contended links stay held does.
  cycle_t xi_held{0};
  circuit_arbitration arbitration{circuit_arbitration::lowest_id};
  circuit_blocking blocking{circuit_blocking::hold_wait};
  cycle_t retry{1};  // release_retry: cycles before the header tries again
  bool presetup{false};
  // Half-duplex interface (Bokhari91 §5, duplex.hpp): a tile's transmit and receive streams
  // overlap only when they start within duplex_window cycles of each other; otherwise the
  // later stream starts after the earlier one's last element, its circuit held meanwhile
  // (duplex_hold is not read: a circuit is always held). Off by default.
  duplex_params duplex{};
};

// The parameters' valid values, for validate() and the registry's --param rows.
namespace circuit_range {
inline constexpr cycle_t big = cycle_t{1} << 40;
inline constexpr count_range xi{"xi", 0, big};
inline constexpr count_range xi_held{"xi_held", 0, big};  // and at most xi
inline constexpr count_range tau{"tau", 0, big};
inline constexpr count_range width{"width", 1, 4096};
inline constexpr count_range control_xi{"control_xi", 0, big};
inline constexpr count_range retry{"retry", 1, big};
inline constexpr count_range duplex_window{"duplex_window", 0, big};
// In the order validate() checks them.
inline constexpr std::array all{xi, xi_held, tau, width, control_xi, retry, duplex_window};
}  // namespace circuit_range

// Throws input_error naming the offending value ("circuit: xi 2000000000000 is out of
// range 0..2^40").
void validate(const circuit_params& p);

// The half-duplex rule on circuits: a late stream's circuit stays set up while it waits.
[[nodiscard]] inline duplex_policy duplex_of(const circuit_params& p) {
  return duplex_policy{p.duplex, true};
}

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
  [[nodiscard]] energy_counts energy() const override;
  [[nodiscard]] contention_stat contention() const override { return cont_; }
  [[nodiscard]] std::vector<std::string> stuck() const override;

  void set_setup_observer(setup_observer o) { on_setup_ = std::move(o); }

  // Elements of a message (ceil(bytes / width), at least 1).
  [[nodiscard]] std::uint64_t elements(const xfer& x) const;

 private:
  static constexpr std::uint32_t none = 0xffffffffU;

  enum class stage : std::uint8_t {
    queued,     // posted, not taken by the interface
    startup,    // start-up before the header leaves
    waiting,    // the header asks for path[held]
    setup,      // the header travels to the next node
    retrying,   // release_retry: backed off, path released
    streaming,  // path complete, not yet delivered
    delivered   // the tail arrived; the path is still being torn down
  };

  struct message {
    xfer x;
    stage st{stage::queued};
    // Resources in hop order: the e-cube links, then the destination's ejection port.
    std::vector<std::uint32_t> path;
    std::uint32_t held{0};  // path[0 .. held-1] are ours
    cycle_t requested{0};   // when the pending request was made
  };
  // A link or an ejection port.
  struct resource {
    std::uint32_t holder{none};
    cycle_t since{0};
    std::vector<std::uint32_t> waiting;  // message slots asking for it
    std::uint32_t rr{0};
    cycle_t busy{0};
    std::uint64_t messages{0};
    std::uint32_t max_queue{0};
    std::uint64_t units{0};  // elements of the circuits set up through it
  };
  struct source {
    std::deque<std::uint32_t> queue;  // posted, not taken
    std::uint32_t active{0};          // taken, last element not handed over
    std::uint32_t in_setup{none};     // the message taken and not yet set up, if any
    cycle_t free_at{0};               // S' + k of the latest message set up
    cycle_t set_up_at{0};             // S of the latest message set up
    std::uint64_t injected{0};        // elements of its circuits set up
    // Half duplex: the latest transmit and receive streams.
    duplex_stream<cycle_t> tx;
    duplex_stream<cycle_t> rx;
  };
  // ask: the header asks for path[held]. release frees path[hop] and schedules hop + 1
  // a cycle later, so a circuit has one teardown event pending; hop 0 also hands the
  // interface back. wake: pre-setup may take tile `slot`'s next message (S + 1).
  enum class ev_kind : std::uint8_t { ask, tail, release, wake };
  struct event {
    ev_kind kind;
    std::uint32_t slot;  // a message slot, or the tile of a wake
    std::uint32_t hop;
  };

  std::uint32_t alloc(const xfer& x);
  [[nodiscard]] std::uint32_t eject(std::uint32_t tile) const { return cube_links_ + tile; }
  [[nodiscard]] std::uint32_t owner(std::uint32_t r) const {
    return r < cube_links_ ? r / f_.ports() : r - cube_links_;
  }
  [[nodiscard]] std::string resource_name(std::uint32_t r) const;
  void try_start(std::uint32_t tile, cycle_t now);
  void request(std::uint32_t slot, cycle_t now);
  void grant(std::uint32_t r, std::uint32_t slot, cycle_t now);
  void setup_complete(std::uint32_t slot, cycle_t now);
  // Half duplex: the first cycle >= first in which message `m` may stream.
  [[nodiscard]] cycle_t duplex_start(const message& m, cycle_t first, cycle_t hops) const;
  void free_resource(std::uint32_t r, cycle_t now);
  void release_all(std::uint32_t slot, cycle_t now);
  void settle(std::uint32_t r, cycle_t now);
  // Index into cands of the request the arbitration grants.
  std::size_t pick(const resource& l, const std::vector<std::uint32_t>& cands) const;

  fabric f_;
  circuit_params p_;
  duplex_policy duplex_;
  // res_[tile * D + d] is a cube link, res_[cube_links_ + tile] an ejection port.
  std::uint32_t cube_links_{0};
  std::vector<message> msgs_;
  std::vector<std::uint32_t> free_;
  std::vector<resource> res_;
  std::vector<source> src_;
  std::vector<std::uint32_t> dirty_;  // resources with requests to arbitrate
  std::vector<bool> is_dirty_;
  std::vector<std::uint32_t> start_dirty_;  // tiles that may take a message
  event_queue<event> events_;
  contention_stat cont_{};
  std::uint64_t live_{0};  // messages injected and not yet torn down
  setup_observer on_setup_;
};

}  // namespace tessera::net
