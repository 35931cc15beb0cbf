// The tile memory planner (tessera/runtime/memory_plan.hpp): the walk of a program held to
// the executor's order of storing and dropping blocks, the capacities and the memory rule
// worked by hand, the arena's regions placed apart and aligned at any base, the carve's
// store and buffers, and the boot block's words giving a tile the host's plan.
#include <catch2/catch.hpp>

#include <cstddef>
#include <memory>
#include <unordered_set>
#include <vector>

#include "tessera/firmware/textbook.hpp"
#include "tessera/runtime/memory_plan.hpp"

using namespace tessera;

namespace {

struct scripted_op {
  op o;
  std::vector<std::uint32_t> send;
  std::vector<std::uint32_t> recv;
};

// A program that yields a fixed list of ops.
class scripted {
 public:
  explicit scripted(const std::vector<scripted_op>& ops) : ops_{&ops} {}
  bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (i_ == ops_->size()) return false;
    const scripted_op& s = (*ops_)[i_++];
    out = s.o;
    out.send_count = static_cast<std::uint32_t>(s.send.size());
    out.recv_count = static_cast<std::uint32_t>(s.recv.size());
    for (std::size_t k = 0; k < s.send.size(); ++k)
      send[k] = block_id{s.send[k]};
    for (std::size_t k = 0; k < s.recv.size(); ++k)
      recv[k] = block_id{s.recv[k]};
    return true;
  }

 private:
  const std::vector<scripted_op>* ops_;
  std::size_t i_{0};
};

scripted_op make(op_kind k, std::vector<std::uint32_t> send, std::vector<std::uint32_t> recv,
                 std::uint8_t flags = 0) {
  op o;
  o.kind = k;
  o.to = o.from = 1;
  o.flags = flags;
  return scripted_op{o, std::move(send), std::move(recv)};
}

tile_needs walk(const std::vector<scripted_op>& ops, std::unordered_set<std::uint32_t> held,
                std::uint32_t slot) {
  std::vector<block_id> s(8);
  std::vector<block_id> r(8);
  return walk_needs(scripted{ops}, held, s, r, slot);
}

constexpr std::uint64_t dir = sizeof(dir_entry);  // a directory entry: id and length

}  // namespace

TEST_CASE("memory plan: a send with release drops its blocks before the receive stores",
          "[memory_plan]") {
  // finish_op erases the sent blocks, then scatters the received ones: one block at a time.
  const tile_needs n = walk({make(op_kind::exchange, {1}, {2}, op_flag::release)}, {1}, 64);
  CHECK(n.peak_blocks == 1);
  CHECK(n.final_blocks == 1);
}

TEST_CASE("memory plan: a combine stores its destination before it drops its source",
          "[memory_plan]") {
  const tile_needs n = walk({make(op_kind::combine, {1}, {2}, op_flag::release)}, {1}, 64);
  CHECK(n.peak_blocks == 2);
  CHECK(n.final_blocks == 1);
  // Local: no message, no buffer.
  CHECK(n.max_send == 0);
  CHECK(n.max_recv == 0);
  CHECK(n.receiving_ops == 0);
  CHECK(n.blocks_moved == 0);
  CHECK(n.blocks_combined == 1);
}

TEST_CASE("memory plan: the walk counts a program's holdings, messages and work", "[memory_plan]") {
  const std::vector<scripted_op> ops{
      make(op_kind::exchange, {1}, {3}, op_flag::release),   // holds {2, 3}
      make(op_kind::combine, {3}, {4}, op_flag::release),    // {2, 3, 4}, then {2, 4}
      make(op_kind::recv, {}, {2, 4}, op_flag::combine_in),  // combines into 2 and 4
      make(op_kind::send, {2, 4}, {}),                       // keeps them
      make(op_kind::recv, {}, {5, 6, 7}),                    // {2, 4, 5, 6, 7}
      make(op_kind::idle, {}, {}),
  };
  const std::uint32_t slot = 100;
  const tile_needs n = walk(ops, {1, 2}, slot);
  CHECK(n.initial_blocks == 2);
  CHECK(n.peak_blocks == 5);
  CHECK(n.final_blocks == 5);
  CHECK(n.max_send == 2);
  CHECK(n.max_recv == 3);
  CHECK(n.receiving_ops == 3);
  // Each receive's landing area: a directory entry and a slot per block.
  CHECK(n.all_recv_bytes == (dir + slot) + 2 * (dir + slot) + 3 * (dir + slot));
  CHECK(n.ops == 6);
  CHECK(n.blocks_moved == 2 + 2 + 2 + 3);  // exchange both ways, recv, send, recv
  CHECK(n.blocks_combined == 1 + 2);       // the combine op, the combining receive
}

TEST_CASE("memory plan: a ring all-gather's tile, walked with and without a heap",
          "[memory_plan]") {
  // Grama's ring all-gather on p tiles: a tile starts with its block and in each of p - 1
  // steps passes one block on and takes one in, ending with all p.
  fw::collective_params c;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.f = fabric::ring(8);
  c.bytes = 16;
  const fw::collective_program prog{c, tile_id{3}};
  std::vector<block_id> s(prog.max_blocks());
  std::vector<block_id> r(prog.max_blocks());
  std::unordered_set<std::uint32_t> set{3};
  const tile_needs a = walk_needs(prog, set, s, r, 16);
  // The same walk over fixed tables, as a tile without a heap walks it.
  std::vector<block_store::entry> entries(8);
  std::vector<std::uint32_t> free_stack(8);
  std::vector<std::uint32_t> hash(block_store::hash_cells(8));
  held_ids fixed{block_store{{}, 0, entries, free_stack, hash}};
  fixed.insert(3);
  const tile_needs b = walk_needs(prog, fixed, s, r, 16);
  CHECK_FALSE(fixed.overflowed());
  for (const tile_needs& n : {a, b}) {
    CHECK(n.initial_blocks == 1);
    CHECK(n.peak_blocks == 8);
    CHECK(n.final_blocks == 8);
    CHECK(n.max_send == 1);
    CHECK(n.max_recv == 1);
    CHECK(n.receiving_ops == 7);
    CHECK(n.blocks_moved == 2 * 7);
  }
  // Tables too small for the walk say so.
  std::vector<block_store::entry> few(4);
  std::vector<std::uint32_t> few_free(4);
  std::vector<std::uint32_t> few_hash(block_store::hash_cells(4));
  held_ids small{block_store{{}, 0, few, few_free, few_hash}};
  small.insert(3);
  (void)walk_needs(prog, small, s, r, 16);
  CHECK(small.overflowed());
}

TEST_CASE("memory plan: capacities and the memory rule from the needs", "[memory_plan]") {
  tile_needs n;
  n.peak_blocks = 3;
  n.max_send = 2;
  n.max_recv = 4;
  n.receiving_ops = 5;
  n.all_recv_bytes = 1000;
  const std::uint32_t slot = 64;

  const tile_plan p = plan_memory(n, slot, {});
  CHECK(p.store_blocks == 3);
  CHECK(p.ids == 4);
  CHECK(p.tx_bytes == 2 * (dir + slot));
  CHECK(p.rx_bytes == 4 * (dir + slot));
  CHECK(p.posted == 0);
  // Blocks held at once, the receive buffer and the send buffer.
  CHECK(p.data_bytes() == 3 * slot + 4 * (dir + slot) + 2 * (dir + slot));

  plan_options o;
  o.prepost = true;
  o.send_ahead = true;
  o.async_slots = 2;
  const tile_plan q = plan_memory(n, slot, o);
  CHECK(q.rx_bytes == 1000);  // every receive's own landing area
  CHECK(q.posted == 5);
  // The send buffer four times: its own, the one sent ahead, two async slots.
  CHECK(q.data_bytes() == 3 * slot + 1000 + 4 * 2 * (dir + slot));

  tile_needs none;
  o = {};
  o.min_ids = 9;
  const tile_plan e = plan_memory(none, slot, o);
  CHECK(e.store_blocks == 1);  // a store of no blocks still has a slot
  CHECK(e.data_bytes() == 0);  // but the program needs nothing
  CHECK(e.ids == 9);
}

namespace {

template <typename T>
void check_region(const arena_region& r, std::uint64_t base, std::uint64_t& end) {
  INFO("region at " << r.offset << " of " << r.count << " objects of " << sizeof(T) << " bytes");
  CHECK((base + r.offset) % alignof(T) == 0);
  CHECK(r.offset >= end);              // after the one before it
  CHECK(r.offset - end < alignof(T));  // and no further than alignment asks
  end = r.offset + r.count * sizeof(T);
}

}  // namespace

TEST_CASE("memory plan: the arena's regions follow each other, aligned at any base",
          "[memory_plan]") {
  tile_needs n;
  n.peak_blocks = 3;
  n.max_send = 2;
  n.max_recv = 3;
  n.receiving_ops = 4;
  n.all_recv_bytes = 333;
  for (const bool ahead : {false, true}) {
    plan_options o;
    o.prepost = true;
    o.send_ahead = ahead;
    o.async_slots = 2;
    const tile_plan p = plan_memory(n, 13, o);  // odd sizes: every region's padding shows
    for (const std::uint64_t base : {0ULL, 1ULL, 2ULL, 3ULL, 5ULL, 0x2000'0403ULL}) {
      INFO("base " << base << (ahead ? ", send_ahead" : ""));
      const arena_layout l = lay_out(p, base);
      std::uint64_t end = 0;
      check_region<std::byte>(l.blocks, base, end);
      CHECK(l.blocks.count == 3 * 13);
      check_region<block_store::entry>(l.entries, base, end);
      check_region<std::uint32_t>(l.free_stack, base, end);
      check_region<std::uint32_t>(l.hash, base, end);
      CHECK(l.hash.count == 8);  // a power of two, at least twice the 3 blocks
      check_region<block_id>(l.send_ids, base, end);
      check_region<block_id>(l.recv_ids, base, end);
      check_region<std::byte>(l.tx, base, end);
      check_region<std::byte>(l.rx, base, end);
      check_region<posted_recv>(l.posted, base, end);
      if (ahead) {
        check_region<block_id>(l.ahead_send_ids, base, end);
        check_region<block_id>(l.ahead_recv_ids, base, end);
        check_region<std::byte>(l.ahead_tx, base, end);
      } else {
        CHECK(l.ahead_send_ids.count + l.ahead_recv_ids.count + l.ahead_tx.count == 0);
      }
      check_region<out_msg>(l.pool_sends, base, end);
      check_region<std::byte>(l.pool, base, end);
      CHECK(l.pool.count == 2 * p.tx_bytes);
      CHECK(l.end == end);
    }
  }
}

TEST_CASE("memory plan: the carve gives a store and buffers of the planned sizes",
          "[memory_plan]") {
  tile_needs n;
  n.peak_blocks = 4;
  n.max_send = 2;
  n.max_recv = 3;
  plan_options o;
  o.send_ahead = true;
  o.async_slots = 1;
  const tile_plan p = plan_memory(n, 32, o);
  const arena_layout l = lay_out(p, 0);
  const auto bytes = std::make_unique<std::byte[]>(static_cast<std::size_t>(l.end));
  tile_arena m = carve(p, l, {bytes.get(), static_cast<std::size_t>(l.end)});
  CHECK(m.store.capacity() == 4);
  CHECK(m.store.slot_bytes() == 32);
  CHECK(m.buffers.send_ids.size() == 3);
  CHECK(m.buffers.recv_ids.size() == 3);
  CHECK(m.buffers.tx.size() == 2 * (dir + 32));
  CHECK(m.buffers.rx.size() == 3 * (dir + 32));
  CHECK(m.buffers.ahead_tx.size() == m.buffers.tx.size());
  CHECK(m.buffers.pool_sends.size() == 1);
  CHECK(m.buffers.pool.size() == m.buffers.tx.size());
  CHECK(m.buffers.reliable == nullptr);
  // The store holds its capacity of full blocks, and no more.
  std::vector<std::byte> block(32, std::byte{7});
  for (std::uint32_t id = 0; id < 4; ++id)
    CHECK(m.store.insert(100 + id, block) == block_store::put_result::ok);
  CHECK(m.store.insert(200, block) == block_store::put_result::full);
  CHECK(m.store.find(103)[31] == std::byte{7});
}

TEST_CASE("memory plan: a tile rebuilds the host's plan from the boot block's words",
          "[memory_plan]") {
  tile_needs n;
  n.peak_blocks = 6;
  n.max_send = 2;
  n.max_recv = 5;
  n.receiving_ops = 7;
  n.all_recv_bytes = (std::uint64_t{1} << 32) + 12;  // both words of a 64-bit value
  n.ops = 40;                                        // the host's alone
  for (const bool prepost : {false, true}) {
    plan_options o;
    o.prepost = prepost;
    o.send_ahead = !prepost;
    o.async_slots = 3;
    const tile_plan host = plan_memory(n, 48, o);
    const tile_abi::tile_plan_words w = plan_words(n, host);
    // The tile's own settings, its program's bounds no larger than the words'.
    plan_options t;
    t.prepost = prepost;
    t.send_ahead = !prepost;
    t.async_slots = w.async_slots;
    t.min_ids = w.max_blocks;
    const tile_plan tile = plan_memory(needs_of(w), w.slot, t);
    CHECK(tile.slot == host.slot);
    CHECK(tile.store_blocks == host.store_blocks);
    CHECK(tile.ids == host.ids);
    CHECK(tile.tx_bytes == host.tx_bytes);
    CHECK(tile.rx_bytes == host.rx_bytes);
    CHECK(tile.posted == host.posted);
    CHECK(tile.async_slots == host.async_slots);
    CHECK(tile.data_bytes() == host.data_bytes());
    CHECK(lay_out(tile, 0).end == lay_out(host, 0).end);
  }
}
