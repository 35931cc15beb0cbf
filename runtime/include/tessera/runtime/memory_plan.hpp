// A tile's memory plan, in one place for every tile that runs the executor: the native
// tiles of the host harness (collectives and schedule files), and the Cortex-M4 tile
// image, whose plan the host writes into the boot block (tile_abi.hpp). Three steps:
//
//   walk_needs   walks the tile's program once without data: the blocks it holds at
//                once, its largest send and receive, its receives (tile_needs);
//   plan_memory  turns the needs and the executor's settings into the capacities its
//                arena must hold (tile_plan), and the bytes of data and buffers a run
//                reports as its memory;
//   lay_out      places those regions in an arena from a base address (arena_layout),
//                and carve builds the block store and the executor's buffers there.
//
// Freestanding: no heap; the walk's set of held blocks and the arena are the caller's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>

#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/op.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera {

// The bytes a message of `blocks` blocks of at most `slot` bytes takes in a buffer: its
// directory (an entry per block) and the blocks.
constexpr std::uint64_t message_bytes(std::uint32_t blocks, std::uint32_t slot) {
  return std::uint64_t{dir_bytes(blocks)} + std::uint64_t{blocks} * slot;
}

// What one tile's program needs, found by walking it once without data.
struct tile_needs {
  std::uint32_t peak_blocks{0};  // blocks held at once
  std::uint32_t max_send{0};     // blocks of the largest send
  std::uint32_t max_recv{0};     // blocks of the largest receive
  std::uint32_t receiving_ops{0};
  std::uint64_t all_recv_bytes{0};  // every receive's landing area (prepost)
  // The work the program does, as its ops say it (a processor's instruction budget is
  // derived from it): ops, blocks sent and received, blocks combined (a combine op or a
  // combining receive), and the blocks it holds at its start and at its end.
  std::uint64_t ops{0};
  std::uint64_t blocks_moved{0};
  std::uint64_t blocks_combined{0};
  std::uint64_t initial_blocks{0};
  std::uint64_t final_blocks{0};
};

// Walks `prog` (a copy: the caller's program is not advanced). `held` is a set of block
// ids (insert, erase, size) holding the tile's initial blocks; the walk changes it as the
// executor changes its store, and leaves it holding the blocks the tile ends with. `send`
// and `recv` take each op's ids: at least the program's largest op. `slot` is the largest
// block in bytes.
//
// The order is the executor's: a send with release drops its blocks before the op's
// receive stores the new ones (finish_op), a combine stores its destination before it
// drops its source, and a combining receive stores nothing new. A combine is local: it
// needs no message buffer.
template <typename Program, typename Held>
tile_needs walk_needs(Program prog, Held& held, std::span<block_id> send, std::span<block_id> recv,
                      std::uint32_t slot) {
  tile_needs n;
  const auto count = [&held] { return static_cast<std::uint32_t>(held.size()); };
  const auto note_peak = [&] {
    if (count() > n.peak_blocks) n.peak_blocks = count();
  };
  n.initial_blocks = count();
  note_peak();
  op o;
  while (prog.next(o, send, recv)) {
    ++n.ops;
    const bool release = (o.flags & op_flag::release) != 0;
    const bool combine_in = (o.flags & op_flag::combine_in) != 0;
    if (o.kind == op_kind::combine) {
      ++n.blocks_combined;
      held.insert(recv[0].value());
      note_peak();
      if (release) held.erase(send[0].value());
      continue;
    }
    if (o.sends()) {
      n.blocks_moved += o.send_count;
      if (o.send_count > n.max_send) n.max_send = o.send_count;
      if (release) {
        for (std::uint32_t i = 0; i < o.send_count; ++i)
          held.erase(send[i].value());
      }
    }
    if (o.receives()) {
      n.blocks_moved += o.recv_count;
      if (combine_in) n.blocks_combined += o.recv_count;
      if (o.recv_count > n.max_recv) n.max_recv = o.recv_count;
      ++n.receiving_ops;
      n.all_recv_bytes += message_bytes(o.recv_count, slot);
      if (!combine_in) {
        for (std::uint32_t i = 0; i < o.recv_count; ++i)
          held.insert(recv[i].value());
      }
    }
    note_peak();
  }
  n.final_blocks = count();
  return n;
}

// A set of block ids over a block store's tables in the caller's storage, for walking a
// program where there is no heap (the walk's `held` on a tile): the store's capacity
// bounds it, and overflowed() says the walk met more blocks than that, so its needs are
// not to be trusted.
class held_ids {
 public:
  // `tables`: a store of slot 0 (no block bytes) over entries, free stack and hash cells.
  explicit held_ids(block_store tables) : s_{tables} {}
  void insert(std::uint32_t id) {
    if (s_.insert(id, {}) == block_store::put_result::full) overflowed_ = true;
  }
  void erase(std::uint32_t id) { s_.erase(id); }
  [[nodiscard]] std::uint32_t size() const { return s_.size(); }
  [[nodiscard]] bool overflowed() const { return overflowed_; }

 private:
  block_store s_;
  bool overflowed_{false};
};

// The executor's settings that size its memory.
struct plan_options {
  bool prepost{false};           // every receive has its own landing area
  bool send_ahead{false};        // a second send buffer and id lists
  std::uint32_t async_slots{0};  // op_flag::async sends in flight: a send buffer each
  std::uint32_t min_ids{0};      // id lists at least this long (a program's own bound)
};

// The capacities a tile's arena must hold. The id lists hold the largest op the walk met
// (generators write exactly the ids they count), not the program's bound: a broadcast's
// bound is p blocks a message.
struct tile_plan {
  std::uint32_t slot{0};          // bytes of the largest block
  std::uint32_t peak_blocks{0};   // blocks held at once
  std::uint32_t store_blocks{1};  // the block store's capacity (at least one)
  std::uint32_t ids{1};           // each id list: the largest op's blocks
  std::uint64_t tx_bytes{0};      // the largest send: its directory and blocks
  std::uint64_t rx_bytes{0};      // the largest receive's; with prepost, every receive's
  std::uint32_t posted{0};        // prepost: a posted receive per receiving op
  bool send_ahead{false};
  std::uint32_t async_slots{0};

  // The bytes of blocks and message buffers the tile's program needs (a run's
  // memory_bytes, and what a memory limit is held to): the block store's tables and the
  // id lists are not counted.
  [[nodiscard]] constexpr std::uint64_t data_bytes() const {
    return std::uint64_t{peak_blocks} * slot + rx_bytes +
           tx_bytes * ((send_ahead ? 2U : 1U) + std::uint64_t{async_slots});
  }
};

constexpr tile_plan plan_memory(const tile_needs& n, std::uint32_t slot, const plan_options& o) {
  tile_plan p;
  p.slot = slot;
  p.peak_blocks = n.peak_blocks;
  p.store_blocks = n.peak_blocks > 0 ? n.peak_blocks : 1;
  p.ids = 1;
  if (n.max_send > p.ids) p.ids = n.max_send;
  if (n.max_recv > p.ids) p.ids = n.max_recv;
  if (o.min_ids > p.ids) p.ids = o.min_ids;
  p.tx_bytes = message_bytes(n.max_send, slot);
  p.rx_bytes = o.prepost ? n.all_recv_bytes : message_bytes(n.max_recv, slot);
  p.posted = o.prepost ? n.receiving_ops : 0;
  p.send_ahead = o.send_ahead;
  p.async_slots = o.async_slots;
  return p;
}

// Where a region of `count` objects starts, in bytes from the arena's base.
struct arena_region {
  std::uint64_t offset{0};
  std::uint64_t count{0};
};

// The regions of a tile's arena in the order they are placed, each aligned for its
// objects at the base the layout was made for. The send_ahead regions are empty without
// send_ahead (and, placed after the posted receives, take no padding).
struct arena_layout {
  arena_region blocks;  // store_blocks slots of `slot` bytes
  arena_region entries;
  arena_region free_stack;
  arena_region hash;
  arena_region send_ids;
  arena_region recv_ids;
  arena_region tx;
  arena_region rx;
  arena_region posted;
  arena_region ahead_send_ids;
  arena_region ahead_recv_ids;
  arena_region ahead_tx;
  arena_region pool_sends;
  arena_region pool;     // async_slots send buffers of tx_bytes each
  std::uint64_t end{0};  // the bytes from the base to the end of the last region
};
static_assert(alignof(posted_recv) >= alignof(block_id));

// Places a region of `count` T after `end` (bytes from `base`), aligned for T at its
// address, and moves `end` past it.
template <typename T>
constexpr arena_region place(std::uint64_t& end, std::uint64_t base, std::uint64_t count) {
  const std::uint64_t a = alignof(T);  // a power of two: a mask, no 64-bit division
  const std::uint64_t at = ((base + end + a - 1) & ~(a - 1)) - base;
  end = at + count * sizeof(T);
  return {at, count};
}

// Each region is placed as it is initialised (in order: a braced list is evaluated left
// to right), so the layout is never zeroed first: on a Cortex-M4 tile that memset was
// nearly a thousand instructions.
constexpr arena_layout lay_out(const tile_plan& p, std::uint64_t base) {
  std::uint64_t end = 0;
  const std::uint64_t ahead_ids = p.send_ahead ? p.ids : 0;
  arena_layout l{
      .blocks = place<std::byte>(end, base, std::uint64_t{p.store_blocks} * p.slot),
      .entries = place<block_store::entry>(end, base, p.store_blocks),
      .free_stack = place<std::uint32_t>(end, base, p.store_blocks),
      .hash = place<std::uint32_t>(end, base, block_store::hash_cells(p.store_blocks)),
      .send_ids = place<block_id>(end, base, p.ids),
      .recv_ids = place<block_id>(end, base, p.ids),
      .tx = place<std::byte>(end, base, p.tx_bytes),
      .rx = place<std::byte>(end, base, p.rx_bytes),
      .posted = place<posted_recv>(end, base, p.posted),
      .ahead_send_ids = place<block_id>(end, base, ahead_ids),
      .ahead_recv_ids = place<block_id>(end, base, ahead_ids),
      .ahead_tx = place<std::byte>(end, base, p.send_ahead ? p.tx_bytes : 0),
      .pool_sends = place<out_msg>(end, base, p.async_slots),
      .pool = place<std::byte>(end, base, p.tx_bytes * p.async_slots),
      .end = 0,
  };
  l.end = end;
  return l;
}

// A tile's memory carved from its arena: the block store and the executor's buffers.
struct tile_arena {
  block_store store;
  executor_buffers buffers;
};

// The bytes of region r of `arena`.
inline std::span<std::byte> bytes_in(std::span<std::byte> arena, const arena_region& r) {
  return arena.subspan(static_cast<std::size_t>(r.offset), static_cast<std::size_t>(r.count));
}

// Region r of `arena` as objects of type T, constructed.
template <typename T>
std::span<T> objects_in(std::span<std::byte> arena, const arena_region& r) {
  T* const first = reinterpret_cast<T*>(arena.data() + static_cast<std::size_t>(r.offset));
  const auto n = static_cast<std::size_t>(r.count);
  for (std::size_t i = 0; i < n; ++i)
    new (first + i) T{};
  return {first, n};
}

// Carves `arena`, whose first byte is the base the layout was made for and which holds
// at least layout.end bytes. Objects are constructed; the bytes of block slots and
// message buffers are left as they are: they are written before they are read, and
// zeroing them was a sixth of a Cortex-M4 tile's instructions.
inline tile_arena carve(const tile_plan& p, const arena_layout& l, std::span<std::byte> arena) {
  tile_arena m;
  m.store = block_store{
      bytes_in(arena, l.blocks), p.slot, objects_in<block_store::entry>(arena, l.entries),
      objects_in<std::uint32_t>(arena, l.free_stack), objects_in<std::uint32_t>(arena, l.hash)};
  executor_buffers& b = m.buffers;
  b.send_ids = objects_in<block_id>(arena, l.send_ids);
  b.recv_ids = objects_in<block_id>(arena, l.recv_ids);
  b.tx = bytes_in(arena, l.tx);
  b.rx = bytes_in(arena, l.rx);
  b.posted = objects_in<posted_recv>(arena, l.posted);
  b.ahead_send_ids = objects_in<block_id>(arena, l.ahead_send_ids);
  b.ahead_recv_ids = objects_in<block_id>(arena, l.ahead_recv_ids);
  b.ahead_tx = bytes_in(arena, l.ahead_tx);
  b.pool_sends = objects_in<out_msg>(arena, l.pool_sends);
  b.pool = bytes_in(arena, l.pool);
  return m;
}

// The plan as the boot block carries it to a Cortex-M4 tile (tile_abi.hpp): the program's
// needs, the slot, the id lists and the async slots. The tile adds its executor settings
// and its own program's bounds (tile_app.hpp).
constexpr tile_abi::tile_plan_words plan_words(const tile_needs& n, const tile_plan& p) {
  return {.slot = p.slot,
          .peak_blocks = n.peak_blocks,
          .max_blocks = p.ids,
          .max_send = n.max_send,
          .max_recv = n.max_recv,
          .receiving_ops = n.receiving_ops,
          .all_recv_lo = tile_abi::lo(n.all_recv_bytes),
          .all_recv_hi = tile_abi::hi(n.all_recv_bytes),
          .async_slots = p.async_slots};
}

// The needs the words carry (the walk's work counts are the host's: zero here).
constexpr tile_needs needs_of(const tile_abi::tile_plan_words& w) {
  tile_needs n;
  n.peak_blocks = w.peak_blocks;
  n.max_send = w.max_send;
  n.max_recv = w.max_recv;
  n.receiving_ops = w.receiving_ops;
  n.all_recv_bytes = tile_abi::join(w.all_recv_lo, w.all_recv_hi);
  return n;
}

}  // namespace tessera
