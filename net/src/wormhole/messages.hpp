// What both wormhole engines (the closed form, wormhole_engine.cpp, and the flit engine,
// flit_engine.cpp) decide alike about a message and report alike about a channel: the
// checks on a message, its packets, the eager protocol, and a channel's statistics row.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "tessera/common/errors.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net::wormhole_detail {

inline constexpr std::uint64_t max_message_bytes = std::uint64_t{1} << 50;

// The fabric as --fabric spells it, for refusals (validate.cpp).
std::string fabric_spec(const fabric& f);

// Throws tessera::input_error for a fabric that wormhole switching does not model (mesh
// and torus do), parameters out of range, or a torus with what it cannot take: a routing
// other than dimension order, fewer than the two VCs its dateline classes need, or the
// fixed share (the closed form's, which models meshes only).
inline void check_setup(const fabric& f, const wormhole_params& p) {
  if (f.kind != fabric_kind::mesh && f.kind != fabric_kind::torus) {
    throw input_error("wormhole: fabric " + fabric_spec(f) +
                      " is not a mesh or a torus (wormhole switching models mesh:RxC and "
                      "torus:RxC)");
  }
  if (f.tiles() == 0 || f.tiles() > max_tiles) {
    throw input_error("wormhole: fabric " + fabric_spec(f) + " has no tiles or too many");
  }
  validate(p);
  if (f.kind != fabric_kind::torus) return;
  if (p.routing != mesh_routing::xy && p.routing != mesh_routing::yx) {
    throw input_error("wormhole: param routing " +
                      std::string{mesh_routing_names.at(static_cast<std::size_t>(p.routing))} +
                      " on " + fabric_spec(f) +
                      " is not modelled (the wormhole torus routes in dimension order: xy or yx)");
  }
  if (p.vcs < 2) {
    throw input_error("wormhole: " + fabric_spec(f) + " needs vcs >= 2 (a dateline VC class " +
                      "before each ring's wraparound link and one after), got vcs " +
                      std::to_string(p.vcs));
  }
  if (p.share == vc_share::fixed) {
    throw input_error("wormhole: vc_share=fixed on " + fabric_spec(f) +
                      " is not modelled (the fixed share is the closed form's, which models "
                      "meshes only)");
  }
}

// Throws tessera::input_error for a message with a tile outside f or over 2^50 bytes.
inline void check_message(const xfer& x, const fabric& f) {
  if (x.src >= f.tiles() || x.dst >= f.tiles()) {
    throw input_error("wormhole: message " + std::to_string(x.id) + " tile " +
                      std::to_string(std::max(x.src, x.dst)) + " is outside " + fabric_spec(f));
  }
  if (x.bytes > max_message_bytes) {
    throw input_error("wormhole: message " + std::to_string(x.id) + " of " +
                      std::to_string(x.bytes) + " bytes exceeds 2^50");
  }
}

// Packets of x: ceil(bytes / packet_bytes), one for a control message or packet_bytes 0.
[[nodiscard]] inline std::uint64_t packet_count(const wormhole_params& p, const xfer& x) {
  if (x.control || p.packet_bytes == 0 || x.bytes <= p.packet_bytes) return 1;
  return x.bytes / p.packet_bytes + (x.bytes % p.packet_bytes != 0 ? 1 : 0);
}

// eager_bytes: x goes eagerly.
[[nodiscard]] inline bool eager(const wormhole_params& p, const xfer& x) {
  return p.eager_bytes != 0 && !x.control && x.bytes <= p.eager_bytes;
}

// The start-up of x: alpha_eager for an eager message, alpha otherwise.
[[nodiscard]] inline cycle_t start_up(const wormhole_params& p, const xfer& x) {
  return eager(p, x) ? p.alpha_eager : p.alpha;
}

// The receiver's copy of an eager message out of the system buffer, cycles (0: none):
// ceil(bytes eager_copy / 1024).
[[nodiscard]] inline cycle_t eager_copy(const wormhole_params& p, const xfer& x) {
  if (!eager(p, x) || p.eager_copy == 0) return 0;
  const std::uint64_t c = x.bytes * p.eager_copy;  // bytes <= 2^40, eager_copy < 2^20
  return c / 1024 + (c % 1024 != 0 ? 1 : 0);
}

// What both engines keep of a message from its injection on.
struct message_core {
  xfer x;
  std::uint64_t packets{1};
  cycle_t copy{0};  // eager_bytes: the receiver's copy out of the system buffer (0: none)
  bool live{false};
  bool started{false};
};

// A message record as both engines begin it: its packets and eager copy from p.
inline void begin_message(message_core& m, const xfer& x, const wormhole_params& p) {
  m.x = x;
  m.packets = packet_count(p, x);
  m.copy = eager_copy(p, x);
  m.live = true;
  m.started = false;
}

// The statistics row of channel c of mesh or torus f: links tile * 4 + port ("E", "W", "S", "N"),
// then one injection ("inject") and one ejection ("eject") per tile.
[[nodiscard]] inline link_stat channel_stat_row(const fabric& f, std::uint32_t c, cycle_t busy,
                                                std::uint64_t packets, std::uint32_t max_queue,
                                                std::uint64_t flits) {
  static constexpr std::array<const char*, 4> names{"E", "W", "S", "N"};
  const std::uint32_t tiles = f.tiles();
  link_stat s;
  if (c < 4 * tiles) {
    const link_ends e = endpoints(f, link_id{c});
    s.from = e.from.value();
    s.to = e.to.value();
    s.name = names[c % 4];
  } else {
    s.from = s.to = c % tiles;
    s.name = c < 5 * tiles ? "inject" : "eject";
  }
  s.busy = busy;
  s.messages = packets;
  s.max_queue = max_queue;
  s.units = flits;
  return s;
}

}  // namespace tessera::net::wormhole_detail
