// What the wormhole engine reports: its channels' statistics, and what each message
// still in the network waits for when a run ends with messages undelivered.
#include <array>
#include <string>
#include <vector>

#include "impl.hpp"

namespace tessera::net {

std::string wormhole_engine::impl::describe(std::uint32_t c) const {
  if (c >= 5 * tiles) return "eject at tile " + std::to_string(c - 5 * tiles);
  if (c >= 4 * tiles) return "inject at tile " + std::to_string(c - 4 * tiles);
  static constexpr std::array<const char*, 4> names{"E", "W", "S", "N"};
  const link_ends e = endpoints(fab, link_id{c});
  return "link " + std::to_string(e.from.value()) + "->" + std::to_string(e.to.value()) + " " +
         names[c % 4];
}

std::vector<link_stat> wormhole_engine::impl::links() const {
  std::vector<link_stat> out;
  for (std::uint32_t c = 0; c < ch.size(); ++c) {
    const channel& x = ch[c];
    if (x.packets != 0)
      out.push_back(
          wormhole_detail::channel_stat_row(fab, c, x.busy, x.packets, x.max_queue, x.flits));
  }
  return out;
}

std::vector<std::string> wormhole_engine::impl::stuck() const {
  std::vector<std::string> out;
  for (const message& m : msgs) {
    if (!m.live) continue;
    std::string s = "message " + std::to_string(m.x.id) + " (" + std::to_string(m.x.src) + "->" +
                    std::to_string(m.x.dst) + ")";
    if (!m.started) {
      s += " queued at the NIC of tile " + std::to_string(m.x.src);
    } else if (m.current == nullptr || m.current->t0.size() == m.current->chan.size()) {
      s += " is draining into tile " + std::to_string(m.x.dst);
    } else {
      const worm& w = *m.current;
      if (nics[m.x.src].parked == &w) {
        s += " waits for tile " + std::to_string(m.x.src) + " to finish receiving (half duplex)";
      } else if (m.held_by != none && w.index == 0 && w.t0.size() == w.hops + 1u) {
        s += " waits at the ejection for tile " + std::to_string(m.held_by) + " to finish " +
             (m.held_by == m.x.src ? "receiving" : "transmitting") + " (half duplex)";
      } else {
        s += " packet " + std::to_string(w.index) + " waits for " + describe(w.chan[w.t0.size()]);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace tessera::net
