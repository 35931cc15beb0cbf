// The events that cost energy in a fabric, counted by every timed engine (docs/ppa.md,
// "Energy"): per router (a tile's router and NIC) and per directed link. A count is in
// the switching's unit: flits (wormhole), elements (circuit), bytes (store-and-forward)
// for the data events; heads granted an output (arbitration) and hops set up (setup) for
// the control events. The engines count what crosses their channels; where a router's
// events follow from what crosses its channels (a flit that crosses a link was read from
// one FIFO and written into the next), they are derived here, once for every model of a
// switching, so the TLM engines and the Verilated fabrics count alike.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/net/engine.hpp"

namespace tessera::net {

enum class energy_event : std::uint8_t {
  buffer_write,  // a unit written into a router's input FIFO or packet buffer
  buffer_read,   // a unit read out of one
  crossbar,      // a unit that crossed a router's crossbar (a circuit's: its switch)
  arbitration,   // a head granted an output (wormhole: an output VC; store-forward: a link)
  link,          // a unit that crossed a link between routers (flit-hops, element-hops, bytes)
  setup,         // a hop a circuit's path header set up (circuit)
  inject,        // a unit a NIC put into the fabric
  eject,         // a unit a NIC took out of it
};
inline constexpr std::size_t energy_event_kinds = 8;
using event_counts = std::array<std::uint64_t, energy_event_kinds>;

// "buffer_write", "buffer_read", ... as the JSON names them.
std::string_view energy_event_name(energy_event e);

// Whether the switching has the event at all (a circuit has no buffers), in the order of
// energy_event: what a report lists.
enum class energy_rule : std::uint8_t { wormhole, circuit, store_forward, ideal };
bool has_event(energy_rule r, energy_event e);

struct link_energy {
  std::uint32_t from{0};
  std::uint32_t to{0};
  std::string name;  // as link_stat names it
  std::uint64_t units{0};
  std::uint64_t heads{0};  // packets (circuits: path headers) that crossed it
};

struct energy_counts {
  energy_rule rule{energy_rule::ideal};
  std::uint32_t unit_bytes{1};        // payload bytes one unit carries (a flit's, an element's)
  std::vector<event_counts> routers;  // per tile
  std::vector<link_energy> links;     // links between routers that carried any unit
  [[nodiscard]] event_counts total() const;
  bool operator==(const energy_counts&) const = default;
};

// A fabric's events from its channels' rows: link_stat rows with units and messages
// (links between routers; a tile's "inject" and "eject" rows, or the ideal network's
// "out" and "in"). Wormhole and store-and-forward: a unit that crosses a link was read
// from the sender's FIFO or packet buffer through its crossbar and written into the
// receiver's; one injected was written into the local input FIFO (buffer); one ejected
// was read out through the crossbar; a packet (messages) that crossed an output had its
// head granted there. Circuit: a link's units are element-hops, its messages the hops
// its path headers set up; an element crosses the switch of every node on its path (the
// link's sender, and the destination's to its ejection); no buffers. Ideal: injections
// and ejections only.
energy_counts channel_energy(energy_rule rule, std::uint32_t tiles, std::uint32_t unit_bytes,
                             const std::vector<link_stat>& rows);

}  // namespace tessera::net
