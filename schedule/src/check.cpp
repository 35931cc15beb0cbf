#include "tessera/schedule/check.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace tessera {
namespace {

struct message {
  std::uint32_t src;
  std::uint32_t op_index;
};

struct fifo {
  std::vector<message> items;
  std::size_t head{0};
  [[nodiscard]] bool empty() const { return head == items.size(); }
};

enum class wait_kind : std::uint8_t { none, recv, barrier, pair_sync };

struct tile_state {
  std::size_t pc{0};
  bool posted{false};      // send half (or sync token) of ops[pc] is out
  bool at_barrier{false};  // counted among the arrivals of the current barrier
  bool queued{false};
  wait_kind waiting{wait_kind::none};
};

class checker {
 public:
  checker(const schedule& s, std::size_t max_errors)
      : s_{s}, max_errors_{max_errors}, state_(s.tiles), received_(s.tiles) {}

  check_result run() {
    for (std::uint32_t t = 0; t < s_.tiles; ++t)
      enqueue(t);
    while (!work_.empty()) {
      const std::uint32_t t = work_.back();
      work_.pop_back();
      state_[t].queued = false;
      step_tile(t);
    }
    finish();
    return std::move(r_);
  }

 private:
  static std::uint64_t key(std::uint32_t a, std::uint32_t b) {
    return (static_cast<std::uint64_t>(a) << 32) | b;
  }

  void error(const std::string& text) {
    ++r_.error_count;
    if (r_.errors.size() < max_errors_) r_.errors.push_back(text);
  }

  [[nodiscard]] std::string block_name(std::uint32_t b) const {
    if (s_.delivery && s_.delivery->describe) return s_.delivery->describe(b);
    return "block " + std::to_string(b);
  }

  [[nodiscard]] std::string op_text(std::uint32_t t, std::size_t i) const {
    const sched_op& o = s_.programs[t].ops[i];
    std::ostringstream os;
    os << "tile " << t << " op " << i << " (" << op_name(o.kind);
    if (o.kind == op_kind::send || o.kind == op_kind::exchange || o.kind == op_kind::sendrecv ||
        o.kind == op_kind::pair_sync) {
      os << (o.kind == op_kind::exchange || o.kind == op_kind::pair_sync ? " with " : " to ")
         << o.to;
    }
    if (o.kind == op_kind::recv || o.kind == op_kind::sendrecv) os << " from " << o.from;
    os << ", step " << o.step << ")";
    return os.str();
  }

  [[nodiscard]] bool holds(std::uint32_t t, std::uint32_t b) const {
    if (s_.delivery && b < s_.delivery->blocks && s_.delivery->origin[b] == t) return true;
    return received_[t].contains(b);
  }

  void enqueue(std::uint32_t t) {
    if (!state_[t].queued) {
      state_[t].queued = true;
      work_.push_back(t);
    }
  }

  void advance(std::uint32_t t) {
    tile_state& st = state_[t];
    ++st.pc;
    st.posted = false;
    st.waiting = wait_kind::none;
  }

  void post_send(std::uint32_t t, const sched_op& o) {
    const auto& prog = s_.programs[t];
    if (s_.delivery) {
      for (std::uint32_t b : prog.send_blocks(o)) {
        if (b >= s_.delivery->blocks) {
          error(op_text(t, state_[t].pc) + " sends unknown block id " + std::to_string(b));
        } else if (!holds(t, b)) {
          error(op_text(t, state_[t].pc) + " sends " + block_name(b) + ", which it does not hold");
        }
      }
    }
    channels_[key(t, o.to)].items.push_back({t, static_cast<std::uint32_t>(state_[t].pc)});
    enqueue(o.to);
  }

  void deliver(std::uint32_t t, const sched_op& o, const message& m) {
    const sched_op& so = s_.programs[m.src].ops[m.op_index];
    const auto sent = s_.programs[m.src].send_blocks(so);
    const auto expected = s_.programs[t].recv_blocks(o);
    ++r_.messages;
    if (so.send_bytes != o.recv_bytes) {
      error(op_text(t, state_[t].pc) + " expects " + std::to_string(o.recv_bytes) + " bytes but " +
            op_text(m.src, m.op_index) + " sent " + std::to_string(so.send_bytes));
    }
    if (!expected.empty() &&
        !std::equal(sent.begin(), sent.end(), expected.begin(), expected.end())) {
      std::string what = sent.empty() ? "no block ids" : block_name(sent.front());
      error(op_text(t, state_[t].pc) + " expects " + std::to_string(expected.size()) +
            " blocks starting with " + block_name(expected.front()) + " but " +
            op_text(m.src, m.op_index) + " sent " + std::to_string(sent.size()) +
            " starting with " + what);
    }
    for (std::uint32_t b : sent) {
      ++r_.block_receipts;
      if (holds(t, b)) {
        error("tile " + std::to_string(t) + " received " + block_name(b) +
              " again (duplicate, from " + op_text(m.src, m.op_index) + ")");
        continue;
      }
      received_[t].insert(b);
    }
  }

  void release_barrier() {
    arrived_ = 0;
    for (std::uint32_t u = 0; u < s_.tiles; ++u) {
      if (state_[u].at_barrier) {
        state_[u].at_barrier = false;
        advance(u);
        enqueue(u);
      }
    }
  }

  void step_tile(std::uint32_t t) {
    tile_state& st = state_[t];
    const auto& prog = s_.programs[t];
    while (st.pc < prog.ops.size()) {
      const sched_op& o = prog.ops[st.pc];
      if (!st.posted) {
        if (o.sends()) post_send(t, o);
        if (o.kind == op_kind::pair_sync) {
          ++sync_posted_[key(t, o.to)];
          enqueue(o.to);
        }
        st.posted = true;
      }
      switch (o.kind) {
        case op_kind::send:
        case op_kind::idle:
        case op_kind::shuffle:
          advance(t);
          break;
        case op_kind::combine: {  // the destination block is held from now on
          const auto dst = s_.programs[t].recv_blocks(o);
          if (!dst.empty()) received_[t].insert(dst.front());
          advance(t);
          break;
        }
        case op_kind::recv:
        case op_kind::exchange:
        case op_kind::sendrecv: {
          fifo& ch = channels_[key(o.from, t)];
          if (ch.empty()) {
            st.waiting = wait_kind::recv;
            return;
          }
          const message m = ch.items[ch.head++];
          deliver(t, o, m);
          advance(t);
          break;
        }
        case op_kind::barrier:
          if (!st.at_barrier) {
            st.at_barrier = true;
            st.waiting = wait_kind::barrier;
            if (++arrived_ == s_.tiles) {
              release_barrier();  // advances t too
              break;
            }
          }
          return;
        case op_kind::pair_sync: {
          auto& consumed = sync_consumed_[key(t, o.to)];
          if (sync_posted_[key(o.to, t)] > consumed) {
            ++consumed;
            advance(t);
            break;
          }
          st.waiting = wait_kind::pair_sync;
          return;
        }
      }
    }
  }

  void report_deadlock() {
    std::vector<std::uint32_t> stuck;
    for (std::uint32_t t = 0; t < s_.tiles; ++t) {
      if (state_[t].pc < s_.programs[t].ops.size()) stuck.push_back(t);
    }
    if (stuck.empty()) return;
    for (std::uint32_t t : stuck) {
      const sched_op& o = s_.programs[t].ops[state_[t].pc];
      std::string why;
      switch (state_[t].waiting) {
        case wait_kind::recv: {
          why = "recv from tile " + std::to_string(o.from);
          const auto& peer = s_.programs[o.from];
          if (state_[o.from].pc >= peer.ops.size()) {
            why += " (tile " + std::to_string(o.from) + " has finished)";
          } else {
            why += " (tile " + std::to_string(o.from) + " is at op " +
                   std::to_string(state_[o.from].pc) + ")";
          }
          break;
        }
        case wait_kind::barrier:
          why = "barrier (" + std::to_string(arrived_) + " of " + std::to_string(s_.tiles) +
                " tiles arrived)";
          break;
        case wait_kind::pair_sync:
          why = "pair_sync with tile " + std::to_string(o.to);
          break;
        case wait_kind::none:
          why = "nothing";
          break;
      }
      r_.deadlock.push_back({t, static_cast<std::uint32_t>(state_[t].pc), why});
    }
    find_cycle(stuck.front());
    std::ostringstream os;
    os << "deadlock: " << stuck.size() << " tile(s) cannot progress: ";
    for (std::size_t i = 0; i < r_.deadlock.size() && i < 4; ++i) {
      const auto& d = r_.deadlock[i];
      os << (i ? "; " : "") << op_text(d.tile, d.op_index) << " waits for " << d.waits_for;
    }
    if (r_.deadlock.size() > 4) os << "; ...";
    if (!r_.deadlock_cycle.empty()) os << "; cycle " << r_.deadlock_cycle;
    error(os.str());
  }

  // Follows recv waits from a stuck tile; a revisit closes a cycle.
  void find_cycle(std::uint32_t start) {
    std::unordered_map<std::uint32_t, std::size_t> seen;
    std::vector<std::uint32_t> path;
    std::uint32_t t = start;
    while (state_[t].waiting == wait_kind::recv || state_[t].waiting == wait_kind::pair_sync) {
      if (auto it = seen.find(t); it != seen.end()) {
        std::ostringstream os;
        for (std::size_t i = it->second; i < path.size(); ++i)
          os << path[i] << " -> ";
        os << t;
        r_.deadlock_cycle = os.str();
        return;
      }
      seen[t] = path.size();
      path.push_back(t);
      const sched_op& o = s_.programs[t].ops[state_[t].pc];
      t = state_[t].waiting == wait_kind::recv ? o.from : o.to;
      if (state_[t].pc >= s_.programs[t].ops.size()) return;
    }
  }

  void finish() {
    report_deadlock();
    r_.completed = r_.deadlock.empty();
    if (r_.completed) {
      // Messages left in a channel: sorted, so reports do not depend on hash order.
      std::vector<std::pair<std::uint64_t, message>> orphans;
      for (const auto& [k, ch] : channels_) {
        for (std::size_t i = ch.head; i < ch.items.size(); ++i)
          orphans.emplace_back(k, ch.items[i]);
      }
      std::sort(orphans.begin(), orphans.end(), [](const auto& a, const auto& b) {
        return std::pair(a.first, a.second.op_index) < std::pair(b.first, b.second.op_index);
      });
      for (const auto& [k, m] : orphans) {
        error(op_text(m.src, m.op_index) + ": its message to tile " +
              std::to_string(static_cast<std::uint32_t>(k & 0xffffffffU)) + " was never received");
      }
    }
    bool all = r_.completed;
    if (r_.completed && s_.delivery) {
      for (std::uint32_t t = 0; t < s_.tiles; ++t) {
        for (std::uint32_t b : s_.delivery->wanted[t]) {
          if (!holds(t, b)) {
            all = false;
            error("tile " + std::to_string(t) + " never received " + block_name(b));
          }
        }
      }
    }
    r_.delivers_all_blocks = all && r_.error_count == 0;
  }

  const schedule& s_;
  std::size_t max_errors_;
  std::vector<tile_state> state_;
  std::vector<std::unordered_set<std::uint32_t>> received_;
  std::unordered_map<std::uint64_t, fifo> channels_;
  std::unordered_map<std::uint64_t, std::uint32_t> sync_posted_;
  std::unordered_map<std::uint64_t, std::uint32_t> sync_consumed_;
  std::vector<std::uint32_t> work_;
  std::uint32_t arrived_{0};
  check_result r_;
};

}  // namespace

check_result check_schedule(const schedule& s, std::size_t max_errors) {
  return checker(s, max_errors).run();
}

}  // namespace tessera
