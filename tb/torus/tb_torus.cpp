// tb_torus: Verilator testbench for rtl_models/rtl/tsr_torus_top.sv (4 x 4 and 8 x 8).
//
//   tb_torus [--size 4x4|8x8] --scenario S [--compare 1] [--family F] [--root T]
//            [--packets Q] [--bytes L] [--packet-bytes B] [--beta B] [--tau T] [--seed S]
//            [--count N] [--window W] [--timeout C] [--trace FILE.fst]
//
// The model is Bermond, Michallon and Trystram's ("Broadcasting in wraparound meshes with
// parallel monodirectional links", Bermond92 §1.1-2.1). Golden cycle counts
// come from it, never from the RTL: one hop of an L-byte packet holds a link for
// P = beta + tau L cycles, and a packet is complete (delivered) at a tile in the cycle
// its last hop ends; a packet written into its source node at cycle w (the NI writes a
// whole packet in one cycle, in the cycle the message is posted when it is idle) is
// complete h hops away at w + h P.
//   hops:   a packet over h hops arrives h P after it is written at its source;
//   lone:   from two sources to every other tile, one message at a time, of
//           --packets q packets of L bytes: delivered (h + q - 1) P after it is posted;
//   ports:  a tile's four packets to its four neighbours (written in cycles 0..3), and
//           its four neighbours' packets to it, each arrive P after they are written
//           (all ports at once);
//   contention: four packets meet at one output, and bursts meet at one output and at
//           one ejection port (derivation in build_contention);
//   bcast:  on the trees of a family (firmware trees.hpp, multicast tree tables), packet
//           j of a tree reaches a tile at depth k exactly (k + j) P after the tree's
//           first packet is written at the root, so the last of q takes (h + q - 1) P;
//           Saad-Schultz's fill-in packet j reaches line depth k at (q + k + j) P;
//   forward: the same trees run by the tiles: a tile that receives packet j of a tree
//           posts it to each of its children, one-hop unicast messages, in that cycle;
//   random: unicast messages of 1..96 bytes between random tiles, cut into packets of at
//           most --packet-bytes, all arrive once, in order per source, bytes intact;
//   transpose: tile (r, c) sends --count messages to tile (c, r);
//   flood:  a deliberately broken forwarding table floods the torus; the run must end in
//           the deadlock report (ctest checks its text).
// With --compare 1 the same messages (post cycles, sizes, packets, tree tables) also run
// through the TLM engine net::torus_engine with buffers = Buffers, and every packet's
// arrival cycle at every tile, hence every message's delivery cycle, must be equal.
// Exit 0 on pass, 1 on a failed check, a disagreement, a deadlock (the packets owed and
// what every stuck input waits for) or a timeout (the undelivered packets named),
// 2 on bad arguments. The cycles run in the shared loop (tb/common/run_loop.hpp).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../common/run_loop.hpp"
#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/rtl_tops/torus_check.hpp"
#include "tessera/rtl_tops/torus_ni.hpp"
#include "tessera/rtl_tops/torus_top.hpp"
#include "tessera/runtime/routing.hpp"

namespace {

using namespace tessera::tb;
using namespace tessera::rtl_tops;
namespace fw = tessera::fw;
namespace net = tessera::net;

constexpr unsigned no_seq = 0xffffffffU;

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
constexpr std::uint64_t default_timeout = 200000;

std::string own_option(options& o, std::string_view a, std::string_view v) {
  std::uint64_t n = 0;
  const bool num = parse_number(v, n);
  if (a == "--scenario") {
    o.scenario = v;
  } else if (a == "--size") {
    o.size = v;
  } else if (a == "--family") {
    o.family = v;
  } else if (!num) {
    return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
  } else if (a == "--compare") {
    o.compare = n != 0;
  } else if (a == "--window") {
    o.window = n;
  } else {
    const std::pair<std::string_view, unsigned*> counts[] = {
        {"--root", &o.root},  {"--packets", &o.packets},           {"--bytes", &o.bytes},
        {"--beta", &o.beta},  {"--packet-bytes", &o.packet_bytes}, {"--tau", &o.tau},
        {"--count", &o.count}};
    for (const auto& [name, field] : counts) {
      if (a != name) continue;
      *field = static_cast<unsigned>(n);
      return {};
    }
    return "unknown option " + std::string(a);
  }
  return {};
}

// What the options say together, once all are read.
std::string consistent(const options& o) {
  if (o.size != "4x4" && o.size != "8x8") return "--size must be 4x4 or 8x8";
  const torus_top_limits& l = torus_4x4;  // every torus top's ranges (torus_top.hpp)
  const std::string bytes = "1.." + std::to_string(torus_max_bytes);
  if (o.bytes < 1 || o.bytes > torus_max_bytes) return "--bytes must be " + bytes;
  if (o.packet_bytes < 1 || o.packet_bytes > torus_max_bytes)
    return "--packet-bytes must be " + bytes;
  if (o.beta < l.min_beta || o.beta > l.max_beta || o.tau < l.min_tau || o.tau > l.max_tau)
    return "--beta must be " + std::to_string(l.min_beta) + ".." + std::to_string(l.max_beta) +
           " and --tau " + std::to_string(l.min_tau) + ".." + std::to_string(l.max_tau);
  if (o.packets < 1) return "--packets must be at least 1";
  return {};
}

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

unsigned packets_of(const plan_msg& m) {
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
constexpr std::uint64_t no_ref = ~std::uint64_t{0};

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
void react(const scenario& sc, unsigned tile, unsigned stream, unsigned index, std::uint64_t now,
           std::vector<plan_msg>& out) {
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
std::vector<plan_msg> reactions(const scenario& sc,
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
      // follows the other tree's q packets out of the root's port (§2.3), so it is
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
std::vector<unsigned> destinations(const plan_msg& m, const scenario& sc,
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

// The cycle each packet arrived (was complete) at each tile, as the tops' torus monitor
// reports it: what the golden checks and the engine comparison read. The check of what
// arrives (once, intact, in order) is the tops' torus_check.
class torus_record {
 public:
  void arrived(unsigned tile, const torus_hdr& h, std::uint64_t at) {
    arrival_.emplace(arrival_key{tile, h.src, h.seq}, at);
  }
  // The arrival cycle of (tile, src, seq), or -1.
  std::int64_t arrival(unsigned tile, unsigned src, unsigned seq) const {
    const auto it = arrival_.find({tile, src, seq});
    return it == arrival_.end() ? -1 : static_cast<std::int64_t>(it->second);
  }
  const std::map<arrival_key, std::uint64_t>& arrivals() const { return arrival_; }

 private:
  std::map<arrival_key, std::uint64_t> arrival_;
};

struct run_result {
  std::map<arrival_key, std::uint64_t> arrival;
  std::vector<plan_msg> msgs;  // static and reactive, in posting order of the run
};

// The same messages through net::torus_engine, driven by the protocol of engine.hpp.
std::string run_engine(const scenario& sc, const options& o, const tessera::fabric& f,
                       run_result& out, std::uint64_t& stalls) {
  net::torus_params p;
  p.beta = o.beta;
  p.tau = o.tau;
  p.packet_bytes = sc.packet_bytes;
  p.buffers = torus_buffers;
  net::torus_engine e{f, p};
  std::vector<net::tree_entry> trees;
  for (const auto& [tile, tree, mask] : sc.table)
    trees.push_back({tree + 1, tile, mask});
  e.set_trees(trees);
  std::vector<plan_msg> msgs = sc.msgs;
  for (const plan_msg& m : msgs)
    if (m.packet_bytes != sc.packet_bytes) return "engine: messages with different packet sizes";
  std::stable_sort(msgs.begin(), msgs.end(),
                   [](const plan_msg& a, const plan_msg& b) { return a.post < b.post; });
  // Numbered as the RTL run numbers them: the static messages in posting order first.
  numbering num;
  for (plan_msg& m : msgs)
    num.assign(m);
  std::vector<net::torus_arrival> fresh;
  e.set_arrival_hook([&](const net::torus_arrival& a) { fresh.push_back(a); });
  std::vector<plan_msg> all;  // by xfer id - 1
  std::size_t next = 0;
  const auto post = [&](plan_msg m, std::uint64_t now) {
    num.assign(m);
    net::xfer x;
    x.id = all.size() + 1;
    x.src = m.src;
    x.dst = m.dst;
    x.bytes = m.bytes;
    x.tree = m.multicast ? m.tree + 1 : 0;
    all.push_back(m);
    e.inject(x, now);
  };
  const auto record = [&]() {
    for (const net::torus_arrival& a : fresh) {
      const plan_msg& m = all[a.id - 1];
      out.arrival[{a.tile, m.src, m.seq + static_cast<unsigned>(a.packet)}] = a.at;
    }
  };
  std::uint64_t now = msgs.empty() ? 0 : msgs.front().post;
  const std::uint64_t timeout =
      o.timeout.value_or(default_timeout) + (msgs.empty() ? 0 : msgs.back().post);
  while (true) {
    fresh.clear();
    if (e.next_event() == now) e.fire(now);
    record();
    if (!sc.children.empty()) {
      std::vector<std::tuple<unsigned, unsigned, unsigned>> got;
      for (const net::torus_arrival& a : fresh) {
        const plan_msg& m = all[a.id - 1];
        got.emplace_back(a.tile, m.stream, m.index);
      }
      for (const plan_msg& m : reactions(sc, got, now))
        post(m, now);
    }
    while (next < msgs.size() && msgs[next].post == now)
      post(msgs[next++], now);
    fresh.clear();
    e.arbitrate(now);
    record();
    if (e.next_event() == now) continue;
    const std::uint64_t ev = e.next_event();
    const std::uint64_t in = next < msgs.size() ? msgs[next].post : net::never;
    const std::uint64_t to = std::min(ev, in);
    if (to == net::never) break;
    if (to > timeout) return "engine: still running at cycle " + std::to_string(to);
    now = to;
  }
  e.set_arrival_hook(nullptr);
  if (!e.idle()) {
    std::string why = "engine stopped with work left:";
    for (const std::string& s : e.stuck())
      why += " " + s + ";";
    return why;
  }
  stalls = e.credit_stalls();
  out.msgs = all;
  return {};
}

template <class Dut>
int run(const options& o) {
  using model_t = typename Dut::model;
  builder<Dut> b(o);
  if (o.root >= Dut::tiles) {
    std::cerr << "tb_torus: --root must be a tile 0.." << Dut::tiles - 1 << '\n';
    return exit_usage;
  }
  scenario sc;
  std::string err;
  if (o.scenario == "hops")
    err = b.hops(sc);
  else if (o.scenario == "lone")
    err = b.lone(sc);
  else if (o.scenario == "ports")
    err = b.ports(sc);
  else if (o.scenario == "contention")
    err = b.contention(sc);
  else if (o.scenario == "bcast")
    err = b.bcast(sc);
  else if (o.scenario == "forward")
    err = b.forward(sc);
  else if (o.scenario == "random")
    err = b.random(sc, false);
  else if (o.scenario == "transpose")
    err = b.random(sc, true);
  else if (o.scenario == "flood")
    err = b.flood(sc);
  else
    err = "unknown scenario '" + o.scenario + "'";
  if (!err.empty()) {
    std::cerr << "tb_torus: " << err << '\n';
    return exit_usage;
  }
  if (o.compare && o.scenario == "flood") {
    std::cerr << "tb_torus: flood deadlocks by design; it has no comparison\n";
    return exit_usage;
  }
  const std::uint64_t P = b.P;

  if (!Dut::traced && !o.trace_path.empty()) {
    std::cerr << "tb_torus: the " << Dut::size << " model is built without tracing\n";
    return exit_usage;
  }
  const auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!o.trace_path.empty());
  const auto model = std::make_unique<model_t>(ctx.get(), "torus");
  sim_control<model_t> sim(*ctx, *model);
#if TESSERA_RTL_TRACE_FST
  if constexpr (Dut::traced) {
    if (!o.trace_path.empty()) sim.open_trace(o.trace_path);
  }
#endif
  torus_driver<Dut> drv(*model);
  torus_monitor<Dut> mon(*model);
  torus_check packets(Dut::tiles, true);
  torus_record sb;
  std::map<std::uint64_t, std::uint64_t> ready;  // src * 65536 + seq -> cycle written
  numbering num;
  std::vector<plan_msg> posted;
  std::vector<std::vector<unsigned>> owed_to;  // per posted message: the tiles it is for
  std::map<std::pair<unsigned, unsigned>, std::size_t> by_packet;  // (src, seq) -> posted

  const auto post = [&](plan_msg m) {
    num.assign(m);
    torus_message msg;
    msg.id = posted.size();
    msg.src = m.src;
    msg.dst = m.dst;
    msg.multicast = m.multicast;
    msg.tree = m.tree;
    msg.seq = static_cast<std::uint16_t>(m.seq);
    msg.len = m.bytes;
    msg.packet_bytes = m.packet_bytes;
    msg.post = m.post;
    for (unsigned j = 0; j < packets_of(m); ++j)
      by_packet[{m.src, m.seq + j}] = posted.size();
    // flood: owed to tile 5, never delivered.
    owed_to.push_back(o.scenario == "flood" ? std::vector<unsigned>{5} : destinations(m, sc, b.f));
    drv.send(msg);
    posted.push_back(m);
  };

  model->beta_i = static_cast<std::uint16_t>(o.beta);
  model->tau_i = static_cast<std::uint8_t>(o.tau);
  sim.reset();
  for (const auto& [tile, tree, mask] : sc.table) {
    model->tbl_we_i = 1;
    model->tbl_tile_i = static_cast<std::uint16_t>(tile);
    model->tbl_tree_i = static_cast<std::uint8_t>(tree);
    model->tbl_mask_i = static_cast<std::uint8_t>(mask);
    sim.edge();
  }
  model->tbl_we_i = 0;
  std::uint64_t timeout = o.timeout.value_or(default_timeout);
  {
    std::vector<plan_msg> msgs = sc.msgs;
    std::stable_sort(msgs.begin(), msgs.end(),
                     [](const plan_msg& x, const plan_msg& y) { return x.post < y.post; });
    if (!msgs.empty()) timeout += msgs.back().post;
    for (const plan_msg& m : msgs)
      post(m);
  }

  // run_loop's hooks. Progress: a packet complete at any tile, or written by an NI.
  struct hooks {
    const scenario& sc;
    model_t& model;
    torus_driver<Dut>& drv;
    torus_monitor<Dut>& mon;
    torus_check& packets;
    torus_record& sb;
    decltype(post)& post_message;
    const std::vector<plan_msg>& posted;
    const std::vector<std::vector<unsigned>>& owed_to;
    const std::map<std::pair<unsigned, unsigned>, std::size_t>& by_packet;
    std::map<std::uint64_t, std::uint64_t>& ready;
    std::vector<std::pair<unsigned, torus_hdr>> fresh;  // this cycle's arrivals: tile, packet
    bool moved = false;

    void arrived(unsigned tile, const torus_hdr& h, std::uint64_t at) {
      packets.arrive(tile, h, at);
      sb.arrived(tile, h, at);
      fresh.emplace_back(tile, h);
      moved = true;
    }
    // The link inputs' arrivals of this cycle come first: forward posts in the cycle a
    // packet arrives.
    void drive(std::uint64_t now) {
      fresh.clear();
      mon.links(now, [&](unsigned t, unsigned, const torus_hdr& h, std::uint64_t at) {
        arrived(t, h, at);
      });
      if (!sc.children.empty()) {
        std::vector<std::tuple<unsigned, unsigned, unsigned>> got;
        for (const auto& [tile, h] : fresh) {
          const plan_msg& m = posted[by_packet.at({h.src, h.seq})];
          got.emplace_back(tile, m.stream, m.index);
        }
        for (const plan_msg& m : reactions(sc, got, now))
          post_message(m);
      }
      drv.drive(now);
    }
    bool sample(std::uint64_t now) {
      drv.sample(
          now, [](const torus_message&) {},
          [&](const torus_message& msg, const torus_hdr& h, std::uint64_t at) {
            ready[h.src * 65536ULL + h.seq] = at;
            packets.sent(h.src, h.seq, msg.id, h.dst, h.len, h.multicast, owed_to[msg.id], at);
            moved = true;
          });
      mon.local(
          now,
          [&](unsigned t, unsigned, const torus_hdr& h, std::uint64_t at) { arrived(t, h, at); },
          [&](unsigned t, const link_word& w) { packets.eject(t, w, now); });
      return std::exchange(moved, false);
    }
    bool done(std::uint64_t) const { return drv.idle() && !packets.holds_packets(); }
    bool failed() const { return !packets.failure().empty() || !drv.error().empty(); }
    bool waiting_for_time(std::uint64_t now) const { return drv.waiting_for_time(now); }
    // Every input whose oldest packet is stuck (the nodes' wait_o), that packet and the
    // outputs it waits for.
    std::string deadlock_report() const {
      static constexpr const char* port_name[torus_ports] = {"E", "W", "S", "N", "local"};
      std::ostringstream os;
      os << packets.owed(4) << " waiting:";
      for (unsigned t = 0; t < Dut::tiles; ++t) {
        for (unsigned p = 0; p < torus_ports; ++p) {
          if (((model.wait_o[t] >> p) & 1U) == 0) continue;
          const torus_hdr h = get_hdr(model.wait_hdr_o[t][p], 0);
          os << " tile " << t << " input " << port_name[p] << " holds (src " << h.src << ", seq "
             << h.seq << ", "
             << (h.multicast ? "tree " + std::to_string(h.tree) : "to " + std::to_string(h.dst))
             << "), which waits for output";
          for (unsigned q = 0; q < torus_ports; ++q)
            if ((model.wait_ports_o[t][p] >> q) & 1U) os << ' ' << port_name[q];
          os << ';';
        }
      }
      return os.str();
    }
    std::string timeout_report() const { return packets.owed(4); }
  };
  hooks loop_hooks{sc,     *model,  drv,       mon,   packets, sb,   post,
                   posted, owed_to, by_packet, ready, {},      false};
  // No hop takes longer than beta + tau MaxBytes; a moving network delivers far sooner.
  const std::uint64_t stall_limit = 64 * (o.beta + std::uint64_t{o.tau} * torus_max_bytes);
  const run_outcome outcome = run_loop(sim, loop_hooks, {timeout, stall_limit, clocking::edge});
  model->final();

  for (const std::string& e : {drv.error(), packets.failure()})
    if (!e.empty()) std::cerr << "tb_torus: " << e << '\n';
  bool ok = print_verdict("tb_torus", outcome) == exit_pass;
  const bool ran = ok;  // every packet delivered once, intact: the runs can be compared
  std::uint64_t last = 0;
  for (const check& c : sc.checks) {
    if (!ran) break;
    const std::int64_t a = sb.arrival(c.tile, c.src, c.seq);
    std::uint64_t base = c.base;
    if (c.ref_key != no_ref) {
      const auto r = ready.find(c.ref_key);
      if (r == ready.end()) {
        std::cerr << "tb_torus: no write time for reference packet " << c.ref_key << '\n';
        ok = false;
        break;
      }
      base = r->second;
    }
    if (a < 0) {
      std::cerr << "tb_torus: no arrival time for tile " << c.tile << " seq " << c.seq << '\n';
      ok = false;
      break;
    }
    const std::uint64_t got = static_cast<std::uint64_t>(a) - base;
    last = std::max(last, got);
    if (got != c.want) {
      std::cerr << "tb_torus: tile " << c.tile << " packet (src " << c.src << ", seq " << c.seq
                << ") arrived after " << got << " cycles, want " << c.want << '\n';
      ok = false;
    }
  }
  std::cout << "tb_torus " << Dut::size << ' ' << o.scenario
            << (o.scenario == "bcast" || o.scenario == "forward" ? " " + o.family : "") << ": "
            << packets.delivered() << " packets delivered, beta " << o.beta << " tau " << o.tau
            << " L " << o.bytes << ", P = " << P << "; " << sc.checks.size()
            << " timed arrivals, latest " << last << " cycles, last arrival at cycle "
            << (sb.arrivals().empty() ? 0
                                      : std::max_element(sb.arrivals().begin(), sb.arrivals().end(),
                                                         [](const auto& x, const auto& y) {
                                                           return x.second < y.second;
                                                         })
                                            ->second)
            << ": " << (ok ? "PASS" : "FAIL") << '\n';
  if (!ran || !o.compare) return ok ? exit_pass : exit_fail;

  // The engine comparison: every packet's arrival at every tile.
  run_result eng;
  std::uint64_t stalls = 0;
  if (std::string e = run_engine(sc, o, b.f, eng, stalls); !e.empty()) {
    std::cerr << "tb_torus: " << e << '\n';
    return exit_fail;
  }
  const auto& rtl = sb.arrivals();
  std::uint64_t differ = 0;
  const auto report = [&](const arrival_key& k, const std::string& what) {
    if (++differ <= 8)
      std::cerr << "tb_torus: packet (src " << std::get<1>(k) << ", seq " << std::get<2>(k)
                << ") at tile " << std::get<0>(k) << ": " << what << '\n';
  };
  for (const auto& [k, c] : rtl) {
    const auto it = eng.arrival.find(k);
    if (it == eng.arrival.end())
      report(k, "RTL " + std::to_string(c) + ", engine never");
    else if (it->second != c)
      report(k, "RTL " + std::to_string(c) + ", engine " + std::to_string(it->second));
  }
  for (const auto& [k, c] : eng.arrival)
    if (rtl.count(k) == 0) report(k, "engine " + std::to_string(c) + ", RTL never");
  // Messages: delivered at a tile when their last packet is there.
  std::uint64_t messages = 0;
  std::uint64_t last_delivery = 0;
  for (const plan_msg& m : posted) {
    for (const unsigned t : destinations(m, sc, b.f)) {
      std::uint64_t d = 0;
      for (unsigned j = 0; j < packets_of(m); ++j)
        d = std::max(d, rtl.at({t, m.src, m.seq + j}));
      last_delivery = std::max(last_delivery, d);
      ++messages;
    }
  }
  std::cout << "tb_torus " << Dut::size << ' ' << o.scenario << " engine agreement: " << messages
            << " message deliveries (" << rtl.size() << " packet arrivals) compared, last at cycle "
            << last_delivery << ", " << stalls << " credit stalls in the engine: "
            << (differ == 0 ? "identical" : std::to_string(differ) + " differ") << '\n';
  return differ == 0 && ok ? exit_pass : exit_fail;
}

}  // namespace

constexpr const char* usage =
    "usage: tb_torus [--size 4x4|8x8] --scenario S [--compare 1] [--family F] [--root T]\n"
    "                [--packets Q] [--bytes L] [--packet-bytes B] [--beta B] [--tau T]\n"
    "                [--count N] [--window W] [common options]\n"
    "\n"
    "Drives the Verilated store-and-forward torus (Vtsr_torus_4x4, Vtsr_torus_8x8) and holds\n"
    "it to Bermond, Michallon and Trystram's cost beta + tau L per hop (docs/rtl.md).\n"
    "  --scenario   hops, lone, ports, contention, bcast, forward, random, transpose or flood\n"
    "  --compare 1  also run net::torus_engine on the same messages: every packet's arrival\n"
    "               cycle at every tile must be equal (a disagreement fails the run)\n"
    "  --family     bcast/forward trees: single, saad-schultz, simmen, bermond-3d2 or\n"
    "               bermond-optimal (default)\n"
    "The watchdog reports a deadlock when nothing is delivered or written for\n"
    "64 (beta + 256 tau) cycles while packets are owed.\n";

int main(int argc, char* argv[]) {
  options o;
  const testbench_info info{"tb_torus", usage, "200000 after the last message posted at 0"};
  if (const auto stop = parse_command_line(
          argc, argv, info, o,
          [&](std::string_view a, std::string_view v) { return own_option(o, a, v); }))
    return *stop;
  if (const std::string e = consistent(o); !e.empty()) {
    std::cerr << "tb_torus: " << e << '\n';
    return exit_usage;
  }
  try {
#if TESSERA_RTL_TORUS_8X8
    if (o.size == "8x8") return run<torus_top_8x8>(o);
#else
    if (o.size == "8x8") {
      std::cerr << "tb_torus: this build has no 8x8 model (TESSERA_RTL_ONLY)\n";
      return exit_usage;
    }
#endif
    return run<torus_top_4x4>(o);
  } catch (const std::exception& e) {
    std::cerr << "tb_torus: " << e.what() << '\n';
    return exit_fail;
  }
}
