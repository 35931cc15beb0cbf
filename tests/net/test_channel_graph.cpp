// The channel dependency graph (Dally and Seitz, IEEE Trans. Computers C-36(5), 1987;
// net/route_dependencies.hpp): what every routing's graph must be, derived here from the
// routings' definitions, and real cycles where a routing can deadlock.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/net/route_dependencies.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/routing.hpp"

using namespace tessera;
using namespace tessera::net;

namespace {

constexpr std::uint32_t E = 0, W = 1, S = 2, N = 3;

std::uint64_t existing_links(const fabric& f) {
  std::uint64_t n = 0;
  for (std::uint32_t t = 0; t < f.tiles(); ++t)
    for (std::uint32_t port = 0; port < f.ports(); ++port)
      n += neighbour(f, tile_id{t}, port) ? 1U : 0U;
  return n;
}

bool horizontal(std::uint32_t port) {
  return port == E || port == W;
}

// The dependencies of a dimension-order mesh routing, counted by its definition tile by
// tile: a packet that came in going `in` may leave going `out` when both links exist, it
// does not turn back, and it does not turn from the second dimension into the first (XY:
// no turn from S or N into E or W; YX the other way).
std::uint64_t dimension_order_turns(const fabric& f, bool xy) {
  std::uint64_t n = 0;
  for (std::uint32_t t = 0; t < f.tiles(); ++t) {
    for (const std::uint32_t in : {E, W, S, N}) {
      // It came in going `in`: from the neighbour the opposite way.
      const std::uint32_t from_port = in == E ? W : in == W ? E : in == S ? N : S;
      if (!neighbour(f, tile_id{t}, from_port)) continue;
      for (const std::uint32_t out : {E, W, S, N}) {
        if (!neighbour(f, tile_id{t}, out) || out == from_port) continue;
        const bool first_in = horizontal(in) == xy;
        const bool first_out = horizontal(out) == xy;
        if (!first_in && first_out) continue;  // back into the first dimension
        n += 1;
      }
    }
  }
  return n;
}

// Whether some route of `routes` (each a list of links) crosses a then b, in a row.
bool created(const std::vector<std::vector<std::uint32_t>>& routes, std::uint32_t a,
             std::uint32_t b) {
  for (const auto& r : routes)
    for (std::size_t i = 1; i < r.size(); ++i)
      if (r[i - 1] == a && r[i] == b) return true;
  return false;
}

// Every dimension-order route of f, from the runtime's routing (runtime/routing.hpp).
std::vector<std::vector<std::uint32_t>> all_routes(const fabric& f) {
  std::vector<std::vector<std::uint32_t>> out;
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      std::vector<std::uint32_t> r;
      for_each_hop(f, tile_id{s}, tile_id{d}, [&](link_id l) { r.push_back(l.value()); });
      out.push_back(std::move(r));
    }
  }
  return out;
}

// The cycle is one: distinct channels, each link leaving the tile the one before enters,
// the first leaving the tile the last enters, and each dependency in the graph.
void check_closed(const channel_graph& g, const std::vector<channel>& cycle) {
  REQUIRE(cycle.size() >= 2);
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const channel a = cycle[i];
    const channel b = cycle[(i + 1) % cycle.size()];
    CHECK(seen.insert({a.link, a.vc}).second);
    CHECK(endpoints(g.fab(), link_id{a.link}).to == link_source(g.fab(), link_id{b.link}));
    CHECK(g.depends(a, b));
  }
}

// The same graphs built the slow way, source by source, as the engines route one packet:
// each pair's route (every path an adaptive routing allows, found by a walk over the
// states (tile, port in) of that pair alone), each hop's VCs from the packet's own source
// (torus_class) rather than from the walk's state.
using pair_route = std::function<void(std::uint32_t, std::uint32_t, std::vector<std::uint32_t>&)>;

vc_range class_range(bool split, bool upper, std::uint32_t vcs) {
  if (!split) return {0, vcs};
  return upper ? vc_range{vcs / 2, vcs} : vc_range{0, vcs / 2};
}

mesh_place at(const fabric& f, std::uint32_t t) {
  return {t % f.cols, t / f.cols};
}

channel_graph pairwise_wormhole(const fabric& f, mesh_routing r, std::uint32_t vcs) {
  channel_graph g{f, vcs};
  const bool o1 = r == mesh_routing::o1turn;
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      if (s == d) continue;
      for (const bool yx : o1 ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
        struct hop {
          std::uint32_t tile, link;
          bool has_link, cls;
        };
        std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
        std::vector<hop> stack{{s, 0, false, false}};
        while (!stack.empty()) {
          const hop h = stack.back();
          stack.pop_back();
          if (h.tile == d) continue;
          std::vector<std::uint32_t> ports;
          if (f.kind == fabric_kind::torus) {
            ports.push_back(torus_allowed(r, at(f, h.tile), at(f, d), f.cols, f.rows).only());
          } else {
            const mesh_choice c = allowed(r, at(f, h.tile), at(f, d), at(f, s), yx);
            for (const std::uint32_t port : {c.col_port, c.row_port})
              if (port != mesh_port::local) ports.push_back(port);
          }
          for (const std::uint32_t port : ports) {
            const bool cls = f.kind == fabric_kind::torus &&
                             torus_class(port, at(f, h.tile), at(f, s), f.cols, f.rows);
            const bool split = f.kind == fabric_kind::torus ? vcs >= 2 : o1;
            const bool upper = f.kind == fabric_kind::torus ? cls : yx;
            const link_id out = make_link(f, tile_id{h.tile}, port);
            if (h.has_link) {
              const bool held = f.kind == fabric_kind::torus ? h.cls : yx;
              g.add(link_id{h.link}, class_range(split, held, vcs), out,
                    class_range(split, upper, vcs));
            }
            const std::uint32_t next = neighbour(f, tile_id{h.tile}, port)->value();
            if (seen.insert({next, port}).second) stack.push_back({next, out.value(), true, cls});
          }
        }
      }
    }
  }
  return g;
}

channel_graph pairwise_store_forward(const fabric& f, const pair_route& route) {
  channel_graph g{f, 2};
  std::vector<std::uint32_t> links;
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      if (s == d) continue;
      links.clear();
      route(s, d, links);
      const auto cls = [&](std::uint32_t l) {
        const std::uint32_t c =
            torus_class(link_port(f, link_id{l}), at(f, link_source(f, link_id{l}).value()),
                        at(f, s), f.cols, f.rows);
        return vc_range{c, c + 1};
      };
      for (std::size_t i = 1; i < links.size(); ++i)
        g.add(link_id{links[i - 1]}, cls(links[i - 1]), link_id{links[i]}, cls(links[i]));
    }
  }
  return g;
}

// Same channels, and every dependency of one is a dependency of the other.
void check_same(const channel_graph& a, const channel_graph& b) {
  const fabric& f = a.fab();
  REQUIRE(a.vcs() == b.vcs());
  CHECK(a.dependencies() == b.dependencies());
  std::uint64_t both = 0;
  for (std::uint32_t l = 0; l < f.link_slots(); ++l) {
    if (!link_exists(f, link_id{l})) continue;
    const tile_id to = endpoints(f, link_id{l}).to;
    for (std::uint32_t port = 0; port < f.ports(); ++port) {
      if (!neighbour(f, to, port)) continue;
      const std::uint32_t m = make_link(f, to, port).value();
      for (std::uint32_t v = 0; v < a.vcs(); ++v)
        for (std::uint32_t w = 0; w < a.vcs(); ++w)
          both += a.depends({l, v}, {m, w}) && b.depends({l, v}, {m, w}) ? 1U : 0U;
    }
  }
  CHECK(both == a.dependencies());
}

}  // namespace

TEST_CASE("channel graph: a hand-made cycle is found, a chain is not", "[cdg]") {
  // ring:4, one VC: 0 -> 1 -> 2 -> 3 depends in a chain; adding 3 -> 0 -> 1 closes it.
  const fabric f = fabric::ring(4);
  channel_graph g{f, 1};
  const auto plus = [&](std::uint32_t t) { return make_link(f, tile_id{t}, 0); };
  g.add(plus(0), {0, 1}, plus(1), {0, 1});
  g.add(plus(1), {0, 1}, plus(2), {0, 1});
  g.add(plus(2), {0, 1}, plus(3), {0, 1});
  CHECK(g.find_cycle().empty());
  CHECK(g.channels() == 8);
  CHECK(g.dependencies() == 3);
  g.add(plus(3), {0, 1}, plus(0), {0, 1});
  const auto cycle = g.find_cycle();
  CHECK(cycle.size() == 4);
  check_closed(g, cycle);
  CHECK(g.name(cycle[0], "vc").find(" +1 vc0 -> tile ") != std::string::npos);
}

TEST_CASE("check-routes: XY and YX meshes are acyclic with the turns their rule allows", "[cdg]") {
  for (const auto& [rows, cols] : {std::pair{4U, 4U}, {8U, 8U}, {3U, 5U}, {1U, 6U}, {2U, 2U}}) {
    const fabric f = fabric::mesh(rows, cols);
    for (const std::uint32_t vcs : {1U, 2U, 3U}) {
      for (const bool xy : {true, false}) {
        INFO("mesh " << rows << "x" << cols << " vcs " << vcs << (xy ? " xy" : " yx"));
        const channel_graph g =
            wormhole_dependencies(f, xy ? mesh_routing::xy : mesh_routing::yx, vcs);
        CHECK(g.find_cycle().empty());
        CHECK(g.channels() == existing_links(f) * vcs);
        // Any VC may follow any VC: vcs^2 channel pairs per turn.
        CHECK(g.dependencies() == dimension_order_turns(f, xy) * vcs * vcs);
      }
    }
  }
  // 4x4 in closed form: 2R(C-1) + 2C(R-1) = 48 links; straight hops 2R(C-2) + 2C(R-2) = 32
  // and four turns X -> Y at each of (R-1)(C-1) tiles = 36.
  const channel_graph g = wormhole_dependencies(fabric::mesh(4, 4), mesh_routing::xy, 1);
  CHECK(g.channels() == 48);
  CHECK(g.dependencies() == 32 + 36);
}

TEST_CASE("check-routes: O1TURN and the turn-model routings are acyclic", "[cdg]") {
  for (const auto& [rows, cols] : {std::pair{5U, 5U}, {4U, 7U}}) {
    const fabric f = fabric::mesh(rows, cols);
    for (const mesh_routing r :
         {mesh_routing::o1turn, mesh_routing::west_first, mesh_routing::north_last,
          mesh_routing::negative_first, mesh_routing::odd_even}) {
      INFO(mesh_routing_names[static_cast<std::size_t>(r)]);
      const channel_graph g = wormhole_dependencies(f, r, 2);
      CHECK(g.find_cycle().empty());
      // O1TURN takes XY's turns on VC 0 and YX's on VC 1, nothing between them.
      if (r == mesh_routing::o1turn) {
        CHECK(g.dependencies() == dimension_order_turns(f, true) + dimension_order_turns(f, false));
      }
    }
  }
  CHECK_THROWS_WITH(wormhole_dependencies(fabric::mesh(4, 4), mesh_routing::o1turn, 1),
                    Catch::Contains("o1turn needs vcs >= 2"));
}

TEST_CASE("check-routes: a torus without a dateline class closes every ring", "[cdg]") {
  // One VC: nothing changes at the wraparound link, so the routes round each ring (the
  // shorter way, ties the positive way) make its E links depend on one another in a
  // circle. The cycle printed is a real one: each consecutive pair is made by some
  // dimension-order route of the runtime's routing.
  for (const auto& [rows, cols] : {std::pair{4U, 4U}, {5U, 3U}, {6U, 6U}}) {
    const fabric f = fabric::torus(rows, cols);
    INFO("torus " << rows << "x" << cols);
    const channel_graph g = wormhole_dependencies(f, mesh_routing::xy, 1);
    const auto cycle = g.find_cycle();
    REQUIRE(!cycle.empty());
    check_closed(g, cycle);
    const auto routes = all_routes(f);
    for (std::size_t i = 0; i < cycle.size(); ++i)
      CHECK(created(routes, cycle[i].link, cycle[(i + 1) % cycle.size()].link));
  }
  // ring:8 on store-and-forward ports without classes (a graph of one class, which the
  // engine never builds with finite buffers): the same.
  const fabric ring = fabric::ring(8);
  channel_graph flat{ring, 1};
  const auto routes = all_routes(ring);
  for (const auto& r : routes)
    for (std::size_t i = 1; i < r.size(); ++i)
      flat.add(link_id{r[i - 1]}, {0, 1}, link_id{r[i]}, {0, 1});
  const auto cycle = flat.find_cycle();
  REQUIRE(!cycle.empty());
  check_closed(flat, cycle);
}

TEST_CASE("check-routes: dateline classes make the torus acyclic", "[cdg]") {
  for (const auto& [rows, cols] : {std::pair{4U, 4U}, {5U, 3U}, {6U, 6U}, {2U, 4U}}) {
    const fabric f = fabric::torus(rows, cols);
    for (const std::uint32_t vcs : {2U, 3U, 4U}) {
      for (const mesh_routing r : {mesh_routing::xy, mesh_routing::yx}) {
        INFO("torus " << rows << "x" << cols << " vcs " << vcs);
        const channel_graph g = wormhole_dependencies(f, r, vcs);
        CHECK(g.find_cycle().empty());
        CHECK(g.channels() == existing_links(f) * vcs);
      }
    }
    // Store-and-forward buffers split into the same two classes.
    torus_engine e{f, torus_params{}};
    CHECK(e.dependencies().find_cycle().empty());
  }
  torus_engine ring{fabric::ring(9), torus_params{}};
  CHECK(ring.dependencies().find_cycle().empty());
  // Unlimited buffers: a packet never waits for one.
  torus_engine ideal{fabric::torus(4, 4), torus_params{.buffers = 0}};
  CHECK(ideal.dependencies().dependencies() == 0);
}

TEST_CASE("check-routes: a turn cycle made by forwarding tables is refused", "[cdg]") {
  // mesh:2x2, tiles 0 1 / 2 3. Dimension order sends 0 -> 3 E then S (0 -> 1 -> 3) and 3
  // -> 0 W then N (3 -> 2 -> 0). The entries send 1 -> 2 S first (1 -> 3 -> 2) and 2 -> 1
  // N first (2 -> 0 -> 1): the four turns E->S, S->W, W->N, N->E close a cycle of
  // class-0 buffers (no route here wraps, so no packet changes class).
  const fabric f = fabric::mesh(2, 2);
  const std::vector<forwarding_entry> table{{1, 2, S}, {2, 1, N}};
  torus_engine e{f, torus_params{}};
  CHECK_THROWS_WITH(e.set_forwarding(table), Catch::Contains("forwarding tables can deadlock") &&
                                                 Catch::Contains("tile 1 S class0 -> tile 3"));
  // Refused, the engine keeps dimension order.
  CHECK(e.dependencies().find_cycle().empty());
  e.set_forwarding(table, torus_engine::deadlock_check::skip);
  const channel_graph g = e.dependencies();
  const auto cycle = g.find_cycle();
  REQUIRE(cycle.size() == 4);
  check_closed(g, cycle);
  std::set<std::uint32_t> links;
  for (const channel& c : cycle) {
    links.insert(c.link);
    CHECK(c.vc == 0);
  }
  const std::set<std::uint32_t> square{
      make_link(f, tile_id{0}, E).value(), make_link(f, tile_id{1}, S).value(),
      make_link(f, tile_id{3}, W).value(), make_link(f, tile_id{2}, N).value()};
  CHECK(links == square);
  // One entry alone makes no cycle.
  torus_engine one{f, torus_params{}};
  one.set_forwarding({{1, 2, S}});
}

namespace {

// Bermond92's trees (firmware trees.hpp) as the torus's multicast tree tables (a port mask
// per tile: its children, and bit 4 to deliver), and each tree as a forwarding table towards
// its root.
struct tree_tables {
  std::vector<tree_entry> multicast;
  std::vector<std::vector<forwarding_entry>> towards_root;  // one table a tree
  std::uint64_t pairs{0};  // (edge into a tile, edge out of it): a child of a tile not the root
};

tree_tables edst_tables(const fabric& f, const fw::tree_family_info& fam, std::uint32_t root) {
  tree_tables out;
  for (std::uint32_t k = 0; k < fam.trees; ++k) {
    std::vector<std::uint32_t> parent(f.tiles());
    REQUIRE(fw::build_tree(fam.family, f, root, k, parent));
    std::vector<std::uint32_t> mask(f.tiles(), 0);
    std::vector<forwarding_entry> up;
    for (std::uint32_t t = 0; t < f.tiles(); ++t) {
      if (parent[t] == fw::no_parent) continue;
      mask[t] |= 1U << 4;
      if (t == root) continue;
      for (std::uint32_t port = 0; port < 4; ++port) {
        if (neighbour(f, tile_id{parent[t]}, port) == tile_id{t}) {
          mask[parent[t]] |= 1U << port;
          if (parent[t] != root) ++out.pairs;
          break;
        }
      }
      for (std::uint32_t port = 0; port < 4; ++port) {
        if (neighbour(f, tile_id{t}, port) == tile_id{parent[t]}) {
          up.push_back({t, root, port});
          break;
        }
      }
    }
    for (std::uint32_t t = 0; t < f.tiles(); ++t)
      if (mask[t] != 0) out.multicast.push_back({k + 1, t, mask[t]});
    out.towards_root.push_back(std::move(up));
  }
  return out;
}

}  // namespace

TEST_CASE("check-routes: the EDST tree tables are acyclic", "[cdg]") {
  // Every family, every root: the multicast tables of all a family's trees together have
  // no cycle (edge-disjoint trees, each a tree), and neither have the routes a table
  // towards the root gives its tiles.
  for (const auto& [rows, cols] : {std::pair{4U, 4U}, {8U, 8U}, {5U, 7U}}) {
    const fabric f = fabric::torus(rows, cols);
    for (const fw::tree_family_info& fam : fw::tree_families) {
      for (std::uint32_t root = 0; root < f.tiles(); ++root) {
        if (fw::tree_support(fam.family, f, root) != fw::tree_error::none) continue;
        INFO(fam.name << " torus " << rows << "x" << cols << " root " << root);
        const tree_tables t = edst_tables(f, fam, root);
        torus_engine e{f, torus_params{}};
        e.set_trees(t.multicast);  // a forest each
        channel_graph g{f, 2};
        add_tree_dependencies(g, t.multicast);
        CHECK(g.dependencies() == t.pairs);
        CHECK(g.find_cycle().empty());
        for (const auto& up : t.towards_root) {
          torus_engine towards{f, torus_params{}};
          towards.set_forwarding(up, torus_engine::deadlock_check::skip);
          const channel_graph own =
              pairwise_store_forward(f, [&](std::uint32_t src, std::uint32_t dst, auto& l) {
                if (dst == root) towards.route(src, dst, l);
              });
          CHECK(own.find_cycle().empty());
        }
      }
    }
  }
  // The single tree towards tile 0 on 4x4 beside dimension order for every other
  // destination: run takes it (docs/cli.md shows it through check-routes).
  const fabric f4 = fabric::torus(4, 4);
  torus_engine e{f4, torus_params{}};
  e.set_forwarding(edst_tables(f4, fw::info(fw::tree_family::single), 0).towards_root[0]);
}

TEST_CASE("check-routes: multicast trees in class 0 beside unicast close cycles", "[cdg]") {
  // Multicast packets stay in dateline class 0 (torus_engine.hpp), so a tree edge across a
  // wraparound link carries class 0 over the dateline: Simmen's trees from tile 2 of
  // torus:8x8 go round row 0 one way, 2 -> 3 -> ... -> 7 -> 0 -> 1, and unicast packets from
  // tile 0 to tiles 2..3 of the row hold 0 -> 1 and 1 -> 2 in class 0: the row's class-0
  // E buffers close a cycle when both kinds of traffic share them.
  const fabric f = fabric::torus(8, 8);
  const tree_tables t = edst_tables(f, fw::info(fw::tree_family::simmen), 2);
  torus_engine e{f, torus_params{}};
  channel_graph g = e.dependencies();
  add_tree_dependencies(g, t.multicast);
  const auto cycle = g.find_cycle();
  REQUIRE(!cycle.empty());
  check_closed(g, cycle);
}

TEST_CASE("check-routes: e-cube on the hypercube is acyclic, bits in increasing order", "[cdg]") {
  // Boppana90 §3.1: e-cube corrects the lowest differing bit first, so a route turns from
  // dimension a only into a higher one, and every tile has every such pair a < b.
  for (const std::uint32_t d : {1U, 3U, 5U}) {
    const fabric f = fabric::hypercube(d);
    const channel_graph g = circuit_dependencies(f, circuit_blocking::hold_wait);
    CHECK(g.find_cycle().empty());
    CHECK(g.channels() == std::uint64_t{f.tiles()} * d);
    CHECK(g.dependencies() == std::uint64_t{f.tiles()} * d * (d - 1) / 2);
    CHECK(circuit_dependencies(f, circuit_blocking::release_retry).dependencies() == 0);
  }
}

TEST_CASE("check-routes: walking a destination's routes together finds each pair's", "[cdg]") {
  // The graphs walk every source towards a destination at once, a head's class taken from
  // the walk's state; the reference above walks pair by pair with the class read off the
  // source. They must be the same graph.
  const std::vector<fabric> meshes{fabric::mesh(4, 4), fabric::mesh(3, 5), fabric::mesh(2, 6)};
  for (const fabric& f : meshes) {
    for (std::size_t r = 0; r < mesh_routing_names.size(); ++r) {
      const auto routing = static_cast<mesh_routing>(r);
      INFO("mesh " << f.rows << "x" << f.cols << " " << mesh_routing_names[r]);
      check_same(wormhole_dependencies(f, routing, 2), pairwise_wormhole(f, routing, 2));
    }
  }
  const std::vector<fabric> tori{fabric::torus(4, 4), fabric::torus(5, 3), fabric::torus(2, 6),
                                 fabric::torus(6, 7)};
  for (const fabric& f : tori) {
    for (const mesh_routing r : {mesh_routing::xy, mesh_routing::yx}) {
      for (const std::uint32_t vcs : {1U, 2U, 4U}) {
        INFO("torus " << f.rows << "x" << f.cols << " vcs " << vcs);
        check_same(wormhole_dependencies(f, r, vcs), pairwise_wormhole(f, r, vcs));
      }
    }
  }
  // Store-and-forward: dimension order on tori, rings and a mesh, then random forwarding
  // tables (entries that loop are refused and left out).
  std::vector<fabric> sf = tori;
  sf.push_back(fabric::ring(7));
  sf.push_back(fabric::ring(8));
  sf.push_back(fabric::mesh(3, 4));
  std::mt19937 rng{38};
  for (const fabric& f : sf) {
    INFO(kind_name(f.kind) << " " << f.rows << "x" << f.cols);
    torus_engine e{f, torus_params{}};
    const auto dimension_order = [&](std::uint32_t s, std::uint32_t d, auto& l) {
      for_each_hop(f, tile_id{s}, tile_id{d}, [&](link_id x) { l.push_back(x.value()); });
    };
    check_same(e.dependencies(), pairwise_store_forward(f, dimension_order));
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<forwarding_entry> table;
      for (int k = 0; k < 6; ++k) {
        const std::uint32_t t = static_cast<std::uint32_t>(rng() % f.tiles());
        const std::uint32_t d = static_cast<std::uint32_t>(rng() % f.tiles());
        const std::uint32_t port = static_cast<std::uint32_t>(rng() % f.ports());
        if (t == d || !neighbour(f, tile_id{t}, port)) continue;
        std::vector<forwarding_entry> more = table;
        more.push_back({t, d, port});
        torus_engine probe{f, torus_params{}};
        try {
          probe.set_forwarding(more, torus_engine::deadlock_check::skip);
        } catch (const input_error&) {
          continue;  // it loops
        }
        table = std::move(more);
      }
      torus_engine tabled{f, torus_params{}};
      tabled.set_forwarding(table, torus_engine::deadlock_check::skip);
      check_same(tabled.dependencies(),
                 pairwise_store_forward(
                     f, [&](std::uint32_t s, std::uint32_t d, auto& l) { tabled.route(s, d, l); }));
    }
  }
}

TEST_CASE("check-routes: a fabric too large to check is refused, not slow", "[cdg]") {
  CHECK_THROWS_WITH(wormhole_dependencies(fabric::mesh(256, 256), mesh_routing::xy, 1),
                    Catch::Contains("mesh:256x256 are too many to check"));
  CHECK_THROWS_AS(circuit_dependencies(fabric::hypercube(16), circuit_blocking::hold_wait),
                  input_error);
}
