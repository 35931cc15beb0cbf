// The wormhole engine's state and the declarations of what it does, shared by the files
// of net/src/wormhole/, one job each (the engine's overview: wormhole_engine.cpp). The
// work of every event is defined in headers (queries, progress, arbitration, half_duplex,
// nic) that wormhole_engine.cpp alone includes, so that it stays one unit the compiler
// inlines across as before; validation, collection and reports are units of their own.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages.hpp"
#include "tessera/net/duplex.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/routing.hpp"
#include "window_queue.hpp"

namespace tessera::net {

struct wormhole_engine::impl {
  static constexpr std::uint32_t n_inputs = 5;     // four neighbours and the NIC
  static constexpr std::uint32_t local_input = 4;  // the NIC's input is scanned last from pointer 0
  static std::int64_t as_i64(std::uint64_t v) { return static_cast<std::int64_t>(v); }
  static cycle_t as_cycle(std::int64_t v) { return static_cast<cycle_t>(v); }
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  struct worm;

  // The packet whose flits are just ahead of a header in one buffer, and the path
  // index at which that packet entered the buffer.
  struct ahead_link {
    worm* w{nullptr};
    std::uint32_t k{0};
    std::uint64_t kept{0};  // collection epoch that found it still usable
  };

  // What paced injection and VC shares add to a packet, kept out of the plain model's way.
  struct general_state {
    // Paced injection: g0[k] = max_{j<=k} t0[j] - q0 j; cxp[k] = max over buffers j <= k
    // and 1 <= f' < B of X(f', j) + d - g f' - q0 j, computed in order.
    std::vector<std::int64_t> g0;
    std::vector<std::int64_t> cxp;
    // VC share s > 1: ms[j] = max_{1<=f'<B} X(f', j) - s f' per buffer, as needed;
    // msq[j] = max_{i>=j} ms[i] - q i, once asked for the whole suffix.
    std::vector<std::int64_t> ms;
    std::vector<std::int64_t> msq;
    // Loop rows or d > s + B - 2 (cross_brute): py[j][f'] = max_{i<=j} X(f', i) - i for
    // the first py_rows buffers, 1 <= f' < B.
    std::vector<std::int64_t> py;
    std::uint32_t py_rows{0};
    // Leave times of the last min(F, B) flits from each buffer, as other packets ask
    // for them (cross terms), so chains of packets are not walked again (0 = unknown).
    std::vector<cycle_t> memo;
    std::unique_ptr<std::unordered_map<std::uint64_t, cycle_t>> memo_far;

    void clear() {
      g0.clear();
      cxp.clear();
      ms.clear();
      msq.clear();
      py.clear();
      py_rows = 0;
      memo.clear();
      memo_far.reset();
    }
  };

  struct worm {
    std::uint32_t msg{0};
    std::uint64_t index{0};             // packet number within its message
    bool last{false};                   // last packet of its message
    std::uint64_t flits{1};             // F
    std::uint32_t hops{0};              // h
    std::vector<std::uint32_t> chan;    // h + 2 channel ids
    std::vector<std::uint8_t> vc;       // VC held on channel k, as granted
    std::vector<cycle_t> t0;            // header crossing of channel k, as granted
    std::vector<std::int64_t> pre;      // pre[k] = max_{j<=k} t0[j] - j
    std::vector<std::int64_t> suf;      // suf[k] = max_{j>=k} t0[j] - q j, once t0 is complete
    std::unique_ptr<general_state> gs;  // g > 1 or s > 1 only (ext())
    std::vector<ahead_link> ahead;      // per buffer 0..h; reset once it cannot matter
    std::vector<cycle_t> tail;          // tail crossing of channel k, first tail_done known
    std::vector<cycle_t> credit;        // buffer k: when its slot for the next header frees
    std::uint32_t tail_done{0};
    std::uint32_t credit_done{0};
    // Links in ahead[] that can still add a cross term (set at a grant, dropped once
    // dominated; collect() may cut more without counting). 0: every X is 0.
    std::uint32_t live_links{0};
    std::uint32_t released{0};
    cycle_t ready_since{0};  // when the header started requesting its next channel
    bool front_wait{false};  // waiting to learn when the packet ahead leaves the buffer
    bool finished{false};
    std::size_t active_index{0};
    std::vector<worm*> waiters;  // retried whenever this worm progresses
    // Collection marks (collect()): the worm is kept; it was reached as a root; it was
    // reached through a link into buffer k.
    std::uint64_t live{0};
    std::uint64_t root{0};
    std::vector<std::uint64_t> reached;

    // Back to a fresh packet, keeping the vectors' storage: packets are recycled
    // because allocation was a third of the cost of runs with many short packets.
    void recycle() {
      chan.clear();
      vc.clear();
      t0.clear();
      if (gs) gs->clear();
      pre.clear();
      suf.clear();
      ahead.clear();
      tail.clear();
      credit.clear();
      waiters.clear();
      reached.clear();
      tail_done = credit_done = released = live_links = 0;
      ready_since = 0;
      front_wait = finished = false;
      live = root = 0;
    }
  };

  // Either a time or the worm whose next header crossing it is waiting for.
  struct answer {
    cycle_t t{0};
    worm* missing{nullptr};
  };

  // free: VC `vc` of channel `id` is available again; touch: channel `id` may grant
  // again (it granted a header last cycle with requests and free VCs left).
  enum class ev_kind : std::uint8_t { free, ready, nic, deliver, touch };
  struct event {
    ev_kind kind{ev_kind::free};
    std::uint8_t vc{0};
    std::uint32_t id{0};  // channel, tile or message slot
    worm* w{nullptr};     // ready: the requesting header (alive: it is still active)
  };

  // A physical channel. Its per-input-VC request slots and per-VC buffer links live in
  // req_slots / vc_last (contiguous, indexed by channel).
  struct channel {
    std::uint32_t nreq{0};
    std::uint32_t rr{0};         // next input VC to be scanned first
    std::uint32_t free_mask{0};  // VCs available to the next header
    cycle_t granted_at{never};   // one header per physical channel per cycle
    bool touched{false};
    bool retouch{false};  // a touch event is pending
    cycle_t busy{0};
    std::uint64_t packets{0};
    std::uint32_t max_queue{0};
    std::uint64_t flits{0};  // of the packets whose tail crossed
  };

  struct message : wormhole_detail::message_core {
    std::uint64_t created{0};
    std::uint64_t tails_left{1};  // packets whose ejection tail time is not known yet
    cycle_t latest{0};            // latest ejection tail among those known
    worm* current{nullptr};       // newest packet, for stuck()
    // Half duplex: the receive started (first header into the ejection) at rx_start; a
    // serial one completes one receive length after its tile's transmit, which ends
    // before tx_end once known (never: not yet).
    cycle_t rx_start{0};
    bool receiving{false};
    bool serial{false};
    bool tail_known{false};
    cycle_t tx_end{never};
    cycle_t rx_tail{0};
    // duplex_hold: the last packet's tail left the injection; the tile whose stream the
    // first header waits for at the ejection (none: not held).
    bool injected{false};
    std::uint32_t held_by{none};
    // eager_bytes: the NIC side of the receive is over (the copy follows).
    bool copied{false};
  };

  struct nic {
    std::deque<std::uint32_t> queue;  // message slots, posting order
    bool busy{false};                 // a message is injecting and its last tail time is not known
    bool scheduled{false};            // a nic event is pending
    cycle_t free_at{0};
    // Half duplex (duplex.hpp). The tile's latest transmit: from its first header
    // entering the injection, or with duplex_hold from its first header granted the
    // destination's ejection (the message tx_slot; none: no transmit yet), until its
    // last tail has left the injection.
    duplex_stream<cycle_t> tx;
    std::uint32_t tx_slot{none};
    std::vector<std::uint32_t> rx_active;  // receives started and not delivered (slots)
    worm* parked{nullptr};                 // a transmit waiting for the receives to finish
    std::vector<std::uint32_t> after_tx;   // serial receives waiting for the transmit's end
    std::vector<worm*> held;               // duplex_hold: headers held at an ejection for this tile
  };

  wormhole_engine& owner;
  fabric fab;
  wormhole_params p;
  duplex_policy duplex;
  std::uint32_t tiles;
  std::int64_t depth;  // B, signed for the closed form's negative terms
  // The event window: channel releases are pushed about one packet's duration ahead (a
  // 16 KB worm at one byte per flit: 16K cycles, 32K when paced at 2 or with two VCs).
  [[nodiscard]] std::size_t params_span() const {
    if (p.packet_bytes == 0) return general ? 65536 : 16384;
    // Cycles per flit: the NIC's pace, a VC's share, or B flits per credit round trip.
    const std::uint64_t per_flit =
        std::max<std::uint64_t>({p.inject_gap, p.vcs, (p.credit_delay + p.buffer) / p.buffer});
    const std::uint64_t cycles = packet_flits(p.packet_bytes, p.width) * per_flit;
    return std::clamp<std::size_t>(std::bit_ceil(2 * cycles), 4096, 65536);
  }
  std::int64_t gap;    // g = inject_gap
  std::uint32_t nvc;   // V = vcs
  std::int64_t share;  // s: cycles per flit of one VC on a link or ejection channel (= V)
  std::int64_t cd;     // d = credit_delay: the weight of a back-pressure step
  // What a back-pressure step saves against B steps down a row: q = sB - d on the rows
  // of links and the ejection, q0 = gB - d on the injection row (docs/wormhole.md,
  // "Closed form"). When it saves nothing (q <= 0) the credit round trip, not the row,
  // sets the pace, and the longest paths take as many back-pressure steps as they can
  // ("loop" rows): loop = 1 + d - sB > 0, loop0 = 1 + d - gB > 0.
  std::int64_t qrow;
  std::int64_t q0;
  bool loop_rows;
  bool loop0;
  // Cross terms of buffers below the queried row can exceed every header term: always on
  // loop rows, and on the others when d > s + B - 2 (docs/wormhole.md, "Cross terms").
  bool low_cross;
  bool general;  // g > 1, s > 1 or loop rows: flit_time_general
  std::vector<channel> ch;
  std::vector<worm*> req_slots;     // channel * 5V + input VC: the header at its front
  std::vector<ahead_link> vc_last;  // channel * V + VC: newest packet to enter its buffer
  std::vector<nic> nics;
  std::vector<message> msgs;
  std::vector<std::uint32_t> free_msgs;
  std::uint64_t live_msgs{0};
  std::vector<std::unique_ptr<worm>> pool;   // every packet not yet collected
  std::vector<std::unique_ptr<worm>> spare;  // collected, for reuse
  std::size_t collect_at{1024};
  std::uint64_t epoch{0};
  std::vector<worm*> active;  // packets with times still to compute
  std::vector<worm*> retry;
  std::vector<std::uint32_t> touched;
  std::vector<std::uint32_t> starting;  // tiles whose NIC starts a message posted now
  wormhole_detail::window_queue<event> events{params_span()};
  contention_stat cont{};
  cycle_t now_{0};

  impl(wormhole_engine& o, const fabric& fabric_in, const wormhole_params& params)
      : owner{o},
        fab{fabric_in},
        p{params},
        duplex{duplex_of(params)},
        tiles{fabric_in.tiles()},
        depth{params.buffer},
        gap{params.inject_gap},
        nvc{params.vcs},
        share{params.vcs},
        cd{params.credit_delay},
        qrow{std::int64_t{params.vcs} * params.buffer - params.credit_delay},
        q0{std::int64_t{params.inject_gap} * params.buffer - params.credit_delay},
        loop_rows{qrow <= 0},
        loop0{q0 <= 0},
        low_cross{loop_rows || cd + 2 > share + depth},
        general{params.inject_gap > 1 || params.vcs > 1 || loop_rows} {
    ch.resize(std::size_t{6} * tiles);
    for (channel& c : ch)
      c.free_mask = (std::uint32_t{1} << nvc) - 1;
    req_slots.assign(ch.size() * n_inputs * nvc, nullptr);
    vc_last.assign(ch.size() * nvc, ahead_link{});
    nics.resize(tiles);
  }

  // Channel ids: links tile*4+port, then one injection and one ejection per tile.
  [[nodiscard]] std::uint32_t inject_id(std::uint32_t t) const { return 4 * tiles + t; }
  [[nodiscard]] std::uint32_t eject_id(std::uint32_t t) const { return 5 * tiles + t; }
  // Input port of the router that channel c feeds (docs/wormhole.md, "arbitration").
  [[nodiscard]] std::uint32_t input_of(std::uint32_t c) const {
    return c < 4 * tiles ? c % 4 : local_input;
  }

  static general_state& ext(worm& w) {
    if (!w.gs) w.gs = std::make_unique<general_state>();
    return *w.gs;
  }
  static constexpr std::int64_t unknown_max = std::numeric_limits<std::int64_t>::max();
  static constexpr std::int64_t no_term = std::numeric_limits<std::int64_t>::min() / 4;
  static constexpr std::uint64_t memo_table = 1024;  // leave_time: entries kept in a table

  struct visit {
    worm* w;
    std::uint32_t k;  // buffer it was reached through; all_links for a root
  };
  static constexpr std::uint32_t all_links = std::numeric_limits<std::uint32_t>::max();

  // ---- queries.hpp: the closed form (docs/wormhole.md, "Closed form") ----
  [[nodiscard]] inline std::int64_t header_bases_above(const worm& w, std::uint32_t k,
                                                       std::uint32_t kmax) const;
  inline answer flit_time(worm& w, std::uint64_t f, std::uint32_t k);
  inline answer flit_time_plain(worm& w, std::uint64_t f, std::uint32_t k);
  inline answer with_stream_cross(worm& w, std::uint64_t f, std::uint32_t k, std::uint64_t up,
                                  cycle_t t);
  [[gnu::noinline]] inline answer flit_time_general(worm& w, std::uint64_t f, std::uint32_t k);
  inline answer cross_rows(worm& w, std::uint64_t f, std::uint32_t k);
  inline answer buffer_max(worm& w, std::uint32_t j);
  inline answer cross_brute(worm& w, std::uint64_t f, std::uint32_t k, std::int64_t wt, bool loop);
  inline answer ensure_py(worm& w, std::uint32_t hi);
  [[gnu::noinline]] inline answer paced_row(worm& w, std::uint64_t f);
  inline answer ensure_cross(worm& w, std::uint32_t hi);
  [[nodiscard]] inline bool ahead_gone(const worm& w, std::uint32_t k, const worm& q,
                                       std::uint32_t out) const;
  inline answer stream_leave(worm& w, std::uint32_t k, std::uint64_t d);
  [[gnu::noinline]] inline answer leave_time(worm& q, std::uint32_t k, std::uint64_t d);
  inline answer credit_time(worm& w, std::uint32_t k);

  // ---- progress.hpp: progress of one worm ----
  inline void wait_on(worm& m, worm& w);
  inline void wake(worm& m);
  inline void drain_retry();
  inline void progress(worm& w);
  inline void release(worm& w, std::uint32_t k);
  inline void on_tail(worm& w, std::uint32_t k);
  inline void deliver_at(std::uint32_t slot, cycle_t t);
  inline void finish(worm& w);
  inline void resolve_front(worm& w);

  // ---- arbitration.hpp: requests and grants ----
  inline void touch(std::uint32_t c);
  [[gnu::always_inline]] inline void request(worm& w, cycle_t now);
  inline worm* pick(std::uint32_t c);
  inline void grant(worm& w, cycle_t now);
  inline void arbitrate(cycle_t now);

  // ---- half_duplex.hpp: the half-duplex NIC ----
  inline void half_duplex_grant(const worm& w, std::uint32_t k, cycle_t now);
  [[nodiscard]] inline bool must_wait(const nic& n, std::uint32_t peer, cycle_t now) const;
  [[nodiscard]] inline std::uint32_t hold_blocker(const message& m, cycle_t now) const;
  inline void release_held(std::uint32_t tile, cycle_t now);
  inline void receive_done(std::uint32_t tile, std::uint32_t slot, cycle_t now);
  inline void deliver_serial(std::uint32_t slot);

  // ---- nic.hpp: messages and packets at the NIC ----
  inline worm* make_worm(std::uint32_t slot);
  inline void schedule_nic(std::uint32_t tile, cycle_t t);
  inline void start_next(std::uint32_t tile, cycle_t now);
  inline void inject(const xfer& x, cycle_t now);

  // ---- collect.cpp: collection (docs/wormhole.md, "memory") ----
  void follow(ahead_link& a, std::vector<visit>& stack) const;
  void mark(std::vector<visit>& stack);
  void collect();

  // ---- report.cpp: links, stuck messages ----
  [[nodiscard]] std::string describe(std::uint32_t c) const;
  [[nodiscard]] std::vector<link_stat> links() const;
  [[nodiscard]] std::vector<std::string> stuck() const;

  // ---- wormhole_engine.cpp: the events of one cycle ----
  void fire(cycle_t now);
};

}  // namespace tessera::net
