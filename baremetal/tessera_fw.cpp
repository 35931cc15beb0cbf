#include "tessera_fw.hpp"

#include "tessera/firmware/local_run.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::fw_image {

std::uint32_t a2a_ops(fw::a2a_algorithm alg, const fabric& f, tile_id me, std::span<op> ops,
                      std::span<block_id> send, std::span<block_id> recv) {
  if (!fw::a2a_supported(alg, f)) return 0;
  fw::a2a_generator gen{alg, f, me};
  if (send.size() < gen.max_blocks() || recv.size() < gen.max_blocks()) return 0;
  std::uint32_t n = 0;
  while (n < ops.size() && gen.next(ops[n], send, recv))
    ++n;
  return n;
}

bool a2a_algorithm_named(std::string_view name, fw::a2a_algorithm& out) {
  return fw::parse_a2a_algorithm(name, out);
}

fabric_parse_result fabric_from_spec(std::string_view spec) {
  return parse_fabric(spec);
}

std::uint32_t route_links(const fabric& f, tile_id src, tile_id dst, std::span<link_id> out) {
  return route(f, src, dst, out);
}

std::uint32_t single_tree_depth(const fabric& f, std::uint32_t root,
                                std::span<std::uint32_t> parent) {
  if (!fw::single_tree(f, root, parent)) return fw::no_parent;
  return fw::tree_depth(f, root, parent);
}

std::uint32_t neighbour_count(const fabric& f, tile_id t) {
  return degree(f, t);
}

namespace {
fw::local_machine<8, 16, 64, 8> machine;
}  // namespace

std::uint32_t run_collective(const fw::collective_params& c, protocol proto) {
  executor_config cfg;
  cfg.proto = proto;
  const fw::local_result r = machine.run(c, cfg);
  return r.status == fw::local_status::verified ? 0 : 1 + static_cast<std::uint32_t>(r.status);
}

}  // namespace tessera::fw_image
