#include "tessera/iss/boot.hpp"

#include <cstring>

#include "tessera/firmware/payload.hpp"
#include "tessera/firmware/textbook.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/runtime/memory_plan.hpp"

namespace tessera::iss {
namespace {

namespace abi = tile_abi;

abi::boot_block& block_at(std::span<std::byte> ram) {
  return *reinterpret_cast<abi::boot_block*>(ram.data());
}

const abi::boot_block& block_at(std::span<const std::byte> ram) {
  return *reinterpret_cast<const abi::boot_block*>(ram.data());
}

}  // namespace

void write_boot(std::span<std::byte> ram, const fw::collective_params& c,
                const executor_config& cfg, std::uint32_t t, bool trace_ops,
                const fw::contract_layout* own) {
  abi::boot_block& b = block_at(ram);
  std::memset(&b, 0, sizeof b);
  b.trace_ops = trace_ops ? 1U : 0U;
  b.magic = abi::boot_magic;
  b.version = abi::abi_version;
  b.tile = t;
  b.tiles = c.f.tiles();
  b.fabric_kind = static_cast<std::uint32_t>(c.f.kind);
  b.fabric_a = c.f.rows;
  b.fabric_b = c.f.cols;
  b.coll = static_cast<std::uint32_t>(c.coll);
  b.alg = static_cast<std::uint32_t>(c.alg);
  b.a2a = static_cast<std::uint32_t>(c.a2a);
  b.root = c.root;
  b.bytes = c.bytes;
  b.type = static_cast<std::uint32_t>(c.type);
  b.rop = static_cast<std::uint32_t>(c.rop);
  b.shift = c.shift;
  b.packets = c.packets;
  b.pair_sync = c.pair_sync ? 1 : 0;
  b.proto = static_cast<std::uint32_t>(cfg.proto);
  b.prepost = cfg.prepost ? 1 : 0;
  b.send_ahead = cfg.send_ahead ? 1 : 0;
  b.max_retries = cfg.max_retries;
  b.unforced_threshold_lo = abi::lo(cfg.unforced_threshold);
  b.unforced_threshold_hi = abi::hi(cfg.unforced_threshold);
  b.idle_cycles_lo = abi::lo(cfg.idle_cycles);
  b.idle_cycles_hi = abi::hi(cfg.idle_cycles);
  b.timeout_base_lo = abi::lo(cfg.timeout_base);
  b.timeout_base_hi = abi::hi(cfg.timeout_base);
  b.timeout_per_byte_lo = abi::lo(cfg.timeout_per_byte);
  b.timeout_per_byte_hi = abi::hi(cfg.timeout_per_byte);
  if (own != nullptr) {
    // The contract's plan: its blocks, every receive landing apart when preposted.
    const fw::contract_plan cp = fw::plan_of(*own, t);
    tile_needs needs;
    needs.peak_blocks = cp.peak_blocks;
    needs.max_send = cp.max_send;
    needs.max_recv = cp.max_recv;
    needs.receiving_ops = cp.final;
    needs.all_recv_bytes = std::uint64_t{cp.final} * message_bytes(cp.max_recv, own->slot_bytes());
    const plan_options po{cfg.prepost, cfg.send_ahead, 0,
                          cp.max_send > cp.max_recv ? cp.max_send : cp.max_recv};
    b.plan = plan_words(needs, plan_memory(needs, own->slot_bytes(), po));
    return;
  }
  // The plan the host makes for the built-in program, its id lists as long as the
  // program's bound: a program of the firmware developer's own may send more a message.
  const std::uint32_t slot = fw::layout{c}.slot_bytes();
  const fw::collective_program prog{c, tile_id{t}};
  const tile_needs needs = harness::plan_tile(c, t, slot);
  const plan_options po{cfg.prepost, cfg.send_ahead, prog.async_slots(), prog.max_blocks()};
  b.plan = plan_words(needs, plan_memory(needs, slot, po));
}

harness::tile_snapshot read_progress(std::span<const std::byte> ram) {
  const abi::boot_block& b = block_at(ram);
  harness::tile_snapshot x;
  x.index = b.op_index;
  x.past = b.op_past != 0;
  x.kind = static_cast<op_kind>(b.op_kind);
  x.step = b.op_step;
  x.to = b.op_to;
  x.from = b.op_from;
  x.wait.what = static_cast<wait_kind>(b.wait_what);
  x.wait.peer = b.wait_peer;
  x.wait.step = b.wait_step;
  return x;
}

tile_result read_result(std::span<const std::byte> ram) {
  const abi::boot_block& b = block_at(ram);
  tile_result r;
  r.state = static_cast<abi::tile_state_code>(b.state);
  r.fault.code = static_cast<tile_error>(b.fault_code);
  r.fault.op_index = b.fault_op_index;
  r.fault.kind = static_cast<op_kind>(b.fault_kind);
  r.fault.step = b.fault_step;
  r.fault.peer = b.fault_peer;
  r.fault.block = b.fault_block;
  r.fault.got = b.fault_got;
  r.fault.bytes_expected = abi::join(b.fault_bytes_expected_lo, b.fault_bytes_expected_hi);
  r.fault.bytes_got = abi::join(b.fault_bytes_got_lo, b.fault_bytes_got_hi);
  r.wait.what = static_cast<wait_kind>(b.wait_what);
  r.wait.peer = b.wait_peer;
  r.wait.step = b.wait_step;
  r.messages = abi::join(b.messages_lo, b.messages_hi);
  r.bytes = abi::join(b.sent_bytes_lo, b.sent_bytes_hi);
  r.arena_used = b.arena_used;
  r.arena_size = b.arena_size;
  if (r.state != abi::tile_state_code::done) return r;
  const std::uint64_t table = b.block_table;
  const std::uint64_t bytes = std::uint64_t{b.blocks} * sizeof(abi::block_report);
  if (table < abi::ram_base || table - abi::ram_base > ram.size() ||
      bytes > ram.size() - (table - abi::ram_base)) {
    r.problem = "its block table (" + std::to_string(b.blocks) + " entries) lies outside its RAM";
    return r;
  }
  r.blocks.resize(b.blocks);
  if (bytes > 0) std::memcpy(r.blocks.data(), ram.data() + (table - abi::ram_base), bytes);
  return r;
}

std::string reported_blocks::load(std::uint32_t tile, const tile_result& r,
                                  std::span<const std::byte> ram, std::uint32_t slot) {
  const std::string who = "tile " + std::to_string(tile);
  if (!r.problem.empty()) return who + ": " + r.problem;
  const auto cap = static_cast<std::uint32_t>(r.blocks.size() > 0 ? r.blocks.size() : 1);
  arena_.assign(std::size_t{cap} * slot, std::byte{0});
  entries_.assign(cap, {});
  free_.assign(cap, 0);
  hash_.assign(block_store::hash_cells(cap), 0);
  store_ = block_store{arena_, slot, entries_, free_, hash_};
  for (const abi::block_report& b : r.blocks) {
    const std::string block = who + " block " + std::to_string(b.id);
    const std::uint64_t off = std::uint64_t{b.addr} - abi::ram_base;
    if (b.addr < abi::ram_base || off > ram.size() || b.len > ram.size() - off)
      return block + ": reported at an address outside its RAM";
    const std::span<const std::byte> bytes = ram.subspan(static_cast<std::size_t>(off), b.len);
    if (abi::fnv1a(bytes.data(), bytes.size()) != b.check)
      return block + ": its bytes changed after the tile checked them";
    switch (store_.insert(b.id, bytes)) {
      case block_store::put_result::ok:
        break;
      case block_store::put_result::duplicate:
        return block + ": reported twice";
      case block_store::put_result::too_long:
        return block + ": " + std::to_string(b.len) + " bytes, longer than a block (" +
               std::to_string(slot) + ")";
      case block_store::put_result::full:
        return block + ": more blocks than reported";
    }
  }
  return {};
}

}  // namespace tessera::iss
