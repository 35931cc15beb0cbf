// The tile library: what a Cortex-M4 tile image needs to run a program of the tile
// runtime on the platform's ISS tiles (--tiles cortex-m4, docs/tiles.md). The platform
// writes the boot block (tile id, fabric, collective, executor settings and the memory
// plan) and starts the core; tile::run() carves the tile's memory from its arena, loads
// its initial blocks, runs the executor over the NIC's registers until the program ends or
// fails, idling on wfi while the network has nothing for it, then reports its state and
// every block it holds in the boot block and writes the finish command.
//
// A program is any op generator the executor takes (fw::collective_program is the built-in
// one): a firmware developer's own collective is a class with next(), max_blocks(),
// steps() and async_slots(), handed to tile::run() from main (examples/firmware). The
// memory the host plans is the built-in algorithm's for the collective and algorithm of the
// run; a program of one's own must fit it (the executor names what does not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <type_traits>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/mmio_nic.hpp"
#include "tessera/runtime/tile_abi.hpp"

extern "C" {
// picolibc's linker script: the region between .bss and the stack reserve.
extern std::byte __heap_start[];
extern std::byte __heap_end[];
// tile_support.cpp: every NIC command goes through it (the platform synchronises there).
void tessera_nic_command(std::uint32_t code);
}

namespace tessera::tile {

namespace abi = tile_abi;

// The NIC's registers at tile_abi::nic_base; the command register through
// tessera_nic_command; wfi to idle.
struct tile_bus {
  static volatile std::uint32_t* at(std::uint32_t offset) {
    return reinterpret_cast<volatile std::uint32_t*>(abi::nic_base + offset);
  }
  std::uint32_t read(std::uint32_t offset) { return *at(offset); }
  void write(std::uint32_t offset, std::uint32_t value) {
    if (offset == abi::reg::command) {
      tessera_nic_command(value);
    } else {
      *at(offset) = value;
    }
  }
  std::uint32_t address(const void* p) {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
  }
  void wait() { __asm volatile("wfi" ::: "memory"); }
};

using tile_nic_t = mmio_nic<tile_bus>;

// A bump allocator over the arena, below the stack guard. Past a region that does not
// fit it goes on placing the rest as if it had, so needed() is the whole plan's size.
class arena {
 public:
  arena(std::byte* begin, std::byte* end)
      : next_{reinterpret_cast<std::uintptr_t>(begin)},
        begin_{reinterpret_cast<std::uintptr_t>(begin)},
        end_{reinterpret_cast<std::uintptr_t>(end)} {}

  template <typename T>
  std::span<T> take(std::size_t n) {
    const std::uintptr_t aligned = (next_ + alignof(T) - 1) & ~(std::uintptr_t{alignof(T)} - 1);
    next_ = aligned + n * sizeof(T);
    if (!fits_ || next_ > end_) {
      fits_ = false;
      return {};
    }
    T* p = reinterpret_cast<T*>(aligned);
    // Raw bytes are written before they are read (message buffers, block slots): only
    // objects are constructed. (Zeroing every byte here was a sixth of a tile's
    // instructions.)
    if constexpr (!std::is_same_v<T, std::byte>) {
      for (std::size_t i = 0; i < n; ++i)
        new (p + i) T{};
    }
    return {p, n};
  }

  [[nodiscard]] bool fits() const { return fits_; }
  [[nodiscard]] std::uint32_t needed() const { return static_cast<std::uint32_t>(next_ - begin_); }
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(end_ - begin_); }

 private:
  std::uintptr_t next_;
  std::uintptr_t begin_;
  std::uintptr_t end_;
  bool fits_{true};
};

inline std::uint32_t pow2_at_least(std::uint32_t x) {
  std::uint32_t h = 1;
  while (h < x)
    h *= 2;
  return h;
}

inline fabric fabric_of(const abi::boot_block& b) {
  switch (static_cast<fabric_kind>(b.fabric_kind)) {
    case fabric_kind::mesh:
      return fabric::mesh(b.fabric_a, b.fabric_b);
    case fabric_kind::torus:
      return fabric::torus(b.fabric_a, b.fabric_b);
    case fabric_kind::hypercube: {
      std::uint32_t d = 0;
      while ((1U << d) < b.fabric_b)
        ++d;
      return fabric::hypercube(d);
    }
    case fabric_kind::ring:
      break;
  }
  return fabric::ring(b.fabric_b);
}

inline void report_fault(abi::boot_block& b, const tile_fault& f) {
  b.fault_code = static_cast<std::uint32_t>(f.code);
  b.fault_op_index = f.op_index;
  b.fault_kind = static_cast<std::uint32_t>(f.kind);
  b.fault_step = f.step;
  b.fault_peer = f.peer;
  b.fault_block = f.block;
  b.fault_got = f.got;
  b.fault_bytes_expected_lo = abi::lo(f.bytes_expected);
  b.fault_bytes_expected_hi = abi::hi(f.bytes_expected);
  b.fault_bytes_got_lo = abi::lo(f.bytes_got);
  b.fault_bytes_got_hi = abi::hi(f.bytes_got);
}

// Ends this tile's run: the result is in the boot block (tile_support.cpp).
[[noreturn]] void finish(abi::boot_block& b, abi::tile_state_code state);

// The boot block the platform wrote.
inline abi::boot_block& boot() {
  return *reinterpret_cast<abi::boot_block*>(abi::boot_base);
}

// The run's collective, from the boot block.
inline fw::collective_params collective(const abi::boot_block& b) {
  fw::collective_params c;
  c.coll = static_cast<fw::collective>(b.coll);
  c.alg = static_cast<fw::tb_algorithm>(b.alg);
  c.a2a = static_cast<fw::a2a_algorithm>(b.a2a);
  c.f = fabric_of(b);
  c.root = b.root;
  c.bytes = b.bytes;
  c.type = static_cast<elem_type>(b.type);
  c.rop = static_cast<reduce_op>(b.rop);
  c.shift = b.shift;
  c.packets = b.packets;
  c.pair_sync = b.pair_sync != 0;
  return c;
}

// Runs `program` on this tile and reports its end; does not return. The boot block must be
// this image's (else the tile reports bad_boot).
template <typename Program>
[[noreturn]] void run(Program program) {
  abi::boot_block& b = boot();
  if (b.magic != abi::boot_magic || b.version != abi::abi_version)
    finish(b, abi::tile_state_code::bad_boot);
  const fw::collective_params c = collective(b);
  executor_config cfg;
  cfg.tiles = b.tiles;
  cfg.proto = static_cast<protocol>(b.proto);
  cfg.unforced_threshold = abi::join(b.unforced_threshold_lo, b.unforced_threshold_hi);
  cfg.prepost = b.prepost != 0;
  cfg.type = c.type;
  cfg.rop = c.rop;
  cfg.idle_cycles = abi::join(b.idle_cycles_lo, b.idle_cycles_hi);
  cfg.send_ahead = b.send_ahead != 0;
  cfg.timeout_base = abi::join(b.timeout_base_lo, b.timeout_base_hi);
  cfg.timeout_per_byte = abi::join(b.timeout_per_byte_lo, b.timeout_per_byte_hi);
  cfg.max_retries = b.max_retries;

  // The memory the host's plan asks for, carved from the arena as the host harness sizes
  // a native tile's (harness::harness_base).
  const abi::tile_plan_words& pl = b.plan;
  const std::uintptr_t arena_end = reinterpret_cast<std::uintptr_t>(__heap_end) - abi::stack_guard;
  arena a{__heap_start, reinterpret_cast<std::byte*>(arena_end)};
  const std::uint32_t cap = pl.peak_blocks > 0 ? pl.peak_blocks : 1;
  const std::uint32_t slot = pl.slot;
  // The program's own needs where it says them (a program of one's own may differ from the
  // built-in one the host planned for).
  const std::uint32_t max_blocks =
      program.max_blocks() > pl.max_blocks ? program.max_blocks() : pl.max_blocks;
  const std::uint32_t async_slots =
      program.async_slots() > pl.async_slots ? program.async_slots() : pl.async_slots;
  auto blocks = a.take<std::byte>(std::size_t{cap} * slot);
  auto entries = a.take<block_store::entry>(cap);
  auto free_stack = a.take<std::uint32_t>(cap);
  auto hash = a.take<std::uint32_t>(pow2_at_least(2 * cap));
  auto send_ids = a.take<block_id>(max_blocks);
  auto recv_ids = a.take<block_id>(max_blocks);
  const std::size_t tx_bytes = dir_bytes(pl.max_send) + std::size_t{pl.max_send} * slot;
  const std::size_t rx_bytes =
      cfg.prepost ? static_cast<std::size_t>(abi::join(pl.all_recv_lo, pl.all_recv_hi))
                  : dir_bytes(pl.max_recv) + std::size_t{pl.max_recv} * slot;
  auto tx = a.take<std::byte>(tx_bytes);
  auto rx = a.take<std::byte>(rx_bytes);
  auto posted = a.take<posted_recv>(cfg.prepost ? pl.receiving_ops : 0);
  std::span<block_id> ahead_send;
  std::span<block_id> ahead_recv;
  std::span<std::byte> ahead_tx;
  if (cfg.send_ahead) {
    ahead_send = a.take<block_id>(max_blocks);
    ahead_recv = a.take<block_id>(max_blocks);
    ahead_tx = a.take<std::byte>(tx_bytes);
  }
  auto pool_sends = a.take<out_msg>(async_slots);
  auto pool = a.take<std::byte>(tx_bytes * async_slots);
  auto table = a.take<abi::block_report>(cap);
  b.arena_used = a.needed();
  b.arena_size = a.size();
  if (!a.fits()) finish(b, abi::tile_state_code::too_big);

  block_store store{blocks, slot, entries, free_stack, hash};
  if (!fw::load_initial(c, b.tile, store)) finish(b, abi::tile_state_code::too_big);

  tile_nic_t nic{tile_bus{}};
  nic.trace_ops(b.trace_ops != 0);
  nic.start();
  typename executor<tile_nic_t, Program>::buffers buf{send_ids, recv_ids,   tx,         rx,
                                                      posted,   ahead_send, ahead_recv, ahead_tx,
                                                      pool,     pool_sends, nullptr};
  executor<tile_nic_t, Program> ex{tile_id{b.tile}, nic, program, store, buf, cfg};
  tile_state s = ex.poll();
  while (s == tile_state::blocked) {
    const tile_wait w = ex.waiting();
    b.wait_what = static_cast<std::uint32_t>(w.what);
    b.wait_peer = w.peer;
    b.wait_step = w.step;
    b.op_index = ex.op_index();
    b.op_past = ex.past_program() ? 1U : 0U;
    if (!ex.past_program() && ex.op_index() != 0) {
      b.op_kind = static_cast<std::uint32_t>(ex.current().kind);
      b.op_step = ex.current().step;
      b.op_to = ex.current().to;
      b.op_from = ex.current().from;
    }
    nic.idle();
    s = ex.poll();
  }

  nic.program_end();
  b.messages_lo = abi::lo(ex.messages_sent());
  b.messages_hi = abi::hi(ex.messages_sent());
  b.sent_bytes_lo = abi::lo(ex.bytes_sent());
  b.sent_bytes_hi = abi::hi(ex.bytes_sent());
  if (s == tile_state::failed) {
    report_fault(b, ex.fault());
    finish(b, abi::tile_state_code::failed);
  }
  std::uint32_t n = 0;
  store.for_each([&](std::uint32_t id, std::span<std::byte> bytes) {
    if (n < table.size()) {
      table[n] = abi::block_report{id, tile_bus{}.address(bytes.data()),
                                   static_cast<std::uint32_t>(bytes.size()),
                                   abi::fnv1a(bytes.data(), bytes.size())};
    }
    ++n;
  });
  b.blocks = n;
  b.block_table = tile_bus{}.address(table.data());
  finish(b, abi::tile_state_code::done);
}

}  // namespace tessera::tile
