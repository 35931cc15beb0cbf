// tb_torus: Verilator testbench for rtl_models/rtl/tsr_torus_top.sv (4 x 4).
//
//   tb_torus --scenario hops|ports|bcast|random|flood [--family F] [--root T] [--packets Q]
//            [--bytes L] [--beta B] [--tau T] [--seed S] [--count N] [--timeout C]
//            [--trace FILE.fst]
//
// Golden cycle counts come from the store-and-forward model of
// 002_99346807104d0b95.txt §1.1-2.1, never from the RTL: one hop of an L-byte packet
// holds a link for P = beta + tau L cycles, so
//   hops:   a packet over h hops arrives h P after it is complete at its source;
//   ports:  a tile's four packets to its four neighbours, and its four neighbours'
//           packets to it, each arrive P after they are ready (all ports at once);
//   bcast:  on the trees of a family (firmware trees.hpp), packet j of a tree reaches
//           a tile at depth k exactly (k + j) P after the tree's first packet is ready
//           at the root, so the last of q takes (h + q - 1) P; Saad-Schultz's fill-in
//           packet j reaches line depth k at (q + k + j) P;
//   random: unicast messages of 1..96 bytes between random tiles, which the NIs cut
//           into packets of at most 32, all arrive once, in order per source, bytes
//           intact, before the timeout.
//   flood:  a deliberately broken forwarding table floods the torus; the run must end in
//           the deadlock report (ctest checks its text).
// Exit 0 on pass, 1 on a failed check, a deadlock (the packets owed and what every
// stuck input waits for) or a timeout (the undelivered packets named),
// 2 on bad arguments.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "tessera/firmware/trees.hpp"
#include "torus_driver.hpp"
#include "torus_dut.hpp"
#include "torus_monitor.hpp"
#include "torus_scoreboard.hpp"

namespace {

using namespace tessera::tb;
namespace fw = tessera::fw;

struct options {
  std::string scenario = "hops";
  std::string family = "bermond-optimal";
  unsigned root = 0;
  unsigned packets = 4;
  unsigned bytes = 8;
  unsigned beta = 20;
  unsigned tau = 2;
  std::uint64_t seed = 1;
  unsigned count = 400;
  std::uint64_t timeout = 200000;
  std::string trace_path;
};

std::string parse(int argc, char* argv[], options& o) {
  const std::string e =
      parse_options(argc, argv, [&](std::string_view a, std::string_view v) -> std::string {
        std::uint64_t n = 0;
        const bool num = parse_number(v, n);
        if (a == "--scenario") {
          o.scenario = v;
        } else if (a == "--family") {
          o.family = v;
        } else if (a == "--trace") {
          o.trace_path = v;
        } else if (!num) {
          return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
        } else if (a == "--root") {
          o.root = static_cast<unsigned>(n);
        } else if (a == "--packets") {
          o.packets = static_cast<unsigned>(n);
        } else if (a == "--bytes") {
          o.bytes = static_cast<unsigned>(n);
        } else if (a == "--beta") {
          o.beta = static_cast<unsigned>(n);
        } else if (a == "--tau") {
          o.tau = static_cast<unsigned>(n);
        } else if (a == "--seed") {
          o.seed = n;
        } else if (a == "--count") {
          o.count = static_cast<unsigned>(n);
        } else if (a == "--timeout") {
          o.timeout = n;
        } else {
          return "unknown option " + std::string(a);
        }
        return {};
      });
  if (!e.empty()) return e;
  if (o.bytes < 1 || o.bytes > torus_max_bytes) return "--bytes must be 1..32";
  if (o.beta < 1 || o.beta > 65535 || o.tau < 1 || o.tau > 255)
    return "--beta must be 1..65535 and --tau 1..255";
  if (o.root >= torus_tiles) return "--root must be a tile 0..15";
  if (o.packets < 1) return "--packets must be at least 1";
  return {};
}

torus_packet make_packet(unsigned src, unsigned dst, unsigned seq, unsigned len, bool multicast,
                         unsigned tree, std::uint64_t not_before) {
  torus_packet p;
  p.hdr.src = static_cast<std::uint16_t>(src);
  p.hdr.dst = static_cast<std::uint16_t>(dst);
  p.hdr.seq = static_cast<std::uint16_t>(seq);
  p.hdr.len = static_cast<std::uint16_t>(len);
  p.hdr.multicast = multicast;
  p.hdr.tree = static_cast<std::uint8_t>(tree);
  p.not_before = not_before;
  for (unsigned k = 0; k < len; ++k)
    p.bytes.push_back(torus_byte(src, seq, k));
  return p;
}

// Torus distance on 4 x 4 (the length of the dimension-order route).
unsigned distance(unsigned a, unsigned b) {
  const unsigned dr = (b / torus_cols + torus_rows - a / torus_cols) % torus_rows;
  const unsigned dc = (b % torus_cols + torus_cols - a % torus_cols) % torus_cols;
  return std::min(dr, torus_rows - dr) + std::min(dc, torus_cols - dc);
}

struct check {
  unsigned tile, src, seq;
  std::uint64_t ready_key;  // index into ready times: src * 65536 + seq of the reference
  std::uint64_t want;       // arrival + 1 - ready
};

}  // namespace

int main(int argc, char* argv[]) {
  options o;
  if (const std::string e = parse(argc, argv, o); !e.empty()) {
    std::cerr << "tb_torus: " << e << '\n';
    return exit_usage;
  }
  if (trace_unavailable("tb_torus", o.trace_path)) return exit_usage;
  const auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!o.trace_path.empty());
  const auto model = std::make_unique<torus_model>(ctx.get(), "torus");
  sim_control<torus_model> sim(*ctx, *model);
#if TESSERA_RTL_TRACE_FST
  if (!o.trace_path.empty()) sim.open_trace(o.trace_path);
#endif
  torus_driver drv(*model);
  torus_monitor mon(*model);
  torus_scoreboard sb;
  const std::uint64_t P = o.beta + std::uint64_t{o.tau} * o.bytes;
  std::vector<check> checks;
  std::map<std::uint64_t, std::uint64_t> ready;  // src * 65536 + seq -> cycle complete at src
  // Forwarding entries to write after reset: (tile, tree, mask).
  std::vector<std::tuple<unsigned, unsigned, unsigned>> table;
  const tessera::fabric f = tessera::parse_fabric("torus:4x4").value;

  if (o.scenario == "hops") {
    // One packet from tile 0 to each other tile, spaced so none meets another.
    const std::uint64_t gap = 5 * P + 2 * o.bytes;
    for (unsigned d = 1; d < torus_tiles; ++d) {
      drv.send(0, make_packet(0, d, d, o.bytes, false, 0, d * gap));
      sb.expect(d, make_packet(0, d, d, o.bytes, false, 0, 0).hdr);
      checks.push_back({d, 0, d, d, distance(0, d) * P});  // ready key: src 0, seq d
    }
  } else if (o.scenario == "ports") {
    // Tile 5 and its neighbours east 6, west 4, south 9, north 1.
    if (3 * o.bytes >= P) {
      std::cerr << "tb_torus: ports needs 3 L < beta + tau L so the four hops overlap\n";
      return exit_usage;
    }
    const unsigned centre = 5;
    unsigned seq = 1;
    for (unsigned nb : {6U, 4U, 9U, 1U}) {
      drv.send(centre, make_packet(centre, nb, seq, o.bytes, false, 0, 0));
      sb.expect(nb, make_packet(centre, nb, seq, o.bytes, false, 0, 0).hdr);
      checks.push_back({nb, centre, seq, centre * 65536ULL + seq, P});
      ++seq;
      drv.send(nb, make_packet(nb, centre, seq, o.bytes, false, 0, 0));
      sb.expect(centre, make_packet(nb, centre, seq, o.bytes, false, 0, 0).hdr);
      checks.push_back({centre, nb, seq, nb * 65536ULL + seq, P});
      ++seq;
    }
  } else if (o.scenario == "bcast") {
    const fw::tree_family_info* fam = nullptr;
    for (const auto& i : fw::tree_families)
      if (i.name == o.family) fam = &i;
    if (fam == nullptr || fw::tree_support(fam->family, f, o.root) != fw::tree_error::none) {
      std::cerr << "tb_torus: no " << o.family << " trees on 4x4 from root " << o.root << '\n';
      return exit_usage;
    }
    const unsigned d = fam->trees;
    const unsigned q = o.packets;
    const bool fill = fam->family == fw::tree_family::saad_schultz;
    if (q * (fill ? 2 * d : d) > 0xffffU) return exit_usage;
    // Streams: the d trees, then (Saad-Schultz) the d fill-in lines as trees d..2d-1.
    std::vector<std::vector<std::uint32_t>> parent;
    for (unsigned k = 0; k < d; ++k) {
      parent.emplace_back(torus_tiles);
      fw::build_tree(fam->family, f, o.root, k, parent.back());
    }
    if (fill) {
      for (unsigned k = 0; k < d; ++k) {
        parent.emplace_back(torus_tiles);
        for (unsigned t = 0; t < torus_tiles; ++t)
          parent.back()[t] = t == o.root ? o.root : fw::fill_parent(f, o.root, k, t);
      }
    }
    for (unsigned s = 0; s < parent.size(); ++s) {
      const auto& par = parent[s];
      for (unsigned v = 0; v < torus_tiles; ++v) {
        if (par[v] == fw::no_parent) continue;
        unsigned mask = v == o.root ? 0U : 1U << torus_local;
        for (unsigned c = 0; c < torus_tiles; ++c) {
          if (c != v && par[c] == v) mask |= 1U << fw::port_towards(f, v, c);
        }
        table.emplace_back(v, s, mask);
      }
    }
    // The root injects packet j of every tree, j = 0..q-1, then the fill-in.
    for (unsigned s = 0; s < parent.size(); ++s) {
      // Depth of every tile in stream s: parent steps to the root (this testbench's walk).
      std::vector<unsigned> depth(torus_tiles, 0);
      for (unsigned v = 0; v < torus_tiles; ++v) {
        unsigned k = 0;
        for (unsigned t = v; t != o.root && parent[s][t] != fw::no_parent; t = parent[s][t])
          ++k;
        depth[v] = k;
      }
      // A tree is timed from its own packet 0 being ready at the root. A fill-in line
      // follows the other tree's q packets out of the root's port (§2.3), so it is
      // timed from that tree's packet 0, q slots on.
      const std::uint64_t offset = s >= d ? q : 0;
      const unsigned first = s * q;  // seq of the stream's packet 0
      const unsigned ref = s < d ? first : (1 - (s - d)) * q;
      for (unsigned j = 0; j < q; ++j) {
        for (unsigned v = 0; v < torus_tiles; ++v) {
          if (v == o.root || parent[s][v] == fw::no_parent) continue;
          const torus_hdr h = make_packet(o.root, 0, first + j, o.bytes, true, s, 0).hdr;
          sb.expect(v, h);
          // Timed from the root's first tree packet: slot (offset + depth + j).
          checks.push_back(
              {v, o.root, first + j, o.root * 65536ULL + ref, (offset + depth[v] + j) * P});
        }
      }
    }
    for (unsigned j = 0; j < q; ++j)
      for (unsigned k = 0; k < d; ++k)
        drv.send(o.root, make_packet(o.root, 0, k * q + j, o.bytes, true, k, 0));
    if (fill) {
      for (unsigned j = 0; j < q; ++j)
        for (unsigned k = 0; k < d; ++k)
          drv.send(o.root, make_packet(o.root, 0, (d + k) * q + j, o.bytes, true, d + k, 0));
    }
    if (P < d * (o.bytes + 1)) {
      std::cerr << "tb_torus: bcast needs beta + tau L >= d (L + 1) so the root keeps up\n";
      return exit_usage;
    }
  } else if (o.scenario == "flood") {
    // A broken forwarding table, to show the deadlock report: entry 0 sends every packet
    // on east and south at every tile and delivers it nowhere, so one multicast packet
    // from tile 0 multiplies until every buffer it can reach is full. The packet owed
    // to tile 5 never comes; the run must end in the watchdog's report, exit 1.
    for (unsigned t = 0; t < torus_tiles; ++t)
      table.emplace_back(t, 0U, (1U << 0) | (1U << 2));
    drv.send(0, make_packet(0, 0, 1, o.bytes, true, 0, 0));
    sb.expect(5, make_packet(0, 0, 1, o.bytes, true, 0, 0).hdr);
  } else if (o.scenario == "random") {
    std::mt19937_64 rng(o.seed);
    std::vector<unsigned> seq(torus_tiles * torus_tiles, 0);
    for (unsigned n = 0; n < o.count; ++n) {
      const auto src = static_cast<unsigned>(rng() % torus_tiles);
      auto dst = static_cast<unsigned>(rng() % (torus_tiles - 1));
      if (dst >= src) ++dst;
      // A message of 1..3 packets: the NI cuts it into packets of MaxBytes.
      const auto total = static_cast<unsigned>(1 + rng() % (3 * torus_max_bytes));
      const std::uint64_t at = rng() % (o.count * P / 4 + 1);
      std::vector<torus_packet> packets;
      for (unsigned first = 0; first < total; first += torus_max_bytes) {
        const unsigned len = std::min(torus_max_bytes, total - first);
        const unsigned s = ++seq[src * torus_tiles + dst] + dst * 1000;
        packets.push_back(make_packet(src, dst, s, len, false, 0, at));
        sb.expect(dst, packets.back().hdr);
      }
      drv.send_message(src, std::move(packets), torus_max_bytes);
    }
  } else {
    std::cerr << "tb_torus: unknown scenario '" << o.scenario << "'\n";
    return exit_usage;
  }

  model->beta_i = static_cast<std::uint16_t>(o.beta);
  model->tau_i = static_cast<std::uint8_t>(o.tau);
  sim.reset();
  for (const auto& [tile, tree, mask] : table) {
    model->tbl_we_i = 1;
    model->tbl_tile_i = static_cast<std::uint16_t>(tile);
    model->tbl_tree_i = static_cast<std::uint8_t>(tree);
    model->tbl_mask_i = static_cast<std::uint8_t>(mask);
    sim.edge();
  }
  model->tbl_we_i = 0;
  const std::uint64_t start = sim.now();

  // Watchdog: no packet completing a hop anywhere for this long, with packets still
  // owed, is a deadlock (no hop takes longer than beta + tau * MaxBytes).
  const std::uint64_t stall_limit = 64 * (o.beta + std::uint64_t{o.tau} * torus_max_bytes);
  std::uint64_t last_progress = 0;
  bool deadlock = false;
  while (!(drv.idle() && sb.done()) && sim.now() - start < o.timeout) {
    const std::uint64_t now = sim.now() - start;
    drv.drive(now);
    sim.settle();
    drv.sample(now, [&](const torus_hdr& h, std::uint64_t at) {
      ready[h.src * 65536ULL + h.seq] = at;
      last_progress = now;
    });
    mon.sample(
        now,
        [&](const torus_arrival& a) {
          sb.arrived(a);
          last_progress = now;
        },
        [&](const torus_delivery& dl) { sb.delivered(dl); });
    sim.edge();
    if (!sb.errors().empty()) break;
    if (!sb.done() && now - last_progress > stall_limit && !drv.waiting_for_time(now)) {
      deadlock = true;
      break;
    }
  }
  model->final();

  bool ok = sb.errors().empty();
  for (const auto& e : sb.errors())
    std::cerr << "tb_torus: " << e << '\n';
  if (ok && deadlock) {
    std::cerr << "tb_torus: deadlock: no hop completed for " << stall_limit
              << " cycles with packets owed;" << sb.missing() << " waiting:";
    static constexpr const char* port_name[torus_ports] = {"E", "W", "S", "N", "local"};
    for (unsigned t = 0; t < torus_tiles; ++t) {
      for (unsigned p = 0; p < torus_ports; ++p) {
        if (((model->wait_o[t] >> p) & 1U) == 0) continue;
        const torus_hdr h = get_hdr(model->wait_hdr_o[t][p], 0);
        std::cerr << " tile " << t << " input " << port_name[p] << " holds (src " << h.src
                  << ", seq " << h.seq << ", "
                  << (h.multicast ? "tree " + std::to_string(h.tree)
                                  : "to " + std::to_string(h.dst))
                  << "), which waits for output";
        for (unsigned q = 0; q < torus_ports; ++q)
          if ((model->wait_ports_o[t][p] >> q) & 1U) std::cerr << ' ' << port_name[q];
        std::cerr << ';';
      }
    }
    std::cerr << '\n';
    ok = false;
  } else if (ok && !sb.done()) {
    std::cerr << "tb_torus: timeout after " << o.timeout << " cycles:" << sb.missing() << '\n';
    ok = false;
  }
  std::uint64_t last = 0;
  for (const check& c : checks) {
    if (!ok) break;
    const std::int64_t a = sb.arrival(c.tile, c.src, c.seq);
    const auto r = ready.find(c.ready_key);
    if (a < 0 || r == ready.end()) {
      std::cerr << "tb_torus: no arrival time for tile " << c.tile << " seq " << c.seq << '\n';
      ok = false;
      break;
    }
    const std::uint64_t got = static_cast<std::uint64_t>(a) + 1 - r->second;
    last = std::max(last, got);
    if (got != c.want) {
      std::cerr << "tb_torus: tile " << c.tile << " packet (src " << c.src << ", seq " << c.seq
                << ") arrived after " << got << " cycles, want " << c.want << '\n';
      ok = false;
    }
  }
  std::cout << "tb_torus " << o.scenario << (o.scenario == "bcast" ? " " + o.family : "") << ": "
            << sb.delivered_count() << " packets delivered, beta " << o.beta << " tau " << o.tau
            << " L " << o.bytes << ", P = " << P << "; " << checks.size()
            << " timed arrivals, latest " << last << " cycles: " << (ok ? "PASS" : "FAIL") << '\n';
  return ok ? exit_pass : exit_fail;
}
