#pragma once

// tb_torus's scenarios: the messages each posts, the forwarding table entries it writes
// and the golden arrival cycles it is held to (Bermond92 §1.1-2.1: one hop of an L-byte
// packet holds a link for P = beta + tau L cycles), for the RTL run (tb_torus.cpp) and
// the engine comparison (torus_compare.cpp) alike.
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../common/tb_main.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/rtl_tops/torus_top.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::tb::torus {

using rtl_tops::torus_local;
using rtl_tops::torus_trees;

inline constexpr unsigned no_seq = 0xffffffffU;

struct options : common_options {
  std::string size = "4x4";
  std::string scenario = "hops";
  std::string family = "bermond-optimal";
  bool compare = false;
  unsigned root = 0;
  unsigned packets = 4;
  unsigned bytes = 8;
  unsigned packet_bytes = 32;
  unsigned beta = 20;
  unsigned tau = 2;
  unsigned count = 400;
  std::uint64_t window = 0;  // random, transpose: post cycles in [0, window); 0: count P / 4
};

// Cycles after the last message posted at the start.
inline constexpr std::uint64_t default_timeout = 200000;

// One message as both models see it: posted by `src` at `post`, `bytes` long, cut into
// packets of `packet_bytes` (0: one packet) numbered seq, seq + 1, ...
struct plan_msg {
  unsigned src = 0;
  unsigned dst = 0;
  bool multicast = false;
  unsigned tree = 0;  // the RTL's table entry; the engine's tree is tree + 1
  unsigned bytes = 0;
  unsigned packet_bytes = 0;
  std::uint64_t post = 0;
  unsigned seq = no_seq;  // no_seq: numbered per source in posting order
  unsigned stream = 0;    // forward: the tree (stream) and packet it carries
  unsigned index = 0;
};

inline unsigned packets_of(const plan_msg& m) {
  return m.packet_bytes == 0 ? 1 : (m.bytes + m.packet_bytes - 1) / m.packet_bytes;
}

// A golden arrival: packet (src, seq) complete at `tile` exactly `want` cycles after a
// base, the cycle packet (src, seq) of ref_key was written at its source, or `base`.
struct check {
  unsigned tile, src, seq;
  std::uint64_t ref_key;  // src * 65536 + seq, or no_ref
  std::uint64_t base;
  std::uint64_t want;
};
inline constexpr std::uint64_t no_ref = ~std::uint64_t{0};

struct scenario {
  std::vector<plan_msg> msgs;
  // Forwarding table entries written after reset: (tile, tree, mask).
  std::vector<std::tuple<unsigned, unsigned, unsigned>> table;
  std::vector<check> checks;
  unsigned packet_bytes = 0;  // the engine's packet_bytes (every message's)
  // forward: each stream's children per tile, in port order; the packet length.
  std::vector<std::vector<std::vector<unsigned>>> children;
  unsigned forward_bytes = 0;
};

// The messages a tile posts when packet `index` of stream `stream` arrives there at
// cycle `now` (forward): one to each of its children in that stream, in port order.
inline void react(const scenario& sc, unsigned tile, unsigned stream, unsigned index,
                  std::uint64_t now, std::vector<plan_msg>& out) {
  for (const unsigned c : sc.children[stream][tile]) {
    plan_msg m;
    m.src = tile;
    m.dst = c;
    m.bytes = sc.forward_bytes;
    m.post = now;
    m.stream = stream;
    m.index = index;
    out.push_back(m);
  }
}

// forward: what the tiles post for the (tile, stream, packet) arrivals of cycle `now`,
// taken per tile by (stream, packet) so that the RTL run and the engine run post in the
// same order.
inline std::vector<plan_msg> reactions(const scenario& sc,
                                       std::vector<std::tuple<unsigned, unsigned, unsigned>> got,
                                       std::uint64_t now) {
  std::sort(got.begin(), got.end());
  std::vector<plan_msg> more;
  for (const auto& [tile, stream, index] : got)
    react(sc, tile, stream, index, now, more);
  return more;
}

// Numbers unicast packets per source in posting order, so that sequence numbers grow
// along every source-destination stream.
struct numbering {
  std::map<unsigned, unsigned> next;
  void assign(plan_msg& m) {
    if (m.seq != no_seq) return;
    unsigned& n = next[m.src];
    m.seq = n;
    n += packets_of(m);
  }
};

template <class Dut>
struct builder {
  const options& o;
  tessera::fabric f;
  std::uint64_t P;

  explicit builder(const options& opt)
      : o(opt),
        f(tessera::parse_fabric("torus:" + std::string(Dut::size)).value),
        P(o.beta + std::uint64_t{o.tau} * o.bytes) {}

  unsigned distance(unsigned a, unsigned b) const {
    return tessera::distance(f, tessera::tile_id{a}, tessera::tile_id{b});
  }
  unsigned at(unsigned r, unsigned c) const { return (r % Dut::rows) * Dut::cols + c % Dut::cols; }

  // hops: tile 0 to every other tile, one packet each, spaced so none meets another.
  std::string hops(scenario& sc) {
    const std::uint64_t gap = (Dut::rows / 2 + Dut::cols / 2 + 2) * P;
    for (unsigned d = 1; d < Dut::tiles; ++d) {
      sc.msgs.push_back({0, d, false, 0, o.bytes, 0, d * gap, d});
      sc.checks.push_back({d, 0, d, 0 * 65536ULL + d, 0, distance(0, d) * P});
    }
    return {};
  }

  // lone: from tile 0 and from tile (1, 1) to every other tile, one message at a time,
  // of q packets of L bytes (packet_bytes L): the packets pipeline, so the last is
  // complete (h + q - 1) P after the message is posted (Bermond92 §2.1).
  std::string lone(scenario& sc) {
    const unsigned q = o.packets;
    if (q * o.bytes > 0xffffU) return "lone: --packets times --bytes must fit 16 bits";
    sc.packet_bytes = o.bytes;
    std::uint64_t t = 0;
    for (const unsigned s : {0U, at(1, 1)}) {
      for (unsigned d = 0; d < Dut::tiles; ++d) {
        if (d == s) continue;
        const unsigned seq = d * q;
        const std::uint64_t h = distance(s, d);
        sc.msgs.push_back({s, d, false, 0, q * o.bytes, o.bytes, t, seq});
        sc.checks.push_back({d, s, seq + q - 1, no_ref, t, (h + q - 1) * P});
        // The next message is posted once this one has left the network: its last packet
        // is complete at d at t + (h + q - 1) P and ejected L + 1 <= P cycles later
        // (beta, tau >= 1), which frees the last buffer it held.
        t += (h + q) * P;
      }
    }
    return {};
  }

  // ports: tile (1, 1) and its neighbours east, west, south, north.
  std::string ports(scenario& sc) {
    const unsigned centre = at(1, 1);
    unsigned seq = 1;
    std::uint64_t k = 0;
    for (const unsigned nb : {at(1, 2), at(1, 0), at(2, 1), at(0, 1)}) {
      // The centre posts its four at cycle 0; its NI writes one a cycle, in cycle k for
      // the k-th, each to a free output: complete at the neighbour at k + P.
      sc.msgs.push_back({centre, nb, false, 0, o.bytes, 0, 0, seq});
      sc.checks.push_back({nb, centre, seq, centre * 65536ULL + seq, 0, P});
      sc.checks.push_back({nb, centre, seq, no_ref, 0, k++ + P});
      ++seq;
      sc.msgs.push_back({nb, centre, false, 0, o.bytes, 0, 0, seq});
      sc.checks.push_back({centre, nb, seq, nb * 65536ULL + seq, 0, P});
      ++seq;
    }
    if (P <= 3) return "ports needs beta + tau L > 3 so the four hops overlap";
    return {};
  }

  // contention, around the centre C = (1, 1) with neighbours E = (1, 2), W = (1, 0),
  // N = (0, 1), S = (2, 1); one packet is L bytes, P = beta + tau L.
  // Round 1 (cycle 0): E, W, N and C each send one packet to S. Dimension order takes
  // E's and W's along row 1 into C's inputs E and W, N's down column 1 into C's input
  // N, and all four leave C on its south output. C's own packet is written at 0 and is
  // the only one there: granted at 0 (the round-robin pointer starts at input 0, so
  // inputs 1..4 are tried first, and only local wants it), complete at S at P. The other
  // three are complete in C at P, when the output frees; the pointer now at input 4
  // (local), the order is inputs 0, 1, 3: E's leaves at P, W's at 2P, N's at 3P, and
  // they are complete at S at 2P, 3P and 4P.
  // Round 2 (cycle 10P): bursts of --count packets from E, W, S, N and C to C itself,
  // which eject through C's one local output (L + 1 cycles a packet): when
  // 4 (L + 1) > P the ejection cannot keep up, the link inputs fill and the neighbours
  // wait for credits. Round 3 (cycle 10P + count 6P): bursts from E, W, N and C to S.
  // Rounds 2 and 3 are checked against the engine only.
  std::string contention(scenario& sc) {
    const unsigned c = at(1, 1), e = at(1, 2), w = at(1, 0), n = at(0, 1), s = at(2, 1);
    sc.msgs.push_back({c, s, false, 0, o.bytes, 0, 0, 100});
    sc.msgs.push_back({e, s, false, 0, o.bytes, 0, 0, 100});
    sc.msgs.push_back({w, s, false, 0, o.bytes, 0, 0, 100});
    sc.msgs.push_back({n, s, false, 0, o.bytes, 0, 0, 100});
    sc.checks.push_back({s, c, 100, no_ref, 0, P});
    sc.checks.push_back({s, e, 100, no_ref, 0, 2 * P});
    sc.checks.push_back({s, w, 100, no_ref, 0, 3 * P});
    sc.checks.push_back({s, n, 100, no_ref, 0, 4 * P});
    const std::uint64_t t2 = 10 * P;
    for (unsigned k = 0; k < o.count; ++k) {
      for (const unsigned src : {e, w, s, n, c})
        sc.msgs.push_back({src, c, false, 0, o.bytes, 0, t2 + k, 200 + k});
    }
    const std::uint64_t t3 = t2 + o.count * 6 * P;
    for (unsigned k = 0; k < o.count; ++k) {
      for (const unsigned src : {e, w, n, c})
        sc.msgs.push_back({src, s, false, 0, o.bytes, 0, t3 + 2 * k, 300 + k});
    }
    return {};
  }

  std::string random(scenario& sc, bool transpose) {
    std::mt19937_64 rng(o.seed);
    sc.packet_bytes = o.packet_bytes;
    const std::uint64_t window = o.window != 0 ? o.window : o.count * P / 4 + 1;
    for (unsigned k = 0; k < o.count; ++k) {
      unsigned src = 0;
      unsigned dst = 0;
      if (transpose) {
        do {
          src = static_cast<unsigned>(rng() % Dut::tiles);
          dst = (src % Dut::cols) * Dut::cols + src / Dut::cols;
        } while (src == dst);
      } else {
        src = static_cast<unsigned>(rng() % Dut::tiles);
        dst = static_cast<unsigned>(rng() % (Dut::tiles - 1));
        if (dst >= src) ++dst;
      }
      // A message of 1..3 packets of packet_bytes.
      const auto total = static_cast<unsigned>(1 + rng() % (3 * o.packet_bytes));
      const std::uint64_t post = rng() % window;
      sc.msgs.push_back({src, dst, false, 0, total, o.packet_bytes, post, no_seq});
    }
    return {};
  }

  // Tree tables for the streams: the d trees of the family, then (Saad-Schultz) the d
  // fill-in lines as streams d..2d-1. Returns the parent arrays.
  std::string trees(const fw::tree_family_info*& fam,
                    std::vector<std::vector<std::uint32_t>>& parent) {
    fam = nullptr;
    for (const auto& i : fw::tree_families)
      if (i.name == o.family) fam = &i;
    if (fam == nullptr || fw::tree_support(fam->family, f, o.root) != fw::tree_error::none)
      return "no " + o.family + " trees on " + Dut::size + " from root " + std::to_string(o.root);
    const unsigned d = fam->trees;
    for (unsigned k = 0; k < d; ++k) {
      parent.emplace_back(Dut::tiles);
      fw::build_tree(fam->family, f, o.root, k, parent.back());
    }
    if (fam->family == fw::tree_family::saad_schultz) {
      for (unsigned k = 0; k < d; ++k) {
        parent.emplace_back(Dut::tiles);
        for (unsigned t = 0; t < Dut::tiles; ++t)
          parent.back()[t] = t == o.root ? o.root : fw::fill_parent(f, o.root, k, t);
      }
    }
    return {};
  }

  std::vector<unsigned> depths(const std::vector<std::uint32_t>& par) const {
    std::vector<unsigned> depth(Dut::tiles, 0);
    for (unsigned v = 0; v < Dut::tiles; ++v) {
      unsigned k = 0;
      for (unsigned t = v; t != o.root && par[t] != fw::no_parent; t = par[t])
        ++k;
      depth[v] = k;
    }
    return depth;
  }

  std::string bcast(scenario& sc) {
    const fw::tree_family_info* fam = nullptr;
    std::vector<std::vector<std::uint32_t>> parent;
    if (std::string e = trees(fam, parent); !e.empty()) return e;
    const unsigned d = fam->trees;
    const unsigned q = o.packets;
    if (q * parent.size() > 0xffffU) return "bcast: too many packets";
    if (parent.size() > torus_trees) return "bcast: more streams than tree table entries";
    for (unsigned s = 0; s < parent.size(); ++s) {
      const auto& par = parent[s];
      for (unsigned v = 0; v < Dut::tiles; ++v) {
        if (par[v] == fw::no_parent) continue;
        unsigned mask = v == o.root ? 0U : 1U << torus_local;
        for (unsigned c = 0; c < Dut::tiles; ++c) {
          if (c != v && par[c] == v) mask |= 1U << fw::port_towards(f, v, c);
        }
        sc.table.emplace_back(v, s, mask);
      }
    }
    for (unsigned s = 0; s < parent.size(); ++s) {
      const std::vector<unsigned> depth = depths(parent[s]);
      // A tree is timed from its own packet 0 being written at the root. A fill-in line
      // follows the other tree's q packets out of the root's port (Bermond92 §2.3), so it is
      // timed from that tree's packet 0, q slots on.
      const std::uint64_t offset = s >= d ? q : 0;
      const unsigned first = s * q;  // seq of the stream's packet 0
      const unsigned ref = s < d ? first : (1 - (s - d)) * q;
      for (unsigned j = 0; j < q; ++j) {
        for (unsigned v = 0; v < Dut::tiles; ++v) {
          if (v == o.root || parent[s][v] == fw::no_parent) continue;
          sc.checks.push_back(
              {v, o.root, first + j, o.root * 65536ULL + ref, 0, (offset + depth[v] + j) * P});
        }
      }
    }
    // The root posts packet j of every tree, j = 0..q-1, then the fill-in; its NI
    // writes one a cycle.
    for (unsigned j = 0; j < q; ++j)
      for (unsigned k = 0; k < d; ++k)
        sc.msgs.push_back({o.root, 0, true, k, o.bytes, 0, 0, k * q + j});
    if (parent.size() > d) {
      for (unsigned j = 0; j < q; ++j)
        for (unsigned k = 0; k < d; ++k)
          sc.msgs.push_back({o.root, 0, true, d + k, o.bytes, 0, 0, (d + k) * q + j});
    }
    // The root's NI writes the d packets of a slot in d cycles, and a tile ejects each of
    // the d packets it receives in a slot in L + 1 cycles: both must fit in a slot for
    // the pipeline to run at P.
    if (P < d * (o.bytes + 1))
      return "bcast needs beta + tau L >= d (L + 1) so the root and the ejection keep up";
    return {};
  }

  // forward: the family's trees run by the tiles (one-hop unicast messages).
  std::string forward(scenario& sc) {
    const fw::tree_family_info* fam = nullptr;
    std::vector<std::vector<std::uint32_t>> parent;
    if (std::string e = trees(fam, parent); !e.empty()) return e;
    sc.forward_bytes = o.bytes;
    sc.children.assign(parent.size(), std::vector<std::vector<unsigned>>(Dut::tiles));
    for (unsigned s = 0; s < parent.size(); ++s) {
      for (unsigned v = 0; v < Dut::tiles; ++v) {
        for (unsigned port = 0; port < torus_local; ++port) {
          const unsigned c = tessera::neighbour(f, tessera::tile_id{v}, port)->value();
          if (c != v && c != o.root && parent[s][c] == v) sc.children[s][v].push_back(c);
        }
      }
    }
    std::vector<plan_msg> out;
    for (unsigned j = 0; j < o.packets; ++j)
      for (unsigned s = 0; s < parent.size(); ++s)
        react(sc, o.root, s, j, 0, out);
    sc.msgs = out;
    return {};
  }

  std::string flood(scenario& sc) {
    // A broken forwarding table, to show the deadlock report: entry 0 sends every packet
    // on east and south at every tile and delivers it nowhere, so one multicast packet
    // from tile 0 multiplies until every buffer it can reach is full. The packet owed
    // to tile 5 never comes; the run must end in the watchdog's report, exit 1.
    for (unsigned t = 0; t < Dut::tiles; ++t)
      sc.table.emplace_back(t, 0U, (1U << 0) | (1U << 2));
    sc.msgs.push_back({0, 0, true, 0, o.bytes, 0, 0, 1});
    return {};
  }
};

using arrival_key = std::tuple<unsigned, unsigned, unsigned>;  // tile, src, seq

// Where every packet of a message is owed: unicast its destination; multicast every tile
// its tree's table entries deliver to, walked from the source.
inline std::vector<unsigned> destinations(const plan_msg& m, const scenario& sc,
                                          const tessera::fabric& f) {
  if (!m.multicast) return {m.dst};
  std::map<unsigned, unsigned> mask;
  for (const auto& [tile, tree, mk] : sc.table)
    if (tree == m.tree) mask[tile] = mk;
  std::vector<unsigned> out;
  std::vector<unsigned> todo{m.src};
  unsigned guard = 0;
  while (!todo.empty() && ++guard < 100000) {
    const unsigned t = todo.back();
    todo.pop_back();
    const unsigned mk = mask.count(t) != 0 ? mask[t] : 0U;
    if ((mk >> torus_local) & 1U) out.push_back(t);
    for (unsigned p = 0; p < torus_local; ++p)
      if ((mk >> p) & 1U) todo.push_back(tessera::neighbour(f, tessera::tile_id{t}, p)->value());
  }
  return out;
}

}  // namespace tessera::tb::torus
