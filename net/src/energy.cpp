#include "tessera/net/energy.hpp"

#include <stdexcept>

namespace tessera::net {

std::string_view energy_event_name(energy_event e) {
  switch (e) {
    case energy_event::buffer_write:
      return "buffer_write";
    case energy_event::buffer_read:
      return "buffer_read";
    case energy_event::crossbar:
      return "crossbar";
    case energy_event::arbitration:
      return "arbitration";
    case energy_event::link:
      return "link";
    case energy_event::setup:
      return "setup";
    case energy_event::inject:
      return "inject";
    case energy_event::eject:
      return "eject";
  }
  return "?";
}

bool has_event(energy_rule r, energy_event e) {
  switch (r) {
    case energy_rule::wormhole:
    case energy_rule::store_forward:
      return e != energy_event::setup;
    case energy_rule::circuit:
      return e == energy_event::crossbar || e == energy_event::link || e == energy_event::setup ||
             e == energy_event::inject || e == energy_event::eject;
    case energy_rule::ideal:
      return e == energy_event::inject || e == energy_event::eject;
  }
  return false;
}

event_counts energy_counts::total() const {
  event_counts sum{};
  for (const event_counts& r : routers)
    for (std::size_t k = 0; k < energy_event_kinds; ++k)
      sum[k] += r[k];
  return sum;
}

energy_counts engine::energy() const {
  return {};
}

energy_counts channel_energy(energy_rule rule, std::uint32_t tiles, std::uint32_t unit_bytes,
                             const std::vector<link_stat>& rows) {
  energy_counts out;
  out.rule = rule;
  out.unit_bytes = unit_bytes;
  out.routers.assign(tiles, event_counts{});
  const auto add = [&](std::uint32_t tile, energy_event e, std::uint64_t n) {
    if (tile >= tiles)
      throw std::logic_error("energy: a channel row names tile " + std::to_string(tile) + " of " +
                             std::to_string(tiles));
    if (has_event(rule, e)) out.routers[tile][static_cast<std::size_t>(e)] += n;
  };
  const bool buffered = rule == energy_rule::wormhole || rule == energy_rule::store_forward;
  for (const link_stat& r : rows) {
    const bool in = r.name == "inject" || r.name == "out";
    const bool out_port = r.name == "eject" || r.name == "in";
    if (r.from == r.to && in) {
      add(r.from, energy_event::inject, r.units);
      if (buffered) add(r.from, energy_event::buffer_write, r.units);
    } else if (r.from == r.to && out_port) {
      add(r.from, energy_event::eject, r.units);
      if (rule == energy_rule::circuit) add(r.from, energy_event::crossbar, r.units);
      if (buffered) {
        add(r.from, energy_event::buffer_read, r.units);
        add(r.from, energy_event::crossbar, r.units);
        add(r.from, energy_event::arbitration, r.messages);
      }
    } else {
      add(r.from, energy_event::link, r.units);
      if (buffered) {
        add(r.from, energy_event::buffer_read, r.units);
        add(r.from, energy_event::crossbar, r.units);
        add(r.from, energy_event::arbitration, r.messages);
        add(r.to, energy_event::buffer_write, r.units);
      } else if (rule == energy_rule::circuit) {
        add(r.from, energy_event::crossbar, r.units);
        add(r.from, energy_event::setup, r.messages);
      }
      if (r.units != 0) out.links.push_back({r.from, r.to, r.name, r.units, r.messages});
    }
  }
  return out;
}

}  // namespace tessera::net
