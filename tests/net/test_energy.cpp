// The energy events every engine counts (net/energy.hpp, docs/ppa.md "Energy"), held to
// counts derived here from routes the test computes itself: XY routes on a mesh (columns
// first), e-cube routes on a hypercube (lowest dimension first), shortest ring distances
// on a torus. A lone message of k units over the h hops p0 -> p1 -> ... -> ph makes k h
// link traversals; in a buffered router each of the h + 1 routers on the path writes,
// reads and switches its k units and grants its head one output; a circuit sets up h
// hops and switches its k elements at each of the h + 1 nodes.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/energy.hpp"
#include "tessera/net/flit_engine.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace net = tessera::net;
using net::energy_event;

namespace {

tessera::fabric fab(const std::string& spec) {
  return tessera::parse_fabric(spec).value;
}

net::timed_xfer msg(std::uint64_t id, std::uint32_t src, std::uint32_t dst, std::uint64_t bytes) {
  net::timed_xfer t;
  t.x = net::xfer{id, src, dst, bytes, false, 0};
  return t;
}

std::uint64_t at(const net::event_counts& c, energy_event e) {
  return c[static_cast<std::size_t>(e)];
}

// XY: along the row to the destination's column, then along the column.
std::vector<std::uint32_t> xy_path(std::uint32_t cols, std::uint32_t src, std::uint32_t dst) {
  std::vector<std::uint32_t> p{src};
  std::uint32_t r = src / cols;
  std::uint32_t c = src % cols;
  while (c != dst % cols) {
    c = c < dst % cols ? c + 1 : c - 1;
    p.push_back(r * cols + c);
  }
  while (r != dst / cols) {
    r = r < dst / cols ? r + 1 : r - 1;
    p.push_back(r * cols + c);
  }
  return p;
}

// e-cube: correct the differing address bits from the lowest dimension up.
std::vector<std::uint32_t> ecube_path(std::uint32_t src, std::uint32_t dst) {
  std::vector<std::uint32_t> p{src};
  std::uint32_t at_node = src;
  for (std::uint32_t d = 0; (src ^ dst) >> d != 0; ++d) {
    if (((src ^ dst) >> d & 1U) == 0) continue;
    at_node ^= 1U << d;
    p.push_back(at_node);
  }
  return p;
}

// The per-router events a path of k units and q packets gives in a buffered router.
std::vector<net::event_counts> buffered_expected(std::uint32_t tiles,
                                                 const std::vector<std::uint32_t>& path,
                                                 std::uint64_t k, std::uint64_t q) {
  std::vector<net::event_counts> e(tiles, net::event_counts{});
  for (std::size_t i = 0; i < path.size(); ++i) {
    net::event_counts& r = e[path[i]];
    r[static_cast<std::size_t>(energy_event::buffer_write)] += k;
    r[static_cast<std::size_t>(energy_event::buffer_read)] += k;
    r[static_cast<std::size_t>(energy_event::crossbar)] += k;
    r[static_cast<std::size_t>(energy_event::arbitration)] += q;
    if (i + 1 < path.size()) r[static_cast<std::size_t>(energy_event::link)] += k;
  }
  e[path.front()][static_cast<std::size_t>(energy_event::inject)] += k;
  e[path.back()][static_cast<std::size_t>(energy_event::eject)] += k;
  return e;
}

std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> link_units(
    const net::energy_counts& c) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> out;
  for (const net::link_energy& l : c.links)
    out[{l.from, l.to}] += l.units;
  return out;
}

std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> path_links(
    const std::vector<std::uint32_t>& path, std::uint64_t k) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> out;
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    out[{path[i], path[i + 1]}] += k;
  return out;
}

}  // namespace

TEST_CASE("energy: a lone wormhole message of k flits over h XY hops", "[energy][wormhole]") {
  const tessera::fabric f = fab("mesh:4x4");
  for (const net::wormhole_model model :
       {net::wormhole_model::automatic, net::wormhole_model::flit}) {
    for (const std::uint64_t packet_bytes : {std::uint64_t{0}, std::uint64_t{16}}) {
      for (std::uint32_t src = 0; src < f.tiles(); src += 5) {
        for (std::uint32_t dst = 0; dst < f.tiles(); ++dst) {
          net::wormhole_params p;
          p.width = 4;
          p.packet_bytes = packet_bytes;
          p.engine = model;
          const std::uint64_t bytes = 64;
          const std::uint64_t k = bytes / p.width;  // 16 flits
          const std::uint64_t q = packet_bytes == 0 ? 1 : bytes / packet_bytes;
          auto e = net::make_wormhole_engine(f, p);
          net::replay(*e, {msg(1, src, dst, bytes)});
          const net::energy_counts c = e->energy();
          const auto path = xy_path(f.cols, src, dst);
          INFO("src " << src << " dst " << dst << " packet_bytes " << packet_bytes << " flit "
                      << (model == net::wormhole_model::flit));
          CHECK(c.rule == net::energy_rule::wormhole);
          CHECK(c.unit_bytes == 4);
          CHECK(c.routers == buffered_expected(f.tiles(), path, k, q));
          CHECK(link_units(c) == path_links(path, k));
          CHECK(at(c.total(), energy_event::link) == k * (path.size() - 1));
        }
      }
    }
  }
}

TEST_CASE("energy: a lone circuit of k elements over h e-cube hops", "[energy][circuit]") {
  const tessera::fabric f = fab("hypercube:4");
  for (std::uint32_t src = 0; src < f.tiles(); src += 3) {
    for (std::uint32_t dst = 0; dst < f.tiles(); ++dst) {
      net::circuit_params p;
      p.width = 4;
      const std::uint64_t bytes = 100;
      const std::uint64_t k = (bytes + p.width - 1) / p.width;  // 25 elements
      net::circuit_engine e{f, p};
      net::replay(e, {msg(1, src, dst, bytes)});
      const net::energy_counts c = e.energy();
      const auto path = ecube_path(src, dst);
      std::vector<net::event_counts> want(f.tiles(), net::event_counts{});
      for (std::size_t i = 0; i < path.size(); ++i) {
        want[path[i]][static_cast<std::size_t>(energy_event::crossbar)] += k;
        if (i + 1 < path.size()) {
          want[path[i]][static_cast<std::size_t>(energy_event::link)] += k;
          want[path[i]][static_cast<std::size_t>(energy_event::setup)] += 1;
        }
      }
      want[src][static_cast<std::size_t>(energy_event::inject)] += k;
      want[dst][static_cast<std::size_t>(energy_event::eject)] += k;
      INFO("src " << src << " dst " << dst);
      CHECK(c.rule == net::energy_rule::circuit);
      CHECK(c.routers == want);
      CHECK(link_units(c) == path_links(path, k));
    }
  }
}

TEST_CASE("energy: a lone store-and-forward packet of L bytes over h torus hops",
          "[energy][torus]") {
  const tessera::fabric f = fab("torus:4x4");
  for (std::uint32_t dst = 0; dst < f.tiles(); ++dst) {
    for (const std::uint64_t packet_bytes : {std::uint64_t{0}, std::uint64_t{32}}) {
      net::torus_params p;
      p.beta = 10;
      p.tau = 1;
      p.packet_bytes = packet_bytes;
      const std::uint32_t src = 5;
      const std::uint64_t bytes = 96;
      const std::uint64_t q = packet_bytes == 0 ? 1 : bytes / packet_bytes;
      net::torus_engine e{f, p};
      net::replay(e, {msg(1, src, dst, bytes)});
      const net::energy_counts c = e.energy();
      // The shortest way round each ring of 4.
      const auto ring = [](std::uint32_t a, std::uint32_t b) {
        const std::uint32_t d = a > b ? a - b : b - a;
        return std::min(d, 4 - d);
      };
      const std::uint64_t h = ring(src / 4, dst / 4) + ring(src % 4, dst % 4);
      const net::event_counts t = c.total();
      INFO("dst " << dst << " h " << h << " packet_bytes " << packet_bytes);
      CHECK(c.rule == net::energy_rule::store_forward);
      CHECK(c.unit_bytes == 1);
      CHECK(at(t, energy_event::link) == bytes * h);
      CHECK(at(t, energy_event::buffer_write) == bytes * (h + 1));
      CHECK(at(t, energy_event::buffer_read) == bytes * (h + 1));
      CHECK(at(t, energy_event::arbitration) == q * (h + 1));
      CHECK(at(t, energy_event::setup) == 0);
      CHECK(at(c.routers[src], energy_event::inject) == bytes);
      CHECK(at(c.routers[dst], energy_event::eject) == bytes);
      CHECK(at(c.routers[src], energy_event::buffer_write) >= bytes);
    }
  }
}

TEST_CASE("energy: an all-to-all's counts are the sum of its messages' routes",
          "[energy][wormhole]") {
  // Every tile sends m bytes to every other at once: contention changes the times, not
  // what crosses where. Link flit-hops = k x the sum of the XY distances.
  const tessera::fabric f = fab("mesh:4x4");
  net::wormhole_params p;
  p.width = 8;
  const std::uint64_t bytes = 40;
  const std::uint64_t k = bytes / p.width;
  std::vector<net::timed_xfer> all;
  std::uint64_t hops = 0;
  std::vector<net::event_counts> want(f.tiles(), net::event_counts{});
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      if (s == d) continue;
      all.push_back(msg(all.size() + 1, s, d, bytes));
      const auto path = xy_path(f.cols, s, d);
      hops += path.size() - 1;
      const auto one = buffered_expected(f.tiles(), path, k, 1);
      for (std::uint32_t t = 0; t < f.tiles(); ++t)
        for (std::size_t x = 0; x < net::energy_event_kinds; ++x)
          want[t][x] += one[t][x];
    }
  }
  // Sum over ordered pairs of |dc| + |dr| on a 4x4 mesh: 2 x 16 x 20 = 640.
  REQUIRE(hops == 640);
  auto e = net::make_wormhole_engine(f, p);
  net::replay(*e, all);
  const net::energy_counts c = e->energy();
  CHECK(c.routers == want);
  CHECK(at(c.total(), energy_event::link) == k * 640);
}

TEST_CASE("energy: which events each switching has", "[energy]") {
  using net::energy_rule;
  CHECK_FALSE(net::has_event(energy_rule::wormhole, energy_event::setup));
  CHECK(net::has_event(energy_rule::wormhole, energy_event::buffer_write));
  CHECK_FALSE(net::has_event(energy_rule::circuit, energy_event::buffer_write));
  CHECK(net::has_event(energy_rule::circuit, energy_event::setup));
  CHECK(net::has_event(energy_rule::ideal, energy_event::inject));
  CHECK_FALSE(net::has_event(energy_rule::ideal, energy_event::link));
  CHECK(net::energy_event_name(energy_event::buffer_write) == "buffer_write");
}
