// The tile memory planner (tessera/runtime/memory_plan.hpp) on the tile itself: a program
// walked over fixed tables, its plan laid out and carved from a static arena, and the
// collective run on that memory.
#include "selftest.hpp"
#include "selftest_tests.hpp"
#include "tessera/firmware/textbook.hpp"
#include "tessera/runtime/memory_plan.hpp"

namespace tessera::selftest {
namespace {

constexpr std::uint32_t table_blocks = 16;
block_store::entry entries[table_blocks];
std::uint32_t free_stack[table_blocks];
std::uint32_t hash[block_store::hash_cells(table_blocks)];
alignas(8) std::byte arena[4096];

}  // namespace

bool memory_plan_walks_on_the_tile() {
  // Grama's ring all-gather on 8 tiles: a tile starts with its block and in each of the 7
  // steps passes one block on and takes one in, ending with all 8.
  fw::collective_params c;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.f = fabric::ring(8);
  c.bytes = 16;
  const fw::collective_program prog{c, tile_id{3}};
  block_id send[8];
  block_id recv[8];
  held_ids held{block_store{{}, 0, entries, free_stack, hash}};
  held.insert(3);
  const tile_needs n = walk_needs(prog, held, send, recv, 16);
  const bool walked = !held.overflowed() && n.initial_blocks == 1 && n.peak_blocks == 8 &&
                      n.final_blocks == 8 && n.max_send == 1 && n.max_recv == 1 &&
                      n.receiving_ops == 7;
  check(walked) << "ring all-gather, tile 3 of 8: holds " << n.initial_blocks << " to "
                << n.peak_blocks << " blocks, ends with " << n.final_blocks << ", sends "
                << n.max_send << " and receives " << n.max_recv << " a message, " << n.receiving_ops
                << " receives";

  // Its plan, laid out from the arena's address and carved there: a store of 8 blocks that
  // takes the tile's 8 blocks of 16 bytes and no more.
  const tile_plan p = plan_memory(n, 16, plan_options{});
  const auto base = reinterpret_cast<std::uintptr_t>(arena);
  const arena_layout l = lay_out(p, base);
  const bool fits = l.end <= sizeof arena;
  check(fits) << "its arena: " << static_cast<std::uint32_t>(l.end) << " bytes";
  if (!fits) return false;
  tile_arena m = carve(p, l, arena);
  const std::byte block[16]{};
  bool stored = m.buffers.tx.size() == 8 + 16 && m.buffers.rx.size() == 8 + 16;
  for (std::uint32_t id = 0; id < 8; ++id)
    stored = stored && m.store.insert(id, block) == block_store::put_result::ok;
  stored = stored && m.store.insert(8, block) == block_store::put_result::full;
  check(stored) << "carved: a store of " << m.store.capacity() << " blocks, buffers of "
                << static_cast<std::uint32_t>(m.buffers.tx.size()) << " and "
                << static_cast<std::uint32_t>(m.buffers.rx.size()) << " bytes";
  return walked && stored;
}

}  // namespace tessera::selftest
