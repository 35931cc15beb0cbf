// tb_cube: Verilator testbench for rtl_models/rtl/tsr_cube_top.sv (a circuit-switched
// 7-cube).
//
//   tb_cube --scenario setup|contention|bokhari|presetup|random|starve [--xi X] [--tau T]
//           [--elements K] [--arb lowest-id|round-robin] [--presetup 0|1] [--seed S]
//           [--count N] [--idle PCT] [--timeout C] [--trace FILE.fst]
//
// Times are cycles of the model. A message is posted in the cycle t0 its network
// interface takes the request, and delivered in the cycle E its last element is on the
// destination's receive port. Golden counts come from Boppana's cost model
// (Boppana90 §2) and the setup and teardown rules of docs/rtl.md, never
// from the RTL: an unblocked k-element message over i hops takes
// E - t0 = xi + i tau + i + k - 1, its path completing at S = t0 + xi + i tau.
//   setup:      tile 0 to 2^i - 1 for i = 0..7, one at a time: the formula, S, and
//               every hop granted at t0 + xi + j tau;
//   contention: two paths sharing a link (derived below by hand), then three headers
//               asking for one link in one cycle: the grant order of the arbitration;
//   bokhari:    Bokhari's eight paths through edge 7 -> 15 (Bokhari91 §2.3),
//               posted at once with the iPSC-860 preset (xi 242, tau 25, one
//               byte an element, k = 1000): all eight tails cross 7 -> 15; prints the
//               total against one lone path;
//   presetup:   a tile's messages set up while the one before streams (Boppana and
//               Raghavendra §3.3; derived below by hand, with and without --presetup 1);
//   random:     random messages between random tiles (--idle: percent of cycles a
//               sender withholds an element, adding bubbles);
//   starve:     a sender that never hands over its elements holds its circuit, and the
//               watchdog must name the header waiting behind it (the test expects the
//               failure).
// Every scenario checks that each message arrives exactly once, in order per source and
// destination, with every element intact. Without bubbles every message's t0, every hop's
// grant cycle, S and E must also equal the reference model (tb/reference/cube_reference.hpp), an
// independent cycle-level computation of the same rules.
// Exit 0 on pass, 1 on a failed check, a deadlock or a timeout, 2 on bad arguments.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "../common/run_loop.hpp"
#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "../reference/cube_reference.hpp"
#include "cube_fabric.hpp"
#include "cube_record.hpp"
#include "tessera/rtl_tops/cube_check.hpp"
#include "tessera/rtl_tops/cube_ni.hpp"
#include "tessera/rtl_tops/cube_top.hpp"

namespace {

using namespace tessera::tb;
using namespace tessera::rtl_tops;

struct options : common_options {
  std::string scenario = "setup";
  std::optional<std::uint64_t> xi;
  std::uint64_t xi_held = 0;
  bool xi_draw = false;  // random: each message draws its own xi and xi_held
  std::optional<std::uint64_t> tau;
  std::optional<std::uint64_t> elements;
  cube_arb arb = cube_arb::lowest_id;
  bool presetup = false;  // the interfaces set up the next message while one streams
  unsigned count = 600;
  unsigned idle = 0;  // percent
};

constexpr std::uint64_t default_timeout = 500000;

std::string own_option(options& o, std::string_view a, std::string_view v) {
  std::uint64_t n = 0;
  const bool num = parse_number(v, n);
  if (a == "--scenario") {
    o.scenario = v;
  } else if (a == "--arb") {
    if (v == "lowest-id") {
      o.arb = cube_arb::lowest_id;
    } else if (v == "round-robin") {
      o.arb = cube_arb::round_robin;
    } else {
      return "bad value for --arb: '" + std::string(v) + "' (lowest-id or round-robin)";
    }
  } else if (!num) {
    return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
  } else if (a == "--xi") {
    if (n > cube_7.max_xi)
      return "--xi " + std::string(v) + " is not 0.." + std::to_string(cube_7.max_xi);
    o.xi = n;
  } else if (a == "--xi-held") {
    if (n > cube_7.max_xi)
      return "--xi-held " + std::string(v) + " is not 0.." + std::to_string(cube_7.max_xi);
    o.xi_held = n;
  } else if (a == "--xi-draw") {
    if (n > 1) return "--xi-draw " + std::string(v) + " is not 0 or 1";
    o.xi_draw = n == 1;
  } else if (a == "--presetup") {
    if (n > 1) return "--presetup " + std::string(v) + " is not 0 or 1";
    o.presetup = n == 1;
  } else if (a == "--tau") {
    if (n < cube_7.min_tau || n > cube_7.max_tau)
      return "--tau " + std::string(v) + " is not " + std::to_string(cube_7.min_tau) + ".." +
             std::to_string(cube_7.max_tau);
    o.tau = n;
  } else if (a == "--elements") {
    if (n < 1 || n > cube_7.max_elements)
      return "--elements " + std::string(v) + " is not 1.." + std::to_string(cube_7.max_elements);
    o.elements = n;
  } else if (a == "--count") {
    if (n < 1 || n > 100000) return "--count " + std::string(v) + " is not 1..100000";
    o.count = static_cast<unsigned>(n);
  } else if (a == "--idle") {
    if (n > 90) return "--idle " + std::string(v) + " is not 0..90 (percent)";
    o.idle = static_cast<unsigned>(n);
  } else {
    return "unknown option " + std::string(a);
  }
  return {};
}

const char* arb_name(cube_arb a) {
  return a == cube_arb::lowest_id ? "lowest-id" : "round-robin";
}

std::string port_name(unsigned node, unsigned port) {
  if (port == cube_local) return "the ejection port";
  return "link " + std::to_string(node) + "->" + std::to_string(node ^ (1U << port));
}

std::string msg_name(unsigned src, unsigned dst, unsigned seq) {
  return std::to_string(src) + "->" + std::to_string(dst) + " seq " + std::to_string(seq);
}

// Hops of the e-cube path from src to dst.
unsigned hops(unsigned src, unsigned dst) {
  return static_cast<unsigned>(std::popcount(src ^ dst));
}

// A check of one number against a value derived by hand in this file.
struct golden {
  std::string what;
  std::int64_t got;
  std::int64_t want;
};

// The headers waiting in the fabric now, each with the output it asks for and the
// circuit holding that output.
std::string waiting_headers(const cube_model& m) {
  std::ostringstream os;
  int n = 0;
  for (unsigned t = 0; t < cube_tiles; ++t) {
    for (unsigned p = 0; p < cube_inputs; ++p) {
      const unsigned at = t * cube_inputs + p;
      if (lane<1>(m.wait_o, at) == 0) continue;
      const cube_hdr h = cube_hdr_at(m.want_hdr_o, at);
      const auto o = static_cast<unsigned>(lane<cube_out_width>(m.want_o, at));
      os << "\n  node " << t << " input "
         << (p >= cube_local ? "local " + std::to_string(p - cube_local) : std::to_string(p))
         << ": header " << msg_name(h.src, h.dst, h.seq) << " waits for " << port_name(t, o);
      if (lane<1>(m.busy_o, t * cube_ports + o) != 0) {
        const cube_hdr by = cube_hdr_at(m.hold_hdr_o, t * cube_ports + o);
        os << ", held by " << msg_name(by.src, by.dst, by.seq);
      }
      ++n;
    }
  }
  if (n == 0) os << " none (no header waits)";
  return os.str();
}

}  // namespace

constexpr const char* usage =
    "usage: tb_cube --scenario setup|contention|bokhari|presetup|random|starve [--xi X]\n"
    "               [--xi-held H] [--tau T] [--elements K] [--arb lowest-id|round-robin]\n"
    "               [--presetup 0|1] [--count N] [--idle PCT] [--xi-draw 0|1]\n"
    "               [common options]\n"
    "\n"
    "Drives the Verilated circuit-switched 7-cube (Vtsr_cube_7) and holds it to Boppana's\n"
    "xi + i tau + i + k - 1 and to an independent reference model (docs/rtl.md).\n"
    "  --scenario  setup (0 to 2^i - 1 alone), contention (shared links, arbitration),\n"
    "              bokhari (eight paths through one edge, iPSC-860 preset), presetup (a\n"
    "              tile's next message set up while one streams), random, starve (the\n"
    "              watchdog names the waiting header)\n"
    "  --presetup 1 the interfaces take a message while the last one streams, once its\n"
    "              path is complete and the new path's first output is free\n"
    "  --xi-held H the last H cycles of the start-up run with the path held (H <= xi)\n"
    "  --idle PCT  percent of cycles a sender withholds an element (random)\n"
    "  --xi-draw 1 each message draws its own xi in 0..X and xi_held in 0..its xi, on its\n"
    "              tile's xi inputs while it is requested (random)\n";

static int testbench(int argc, char* argv[]) {
  options o;
  const testbench_info info{"tb_cube", usage, "500000"};
  if (const auto stop = parse_command_line(
          argc, argv, info, o,
          [&](std::string_view a, std::string_view v) { return own_option(o, a, v); }))
    return *stop;
  const std::uint64_t timeout = o.timeout.value_or(default_timeout);
  const bool bokhari = o.scenario == "bokhari";
  // The iPSC-860 preset (docs/machines.md) for Bokhari's experiment, else small values.
  const std::uint64_t xi = o.xi.value_or(bokhari ? 242 : 5);
  const std::uint64_t tau = o.tau.value_or(bokhari ? 25 : 3);
  const std::uint64_t k = o.elements.value_or(bokhari ? 1000 : 16);
  const std::uint64_t held = o.xi_held;
  if (held > xi) {
    std::cerr << "tb_cube: --xi-held " << held << " exceeds xi " << xi << '\n';
    return exit_usage;
  }
  if (held != 0 &&
      (o.scenario == "contention" || o.scenario == "starve" || o.scenario == "presetup")) {
    std::cerr << "tb_cube: --xi-held is for --scenario setup, bokhari and random (the "
                 "contention, presetup and starve goldens are derived with all of xi before "
                 "the header)\n";
    return exit_usage;
  }
  const bool timed = o.idle == 0;

  std::vector<cube_message> msgs;
  std::vector<golden> goldens;
  std::vector<unsigned> next_seq(cube_tiles, 1);
  auto post = [&](unsigned src, unsigned dst, std::uint64_t kk, std::uint64_t at) {
    cube_message m;
    m.id = msgs.size();
    m.src = src;
    m.dst = dst;
    m.seq = static_cast<std::uint16_t>(next_seq[src]++);
    m.k = static_cast<std::uint32_t>(kk);
    m.not_before = at;
    msgs.push_back(m);
    return msgs.size() - 1;
  };

  // Hand-derived expectations, checked after the run: (message, t0, S, E) offsets.
  struct expect_times {
    std::size_t msg;
    std::uint64_t setup;  // S - t0
    std::uint64_t tail;   // E - t0
  };
  std::vector<expect_times> hand;
  // Hand-derived absolute cycles (presetup): t0, S and E of a message.
  struct expect_at {
    std::size_t msg;
    std::uint64_t t0;
    std::uint64_t setup;
    std::uint64_t tail;
  };
  std::vector<expect_at> hand_at;
  // contention: the grant order wanted at link 3->7 from cycle `order_from` on.
  std::vector<unsigned> want_order;
  std::uint64_t order_from = 0;
  unsigned starved = cube_tiles;

  if (o.scenario == "setup") {
    // One message at a time, each posted the cycle after the previous one's tail, so
    // nothing is held: E - t0 = xi + i tau + i + k - 1, whatever part h of the start-up
    // is held with the path; the path completes at S - t0 = xi - h + i tau.
    std::uint64_t at = 0;
    for (unsigned i = 0; i <= cube_dims; ++i) {
      const unsigned dst = (1U << i) - 1;
      const std::uint64_t e = xi + i * tau + i + k - 1;
      hand.push_back({post(0, dst, k, at), xi - held + i * tau, e});
      at += e + 1;
    }
  } else if (o.scenario == "contention") {
    // Part 1, serialization. A = 0->7 (links 0->1, 1->3, 3->7) and B = 1->11 (1->3,
    // 3->11) share link 1->3, both posted at 0.
    //   B asks for 1->3 at xi, free: granted at xi; 3->11 at xi + tau; S_B = xi + 2 tau,
    //     E_B = S_B + 2 + k - 1 = xi + 2 tau + k + 1.
    //   A: 0->1 at xi; asks for 1->3 at xi + tau and waits. B's tail crosses node 1 (its
    //     source) at S_B + k - 1, so 1->3 is free, and granted to A, at
    //     xi + 2 tau + k; then 3->7 free at once; S_A = xi + 4 tau + k and
    //     E_A = S_A + 3 + k - 1 = xi + 4 tau + 2k + 2: tau + k later than alone.
    //   (The TLM engine frees B's links when its tail arrives, E_B, one cycle later.)
    const std::size_t a = post(0, 7, k, 0);
    const std::size_t b = post(1, 11, k, 0);
    hand.push_back({b, xi + 2 * tau, xi + 2 * tau + k + 1});
    hand.push_back({a, xi + 4 * tau + k, xi + 4 * tau + 2 * k + 2});
    // Part 2: W = 1->7 alone (1->3, 3->7) once all is quiet, leaving the round-robin
    // pointer of link 3->7 at 2 (source 1 + 1).
    const std::uint64_t t1 = xi + 4 * tau + 2 * k + 2 + 1;
    hand.push_back({post(1, 7, k, t1), xi + 2 * tau, xi + 2 * tau + 2 + k - 1});
    // Part 3: 1->7 and 2->7 (2->3, 3->7) posted at t2, 3->7 at t2 + tau: all three ask
    // for link 3->7 in cycle R = t2 + xi + tau. Lowest-id serves 1, 2, 3; round-robin
    // from pointer 2 serves 2, 3, 1. With node 3 at hop position p (1 for sources 1 and
    // 2, 0 for source 3) and i = p + 1 hops, the j-th served is granted at G_j, reaches 7
    // at S_j = G_j + tau (7's ejection port is free by then: it frees at
    // E_{j-1} + 1 = G_j + 1), delivers at E_j = S_j + i + k - 1, and 3->7 frees at
    // G_{j+1} = S_j + k + p.
    const std::uint64_t t2 = t1 + xi + 2 * tau + 2 + k - 1 + 1;
    const std::size_t m1 = post(1, 7, k, t2);
    const std::size_t m2 = post(2, 7, k, t2);
    const std::size_t m3 = post(3, 7, k, t2 + tau);
    want_order = o.arb == cube_arb::lowest_id ? std::vector<unsigned>{1, 2, 3}
                                              : std::vector<unsigned>{2, 3, 1};
    order_from = t2;
    std::uint64_t g = t2 + xi + tau;
    for (const unsigned src : want_order) {
      const std::size_t m = src == 1 ? m1 : src == 2 ? m2 : m3;
      const std::uint64_t p = src == 3 ? 0 : 1;
      const std::uint64_t t0 = msgs[m].not_before;
      const std::uint64_t s = g + tau;
      hand.push_back({m, s - t0, s + p + 1 + k - 1 - t0});
      g = s + k + p;
    }
  } else if (bokhari) {
    // Bokhari §2.3, paths (1)..(8) (examples/patterns/bokhari_edge_contention.json).
    const std::vector<std::pair<unsigned, unsigned>> paths = {{0, 127}, {1, 63}, {3, 31}, {7, 15},
                                                              {5, 79},  {6, 47}, {2, 95}, {4, 111}};
    std::vector<std::size_t> at;
    for (const auto& [s, d] : paths)
      at.push_back(post(s, d, k, 0));
    // By hand, the first two through 7 -> 15, with h = xi_held. Every first link is
    // distinct, so all eight headers are granted their first link at xi - h. Path (4),
    // 7->15, takes the edge then: S = xi - h + tau, its elements enter from S + h, and
    // E = S + h + 1 + k - 1 = xi + tau + k. Paths (3), (5) and (6) ask for it at
    // xi - h + tau and wait; (4)'s tail crosses node 7 at S + h + k - 1, so the edge is
    // free at xi + tau + k, and (3) wins under both arbitrations (lowest source;
    // round-robin from pointer 8, where 3 comes before 5 and 6). (3) then reaches 31 two
    // hops later: S = xi + 3 tau + k, E = S + h + 3 + k - 1 = xi + 3 tau + 2k + 2 + h.
    hand.push_back({at[3], xi - held + tau, xi + tau + k});
    hand.push_back({at[2], xi + 3 * tau + k, xi + 3 * tau + 2 * k + 2 + held});
  } else if (o.scenario == "presetup") {
    // Pre-setup (Boppana and Raghavendra §3.3) in three phases that do not overlap, with
    // and without --presetup 1, h = 0. F is the cycle a message's first element enters
    // its source node (S'), E = F + i + k - 1; a resource at hop position j is free from
    // F + k + j, the ejection port from E + 1. The derivations need xi >= 1 and
    // k > xi + tau + 1.
    if (xi < 1 || k <= xi + tau + 1) {
      std::cerr << "tb_cube: --scenario presetup needs xi >= 1 and elements > xi + tau + 1\n";
      return exit_usage;
    }
    const bool pre = o.presetup;
    // Phase A, at 0: tile 0 posts m1 = 0->7 (0->1, 1->3, 3->7), m2 = 0->2, m3 = 0->4.
    //   m1: t0 = 0, S1 = F1 = xi + 3 tau, E1 = F1 + 3 + k - 1.
    //   Pre-setup: m2's first link 0->2 is not m1's, so m2 is taken in the cycle after
    //   m1's path completed, t0 = S1 + 1, gets 0->2 xi later and 2's ejection port tau
    //   after that: S2 = S1 + 1 + xi + tau. Its elements follow m1's last one:
    //   F2 = max(S2, F1 + k) = F1 + k, E2 = F2 + k. m3 waits for a slot, m1's, free at
    //   F1 + k, when m2 is set up (S2 < F1 + k) and 0->4 is free: t0 = F1 + k,
    //   S3 = F1 + k + xi + tau, F3 = max(S3, F2 + k) = F1 + 2k, E3 = F3 + k.
    //   Without: each is taken when the one before has handed over its last element:
    //   m2 at F1 + k, S2 = F2 = F1 + k + xi + tau, E2 = F2 + k; m3 at F2 + k,
    //   S3 = F3 = F2 + k + xi + tau, E3 = F3 + k.
    const std::size_t m1 = post(0, 7, k, 0);
    const std::size_t m2 = post(0, 2, k, 0);
    const std::size_t m3 = post(0, 4, k, 0);
    const std::uint64_t f1 = xi + 3 * tau;
    hand_at.push_back({m1, 0, f1, f1 + 3 + k - 1});
    std::uint64_t e3 = 0;
    if (pre) {
      const std::uint64_t f2 = f1 + k;
      const std::uint64_t f3 = f1 + 2 * k;
      hand_at.push_back({m2, f1 + 1, f1 + 1 + xi + tau, f2 + k});
      hand_at.push_back({m3, f1 + k, f1 + k + xi + tau, f3 + k});
      e3 = f3 + k;
    } else {
      const std::uint64_t f2 = f1 + k + xi + tau;
      const std::uint64_t f3 = f2 + k + xi + tau;
      hand_at.push_back({m2, f1 + k, f2, f2 + k});
      hand_at.push_back({m3, f2 + k, f3, f3 + k});
      e3 = f3 + k;
    }
    // Phase B, at tB = E3 + 1 (all of phase A torn down): tile 0 posts m4 = 0->3
    //   (0->1, 1->3) and m5 = 0->1. S4 = F4 = tB + xi + 2 tau, E4 = F4 + 2 + k - 1.
    //   m5's first link 0->1 is m4's hop 0, held through F4 + k - 1, so even with
    //   pre-setup m5 is taken only at F4 + k, when m4 has handed over its last element:
    //   S5 = F5 = F4 + k + xi + tau, E5 = F5 + k.
    const std::uint64_t t_b = e3 + 1;
    const std::size_t m4 = post(0, 3, k, t_b);
    const std::size_t m5 = post(0, 1, k, t_b);
    const std::uint64_t f4 = t_b + xi + 2 * tau;
    const std::uint64_t f5 = f4 + k + xi + tau;
    hand_at.push_back({m4, t_b, f4, f4 + 2 + k - 1});
    hand_at.push_back({m5, f4 + k, f5, f5 + k});
    // Phase C, at tC = E5 + 1: tile 0 posts m6 = 0->1 and m7 = 0->2, tile 1 posts
    //   m8 = 1->2 (1->0, 0->2) a cycle later.
    //   m6: S6 = F6 = tC + xi + tau, E6 = F6 + k.
    //   m8: 1->0 at tC + 1 + xi, 0->2 at tC + 1 + xi + tau = S6 + 1, 2's ejection port
    //   at S8 = F8 = S6 + 1 + tau, E8 = F8 + 2 + k - 1; 0->2 (its hop 1) is free from
    //   F8 + k + 1 = S6 + 2 + tau + k, 2's ejection port from E8 + 1 = S6 + 3 + tau + k.
    //   Pre-setup: m7 is taken at S6 + 1, the cycle after m6's path completed: 0->2
    //   was free at the end of S6 (its grant to m8 in S6 + 1 itself does not count).
    //   Its header asks for 0->2 at S6 + 1 + xi and waits for m8's tail: granted at
    //   G7 = S6 + 2 + tau + k, then 2's ejection port (free by then, tau >= 1):
    //   S7 = F7 = G7 + tau (F6 + k is earlier), E7 = F7 + k.
    //   Without: m7 is taken at F6 + k = S6 + k and asks at S6 + k + xi:
    //   G7 = S6 + k + max(xi, tau + 2), S7 = F7 = G7 + tau, E7 = F7 + k.
    const std::uint64_t t_c = f5 + k + 1;
    const std::size_t m6 = post(0, 1, k, t_c);
    const std::size_t m7 = post(0, 2, k, t_c);
    const std::size_t m8 = post(1, 2, k, t_c + 1);
    const std::uint64_t s6 = t_c + xi + tau;
    const std::uint64_t s8 = s6 + 1 + tau;
    hand_at.push_back({m6, t_c, s6, s6 + k});
    hand_at.push_back({m8, t_c + 1, s8, s8 + 2 + k - 1});
    const std::uint64_t g7 = pre ? s6 + 2 + tau + k : s6 + k + std::max(xi, tau + 2);
    hand_at.push_back({m7, pre ? s6 + 1 : s6 + k, g7 + tau, g7 + tau + k});
  } else if (o.scenario == "random") {
    // Random pairs (a message to its own tile included), k in 1..elements, posted over
    // `count` cycles: about one message per cycle across the cube.
    std::mt19937_64 rng(o.seed);
    std::vector<std::tuple<std::uint64_t, unsigned, unsigned, std::uint64_t>> draw;
    for (unsigned n = 0; n < o.count; ++n) {
      const auto src = static_cast<unsigned>(rng() % cube_tiles);
      const auto dst = static_cast<unsigned>(rng() % cube_tiles);
      const std::uint64_t kk = 1 + rng() % k;
      const std::uint64_t at = rng() % o.count;
      draw.emplace_back(at, src, dst, kk);
    }
    // Each tile posts in time order, so its sequence numbers grow with time.
    std::stable_sort(draw.begin(), draw.end());
    for (const auto& [at, src, dst, kk] : draw) {
      const std::size_t m = post(src, dst, kk, at);
      if (o.xi_draw) {
        const std::uint64_t own = rng() % (xi + 1);
        msgs[m].xi = static_cast<std::uint16_t>(own);
        msgs[m].xi_held = static_cast<std::uint16_t>(rng() % (own + 1));
      }
    }
  } else if (o.scenario == "starve") {
    // Tile 0 sets up 0->7 and never hands over an element; 1->3 then waits for link
    // 1->3 for ever.
    post(0, 7, k, 0);
    post(1, 3, k, xi + 2 * tau);
    starved = 0;
  } else {
    std::cerr << "tb_cube: unknown scenario '" << o.scenario << "'\n";
    return exit_usage;
  }
  if (o.scenario != "random" && o.xi_draw) {
    std::cerr << "tb_cube: --xi-draw is for --scenario random only\n";
    return exit_usage;
  }
  if (o.scenario != "random" && o.idle != 0) {
    std::cerr << "tb_cube: --idle is for --scenario random only\n";
    return exit_usage;
  }

  // The reference model's view of the same messages, in the same order per tile.
  cube_reference ref(cube_dims, xi, tau,
                     o.arb == cube_arb::lowest_id ? ref_arb::lowest_id : ref_arb::round_robin, held,
                     o.presetup);
  std::vector<ref_message> ref_in;
  for (const cube_message& m : msgs)
    ref_in.push_back({m.src, m.dst, m.k, m.not_before, m.xi, m.xi_held});
  std::vector<ref_result> want;
  if (timed && starved == cube_tiles) {
    want = ref.run(ref_in, timeout);
    if (want.empty()) {
      std::cerr << "tb_cube: the reference model did not finish within " << timeout << " cycles\n";
      return exit_fail;
    }
  }

  const auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!o.trace_path.empty());
  const auto model = std::make_unique<cube_model>(ctx.get(), "cube");
  sim_control<cube_model> sim(*ctx, *model);
#if TESSERA_RTL_TRACE_FST
  if (!o.trace_path.empty()) sim.open_trace(o.trace_path);
#endif
  cube_driver drv(*model, cube_tiles, o.idle / 100.0, o.seed ^ 0x5eedULL);
  if (starved < cube_tiles) drv.withhold(starved);
  cube_monitor mon(*model, cube_tiles);
  cube_fabric_monitor fabric(*model);
  cube_check check(cube_tiles);
  cube_record sb(msgs);
  for (const cube_message& m : msgs)
    drv.send(m);

  // What the run shows: per (src, seq), t0 and the grants in order.
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> posted;
  std::map<std::pair<unsigned, unsigned>, std::vector<cube_grant>> grants;
  std::vector<unsigned> order_seen;  // sources granted link 3->7 from order_from on

  for (unsigned t = 0; t < cube_tiles; ++t) {
    set_lane<16>(model->xi_i, t, xi);
    set_lane<16>(model->xi_held_i, t, held);
  }
  model->tau_i = static_cast<std::uint8_t>(tau);
  model->arb_i = static_cast<std::uint8_t>(o.arb);
  model->presetup_i = o.presetup ? 1 : 0;
  sim.reset();

  // run_loop's hooks. Progress: a message posted, a header granted, an element received.
  struct hooks {
    cube_model& model;
    cube_driver& drv;
    cube_monitor& mon;
    cube_fabric_monitor& fabric;
    cube_check& check;
    cube_record& sb;
    std::map<std::pair<unsigned, unsigned>, std::uint64_t>& posted;
    std::map<std::pair<unsigned, unsigned>, std::vector<cube_grant>>& grants;
    std::vector<unsigned>& order_seen;
    std::uint64_t order_from;
    bool watch_order;

    void drive(std::uint64_t now) { drv.drive(now); }
    bool sample(std::uint64_t now) {
      bool moved = false;
      drv.sample(now, [&](const cube_message& m, std::uint64_t at) {
        posted[{m.src, m.seq}] = at;
        check.taken(m.id, m.src, m.dst, m.seq, m.k);
        moved = true;
      });
      moved |= fabric.sample(now, [&](const cube_grant& g) {
        grants[{g.hdr.src, g.hdr.seq}].push_back(g);
        if (g.node == 3 && g.port == 2 && now >= order_from && watch_order)
          order_seen.push_back(g.hdr.src);
      });
      mon.sample([&](unsigned t, const cube_rx& rx) {
        moved |= rx.valid;
        if (const auto done = check.receive(t, rx, now)) sb.delivered(*done, now);
      });
      return moved;
    }
    [[nodiscard]] bool done(std::uint64_t) const { return drv.idle() && sb.done(); }
    [[nodiscard]] bool failed() const { return !check.failure().empty(); }
    [[nodiscard]] bool waiting_for_time(std::uint64_t now) const {
      return drv.waiting_for_time(now);
    }
    [[nodiscard]] std::string deadlock_report() const {
      return sb.missing() + "\n waiting headers:" + waiting_headers(model);
    }
    [[nodiscard]] std::string timeout_report() const { return sb.missing(); }
  };
  hooks loop_hooks{*model,
                   drv,
                   mon,
                   fabric,
                   check,
                   sb,
                   posted,
                   grants,
                   order_seen,
                   order_from,
                   !want_order.empty()};
  // Watchdog: nothing granted, delivered or posted for this long while messages are
  // owed. The longest quiet stretch of a live fabric is a start-up (xi) or a header hop
  // (tau); bubbles add a few cycles.
  const std::uint64_t stall_limit = xi + tau + 1000;
  const run_outcome outcome = run_loop(sim, loop_hooks, {timeout, stall_limit, clocking::edge});
  model->final();

  if (!check.failure().empty()) std::cerr << "tb_cube: " << check.failure() << '\n';
  bool ok = print_verdict("tb_cube", outcome) == exit_pass;

  std::uint64_t latest = 0;
  for (const cube_message& m : msgs) {
    if (const cube_delivery* d = sb.find(m.dst, m.src, m.seq)) latest = std::max(latest, d->tail);
  }
  // Every message against the reference model.
  std::size_t timed_count = 0;
  for (std::size_t i = 0; ok && !want.empty() && i < msgs.size(); ++i) {
    const cube_message& m = msgs[i];
    const cube_delivery* d = sb.find(m.dst, m.src, m.seq);
    const std::uint64_t t0 = posted.at({m.src, m.seq});
    const ref_result& r = want[i];
    const std::string name =
        "tile " + std::to_string(m.dst) + " message " + msg_name(m.src, m.dst, m.seq) + ": ";
    auto same = [&](const std::string& what, std::uint64_t got, std::uint64_t w) {
      if (got == w) return;
      std::cerr << "tb_cube: " << name << what << " at cycle " << got << ", reference " << w
                << '\n';
      ok = false;
    };
    same("posted", t0, r.posted);
    same("path complete (S)", d->setup, r.setup);
    same("delivered (E)", d->tail, r.tail);
    const auto& g = grants[{m.src, m.seq}];
    if (g.size() != r.hops.size()) {
      std::cerr << "tb_cube: " << name << g.size() << " grants, reference " << r.hops.size()
                << '\n';
      ok = false;
    } else {
      for (std::size_t j = 0; j < g.size(); ++j) {
        if (g[j].node != r.hops[j].node || g[j].port != r.hops[j].port) {
          std::cerr << "tb_cube: " << name << "hop " << j << " granted "
                    << port_name(g[j].node, g[j].port) << " at node " << g[j].node << ", reference "
                    << port_name(r.hops[j].node, r.hops[j].port) << '\n';
          ok = false;
        } else {
          same("hop " + std::to_string(j) + " (" + port_name(g[j].node, g[j].port) + ") granted",
               g[j].cycle, r.hops[j].grant);
        }
      }
    }
    ++timed_count;
  }

  // The hand derivations above, against the run (and so against the reference).
  for (const expect_times& h : hand) {
    if (!ok) break;
    const cube_message& m = msgs[h.msg];
    const cube_delivery* d = sb.find(m.dst, m.src, m.seq);
    const std::uint64_t t0 = posted.at({m.src, m.seq});
    const std::string name = msg_name(m.src, m.dst, m.seq);
    goldens.push_back({name + " S - t0", static_cast<std::int64_t>(d->setup - t0),
                       static_cast<std::int64_t>(h.setup)});
    goldens.push_back({name + " E - t0", static_cast<std::int64_t>(d->tail - t0),
                       static_cast<std::int64_t>(h.tail)});
    goldens.push_back(
        {name + " t0", static_cast<std::int64_t>(t0), static_cast<std::int64_t>(m.not_before)});
    if (o.scenario == "setup") {
      // Every hop j (the ejection port last) granted at t0 + xi - h + j tau.
      const auto& g = grants[{m.src, m.seq}];
      for (std::size_t j = 0; j < g.size(); ++j) {
        goldens.push_back({name + " hop " + std::to_string(j) + " grant - t0",
                           static_cast<std::int64_t>(g[j].cycle - t0),
                           static_cast<std::int64_t>(xi - held + j * tau)});
      }
      goldens.push_back({name + " grants", static_cast<std::int64_t>(g.size()),
                         static_cast<std::int64_t>(hops(m.src, m.dst) + 1)});
    }
  }
  for (const expect_at& h : hand_at) {
    if (!ok) break;
    const cube_message& m = msgs[h.msg];
    const cube_delivery* d = sb.find(m.dst, m.src, m.seq);
    const std::string name = msg_name(m.src, m.dst, m.seq);
    goldens.push_back({name + " t0", static_cast<std::int64_t>(posted.at({m.src, m.seq})),
                       static_cast<std::int64_t>(h.t0)});
    goldens.push_back(
        {name + " S", static_cast<std::int64_t>(d->setup), static_cast<std::int64_t>(h.setup)});
    goldens.push_back(
        {name + " E", static_cast<std::int64_t>(d->tail), static_cast<std::int64_t>(h.tail)});
  }
  if (ok && !want_order.empty()) {
    std::ostringstream got, w;
    for (unsigned s : order_seen)
      got << s << ' ';
    for (unsigned s : want_order)
      w << s << ' ';
    if (order_seen != want_order) {
      std::cerr << "tb_cube: link 3->7 granted to sources " << got.str() << "under "
                << arb_name(o.arb) << ", want " << w.str() << '\n';
      ok = false;
    } else {
      std::cout << "tb_cube: link 3->7 served sources " << got.str() << "(" << arb_name(o.arb)
                << ")\n";
    }
  }
  if (ok && bokhari) {
    // All eight tails crossed 7 -> 15 (node 7, dimension 3).
    goldens.push_back({"tails across 7->15", fabric.tails(7, 3), 8});
    // Path (1) alone: xi + 7 tau + 7 + k - 1.
    const std::uint64_t lone = xi + 7 * tau + 7 + k - 1;
    std::cout << "tb_cube bokhari: eight messages take " << latest << " cycles, one lone path "
              << lone << ": ratio " << std::fixed << std::setprecision(2)
              << static_cast<double>(latest) / static_cast<double>(lone) << "; tails across 7->15 "
              << fabric.tails(7, 3) << '\n';
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      const cube_delivery* d = sb.find(msgs[i].dst, msgs[i].src, msgs[i].seq);
      std::cout << "  " << msg_name(msgs[i].src, msgs[i].dst, msgs[i].seq) << ": S " << d->setup
                << ", E " << d->tail << '\n';
    }
  }
  for (const golden& g : goldens) {
    if (g.got == g.want) continue;
    std::cerr << "tb_cube: " << g.what << " = " << g.got << ", want " << g.want << '\n';
    ok = false;
  }

  std::cout << "tb_cube " << o.scenario << ": " << sb.delivered_count() << " of " << msgs.size()
            << " messages delivered, xi " << xi << " tau " << tau
            << (o.scenario == "random" ? " k <= " : " k ") << k << ' ' << arb_name(o.arb);
  if (o.presetup) std::cout << " presetup";
  if (o.idle != 0) std::cout << " idle " << o.idle << '%';
  std::cout << "; ";
  if (want.empty())
    std::cout << "not timed";
  else
    std::cout << timed_count << " timed against the reference (" << ref.blocked()
              << " grants after a wait)";
  std::cout << ", " << goldens.size() << " hand-derived counts, latest tail at cycle " << latest
            << ": " << (ok ? "PASS" : "FAIL") << '\n';
  return ok ? exit_pass : exit_fail;
}

int main(int argc, char* argv[]) {
  return finish(argc, argv, testbench(argc, argv));
}
