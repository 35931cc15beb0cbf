// The channel dependency graphs of the engines' routings (route_dependencies.hpp).
#include "tessera/net/route_dependencies.hpp"

#include <unordered_map>

#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net {

namespace {

std::string spec(const fabric& f) {
  std::string s{kind_name(f.kind)};
  if (f.kind == fabric_kind::hypercube) return s + ":" + std::to_string(f.dim);
  if (f.kind == fabric_kind::ring) return s + ":" + std::to_string(f.cols);
  return s + ":" + std::to_string(f.rows) + "x" + std::to_string(f.cols);
}

void check_steps(const fabric& f, std::uint64_t steps) {
  if (steps > max_route_steps) {
    throw input_error("the routes of " + spec(f) + " are too many to check for deadlock (about " +
                      std::to_string(steps) + " route steps, at most 2^30)");
  }
}

// Every ordered pair of distinct tiles, each route at most max_hops long.
std::uint64_t pair_steps(const fabric& f) {
  const std::uint64_t p = f.tiles();
  return p * (p - 1) * (std::uint64_t{max_hops(f)} + 1);
}

// The sum over ordered pairs of positions 0..n-1 of (|a - b| + 1): n^2 + (n-1) n (n+1) / 3.
std::uint64_t span_sum(std::uint64_t n) {
  return n * n + (n - 1) * n * (n + 1) / 3;
}

mesh_place place(const fabric& f, std::uint32_t tile) {
  return {tile % f.cols, tile / f.cols};
}

vc_range class_vcs(bool split, bool upper, std::uint32_t vcs) {
  if (!split) return {0, vcs};
  return upper ? vc_range{vcs / 2, vcs} : vc_range{0, vcs / 2};
}

// Every path the mesh routing r allows from src to dst (a packet of O1TURN class
// `yx_class`), its consecutive links on the VCs `vcs_of_class`. The walk visits each
// (tile, port it came in by) once: what a head may do next depends on nothing else.
class mesh_walker {
 public:
  mesh_walker(const fabric& f, channel_graph& g)
      : f_{f}, g_{g}, seen_(std::size_t{f.tiles()} * 5) {}

  void walk(mesh_routing r, std::uint32_t src, std::uint32_t dst, bool yx_class, vc_range vcs) {
    ++stamp_;
    stack_.clear();
    stack_.push_back({src, mesh_port::local, 0});
    seen_[std::size_t{src} * 5 + mesh_port::local] = stamp_;
    while (!stack_.empty()) {
      const state s = stack_.back();
      stack_.pop_back();
      const mesh_choice c = allowed(r, place(f_, s.tile), place(f_, dst), place(f_, src), yx_class);
      for (const std::uint32_t port : {c.col_port, c.row_port}) {
        if (port == mesh_port::local) continue;
        const link_id out = make_link(f_, tile_id{s.tile}, port);
        if (s.in != mesh_port::local) g_.add(link_id{s.link}, vcs, out, vcs);
        const std::uint32_t next = neighbour(f_, tile_id{s.tile}, port)->value();
        std::uint64_t& mark = seen_[std::size_t{next} * 5 + port];
        if (mark != stamp_) {
          mark = stamp_;
          stack_.push_back({next, port, out.value()});
        }
      }
    }
  }

 private:
  struct state {
    std::uint32_t tile;
    std::uint32_t in;    // the port it left the previous tile by; local: injected here
    std::uint32_t link;  // the link it came in by (not read when injected)
  };

  const fabric& f_;
  channel_graph& g_;
  std::vector<std::uint64_t> seen_;  // [tile * 5 + in]: the walk that reached it last
  std::uint64_t stamp_{0};
  std::vector<state> stack_;
};

// Adds the dependencies of one route's links, `vcs_of(link)` giving the VCs of each.
template <typename Classes>
void add_route(channel_graph& g, const std::vector<std::uint32_t>& links, Classes&& vcs_of) {
  for (std::size_t i = 1; i < links.size(); ++i) {
    g.add(link_id{links[i - 1]}, vcs_of(links[i - 1]), link_id{links[i]}, vcs_of(links[i]));
  }
}

}  // namespace

channel_graph wormhole_dependencies(const fabric& f, mesh_routing r, std::uint32_t vcs) {
  if (f.kind != fabric_kind::mesh && f.kind != fabric_kind::torus)
    throw input_error("wormhole: " + spec(f) + " is not a mesh or a torus");
  const std::string routing{mesh_routing_names.at(static_cast<std::size_t>(r))};
  if (r == mesh_routing::o1turn && vcs < 2) {
    throw input_error(
        "wormhole: param routing o1turn needs vcs >= 2 (a VC class for XY "
        "packets and one for YX), got vcs " +
        std::to_string(vcs));
  }
  const std::uint32_t p = f.tiles();
  channel_graph g{f, vcs};
  if (f.kind == fabric_kind::torus) {
    if (r != mesh_routing::xy && r != mesh_routing::yx) {
      throw input_error("wormhole: param routing " + routing + " on " + spec(f) +
                        " is not modelled (the wormhole torus routes in dimension order: xy "
                        "or yx)");
    }
    check_steps(f, pair_steps(f));
    const bool split = vcs >= 2;
    std::vector<std::uint32_t> links;
    std::vector<bool> upper;
    for (std::uint32_t s = 0; s < p; ++s) {
      for (std::uint32_t d = 0; d < p; ++d) {
        links.clear();
        upper.clear();
        for (std::uint32_t at = s; at != d;) {
          const std::uint32_t port =
              torus_allowed(r, place(f, at), place(f, d), f.cols, f.rows).only();
          links.push_back(make_link(f, tile_id{at}, port).value());
          upper.push_back(torus_class(port, place(f, at), place(f, s), f.cols, f.rows));
          at = neighbour(f, tile_id{at}, port)->value();
        }
        for (std::size_t i = 1; i < links.size(); ++i) {
          g.add(link_id{links[i - 1]}, class_vcs(split, upper[i - 1], vcs), link_id{links[i]},
                class_vcs(split, upper[i], vcs));
        }
      }
    }
    return g;
  }
  // A mesh: an oblivious routing walks one path a pair (a class), an adaptive one all
  // the states of the pair's rectangle.
  check_steps(f, oblivious(r) ? 2 * pair_steps(f) : 2 * span_sum(f.cols) * span_sum(f.rows));
  mesh_walker w{f, g};
  for (std::uint32_t s = 0; s < p; ++s) {
    for (std::uint32_t d = 0; d < p; ++d) {
      if (s == d) continue;
      if (r == mesh_routing::o1turn) {
        w.walk(r, s, d, false, class_vcs(true, false, vcs));
        w.walk(r, s, d, true, class_vcs(true, true, vcs));
      } else {
        w.walk(r, s, d, false, {0, vcs});
      }
    }
  }
  return g;
}

channel_graph store_forward_dependencies(const fabric& f, std::uint32_t buffers,
                                         const route_fn& route) {
  const bool classes = buffers != 0;
  channel_graph g{f, classes ? 2U : 1U};
  if (!classes) return g;
  check_steps(f, pair_steps(f));
  const std::uint32_t p = f.tiles();
  std::vector<std::uint32_t> links;
  for (std::uint32_t s = 0; s < p; ++s) {
    const mesh_place from = place(f, s);
    const auto cls = [&](std::uint32_t l) {
      const std::uint32_t c =
          torus_class(link_port(f, link_id{l}), place(f, link_source(f, link_id{l}).value()), from,
                      f.cols, f.rows)
              ? 1U
              : 0U;
      return vc_range{c, c + 1};
    };
    for (std::uint32_t d = 0; d < p; ++d) {
      if (s == d) continue;
      links.clear();
      route(s, d, links);
      add_route(g, links, cls);
    }
  }
  return g;
}

void add_tree_dependencies(channel_graph& g, const std::vector<tree_entry>& trees) {
  const fabric& f = g.fab();
  const auto key = [&](std::uint32_t tree, std::uint32_t tile) {
    return std::uint64_t{tree} * f.tiles() + tile;
  };
  std::unordered_map<std::uint64_t, std::uint32_t> mask;  // (tree, tile) -> ports
  for (const tree_entry& e : trees)
    mask[key(e.tree, e.tile)] |= e.mask;
  for (const auto& [at, ports] : mask) {
    const std::uint32_t tree = static_cast<std::uint32_t>(at / f.tiles());
    const tile_id tile{static_cast<std::uint32_t>(at % f.tiles())};
    for (std::uint32_t port = 0; port < f.ports(); ++port) {
      const auto child = neighbour(f, tile, port);
      if (((ports >> port) & 1U) == 0 || !child) continue;
      const auto next = mask.find(key(tree, child->value()));
      if (next == mask.end()) continue;
      for (std::uint32_t q = 0; q < f.ports(); ++q) {
        if (((next->second >> q) & 1U) != 0 && neighbour(f, *child, q))
          g.add(make_link(f, tile, port), {0, 1}, make_link(f, *child, q), {0, 1});
      }
    }
  }
}

channel_graph circuit_dependencies(const fabric& f, circuit_blocking blocking) {
  channel_graph g{f, 1};
  if (blocking == circuit_blocking::release_retry) return g;
  check_steps(f, pair_steps(f));
  const std::uint32_t p = f.tiles();
  std::vector<std::uint32_t> links;
  for (std::uint32_t s = 0; s < p; ++s) {
    for (std::uint32_t d = 0; d < p; ++d) {
      links.clear();
      for_each_hop(f, tile_id{s}, tile_id{d}, [&](link_id l) { links.push_back(l.value()); });
      add_route(g, links, [](std::uint32_t) { return vc_range{0, 1}; });
    }
  }
  return g;
}

std::string cycle_text(const channel_graph& g, const std::vector<channel>& cycle,
                       std::string_view unit) {
  std::string s;
  for (const channel& c : cycle)
    s += g.name(c, unit) + ", ";
  if (cycle.empty()) return s;
  const channel& first = cycle.front();
  const link_ends ends = endpoints(g.fab(), link_id{first.link});
  s += "back to tile " + std::to_string(ends.from.value()) + " " + g.port_name(first.link);
  if (!unit.empty()) s += " " + std::string(unit) + std::to_string(first.vc);
  return s;
}

}  // namespace tessera::net
