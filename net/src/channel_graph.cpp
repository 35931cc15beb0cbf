// The channel dependency graph and its cycle search (channel_graph.hpp).
#include "tessera/net/channel_graph.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "tessera/runtime/routing.hpp"

namespace tessera::net {

channel_graph::channel_graph(const fabric& f, std::uint32_t vcs) : f_{f}, vcs_{vcs} {
  if (vcs == 0 || std::uint64_t{f.ports()} * vcs > 64)
    throw std::logic_error("channel_graph: ports * vcs must be 1..64");
  out_.assign(std::size_t{f.link_slots()} * vcs, 0);
}

void channel_graph::add(link_id from, vc_range a, link_id to, vc_range b) {
  std::uint64_t bits = 0;
  const std::uint32_t base = link_port(f_, to) * vcs_;
  for (std::uint32_t v = b.first; v < b.last; ++v)
    bits |= std::uint64_t{1} << (base + v);
  for (std::uint32_t v = a.first; v < a.last; ++v)
    out_[node(from.value(), v)] |= bits;
}

bool channel_graph::depends(channel a, channel b) const {
  if (a.link >= f_.link_slots() || b.link >= f_.link_slots() || a.vc >= vcs_ || b.vc >= vcs_)
    return false;
  const link_ends ends = endpoints(f_, link_id{a.link});
  if (!link_exists(f_, link_id{a.link}) || link_source(f_, link_id{b.link}) != ends.to)
    return false;
  const std::uint32_t bit = link_port(f_, link_id{b.link}) * vcs_ + b.vc;
  return ((out_[node(a.link, a.vc)] >> bit) & 1U) != 0;
}

std::uint64_t channel_graph::channels() const {
  std::uint64_t n = 0;
  for (std::uint32_t l = 0; l < f_.link_slots(); ++l)
    n += link_exists(f_, link_id{l}) ? vcs_ : 0;
  return n;
}

std::uint64_t channel_graph::dependencies() const {
  std::uint64_t n = 0;
  for (const std::uint64_t m : out_)
    n += static_cast<std::uint64_t>(std::popcount(m));
  return n;
}

std::vector<channel> channel_graph::find_cycle() const {
  // Colours: 0 not yet visited, 1 on the current path, 2 done (no cycle through it).
  const std::size_t n = out_.size();
  std::vector<std::uint8_t> colour(n, 0);
  struct frame {
    std::size_t at;
    std::uint64_t left;  // dependencies not yet followed
  };
  std::vector<frame> path;
  const auto target = [&](std::size_t from, unsigned bit) {
    const std::uint32_t link = static_cast<std::uint32_t>(from / vcs_);
    const tile_id to = endpoints(f_, link_id{link}).to;
    return node(to.value() * f_.ports() + bit / vcs_, bit % vcs_);
  };
  for (std::size_t start = 0; start < n; ++start) {
    if (colour[start] != 0 || out_[start] == 0) continue;
    colour[start] = 1;
    path.push_back({start, out_[start]});
    while (!path.empty()) {
      frame& top = path.back();
      if (top.left == 0) {
        colour[top.at] = 2;
        path.pop_back();
        continue;
      }
      const auto bit = static_cast<unsigned>(std::countr_zero(top.left));
      top.left &= top.left - 1;
      const std::size_t next = target(top.at, bit);
      if (colour[next] == 1) {
        // The path from `next` to the top closes the cycle.
        std::vector<channel> cycle;
        auto it =
            std::find_if(path.begin(), path.end(), [&](const frame& fr) { return fr.at == next; });
        for (; it != path.end(); ++it) {
          cycle.push_back({static_cast<std::uint32_t>(it->at / vcs_),
                           static_cast<std::uint32_t>(it->at % vcs_)});
        }
        return cycle;
      }
      if (colour[next] == 0) {
        colour[next] = 1;
        path.push_back({next, out_[next]});
      }
    }
  }
  return {};
}

std::string channel_graph::port_name(std::uint32_t link) const {
  const std::uint32_t port = link_port(f_, link_id{link});
  switch (f_.kind) {
    case fabric_kind::mesh:
    case fabric_kind::torus: {
      constexpr const char* names[] = {"E", "W", "S", "N"};
      return names[port];
    }
    case fabric_kind::ring:
      return port == 0 ? "+1" : "-1";
    case fabric_kind::hypercube:
      break;
  }
  return "d" + std::to_string(port);
}

std::string channel_graph::name(channel c, std::string_view unit) const {
  const link_ends ends = endpoints(f_, link_id{c.link});
  std::string s = "tile " + std::to_string(ends.from.value()) + " " + port_name(c.link);
  if (!unit.empty()) s += " " + std::string(unit) + std::to_string(c.vc);
  return s + " -> tile " + std::to_string(ends.to.value());
}

}  // namespace tessera::net
