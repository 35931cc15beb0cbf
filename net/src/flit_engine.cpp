// The wormhole router flit by flit: the rules are stated in flit_engine.hpp and
// docs/wormhole.md ("The flit engine"); this file keeps them in the order a cycle applies
// them (step()). Data layout: per router, input VCs indexed port * vcs + vc and output VCs
// output * vcs + vc, in flat vectors; per-cycle marks are stamps (the cycle + 1), so
// nothing is cleared between cycles.
#include "tessera/net/flit_engine.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "message_slots.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"
#include "wormhole/messages.hpp"

namespace tessera::net {
namespace {

constexpr std::uint32_t ports = 5;  // E, W, S, N by direction of travel, then the NIC's
constexpr std::uint32_t local = 4;
constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
constexpr std::array<const char*, 4> port_names{"E", "W", "S", "N"};

struct flit {
  std::uint32_t slot{0};    // message slot
  std::uint64_t packet{0};  // packet number within its message
  std::uint64_t index{0};   // flit number within its packet
  std::uint64_t count{1};   // flits of its packet
  cycle_t arrive{0};        // first cycle it may leave the FIFO it is in
  bool yx{false};           // a head's o1turn class: its packet is odd-numbered at its source
  [[nodiscard]] bool head() const { return index == 0; }
  [[nodiscard]] bool tail() const { return index + 1 == count; }
};

// A FIFO that grows by doubling; it never holds more than B flits.
class flit_ring {
 public:
  [[nodiscard]] bool empty() const { return n_ == 0; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] const flit& front() const { return buf_[head_]; }
  [[nodiscard]] const flit& at(std::size_t i) const {
    return buf_[(head_ + i) & (buf_.size() - 1)];
  }
  void pop_front() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --n_;
  }
  void push_back(const flit& f) {
    if (n_ == buf_.size()) grow();
    buf_[(head_ + n_) & (buf_.size() - 1)] = f;
    ++n_;
  }

 private:
  void grow() {
    std::vector<flit> bigger(buf_.empty() ? 4 : 2 * buf_.size());
    for (std::size_t i = 0; i < n_; ++i)
      bigger[i] = at(i);
    buf_.swap(bigger);
    head_ = 0;
  }
  std::vector<flit> buf_;
  std::size_t head_{0};
  std::size_t n_{0};
};

// Departures recorded by cycle modulo 17: credit_delay is at most 16, so the slots of the
// last credit_delay cycles are never overwritten while they count.
constexpr std::size_t credit_ring = 17;
static_assert(wormhole_range::credit_delay.max < credit_ring);

struct input_vc {
  flit_ring q;
  std::array<cycle_t, credit_ring> gone{};  // gone[c % 17] = c + 1: a flit left in cycle c
  std::uint32_t owns{none};                 // output VC its packet holds (output * V + vc)
  cycle_t sent{0};                          // stamp: sent a flit in cycle sent - 1
};

struct output_vc {
  std::uint32_t holder{none};  // input VC whose packet holds it
  cycle_t tail_at{never};      // last tail crossing
  cycle_t head_at{0};          // the holding packet's header crossing
  std::uint32_t slot{0};       // the holding packet's message, for link records
};

struct output {
  std::uint32_t rr{0};    // header pointer over the input VCs
  std::uint32_t vrr{0};   // flit pointer over the output's VCs
  std::uint32_t held{0};  // bit v: a packet holds VC v (vcs <= 16)
  cycle_t used{0};        // stamp: carried a flit this cycle
  bool header{false};     // ... and it was a header
};

// Per channel (links tile * 4 + port, injection 4 * tiles + tile, ejection 5 * tiles +
// tile), as wormhole_engine numbers them.
struct channel_stat {
  cycle_t busy{0};
  std::uint64_t packets{0};
  std::uint32_t max_queue{0};
};

struct message : wormhole_detail::message_core {
  std::uint64_t pending{1};  // packets whose tail has not crossed the ejection
};

struct nic {
  std::vector<std::uint32_t> queue;  // message slots in posting order, from `head`
  std::size_t head{0};
  bool active{false};
  bool listed{false};
  std::uint32_t slot{0};
  std::uint64_t packet{0};
  std::uint64_t index{0};  // next flit of the current packet
  std::uint64_t count{1};  // flits of the current packet
  std::uint32_t vc{0};     // local input VC the current packet holds
  bool odd{false};         // the next packet's number at this NIC is odd (o1turn's class)
  cycle_t header_at{0};    // the first packet's header may go from here
  cycle_t next_at{0};      // the next flit may go from here (pacing)
  cycle_t free_at{0};      // the cycle after the previous message's last flit
  cycle_t used{0};         // stamp: put a flit in this cycle
  cycle_t ready_since{0};  // when the current header could first go
  cycle_t head_at{0};      // the current packet's header entered the injection
  [[nodiscard]] bool queued() const { return head < queue.size(); }
};

// What a waiting flit lacked (vc_stat's stall causes).
enum class stall_cause : std::uint8_t { no_credit, arbitration, no_vc };

// A flit to cross output o of router x on its VC v: the front of input VC iv, a head
// (which then takes v) or the next flit of the packet holding v.
struct grant {
  std::uint32_t x, o, v, iv;
  bool head;
};

}  // namespace

struct flit_engine::impl {
  flit_engine& owner;
  fabric fab;
  wormhole_params p;
  std::uint32_t tiles;
  std::uint32_t nvc;
  std::uint32_t in_vcs;  // 5 x vcs
  bool torus;            // wraparound links, dateline VC classes
  bool split;            // the link VCs are split in two classes (o1turn, torus)
  std::vector<std::uint32_t> row, col;
  std::vector<std::uint32_t> next;   // tile * 4 + port -> neighbour (none at an edge)
  std::vector<input_vc> in;          // tile * in_vcs + port * vcs + vc
  std::vector<output_vc> out_vc;     // tile * in_vcs + output * vcs + vc
  std::vector<output> outs;          // tile * 5 + output
  std::vector<std::uint64_t> flits;  // flits in each router's input FIFOs
  std::vector<std::uint32_t> busy_routers;
  std::vector<bool> listed_router;
  std::vector<nic> nics;
  std::vector<std::uint32_t> busy_nics;
  std::vector<message> msgs;
  std::vector<std::uint32_t> free_msgs;
  std::multimap<cycle_t, std::uint32_t> due;  // deliveries by cycle
  std::vector<channel_stat> stat;
  std::vector<vc_stat> vstat;       // channel * vcs + vc
  std::vector<std::uint32_t> prev;  // tile * 4 + port -> the router whose output feeds it
  // Input VCs whose front flit could have left at the start of this cycle, and what it
  // would lack if it does not (counted after the cycle's rounds, when it did not move).
  struct waiting {
    std::uint32_t x, iv;
    stall_cause cause;
  };
  std::vector<waiting> waits;
  bool first_round{true};
  contention_stat cont{};
  std::uint64_t live{0};
  std::uint64_t in_network{0};  // flits in FIFOs
  cycle_t done{0};              // the next cycle not yet simulated
  cycle_t wake{never};          // the first cycle at which a step can change anything
  std::vector<grant> grants;    // a round's moves (kept to reuse their memory)
  std::vector<std::uint32_t> nic_vc;
  cycle_t last_fire{never};  // the latest fire()

  impl(flit_engine& o, const fabric& f, const wormhole_params& params)
      : owner{o},
        fab{f},
        p{params},
        tiles{f.tiles()},
        nvc{params.vcs},
        in_vcs{ports * params.vcs},
        torus{f.kind == fabric_kind::torus},
        split{torus || params.routing == mesh_routing::o1turn},
        row(tiles),
        col(tiles),
        next(std::size_t{tiles} * 4, none),
        in(std::size_t{tiles} * ports * params.vcs),
        out_vc(std::size_t{tiles} * ports * params.vcs),
        outs(std::size_t{tiles} * ports),
        flits(tiles, 0),
        listed_router(tiles, false),
        nics(tiles),
        stat(std::size_t{tiles} * 6),
        vstat(std::size_t{tiles} * 6 * params.vcs),
        prev(std::size_t{tiles} * 4, none) {
    for (std::uint32_t t = 0; t < tiles; ++t) {
      row[t] = t / f.cols;
      col[t] = t % f.cols;
      for (std::uint32_t port = 0; port < 4; ++port) {
        if (const auto n = neighbour(f, tile_id{t}, port)) {
          next[std::size_t{t} * 4 + port] = n->value();
          prev[std::size_t{n->value()} * 4 + port] = t;
        }
      }
    }
  }

  // ---- geometry ----
  [[nodiscard]] mesh_place place(std::uint32_t t) const { return {col[t], row[t]}; }
  // The outputs of router `at` the head f may take (mesh_routing.hpp).
  [[nodiscard]] mesh_choice choices(std::uint32_t at, const flit& f) const {
    const xfer& x = msgs[f.slot].x;
    if (torus) return torus_allowed(p.routing, place(at), place(x.dst), fab.cols, fab.rows);
    return allowed(p.routing, place(at), place(x.dst), place(x.src), f.yx);
  }
  // The VC class a head f takes on output o of router `at`: o1turn's (its packet's), the
  // torus's dateline class (of that link), or 0 where the VCs are not split.
  [[nodiscard]] bool head_class(std::uint32_t at, std::uint32_t o, const flit& f) const {
    if (torus) return torus_class(o, place(at), place(msgs[f.slot].x.src), fab.cols, fab.rows);
    return p.routing == mesh_routing::o1turn && f.yx;
  }
  // The output the head f asks for at router `at` in cycle t: with two allowed, the one
  // with more credits left at the start of t.
  [[nodiscard]] std::uint32_t route(std::uint32_t at, const flit& f, cycle_t t) const {
    const mesh_choice c = choices(at, f);
    if (!c.two()) return c.only();
    return select(c, credits_left(at, c.col_port, t), credits_left(at, c.row_port, t));
  }
  [[nodiscard]] std::uint32_t channel_of(std::uint32_t x, std::uint32_t o) const {
    return o == local ? 5 * tiles + x : x * 4 + o;
  }
  input_vc& ivc(std::uint32_t x, std::uint32_t iv) { return in[std::size_t{x} * in_vcs + iv]; }
  [[nodiscard]] const input_vc& ivc(std::uint32_t x, std::uint32_t iv) const {
    return in[std::size_t{x} * in_vcs + iv];
  }
  output_vc& ovc(std::uint32_t x, std::uint32_t o, std::uint32_t v) {
    return out_vc[std::size_t{x} * in_vcs + o * nvc + v];
  }
  output& out(std::uint32_t x, std::uint32_t o) { return outs[std::size_t{x} * ports + o]; }

  // ---- credits ----
  // A free slot at t in input VC `iv` of router y as its sender knows it: the flits in the
  // FIFO and those whose slot's credit is still on its way back.
  [[nodiscard]] bool room(std::uint32_t y, std::uint32_t iv, cycle_t t) const {
    const input_vc& q = ivc(y, iv);
    std::uint64_t held = q.q.size();
    for (cycle_t back = 0; back < p.credit_delay && back <= t; ++back) {
      const cycle_t c = t - back;
      if (q.gone[c % credit_ring] == c + 1) ++held;
    }
    return held < p.buffer;
  }
  // The credits left at the start of cycle t over the VCs behind link output o of router
  // x: the flits each FIFO held then (those in it now, less the one that entered in cycle
  // t itself, the last in its FIFO, plus the one that left in t) and the credits of slots
  // freed in t - credit_delay + 1 .. t - 1, still on their way back.
  [[nodiscard]] std::uint64_t credits_left(std::uint32_t x, std::uint32_t o, cycle_t t) const {
    const std::uint32_t y = next[std::size_t{x} * 4 + o];
    std::uint64_t left = 0;
    for (std::uint32_t v = 0; v < nvc; ++v) {
      const input_vc& q = ivc(y, o * nvc + v);
      std::uint64_t held = q.q.size();
      if (held != 0 && q.q.at(held - 1).arrive == t + 1) --held;
      if (q.gone[t % credit_ring] == t + 1) ++held;
      for (cycle_t back = 1; back < p.credit_delay && back <= t; ++back) {
        const cycle_t c = t - back;
        if (q.gone[c % credit_ring] == c + 1) ++held;
      }
      left += p.buffer - std::min<std::uint64_t>(held, p.buffer);
    }
    return left;
  }
  // A credit for VC v behind output o of router x; the ejection has no FIFO.
  [[nodiscard]] bool credit(std::uint32_t x, std::uint32_t o, std::uint32_t v, cycle_t t) const {
    if (o == local) return true;
    return room(next[std::size_t{x} * 4 + o], o * nvc + v, t);
  }

  void list_router(std::uint32_t x) {
    if (listed_router[x]) return;
    listed_router[x] = true;
    busy_routers.push_back(x);
  }
  void list_nic(std::uint32_t s) {
    if (nics[s].listed) return;
    nics[s].listed = true;
    busy_nics.push_back(s);
  }

  // ---- moves ----
  // The front flit of input VC iv of router x crosses output o on its VC v at t.
  void move(std::uint32_t x, std::uint32_t o, std::uint32_t v, std::uint32_t iv, cycle_t t) {
    input_vc& src = ivc(x, iv);
    flit f = src.q.front();
    src.q.pop_front();
    src.gone[t % credit_ring] = t + 1;
    src.sent = t + 1;
    --flits[x];
    --in_network;
    output& po = out(x, o);
    po.used = t + 1;
    po.header = f.head();
    po.vrr = v + 1 == nvc ? 0 : v + 1;
    output_vc& ov = ovc(x, o, v);
    channel_stat& cs = stat[channel_of(x, o)];
    vc_stat& vs = vstat[std::size_t{channel_of(x, o)} * nvc + v];
    ++vs.flits;
    if (f.head()) {
      ov.head_at = t;
      ov.slot = f.slot;
      ++cs.packets;
    }
    if (f.tail()) {
      ov.holder = none;
      po.held &= ~(std::uint32_t{1} << v);
      ov.tail_at = t;
      src.owns = none;
      cs.busy += t - ov.head_at + 1;
      vs.busy += t - ov.head_at + 1;
      if (o != local) {
        owner.note_link(x, next[std::size_t{x} * 4 + o], o, ov.head_at, t + 1, msgs[f.slot].x);
      }
    }
    if (o == local) {
      if (f.tail()) {
        message& m = msgs[f.slot];
        if (--m.pending == 0) due.emplace(t + 1 + m.copy, f.slot);
      }
      return;
    }
    const std::uint32_t y = next[std::size_t{x} * 4 + o];
    f.arrive = t + 1;
    ivc(y, o * nvc + v).q.push_back(f);
    ++flits[y];
    ++in_network;
    list_router(y);
  }

  // Output VC v of output o of router x is held by a packet whose next flit can cross now.
  [[nodiscard]] bool body_ready(std::uint32_t x, std::uint32_t o, std::uint32_t v, cycle_t t) {
    const output_vc& ov = ovc(x, o, v);
    if (ov.holder == none) return false;
    const input_vc& q = ivc(x, ov.holder);
    if (q.sent == t + 1 || q.q.empty() || q.q.front().arrive + (p.pipeline - 1) > t) return false;
    return credit(x, o, v, t);
  }

  // The lowest VC of output o that is free (its last tail crossed before t), has a
  // credit and is in the head's class `upper` (on a link), or none.
  [[nodiscard]] std::uint32_t free_vc(std::uint32_t x, std::uint32_t o, bool upper, cycle_t t) {
    for (std::uint32_t v = 0; v < nvc; ++v) {
      if (o != local && !vc_in_class(split, upper, v, nvc)) continue;
      const output_vc& ov = ovc(x, o, v);
      if (ov.holder == none && (ov.tail_at == never || t > ov.tail_at) && credit(x, o, v, t))
        return v;
    }
    return none;
  }

  // Whether output o has a VC in the head's class `upper` that no packet holds (free from
  // the cycle after its last tail), credit or not.
  [[nodiscard]] bool any_free(std::uint32_t x, std::uint32_t o, bool upper, cycle_t t) {
    for (std::uint32_t v = 0; v < nvc; ++v) {
      if (o != local && !vc_in_class(split, upper, v, nvc)) continue;
      const output_vc& ov = ovc(x, o, v);
      if (ov.holder == none && (ov.tail_at == never || t > ov.tail_at)) return true;
    }
    return false;
  }

  // Router x's moves at t, decided on the state at the start of this round. Per output:
  // the header candidate is the ready head its pointer reaches first among those routed
  // to it whose class has a free VC there (that VC); then the output serves, round robin
  // from its flit pointer, the first of its VCs that is held by a packet whose next flit
  // can cross or is the header candidate's.
  void decide(std::uint32_t x, cycle_t t, std::vector<grant>& into) {
    std::array<std::uint32_t, ports> pick;
    std::array<std::uint32_t, ports> dist;
    std::array<std::uint32_t, ports> count{};            // ready headers routed to each output
    std::array<std::array<std::uint32_t, 2>, ports> vc;  // free VC per class, when known
    constexpr std::uint32_t unknown = none - 1;
    pick.fill(none);
    dist.fill(none);
    for (auto& c : vc)
      c.fill(unknown);
    for (std::uint32_t iv = 0; iv < in_vcs; ++iv) {
      const input_vc& q = ivc(x, iv);
      if (q.q.empty() || q.sent == t + 1 || q.owns != none) continue;
      const flit& f = q.q.front();
      if (!f.head() || f.arrive + (p.pipeline - 1) + p.router_delay > t) continue;
      const std::uint32_t o = route(x, f, t);
      ++count[o];
      if (out(x, o).used == t + 1) continue;
      const bool upper = head_class(x, o, f);
      std::uint32_t& v = vc[o][upper ? 1 : 0];
      if (v == unknown) v = free_vc(x, o, upper, t);
      if (first_round) {
        waits.push_back({x, iv,
                         v != none                  ? stall_cause::arbitration
                         : any_free(x, o, upper, t) ? stall_cause::no_credit
                                                    : stall_cause::no_vc});
      }
      if (v == none) continue;
      const std::uint32_t rr = out(x, o).rr;
      const std::uint32_t d = iv >= rr ? iv - rr : iv + in_vcs - rr;
      if (d < dist[o]) {
        dist[o] = d;
        pick[o] = iv;
      }
    }
    for (std::uint32_t o = 0; o < ports; ++o) {
      output& po = out(x, o);
      if (count[o] != 0) {
        channel_stat& cs = stat[channel_of(x, o)];
        cs.max_queue = std::max(cs.max_queue, count[o]);
      }
      if (first_round) {
        // Packets holding a VC of o whose next flit could go: lacking a credit or not.
        for (std::uint32_t held = po.held; held != 0; held &= held - 1) {
          const auto v = static_cast<std::uint32_t>(std::countr_zero(held));
          const std::uint32_t h = ovc(x, o, v).holder;
          const input_vc& q = ivc(x, h);
          if (q.q.empty() || q.q.front().arrive + (p.pipeline - 1) > t) continue;
          waits.push_back(
              {x, h, credit(x, o, v, t) ? stall_cause::arbitration : stall_cause::no_credit});
        }
      }
      if (po.used == t + 1) continue;
      std::uint32_t hv = none;
      if (pick[o] != none) hv = vc[o][head_class(x, o, ivc(x, pick[o]).q.front()) ? 1 : 0];
      if (hv == none && po.held == 0) continue;
      for (std::uint32_t k = 0; k < nvc; ++k) {
        const std::uint32_t v = po.vrr + k < nvc ? po.vrr + k : po.vrr + k - nvc;
        if (v == hv) {
          into.push_back({x, o, v, pick[o], true});
          break;
        }
        if ((po.held >> v & 1U) != 0 && body_ready(x, o, v, t)) {
          into.push_back({x, o, v, ovc(x, o, v).holder, false});
          break;
        }
      }
    }
  }

  void apply(const grant& g, cycle_t t) {
    input_vc& q = ivc(g.x, g.iv);
    const cycle_t ready = q.q.front().arrive + (p.pipeline - 1) + p.router_delay;
    blocked(ready, t);
    output_vc& ov = ovc(g.x, g.o, g.v);
    ov.holder = g.iv;
    q.owns = g.o * nvc + g.v;
    output& po = out(g.x, g.o);
    po.held |= std::uint32_t{1} << g.v;
    po.rr = g.iv + 1 == in_vcs ? 0 : g.iv + 1;
    move(g.x, g.o, g.v, g.iv, t);
  }

  void blocked(cycle_t ready, cycle_t t) {
    if (t <= ready) return;
    const cycle_t waited = t - ready;
    ++cont.blocked;
    cont.blocked_cycles += waited;
    cont.max_blocked = std::max(cont.max_blocked, waited);
  }

  // ---- the NIC ----
  [[nodiscard]] std::uint64_t flit_count(const xfer& x, std::uint64_t packet) const {
    if (x.control) return 1;
    const std::uint64_t payload =
        p.packet_bytes == 0 ? x.bytes : std::min(p.packet_bytes, x.bytes - packet * p.packet_bytes);
    return packet_flits(payload, p.width);
  }

  void start_messages(cycle_t t) {
    for (const std::uint32_t s : busy_nics) {
      nic& n = nics[s];
      if (n.active || !n.queued() || t < n.free_at) continue;
      const std::uint32_t slot = n.queue[n.head++];
      if (n.head == n.queue.size()) {
        n.queue.clear();
        n.head = 0;
      }
      message& m = msgs[slot];
      m.started = true;
      n.active = true;
      n.slot = slot;
      n.packet = 0;
      n.index = 0;
      n.count = flit_count(m.x, 0);
      n.header_at = t + wormhole_detail::start_up(p, m.x);
      n.ready_since = n.header_at;
      n.next_at = 0;
      if (owner.listener_ != nullptr) owner.listener_->started(m.x.id, t);
    }
  }

  void push_nic_flit(std::uint32_t s, cycle_t t) {
    nic& n = nics[s];
    flit f;
    f.slot = n.slot;
    f.packet = n.packet;
    f.index = n.index;
    f.count = n.count;
    f.arrive = t + 1;
    if (f.head()) {
      f.yx = n.odd;
      n.odd = !n.odd;
    }
    ivc(s, local * nvc + n.vc).q.push_back(f);
    ++flits[s];
    ++in_network;
    list_router(s);
    n.used = t + 1;
    n.next_at = t + p.inject_gap;
    channel_stat& cs = stat[4 * tiles + s];
    vc_stat& vs = vstat[(std::size_t{4} * tiles + s) * nvc + n.vc];
    ++vs.flits;
    if (f.head()) {
      n.head_at = t;
      ++cs.packets;
      blocked(n.ready_since, t);
    }
    if (!f.tail()) {
      ++n.index;
      return;
    }
    cs.busy += t - n.head_at + 1;
    vs.busy += t - n.head_at + 1;
    const message& m = msgs[n.slot];
    if (++n.packet < m.packets) {
      n.index = 0;
      n.count = flit_count(m.x, n.packet);
      n.ready_since = n.next_at;
      return;
    }
    n.active = false;
    n.free_at = t + 1;
  }

  // What the NIC puts in at t: `body` (its packet's next body flit), the local input VC
  // its next header takes, or none.
  static constexpr std::uint32_t body = none - 1;
  [[nodiscard]] std::uint32_t nic_move(std::uint32_t s, cycle_t t) const {
    const nic& n = nics[s];
    if (!n.active || n.used == t + 1) return none;
    if (n.index != 0) return t >= n.next_at && room(s, local * nvc + n.vc, t) ? body : none;
    return nic_header_vc(s, t);
  }

  // The local input VC the NIC's next header would take now, or none.
  [[nodiscard]] std::uint32_t nic_header_vc(std::uint32_t s, cycle_t t) const {
    const nic& n = nics[s];
    if (!n.active || n.index != 0 || n.used == t + 1) return none;
    if (t < (n.packet == 0 ? n.header_at : n.next_at)) return none;
    for (std::uint32_t v = 0; v < nvc; ++v)
      if (room(s, local * nvc + v, t)) return v;
    return none;
  }

  // ---- one cycle ----
  // Rounds of moves, each decided on the state at the start of the round and then
  // applied; one round when credits take a cycle or more (no move of this cycle can then
  // enable another), else rounds until one moves nothing.
  void step(cycle_t t) {
    start_messages(t);
    waits.clear();
    first_round = true;
    while (true) {
      grants.clear();
      for (const std::uint32_t x : busy_routers)
        if (flits[x] != 0) decide(x, t, grants);
      nic_vc.clear();
      for (const std::uint32_t s : busy_nics)
        nic_vc.push_back(nic_move(s, t));
      bool any = !grants.empty();
      for (const grant& g : grants) {
        if (g.head) {
          apply(g, t);
        } else {
          move(g.x, g.o, g.v, g.iv, t);
        }
      }
      for (std::size_t i = 0; i < busy_nics.size(); ++i) {
        if (nic_vc[i] == none) continue;
        if (nic_vc[i] != body) nics[busy_nics[i]].vc = nic_vc[i];
        push_nic_flit(busy_nics[i], t);
        any = true;
      }
      first_round = false;
      if (!any || p.credit_delay > 0) break;
    }
    count_stalls(t);
    tidy();
    done = t + 1;
    wake = next_wake(t);
  }

  // The waits of cycle t whose flit did not move, on the channels that feed their FIFOs.
  void count_stalls(cycle_t t) {
    for (const waiting& w : waits) {
      if (ivc(w.x, w.iv).sent == t + 1) continue;
      const std::uint32_t port = w.iv / nvc;
      const std::uint32_t c =
          port == local ? 4 * tiles + w.x : prev[std::size_t{w.x} * 4 + port] * 4 + port;
      vc_stat& vs = vstat[std::size_t{c} * nvc + w.iv % nvc];
      switch (w.cause) {
        case stall_cause::no_credit:
          ++vs.no_credit;
          break;
        case stall_cause::arbitration:
          ++vs.arbitration;
          break;
        case stall_cause::no_vc:
          ++vs.no_vc;
          break;
      }
    }
  }

  // Drops routers without flits and NICs with nothing to send from the busy lists.
  void tidy() {
    std::erase_if(busy_routers, [&](std::uint32_t x) {
      if (flits[x] != 0) return false;
      listed_router[x] = false;
      return true;
    });
    std::erase_if(busy_nics, [&](std::uint32_t s) {
      nic& n = nics[s];
      if (n.active || n.queued()) return false;
      n.listed = false;
      return true;
    });
  }

  // The first cycle after t at which a step can change anything.
  [[nodiscard]] cycle_t next_wake(cycle_t t) const {
    if (in_network != 0) return t + 1;
    cycle_t w = never;
    for (const std::uint32_t s : busy_nics) {
      const nic& n = nics[s];
      if (n.active) {
        const cycle_t at = n.index == 0 && n.packet == 0 ? n.header_at : n.next_at;
        w = std::min(w, std::max(at, t + 1));
      } else {
        w = std::min(w, std::max(n.free_at, t + 1));
      }
    }
    return w;
  }

  void inject(const xfer& x, cycle_t now) {
    wormhole_detail::check_message(x, fab);
    const std::uint32_t slot = take_slot(msgs, free_msgs);
    message& m = msgs[slot];
    m = message{};
    wormhole_detail::begin_message(m, x, p);
    m.pending = m.packets;
    ++live;
    nic& n = nics[x.src];
    n.queue.push_back(slot);
    list_nic(x.src);
    if (!n.active) wake = std::min(wake, std::max({now, n.free_at, done}));
  }

  void fire(cycle_t now) {
    last_fire = now;
    while (!due.empty() && due.begin()->first <= now) {
      const auto [t, slot] = *due.begin();
      due.erase(due.begin());
      message& m = msgs[slot];
      m.live = false;
      free_msgs.push_back(slot);
      --live;
      if (owner.listener_ != nullptr) owner.listener_->delivered(m.x.id, t);
    }
  }

  [[nodiscard]] cycle_t next_event() const {
    if (live == 0) return never;
    cycle_t t = wake;
    if (!due.empty()) t = std::min(t, due.begin()->first);
    // fire(t) is called once per cycle; a step due at t runs in arbitrate(t) after it.
    if (t == never) return never;
    return std::max({t, done, last_fire == never ? 0 : last_fire + 1});
  }

  [[nodiscard]] std::string describe(std::uint32_t x, std::uint32_t o) const {
    if (o == local) return "the ejection at tile " + std::to_string(x);
    return "link " + std::to_string(x) + "->" + std::to_string(next[std::size_t{x} * 4 + o]) + " " +
           port_names[o];
  }

  [[nodiscard]] std::vector<link_stat> links() const {
    std::vector<link_stat> out;
    for (std::uint32_t c = 0; c < stat.size(); ++c) {
      const channel_stat& x = stat[c];
      // A stall is charged to the channel that brought the flit, which carried its head.
      if (x.packets == 0) continue;
      link_stat s = wormhole_detail::channel_stat_row(fab, c, x.busy, x.packets, x.max_queue, 0);
      s.vcs.assign(vstat.begin() + static_cast<std::ptrdiff_t>(std::size_t{c} * nvc),
                   vstat.begin() + static_cast<std::ptrdiff_t>(std::size_t{c + 1} * nvc));
      for (const vc_stat& v : s.vcs)
        s.units += v.flits;
      out.push_back(std::move(s));
    }
    return out;
  }

  // What each undelivered message waits for: queued at its NIC, or where the foremost
  // flit of its newest packet in the network stands and what it lacks.
  [[nodiscard]] std::vector<std::string> stuck() const {
    struct where {
      std::uint32_t x{none};
      std::uint32_t iv{0};
      bool head{false};
      std::uint64_t packet{0};
    };
    std::vector<where> at(msgs.size());
    for (std::uint32_t x = 0; x < tiles; ++x) {
      for (std::uint32_t iv = 0; iv < in_vcs; ++iv) {
        const input_vc& q = ivc(x, iv);
        if (q.q.empty()) continue;
        const flit& f = q.q.front();
        where& w = at[f.slot];
        if (w.x == none || f.packet >= w.packet) w = {x, iv, f.head(), f.packet};
      }
    }
    std::vector<std::string> out;
    for (std::uint32_t slot = 0; slot < msgs.size(); ++slot) {
      const message& m = msgs[slot];
      if (!m.live) continue;
      std::string s = "message " + std::to_string(m.x.id) + " (" + std::to_string(m.x.src) + "->" +
                      std::to_string(m.x.dst) + ")";
      const where& w = at[slot];
      if (!m.started) {
        s += " queued at the NIC of tile " + std::to_string(m.x.src);
      } else if (w.x == none) {
        s += " is draining into tile " + std::to_string(m.x.dst);
      } else {
        const std::uint32_t port = w.iv / nvc;
        const std::uint32_t v = w.iv % nvc;
        s += " packet " + std::to_string(w.packet) + " at tile " + std::to_string(w.x) + " input " +
             (port == local ? std::string("local") : port_names[port]) + " vc " + std::to_string(v);
        const std::uint32_t owns = ivc(w.x, w.iv).owns;
        if (w.head && owns == none) {
          s += " waits for a VC of " + describe(w.x, route(w.x, ivc(w.x, w.iv).q.front(), done));
        } else if (owns != none) {
          s += " waits for a credit of " + describe(w.x, owns / nvc) + " vc " +
               std::to_string(owns % nvc);
        }
      }
      out.push_back(std::move(s));
    }
    return out;
  }
};

flit_engine::flit_engine(const fabric& f, const wormhole_params& p) {
  wormhole_detail::check_setup(f, p);
  if (p.share == vc_share::fixed) {
    throw input_error(
        "wormhole: param vc_share fixed is the closed form's rule (a mesh, routing xy or yx, "
        "pipeline 1, engine auto); the flit engine shares VCs round robin");
  }
  if (duplex_of(p).on() && (p.routing == mesh_routing::xy || p.routing == mesh_routing::yx)) {
    throw input_error("wormhole: param half_duplex 1 with vcs " + std::to_string(p.vcs) +
                      " shared round robin is not modelled (the flit engine's NIC is full "
                      "duplex); use vcs=1 or vc_share=fixed");
  }
  if (duplex_of(p).on()) {
    throw input_error("wormhole: param half_duplex 1 with routing " +
                      std::string{mesh_routing_names.at(static_cast<std::size_t>(p.routing))} +
                      " is not modelled (the flit engine's NIC is full duplex); use routing "
                      "xy or yx");
  }
  impl_ = std::make_unique<impl>(*this, f, p);
}

flit_engine::~flit_engine() = default;

void flit_engine::inject(const xfer& x, cycle_t now) {
  impl_->inject(x, now);
}
void flit_engine::arbitrate(cycle_t now) {
  impl& m = *impl_;
  if (now < m.done || now < m.wake) return;  // simulated already, or nothing can change
  m.step(now);
}
cycle_t flit_engine::next_event() const {
  return impl_->next_event();
}
void flit_engine::fire(cycle_t now) {
  impl_->fire(now);
}
bool flit_engine::idle() const {
  return impl_->live == 0;
}
std::vector<link_stat> flit_engine::links() const {
  return impl_->links();
}
energy_counts flit_engine::energy() const {
  return channel_energy(energy_rule::wormhole, impl_->tiles, impl_->p.width, impl_->links());
}
contention_stat flit_engine::contention() const {
  return impl_->cont;
}
std::vector<std::string> flit_engine::stuck() const {
  return impl_->stuck();
}

}  // namespace tessera::net
