// The channel dependency graph (channel_graph.hpp) of each engine's routing, built from the
// same routing functions the engines run: every source-destination pair, every path an
// adaptive routing allows, every VC a head may take. The routes towards one destination
// are walked together, each state a head can be in (tile, the port it came in by, its
// class) once, so a graph costs about tiles^2 states, not tiles^2 times the route length. `tessera
// check-routes` prints what these find; torus_engine::set_forwarding refuses forwarding tables
// whose graph has a cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/net/channel_graph.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/mesh_routing.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::net {

// Route steps (a state of a destination's walk, or a hop of one source's route under a
// forwarding table) a graph may take to build; a fabric whose routes need more is refused
// (input_error), not slow: a mesh or torus of up to 128 x 128 tiles is checked.
inline constexpr std::uint64_t max_route_steps = std::uint64_t{1} << 30;

// The wormhole router (flit_engine, tsr_mesh_router): channel = (link, VC), vcs of them.
// A mesh under routing r: a head may take any VC, but O1TURN's XY packets the lower vcs / 2
// and its YX ones the rest (mesh_routing.hpp's vc_in_class). A torus under xy or yx: the
// dateline classes of torus_class when vcs >= 2; with vcs 1 there is no class to change to
// (the engine refuses it, and the graph shows why: every ring closes a cycle). Throws
// input_error for a routing the engine does not take on the fabric (the adaptive ones and
// O1TURN on a torus, O1TURN with one VC) and for a fabric too large to check.
channel_graph wormhole_dependencies(const fabric& f, mesh_routing r, std::uint32_t vcs);

// The output port a unicast packet at tile `at` takes towards `dst`.
using next_port_fn = std::function<std::uint32_t(std::uint32_t at, std::uint32_t dst)>;
// Whether a forwarding table names `dst`: routes towards it may leave dimension order.
using tabled_fn = std::function<bool(std::uint32_t dst)>;

// Store-and-forward ports (torus_engine): channel = (link, dateline class of the buffer the
// packet takes in the input the link leads to), two classes with finite buffers. A packet
// holds its buffer until the next one takes it whole. With unlimited buffers (buffers 0) a
// packet never waits for a buffer: no dependency. Routes come from `next` (dimension order,
// or forwarding tables towards the destinations `tabled` names), classes from torus_class
// (mesh_routing.hpp), as the engine takes them; a route towards a tabled destination is
// walked source by source (its class reads the source's place). Throws input_error for a
// fabric too large to check.
channel_graph store_forward_dependencies(const fabric& f, std::uint32_t buffers,
                                         const next_port_fn& next, const tabled_fn& tabled);

// Adds a multicast tree table's dependencies (torus_engine::set_trees): a packet of tree k
// stored at a tile after crossing the tree's link into it waits for a class-0 buffer behind
// every port of the tile's mask (multicast packets stay in class 0).
void add_tree_dependencies(channel_graph& g, const std::vector<tree_entry>& trees);

// The circuit-switched hypercube (circuit_engine): e-cube paths, one channel per link. A
// header holds the links it has claimed while it waits for the next (hold_wait); under
// release_retry it holds nothing while it waits: no dependency.
channel_graph circuit_dependencies(const fabric& f, circuit_blocking blocking);

// The cycle as one line: "tile 0 E vc0 -> tile 1, tile 1 S vc0 -> tile 5, ..., back to
// tile 0 E vc0".
std::string cycle_text(const channel_graph& g, const std::vector<channel>& cycle,
                       std::string_view unit);

}  // namespace tessera::net
