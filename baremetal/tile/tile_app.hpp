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
// run, or, for an image that declares its own contract (tessera/firmware/contract.hpp), the
// contract's; a program must fit it (the executor names what does not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/contract.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/memory_plan.hpp"
#include "tessera/runtime/mmio_nic.hpp"
#include "tessera/runtime/tile_abi.hpp"

extern "C" {
// picolibc's linker script: the region between .bss and the stack reserve.
extern std::byte __heap_start[];
extern std::byte __heap_end[];
// tile_support.cpp: every NIC command goes through it (the platform synchronises there).
void tessera_nic_command(std::uint32_t code);
// The image's own contract (TESSERA_CONTRACT, tessera/firmware/contract.hpp), if it
// declares one: then its initial blocks are the contract's, not the built-in collective's.
[[gnu::weak]] extern const tessera::fw::contract tessera_contract;
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

  // The memory the host's plan asks for (memory_plan.hpp, as the host harness plans a
  // native tile's), with the program's own bounds where it says them larger (a program of
  // one's own may differ from the built-in one the host planned for), laid out from the
  // arena's base and, after it, the table of blocks the tile reports at its end.
  const abi::tile_plan_words& words = b.plan;
  plan_options po;
  po.prepost = cfg.prepost;
  po.send_ahead = cfg.send_ahead;
  po.async_slots =
      program.async_slots() > words.async_slots ? program.async_slots() : words.async_slots;
  po.min_ids = program.max_blocks() > words.max_blocks ? program.max_blocks() : words.max_blocks;
  const tile_plan plan = plan_memory(needs_of(words), words.slot, po);
  const auto base = reinterpret_cast<std::uintptr_t>(__heap_start);
  const std::uintptr_t size =
      reinterpret_cast<std::uintptr_t>(__heap_end) - abi::stack_guard - base;
  const arena_layout l = lay_out(plan, base);
  std::uint64_t used = l.end;
  const arena_region table_at = place<abi::block_report>(used, base, plan.store_blocks);
  b.arena_used = used < UINT32_MAX ? static_cast<std::uint32_t>(used) : UINT32_MAX;
  b.arena_size = static_cast<std::uint32_t>(size);
  if (used > size) finish(b, abi::tile_state_code::too_big);
  const std::span<std::byte> arena{__heap_start, size};
  tile_arena m = carve(plan, l, arena);
  const std::span<abi::block_report> table = objects_in<abi::block_report>(arena, table_at);
  block_store& store = m.store;
  const fw::contract* own = &tessera_contract;
  const bool loaded = own != nullptr
                          ? fw::load_initial_of(fw::contract_layout{*own, c.f, c.bytes, c.type},
                                                c.type, c.rop, b.tile, store)
                          : fw::load_initial(c, b.tile, store);
  if (!loaded) finish(b, abi::tile_state_code::too_big);

  tile_nic_t nic{tile_bus{}};
  nic.trace_ops(b.trace_ops != 0);
  nic.start();
  executor<tile_nic_t, Program> ex{tile_id{b.tile}, nic, program, store, m.buffers, cfg};
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
