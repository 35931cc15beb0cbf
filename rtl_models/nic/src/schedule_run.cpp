#include "tessera/nic/schedule_run.hpp"

#include <algorithm>
#include <deque>
#include <sstream>

#include "tessera/firmware/payload.hpp"
#include "tessera/schedule/errors.hpp"

namespace tessera::nic {
namespace {

std::uint32_t pow2_at_least(std::uint32_t x) {
  std::uint32_t h = 1;
  while (h < x)
    h *= 2;
  return h;
}

std::string where(std::uint32_t t, std::size_t k) {
  return "ops[" + std::to_string(t) + "][" + std::to_string(k) + "]";
}

}  // namespace

prepared_schedule prepare(const schedule& s) {
  const std::uint32_t p = s.tiles;
  prepared_schedule ps;
  ps.sched.tiles = p;
  ps.sched.collective = s.collective;
  ps.sched.algorithm = s.algorithm;
  ps.sched.block_bytes = s.block_bytes;
  ps.sched.delivery = s.delivery;
  const std::uint32_t contract = s.delivery ? s.delivery->blocks : 0;

  std::uint64_t top = contract;
  for (const tile_program& tp : s.programs)
    for (const std::uint32_t id : tp.pool)
      top = std::max<std::uint64_t>(top, std::uint64_t{id} + 1);
  if (top > 0xF0000000ULL) throw input_error("schedule block ids are too large");
  ps.first_synthetic = static_cast<std::uint32_t>(top);
  std::uint64_t next_id = top;

  auto note_length = [&](std::uint32_t id, std::uint64_t len) {
    if (len > (1ULL << 30))
      throw input_error("schedule block " + std::to_string(id) + " exceeds 1 GiB");
    ps.length.try_emplace(id, static_cast<std::uint32_t>(len));
  };

  // Send side: every message's block list, explicit or synthetic, queued per pair.
  std::vector<std::vector<std::vector<std::uint32_t>>> sends(p);
  std::unordered_map<std::uint64_t, std::deque<std::vector<std::uint32_t>>> queue;
  for (std::uint32_t t = 0; t < p; ++t) {
    const tile_program& tp = s.programs[t];
    sends[t].resize(tp.ops.size());
    for (std::size_t k = 0; k < tp.ops.size(); ++k) {
      const sched_op& o = tp.ops[k];
      const auto given = tp.send_blocks(o);
      if (o.kind == op_kind::combine) {
        if (given.empty() || tp.recv_blocks(o).empty())
          throw input_error(where(t, k) + ": a combine needs a source and a destination block");
        sends[t][k].assign(given.begin(), given.end());
        continue;
      }
      if (!o.sends()) continue;
      std::vector<std::uint32_t> ids(given.begin(), given.end());
      if (ids.empty()) {
        ids.push_back(static_cast<std::uint32_t>(next_id++));
        note_length(ids[0], o.send_bytes);
      } else {
        const std::uint64_t each = s.block_bytes > 0 ? s.block_bytes : o.send_bytes / ids.size();
        for (const std::uint32_t id : ids)
          note_length(id, each);
      }
      queue[std::uint64_t{t} * p + o.to].push_back(ids);
      sends[t][k] = std::move(ids);
    }
  }
  if (next_id > 0xF0000000ULL) throw input_error("the schedule has too many messages");

  // Receive side: the k-th receive from a source gets that source's k-th message.
  ps.initial.resize(p);
  ps.wanted.resize(p);
  ps.sched.programs.resize(p);
  std::vector<std::unordered_set<std::uint32_t>> initial_set(p);
  for (std::uint32_t d = 0; d < p; ++d) {
    const tile_program& tp = s.programs[d];
    tile_program& out = ps.sched.programs[d];
    std::unordered_set<std::uint32_t> held;
    std::unordered_set<std::uint32_t> received;
    auto hold_initially = [&](std::uint32_t id) {
      if (held.contains(id)) return;
      held.insert(id);
      if (id < contract) return;  // the contract says where it starts
      if (initial_set[d].insert(id).second) ps.initial[d].push_back(id);
    };
    for (std::size_t k = 0; k < tp.ops.size(); ++k) {
      const sched_op& o = tp.ops[k];
      std::vector<std::uint32_t> recv(tp.recv_blocks(o).begin(), tp.recv_blocks(o).end());
      if (o.kind == op_kind::combine) {
        hold_initially(sends[d][k][0]);
        held.insert(recv[0]);
        ps.combined.insert(recv[0]);
        if ((o.flags & op_flag::release) != 0) held.erase(sends[d][k][0]);
      } else {
        if (o.sends()) {
          for (const std::uint32_t id : sends[d][k])
            if (!received.contains(id)) hold_initially(id);
          if ((o.flags & op_flag::release) != 0)
            for (const std::uint32_t id : sends[d][k])
              held.erase(id);
        }
        if (o.receives()) {
          auto& q = queue[std::uint64_t{o.from} * p + d];
          if (q.empty()) {
            throw input_error(where(d, k) + " receives from tile " + std::to_string(o.from) +
                              ", which sends tile " + std::to_string(d) + " no more messages");
          }
          if (recv.empty()) recv = q.front();
          q.pop_front();
          for (const std::uint32_t id : recv) {
            received.insert(id);
            held.insert(id);
            if ((o.flags & op_flag::combine_in) != 0) ps.combined.insert(id);
          }
        }
      }
      sched_op n = o;
      out.add(n, sends[d][k], recv);
    }
    // Blocks outside the contract that the tile received and still holds.
    for (const std::uint32_t id : received)
      if (id >= contract && held.contains(id)) ps.wanted[d].push_back(id);
    std::sort(ps.wanted[d].begin(), ps.wanted[d].end());
  }
  if (s.delivery) {
    const delivery_spec& dl = *s.delivery;
    for (std::uint32_t b = 0; b < dl.blocks; ++b) {
      ps.initial[dl.origin[b]].push_back(b);
      note_length(b, s.block_bytes > 0 ? s.block_bytes : ps.length.contains(b) ? ps.length[b] : 0);
    }
    for (std::uint32_t t = 0; t < p && t < dl.wanted.size(); ++t)
      ps.wanted[t].insert(ps.wanted[t].end(), dl.wanted[t].begin(), dl.wanted[t].end());
  }
  for (const auto& [id, len] : ps.length)
    ps.slot = std::max(ps.slot, len);
  return ps;
}

schedule_harness_base::schedule_harness_base(const prepared_schedule& ps, const harness_options& o)
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
      max_send = std::max(max_send, op_.send_count);
      max_recv = std::max(max_recv, op_.recv_count);
      if (op_.kind == op_kind::combine) {
        held.insert(tp.recv_blocks(op_)[0]);
      } else if (op_.receives()) {
        ++receiving;
        all_recv += dir_bytes(op_.recv_count) + std::uint64_t{op_.recv_count} * slot;
        if ((op_.flags & op_flag::combine_in) == 0)
          for (const std::uint32_t id : tp.recv_blocks(op_))
            held.insert(id);
      }
      peak = std::max(peak, static_cast<std::uint32_t>(held.size()));
      if ((op_.flags & op_flag::release) != 0)
        for (const std::uint32_t id : tp.send_blocks(op_))
          held.erase(id);
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
  out.verified = true;
  return out;
}

}  // namespace tessera::nic
