// The entry points of libtessera_fw.a, the tile runtime and firmware compiled for the
// Cortex-M4. Every parameter arrives at run time, so the generators and the routing code
// are emitted in full and the size report (target `size`, docs/baremetal.md) measures
// what a tile program pays for them, not constants folded at compile time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/op.hpp"

namespace tessera::fw_image {

// Fills `ops` with tile me's complete-exchange ops (the block ids of the last op stay in
// send and recv, each of max_blocks() ids) and returns how many there are, or 0 if the
// algorithm is not defined on f or the buffers are too small.
std::uint32_t a2a_ops(fw::a2a_algorithm alg, const fabric& f, tile_id me, std::span<op> ops,
                      std::span<block_id> send, std::span<block_id> recv);

bool a2a_algorithm_named(std::string_view name, fw::a2a_algorithm& out);

fabric_parse_result fabric_from_spec(std::string_view spec);

// The links of the route src -> dst (out holds max_hops(f)); returns the hop count.
std::uint32_t route_links(const fabric& f, tile_id src, tile_id dst, std::span<link_id> out);
// Builds the single spanning tree of a torus (fw::single_tree) into `parent` and
// returns its depth as fw::tree_depth measures it, or fw::no_parent.
std::uint32_t single_tree_depth(const fabric& f, std::uint32_t root,
                                std::span<std::uint32_t> parent);

std::uint32_t neighbour_count(const fabric& f, tile_id t);

// Runs any collective on up to 8 tiles in this image with the tile runtime's executor
// over the in-memory NIC and checks every byte: the whole runtime (executor, block
// store, protocols, reductions) and every collective generator are emitted.
// Returns 0 when verified, else 1 + the fw::local_status.
std::uint32_t run_collective(const fw::collective_params& c, protocol proto);

}  // namespace tessera::fw_image
