// The host-side global schedule: every tile's op stream, with the block ids each
// message carries, plus the delivery contract the collective promises.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tessera/runtime/op.hpp"

namespace tessera {

// One op as stored on the host. Block ids live in the owning tile's pool.
struct sched_op {
  op_kind kind{op_kind::idle};
  std::uint32_t step{0};
  std::uint32_t to{no_tile};
  std::uint32_t from{no_tile};
  std::uint64_t send_bytes{0};
  std::uint64_t recv_bytes{0};
  std::uint32_t count{0};  // shuffle: blocks rearranged
  std::uint8_t flags{0};   // op_flag bits
  std::uint32_t send_first{0};
  std::uint32_t send_count{0};
  std::uint32_t recv_first{0};
  std::uint32_t recv_count{0};

  [[nodiscard]] bool sends() const { return tessera::sends(kind); }
  [[nodiscard]] bool receives() const { return tessera::receives(kind); }
};

struct tile_program {
  std::vector<sched_op> ops;
  std::vector<std::uint32_t> pool;  // block ids referenced by ops

  [[nodiscard]] std::span<const std::uint32_t> send_blocks(const sched_op& o) const {
    return std::span<const std::uint32_t>(pool).subspan(o.send_first, o.send_count);
  }
  [[nodiscard]] std::span<const std::uint32_t> recv_blocks(const sched_op& o) const {
    return std::span<const std::uint32_t>(pool).subspan(o.recv_first, o.recv_count);
  }

  // Appends an op, copying its block ids into the pool.
  void add(sched_op o, std::span<const std::uint32_t> send, std::span<const std::uint32_t> recv);
};

// What a collective promises: where each block starts and which tiles must end up
// holding which blocks.
struct delivery_spec {
  std::uint32_t blocks{0};
  std::vector<std::uint32_t> origin;                   // per block: the tile that holds it first
  std::vector<std::vector<std::uint32_t>> wanted;      // per tile: blocks it must receive
  std::function<std::string(std::uint32_t)> describe;  // "block 17 (2->1)"
};

// Complete exchange among p tiles: block s*p+t starts at s and is wanted by t.
delivery_spec alltoall_delivery(std::uint32_t p);

struct schedule {
  std::uint32_t tiles{0};
  std::vector<tile_program> programs;  // one per tile
  std::string collective;              // e.g. "alltoall"; empty for hand-written files
  std::string algorithm;
  std::uint64_t block_bytes{0};  // bytes per block, 0 when unknown
  std::optional<delivery_spec> delivery;

  [[nodiscard]] std::uint64_t op_count() const;
};

}  // namespace tessera
