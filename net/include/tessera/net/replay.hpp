// Drives an engine over a fixed list of timed messages without SystemC, following the
// protocol in engine.hpp. Unit tests and closed-form checks use it; the TLM platform
// drives the same engines from tiles.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/net/engine.hpp"

namespace tessera::net {

struct timed_xfer {
  xfer x;
  cycle_t at{0};  // when the message is posted at its source
};

struct replay_result {
  cycle_t posted{0};
  cycle_t started{never};
  cycle_t delivered{never};
};

// Results in the order of `msgs`. Throws std::runtime_error when the engine stops with
// messages undelivered (the text lists engine.stuck()).
inline std::vector<replay_result> replay(engine& e, std::vector<timed_xfer> msgs) {
  struct recorder final : listener {
    std::unordered_map<std::uint64_t, std::size_t> index;
    std::vector<replay_result>* out{nullptr};
    void started(std::uint64_t id, cycle_t t) override { (*out)[index.at(id)].started = t; }
    void delivered(std::uint64_t id, cycle_t t) override { (*out)[index.at(id)].delivered = t; }
  } rec;
  std::vector<replay_result> out(msgs.size());
  rec.out = &out;
  std::vector<std::size_t> order(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    order[i] = i;
    rec.index[msgs[i].x.id] = i;
    out[i].posted = msgs[i].at;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return msgs[a].at < msgs[b].at; });
  e.set_listener(&rec);
  std::size_t next = 0;
  cycle_t now = order.empty() ? 0 : msgs[order[0]].at;
  while (true) {
    if (e.next_event() == now) e.fire(now);
    while (next < order.size() && msgs[order[next]].at == now) {
      e.inject(msgs[order[next]].x, now);
      ++next;
    }
    e.arbitrate(now);
    if (e.next_event() == now) continue;
    const cycle_t ev = e.next_event();
    const cycle_t in = next < order.size() ? msgs[order[next]].at : never;
    const cycle_t to = std::min(ev, in);
    if (to == never) break;
    now = to;
  }
  e.set_listener(nullptr);
  for (const replay_result& r : out) {
    if (r.delivered == never) {
      std::string why = "replay: messages were not delivered:";
      for (const std::string& s : e.stuck())
        why += " " + s + ";";
      throw std::runtime_error(why);
    }
  }
  return out;
}

}  // namespace tessera::net
