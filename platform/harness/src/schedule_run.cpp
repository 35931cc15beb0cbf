#include "tessera/harness/schedule_run.hpp"

#include <algorithm>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/schedule/verdict.hpp"

namespace tessera::harness {
namespace {

std::uint32_t pow2_at_least(std::uint32_t x) {
  std::uint32_t h = 1;
  while (h < x)
    h *= 2;
  return h;
}

}  // namespace

schedule_harness_base::schedule_harness_base(const resolved_schedule& ps, const harness_options& o)
    : harness_core{ps.sched.tiles, o.exec.proto}, ps_{&ps}, o_{o} {
  const std::uint32_t slot = ps.slot;
  const bool prepost = o.exec.prepost;
  peak_.resize(p_);
  max_blocks_.resize(p_);
  std::uint64_t ops = 0;
  for (std::uint32_t t = 0; t < p_; ++t) {
    const tile_program& tp = ps.sched.programs[t];
    ops += tp.ops.size();
    std::unordered_set<std::uint32_t> held(ps.initial[t].begin(), ps.initial[t].end());
    std::uint32_t peak = static_cast<std::uint32_t>(held.size());
    std::uint32_t max_send = 0;
    std::uint32_t max_recv = 0;
    std::uint64_t all_recv = 0;
    std::uint32_t receiving = 0;
    for (const sched_op& op_ : tp.ops) {
      const bool release = (op_.flags & op_flag::release) != 0;
      if (op_.kind == op_kind::combine) {
        // Local: the destination is stored before the source is dropped, and no
        // message buffer is needed.
        held.insert(tp.recv_blocks(op_)[0]);
        peak = std::max(peak, static_cast<std::uint32_t>(held.size()));
        if (release) held.erase(tp.send_blocks(op_)[0]);
        continue;
      }
      if (op_.sends()) {
        max_send = std::max(max_send, op_.send_count);
        // The executor drops what it sent before it stores what it received (finish_op).
        if (release)
          for (const std::uint32_t id : tp.send_blocks(op_))
            held.erase(id);
      }
      if (op_.receives()) {
        max_recv = std::max(max_recv, op_.recv_count);
        ++receiving;
        all_recv += dir_bytes(op_.recv_count) + std::uint64_t{op_.recv_count} * slot;
        if ((op_.flags & op_flag::combine_in) == 0)
          for (const std::uint32_t id : tp.recv_blocks(op_))
            held.insert(id);
      }
      peak = std::max(peak, static_cast<std::uint32_t>(held.size()));
    }
    peak_[t] = peak;
    max_blocks_[t] = std::max({max_send, max_recv, 1U});
    const std::uint64_t tx = dir_bytes(max_send) + std::uint64_t{max_send} * slot;
    const std::uint64_t rx =
        prepost ? all_recv : dir_bytes(max_recv) + std::uint64_t{max_recv} * slot;
    memory_ += std::uint64_t{peak} * slot + rx + tx * (o.exec.send_ahead ? 2 : 1);
    if (memory_ > o.memory_limit) {
      throw input_error("the schedule needs more than " + std::to_string(o.memory_limit >> 20) +
                        " MiB of tile memory");
    }
    auto m = std::make_unique<tile_memory>();
    const std::uint32_t cap = std::max<std::uint32_t>(peak, 1);
    m->arena.resize(std::size_t{cap} * slot);
    m->entries.resize(cap);
    m->free_stack.resize(cap);
    m->hash.resize(pow2_at_least(2 * cap));
    m->store = block_store{m->arena, slot, m->entries, m->free_stack, m->hash};
    m->send_ids.resize(max_blocks_[t]);
    m->recv_ids.resize(max_blocks_[t]);
    m->tx.resize(tx);
    m->rx.resize(rx);
    m->posted.resize(prepost ? receiving : 0);
    if (o.exec.send_ahead) {
      m->ahead_send_ids.resize(max_blocks_[t]);
      m->ahead_recv_ids.resize(max_blocks_[t]);
      m->ahead_tx.resize(tx);
    }
    if (o.exec.proto == protocol::reliable) arm_reliable(*m, p_);
    memory_of_.push_back(m.get());
    std::vector<std::byte> bytes;
    for (const std::uint32_t id : ps.initial[t]) {
      const auto it = ps.length.find(id);
      const std::uint32_t len = it == ps.length.end() ? 0 : it->second;
      bytes.resize(len);
      for (std::uint32_t i = 0; i < len; ++i)
        bytes[i] = fw::data_byte(id, i);
      if (m->store.insert(id, bytes) != block_store::put_result::ok && setup_failure_.empty())
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
    block_store& st = mem_[t]->store;
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
