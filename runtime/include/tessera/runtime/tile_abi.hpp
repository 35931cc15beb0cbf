// The contract between a tile image (firmware running on a Cortex-M4 tile) and the
// platform that hosts it (the ISS tiles of the TLM platform, docs/tiles.md): the tile's
// memory map, the NIC's registers (docs/nic-registers.md) and the boot block through
// which the platform hands the tile its id, its fabric and its workload and takes back
// its result. One header, included by both sides, so the two cannot drift.
//
// Every register and boot-block field is a 32-bit little-endian word; 64-bit values are
// two words, low first. Enumerations travel as their underlying values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::tile_abi {

// ---- memory map ------------------------------------------------------------------------
inline constexpr std::uint32_t flash_base = 0x0000'0000U;  // vector table, code, rodata
inline constexpr std::uint32_t flash_size = 0x0010'0000U;  // 1 MiB
inline constexpr std::uint32_t ram_base = 0x2000'0000U;    // boot block, data, arena, stack
inline constexpr std::uint32_t ram_size = 0x0040'0000U;    // 4 MiB
inline constexpr std::uint32_t nic_base = 0x4000'0000U;    // the NIC's registers
inline constexpr std::uint32_t nic_size = 0x0000'1000U;
// The boot block sits at the start of RAM (the image's linker script reserves it).
inline constexpr std::uint32_t boot_base = ram_base;
inline constexpr std::uint32_t boot_size = 0x0000'0400U;
// The page right below the stack reserve (picolibc's __heap_end, which the image's linker
// script keeps page-aligned) that the platform leaves unmapped: a stack that overflows
// faults there. The image keeps its arena out of it.
inline constexpr std::uint32_t stack_guard = 0x0000'1000U;
// The system control space (0xE000E000): a page of plain RAM on the ISS tiles, so start-up
// code that enables the FPU through CPACR runs.
inline constexpr std::uint32_t scs_base = 0xE000'E000U;
inline constexpr std::uint32_t scs_size = 0x0000'1000U;

// ---- NIC registers (offsets from nic_base) ---------------------------------------------
// A command is staged in the argument registers, then started by writing its code to
// `command`; its answer is in `result` (and, for headers, the header registers) when the
// write returns. The platform executes every command at the tile's own time: the write is
// where the tile and the fabric synchronise (docs/tiles.md, "Time"). The fabric time a
// tile's instructions take counts from its `start` command to its `program_end`: making
// the workload's initial data and the report after it are the harness's, not the program's.
namespace reg {
inline constexpr std::uint32_t magic = 0x000;    // RO: nic_magic
inline constexpr std::uint32_t version = 0x004;  // RO: abi_version
inline constexpr std::uint32_t tile = 0x008;     // RO: this tile's id
inline constexpr std::uint32_t tiles = 0x00C;    // RO: tiles in the fabric
// Arguments (RW).
inline constexpr std::uint32_t arg_peer = 0x010;       // destination, or source to receive from
inline constexpr std::uint32_t arg_addr = 0x014;       // payload or buffer address in tile RAM
inline constexpr std::uint32_t arg_len = 0x018;        // payload or buffer length in bytes
inline constexpr std::uint32_t arg_handle = 0x01C;     // test, header, release
inline constexpr std::uint32_t arg_cycles_lo = 0x020;  // post_delay
inline constexpr std::uint32_t arg_cycles_hi = 0x024;
// The header of post_send, post_control and take_control (RW): msg_header's fields.
inline constexpr std::uint32_t hdr_src = 0x040;
inline constexpr std::uint32_t hdr_dst = 0x044;
inline constexpr std::uint32_t hdr_kind = 0x048;
inline constexpr std::uint32_t hdr_proto = 0x04C;
inline constexpr std::uint32_t hdr_tag = 0x050;
inline constexpr std::uint32_t hdr_blocks = 0x054;
inline constexpr std::uint32_t hdr_first_block = 0x058;
inline constexpr std::uint32_t hdr_bytes_lo = 0x05C;
inline constexpr std::uint32_t hdr_bytes_hi = 0x060;
inline constexpr std::uint32_t hdr_seq = 0x064;
inline constexpr std::uint32_t hdr_check = 0x068;
// Command (WO) and its result (RO).
inline constexpr std::uint32_t command = 0x080;
inline constexpr std::uint32_t result = 0x084;
}  // namespace reg

inline constexpr std::uint32_t nic_magic = 0x4E52'5354U;  // "TSRN"
inline constexpr std::uint32_t abi_version = 3;

enum class command : std::uint32_t {
  none = 0,
  post_send = 1,     // header regs, arg_addr/arg_len: the payload; result: the handle
  post_recv = 2,     // arg_peer, arg_addr/arg_len: the buffer; result: the handle
  post_delay = 3,    // arg_cycles; result: the handle
  post_control = 4,  // header regs; result: 1 taken, 0 no room
  take_control = 5,  // header regs as the wanted kind, source and tag; result: 1 found,
                     // and the header regs then hold the message
  test = 6,          // arg_handle; result: nic_status (pending, done, failed)
  header = 7,        // arg_handle; the header regs get the completed receive's header
  release = 8,       // arg_handle
  finish = 9,        // the tile wrote its result in the boot block: the run is over for it
  start = 10,        // the tile holds its initial data: its program starts now
  program_end = 11,  // its program ended (done or failed): what follows is its report
  // The program took up op arg_handle (1-based) of kind arg_addr (bits 0-7; bit 31: the
  // program is past its last op), step arg_cycles_lo, peers arg_peer (to) and arg_len
  // (from): the timeline's op spans. Sent only when the boot block's trace_ops is 1.
  op_mark = 12,
};

// The value `result` holds after a command the NIC refused (an unknown code, a buffer
// outside tile RAM): the tile runtime reads it as no_handle or false.
inline constexpr std::uint32_t bad_command = 0xFFFF'FFFFU;

// ---- boot block --------------------------------------------------------------------------
inline constexpr std::uint32_t boot_magic = 0x4252'5354U;  // "TSRB"

// What a tile's arena must hold, in the words the boot block carries them
// (memory_plan.hpp).
struct tile_plan_words {
  std::uint32_t slot;         // bytes of the largest block
  std::uint32_t peak_blocks;  // blocks held at once
  std::uint32_t max_blocks;   // block ids of the largest op
  std::uint32_t max_send;     // blocks of the largest send
  std::uint32_t max_recv;     // blocks of the largest receive
  std::uint32_t receiving_ops;
  std::uint32_t all_recv_lo;  // every receive's landing area (prepost)
  std::uint32_t all_recv_hi;
  std::uint32_t async_slots;  // sends that may be in flight while the tile goes on
};

enum class tile_state_code : std::uint32_t {
  running = 0,
  done = 1,      // the program ran to its end
  failed = 2,    // the executor stopped with a fault (fault_*)
  too_big = 3,   // the workload does not fit the image's arena (arena_used > arena_size)
  bad_boot = 4,  // the boot block's magic or version is not this image's
};

// Written by the platform before the tile starts (fields up to `result`), read by the
// image; the result part is written by the image and read by the platform.
struct boot_block {
  std::uint32_t magic;    // boot_magic
  std::uint32_t version;  // abi_version
  std::uint32_t tile;
  std::uint32_t tiles;
  // The fabric: fabric_kind, its rows and its columns as tessera::fabric holds them (a
  // ring and a hypercube are one row of all the tiles).
  std::uint32_t fabric_kind;
  std::uint32_t fabric_a;
  std::uint32_t fabric_b;
  // The collective (fw::collective_params).
  std::uint32_t coll;
  std::uint32_t alg;
  std::uint32_t a2a;
  std::uint32_t root;
  std::uint32_t bytes;
  std::uint32_t type;
  std::uint32_t rop;
  std::uint32_t shift;
  std::uint32_t packets;
  std::uint32_t pair_sync;
  // The executor (executor_config).
  std::uint32_t proto;
  std::uint32_t prepost;
  std::uint32_t send_ahead;
  std::uint32_t max_retries;
  std::uint32_t unforced_threshold_lo;
  std::uint32_t unforced_threshold_hi;
  std::uint32_t idle_cycles_lo;
  std::uint32_t idle_cycles_hi;
  std::uint32_t timeout_base_lo;
  std::uint32_t timeout_base_hi;
  std::uint32_t timeout_per_byte_lo;
  std::uint32_t timeout_per_byte_hi;
  // The tile's memory plan, from a walk of its program on the host: what its arena must
  // hold (plan_words and needs_of in memory_plan.hpp).
  tile_plan_words plan;
  std::uint32_t reserved[31 - sizeof(tile_plan_words) / 4];
  // ---- the tile's result ----
  std::uint32_t state;  // tile_state_code
  // A failed tile's tile_fault (executor.hpp), field by field.
  std::uint32_t fault_code;
  std::uint32_t fault_op_index;
  std::uint32_t fault_kind;
  std::uint32_t fault_step;
  std::uint32_t fault_peer;
  std::uint32_t fault_block;
  std::uint32_t fault_got;
  std::uint32_t fault_bytes_expected_lo;
  std::uint32_t fault_bytes_expected_hi;
  std::uint32_t fault_bytes_got_lo;
  std::uint32_t fault_bytes_got_hi;
  // What the tile waited for when it last went idle (tile_wait), for deadlock reports.
  std::uint32_t wait_what;
  std::uint32_t wait_peer;
  std::uint32_t wait_step;
  std::uint32_t messages_lo;
  std::uint32_t messages_hi;
  std::uint32_t sent_bytes_lo;
  std::uint32_t sent_bytes_hi;
  std::uint32_t blocks;       // entries of the block table
  std::uint32_t block_table;  // address in tile RAM of `blocks` block_report entries
  std::uint32_t arena_used;   // bytes of its arena the tile needed (too_big: more than it has)
  std::uint32_t arena_size;   // bytes of arena the image has
  // Where its program was when it last went idle, for the timeline's op spans
  // (harness::tile_snapshot): the op's index (1-based; 0: before the first), 1 when past
  // the last, and the op's kind, step and peers.
  std::uint32_t op_index;
  std::uint32_t op_past;
  std::uint32_t op_kind;
  std::uint32_t op_step;
  std::uint32_t op_to;
  std::uint32_t op_from;
  std::uint32_t trace_ops;  // set by the platform: 1 to send op_mark at each op
};

// One block a tile holds at its end: the platform reads its bytes from tile RAM and
// verifies them; `check` is the tile's own FNV-1a of the bytes, compared too.
struct block_report {
  std::uint32_t id;
  std::uint32_t addr;
  std::uint32_t len;
  std::uint32_t check;
};

static_assert(sizeof(boot_block) <= boot_size);
static_assert(offsetof(boot_block, state) == 60 * 4);
static_assert(offsetof(boot_block, op_index) == 83 * 4);  // docs/nic-registers.md
static_assert(offsetof(boot_block, trace_ops) == 89 * 4);
static_assert(sizeof(block_report) == 16);

// 32-bit FNV-1a, the check a tile reports per block.
constexpr std::uint32_t fnv1a(const std::byte* p, std::size_t n) {
  std::uint32_t h = 0x811C'9DC5U;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<std::uint32_t>(p[i]);
    h *= 0x0100'0193U;
  }
  return h;
}

constexpr std::uint32_t lo(std::uint64_t v) {
  return static_cast<std::uint32_t>(v);
}
constexpr std::uint32_t hi(std::uint64_t v) {
  return static_cast<std::uint32_t>(v >> 32);
}
constexpr std::uint64_t join(std::uint32_t lo_word, std::uint32_t hi_word) {
  return (std::uint64_t{hi_word} << 32) | lo_word;
}

}  // namespace tessera::tile_abi
