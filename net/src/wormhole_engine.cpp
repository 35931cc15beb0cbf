// The wormhole mesh engine. docs/wormhole.md states the router model, derives the
// closed form used here and argues the scheduling invariants; the comments below point
// at its sections rather than repeat them.
//
// A packet is a "worm". Its path is channels 0..h+1: the injection channel, the h XY
// links, the ejection channel. Channel k ends in a B-flit input buffer ("buffer k") for
// k <= h. The engine decides only header crossings t0[k] (by events and arbitration);
// every other flit time is a query, flit_time(), answered by the closed form from t0[]
// and, for the first flits behind another packet in a buffer, that packet's own times.
// A query can be unknown (a header it needs has not moved yet); the caller then waits
// on the worm that is missing and is retried when that worm makes progress.
//
// With inject_gap g > 1 the injection row of the max-plus graph weighs g per flit, so
// flit times go through the paced injection row T0(f) (docs/wormhole.md, "Paced
// injection"). With vcs V > 1 each channel has V VCs, each with its own buffer chain, and
// each VC carries at most one flit every V cycles on a link or the ejection (a fixed
// share of the physical channel), so those rows weigh s = V per flit (docs/wormhole.md,
// "Virtual channels"). Plain and general queries are separate functions so that the
// plain model stays as cheap as it was.
#include "tessera/net/wormhole_engine.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>
#include <unordered_map>

#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net {

namespace {

constexpr std::uint32_t n_inputs = 5;     // four neighbours and the NIC
constexpr std::uint32_t local_input = 4;  // the NIC's input is scanned last from pointer 0
constexpr std::uint64_t max_message_bytes = std::uint64_t{1} << 50;

std::string fabric_spec(const fabric& f) {
  std::string s{kind_name(f.kind)};
  if (f.kind == fabric_kind::hypercube) return s + ":" + std::to_string(f.dim);
  if (f.kind == fabric_kind::ring) return s + ":" + std::to_string(f.cols);
  return s + ":" + std::to_string(f.rows) + "x" + std::to_string(f.cols);
}

void check_range(const char* name, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v < lo || v > hi) {
    throw input_error("wormhole: " + std::string(name) + " " + std::to_string(v) +
                      " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  }
}

std::int64_t as_i64(std::uint64_t v) {
  return static_cast<std::int64_t>(v);
}
cycle_t as_cycle(std::int64_t v) {
  return static_cast<cycle_t>(v);
}

// A time-ordered event queue for times that never go back: events due within `span`
// cycles of the earliest pending time sit in per-cycle FIFO buckets, later ones in a
// heap until the window reaches them. A header hop costs two events, and a binary heap
// of every pending release was the engine's largest cost on long runs. Events of one
// cycle come out in the order pushed (heap ones first: they were pushed earlier).
template <typename Payload>
class window_queue {
 public:
  // span: a power of two; cycles ahead of the earliest pending event that are bucketed.
  explicit window_queue(std::size_t span)
      : span_{span}, mask_{span - 1}, words_{span / 64}, buckets_(span), used_(span / 64, 0) {}

  void push(cycle_t t, const Payload& p) {
    if (t < base_) throw std::logic_error("wormhole engine: an event was scheduled in the past");
    ++count_;
    if (t - base_ < span_) {
      put(t, p);
    } else {
      far_.push(item{t, seq_++, p});
    }
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] cycle_t next() const {
    if (count_ == 0) return never;
    const std::size_t start = base_ & mask_;
    for (std::size_t i = 0; i < words_; ++i) {
      const std::size_t w = (start / 64 + i) & (words_ - 1);
      std::uint64_t bits = used_[w];
      if (i == 0) bits &= ~std::uint64_t{0} << (start % 64);
      if (bits != 0) return time_of(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    }
    // Wrapped part of the first word.
    const std::uint64_t low = used_[start / 64] & ~(~std::uint64_t{0} << (start % 64));
    if (low != 0) return time_of(start / 64 * 64 + static_cast<std::size_t>(std::countr_zero(low)));
    return far_.top().t;
  }
  // Pops the oldest event due at `now` (never earlier than any pending event).
  bool pop_due(cycle_t now, Payload& out) {
    slide(now);
    bucket& b = buckets_[now & mask_];
    if (b.head == b.items.size()) return false;
    out = b.items[b.head++];
    --count_;
    if (b.head == b.items.size()) {
      // An emptied bucket's storage goes to a spare list that the next bucket to fill
      // takes from: storage then follows the buckets in use, not every bucket's largest
      // burst, which over a long run would add up to memory growing with the run.
      b.items.clear();
      spare_.push_back(std::move(b.items));
      b.items = std::vector<Payload>{};
      b.head = 0;
      used_[(now & mask_) / 64] &= ~(std::uint64_t{1} << ((now & mask_) % 64));
    }
    return true;
  }

 private:
  struct item {
    cycle_t t;
    std::uint64_t seq;
    Payload p;
    bool operator>(const item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  struct bucket {
    std::vector<Payload> items;
    std::size_t head{0};
  };

  [[nodiscard]] cycle_t time_of(std::size_t slot) const {
    return base_ + ((slot - (base_ & mask_)) & mask_);
  }
  void put(cycle_t t, const Payload& p) {
    const std::size_t slot = t & mask_;
    std::vector<Payload>& items = buckets_[slot].items;
    if (items.capacity() == 0 && !spare_.empty()) {
      items = std::move(spare_.back());
      spare_.pop_back();
    }
    items.push_back(p);
    used_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  // Moves the window start to `now`; everything before it has been popped.
  void slide(cycle_t now) {
    if (now <= base_) return;
    if (next() < now) throw std::logic_error("wormhole engine: fired past a pending event");
    base_ = now;
    while (!far_.empty() && far_.top().t - base_ < span_) {
      put(far_.top().t, far_.top().p);
      far_.pop();
    }
  }

  std::size_t span_;
  std::size_t mask_;
  std::size_t words_;
  cycle_t base_{0};
  std::size_t count_{0};
  std::uint64_t seq_{0};
  std::vector<bucket> buckets_;
  std::vector<std::vector<Payload>> spare_;  // emptied buckets' storage, for reuse
  std::vector<std::uint64_t> used_;
  std::priority_queue<item, std::vector<item>, std::greater<>> far_;
};

}  // namespace

void validate(const wormhole_params& p) {
  check_range("width", p.width, 1, 4096);
  check_range("buffer", p.buffer, 1, 65536);
  check_range("router_delay", p.router_delay, 0, 1'000'000);
  check_range("alpha", p.alpha, 0, 1'000'000'000'000);
  check_range("packet_bytes", p.packet_bytes, 0, max_message_bytes);
  check_range("inject_gap", p.inject_gap, 1, 1024);
  check_range("vcs", p.vcs, 1, 16);
  check_range("credit_delay", p.credit_delay, 0, 16);
  check_range("duplex_window", p.duplex.duplex_window, 0, 1'000'000'000'000);
  check_range("alpha_eager", p.alpha_eager, 0, 1'000'000'000'000);
  check_range("eager_copy", p.eager_copy, 0, 1'000'000);
}

std::uint64_t packet_flits(std::uint64_t payload, std::uint32_t width) {
  const std::uint64_t n = payload / width + (payload % width != 0 ? 1 : 0);
  return std::max<std::uint64_t>(1, n);
}

struct wormhole_engine::impl {
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
  };

  struct message {
    xfer x;
    std::uint64_t packets{1};
    std::uint64_t created{0};
    bool live{false};
    bool started{false};
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
    // eager_bytes: the receiver's copy out of the system buffer, cycles (0: none), and
    // whether the NIC side of the receive is over.
    cycle_t copy{0};
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
  window_queue<event> events{params_span()};
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

  // ---- queries (docs/wormhole.md, "closed form") ----

  static general_state& ext(worm& w) {
    if (!w.gs) w.gs = std::make_unique<general_state>();
    return *w.gs;
  }

  // max over k < k' <= kmax of t0[k'] - q k': the header bases a flit of row k reaches
  // by k' - k back-pressure steps (from suf once the header has arrived).
  [[nodiscard]] std::int64_t header_bases_above(const worm& w, std::uint32_t k,
                                                std::uint32_t kmax) const {
    const std::uint32_t last = w.hops + 1;
    if (kmax == last && w.suf.size() == last + std::size_t{1}) return w.suf[k + 1];
    std::int64_t m = std::numeric_limits<std::int64_t>::min();
    for (std::uint32_t j = k + 1; j <= kmax; ++j)
      m = std::max(m, as_i64(w.t0[j]) - qrow * j);
    return m;
  }

  // Crossing time of flit f of w over its channel k (docs/wormhole.md, "Closed form").
  // This is the plain model, s = g = 1 with B > d; flit_time_general covers paced
  // injection, VC shares and loop rows. In the comments below X(f', j) is when the flit
  // B - f' places ahead of the header left buffer j; the slot it frees serves d later
  // (the doc's cross base X includes that d).
  answer flit_time(worm& w, std::uint64_t f, std::uint32_t k) {
    return general ? flit_time_general(w, f, k) : flit_time_plain(w, f, k);
  }

  answer flit_time_plain(worm& w, std::uint64_t f, std::uint32_t k) {
    const std::uint32_t last = w.hops + 1;
    const std::uint64_t up = f / p.buffer;
    const std::uint32_t kmax = up >= last - k ? last : k + static_cast<std::uint32_t>(up);
    if (w.t0.size() <= kmax) return {0, &w};
    const std::int64_t fi = as_i64(f);
    std::int64_t best = w.pre[k] + fi + k;
    if (kmax > k) {
      // Header bases at k' > k: k' - k back-pressure steps of weight d, each saving
      // B - d against B steps down the row.
      best = std::max(best, header_bases_above(w, k, kmax) + fi + qrow * k);
    }
    cycle_t t = as_cycle(best);
    const std::uint64_t rem = f % p.buffer;
    if (rem != 0 && k + up <= w.hops) {
      // The one flit-credit term on another packet that is not dominated by a header,
      // reached by `up` back-pressure steps; its own credit adds one more d.
      const answer y = stream_leave(w, k + static_cast<std::uint32_t>(up), p.buffer - rem);
      if (y.missing != nullptr) return y;
      if (y.t != 0) t = std::max(t, y.t + as_cycle(cd) * (up + 1));
    }
    return {t, nullptr};
  }

  // flit_time when g > 1, s > 1 or the rows loop. Rows k >= 1 weigh s per flit (a VC's
  // share of the link), the injection row g (docs/wormhole.md, "Paced injection",
  // "Virtual channels"); a back-pressure step weighs d.
  [[gnu::noinline]] answer flit_time_general(worm& w, std::uint64_t f, std::uint32_t k) {
    const std::uint32_t last = w.hops + 1;
    const std::uint64_t up = f / p.buffer;
    const std::uint32_t kmax = up >= last - k ? last : k + static_cast<std::uint32_t>(up);
    if (w.t0.size() <= kmax) return {0, &w};
    if (k == 0) return paced_row(w, f);
    const std::int64_t sf = share * as_i64(f);
    std::int64_t best = 0;
    if (loop_rows) {
      // A back-pressure step and a step left (weight 1 + d) beat B steps down the row,
      // so the longest paths take all floor(f/B) of them and may end at any header up
      // to k + floor(f/B).
      best = w.pre[kmax] + sf + k + as_i64(up) * (1 - qrow);
    } else {
      // Header bases at k' <= k, along row k then left.
      best = w.pre[k] + sf + k;
      if (kmax > k) {
        // Header bases at k' > k, reached by back-pressure steps.
        best = std::max(best, header_bases_above(w, k, kmax) + sf + qrow * k);
      }
    }
    if (gap > share) {
      // Paths that step down the injection row: T0(f) + k.
      const answer a = paced_row(w, f);
      if (a.missing != nullptr) return a;
      best = std::max(best, as_i64(a.t) + k);
    }
    if (w.live_links == 0) return {as_cycle(best), nullptr};
    if (loop_rows) {
      const answer c = cross_brute(w, f, k, share, true);
      if (c.missing != nullptr) return c;
      return {std::max(as_cycle(best), c.t), nullptr};
    }
    if (share > 1) {
      const answer c = cross_rows(w, f, k);
      if (c.missing != nullptr) return c;
      best = std::max(best, as_i64(c.t));
      if (low_cross) {
        const answer l = cross_brute(w, f, k, share, false);
        if (l.missing != nullptr) return l;
        best = std::max(best, as_i64(l.t));
      }
      return {as_cycle(best), nullptr};
    }
    cycle_t t = as_cycle(best);
    const std::uint64_t rem = f % p.buffer;
    if (rem != 0 && k + up <= w.hops) {
      // s = 1: the one cross term not dominated by a header (the plain model's).
      const answer y = stream_leave(w, k + static_cast<std::uint32_t>(up), p.buffer - rem);
      if (y.missing != nullptr) return y;
      if (y.t != 0) t = std::max(t, y.t + as_cycle(cd) * (up + 1));
    }
    return {t, nullptr};
  }

  // Cross terms of a row k >= 1 query when s > 1 and the rows do not loop
  // (docs/wormhole.md, "Virtual channels", "Cross terms"). Buffers j < k are dominated
  // by the header term at j + 1 when d <= s + B - 2 (else cross_brute adds them); the
  // rest, with q = sB - d, are
  //   buffer k:        X(f',k) + d + s(f - f'),                   1 <= f' <= min(B-1, f)
  //   buffers j > k:   X(f',j) + d - s f' - qj + s f + qk,        f' + (j-k)B <= f
  // Whole buffers come from ms (per buffer max of X(f',j) - s f'), the partly usable
  // ones flit by flit. Returns 0 when there is no cross term.
  answer cross_rows(worm& w, std::uint64_t f, std::uint32_t k) {
    std::int64_t best = 0;
    const std::int64_t sf = share * as_i64(f);
    const std::uint64_t b = p.buffer;
    if (k <= w.hops) {
      if (f + 1 >= b) {
        const answer a = buffer_max(w, k);
        if (a.missing != nullptr) return a;
        best = std::max(best, ext(w).ms[k] + sf + cd);
      } else {
        for (std::uint64_t fp = f; fp >= 1; --fp) {
          const answer y = stream_leave(w, k, b - fp);
          if (y.missing != nullptr) return y;
          if (y.t == 0) break;
          best = std::max(best, as_i64(y.t) - share * as_i64(fp) + sf + cd);
        }
      }
    }
    const std::uint64_t up = f / b;
    if (up == 0 || k >= w.hops) return {as_cycle(best), nullptr};
    const std::int64_t base = sf + qrow * k + cd;
    // Whole buffers k+1 .. k+up-1 (up to h). The header has left all of them.
    if (up >= 2) {
      const std::uint64_t top = k + up - 1;
      std::int64_t m = std::numeric_limits<std::int64_t>::min();
      general_state& g = ext(w);
      if (top >= w.hops) {
        if (g.msq.empty()) {
          for (std::uint32_t j = 1; j <= w.hops; ++j) {
            const answer a = buffer_max(w, j);
            if (a.missing != nullptr) return a;
          }
          g.msq.resize(w.hops + std::size_t{1});
          for (std::uint32_t j = w.hops; j >= 1; --j) {
            const std::int64_t v = g.ms[j] - qrow * j;
            g.msq[j] = j == w.hops ? v : std::max(v, g.msq[j + 1]);
          }
        }
        m = g.msq[k + 1];
      } else {
        for (auto j = static_cast<std::uint32_t>(k + 1); j <= top; ++j) {
          const answer a = buffer_max(w, j);
          if (a.missing != nullptr) return a;
          m = std::max(m, g.ms[j] - qrow * j);
        }
      }
      best = std::max(best, m + base);
    }
    // Buffer k + up, flits f' <= f mod B.
    if (k + up <= w.hops) {
      const auto j = static_cast<std::uint32_t>(k + up);
      for (std::uint64_t fp = f % b; fp >= 1; --fp) {
        const answer y = stream_leave(w, j, b - fp);
        if (y.missing != nullptr) return y;
        if (y.t == 0) break;
        best = std::max(best, as_i64(y.t) - share * as_i64(fp) - qrow * j + base);
      }
    }
    return {as_cycle(best), nullptr};
  }

  // ms[j] = max_{1<=f'<B} X(f', j) - s f' (very negative when nothing ahead matters).
  answer buffer_max(worm& w, std::uint32_t j) {
    general_state& g = ext(w);
    if (g.ms.empty()) g.ms.assign(w.hops + std::size_t{1}, unknown_max);
    if (g.ms[j] != unknown_max) return {0, nullptr};
    std::int64_t v = std::numeric_limits<std::int64_t>::min() / 4;
    for (std::uint64_t fp = p.buffer - 1; fp >= 1; --fp) {
      const answer y = stream_leave(w, j, p.buffer - fp);
      if (y.missing != nullptr) return y;
      if (y.t == 0) break;
      v = std::max(v, as_i64(y.t) - share * as_i64(fp));
    }
    g.ms[j] = v;
    return {0, nullptr};
  }
  static constexpr std::int64_t unknown_max = std::numeric_limits<std::int64_t>::max();
  static constexpr std::int64_t no_term = std::numeric_limits<std::int64_t>::min() / 4;

  // Cross terms flit by flit and buffer by buffer, where the closed form's few terms do
  // not cover them (docs/wormhole.md, "Cross terms"): on loop rows (1 + d > wt B) every
  // buffer j <= k + c, with c = floor((f - f')/B) back-pressure steps; otherwise
  // (d > s + B - 2) the buffers j < k, with c = 0:
  //   X(f', j) + d + wt(f - f') + (k - j) + c(1 + d - wt B),    1 <= f' <= min(B-1, f).
  // wt is the row's weight per flit (s, or g for the injection row with k = 0). Both
  // cases have B <= d + 1 <= 17, so the loop over f' is short; buffers the header has
  // left come from py, the buffer it is still in flit by flit. Returns 0 when none.
  answer cross_brute(worm& w, std::uint64_t f, std::uint32_t k, std::int64_t wt, bool loop) {
    if (!loop && k == 0) return {0, nullptr};
    const std::uint64_t b = p.buffer;
    const std::int64_t gain = 1 + cd - wt * depth;
    const auto left = static_cast<std::uint32_t>(w.t0.size() - 1);  // buffers < left are left
    std::int64_t best = 0;
    for (std::uint64_t fp = std::min<std::uint64_t>(b - 1, f); fp >= 1; --fp) {
      const std::uint64_t c = loop ? (f - fp) / b : 0;
      const std::uint32_t hi =
          !loop ? k - 1
                : (c >= w.hops - std::min(k, w.hops) ? w.hops : k + static_cast<std::uint32_t>(c));
      std::int64_t m = no_term;
      const std::uint32_t whole_end = hi < left ? hi + 1 : hi;  // buffers [0, whole_end)
      if (whole_end > 0) {
        const answer a = ensure_py(w, whole_end - 1);
        if (a.missing != nullptr) return a;
        m = ext(w).py[(whole_end - 1) * (b - 1) + (fp - 1)];
      }
      if (hi >= left) {
        const answer y = stream_leave(w, hi, b - fp);
        if (y.missing != nullptr) return y;
        if (y.t != 0) m = std::max(m, as_i64(y.t) - hi);
      }
      if (m == no_term) continue;
      best = std::max(best, m + cd + wt * as_i64(f - fp) + k + as_i64(c) * gain);
    }
    return {as_cycle(best), nullptr};
  }

  // py[j][f'] = max over buffers i <= j of X(f', i) - i, filled in buffer order for the
  // buffers the header has left (every flit ahead of it there has left too).
  answer ensure_py(worm& w, std::uint32_t hi) {
    const std::uint64_t width = p.buffer - 1;
    general_state& g = ext(w);
    while (g.py_rows <= hi) {
      const std::uint32_t j = g.py_rows;
      if (g.py.size() < (j + std::uint64_t{1}) * width) g.py.resize((j + 1) * width, no_term);
      bool gone = false;
      for (std::uint64_t fp = width; fp >= 1; --fp) {
        std::int64_t v = no_term;
        if (!gone) {
          const answer y = stream_leave(w, j, p.buffer - fp);
          if (y.missing != nullptr) return y;
          gone = y.t == 0;  // nothing this far ahead: nothing further either
          if (!gone) v = as_i64(y.t) - j;
        }
        const std::int64_t below = j == 0 ? no_term : g.py[(j - 1) * width + (fp - 1)];
        g.py[j * width + (fp - 1)] = std::max(v, below);
      }
      g.py_rows = j + 1;
    }
    return {0, nullptr};
  }

  // T0(f), the crossing of channel 0 by flit f (docs/wormhole.md, "Paced injection").
  // With m = floor(f / B) and q0 = gB - d, when g >= s:
  //   T0(f) = g f + max( max over k' <= min(h+1, m) of t0[k'] - q0 k',
  //                      max over buffers j <= min(h, m), 1 <= f' < B, jB + f' <= f
  //                          of X(f', j) + d - g f' - q0 j ).
  // Buffers below m contribute their whole cross maximum (cxp, computed once per worm);
  // buffer m only its flits f' <= f mod B. When the row loops (q0 <= 0) the paths take
  // every back-pressure step instead: t0[k'] - k' + g f + m(1 - q0) for k' <= min(h+1, m),
  // and cross_brute. When g < s a path gains nothing by stepping down row 0 after its
  // first step up:
  //   T0(f) = max( t0[0] + g f,  X(f',0) + d + g(f - f') for f' <= min(f, B-1),
  //                t(f-B, 1) + d ).
  [[gnu::noinline]] answer paced_row(worm& w, std::uint64_t f) {
    if (gap < share) {
      std::int64_t best = as_i64(w.t0[0]) + gap * as_i64(f);
      for (std::uint64_t fp = w.live_links == 0 ? 0 : std::min<std::uint64_t>(f, p.buffer - 1);
           fp >= 1; --fp) {
        const answer y = stream_leave(w, 0, p.buffer - fp);
        if (y.missing != nullptr) return y;
        if (y.t == 0) break;
        best = std::max(best, as_i64(y.t) + cd + gap * as_i64(f - fp));
      }
      if (f >= p.buffer) {
        const answer a = flit_time(w, f - p.buffer, 1);
        if (a.missing != nullptr) return a;
        best = std::max(best, as_i64(a.t) + cd);
      }
      return {as_cycle(best), nullptr};
    }
    const std::uint64_t m = f / p.buffer;
    const std::uint32_t last = w.hops + 1;
    const std::uint32_t kk = m >= last ? last : static_cast<std::uint32_t>(m);
    if (loop0) {
      const std::int64_t best = w.pre[kk] + gap * as_i64(f) + as_i64(m) * (1 - q0);
      if (w.live_links == 0) return {as_cycle(best), nullptr};
      const answer c = cross_brute(w, f, 0, gap, true);
      if (c.missing != nullptr) return c;
      return {std::max(as_cycle(best), c.t), nullptr};
    }
    std::int64_t best = ext(w).g0[kk];
    if (w.live_links == 0) return {as_cycle(best + gap * as_i64(f)), nullptr};
    if (m >= 1) {
      const std::uint32_t hi = m - 1 >= w.hops ? w.hops : static_cast<std::uint32_t>(m - 1);
      const answer a = ensure_cross(w, hi);
      if (a.missing != nullptr) return a;
      best = std::max(best, ext(w).cxp[hi]);
    }
    if (m <= w.hops) {
      const auto j = static_cast<std::uint32_t>(m);
      // Nearest flit ahead first; once one is missing from the stream so are the rest.
      for (std::uint64_t fp = f % p.buffer; fp >= 1; --fp) {
        const answer y = stream_leave(w, j, p.buffer - fp);
        if (y.missing != nullptr) return y;
        if (y.t == 0) break;
        best = std::max(best, as_i64(y.t) + cd - gap * as_i64(fp) - q0 * j);
      }
    }
    return {as_cycle(best + gap * as_i64(f)), nullptr};
  }

  // Extends cxp through buffer hi (the header has left buffers 0..hi, so every flit that
  // was ahead of it there has left too).
  answer ensure_cross(worm& w, std::uint32_t hi) {
    general_state& g = ext(w);
    while (g.cxp.size() <= hi) {
      const auto j = static_cast<std::uint32_t>(g.cxp.size());
      std::int64_t v = std::numeric_limits<std::int64_t>::min();
      for (std::uint64_t fp = p.buffer - 1; fp >= 1; --fp) {
        const answer y = stream_leave(w, j, p.buffer - fp);
        if (y.missing != nullptr) return y;
        if (y.t == 0) break;
        v = std::max(v, as_i64(y.t) + cd - gap * as_i64(fp) - q0 * j);
      }
      g.cxp.push_back(j == 0 ? v : std::max(v, g.cxp.back()));
    }
    return {0, nullptr};
  }

  // The packet q just ahead of w's header in buffer k (q's buffer out - 1) left it early
  // enough that nothing ahead can matter any more: its tail left by t0[k] + w(B - 1) - d.
  // The B - 1 flits ahead leave at least one cycle apart, and at least s apart when they
  // all belong to q, so every X(f', k) + d <= t0[k] + w f': each cross term is at most the
  // path that steps down row k to the header instead, which weighs s per flit on a link
  // buffer and g on the injection buffer. A packet shorter than B also reads the flit
  // B - F ahead for its credit, which only the plain bound (w = 1) covers
  // (docs/wormhole.md, "Cross terms").
  [[nodiscard]] bool ahead_gone(const worm& w, std::uint32_t k, const worm& q,
                                std::uint32_t out) const {
    if (!general) return q.tail[out] + 1 + as_cycle(cd) <= w.t0[k] + p.buffer;
    const std::int64_t spread = w.flits >= p.buffer && q.flits + 1 >= p.buffer
                                    ? (k == 0 ? std::min(gap, share) : share)
                                    : 1;
    return q.tail[out] + as_cycle(cd) <= w.t0[k] + as_cycle(spread * (depth - 1));
  }

  // When the flit d places ahead of w's header in buffer k left that buffer; 0 when it
  // cannot constrain anything (it left early enough, or there is no such flit).
  answer stream_leave(worm& w, std::uint32_t k, std::uint64_t d) {
    ahead_link* a = &w.ahead[k];
    if (a->w) {
      worm& q = *a->w;
      const std::uint32_t out = a->k + 1;
      // Everything ahead left early enough: every term it could add is dominated
      // (docs/wormhole.md, "Cross terms"). Forget it once the header itself has left.
      if (q.tail_done > out && ahead_gone(w, k, q, out)) {
        if (w.t0.size() > k + std::size_t{1}) {
          a->w = nullptr;
          --w.live_links;
        }
        return {0, nullptr};
      }
    }
    while (a->w) {
      worm& q = *a->w;
      if (d <= q.flits) return leave_time(q, a->k, d);
      d -= q.flits;
      a = &q.ahead[a->k];
    }
    return {0, nullptr};
  }

  // When flit F - d of q (1 <= d <= min(F, B)) left q's buffer k, memoized: a table
  // when it is small, a map otherwise (large B).
  [[gnu::noinline]] answer leave_time(worm& q, std::uint32_t k, std::uint64_t d) {
    // With g = s = 1 a query asks for one cross term, so nothing is asked twice.
    if (!general) return flit_time(q, q.flits - d, k + 1);
    const std::uint64_t width = std::min<std::uint64_t>(q.flits, p.buffer);
    const std::uint64_t at = k * width + (d - 1);
    const bool table = (q.hops + std::uint64_t{1}) * width <= memo_table;
    {
      general_state& g = ext(q);
      if (table) {
        if (g.memo.empty()) g.memo.assign((q.hops + std::size_t{1}) * width, 0);
        if (g.memo[at] != 0) return {g.memo[at], nullptr};
      } else if (g.memo_far) {
        if (const auto it = g.memo_far->find(at); it != g.memo_far->end())
          return {it->second, nullptr};
      }
    }
    const answer a = flit_time(q, q.flits - d, k + 1);
    if (a.missing == nullptr) {
      general_state& g = ext(q);  // the query may have allocated q's state
      if (table) {
        g.memo[at] = a.t;
      } else {
        if (!g.memo_far)
          g.memo_far = std::make_unique<std::unordered_map<std::uint64_t, cycle_t>>();
        g.memo_far->emplace(at, a.t);
      }
    }
    return a;
  }
  static constexpr std::uint64_t memo_table = 1024;

  // Buffer k of w frees the slot the next header needs when flit S+F-B of the buffer's
  // stream leaves it (S = w's first flit there).
  answer credit_time(worm& w, std::uint32_t k) {
    if (w.flits >= p.buffer) return flit_time(w, w.flits - p.buffer, k + 1);
    if (w.t0.size() <= k) return {0, &w};  // the packets ahead are known once w is in
    return stream_leave(w, k, p.buffer - w.flits);
  }

  // ---- progress of one worm ----

  void wait_on(worm& m, worm& w) {
    if (m.waiters.empty() || m.waiters.back() != &w) m.waiters.push_back(&w);
  }

  void wake(worm& m) {
    retry.insert(retry.end(), m.waiters.begin(), m.waiters.end());
    m.waiters.clear();
  }

  void drain_retry() {
    while (!retry.empty()) {
      worm* x = retry.back();
      retry.pop_back();
      if (x->finished) continue;
      if (x->front_wait) resolve_front(*x);
      progress(*x);
    }
  }

  // Computes every tail and credit time that has become known, in path order, and
  // schedules the channel releases they complete. Why a release is never in the past
  // when it becomes known: every term of the closed form is a header crossing plus a
  // non-negative weight (s f + k - k', s(f - B(k' - k)) with k' <= k + floor(f/B), or the
  // paced row's g(f - k'B) with k'B <= f), and a cross term is another packet's flit
  // time of the same shape plus a non-negative weight. A value becomes computable when
  // the last header it needs is granted, which is now, so it is >= now. release()
  // checks it (docs/wormhole.md, "Events and laziness").
  void progress(worm& w) {
    if (w.finished) return;
    const std::uint32_t last = w.hops + 1;
    std::array<worm*, 2> missing{};
    bool moved = false;
    while (w.tail_done <= last) {
      const answer a = flit_time(w, w.flits - 1, w.tail_done);
      if (a.missing != nullptr) {
        missing[0] = a.missing;
        break;
      }
      w.tail[w.tail_done++] = a.t;
      on_tail(w, w.tail_done - 1);
      moved = true;
    }
    while (w.credit_done <= w.hops) {
      const answer a = credit_time(w, w.credit_done);
      if (a.missing != nullptr) {
        missing[1] = a.missing;
        break;
      }
      w.credit[w.credit_done++] = a.t;
      moved = true;
    }
    while (w.released < w.tail_done && (w.released == last || w.released < w.credit_done))
      release(w, w.released++);
    for (worm* m : missing)
      if (m != nullptr && m != &w) wait_on(*m, w);
    if (moved) wake(w);
    if (w.released == last + 1) finish(w);
  }

  // A VC of a link or the ejection carries one flit per s cycles, across packets too.
  void release(worm& w, std::uint32_t k) {
    channel& c = ch[w.chan[k]];
    cycle_t avail = w.tail[k] + (k == 0 ? 1 : static_cast<cycle_t>(share));
    // The slot the next header needs frees at credit[k] (0: no flit holds it); its
    // sender may use it d cycles later. The ejection channel has no buffer.
    if (k <= w.hops && w.credit[k] != 0) avail = std::max(avail, w.credit[k] + as_cycle(cd));
    if (avail < now_) throw std::logic_error("wormhole engine: a channel release fell in the past");
    c.busy += w.tail[k] - w.t0[k] + 1;
    if (w.chan[k] < 4 * tiles) {
      const link_ends e = endpoints(fab, link_id{w.chan[k]});
      owner.note_link(e.from.value(), e.to.value(), w.chan[k] % 4, w.t0[k], w.tail[k] + 1,
                      msgs[w.msg].x);
    }
    events.push(avail, {ev_kind::free, w.vc[k], w.chan[k], nullptr});
  }

  void on_tail(worm& w, std::uint32_t k) {
    const cycle_t t = w.tail[k];
    if (k == 0) {
      message& m = msgs[w.msg];
      if (!w.last) {
        // The NIC paces a message's flits, across its packets too.
        worm* next = make_worm(w.msg);
        events.push(t + p.inject_gap, {ev_kind::ready, 0, 0, next});
      } else {
        nic& n = nics[m.x.src];
        n.busy = false;
        n.free_at = t + 1;
        if (!n.queue.empty()) schedule_nic(m.x.src, n.free_at);
        if (duplex.holds()) {
          m.injected = true;
          if (n.tx_slot == w.msg) {
            n.tx.end = t + 1;
            std::vector<worm*> h;
            h.swap(n.held);
            for (worm* x : h)
              events.push(t + 1, {ev_kind::ready, 0, 0, x});
          }
        } else if (duplex.on()) {
          n.tx.end = t + 1;
          for (const std::uint32_t slot : n.after_tx) {
            message& r = msgs[slot];
            r.tx_end = n.tx.end;
            if (r.tail_known) deliver_serial(slot);
          }
          n.after_tx.clear();
        }
      }
    }
    if (k == w.hops + 1 && nvc == 1) {
      if (w.last) deliver_at(w.msg, t);
    } else if (k == w.hops + 1) {
      // On different VCs a later packet can arrive first: deliver after the latest tail.
      message& m = msgs[w.msg];
      m.latest = std::max(m.latest, t);
      if (--m.tails_left == 0) deliver_at(w.msg, m.latest);
    }
  }

  // The last tail of message `slot` crosses the ejection at t.
  void deliver_at(std::uint32_t slot, cycle_t t) {
    message& m = msgs[slot];
    if (!m.serial) {
      events.push(t + 1, {ev_kind::deliver, 0, slot, nullptr});
      return;
    }
    m.tail_known = true;
    m.rx_tail = t;
    if (m.tx_end != never) deliver_serial(slot);
  }

  // A serial receive is carried out after its tile's transmit, at its own length.
  void deliver_serial(std::uint32_t slot) {
    const message& m = msgs[slot];
    const cycle_t end = duplex_policy::serial_end(m.rx_tail + 1, m.tx_end, m.rx_tail - m.rx_start);
    events.push(std::max(end, now_), {ev_kind::deliver, 0, slot, nullptr});
  }

  // Half duplex: a transmit to `peer` starting at `now` is late against one of the
  // receives under way at its tile.
  [[nodiscard]] bool must_wait(const nic& n, std::uint32_t peer, cycle_t now) const {
    for (const std::uint32_t slot : n.rx_active) {
      const message& r = msgs[slot];
      if (duplex.late(r.rx_start, r.x.src, now, peer)) return true;
    }
    return false;
  }

  // eager_bytes: x goes eagerly.
  [[nodiscard]] bool eager(const xfer& x) const {
    return p.eager_bytes != 0 && !x.control && x.bytes <= p.eager_bytes;
  }

  // duplex_hold: the tile whose stream a first header of m must wait for at `now` before
  // it enters the ejection (none: it may enter): m's transmit is late against a receive
  // at its source, or its receive against the transmit at its destination.
  [[nodiscard]] std::uint32_t hold_blocker(const message& m, cycle_t now) const {
    if (must_wait(nics[m.x.src], m.x.dst, now)) return m.x.src;
    if (duplex.late(nics[m.x.dst].tx, now, m.x.src)) return m.x.dst;
    return none;
  }

  // duplex_hold: a stream of `tile` ended; the headers held for it ask again.
  void release_held(std::uint32_t tile, cycle_t now) {
    nic& n = nics[tile];
    if (n.held.empty()) return;
    std::vector<worm*> h;
    h.swap(n.held);
    for (worm* w : h)
      request(*w, now);
  }

  void finish(worm& w) {
    w.finished = true;
    const std::size_t i = w.active_index;
    active[i] = active.back();
    active[i]->active_index = i;
    active.pop_back();
  }

  // The header entered buffer k at t0[k]; it may ask for channel k+1 once its r cycles
  // are over and the packet ahead of it has left the buffer (FIFO order).
  void resolve_front(worm& w) {
    const std::uint32_t k = static_cast<std::uint32_t>(w.t0.size() - 1);
    ahead_link& a = w.ahead[k];
    cycle_t e = w.t0[k] + 1 + p.router_delay;
    if (a.w) {
      worm& q = *a.w;
      const std::uint32_t out = a.k + 1;
      if (q.tail_done <= out) {
        w.front_wait = true;
        wait_on(q, w);
        return;
      }
      e = std::max(e, q.tail[out] + 1);
      if (ahead_gone(w, k, q, out)) {
        a.w = nullptr;
        --w.live_links;
      }
    }
    w.front_wait = false;
    events.push(e, {ev_kind::ready, 0, 0, &w});
  }

  // ---- packets and messages ----

  worm* make_worm(std::uint32_t slot) {
    message& m = msgs[slot];
    if (spare.empty()) {
      pool.push_back(std::make_unique<worm>());
    } else {
      pool.push_back(std::move(spare.back()));
      spare.pop_back();
      pool.back()->recycle();
    }
    worm* w = pool.back().get();
    w->msg = slot;
    w->index = m.created++;
    w->last = m.created == m.packets;
    if (m.x.control) {
      w->flits = 1;
    } else {
      const std::uint64_t done = w->index * p.packet_bytes;
      const std::uint64_t payload =
          p.packet_bytes == 0 ? m.x.bytes : std::min(p.packet_bytes, m.x.bytes - done);
      w->flits = packet_flits(payload, p.width);
    }
    w->chan.push_back(inject_id(m.x.src));
    for_each_hop(fab, tile_id{m.x.src}, tile_id{m.x.dst},
                 [&](link_id l) { w->chan.push_back(l.value()); });
    w->chan.push_back(eject_id(m.x.dst));
    w->hops = static_cast<std::uint32_t>(w->chan.size() - 2);
    const std::size_t n = w->chan.size();
    w->vc.resize(n);
    w->t0.reserve(n);
    w->pre.reserve(n);
    if (gap > 1) ext(*w).g0.reserve(n);
    w->ahead.resize(n - 1);
    w->tail.resize(n);
    w->credit.resize(n - 1);
    w->reached.resize(n - 1);
    w->active_index = active.size();
    active.push_back(w);
    m.current = w;
    return w;
  }

  void schedule_nic(std::uint32_t tile, cycle_t t) {
    nic& n = nics[tile];
    if (n.scheduled) return;
    n.scheduled = true;
    events.push(t, {ev_kind::nic, 0, tile, nullptr});
  }

  void start_next(std::uint32_t tile, cycle_t now) {
    nic& n = nics[tile];
    n.scheduled = false;
    if (n.busy || n.queue.empty()) return;
    const std::uint32_t slot = n.queue.front();
    n.queue.pop_front();
    n.busy = true;
    message& m = msgs[slot];
    m.started = true;
    if (owner.listener_ != nullptr) owner.listener_->started(m.x.id, now);
    worm* w = make_worm(slot);
    const cycle_t alpha = eager(m.x) ? p.alpha_eager : p.alpha;
    if (alpha == 0) {
      request(*w, now);  // competes in this round, like a header that became ready now
    } else {
      events.push(now + alpha, {ev_kind::ready, 0, 0, w});
    }
  }

  // ---- requests and grants ----

  void touch(std::uint32_t c) {
    if (ch[c].touched) return;
    ch[c].touched = true;
    touched.push_back(c);
  }

  [[gnu::always_inline]] void request(worm& w, cycle_t now) {
    const std::size_t j = w.t0.size();
    if (duplex.on() && j == 0 && w.index == 0 && !msgs[w.msg].x.control) {
      // A transmit that starts more than the window after a receive waits for it.
      const message& m = msgs[w.msg];
      nic& n = nics[m.x.src];
      if (must_wait(n, m.x.dst, now)) {
        n.parked = &w;
        return;
      }
    }
    if (duplex.holds() && j == w.hops + 1 && w.index == 0 && !msgs[w.msg].x.control) {
      message& m = msgs[w.msg];
      const std::uint32_t b = hold_blocker(m, now);
      m.held_by = b;
      if (b != none) {
        const nic& n = nics[b];
        if (b == m.x.dst && n.tx.end != never)
          events.push(n.tx.end, {ev_kind::ready, 0, 0, &w});  // the transmit's end is known
        else
          nics[b].held.push_back(&w);
        return;
      }
    }
    const std::uint32_t c = w.chan[j];
    const std::uint32_t in =
        j == 0 ? local_input * nvc : input_of(w.chan[j - 1]) * nvc + w.vc[j - 1];
    channel& x = ch[c];
    worm*& slot = req_slots[std::size_t{c} * n_inputs * nvc + in];
    if (slot != nullptr) throw std::logic_error("wormhole engine: two headers at one input");
    slot = &w;
    ++x.nreq;
    x.max_queue = std::max(x.max_queue, x.nreq);
    w.ready_since = now;
    touch(c);
  }

  // Round robin over the 5 x V input VCs from the pointer; the pointer then moves just
  // past the input VC granted.
  worm* pick(std::uint32_t c) {
    channel& x = ch[c];
    const std::uint32_t n = n_inputs * nvc;
    worm** req = &req_slots[std::size_t{c} * n];
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t in = x.rr + i < n ? x.rr + i : x.rr + i - n;
      if (req[in] == nullptr) continue;
      worm* w = req[in];
      req[in] = nullptr;
      --x.nreq;
      x.rr = in + 1 < n ? in + 1 : 0;
      return w;
    }
    return nullptr;
  }

  // w's header crosses its next channel at `now` on the lowest free VC.
  void grant(worm& w, cycle_t now) {
    const std::uint32_t k = static_cast<std::uint32_t>(w.t0.size());
    channel& x = ch[w.chan[k]];
    const auto v = static_cast<std::uint32_t>(std::countr_zero(x.free_mask));
    x.free_mask &= ~(std::uint32_t{1} << v);
    x.granted_at = now;
    w.vc[k] = static_cast<std::uint8_t>(v);
    ++x.packets;
    if (now > w.ready_since) {
      const cycle_t waited = now - w.ready_since;
      ++cont.blocked;
      cont.blocked_cycles += waited;
      cont.max_blocked = std::max(cont.max_blocked, waited);
    }
    if (duplex.on() && w.index == 0 && !msgs[w.msg].x.control && (k == 0 || k == w.hops + 1))
      half_duplex_grant(w, k, now);
    w.t0.push_back(now);
    const std::int64_t here = as_i64(now) - k;
    w.pre.push_back(k == 0 ? here : std::max(w.pre.back(), here));
    if (gap > 1) {
      const std::int64_t paced = as_i64(now) - q0 * k;
      ext(w).g0.push_back(k == 0 ? paced : std::max(ext(w).g0.back(), paced));
    }
    if (k == w.hops + 1) {
      w.suf.resize(w.t0.size());
      for (std::uint32_t j = k + 1; j-- > 0;) {
        const std::int64_t b = as_i64(w.t0[j]) - qrow * j;
        w.suf[j] = j == k ? b : std::max(b, w.suf[j + 1]);
      }
    }
    if (k <= w.hops) {
      ahead_link& last = vc_last[std::size_t{w.chan[k]} * nvc + v];
      w.ahead[k] = last;
      if (last.w != nullptr) ++w.live_links;
      last = {&w, k, 0};
      resolve_front(w);
    }
    progress(w);
    wake(w);
  }

  // A message's first header enters the injection (a transmit starts) or the ejection
  // (a receive starts) at `now`.
  void half_duplex_grant(const worm& w, std::uint32_t k, cycle_t now) {
    message& m = msgs[w.msg];
    if (duplex.holds()) {
      if (k == 0) return;
      m.receiving = true;
      m.rx_start = now;
      nics[m.x.dst].rx_active.push_back(w.msg);
      nic& s = nics[m.x.src];
      if (!m.injected) {
        s.tx = {now, never, m.x.dst};
        s.tx_slot = w.msg;
      }
      return;
    }
    if (k == 0) {
      nics[m.x.src].tx = {now, never, m.x.dst};
      return;
    }
    nic& n = nics[m.x.dst];
    m.receiving = true;
    m.rx_start = now;
    if (duplex.late(n.tx, now, m.x.src)) {
      m.serial = true;
      if (n.tx.end != never) {
        m.tx_end = n.tx.end;
      } else {
        n.after_tx.push_back(w.msg);
      }
    }
    n.rx_active.push_back(w.msg);
  }

  // At most one header crosses a physical channel per cycle (it is one flit); with VCs
  // left and headers waiting, the channel is looked at again next cycle.
  void arbitrate(cycle_t now) {
    now_ = now;
    for (std::uint32_t tile : starting)
      start_next(tile, now);
    starting.clear();
    for (std::size_t i = 0; i < touched.size(); ++i) {
      const std::uint32_t c = touched[i];
      channel& x = ch[c];
      x.touched = false;
      if (x.nreq == 0 || x.free_mask == 0) continue;
      if (x.granted_at != now) {
        grant(*pick(c), now);
        drain_retry();
      }
      if (x.nreq > 0 && x.free_mask != 0 && !x.retouch) {
        x.retouch = true;
        events.push(now + 1, {ev_kind::touch, 0, c, nullptr});
      }
    }
    touched.clear();
  }

  // ---- collection (docs/wormhole.md, "memory") ----
  //
  // Links between packets can form cycles, so packets are pooled and collected by
  // marking. A query can reach a finished packet only through a link into one of its
  // buffers, and then asks only about its last B flits leaving that buffer: that needs
  // the link behind it in the same buffer when the packet is shorter than B, and the
  // links at the buffers where those flits' one cross term falls. Everything else a
  // finished packet points at is dropped, which keeps what survives small.

  struct visit {
    worm* w;
    std::uint32_t k;  // buffer it was reached through; all_links for a root
  };
  static constexpr std::uint32_t all_links = std::numeric_limits<std::uint32_t>::max();

  void follow(ahead_link& a, std::vector<visit>& stack) const {
    if (a.w == nullptr) return;
    a.kept = epoch;
    stack.push_back({a.w, a.k});
  }

  void mark(std::vector<visit>& stack) {
    while (!stack.empty()) {
      const visit v = stack.back();
      stack.pop_back();
      worm& w = *v.w;
      w.live = epoch;
      if (v.k == all_links || !w.finished) {
        if (w.root == epoch) continue;
        w.root = epoch;
        for (ahead_link& a : w.ahead)
          follow(a, stack);
        for (worm* x : w.waiters)
          x->live = epoch;  // may be retried; finished ones are skipped then
        continue;
      }
      if (w.reached[v.k] == epoch) continue;
      w.reached[v.k] = epoch;
      if (w.flits < p.buffer) follow(w.ahead[v.k], stack);
      // Flits j in [F-B, F-1] leaving buffer k have their cross term at buffer
      // k + 1 + floor(j / B): at most two buffers.
      const std::uint64_t lo = w.flits > p.buffer ? w.flits - p.buffer : 0;
      for (std::uint64_t q = lo / p.buffer; q <= (w.flits - 1) / p.buffer; ++q) {
        if (v.k + 1 + q > w.hops) break;
        follow(w.ahead[v.k + 1 + q], stack);
      }
      // VC share s > 1: a flit j < B - 1 reads buffer k + 1 flit by flit (for j >= B - 1
      // its maximum is in ms already).
      if (share > 1 && w.flits < 2 * std::uint64_t{p.buffer} - 1 && v.k + 1 <= w.hops)
        follow(w.ahead[v.k + 1], stack);
      // Paced injection: T0(j) of those flits reads buffers floor(j / B) flit by flit (the
      // buffers below are in cxp already).
      if (gap > share) {
        const std::uint64_t m = (w.flits - 1) / p.buffer;
        for (std::uint64_t j = lo / p.buffer; j <= m && j <= w.hops; ++j)
          follow(w.ahead[j], stack);
      }
    }
  }

  void collect() {
    ++epoch;
    std::vector<visit> stack;
    for (worm* w : active)
      stack.push_back({w, all_links});
    for (ahead_link& a : vc_last)
      follow(a, stack);
    mark(stack);
    for (std::size_t i = 0; i < pool.size();) {
      worm& w = *pool[i];
      if (w.live != epoch) {
        if (msgs[w.msg].current == &w) msgs[w.msg].current = nullptr;
        spare.push_back(std::move(pool[i]));
        pool[i] = std::move(pool.back());
        pool.pop_back();
        continue;
      }
      if (w.finished) {
        for (ahead_link& a : w.ahead)
          if (a.kept != epoch) a.w = nullptr;
        w.waiters.clear();  // a finished packet never progresses again
      }
      ++i;
    }
    collect_at = std::max<std::size_t>(1024, 2 * pool.size());
  }

  void fire(cycle_t now) {
    now_ = now;
    if (pool.size() >= collect_at) collect();
    event e;
    while (events.pop_due(now, e)) {
      switch (e.kind) {
        case ev_kind::free:
          ch[e.id].free_mask |= std::uint32_t{1} << e.vc;
          if (ch[e.id].nreq > 0) touch(e.id);
          break;
        case ev_kind::touch:
          ch[e.id].retouch = false;
          if (ch[e.id].nreq > 0) touch(e.id);
          break;
        case ev_kind::ready:
          request(*e.w, now);
          break;
        case ev_kind::nic:
          start_next(e.id, now);
          break;
        case ev_kind::deliver: {
          message& m = msgs[e.id];
          const std::uint64_t id = m.x.id;
          if (m.receiving && !m.copied) receive_done(m.x.dst, e.id, now);
          if (m.copy != 0 && !m.copied) {
            m.copied = true;  // the NIC is done; the copy out of the system buffer follows
            events.push(now + m.copy, {ev_kind::deliver, 0, e.id, nullptr});
            break;
          }
          m.live = false;
          m.current = nullptr;
          free_msgs.push_back(e.id);
          --live_msgs;
          if (owner.listener_ != nullptr) owner.listener_->delivered(id, now);
          break;
        }
      }
      drain_retry();
    }
  }

  // Half duplex: a receive at `tile` completed; a transmit parked behind the receives
  // goes once none is left.
  void receive_done(std::uint32_t tile, std::uint32_t slot, cycle_t now) {
    nic& n = nics[tile];
    std::erase(n.rx_active, slot);
    if (duplex.holds()) release_held(tile, now);
    if (n.parked == nullptr || must_wait(n, msgs[n.parked->msg].x.dst, now)) return;
    worm* w = n.parked;
    n.parked = nullptr;
    request(*w, now);
  }

  void inject(const xfer& x, cycle_t now) {
    if (x.src >= tiles || x.dst >= tiles) {
      throw input_error("wormhole: message " + std::to_string(x.id) + " tile " +
                        std::to_string(std::max(x.src, x.dst)) + " is outside " + fabric_spec(fab));
    }
    if (x.bytes > max_message_bytes) {
      throw input_error("wormhole: message " + std::to_string(x.id) + " of " +
                        std::to_string(x.bytes) + " bytes exceeds 2^50");
    }
    std::uint32_t slot = 0;
    if (!free_msgs.empty()) {
      slot = free_msgs.back();
      free_msgs.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(msgs.size());
      msgs.emplace_back();
    }
    message& m = msgs[slot];
    m = message{};
    m.x = x;
    m.live = true;
    if (!x.control && p.packet_bytes != 0 && x.bytes > p.packet_bytes) {
      m.packets = x.bytes / p.packet_bytes + (x.bytes % p.packet_bytes != 0 ? 1 : 0);
    }
    m.tails_left = m.packets;
    if (eager(x) && p.eager_copy != 0) {
      const std::uint64_t c = x.bytes * p.eager_copy;  // bytes <= 2^40, eager_copy < 2^20
      m.copy = c / 1024 + (c % 1024 != 0 ? 1 : 0);
    }
    ++live_msgs;
    nic& n = nics[x.src];
    n.queue.push_back(slot);
    if (n.busy || n.scheduled) return;
    n.scheduled = true;
    if (n.free_at <= now) {
      // Started by arbitrate(now) before it grants, so the header competes in the same
      // round as everything else ready at now (with VCs, which VC it gets depends on it).
      starting.push_back(x.src);
    } else {
      events.push(n.free_at, {ev_kind::nic, 0, x.src, nullptr});
    }
  }

  [[nodiscard]] std::string describe(std::uint32_t c) const {
    if (c >= 5 * tiles) return "eject at tile " + std::to_string(c - 5 * tiles);
    if (c >= 4 * tiles) return "inject at tile " + std::to_string(c - 4 * tiles);
    static constexpr std::array<const char*, 4> names{"E", "W", "S", "N"};
    const link_ends e = endpoints(fab, link_id{c});
    return "link " + std::to_string(e.from.value()) + "->" + std::to_string(e.to.value()) + " " +
           names[c % 4];
  }

  [[nodiscard]] std::vector<link_stat> links() const {
    static constexpr std::array<const char*, 4> names{"E", "W", "S", "N"};
    std::vector<link_stat> out;
    for (std::uint32_t c = 0; c < ch.size(); ++c) {
      const channel& x = ch[c];
      if (x.packets == 0) continue;
      link_stat s;
      if (c < 4 * tiles) {
        const link_ends e = endpoints(fab, link_id{c});
        s.from = e.from.value();
        s.to = e.to.value();
        s.name = names[c % 4];
      } else {
        s.from = s.to = c % tiles;
        s.name = c < 5 * tiles ? "inject" : "eject";
      }
      s.busy = x.busy;
      s.messages = x.packets;
      s.max_queue = x.max_queue;
      out.push_back(std::move(s));
    }
    return out;
  }

  [[nodiscard]] std::vector<std::string> stuck() const {
    std::vector<std::string> out;
    for (const message& m : msgs) {
      if (!m.live) continue;
      std::string s = "message " + std::to_string(m.x.id) + " (" + std::to_string(m.x.src) + "->" +
                      std::to_string(m.x.dst) + ")";
      if (!m.started) {
        s += " queued at the NIC of tile " + std::to_string(m.x.src);
      } else if (m.current == nullptr || m.current->t0.size() == m.current->chan.size()) {
        s += " is draining into tile " + std::to_string(m.x.dst);
      } else {
        const worm& w = *m.current;
        if (nics[m.x.src].parked == &w) {
          s += " waits for tile " + std::to_string(m.x.src) + " to finish receiving (half duplex)";
        } else if (m.held_by != none && w.index == 0 && w.t0.size() == w.hops + 1u) {
          s += " waits at the ejection for tile " + std::to_string(m.held_by) + " to finish " +
               (m.held_by == m.x.src ? "receiving" : "transmitting") + " (half duplex)";
        } else {
          s += " packet " + std::to_string(w.index) + " waits for " + describe(w.chan[w.t0.size()]);
        }
      }
      out.push_back(std::move(s));
    }
    return out;
  }
};

wormhole_engine::wormhole_engine(const fabric& f, const wormhole_params& p) {
  if (f.kind != fabric_kind::mesh) {
    throw input_error("wormhole: fabric " + fabric_spec(f) +
                      " is not a mesh (the wormhole engine models mesh:RxC only)");
  }
  if (f.tiles() == 0 || f.tiles() > max_tiles) {
    throw input_error("wormhole: fabric " + fabric_spec(f) + " has no tiles or too many");
  }
  validate(p);
  impl_ = std::make_unique<impl>(*this, f, p);
}

wormhole_engine::~wormhole_engine() = default;

void wormhole_engine::inject(const xfer& x, cycle_t now) {
  impl_->inject(x, now);
}
void wormhole_engine::arbitrate(cycle_t now) {
  impl_->arbitrate(now);
}
cycle_t wormhole_engine::next_event() const {
  return impl_->events.next();
}
void wormhole_engine::fire(cycle_t now) {
  impl_->fire(now);
}
bool wormhole_engine::idle() const {
  return impl_->live_msgs == 0 && impl_->events.empty() && impl_->active.empty();
}
std::vector<link_stat> wormhole_engine::links() const {
  return impl_->links();
}
contention_stat wormhole_engine::contention() const {
  return impl_->cont;
}
std::vector<std::string> wormhole_engine::stuck() const {
  return impl_->stuck();
}
const wormhole_params& wormhole_engine::params() const {
  return impl_->p;
}

}  // namespace tessera::net
