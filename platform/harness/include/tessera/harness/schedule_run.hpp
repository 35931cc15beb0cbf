// Running a schedule file (docs/schedule-format.md) for real, on any host network
// model: every tile executes its op stream on the tile runtime, data moves as blocks,
// and every block a tile must end with is checked byte by byte.
//
// What the schedule moves (block ids, sizes, where blocks start and end) is decided by
// resolve_schedule (tessera/schedule/resolve.hpp), the same for `analyze`.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tessera/harness/harness.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/schedule/resolve.hpp"

namespace tessera::harness {

// One tile's op stream as the executor's program.
class schedule_program {
 public:
  schedule_program(const tile_program& p) : p_{&p} {}  // NOLINT: implicit on purpose
  bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (i_ >= p_->ops.size()) return false;
    const sched_op& o = p_->ops[i_++];
    out = op{o.kind, o.step, o.to, o.from, o.send_count, o.recv_count, o.count, o.flags};
    if (o.receives()) {
      out.flags |= op_flag::sized;
      out.recv_bytes = o.recv_bytes;
    }
    const auto s = p_->send_blocks(o);
    const auto r = p_->recv_blocks(o);
    for (std::size_t k = 0; k < s.size(); ++k)
      send[k] = block_id{s[k]};
    for (std::size_t k = 0; k < r.size(); ++k)
      recv[k] = block_id{r[k]};
    return true;
  }

 private:
  const tile_program* p_;
  std::size_t i_{0};
};

// Plans memory, loads the initial blocks and checks the end state; the model adds the
// NICs and the clock, as with collective_harness.
class schedule_harness_base : public harness_core {
 public:
  using program = schedule_program;

  schedule_harness_base(const resolved_schedule& ps, const harness_options& o);

 protected:
  [[nodiscard]] program program_of(std::uint32_t t) const {
    return schedule_program{ps_->sched.programs[t]};
  }
  [[nodiscard]] executor_config exec_config() const {
    executor_config cfg = o_.exec;
    cfg.tiles = p_;
    return cfg;
  }
  run_outcome finish(std::uint64_t now, const std::vector<transfer_record>& transfers,
                     const std::vector<drop_record>& drops,
                     const std::vector<msg_header>& unreceived, const tile_ends& ends);

  const resolved_schedule* ps_;
  harness_options o_;
  std::vector<std::uint32_t> peak_;
  std::vector<std::unique_ptr<tile_memory>> mem_;
};

template <typename Nic>
using schedule_harness = tiles_harness<schedule_harness_base, Nic>;

}  // namespace tessera::harness
