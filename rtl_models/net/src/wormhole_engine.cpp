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
#include "tessera/net/wormhole_engine.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>

#include "tessera/runtime/routing.hpp"
#include "tessera/schedule/errors.hpp"

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
  void push(cycle_t t, const Payload& p) {
    if (t < base_) throw std::logic_error("wormhole engine: an event was scheduled in the past");
    ++count_;
    if (t - base_ < span) {
      put(t, p);
    } else {
      far_.push(item{t, seq_++, p});
    }
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] cycle_t next() const {
    if (count_ == 0) return never;
    const std::size_t start = base_ & mask;
    for (std::size_t i = 0; i < words; ++i) {
      const std::size_t w = (start / 64 + i) % words;
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
    bucket& b = buckets_[now & mask];
    if (b.head == b.items.size()) return false;
    out = b.items[b.head++];
    --count_;
    if (b.head == b.items.size()) {
      b.items.clear();
      b.head = 0;
      used_[(now & mask) / 64] &= ~(std::uint64_t{1} << ((now & mask) % 64));
    }
    return true;
  }

 private:
  static constexpr std::size_t span = 16384;
  static constexpr std::size_t mask = span - 1;
  static constexpr std::size_t words = span / 64;
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
    return base_ + ((slot - (base_ & mask)) & mask);
  }
  void put(cycle_t t, const Payload& p) {
    const std::size_t slot = t & mask;
    buckets_[slot].items.push_back(p);
    used_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  // Moves the window start to `now`; everything before it has been popped.
  void slide(cycle_t now) {
    if (now <= base_) return;
    if (next() < now) throw std::logic_error("wormhole engine: fired past a pending event");
    base_ = now;
    while (!far_.empty() && far_.top().t - base_ < span) {
      put(far_.top().t, far_.top().p);
      far_.pop();
    }
  }

  cycle_t base_{0};
  std::size_t count_{0};
  std::uint64_t seq_{0};
  std::vector<bucket> buckets_ = std::vector<bucket>(span);
  std::vector<std::uint64_t> used_ = std::vector<std::uint64_t>(words, 0);
  std::priority_queue<item, std::vector<item>, std::greater<>> far_;
};

}  // namespace

void validate(const wormhole_params& p) {
  check_range("width", p.width, 1, 4096);
  check_range("buffer", p.buffer, 1, 65536);
  check_range("router_delay", p.router_delay, 0, 1'000'000);
  check_range("alpha", p.alpha, 0, 1'000'000'000'000);
  check_range("packet_bytes", p.packet_bytes, 0, max_message_bytes);
}

std::uint64_t packet_flits(std::uint64_t payload, std::uint32_t width) {
  const std::uint64_t n = payload / width + (payload % width != 0 ? 1 : 0);
  return std::max<std::uint64_t>(1, n);
}

struct wormhole_engine::impl {
  struct worm;

  // The packet whose flits are just ahead of a header in one buffer, and the path
  // index at which that packet entered the buffer.
  struct ahead_link {
    worm* w{nullptr};
    std::uint32_t k{0};
    std::uint64_t kept{0};  // collection epoch that found it still usable
  };

  struct worm {
    std::uint32_t msg{0};
    std::uint64_t index{0};           // packet number within its message
    bool last{false};                 // last packet of its message
    std::uint64_t flits{1};           // F
    std::uint32_t hops{0};            // h
    std::vector<std::uint32_t> chan;  // h + 2 channel ids
    std::vector<cycle_t> t0;          // header crossing of channel k, as granted
    std::vector<std::int64_t> pre;    // pre[k] = max_{j<=k} t0[j] - j
    std::vector<std::int64_t> suf;    // suf[k] = max_{j>=k} t0[j] - B j, once t0 is complete
    std::vector<ahead_link> ahead;    // per buffer 0..h; reset once it cannot matter
    std::vector<cycle_t> tail;        // tail crossing of channel k, first tail_done known
    std::vector<cycle_t> credit;      // buffer k: when its slot for the next header frees
    std::uint32_t tail_done{0};
    std::uint32_t credit_done{0};
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
      t0.clear();
      pre.clear();
      suf.clear();
      ahead.clear();
      tail.clear();
      credit.clear();
      waiters.clear();
      reached.clear();
      tail_done = credit_done = released = 0;
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

  enum class ev_kind : std::uint8_t { free, ready, nic, deliver };
  struct event {
    ev_kind kind{ev_kind::free};
    std::uint32_t id{0};  // channel, tile or message slot
    worm* w{nullptr};     // ready: the requesting header (alive: it is still active)
  };

  struct channel {
    std::array<worm*, n_inputs> req{};  // the header at the front of each input, if any
    std::uint32_t nreq{0};
    std::uint32_t rr{0};  // next input to be scanned first
    bool held{false};     // granted and not yet available to the next header
    bool touched{false};
    ahead_link last;  // newest packet to enter the buffer at this channel's end
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
    worm* current{nullptr};  // newest packet, for stuck()
  };

  struct nic {
    std::deque<std::uint32_t> queue;  // message slots, posting order
    bool busy{false};                 // a message is injecting and its last tail time is not known
    bool scheduled{false};            // a nic event is pending
    cycle_t free_at{0};
  };

  wormhole_engine& owner;
  fabric fab;
  wormhole_params p;
  std::uint32_t tiles;
  std::int64_t depth;  // B, signed for the closed form's negative terms
  std::vector<channel> ch;
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
  window_queue<event> events;
  contention_stat cont{};
  cycle_t now_{0};

  impl(wormhole_engine& o, const fabric& fabric_in, const wormhole_params& params)
      : owner{o}, fab{fabric_in}, p{params}, tiles{fabric_in.tiles()}, depth{params.buffer} {
    ch.resize(std::size_t{6} * tiles);
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

  // Crossing time of flit f of w over its channel k.
  answer flit_time(worm& w, std::uint64_t f, std::uint32_t k) {
    const std::uint32_t last = w.hops + 1;
    const std::uint64_t up = f / p.buffer;
    const std::uint32_t kmax = up >= last - k ? last : k + static_cast<std::uint32_t>(up);
    if (w.t0.size() <= kmax) return {0, &w};
    const std::int64_t fi = as_i64(f);
    std::int64_t best = w.pre[k] + fi + k;
    if (kmax > k) {
      std::int64_t m = std::numeric_limits<std::int64_t>::min();
      if (kmax == last && w.suf.size() == last + std::size_t{1}) {
        m = w.suf[k + 1];
      } else {
        for (std::uint32_t j = k + 1; j <= kmax; ++j)
          m = std::max(m, as_i64(w.t0[j]) - depth * j);
      }
      best = std::max(best, m + fi + depth * k);
    }
    cycle_t t = as_cycle(best);
    const std::uint64_t rem = f % p.buffer;
    if (rem != 0 && k + up <= w.hops) {
      // The one flit-credit term on another packet that is not dominated by a header.
      const answer y = stream_leave(w, k + static_cast<std::uint32_t>(up), p.buffer - rem);
      if (y.missing != nullptr) return y;
      t = std::max(t, y.t);
    }
    return {t, nullptr};
  }

  // When the flit d places ahead of w's header in buffer k left that buffer; 0 when it
  // cannot constrain anything (it left early enough, or there is no such flit).
  answer stream_leave(worm& w, std::uint32_t k, std::uint64_t d) {
    ahead_link* a = &w.ahead[k];
    if (a->w) {
      worm& q = *a->w;
      const std::uint32_t out = a->k + 1;
      // Everything ahead left by t0[k] + B - 1: every term it could add is dominated
      // (docs/wormhole.md, "cross terms"). Forget it once the header itself has left.
      if (q.tail_done > out && q.tail[out] + 1 <= w.t0[k] + p.buffer) {
        if (w.t0.size() > k + std::size_t{1}) a->w = nullptr;
        return {0, nullptr};
      }
    }
    while (a->w) {
      worm& q = *a->w;
      if (d <= q.flits) return flit_time(q, q.flits - d, a->k + 1);
      d -= q.flits;
      a = &q.ahead[a->k];
    }
    return {0, nullptr};
  }

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
  // non-negative weight (f + k - k', or f - B(k' - k) with k' <= k + floor(f/B)), and a
  // cross term is another packet's flit time of the same shape. A value becomes
  // computable when the last header it needs is granted, which is now, so it is >= now.
  // release() checks it (docs/wormhole.md, "events and laziness").
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

  void release(worm& w, std::uint32_t k) {
    channel& c = ch[w.chan[k]];
    cycle_t avail = w.tail[k] + 1;
    if (k <= w.hops) avail = std::max(avail, w.credit[k]);
    if (avail < now_) throw std::logic_error("wormhole engine: a channel release fell in the past");
    c.busy += w.tail[k] - w.t0[k] + 1;
    events.push(avail, {ev_kind::free, w.chan[k], nullptr});
  }

  void on_tail(worm& w, std::uint32_t k) {
    const cycle_t t = w.tail[k];
    if (k == 0) {
      message& m = msgs[w.msg];
      if (!w.last) {
        worm* next = make_worm(w.msg);
        events.push(t + 1, {ev_kind::ready, 0, next});
      } else {
        nic& n = nics[m.x.src];
        n.busy = false;
        n.free_at = t + 1;
        if (!n.queue.empty()) schedule_nic(m.x.src, n.free_at);
      }
    }
    if (k == w.hops + 1 && w.last) events.push(t + 1, {ev_kind::deliver, w.msg, nullptr});
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
      if (q.tail[out] + 1 <= w.t0[k] + p.buffer) a.w = nullptr;
    }
    w.front_wait = false;
    events.push(e, {ev_kind::ready, 0, &w});
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
    w->t0.reserve(n);
    w->pre.reserve(n);
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
    events.push(t, {ev_kind::nic, tile, nullptr});
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
    events.push(now + p.alpha, {ev_kind::ready, 0, w});
  }

  // ---- requests and grants ----

  void touch(std::uint32_t c) {
    if (ch[c].touched) return;
    ch[c].touched = true;
    touched.push_back(c);
  }

  void request(worm& w, cycle_t now) {
    const std::size_t j = w.t0.size();
    const std::uint32_t c = w.chan[j];
    const std::uint32_t in = j == 0 ? local_input : input_of(w.chan[j - 1]);
    channel& x = ch[c];
    if (x.req[in] != nullptr) throw std::logic_error("wormhole engine: two headers at one input");
    x.req[in] = &w;
    ++x.nreq;
    x.max_queue = std::max(x.max_queue, x.nreq);
    w.ready_since = now;
    touch(c);
  }

  // Round robin over the five inputs from the pointer; the pointer then moves just past
  // the input granted.
  worm* pick(channel& x) {
    for (std::uint32_t i = 0; i < n_inputs; ++i) {
      const std::uint32_t in = (x.rr + i) % n_inputs;
      if (x.req[in] == nullptr) continue;
      worm* w = x.req[in];
      x.req[in] = nullptr;
      --x.nreq;
      x.rr = (in + 1) % n_inputs;
      return w;
    }
    return nullptr;
  }

  void grant(worm& w, cycle_t now) {
    const std::uint32_t k = static_cast<std::uint32_t>(w.t0.size());
    channel& x = ch[w.chan[k]];
    x.held = true;
    ++x.packets;
    if (now > w.ready_since) {
      const cycle_t waited = now - w.ready_since;
      ++cont.blocked;
      cont.blocked_cycles += waited;
      cont.max_blocked = std::max(cont.max_blocked, waited);
    }
    w.t0.push_back(now);
    const std::int64_t here = as_i64(now) - k;
    w.pre.push_back(k == 0 ? here : std::max(w.pre.back(), here));
    if (k == w.hops + 1) {
      w.suf.resize(w.t0.size());
      for (std::uint32_t j = k + 1; j-- > 0;) {
        const std::int64_t v = as_i64(w.t0[j]) - depth * j;
        w.suf[j] = j == k ? v : std::max(v, w.suf[j + 1]);
      }
    }
    if (k <= w.hops) {
      w.ahead[k] = x.last;
      x.last = {&w, k, 0};
      resolve_front(w);
    }
    progress(w);
    wake(w);
  }

  void arbitrate(cycle_t now) {
    now_ = now;
    for (std::size_t i = 0; i < touched.size(); ++i) {
      channel& x = ch[touched[i]];
      x.touched = false;
      if (x.held || x.nreq == 0) continue;
      grant(*pick(x), now);
      drain_retry();
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
    }
  }

  void collect() {
    ++epoch;
    std::vector<visit> stack;
    for (worm* w : active)
      stack.push_back({w, all_links});
    for (channel& c : ch)
      follow(c.last, stack);
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
          ch[e.id].held = false;
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
    ++live_msgs;
    nic& n = nics[x.src];
    n.queue.push_back(slot);
    if (!n.busy) schedule_nic(x.src, std::max(now, n.free_at));
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
        s += " packet " + std::to_string(w.index) + " waits for " + describe(w.chan[w.t0.size()]);
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
