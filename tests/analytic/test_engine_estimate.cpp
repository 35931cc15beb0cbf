// The estimate --algorithm auto ranks by (tessera/models/estimate.hpp). Each expected
// time is derived here from the engine's cost rules as the papers and docs state them:
// Grama's ts + tw m, Boppana's xi + i tau + i + k - 1 with Bokhari's serialized edge,
// Bermond's beta + tau L a hop, and the half-duplex rule of docs/delta.md. How close
// the estimate comes to the simulated engines is tested over a grid of machines in
// tests/cli/auto_grid.py.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "tessera/models/estimate.hpp"
#include "tessera/schedule/build.hpp"

using namespace tessera;
using models::switching;

namespace {

// A schedule from op lists: ops[t] are tile t's ops as {kind, to, from, bytes, step}.
struct op_spec {
  op_kind kind;
  std::uint32_t to;
  std::uint32_t from;
  std::uint64_t bytes;
  std::uint32_t step;
};

schedule make(std::uint32_t tiles, const std::vector<std::vector<op_spec>>& ops) {
  schedule s;
  s.tiles = tiles;
  s.programs.resize(tiles);
  for (std::uint32_t t = 0; t < tiles && t < ops.size(); ++t) {
    for (const op_spec& o : ops[t]) {
      sched_op x;
      x.kind = o.kind;
      x.to = o.to;
      x.from = o.from;
      x.step = o.step;
      if (sends(o.kind)) x.send_bytes = o.bytes;
      if (receives(o.kind)) x.recv_bytes = o.bytes;
      s.programs[t].add(x, {}, {});
    }
  }
  return s;
}

}  // namespace

TEST_CASE("estimate: the ideal network is Grama's ts + tw m per message, one at a time",
          "[estimate]") {
  // Pairwise exchange on a d-cube: p - 1 exchanges of m bytes, each ts + tw m
  // (Grama, Introduction to Parallel Computing, ch. 4: (ts + tw m)(p - 1)).
  models::engine_params p;
  p.ideal.ts = 40;
  p.ideal.tw = 3;
  for (std::uint32_t d = 1; d <= 5; ++d) {
    const fabric f = fabric::hypercube(d);
    const schedule s = build_alltoall(fw::a2a_algorithm::pairwise, f, 100);
    const auto e = models::estimate_on_engine(s, f, switching::ideal, p);
    CHECK(e.complete);
    CHECK(e.messages == std::uint64_t{f.tiles()} * (f.tiles() - 1));
    CHECK(e.cycles == Approx((40.0 + 3.0 * 100) * (f.tiles() - 1)));
  }
}

TEST_CASE("estimate: circuits through one edge are set up one after another", "[estimate]") {
  // Bokhari §2.3: messages whose e-cube paths share an edge take turns on it. On a
  // 3-cube, tiles 0, 2, 4 and 6 all send to tile 1: every path ends on the edge into 1
  // (its last hop, dimension 0 after the others), so the four circuits follow one another.
  // With xi_held = xi the whole start-up runs with the path held, so each circuit
  // holds it for its whole time xi + i (tau + 1) + k - 1 (Boppana).
  models::engine_params p;
  p.circuit.xi = 50;
  p.circuit.xi_held = 50;
  p.circuit.tau = 4;
  p.circuit.width = 1;
  const fabric f = fabric::hypercube(3);
  const std::uint64_t k = 200;
  std::vector<std::vector<op_spec>> ops(8);
  const std::vector<std::uint32_t> senders{0, 2, 4, 6};
  for (std::uint32_t s : senders) {
    ops[s].push_back({op_kind::send, 1, no_tile, k, 1});
    ops[1].push_back({op_kind::recv, no_tile, s, k, 1});
  }
  const auto e = models::estimate_on_engine(make(8, ops), f, switching::circuit, p);
  CHECK(e.complete);
  // Hops from 0, 2, 4, 6 to 1: 1, 2, 2, 3. Each starts when the one before ends (the
  // edge into 1 and tile 1's port are held): the sum of their lone times.
  double sum = 0;
  for (std::uint32_t hops : {1U, 2U, 2U, 3U})
    sum += 50.0 + hops * (4.0 + 1) + k - 1;
  // The order among equal starts is the posting order; the total does not depend on it.
  CHECK(e.cycles == Approx(sum));
  // With none of xi held, the start-ups run before the paths are held and overlap:
  // the turns hold the edge only for i (tau + 1) + k - 1 each, after one xi.
  p.circuit.xi_held = 0;
  const auto free_xi = models::estimate_on_engine(make(8, ops), f, switching::circuit, p);
  CHECK(free_xi.cycles == Approx(sum - 3 * 50.0));
}

TEST_CASE("estimate: store-and-forward packets share a link only at the same time", "[estimate]") {
  // Bermond: a packet of L bytes takes beta + tau L a hop. On a 1 x 4 torus (a ring of
  // 4) tile 0 sends to 2 (links 0->1, 1->2) and tile 1 sends to 2 (link 1->2). Tile 1's
  // packet holds 1->2 during the first hop time, tile 0's packet needs it during the
  // second: no wait. Tile 3 sending to 1 over 3->0->1 does not touch them either.
  models::engine_params p;
  p.torus.beta = 30;
  p.torus.tau = 2;
  p.torus.packet_bytes = 0;
  p.torus.buffers = 0;
  const fabric f = fabric::torus(1, 4);
  const double hop = 30 + 2 * 10.0;
  std::vector<std::vector<op_spec>> ops(4);
  ops[0].push_back({op_kind::send, 2, no_tile, 10, 1});
  ops[1].push_back({op_kind::send, 2, no_tile, 10, 1});
  ops[2].push_back({op_kind::recv, no_tile, 0, 10, 1});
  ops[2].push_back({op_kind::recv, no_tile, 1, 10, 1});
  auto e = models::estimate_on_engine(make(4, ops), f, switching::store_forward, p);
  CHECK(e.cycles == Approx(2 * hop));
  CHECK(e.waited == Approx(0));
  // Tile 1 starting one hop later (after an exchange-free receive from 3) meets tile
  // 0's packet on 1->2 at the same time: one waits a hop.
  ops[3].push_back({op_kind::send, 1, no_tile, 10, 1});
  ops[1].insert(ops[1].begin(), {op_kind::recv, no_tile, 3, 10, 1});
  e = models::estimate_on_engine(make(4, ops), f, switching::store_forward, p);
  // 3 -> 1 is two hops (3->0->1) on the ring of 4: tile 1 sends at 2 hop times, over
  // 1->2, free after tile 0's packet left it at 2 hop times: delivered at 3.
  CHECK(e.cycles == Approx(3 * hop));
}

TEST_CASE("estimate: wormhole worms share a link through its lanes", "[estimate]") {
  // Zero load: the registry's formula (docs/wormhole.md). Two worms over one link with
  // one lane (vcs 1): the second waits for the first's tail. With two VCs and a flit
  // every 2 cycles (Thakur's beta = 2 beta_sat) both go at once.
  models::engine_params p;
  p.wormhole.width = 1;
  p.wormhole.alpha = 100;
  p.wormhole.inject_gap = 2;
  p.wormhole.vcs = 1;
  const fabric f = fabric::mesh(1, 4);
  const models::engine_info& w = models::engine(switching::wormhole);
  const std::uint64_t bytes = 64;
  std::vector<std::vector<op_spec>> ops(4);
  ops[0].push_back({op_kind::send, 3, no_tile, bytes, 1});
  ops[1].push_back({op_kind::send, 2, no_tile, bytes, 1});
  ops[3].push_back({op_kind::recv, no_tile, 0, bytes, 1});
  ops[2].push_back({op_kind::recv, no_tile, 1, bytes, 1});
  const double far = static_cast<double>(w.zero_load(p, bytes, 3));
  const double near = static_cast<double>(w.zero_load(p, bytes, 1));
  auto e = models::estimate_on_engine(make(4, ops), f, switching::wormhole, p);
  // Both post at 0 and are ready after alpha (100). A header takes router_delay + 1 = 2
  // cycles a channel: tile 0's worm (posted first) reaches link 1->2, its third channel
  // after its injection and 0->1, at 100 + 4, and holds it until its tail has passed:
  // its stream, 2 cycles a flit for 64 flits, or longer if its tail reaches the
  // ejection (8 cycles after the start) later than that, and no later than its
  // delivery (far: the last flit is out of the link by then). Tile 1's worm reaches 1->2
  // 2 cycles after its start, so it starts 2 cycles before the link is free, and is
  // delivered its lone time minus alpha after.
  const double hop = 2;
  const double stream = 2.0 * bytes;
  const double freed = std::min(far, 100 + 2 * hop + std::max(stream, (far - 100) - 4 * hop));
  CHECK(e.cycles == Approx(std::max(100.0, freed - hop) + (near - 100)));
  p.wormhole.vcs = 2;  // the zero-load time depends on it (docs/wormhole.md)
  e = models::estimate_on_engine(make(4, ops), f, switching::wormhole, p);
  CHECK(e.cycles == Approx(static_cast<double>(w.zero_load(p, bytes, 3))));
  CHECK(e.waited == Approx(0));
}

TEST_CASE("estimate: a half-duplex NIC serializes a late receive", "[estimate]") {
  // docs/delta.md: a tile's transmit and receive overlap only when they start within
  // duplex_window; an exchange always overlaps with duplex_exchange. Tiles 0 and 1 of a
  // 1 x 2 mesh exchange m bytes (one op each): both streams start together.
  models::engine_params p;
  p.wormhole.width = 1;
  p.wormhole.alpha = 100;
  p.wormhole.inject_gap = 1;
  p.wormhole.vcs = 1;
  p.wormhole.duplex.half_duplex = true;
  p.wormhole.duplex.duplex_window = 10;
  p.wormhole.duplex.duplex_hold = true;
  const fabric f = fabric::mesh(1, 3);
  const models::engine_info& w = models::engine(switching::wormhole);
  const std::uint64_t bytes = 500;
  const double lone = static_cast<double>(w.zero_load(p, bytes, 1));
  std::vector<std::vector<op_spec>> ops(3);
  ops[0].push_back({op_kind::exchange, 1, 1, bytes, 1});
  ops[1].push_back({op_kind::exchange, 0, 0, bytes, 1});
  auto e = models::estimate_on_engine(make(3, ops), f, switching::wormhole, p);
  CHECK(e.cycles == Approx(lone));

  // A receive that begins long after its tile's transmit began waits for it. Tile 1
  // sends 2000 bytes to tile 2 from cycle 0. Tile 0 first receives 50 bytes from tile
  // 2, then sends 100 bytes to tile 1, whose stream reaches tile 1 in the middle of its
  // transmit: it is carried out after that transmit, its 100-cycle stream ending 100
  // cycles after tile 1's message is delivered. The routes share no channel.
  std::vector<std::vector<op_spec>> late(3);
  late[1].push_back({op_kind::send, 2, no_tile, 2000, 1});
  late[1].push_back({op_kind::recv, no_tile, 0, 100, 2});
  late[2].push_back({op_kind::send, 0, no_tile, 50, 1});
  late[2].push_back({op_kind::recv, no_tile, 1, 2000, 2});
  late[0].push_back({op_kind::recv, no_tile, 2, 50, 1});
  late[0].push_back({op_kind::send, 1, no_tile, 100, 2});
  const double long_one = static_cast<double>(w.zero_load(p, 2000, 1));
  e = models::estimate_on_engine(make(3, late), f, switching::wormhole, p);
  CHECK(e.cycles == Approx(long_one + 100));
  // Without the hold the data drains, and the receive still completes then.
  p.wormhole.duplex.duplex_hold = false;
  e = models::estimate_on_engine(make(3, late), f, switching::wormhole, p);
  CHECK(e.cycles == Approx(long_one + 100));
  // Full duplex: tile 0's 100 bytes arrive long before; tile 2's receive of the 2000
  // bytes ends the run.
  p.wormhole.duplex.half_duplex = false;
  e = models::estimate_on_engine(make(3, late), f, switching::wormhole, p);
  CHECK(e.cycles == Approx(long_one));
}

TEST_CASE("estimate: a receive with no send is reported incomplete", "[estimate]") {
  models::engine_params p;
  std::vector<std::vector<op_spec>> ops(2);
  ops[0].push_back({op_kind::recv, no_tile, 1, 8, 1});
  const auto e = models::estimate_on_engine(make(2, ops), fabric::mesh(1, 2), switching::ideal, p);
  CHECK_FALSE(e.complete);
}
