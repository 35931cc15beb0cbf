// The channel dependency graph of a routing (Dally and Seitz, IEEE Trans. Computers
// C-36(5), 1987; docs/cli.md "check-routes"): its vertices are the channels a packet can
// hold while it waits for another (a directed link and one of its VCs, or one dateline
// buffer class of the input it leads to), and there is a dependency a -> b when some
// route a packet may take holds a and asks for b next. A routing whose graph has no cycle
// cannot deadlock; a cycle is a set of packets that can each hold one channel of it and
// wait for the next.
//
// Injection and ejection channels are left out: nothing waits for an injection channel
// to free up behind it (it has no dependency into it), and an ejection channel waits for
// nothing, so neither can lie on a cycle.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"

namespace tessera::net {

// One channel: a directed link (tile * ports + port) and one of the graph's VCs on it.
struct channel {
  std::uint32_t link{0};
  std::uint32_t vc{0};
  constexpr bool operator==(const channel&) const = default;
};

// The VCs [first, last) of a link a dependency's end may hold.
struct vc_range {
  std::uint32_t first{0};
  std::uint32_t last{1};
};

class channel_graph {
 public:
  // Every existing directed link of f with `vcs` channels on it, no dependencies yet.
  // ports * vcs is at most 64 (16 VCs on a 2D fabric, one on a 16-cube).
  channel_graph(const fabric& f, std::uint32_t vcs);

  [[nodiscard]] const fabric& fab() const { return f_; }
  [[nodiscard]] std::uint32_t vcs() const { return vcs_; }

  // Every channel of `from`'s VCs in `a` depends on every channel of `to`'s in `b`; `to`
  // leaves the tile `from` enters.
  void add(link_id from, vc_range a, link_id to, vc_range b);
  [[nodiscard]] bool depends(channel a, channel b) const;

  // Channels: existing directed links times vcs. Dependencies: distinct pairs.
  [[nodiscard]] std::uint64_t channels() const;
  [[nodiscard]] std::uint64_t dependencies() const;

  // One cycle of dependencies, each channel once, the first depending on the last; empty
  // when the graph is acyclic. An iterative depth-first search: no recursion however
  // large the fabric.
  [[nodiscard]] std::vector<channel> find_cycle() const;

  // "tile 5 E vc0 -> tile 6": the link's source, port (E, W, S, N; +1, -1 on a ring; d2 for
  // a hypercube dimension), `unit` and the VC (left out when unit is empty), its target.
  [[nodiscard]] std::string name(channel c, std::string_view unit) const;
  // The port as name() spells it.
  [[nodiscard]] std::string port_name(std::uint32_t link) const;

 private:
  [[nodiscard]] std::size_t node(std::uint32_t link, std::uint32_t vc) const {
    return std::size_t{link} * vcs_ + vc;
  }

  fabric f_;
  std::uint32_t vcs_;
  // Per channel (link * vcs + vc): bit (port * vcs + vc) of the tile it enters is set when
  // it depends on that channel.
  std::vector<std::uint64_t> out_;
};

}  // namespace tessera::net
