#include "tessera/schedule/resolve.hpp"

#include <algorithm>
#include <deque>
#include <string>

#include "tessera/common/errors.hpp"

namespace tessera {
namespace {

std::string where(std::uint32_t t, std::size_t k) {
  return "ops[" + std::to_string(t) + "][" + std::to_string(k) + "]";
}

std::string bytes_text(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

// The size each send of a listed block declares for it: block_bytes, or an equal share
// of the op's bytes (the reader refuses a list whose share is not whole).
std::uint64_t share(const schedule& s, const sched_op& o) {
  return s.block_bytes > 0 ? s.block_bytes : o.send_bytes / o.send_count;
}

// One size per block: the first send by a tile that had not received the block sets
// it; every other send is held to it.
class block_sizes {
 public:
  explicit block_sizes(std::unordered_map<std::uint32_t, std::uint32_t>& length)
      : length_{length} {}

  // A send of `id` at a tile that has not received it.
  void origin(std::uint32_t id, std::uint64_t bytes, std::uint32_t t, std::size_t k) {
    if (auto it = by_.find(id); it != by_.end()) {
      agree(id, bytes, t, k, it->second, "a block has one size");
      return;
    }
    set(id, bytes, t, k);
  }
  // A send of `id` at a tile that received it: checked once every origin is known.
  void relay(std::uint32_t id, std::uint64_t bytes, std::uint32_t t, std::size_t k) {
    relays_.push_back({id, t, k, bytes});
  }
  void check_relays() {
    for (const send& r : relays_) {
      if (auto it = by_.find(r.id); it != by_.end()) {
        agree(r.id, r.bytes, r.tile, r.op, it->second, "a relay carries a block whole");
      } else {
        set(r.id, r.bytes, r.tile, r.op);  // only relays send it (they deadlock)
      }
    }
  }

 private:
  struct send {
    std::uint32_t id;
    std::uint32_t tile;
    std::size_t op;
    std::uint64_t bytes;
  };

  void set(std::uint32_t id, std::uint64_t bytes, std::uint32_t t, std::size_t k) {
    if (bytes > (std::uint64_t{1} << 30)) {
      throw input_error(where(t, k) + " sends " + bytes_text(bytes) +
                        " in one block, more than 1 GiB");
    }
    length_[id] = static_cast<std::uint32_t>(bytes);
    by_.emplace(id, send{id, t, k, bytes});
  }

  static void agree(std::uint32_t id, std::uint64_t bytes, std::uint32_t t, std::size_t k,
                    const send& first, const char* rule) {
    if (bytes == first.bytes) return;
    throw input_error(where(t, k) + " sends block " + std::to_string(id) + " as " +
                      bytes_text(bytes) + ", but block " + std::to_string(id) + " has " +
                      bytes_text(first.bytes) + " (as " + where(first.tile, first.op) +
                      " sends it): " + rule);
  }

  std::unordered_map<std::uint32_t, std::uint32_t>& length_;
  std::unordered_map<std::uint32_t, send> by_;  // the send that set each block's size
  std::vector<send> relays_;
};

}  // namespace

resolved_schedule resolve_schedule(const schedule& s) {
  const std::uint32_t p = s.tiles;
  resolved_schedule rs;
  rs.sched.tiles = p;
  rs.sched.collective = s.collective;
  rs.sched.algorithm = s.algorithm;
  rs.sched.block_bytes = s.block_bytes;
  rs.sched.delivery = s.delivery;
  const std::uint32_t contract = s.delivery ? s.delivery->blocks : 0;

  std::uint64_t top = contract;
  for (const tile_program& tp : s.programs)
    for (const std::uint32_t id : tp.pool)
      top = std::max<std::uint64_t>(top, std::uint64_t{id} + 1);
  if (top > 0xF0000000ULL) throw input_error("schedule block ids are too large");
  rs.first_synthetic = static_cast<std::uint32_t>(top);
  std::uint64_t next_id = top;
  block_sizes sizes{rs.length};

  // Send side: every message's block list, explicit or synthetic, queued per pair.
  std::vector<std::vector<std::vector<std::uint32_t>>> sends(p);
  std::unordered_map<std::uint64_t, std::deque<const std::vector<std::uint32_t>*>> queue;
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
      std::vector<std::uint32_t>& ids = sends[t][k];
      ids.assign(given.begin(), given.end());
      if (ids.empty()) {
        ids.push_back(static_cast<std::uint32_t>(next_id++));
        sizes.origin(ids[0], o.send_bytes, t, k);
      }
      queue[std::uint64_t{t} * p + o.to].push_back(&ids);
    }
  }
  if (next_id > 0xF0000000ULL) throw input_error("the schedule has too many messages");

  // Receive side: the k-th receive from a source gets that source's k-th message.
  rs.initial.resize(p);
  rs.wanted.resize(p);
  rs.sched.programs.resize(p);
  std::vector<std::unordered_set<std::uint32_t>> initial_set(p);
  for (std::uint32_t d = 0; d < p; ++d) {
    const tile_program& tp = s.programs[d];
    tile_program& out = rs.sched.programs[d];
    std::unordered_set<std::uint32_t> held;
    std::unordered_set<std::uint32_t> received;
    auto hold_initially = [&](std::uint32_t id) {
      if (held.contains(id)) return;
      held.insert(id);
      if (id < contract) return;  // the contract says where it starts
      if (initial_set[d].insert(id).second) rs.initial[d].push_back(id);
    };
    for (std::size_t k = 0; k < tp.ops.size(); ++k) {
      const sched_op& o = tp.ops[k];
      std::vector<std::uint32_t> recv(tp.recv_blocks(o).begin(), tp.recv_blocks(o).end());
      if (o.kind == op_kind::combine) {
        hold_initially(sends[d][k][0]);
        held.insert(recv[0]);
        rs.combined.insert(recv[0]);
        if ((o.flags & op_flag::release) != 0) held.erase(sends[d][k][0]);
      } else {
        if (o.sends()) {
          const bool listed = o.send_count > 0;  // a synthetic block is sized already
          for (const std::uint32_t id : sends[d][k]) {
            const bool relayed = received.contains(id);
            if (!relayed) hold_initially(id);
            if (listed && relayed) sizes.relay(id, share(s, o), d, k);
            if (listed && !relayed) sizes.origin(id, share(s, o), d, k);
          }
          if ((o.flags & op_flag::release) != 0)
            for (const std::uint32_t id : sends[d][k])
              held.erase(id);
        }
        if (o.receives()) {
          auto& q = queue[std::uint64_t{o.from} * p + d];
          if (!q.empty()) {
            if (recv.empty()) recv = *q.front();
            q.pop_front();
          }
          for (const std::uint32_t id : recv) {
            received.insert(id);
            held.insert(id);
            if ((o.flags & op_flag::combine_in) != 0) rs.combined.insert(id);
          }
        }
      }
      out.add(o, sends[d][k], recv);
    }
    // Blocks outside the contract that the tile received and still holds.
    for (const std::uint32_t id : received)
      if (id >= contract && held.contains(id)) rs.wanted[d].push_back(id);
    std::sort(rs.wanted[d].begin(), rs.wanted[d].end());
  }
  sizes.check_relays();

  if (s.delivery) {
    const delivery_spec& dl = *s.delivery;
    if (s.block_bytes > (std::uint64_t{1} << 30))
      throw input_error("schedule.block_bytes = " + std::to_string(s.block_bytes) +
                        " exceeds 1 GiB");
    for (std::uint32_t b = 0; b < dl.blocks; ++b) {
      rs.initial[dl.origin[b]].push_back(b);
      // A contract block no op sends has block_bytes (or nothing) to check.
      rs.length.try_emplace(b, static_cast<std::uint32_t>(s.block_bytes));
    }
    for (std::uint32_t t = 0; t < p && t < dl.wanted.size(); ++t)
      rs.wanted[t].insert(rs.wanted[t].end(), dl.wanted[t].begin(), dl.wanted[t].end());
  }
  for (const auto& [id, len] : rs.length)
    rs.slot = std::max(rs.slot, len);
  for (const auto& w : rs.wanted) {
    for (const std::uint32_t id : w) {
      if (rs.combined.contains(id)) continue;
      const auto it = rs.length.find(id);
      if (it != rs.length.end()) rs.bytes_checked += it->second;
    }
  }
  return rs;
}

}  // namespace tessera
