// tb_mesh: Verilator testbench for rtl_models/rtl/tsr_mesh_top.sv (4 x 4 wormhole mesh,
// XY routing, 32-bit flits, 4-flit FIFOs, router_delay r = 1).
//
//   tb_mesh --scenario hops|contention|arbitration|random [--alpha A] [--flits F]
//           [--packets P] [--src T] [--seed S] [--count N] [--window W] [--idle X]
//           [--stall X] [--timeout C] [--trace FILE.fst]
//
// Golden cycle counts come from the wormhole rules of docs/wormhole.md (the TLM engine's
// model of 000_59d2238f27277512.txt's machine), never from the RTL. With
// BufferDepth >= r + 2 no FIFO fills on a free path, so (rules 1-3, 8, 9):
//   hops:        a message of P packets of F flits over h hops, taken by its NI at t,
//                is delivered at t + alpha + (h + 1)(r + 1) + P F;
//   contention:  two worms through link 1->2 (0->3 and 1->3, taken at 0): 1->3 wins
//                the link and is delivered at alpha + 3(r + 1) + F, its lone time;
//                0->3 waits for its tail and is delivered F - (r + 1) cycles after its
//                lone time alpha + 4(r + 1) + F, at alpha + 3(r + 1) + 2F (F >= r + 1);
//   arbitration: four heads ask router 5's south output in the same cycle
//                e = alpha + 2 + 2r (from 4, 6 and 1 taken at 0, from 5 taken at r + 1);
//                round robin from input 0 grants inputs 0, 1, 2, 4 (sources 4, 6, 1, 5)
//                at e + kF, so source k in that order is delivered at
//                e + kF + 2(r + 1) + F;
//   random:      random messages between random tiles, with random back-pressure on
//                both sides (payload withheld with probability --idle, ejection
//                refused with --stall), each delivered exactly once, in order per
//                source, every word intact, before the timeout (XY is deadlock-free).
// Exit 0 on pass, 1 on a failed check, a deadlock or a timeout (naming the tiles and
// what each waits for), 2 on bad arguments.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "mesh_driver.hpp"
#include "mesh_dut.hpp"
#include "mesh_monitor.hpp"
#include "mesh_scoreboard.hpp"

namespace {

using namespace tessera::tb;

constexpr const char* port_name[mesh_ports] = {"E", "W", "S", "N", "local"};

struct options {
  std::string scenario = "hops";
  unsigned alpha = 0;
  unsigned flits = 8;
  unsigned packets = 1;
  unsigned src = 0;
  std::uint64_t seed = 1;
  unsigned count = 600;
  std::uint64_t window = 2000;
  double idle = 0.3;
  double stall = 0.3;
  std::uint64_t timeout = 400000;
  std::string trace_path;
};

bool fraction(std::string_view s, double& v) {
  try {
    std::size_t used = 0;
    v = std::stod(std::string(s), &used);
    return used == s.size() && v >= 0.0 && v < 1.0;
  } catch (...) {
    return false;
  }
}

std::string parse(int argc, char* argv[], options& o) {
  const std::string e =
      parse_options(argc, argv, [&](std::string_view a, std::string_view v) -> std::string {
        std::uint64_t n = 0;
        const bool num = parse_number(v, n);
        if (a == "--scenario") {
          o.scenario = v;
        } else if (a == "--trace") {
          o.trace_path = v;
        } else if (a == "--idle" || a == "--stall") {
          if (!fraction(v, a == "--idle" ? o.idle : o.stall))
            return std::string(a) + " must be a fraction in [0, 1), not '" + std::string(v) + "'";
        } else if (!num) {
          return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
        } else if (a == "--alpha") {
          if (n > 10000) return "--alpha " + std::to_string(n) + " is out of range 0..10000";
          o.alpha = static_cast<unsigned>(n);
        } else if (a == "--flits") {
          if (n < 1 || n > 4096) return "--flits " + std::to_string(n) + " is out of range 1..4096";
          o.flits = static_cast<unsigned>(n);
        } else if (a == "--packets") {
          if (n < 1 || n > 16) return "--packets " + std::to_string(n) + " is out of range 1..16";
          o.packets = static_cast<unsigned>(n);
        } else if (a == "--src") {
          if (n >= mesh_tiles) return "--src " + std::to_string(n) + " is not a tile 0..15";
          o.src = static_cast<unsigned>(n);
        } else if (a == "--seed") {
          o.seed = n;
        } else if (a == "--count") {
          if (n < 1 || n > 100000)
            return "--count " + std::to_string(n) + " is out of range 1..100000";
          o.count = static_cast<unsigned>(n);
        } else if (a == "--window") {
          o.window = n;
        } else if (a == "--timeout") {
          o.timeout = n;
        } else {
          return "unknown option " + std::string(a);
        }
        return {};
      });
  if (!e.empty()) return e;
  if (o.flits * o.packets > 0xffffU) return "--flits times --packets must fit 16 bits";
  return {};
}

struct check {
  unsigned src, seq;
  std::uint64_t want;  // delivery - start
  std::string what;
};

}  // namespace

int main(int argc, char* argv[]) {
  options o;
  if (const std::string e = parse(argc, argv, o); !e.empty()) {
    std::cerr << "tb_mesh: " << e << '\n';
    return exit_usage;
  }
  if (trace_unavailable("tb_mesh", o.trace_path)) return exit_usage;
  const bool random = o.scenario == "random";
  const auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!o.trace_path.empty());
  const auto model = std::make_unique<mesh_model>(ctx.get(), "mesh");
  sim_control<mesh_model> sim(*ctx, *model);
#if TESSERA_RTL_TRACE_FST
  if (!o.trace_path.empty()) sim.open_trace(o.trace_path);
#endif
  mesh_driver drv(*model, random ? o.idle : 0.0, o.seed);
  mesh_monitor mon(*model, random ? o.stall : 0.0, o.seed + 1);
  mesh_scoreboard sb;
  std::vector<check> checks;
  std::vector<unsigned> next_seq(mesh_tiles, 0);
  const std::uint64_t r = mesh_router_delay;
  const std::uint64_t a = o.alpha;
  const std::uint64_t F = o.flits;

  auto post = [&](unsigned src, unsigned dst, unsigned flits, unsigned packet_flits,
                  std::uint64_t at) {
    const mesh_message m{src, dst, next_seq[src]++, flits, packet_flits, at};
    drv.send(m);
    sb.expect(m);
    return m.seq;
  };

  static_assert(mesh_buffer >= mesh_router_delay + 2, "the golden counts assume no FIFO fills");
  if (o.scenario == "hops") {
    // One message to every other tile, spaced so that none meets another.
    const std::uint64_t P = o.packets;
    const std::uint64_t gap = a + 8 * (r + 1) + P * F + 8;
    std::uint64_t at = 0;
    for (unsigned d = 0; d < mesh_tiles; ++d) {
      if (d == o.src) continue;
      const unsigned s = post(o.src, d, o.flits * o.packets, o.packets > 1 ? o.flits : 0, at);
      const std::uint64_t h = mesh_hops(o.src, d);
      checks.push_back({o.src, s, a + (h + 1) * (r + 1) + P * F,
                        std::to_string(o.src) + "->" + std::to_string(d) + " over " +
                            std::to_string(h) + " hops"});
      at += gap;
    }
  } else if (o.scenario == "contention") {
    if (F < r + 1) {
      std::cerr << "tb_mesh: contention needs --flits >= r + 1 = " << r + 1 << '\n';
      return exit_usage;
    }
    const unsigned s0 = post(0, 3, o.flits, 0, 0);
    const unsigned s1 = post(1, 3, o.flits, 0, 0);
    checks.push_back({1, s1, a + 3 * (r + 1) + F, "1->3 (wins link 1->2)"});
    checks.push_back({0, s0, a + 3 * (r + 1) + 2 * F, "0->3 (waits for 1->3's tail)"});
  } else if (o.scenario == "arbitration") {
    const std::uint64_t e = a + 2 + 2 * r;
    const unsigned order[] = {4, 6, 1, 5};  // inputs 0 (E), 1 (W), 2 (S), 4 (local)
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned src = order[k];
      const std::uint64_t at = src == 5 ? r + 1 : 0;
      const unsigned s = post(src, 13, o.flits, 0, at);
      checks.push_back({src, s, e + k * F + 2 * (r + 1) + F - at,
                        std::to_string(src) + "->13, grant " + std::to_string(k + 1) +
                            " at router 5's south output"});
    }
  } else if (random) {
    std::mt19937_64 rng(o.seed);
    for (unsigned n = 0; n < o.count; ++n) {
      const auto src = static_cast<unsigned>(rng() % mesh_tiles);
      auto dst = static_cast<unsigned>(rng() % (mesh_tiles - 1));
      if (dst >= src) ++dst;
      const auto flits = static_cast<unsigned>(1 + rng() % 24);
      const auto per = static_cast<unsigned>(rng() % 9);  // 0: one packet
      post(src, dst, flits, per, o.window == 0 ? 0 : rng() % o.window);
    }
  } else {
    std::cerr << "tb_mesh: unknown scenario '" << o.scenario << "'\n";
    return exit_usage;
  }

  model->alpha_i = static_cast<std::uint16_t>(o.alpha);
  sim.reset();
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> started;  // (src, seq) -> cycle

  // Watchdog: no flit crossing any channel for this long, with messages owed and none
  // waiting for its start cycle, is a deadlock.
  const std::uint64_t stall_limit = 2000;
  std::uint64_t last_progress = 0;
  std::uint64_t flits_moved = 0;
  bool deadlock = false;
  while (!sb.done() && sim.now() < o.timeout) {
    const std::uint64_t now = sim.now();
    drv.drive(now);
    mon.drive();
    sim.settle();
    drv.sample(now, [&](const mesh_message& m, std::uint64_t t) {
      started[{m.src, m.seq}] = t;
      last_progress = now;
    });
    mon.sample(
        now, [&](const mesh_packet& p) { sb.delivered(p); },
        [&](const std::string& e) { sb.fail(e); });
    for (unsigned t = 0; t < mesh_tiles; ++t) {
      if (model->link_valid_o[t] != 0) {
        last_progress = now;
        flits_moved += static_cast<unsigned>(__builtin_popcount(model->link_valid_o[t]));
      }
    }
    sim.edge();
    if (!sb.errors().empty()) break;
    if (now - last_progress > stall_limit && !drv.waiting_for_time(now)) {
      deadlock = true;
      break;
    }
  }
  model->final();

  bool ok = sb.errors().empty();
  for (const auto& e : sb.errors())
    std::cerr << "tb_mesh: " << e << '\n';
  if (ok && deadlock) {
    std::cerr << "tb_mesh: deadlock: no flit moved for " << stall_limit << " cycles;"
              << sb.missing() << " waiting:";
    for (unsigned t = 0; t < mesh_tiles; ++t) {
      for (unsigned p = 0; p < mesh_ports; ++p) {
        if (((model->stall_o[t] >> p) & 1U) == 0) continue;
        const mesh_flit f = get_ctl(model->front_o[t][p]);
        std::cerr << " tile " << t << " input " << port_name[p] << " holds "
                  << (f.head ? "the head" : "a flit") << " of " << f.src << "->" << f.dst
                  << ", which waits for output " << port_name[mesh_xy_port(t, f.dst)] << ';';
      }
    }
    std::cerr << '\n';
    ok = false;
  } else if (ok && !sb.done()) {
    std::cerr << "tb_mesh: timeout after " << o.timeout << " cycles:" << sb.missing() << '\n';
    ok = false;
  }
  std::uint64_t latest = 0;
  for (const check& c : checks) {
    if (!ok) break;
    const std::int64_t d = sb.delivered_at(c.src, c.seq);
    const auto s = started.find({c.src, c.seq});
    if (d < 0 || s == started.end()) {
      std::cerr << "tb_mesh: message " << c.what << " has no delivery time\n";
      ok = false;
      break;
    }
    const std::uint64_t got = static_cast<std::uint64_t>(d) - s->second;
    latest = std::max(latest, got);
    if (got != c.want) {
      std::cerr << "tb_mesh: message " << c.what << " took " << got << " cycles, want " << c.want
                << '\n';
      ok = false;
    }
  }
  std::cout << "tb_mesh " << o.scenario << ": " << sb.messages() << " messages (" << sb.packets()
            << " packets, " << flits_moved << " flit hops) in " << sim.now() << " cycles, alpha "
            << o.alpha << " r " << r << " F " << o.flits << "; " << checks.size()
            << " timed, longest " << latest << " cycles: " << (ok ? "PASS" : "FAIL") << '\n';
  return ok ? exit_pass : exit_fail;
}
