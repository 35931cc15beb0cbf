// A cycle-by-cycle, flit-by-flit simulator of the wormhole mesh router of
// docs/wormhole.md, written independently of the engine (net/src/wormhole/)
// so the engine's closed forms can be checked against it. It shares nothing with the
// project: the routing functions are recomputed here from their turn rules, not from
// net/mesh_routing.hpp's case analysis. Slow on purpose: every flit of every packet is
// moved one cycle at a time; use small meshes and packets.
//
// Router: five input ports (0 E, 1 W, 2 S, 3 N by direction of travel, 4 local), each
// with `vcs` virtual-channel FIFOs of B flits. An input VC FIFO sends at most one flit per
// cycle, its front as it stood at the start of the cycle. A header holds one VC of each
// channel it crosses until its tail has crossed that channel. How the VCs of one
// physical channel (router output) share it is chosen by `share`:
//   round_robin  the real router: the output carries at most one flit per cycle, chosen
//                round robin over its VCs that have a ready flit and a free slot behind;
//   fixed        the engine's model (docs/wormhole.md, "Virtual channels"): each VC
//                carries at most one flit every `vcs` cycles, also from a packet's tail to
//                the next packet's header on that VC, and VCs do not compete otherwise.
// With vcs = 1 the two are the same router.
//
// Credits: a FIFO slot that a flit leaves in cycle c can take a new flit from
// c + credit_delay on (0: in cycle c itself, if the flit left earlier in that cycle; 1:
// the next cycle, as tsr_mesh_router returns credits). This holds for the router input
// FIFOs of links and of the NIC's injection channel; the ejection channel has no FIFO and
// never pushes back.
//
// Per cycle t:
//   1. A NIC whose previous message has left starts the next one posted by t.
//   2. Moves are found in rounds. A flit moves at most once per cycle. A VC FIFO has a
//      free slot for a flit at t when it holds fewer than B flits plus those that left it
//      in cycles t - credit_delay + 1 .. t. With credit_delay 0 a flit may enter a FIFO
//      that was full at the start of the cycle if a flit left it earlier in the same
//      cycle.
//      A ready body flit: the next flit of a packet that holds a VC of the output, at the
//      front of its input FIFO, which it entered at t - pipeline or before, with a free
//      slot behind the output.
//      A ready header: a head flit at the front of an input VC, r cycles after it could
//      have left as a body flit, whose input VC holds no output, routed to this output,
//      for which the output has a free VC with a free slot behind it in the head's class
//      (lowest index first; o1turn: on a link, the lower vcs / 2 VCs for a tile's
//      even-numbered packets, which go XY, the rest for its odd-numbered ones, which go
//      YX; fixed: a VC whose last tail crossed at least vcs cycles ago). The header
//      candidate of an output is the ready header its header pointer reaches first,
//      round robin over the 5 x vcs input VCs (index port * vcs + vc).
//      round_robin: each round, every output that has not carried a flit this cycle
//        serves, from its flit pointer, the first of its VCs that has a ready body flit
//        or is the VC its header candidate would take, all decided on the state at the
//        start of the round and then applied; the flit pointer moves just past the VC
//        served, the header pointer just past a header's input VC. The NIC puts the next
//        body flit of its packet on the injection channel when t >= (its previous
//        flit's cycle) + inject_gap and the VC it holds in the local input has a free
//        slot. Rounds repeat until one moves nothing (with credit_delay >= 1 the second
//        never moves).
//      fixed: VCs do not compete. a. Body flits, to a fixed point: every VC with a ready
//        body flit whose last flit crossed at least vcs cycles ago sends it; the NIC's
//        body flits as above. b. Headers, decided for every output that has not carried
//        a header this cycle on the state at the start of this step and then applied (a
//        slot freed by a header is seen in the next round): the header candidate
//        crosses. a and b repeat until b moves no header.
//      Routing: a head may take a direction that brings it closer to its destination
//      when the turn from the direction it arrived in is permitted at this router and the
//      destination stays reachable from the next router by permitted turns (route()). Of
//      two such directions it asks for the one whose FIFOs behind the output had more
//      free slots, as their sender knew them at the start of the cycle, summed over the
//      VCs; a tie goes to the column direction. The NIC's header takes the lowest VC of
//      the local input with a free slot, at t >= start + alpha for the first packet of a
//      message and t >= (previous flit's cycle) + inject_gap for later ones.
//   3. A message is delivered the cycle after the tail of its last packet to arrive
//      crossed the ejection channel (packets of one message can overtake each other on
//      different VCs).
//
// Torus (`torus`): the rows and columns close into rings by wraparound links. A packet
// goes the way round each ring with fewer hops (east or south when both are as many),
// columns first under xy, rows first under yx. Each head carries one bit, set when it
// crosses a wraparound link and cleared when it turns into the other dimension; on a link
// it takes a VC of the upper class (index >= vcs / 2) when the bit is set or the link
// itself wraps around, of the lower class otherwise. The ejection takes any VC.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::net::reference {

enum class link_share { round_robin, fixed };

// Routing functions by their turn rules (ports by direction of travel: 0 E, 1 W, 2 S with
// the row growing, 3 N): xy (no turn from a row into a column direction), yx (the
// reverse), o1turn (xy or yx by the packet's class), west_first (no turn into W),
// north_last (no turn out of N), negative_first (no turn from E or S into W or N),
// odd_even (no E->S or E->N turn in an even column, no S->W or N->W turn in an odd one).
enum class routing { xy, yx, o1turn, west_first, north_last, negative_first, odd_even };

struct flit_params {
  std::uint32_t width{4};
  std::uint32_t router_delay{1};
  std::uint32_t buffer{4};
  std::uint64_t alpha{0};
  std::uint64_t packet_bytes{0};
  std::uint32_t inject_gap{1};
  std::uint32_t vcs{1};
  link_share share{link_share::round_robin};
  std::uint32_t credit_delay{1};  // cycles from a slot freeing to its sender using it
  routing route{routing::xy};
  // Pipeline depth p: a flit that entered a FIFO in cycle c leaves it from c + p on, a
  // head r cycles later still.
  std::uint32_t pipeline{1};
  bool torus{false};  // wraparound links and dateline VC classes (xy or yx, vcs >= 2)
};

struct message {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint64_t bytes{0};
  bool control{false};
  std::uint64_t post{0};
};

struct outcome {
  std::uint64_t started{0};
  std::uint64_t delivered{0};
};

class flit_mesh {
 public:
  flit_mesh(std::uint32_t rows, std::uint32_t cols, flit_params p)
      : rows_{rows}, cols_{cols}, p_{p}, nvc_{std::max<std::uint32_t>(1, p.vcs)} {
    routers_.resize(std::size_t{rows} * cols);
    for (router& r : routers_) {
      for (auto& port : r.in)
        port.resize(nvc_);
      for (auto& port : r.left)
        port.resize(nvc_);
      for (auto& h : r.holder)
        h.assign(nvc_, none);
      for (auto& c : r.tail_at)
        c.assign(nvc_, never);
      for (auto& c : r.sent_at)
        c.assign(nvc_, never);
      r.owns.assign(std::size_t{ports} * nvc_, none);
    }
    nics_.resize(routers_.size());
    if (p.torus && (nvc_ < 2 || (p.route != routing::xy && p.route != routing::yx)))
      throw std::invalid_argument("flit reference: a torus needs xy or yx and vcs >= 2");
  }

  // Results in the order of `msgs`; a NIC sends its messages in posting order, ties in
  // the order of `msgs`.
  std::vector<outcome> run(const std::vector<message>& msgs, std::uint64_t max_cycles = 5'000'000) {
    msgs_ = msgs;
    out_.assign(msgs.size(), outcome{});
    pending_.assign(msgs.size(), 0);
    std::vector<std::size_t> order(msgs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return msgs[a].post < msgs[b].post; });
    for (std::size_t i : order)
      nics_.at(msgs[i].src).queue.push_back(i);
    std::size_t left = msgs.size();
    for (std::uint64_t t = 0; left > 0; ++t) {
      if (t > max_cycles) throw std::runtime_error("flit reference: no progress");
      start_messages(t);
      left -= step(t);
    }
    return out_;
  }

 private:
  static constexpr std::uint32_t ports = 5;  // 0 E, 1 W, 2 S, 3 N (direction of travel), 4 local
  static constexpr int none = -1;
  static constexpr std::uint64_t never = ~std::uint64_t{0};

  struct flit {
    std::size_t msg{0};
    std::uint64_t index{0};   // within its packet
    std::uint64_t count{1};   // flits in its packet
    std::uint64_t arrive{0};  // first cycle it may leave the FIFO it is in
    bool odd{false};          // its packet is odd-numbered at its source (o1turn: YX)
    bool wrapped{false};      // torus, a head: it crossed a wraparound link of its ring
    [[nodiscard]] bool head() const { return index == 0; }
    [[nodiscard]] bool tail() const { return index + 1 == count; }
  };

  struct router {
    std::array<std::vector<std::deque<flit>>, ports> in;    // [arrival direction][vc]
    std::array<std::vector<int>, ports> holder;             // [output][vc] -> input VC or none
    std::array<std::vector<std::uint64_t>, ports> tail_at;  // [output][vc]: last tail crossing
    std::array<std::vector<std::uint64_t>, ports> sent_at;  // [output][vc]: last flit crossing
    std::array<std::uint32_t, ports> rr{};                  // header pointer over input VCs
    std::array<std::uint32_t, ports> vrr{};                 // flit pointer over output VCs
    std::vector<int> owns;                                  // [input VC] -> output * vcs + vc
    // [arrival direction][vc]: cycles in which a flit left that FIFO, while its slot's
    // credit may still be on its way back (the last credit_delay cycles).
    std::array<std::vector<std::deque<std::uint64_t>>, ports> left;
  };

  struct nic {
    std::deque<std::size_t> queue;
    bool active{false};
    std::size_t msg{0};
    std::uint64_t packet{0};
    std::uint64_t packets{1};
    std::uint64_t index{0};  // next flit of the current packet
    std::uint64_t count{1};
    std::uint32_t vc{0};            // VC of the local input the current packet holds
    std::uint64_t sent_packets{0};  // packets this NIC has begun, over all its messages
    std::uint64_t header_at{0};     // earliest cycle the first packet's head may go
    std::uint64_t next_at{0};       // earliest cycle for the next flit of this message (pacing)
    std::uint64_t free_at{0};       // the cycle after the previous message's last flit
  };

  // Per-cycle bookkeeping.
  struct cycle_state {
    std::vector<std::vector<bool>> sent;       // [router][input VC] already sent a flit
    std::vector<std::array<int, ports>> used;  // [router][output]: 0 free, 1 body, 2 header
    std::vector<bool> nic_used;
    // [router][link output]: free slots behind it at the start of the cycle, over its VCs.
    std::vector<std::array<std::uint64_t, 4>> free_at_start;
  };

  // Whether a packet travelling in direction `from` (4: just injected) may turn into
  // direction `to` at column c; `odd` is its o1turn class.
  [[nodiscard]] bool permitted(std::uint32_t from, std::uint32_t to, std::uint32_t c,
                               bool odd) const {
    if (from == 4 || from == to) return true;
    const bool from_row = from >= 2;
    const bool to_row = to >= 2;
    switch (p_.route) {
      case routing::xy:
        return !(from_row && !to_row);
      case routing::yx:
        return !(!from_row && to_row);
      case routing::o1turn:
        return odd ? !(!from_row && to_row) : !(from_row && !to_row);
      case routing::west_first:
        return to != 1;
      case routing::north_last:
        return from != 3;
      case routing::negative_first:
        return !((from == 0 || from == 2) && (to == 1 || to == 3));
      case routing::odd_even:
        if (c % 2 == 0) return !(from == 0 && to_row);
        return !(from_row && to == 1);
    }
    return false;
  }

  // The directions that bring a packet at `at` closer to dst (a torus: the one way
  // round each ring with fewer hops, the positive one when both have as many).
  [[nodiscard]] std::vector<std::uint32_t> closer(std::uint32_t at, std::uint32_t dst) const {
    std::vector<std::uint32_t> d;
    if (p_.torus) {
      const std::uint32_t east = (dst % cols_ + cols_ - at % cols_) % cols_;
      const std::uint32_t west = (at % cols_ + cols_ - dst % cols_) % cols_;
      const std::uint32_t south = (dst / cols_ + rows_ - at / cols_) % rows_;
      const std::uint32_t north = (at / cols_ + rows_ - dst / cols_) % rows_;
      if (east != 0) d.push_back(east <= west ? 0 : 1);
      if (south != 0) d.push_back(south <= north ? 2 : 3);
      return d;
    }
    if (dst % cols_ > at % cols_) d.push_back(0);
    if (dst % cols_ < at % cols_) d.push_back(1);
    if (dst / cols_ > at / cols_) d.push_back(2);
    if (dst / cols_ < at / cols_) d.push_back(3);
    return d;
  }

  // Whether output o of router x is a torus's wraparound link.
  [[nodiscard]] bool wraps(std::uint32_t x, std::uint32_t o) const {
    if (!p_.torus) return false;
    switch (o) {
      case 0:
        return x % cols_ + 1 == cols_;
      case 1:
        return x % cols_ == 0;
      case 2:
        return x / cols_ + 1 == rows_;
      case 3:
        return x / cols_ == 0;
      default:
        return false;
    }
  }

  // A head's wraparound bit after it crosses output o of router x, having arrived in
  // direction `from` (4: injected): kept along its ring, cleared on a turn.
  [[nodiscard]] bool wrapped_after(std::uint32_t x, std::uint32_t from, std::uint32_t o,
                                   const flit& f) const {
    const bool same_ring = from != 4 && from / 2 == o / 2;
    return (same_ring && f.wrapped) || wraps(x, o);
  }

  // The upper VC class on output o for head f at router x, arrived in direction `from`:
  // o1turn's YX packets; on a torus, a head that has wrapped around its ring or is about
  // to.
  [[nodiscard]] bool upper_class(std::uint32_t x, std::uint32_t from, std::uint32_t o,
                                 const flit& f) const {
    if (p_.torus) return o != 4 && wrapped_after(x, from, o, f);
    return f.odd;
  }

  // Whether dst can be reached from `at`, arriving in direction `from`, by permitted turns
  // on minimal paths.
  [[nodiscard]] bool reachable(std::uint32_t at, std::uint32_t from, std::uint32_t dst,
                               bool odd) const {
    if (at == dst) return true;
    const std::uint64_t key = ((std::uint64_t{at} * 5 + from) * routers_.size() + dst) * 2 + odd;
    if (const auto it = reach_.find(key); it != reach_.end()) return it->second;
    bool yes = false;
    for (std::uint32_t d : closer(at, dst))
      if (permitted(from, d, at % cols_, odd) && reachable(next_router(at, d), d, dst, odd))
        yes = true;
    reach_.emplace(key, yes);
    return yes;
  }

  // The output a head at router `at`, arrived in direction `from`, asks for in this cycle.
  [[nodiscard]] std::uint32_t route(std::uint32_t at, std::uint32_t from, const flit& f,
                                    const cycle_state& cs) const {
    const std::uint32_t dst = msgs_[f.msg].dst;
    if (at == dst) return 4;
    std::vector<std::uint32_t> ok;
    for (std::uint32_t d : closer(at, dst))
      if (permitted(from, d, at % cols_, f.odd) && reachable(next_router(at, d), d, dst, f.odd))
        ok.push_back(d);
    if (ok.empty()) throw std::runtime_error("flit reference: a head has no way on");
    if (ok.size() == 1) return ok[0];
    // Two: a column and a row direction, in that order.
    const auto& free = cs.free_at_start[at];
    return free[ok[1]] > free[ok[0]] ? ok[1] : ok[0];
  }

  [[nodiscard]] std::uint32_t next_router(std::uint32_t at, std::uint32_t out) const {
    const std::uint32_t r = at / cols_;
    const std::uint32_t c = at % cols_;
    switch (out) {
      case 0:
        return r * cols_ + (c + 1) % cols_;
      case 1:
        return r * cols_ + (c + cols_ - 1) % cols_;
      case 2:
        return (r + 1) % rows_ * cols_ + c;
      default:
        return (r + rows_ - 1) % rows_ * cols_ + c;
    }
  }

  [[nodiscard]] std::uint64_t packet_count(const message& m) const {
    if (m.control || p_.packet_bytes == 0 || m.bytes <= p_.packet_bytes) return 1;
    return (m.bytes + p_.packet_bytes - 1) / p_.packet_bytes;
  }

  [[nodiscard]] std::uint64_t flit_count(const message& m, std::uint64_t packet) const {
    if (m.control) return 1;
    std::uint64_t payload = m.bytes;
    if (p_.packet_bytes != 0)
      payload = std::min(p_.packet_bytes, m.bytes - packet * p_.packet_bytes);
    return std::max<std::uint64_t>(1, (payload + p_.width - 1) / p_.width);
  }

  void start_messages(std::uint64_t t) {
    for (nic& n : nics_) {
      if (n.active || n.queue.empty() || t < n.free_at) continue;
      const std::size_t m = n.queue.front();
      if (msgs_[m].post > t) continue;
      n.queue.pop_front();
      n.active = true;
      n.msg = m;
      n.packet = 0;
      n.packets = packet_count(msgs_[m]);
      n.index = 0;
      n.count = flit_count(msgs_[m], 0);
      n.header_at = t + p_.alpha;
      n.next_at = 0;
      pending_[m] = n.packets;
      out_[m].started = t;
    }
  }

  // A free slot at t in VC v of input port `in` of router y, as its sender knows it: the
  // flits in the FIFO and those whose slot's credit has not come back yet.
  [[nodiscard]] bool room(std::uint32_t y, std::uint32_t in, std::uint32_t v,
                          std::uint64_t t) const {
    const router& r = routers_[y];
    std::uint64_t held = r.in[in][v].size();
    for (std::uint64_t c : r.left[in][v])
      if (c + p_.credit_delay > t) ++held;
    return held < p_.buffer;
  }

  // A free slot at t in VC v of the FIFO behind output o of router x. The ejection
  // channel has no FIFO.
  [[nodiscard]] bool has_room(std::uint32_t x, std::uint32_t o, std::uint32_t v,
                              std::uint64_t t) const {
    if (o == 4) return true;
    return room(next_router(x, o), o, v, t);
  }

  // Whether VC v of output o is held by a packet whose next flit can cross it now.
  [[nodiscard]] bool body_ready(std::uint32_t x, std::uint32_t o, std::uint32_t v, std::uint64_t t,
                                const cycle_state& cs) const {
    const router& r = routers_[x];
    const int h = r.holder[o][v];
    if (h == none) return false;
    const auto iv = static_cast<std::uint32_t>(h);
    const std::deque<flit>& q = r.in[iv / nvc_][iv % nvc_];
    if (cs.sent[x][iv] || q.empty() || q.front().arrive + (p_.pipeline - 1) > t) return false;
    if (fixed() && r.sent_at[o][v] != never && t < r.sent_at[o][v] + nvc_) return false;
    return has_room(x, o, v, t);
  }

  // Whether VC v of link output o may carry a head of the upper class or not (o1turn's
  // classes, the torus's dateline classes).
  [[nodiscard]] bool in_class(std::uint32_t o, std::uint32_t v, bool upper) const {
    if ((p_.route != routing::o1turn && !p_.torus) || o == 4) return true;
    return upper ? v >= nvc_ / 2 : v < nvc_ / 2;
  }

  // The input VC whose ready header the output pointer reaches first among those with a
  // free VC of their class at o, and that VC; or none.
  [[nodiscard]] std::pair<int, int> header_candidate(std::uint32_t x, std::uint32_t o,
                                                     std::uint64_t t, const cycle_state& cs) const {
    const router& r = routers_[x];
    const std::uint32_t n = ports * nvc_;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t iv = (r.rr[o] + k) % n;
      const std::deque<flit>& q = r.in[iv / nvc_][iv % nvc_];
      if (cs.sent[x][iv] || q.empty()) continue;
      const flit& f = q.front();
      if (!f.head() || f.arrive + (p_.pipeline - 1) + p_.router_delay > t) continue;
      if (r.owns[iv] != none) continue;  // a body of an earlier packet is still due
      if (route(x, iv / nvc_, f, cs) != o) continue;
      const int v = free_vc(x, o, t, upper_class(x, iv / nvc_, o, f));
      if (v == none) continue;
      return {static_cast<int>(iv), v};
    }
    return {none, none};
  }

  // Lowest free VC of output o with a slot behind it, in the class `upper` or not. A VC
  // whose tail crossed at c is free from c + 1 (fixed: c + vcs).
  [[nodiscard]] int free_vc(std::uint32_t x, std::uint32_t o, std::uint64_t t, bool upper) const {
    const router& r = routers_[x];
    const std::uint64_t after = fixed() ? nvc_ : 1;
    for (std::uint32_t v = 0; v < nvc_; ++v) {
      if (!in_class(o, v, upper)) continue;
      const std::uint64_t tail = r.tail_at[o][v];
      if (r.holder[o][v] == none && (tail == never || t >= tail + after) && has_room(x, o, v, t))
        return static_cast<int>(v);
    }
    return none;
  }

  [[nodiscard]] bool fixed() const { return p_.share == link_share::fixed; }

  // Moves the front of input VC iv of router x over output o on its VC v.
  std::size_t move(std::uint32_t x, std::uint32_t o, std::uint32_t v, std::uint32_t iv,
                   std::uint64_t t, cycle_state& cs) {
    router& r = routers_[x];
    flit f = r.in[iv / nvc_][iv % nvc_].front();
    r.in[iv / nvc_][iv % nvc_].pop_front();
    std::deque<std::uint64_t>& gone = r.left[iv / nvc_][iv % nvc_];
    while (!gone.empty() && gone.front() + p_.credit_delay <= t)
      gone.pop_front();
    gone.push_back(t);
    cs.sent[x][iv] = true;
    if (cs.used[x][o] != 2) cs.used[x][o] = f.head() ? 2 : 1;
    r.vrr[o] = (v + 1) % nvc_;
    r.sent_at[o][v] = t;
    if (f.tail()) {
      r.holder[o][v] = none;
      r.owns[iv] = none;
      r.tail_at[o][v] = t;
    }
    if (o == 4) {
      if (f.tail() && --pending_[f.msg] == 0) {
        out_[f.msg].delivered = t + 1;
        return 1;
      }
      return 0;
    }
    f.arrive = t + 1;
    if (f.head()) f.wrapped = wrapped_after(x, iv / nvc_, o, f);
    routers_[next_router(x, o)].in[o][v].push_back(f);
    return 0;
  }

  // One cycle; returns the messages delivered in it.
  std::size_t step(std::uint64_t t) {
    const std::size_t tiles = routers_.size();
    cycle_state& cs = cs_;  // reused: only cleared here
    cs.sent.resize(tiles);
    for (auto& a : cs.sent)
      a.assign(std::size_t{ports} * nvc_, false);
    cs.used.resize(tiles);
    for (auto& a : cs.used)
      a.fill(0);
    cs.nic_used.assign(tiles, false);
    cs.free_at_start.assign(tiles, {});
    for (std::uint32_t x = 0; x < tiles; ++x) {
      for (std::uint32_t o = 0; o < 4; ++o) {
        const bool edge = (o == 0 && x % cols_ + 1 == cols_) || (o == 1 && x % cols_ == 0) ||
                          (o == 2 && x / cols_ + 1 == rows_) || (o == 3 && x / cols_ == 0);
        const bool ring = o < 2 ? cols_ > 1 : rows_ > 1;
        if (edge && !(p_.torus && ring)) continue;
        const router& r = routers_[next_router(x, o)];
        for (std::uint32_t v = 0; v < nvc_; ++v) {
          std::uint64_t held = r.in[o][v].size();
          for (std::uint64_t c : r.left[o][v])
            if (c + p_.credit_delay > t) ++held;
          cs.free_at_start[x][o] += p_.buffer - std::min<std::uint64_t>(held, p_.buffer);
        }
      }
    }
    return fixed() ? moves_fixed(t, cs) : moves_shared(t, cs);
  }

  // round_robin: rounds of moves, each decided for every output and NIC on the state at
  // the start of the round and then applied, until a round moves nothing. An output that
  // has not carried a flit this cycle takes its header candidate (header_candidate())
  // and, from its flit pointer, serves the first of its VCs that is held by a packet
  // whose next flit can cross (body_ready()) or is the candidate's; the pointer then
  // moves just past that VC, and a header moves the output's header pointer just past
  // its input VC.
  std::size_t moves_shared(std::uint64_t t, cycle_state& cs) {
    const std::size_t tiles = routers_.size();
    std::size_t delivered = 0;
    struct pick {
      std::uint32_t x, o, v, iv;
      bool head;
    };
    while (true) {
      std::vector<pick> picks;
      for (std::uint32_t x = 0; x < tiles; ++x) {
        const router& r = routers_[x];
        for (std::uint32_t o = 0; o < ports; ++o) {
          if (cs.used[x][o] != 0) continue;
          const auto [hiv, hv] = header_candidate(x, o, t, cs);
          for (std::uint32_t k = 0; k < nvc_; ++k) {
            const std::uint32_t v = (r.vrr[o] + k) % nvc_;
            if (hiv != none && static_cast<int>(v) == hv) {
              picks.push_back({x, o, v, static_cast<std::uint32_t>(hiv), true});
              break;
            }
            if (body_ready(x, o, v, t, cs)) {
              picks.push_back({x, o, v, static_cast<std::uint32_t>(r.holder[o][v]), false});
              break;
            }
          }
        }
      }
      std::vector<int> nic_vc(tiles, none);
      std::vector<bool> nic_body(tiles, false);
      for (std::uint32_t s = 0; s < tiles; ++s) {
        nic_body[s] = body_due(s, t, cs);
        nic_vc[s] = nic_header_vc(s, t, cs);
      }
      bool moved = !picks.empty();
      for (const pick& g : picks) {
        if (g.head) {
          router& r = routers_[g.x];
          r.holder[g.o][g.v] = static_cast<int>(g.iv);
          r.owns[g.iv] = static_cast<int>(g.o * nvc_ + g.v);
          r.rr[g.o] = (g.iv + 1) % (ports * nvc_);
        }
        delivered += move(g.x, g.o, g.v, g.iv, t, cs);
      }
      for (std::uint32_t s = 0; s < tiles; ++s) {
        if (nic_body[s]) {
          push_nic_flit(s, t, cs);
          moved = true;
        } else if (nic_vc[s] != none) {
          nics_[s].vc = static_cast<std::uint32_t>(nic_vc[s]);
          push_nic_flit(s, t, cs);
          moved = true;
        }
      }
      if (!moved) break;
    }
    return delivered;
  }

  // fixed: each VC apart, so an output may carry a header and body flits in one cycle.
  std::size_t moves_fixed(std::uint64_t t, cycle_state& cs) {
    const std::size_t tiles = routers_.size();
    std::size_t delivered = 0;
    while (true) {
      // a. Body flits to a fixed point.
      bool moved = true;
      while (moved) {
        moved = false;
        for (std::uint32_t x = 0; x < tiles; ++x) {
          for (std::uint32_t o = 0; o < ports; ++o) {
            const router& r = routers_[x];
            for (std::uint32_t k = 0; k < nvc_; ++k) {
              const std::uint32_t v = (r.vrr[o] + k) % nvc_;
              if (!body_ready(x, o, v, t, cs)) continue;
              const auto iv = static_cast<std::uint32_t>(r.holder[o][v]);
              delivered += move(x, o, v, iv, t, cs);
              moved = true;
            }
          }
        }
        for (std::uint32_t s = 0; s < tiles; ++s) {
          if (inject_body(s, t, cs)) moved = true;
        }
      }
      // b. Headers, at most one per output per cycle, all decided on the state at the
      //    start of the round (a slot a header frees is seen by the next round).
      struct grant {
        std::uint32_t x, o, v, iv;
      };
      std::vector<grant> grants;
      for (std::uint32_t x = 0; x < tiles; ++x) {
        for (std::uint32_t o = 0; o < ports; ++o) {
          if (cs.used[x][o] == 2) continue;
          const auto [iv, v] = header_candidate(x, o, t, cs);
          if (iv == none) continue;  // an output that exists: a header is routed to it
          grants.push_back({x, o, static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(iv)});
        }
      }
      std::vector<int> nic_vc(tiles, none);
      for (std::uint32_t s = 0; s < tiles; ++s)
        nic_vc[s] = nic_header_vc(s, t, cs);
      for (const grant& g : grants) {
        router& r = routers_[g.x];
        r.holder[g.o][g.v] = static_cast<int>(g.iv);
        r.owns[g.iv] = static_cast<int>(g.o * nvc_ + g.v);
        r.rr[g.o] = (g.iv + 1) % (ports * nvc_);
        delivered += move(g.x, g.o, g.v, g.iv, t, cs);
      }
      bool headers = !grants.empty();
      for (std::uint32_t s = 0; s < tiles; ++s) {
        if (nic_vc[s] == none) continue;
        nics_[s].vc = static_cast<std::uint32_t>(nic_vc[s]);
        push_nic_flit(s, t, cs);
        headers = true;
      }
      if (!headers) break;
    }
    return delivered;
  }

  std::deque<flit>& nic_fifo(std::uint32_t s, std::uint32_t v) { return routers_[s].in[4][v]; }

  void push_nic_flit(std::uint32_t s, std::uint64_t t, cycle_state& cs) {
    nic& n = nics_[s];
    flit f;
    f.msg = n.msg;
    f.index = n.index;
    f.count = n.count;
    f.arrive = t + 1;
    if (f.index == 0) f.odd = (n.sent_packets++ % 2) == 1;
    nic_fifo(s, n.vc).push_back(f);
    cs.nic_used[s] = true;
    n.next_at = t + p_.inject_gap;
    if (++n.index < n.count) return;
    if (++n.packet < n.packets) {
      n.index = 0;
      n.count = flit_count(msgs_[n.msg], n.packet);
      return;
    }
    n.active = false;
    n.free_at = t + 1;
  }

  // Whether the NIC puts its packet's next body flit on the injection channel at t.
  [[nodiscard]] bool body_due(std::uint32_t s, std::uint64_t t, const cycle_state& cs) const {
    const nic& n = nics_[s];
    if (!n.active || n.index == 0 || cs.nic_used[s] || t < n.next_at) return false;
    return room(s, 4, n.vc, t);
  }

  bool inject_body(std::uint32_t s, std::uint64_t t, cycle_state& cs) {
    if (!body_due(s, t, cs)) return false;
    push_nic_flit(s, t, cs);
    return true;
  }

  // The VC of the local input the NIC's next header would take now, or none.
  [[nodiscard]] int nic_header_vc(std::uint32_t s, std::uint64_t t, const cycle_state& cs) const {
    const nic& n = nics_[s];
    if (!n.active || n.index != 0 || cs.nic_used[s]) return none;
    if (t < (n.packet == 0 ? n.header_at : n.next_at)) return none;
    for (std::uint32_t v = 0; v < nvc_; ++v)
      if (room(s, 4, v, t)) return static_cast<int>(v);
    return none;
  }

  std::uint32_t rows_;
  std::uint32_t cols_;
  flit_params p_;
  std::uint32_t nvc_;
  std::vector<router> routers_;
  std::vector<nic> nics_;
  std::vector<message> msgs_;
  std::vector<outcome> out_;
  std::vector<std::uint64_t> pending_;  // packets of each message not yet delivered
  cycle_state cs_;
  mutable std::unordered_map<std::uint64_t, bool> reach_;  // reachable(), remembered
};

}  // namespace tessera::net::reference
