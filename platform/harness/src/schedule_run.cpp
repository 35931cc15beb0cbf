#include "tessera/harness/schedule_run.hpp"

#include <algorithm>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/schedule/verdict.hpp"

namespace tessera::harness {
namespace {

// The most blocks one op of tp sends or receives: the length of the walk's id lists.
std::size_t largest_op(const tile_program& tp) {
  std::size_t n = 0;
  for (const sched_op& o : tp.ops)
    n = std::max<std::size_t>({n, o.send_count, o.recv_count});
  return n;
}

}  // namespace

schedule_harness_base::schedule_harness_base(const resolved_schedule& ps, const harness_options& o)
    : harness_core{ps.sched.tiles, o.exec.proto}, ps_{&ps}, o_{o} {
  const std::uint32_t slot = ps.slot;
  peak_.resize(p_);
  std::uint64_t ops = 0;
  for (std::uint32_t t = 0; t < p_; ++t) {
    const tile_program& tp = ps.sched.programs[t];
    ops += tp.ops.size();
    std::unordered_set<std::uint32_t> held(ps.initial[t].begin(), ps.initial[t].end());
    std::vector<block_id> send(largest_op(tp));
    std::vector<block_id> recv(send.size());
    const tile_needs needs = walk_needs(schedule_program{tp}, held, send, recv, slot);
    const tile_plan plan = plan_memory(needs, slot, {o.exec.prepost, o.exec.send_ahead, 0});
    peak_[t] = plan.peak_blocks;
    memory_ += plan.data_bytes();
    if (memory_ > o.memory_limit) {
      throw input_error("the schedule needs more than " + std::to_string(o.memory_limit >> 20) +
                        " MiB of tile memory");
    }
    std::unique_ptr<tile_memory> m = make_tile_memory(plan);
    if (o.exec.proto == protocol::reliable) arm_reliable(*m, p_);
    memory_of_.push_back(m.get());
    std::vector<std::byte> bytes;
    for (const std::uint32_t id : ps.initial[t]) {
      const auto it = ps.length.find(id);
      const std::uint32_t len = it == ps.length.end() ? 0 : it->second;
      bytes.resize(len);
      for (std::uint32_t i = 0; i < len; ++i)
        bytes[i] = fw::data_byte(id, i);
      if (m->arena.store.insert(id, bytes) != block_store::put_result::ok && setup_failure_.empty())
        setup_failure_ = "tile " + std::to_string(t) + ": initial block " + std::to_string(id) +
                         " does not fit its store";
    }
    mem_.push_back(std::move(m));
  }
  if (ops > max_ops)
    throw input_error("the schedule has more than " + std::to_string(max_ops) + " ops");
}

run_outcome schedule_harness_base::finish(std::uint64_t now,
                                          const std::vector<transfer_record>& transfers,
                                          const std::vector<drop_record>& drops,
                                          const std::vector<msg_header>& unreceived,
                                          const tile_ends& ends) {
  run_outcome out = settle(now, transfers, drops, unreceived, ends, peak_);
  if (!out.completed || !out.failure.empty()) return out;
  for (std::uint32_t t = 0; t < p_; ++t) {
    block_store& st = mem_[t]->arena.store;
    for (const std::uint32_t id : ps_->wanted[t]) {
      std::ostringstream os;
      os << "tile " << t << ": block " << id;
      if (!st.contains(id)) {
        out.failure = os.str() + " never arrived";
        return out;
      }
      const std::span<std::byte> b = st.find(id);
      const auto it = ps_->length.find(id);
      const std::uint32_t len = it == ps_->length.end() ? 0 : it->second;
      if (b.size() != len) {
        os << " has " << b.size() << " bytes, expected " << len;
        out.failure = os.str();
        return out;
      }
      if (ps_->combined.contains(id)) continue;
      for (std::uint32_t i = 0; i < len; ++i) {
        if (b[i] != fw::data_byte(id, i)) {
          os << " differs at byte " << i;
          out.failure = os.str();
          return out;
        }
      }
    }
  }
  // Every wanted block was compared, so the bytes checked are the schedule's own count.
  const verdict v = verdict_of(true, ps_->bytes_checked);
  out.bytes_checked = ps_->bytes_checked;
  out.verified = v == verdict::verified;
  out.nothing_checked = v == verdict::nothing_checked;
  return out;
}

}  // namespace tessera::harness
