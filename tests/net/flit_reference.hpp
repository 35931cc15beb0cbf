// A cycle-by-cycle, flit-by-flit simulator of the wormhole mesh router of
// docs/wormhole.md, written independently of rtl_models/net/src/wormhole_engine.cpp
// so the engine's closed forms can be checked against it. It shares only the mesh
// geometry with the project (XY routing is recomputed here). Slow on purpose: every
// flit of every packet is moved one cycle at a time; use small meshes and packets.
//
// Per cycle t:
//   1. A NIC whose previous message has left starts the next one posted by t.
//   2. Moves are found by repeated passes until none is added. A flit moves at most
//      once per cycle, each input sends at most one flit (its front at the start of
//      the cycle), each channel carries at most one flit. A flit may enter a buffer
//      that is full at the start of the cycle if a flit leaves it in the same cycle
//      (credits come back at once), which is why passes repeat.
//   3. A head flit at the front of an input, r cycles after it arrived, requests the
//      output of its XY route; a free output with a free slot behind it is granted
//      round robin over inputs 0..4 starting at the output's pointer, which then moves
//      just past the winner. The output stays with that input until the tail crosses.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::net::reference {

struct flit_params {
  std::uint32_t width{4};
  std::uint32_t router_delay{1};
  std::uint32_t buffer{4};
  std::uint64_t alpha{0};
  std::uint64_t packet_bytes{0};
};

struct message {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint64_t bytes{0};
  bool control{false};
  std::uint64_t post{0};
};

struct outcome {
  std::uint64_t started{0};
  std::uint64_t delivered{0};
};

class flit_mesh {
 public:
  flit_mesh(std::uint32_t rows, std::uint32_t cols, flit_params p)
      : rows_{rows},
        cols_{cols},
        p_{p},
        routers_(std::size_t{rows} * cols),
        nics_(routers_.size()) {}

  // Results in the order of `msgs`; a NIC sends its messages in posting order, ties in
  // the order of `msgs`.
  std::vector<outcome> run(const std::vector<message>& msgs, std::uint64_t max_cycles = 5'000'000) {
    msgs_ = msgs;
    out_.assign(msgs.size(), outcome{});
    std::vector<std::size_t> order(msgs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return msgs[a].post < msgs[b].post; });
    for (std::size_t i : order)
      nics_.at(msgs[i].src).queue.push_back(i);
    std::size_t left = msgs.size();
    for (std::uint64_t t = 0; left > 0; ++t) {
      if (t > max_cycles) throw std::runtime_error("flit reference: no progress");
      start_messages(t);
      left -= step(t);
    }
    return out_;
  }

 private:
  static constexpr std::uint32_t ports = 5;  // 0 E, 1 W, 2 S, 3 N (direction of travel), 4 local
  static constexpr int none = -1;

  struct flit {
    std::size_t msg{0};
    std::uint64_t index{0};  // within its packet
    std::uint64_t count{1};  // flits in its packet
    bool last_packet{false};
    std::uint64_t arrive{0};  // first cycle it may leave the buffer it is in
    [[nodiscard]] bool head() const { return index == 0; }
    [[nodiscard]] bool tail() const { return index + 1 == count; }
  };

  struct router {
    std::array<std::deque<flit>, ports> in;  // input FIFOs, indexed by arrival direction
    std::array<int, ports> holder{none, none, none, none, none};  // output -> input
    std::array<std::uint32_t, ports> rr{};
  };

  struct nic {
    std::deque<std::size_t> queue;
    bool active{false};
    std::size_t msg{0};
    std::uint64_t packet{0};
    std::uint64_t packets{1};
    std::uint64_t index{0};  // next flit of the current packet
    std::uint64_t count{1};
    std::uint64_t header_at{0};  // earliest cycle the current packet's head may go
    std::uint64_t free_at{0};    // the cycle after the previous message's last flit
  };

  [[nodiscard]] std::uint32_t xy_output(std::uint32_t at, std::uint32_t dst) const {
    const std::uint32_t c = at % cols_;
    const std::uint32_t dc = dst % cols_;
    if (dc > c) return 0;
    if (dc < c) return 1;
    const std::uint32_t r = at / cols_;
    const std::uint32_t dr = dst / cols_;
    if (dr > r) return 2;
    if (dr < r) return 3;
    return 4;
  }

  [[nodiscard]] std::uint32_t next_router(std::uint32_t at, std::uint32_t out) const {
    switch (out) {
      case 0:
        return at + 1;
      case 1:
        return at - 1;
      case 2:
        return at + cols_;
      default:
        return at - cols_;
    }
  }

  [[nodiscard]] std::uint64_t packet_count(const message& m) const {
    if (m.control || p_.packet_bytes == 0 || m.bytes <= p_.packet_bytes) return 1;
    return (m.bytes + p_.packet_bytes - 1) / p_.packet_bytes;
  }

  [[nodiscard]] std::uint64_t flit_count(const message& m, std::uint64_t packet) const {
    if (m.control) return 1;
    std::uint64_t payload = m.bytes;
    if (p_.packet_bytes != 0)
      payload = std::min(p_.packet_bytes, m.bytes - packet * p_.packet_bytes);
    return std::max<std::uint64_t>(1, (payload + p_.width - 1) / p_.width);
  }

  void start_messages(std::uint64_t t) {
    for (nic& n : nics_) {
      if (n.active || n.queue.empty() || t < n.free_at) continue;
      const std::size_t m = n.queue.front();
      if (msgs_[m].post > t) continue;
      n.queue.pop_front();
      n.active = true;
      n.msg = m;
      n.packet = 0;
      n.packets = packet_count(msgs_[m]);
      n.index = 0;
      n.count = flit_count(msgs_[m], 0);
      n.header_at = t + p_.alpha;
      out_[m].started = t;
    }
  }

  // One cycle; returns the messages delivered in it.
  std::size_t step(std::uint64_t t) {
    const std::size_t tiles = routers_.size();
    std::vector<std::array<bool, ports>> sent(tiles);  // input already sent a flit
    std::vector<std::array<bool, ports>> used(tiles);  // output already carried a flit
    std::vector<bool> injected(tiles, false);
    for (auto& a : sent)
      a.fill(false);
    for (auto& a : used)
      a.fill(false);
    std::size_t delivered = 0;
    bool moved = true;
    while (moved) {
      moved = false;
      for (std::uint32_t x = 0; x < tiles; ++x) {
        for (std::uint32_t o = 0; o < ports; ++o) {
          if (used[x][o]) continue;
          const int i = candidate(x, o, t, sent[x]);
          if (i == none || !has_room(x, o)) continue;
          const auto in = static_cast<std::uint32_t>(i);
          router& r = routers_[x];
          if (r.holder[o] == none) {
            r.holder[o] = i;
            r.rr[o] = (in + 1) % ports;
          }
          flit f = r.in[in].front();
          r.in[in].pop_front();
          sent[x][in] = true;
          used[x][o] = true;
          moved = true;
          if (f.tail()) r.holder[o] = none;
          if (o == 4) {
            if (f.tail() && f.last_packet) {
              out_[f.msg].delivered = t + 1;
              ++delivered;
            }
          } else {
            f.arrive = t + 1;
            routers_[next_router(x, o)].in[o].push_back(f);
          }
        }
      }
      for (std::uint32_t s = 0; s < tiles; ++s) {
        if (!injected[s] && inject(s, t)) {
          injected[s] = true;
          moved = true;
        }
      }
    }
    return delivered;
  }

  // The input that may send on output o of router x in cycle t, or none.
  int candidate(std::uint32_t x, std::uint32_t o, std::uint64_t t,
                const std::array<bool, ports>& sent) const {
    const router& r = routers_[x];
    if (r.holder[o] != none) {
      const auto i = static_cast<std::uint32_t>(r.holder[o]);
      if (sent[i] || r.in[i].empty() || r.in[i].front().arrive > t) return none;
      return r.holder[o];
    }
    for (std::uint32_t k = 0; k < ports; ++k) {
      const std::uint32_t i = (r.rr[o] + k) % ports;
      if (sent[i] || r.in[i].empty()) continue;
      const flit& f = r.in[i].front();
      if (!f.head() || f.arrive + p_.router_delay > t) continue;
      if (owns_an_output(r, i)) continue;  // a body of an earlier packet is still due
      if (xy_output(x, msgs_[f.msg].dst) != o) continue;
      return static_cast<int>(i);
    }
    return none;
  }

  static bool owns_an_output(const router& r, std::uint32_t i) {
    for (int h : r.holder)
      if (h == static_cast<int>(i)) return true;
    return false;
  }

  // A free slot in the buffer behind output o, counting flits that left this cycle.
  [[nodiscard]] bool has_room(std::uint32_t x, std::uint32_t o) const {
    if (o == 4) return true;
    return routers_[next_router(x, o)].in[o].size() < p_.buffer;
  }

  bool inject(std::uint32_t s, std::uint64_t t) {
    nic& n = nics_[s];
    if (!n.active) return false;
    if (n.index == 0 && t < n.header_at) return false;
    std::deque<flit>& q = routers_[s].in[4];
    if (q.size() >= p_.buffer) return false;
    flit f;
    f.msg = n.msg;
    f.index = n.index;
    f.count = n.count;
    f.last_packet = n.packet + 1 == n.packets;
    f.arrive = t + 1;
    q.push_back(f);
    if (++n.index < n.count) return true;
    if (++n.packet < n.packets) {
      n.index = 0;
      n.count = flit_count(msgs_[n.msg], n.packet);
      n.header_at = t + 1;
      return true;
    }
    n.active = false;
    n.free_at = t + 1;
    return true;
  }

  std::uint32_t rows_;
  std::uint32_t cols_;
  flit_params p_;
  std::vector<router> routers_;
  std::vector<nic> nics_;
  std::vector<message> msgs_;
  std::vector<outcome> out_;
};

}  // namespace tessera::net::reference
