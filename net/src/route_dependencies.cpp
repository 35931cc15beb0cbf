// The channel dependency graphs of the engines' routings (route_dependencies.hpp).
#include "tessera/net/route_dependencies.hpp"

#include <bit>
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

// Walks take route steps (a state of a walk, or a hop of one source's walk); a fabric whose
// walks need more than max_route_steps is refused (input_error), not slow.
class step_budget {
 public:
  // Refuses at once a fabric whose walks take at least `least` steps.
  step_budget(const fabric& f, std::uint64_t least) : f_{f} {
    if (least > max_route_steps) refuse("at least " + std::to_string(least));
  }
  void take(std::uint64_t n) {
    used_ += n;
    if (used_ > max_route_steps) refuse("more than " + std::to_string(max_route_steps));
  }

 private:
  [[noreturn]] void refuse(const std::string& steps) const {
    throw input_error("the routes of " + spec(f_) + " are too many to check for deadlock (" +
                      steps + " route steps, at most 2^30)");
  }
  const fabric& f_;
  std::uint64_t used_{0};
};

// Every destination's walk visits each tile once at least.
std::uint64_t tile_pairs(const fabric& f) {
  const std::uint64_t p = f.tiles();
  return p * (p - 1);
}

mesh_place place(const fabric& f, std::uint32_t tile) {
  return {tile % f.cols, tile / f.cols};
}

vc_range class_vcs(bool split, bool upper, std::uint32_t vcs) {
  if (!split) return {0, vcs};
  return upper ? vc_range{vcs / 2, vcs} : vc_range{0, vcs / 2};
}

// Whether the hop out of `here` by `port` crosses the ring's wraparound link, the dateline.
bool wraps(const fabric& f, std::uint32_t port, mesh_place here) {
  if (f.kind != fabric_kind::torus && f.kind != fabric_kind::ring) return false;
  switch (port) {
    case mesh_port::east:
      return here.col + 1 == f.cols;
    case mesh_port::west:
      return here.col == 0;
    case mesh_port::south:
      return here.row + 1 == f.rows;
    case mesh_port::north:
      return here.row == 0;
    default:
      return false;
  }
}

// The walks of all sources towards one destination at once. A state is (tile, the port it
// came in by or local when injected there, one bit of what the packet carries); every
// source starts in (source, local, `start_bit`), and a state is expanded once a walk:
// what a head does next depends on nothing but its state, so the states reached are those
// of every source's route and the dependencies added are those of every route. The caller
// gives, for a state, its next (port, bit, VCs) choices; the VCs the state holds are
// those its choice into it named.
class destination_walker {
 public:
  struct step {
    std::uint32_t port;
    bool bit;
    vc_range vcs;
  };

  destination_walker(const fabric& f, channel_graph& g, step_budget& budget)
      : f_{f}, g_{g}, budget_{budget}, seen_(std::size_t{f.tiles()} * (f.ports() + 1) * 2) {}

  // next(tile, in, bit, out) appends the choices of a head in that state.
  template <typename Next>
  void walk(std::uint32_t dst, bool start_bit, Next&& next) {
    ++stamp_;
    stack_.clear();
    const std::uint32_t local = f_.ports();
    for (std::uint32_t s = 0; s < f_.tiles(); ++s)
      if (s != dst) visit({s, local, start_bit, 0, {}});
    std::vector<step> choices;
    while (!stack_.empty()) {
      const state st = stack_.back();
      stack_.pop_back();
      budget_.take(1);
      choices.clear();
      next(st.tile, st.in, st.bit, choices);
      for (const step& c : choices) {
        const link_id out = make_link(f_, tile_id{st.tile}, c.port);
        if (st.in != local) g_.add(link_id{st.link}, st.vcs, out, c.vcs);
        const std::uint32_t to = neighbour(f_, tile_id{st.tile}, c.port)->value();
        if (to != dst) visit({to, c.port, c.bit, out.value(), c.vcs});
      }
    }
  }

 private:
  struct state {
    std::uint32_t tile;
    std::uint32_t in;  // the port it left the previous tile by; ports(): injected here
    bool bit;
    std::uint32_t link;  // the link it came in by (not read when injected)
    vc_range vcs;        // the VCs it may hold on that link
  };

  void visit(const state& st) {
    std::uint64_t& mark =
        seen_[(std::size_t{st.tile} * (f_.ports() + 1) + st.in) * 2 + (st.bit ? 1 : 0)];
    if (mark == stamp_) return;
    mark = stamp_;
    stack_.push_back(st);
  }

  const fabric& f_;
  channel_graph& g_;
  step_budget& budget_;
  std::vector<std::uint64_t> seen_;  // [(tile * (ports + 1) + in) * 2 + bit]: last walk there
  std::uint64_t stamp_{0};
  std::vector<state> stack_;
};

// The dateline class of a hop out of `here` by `port` for a packet that came in by `in`
// holding class `cls`: a minimal dimension-order route goes one way round each ring, so it
// is in class 1 from the hop that crosses the ring's dateline to the turn into the next
// dimension (torus_class, which reads it off the source's place, says the same of such a
// route).
bool next_class(const fabric& f, std::uint32_t in, bool cls, std::uint32_t port, mesh_place here) {
  const bool same_ring = in < f.ports() && in / 2 == port / 2;
  return (same_ring && cls) || wraps(f, port, here);
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
  step_budget budget{f, tile_pairs(f)};
  destination_walker w{f, g, budget};
  using step = destination_walker::step;
  if (f.kind == fabric_kind::torus) {
    if (r != mesh_routing::xy && r != mesh_routing::yx) {
      throw input_error("wormhole: param routing " + routing + " on " + spec(f) +
                        " is not modelled (the wormhole torus routes in dimension order: xy "
                        "or yx)");
    }
    // The bit: the dateline class of the VC the head holds.
    const bool split = vcs >= 2;
    for (std::uint32_t d = 0; d < p; ++d) {
      w.walk(d, false, [&](std::uint32_t at, std::uint32_t in, bool cls, std::vector<step>& out) {
        const mesh_place here = place(f, at);
        const std::uint32_t port = torus_allowed(r, here, place(f, d), f.cols, f.rows).only();
        const bool c = next_class(f, in, cls, port, here);
        out.push_back({port, c, class_vcs(split, c, vcs)});
      });
    }
    return g;
  }
  // A mesh: every port a head may take (an adaptive routing allows two). The bit: the head
  // is still in its source's column (odd-even's rule at an even column reads it); a minimal
  // route that leaves the column does not come back.
  const auto classes = r == mesh_routing::o1turn ? 2U : 1U;
  for (std::uint32_t k = 0; k < classes; ++k) {
    const bool yx_class = k == 1;
    const vc_range held = class_vcs(r == mesh_routing::o1turn, yx_class, vcs);
    for (std::uint32_t d = 0; d < p; ++d) {
      w.walk(d, true, [&](std::uint32_t at, std::uint32_t, bool in_column, std::vector<step>& out) {
        const mesh_choice c = allowed_in_column(r, place(f, at), place(f, d), in_column, yx_class);
        if (c.col_port != mesh_port::local) out.push_back({c.col_port, false, held});
        if (c.row_port != mesh_port::local) out.push_back({c.row_port, in_column, held});
      });
    }
  }
  return g;
}

channel_graph store_forward_dependencies(const fabric& f, std::uint32_t buffers,
                                         const next_port_fn& next, const tabled_fn& tabled) {
  const bool classes = buffers != 0;
  channel_graph g{f, classes ? 2U : 1U};
  if (!classes) return g;
  const std::uint32_t p = f.tiles();
  step_budget budget{f, tile_pairs(f)};
  destination_walker w{f, g, budget};
  using step = destination_walker::step;
  const auto one = [](bool c) { return c ? vc_range{1, 2} : vc_range{0, 1}; };
  std::vector<std::uint32_t> links;
  for (std::uint32_t d = 0; d < p; ++d) {
    if (!tabled(d)) {
      // Dimension order, each ring the shorter way: the class follows the walk's state.
      w.walk(d, false, [&](std::uint32_t at, std::uint32_t in, bool cls, std::vector<step>& out) {
        const std::uint32_t port = next(at, d);
        const bool c = next_class(f, in, cls, port, place(f, at));
        out.push_back({port, c, one(c)});
      });
      continue;
    }
    // Forwarding tables may send a packet any way round: its class is torus_class's, read
    // off its source, so each source's route is walked on its own.
    for (std::uint32_t s = 0; s < p; ++s) {
      if (s == d) continue;
      const mesh_place from = place(f, s);
      std::uint32_t prev = 0;
      bool prev_class = false;
      for (std::uint32_t at = s; at != d;) {
        budget.take(1);
        const std::uint32_t port = next(at, d);
        const bool c = torus_class(port, place(f, at), from, f.cols, f.rows);
        const link_id l = make_link(f, tile_id{at}, port);
        if (at != s) g.add(link_id{prev}, one(prev_class), l, one(c));
        prev = l.value();
        prev_class = c;
        at = neighbour(f, tile_id{at}, port)->value();
      }
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
  step_budget budget{f, tile_pairs(f)};
  destination_walker w{f, g, budget};
  using step = destination_walker::step;
  for (std::uint32_t d = 0; d < f.tiles(); ++d) {
    // e-cube: the lowest bit in which the tile and the destination differ.
    w.walk(d, false, [&](std::uint32_t at, std::uint32_t, bool, std::vector<step>& out) {
      out.push_back({static_cast<std::uint32_t>(std::countr_zero(at ^ d)), false, {0, 1}});
    });
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
