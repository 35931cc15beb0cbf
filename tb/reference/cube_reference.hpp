#pragma once

// Reference model of the circuit-switched cube's timing, computed cycle by cycle from
// the rules docs/rtl.md states (not from the RTL), for any contention:
//
//   posting   a tile's interface takes its next message (queue order) in the first
//             cycle t0 >= not_before in which it is idle; it is idle from reset and
//             from the cycle after it handed over the previous message's last element;
//   pre-setup (when enabled) it also takes it in a cycle t0 >= not_before in which
//             exactly one message of the tile is taken and not handed over, if that
//             message's path completed before t0 and the new path's first output was
//             not held at the end of cycle t0 - 1;
//   start-up  the header asks for its first output (at the source) in cycle
//             t0 + xi - h, where h (xi_held, 0 unless given) is the part of the start-up
//             that runs once the path is set up, with the path held; a message may
//             carry its own xi and h (the NI takes them with the request);
//   setup     a header asking for output (n, o) in cycle c, or waiting there since an
//             earlier cycle, is granted in c if the output is free in c and it wins the
//             arbitration among the headers asking for (n, o) in c: lowest-id ranks by
//             source, round-robin by (source - pointer) mod 2^D, the pointer becoming
//             source + 1 after each grant; ties (never seen: one header per source)
//             go to the lower input port. A header granted a link in g asks at the
//             next node in g + tau. The grant of the destination's ejection port, in
//             cycle S, completes the path;
//   stream    element e enters the source's node in S' + e (no bubbles), S' = S + h, or
//             with pre-setup the later of S + h and the cycle after the tile's
//             previous message's last element entered; it crosses the node at hop
//             position j (0 the source, i the destination) in S' + e + j; so the tail
//             leaves the ejection port in E = S' + i + k - 1;
//   teardown  an output is busy from its grant through the cycle the tail crosses its
//             node, S' + k - 1 + j, and free from S' + k + j; the interface is idle from
//             S' + k.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace tessera::tb {

struct ref_message {
  unsigned src = 0;
  unsigned dst = 0;
  unsigned k = 1;
  std::uint64_t not_before = 0;
  // This message's start-up and its held part, when not the model's (h <= xi).
  std::optional<std::uint64_t> xi;
  std::optional<std::uint64_t> xi_held;
};

struct ref_hop {
  unsigned node = 0;
  unsigned port = 0;  // dimension, or dims for the ejection port
  std::uint64_t grant = 0;
};

struct ref_result {
  std::uint64_t posted = 0;   // t0
  std::uint64_t setup = 0;    // S
  std::uint64_t tail = 0;     // E
  std::vector<ref_hop> hops;  // the path's outputs in order, the ejection port last
};

enum class ref_arb : std::uint8_t { lowest_id, round_robin };

class cube_reference {
 public:
  // xi_held <= xi.
  cube_reference(unsigned dims, std::uint64_t xi, std::uint64_t tau, ref_arb arb,
                 std::uint64_t xi_held = 0, bool presetup = false)
      : dims_(dims),
        tiles_(1U << dims),
        xi_(xi),
        tau_(tau),
        arb_(arb),
        held_(xi_held),
        presetup_(presetup) {}

  // Messages of one tile are posted in the order given. Returns one result per message;
  // an empty vector if the run did not finish within `limit` cycles.
  std::vector<ref_result> run(const std::vector<ref_message>& msgs, std::uint64_t limit) {
    blocked_ = 0;
    constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();
    const unsigned ports = dims_ + 1;
    std::vector<ref_result> out(msgs.size());
    std::vector<state> st(msgs.size());
    for (std::size_t m = 0; m < msgs.size(); ++m) {
      // The e-cube path: dimensions in increasing order, then the ejection port.
      unsigned at = msgs[m].src;
      const unsigned diff = msgs[m].src ^ msgs[m].dst;
      for (unsigned d = 0; d < dims_; ++d) {
        if ((diff >> d) & 1U) {
          out[m].hops.push_back({at, d, 0});
          at ^= 1U << d;
        }
      }
      out[m].hops.push_back({at, dims_, 0});
    }
    std::vector<std::vector<std::size_t>> queue(tiles_);
    for (std::size_t m = 0; m < msgs.size(); ++m)
      queue[msgs[m].src].push_back(m);
    std::vector<std::size_t> head(tiles_, 0);
    // Per tile: the cycle after the last element of its latest message set up enters.
    std::vector<std::uint64_t> stream_free(tiles_, 0);
    std::vector<std::uint64_t> free_from(std::size_t{tiles_} * ports, 0);
    std::vector<unsigned> pointer(std::size_t{tiles_} * ports, 0);
    std::size_t left = msgs.size();
    // Handed over in cycle c: set up, and its last element entered before c.
    auto handed = [&](std::size_t m, std::uint64_t c) {
      return st[m].st == stage::done && st[m].end <= c;
    };

    for (std::uint64_t c = 0; left > 0; ++c) {
      if (c > limit) return {};
      for (unsigned t = 0; t < tiles_; ++t) {
        if (head[t] == queue[t].size()) continue;
        const std::size_t m = queue[t][head[t]];
        if (msgs[m].not_before > c) continue;
        // The tile's messages not handed over: only its last two taken can be.
        const std::size_t prev = head[t] >= 1 ? queue[t][head[t] - 1] : msgs.size();
        const std::size_t prev2 = head[t] >= 2 ? queue[t][head[t] - 2] : msgs.size();
        const bool prev_out = prev == msgs.size() || handed(prev, c);
        const bool prev2_out = prev2 == msgs.size() || handed(prev2, c);
        if (!prev_out) {
          if (!presetup_ || !prev2_out) continue;
          // Pre-setup: prev's path completed before c, and the first output of m's path
          // was not held at the end of c - 1.
          if (st[prev].st != stage::done || out[prev].setup >= c) continue;
          const ref_hop& first = out[m].hops.front();
          if (free_from[std::size_t{first.node} * ports + first.port] > c) continue;
        }
        ++head[t];
        out[m].posted = c;
        st[m] = state{stage::asking, 0, c + msgs[m].xi.value_or(xi_) - held(msgs[m]), 0};
      }
      // Per output, the best header asking for it in c.
      std::vector<std::pair<std::size_t, std::size_t>> best;  // (output, message)
      for (std::size_t m = 0; m < msgs.size(); ++m) {
        if (st[m].st != stage::asking || st[m].from > c) continue;
        const ref_hop& h = out[m].hops[st[m].hop];
        const std::size_t o = std::size_t{h.node} * ports + h.port;
        if (free_from[o] > c) continue;
        auto it =
            std::find_if(best.begin(), best.end(), [&](const auto& b) { return b.first == o; });
        if (it == best.end()) {
          best.emplace_back(o, m);
        } else if (wins(msgs, out, st, m, it->second, pointer[o])) {
          it->second = m;
        }
      }
      for (const auto& [o, m] : best) {
        ref_hop& h = out[m].hops[st[m].hop];
        h.grant = c;
        if (c > st[m].from) ++blocked_;
        free_from[o] = never;
        if (arb_ == ref_arb::round_robin) pointer[o] = (msgs[m].src + 1) % tiles_;
        if (h.port != dims_) {
          st[m] = state{stage::asking, st[m].hop + 1, c + tau_};
          continue;
        }
        // Path complete: the stream and the teardown follow from S' = S + h, or with
        // pre-setup from the end of the tile's previous stream if that is later.
        const std::uint64_t s = std::max(c + held(msgs[m]), stream_free[msgs[m].src]);
        const std::uint64_t k = msgs[m].k;
        const std::uint64_t i = out[m].hops.size() - 1;
        out[m].setup = c;
        out[m].tail = s + i + k - 1;
        for (std::size_t j = 0; j <= i; ++j) {
          const ref_hop& p = out[m].hops[j];
          free_from[std::size_t{p.node} * ports + p.port] = s + k + j;
        }
        stream_free[msgs[m].src] = s + k;
        st[m].st = stage::done;
        st[m].end = s + k;
        --left;
      }
    }
    return out;
  }

  // Grants of the last run that came after the header had waited at least a cycle.
  std::uint64_t blocked() const { return blocked_; }

 private:
  enum class stage : std::uint8_t { queued, asking, done };
  struct state {
    stage st = stage::queued;
    std::size_t hop = 0;     // the output asked for, an index into hops
    std::uint64_t from = 0;  // the cycle the header first asks for it
    std::uint64_t end = 0;   // done: S' + k, the cycle after its last element entered
  };

  std::uint64_t held(const ref_message& m) const { return m.xi_held.value_or(held_); }

  // The input port a header asks from: the dimension it came in on, or the local one.
  unsigned in_port(const std::vector<ref_result>& out, const std::vector<state>& st,
                   std::size_t m) const {
    return st[m].hop == 0 ? dims_ : out[m].hops[st[m].hop - 1].port;
  }

  bool wins(const std::vector<ref_message>& msgs, const std::vector<ref_result>& out,
            const std::vector<state>& st, std::size_t a, std::size_t b, unsigned ptr) const {
    auto rank = [&](std::size_t m) {
      return arb_ == ref_arb::lowest_id ? msgs[m].src : (msgs[m].src + tiles_ - ptr) % tiles_;
    };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return in_port(out, st, a) < in_port(out, st, b);
  }

  unsigned dims_;
  unsigned tiles_;
  std::uint64_t xi_;
  std::uint64_t tau_;
  ref_arb arb_;
  std::uint64_t held_;
  bool presetup_;
  std::uint64_t blocked_ = 0;
};

}  // namespace tessera::tb
