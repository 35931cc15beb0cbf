// What the wormhole engine's tests share (test_wormhole_*.cpp): running a job list on the
// engine and on the flit-by-flit reference (tb/reference/flit_reference.hpp), the
// agreement check between them, and the zero-load closed forms of docs/wormhole.md that
// the expected values come from.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "reference/flit_reference.hpp"
#include "tessera/net/flit_engine.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/routing.hpp"

namespace wormhole_test {

using namespace tessera;
using namespace tessera::net;

struct job {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint64_t bytes{0};
  cycle_t at{0};
  bool control{false};
};

struct timing {
  cycle_t started{0};
  cycle_t delivered{0};
};

// The engine make_wormhole_engine picks: the closed form with one VC or fixed shares,
// the flit engine for VCs shared round robin.
inline std::vector<timing> run_engine(const fabric& f, const wormhole_params& p,
                                      const std::vector<job>& jobs) {
  const auto made = make_wormhole_engine(f, p);
  engine& e = *made;
  std::vector<timed_xfer> msgs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const job& j = jobs[i];
    msgs.push_back({xfer{i + 1, j.src, j.dst, j.bytes, j.control, 0}, j.at});
  }
  const auto r = replay(e, msgs);
  CHECK(e.idle());
  std::vector<timing> out;
  for (const replay_result& x : r)
    out.push_back({x.started, x.delivered});
  return out;
}

// The reference's rule for p's vc_share: link_share::round_robin is the real VC router,
// link_share::fixed the closed form's approximation.
inline reference::link_share share_of(const wormhole_params& p) {
  return p.share == vc_share::fixed ? reference::link_share::fixed
                                    : reference::link_share::round_robin;
}

// The reference's routing function of the same name.
inline reference::routing routing_of(mesh_routing r) {
  switch (r) {
    case mesh_routing::xy:
      return reference::routing::xy;
    case mesh_routing::yx:
      return reference::routing::yx;
    case mesh_routing::o1turn:
      return reference::routing::o1turn;
    case mesh_routing::west_first:
      return reference::routing::west_first;
    case mesh_routing::north_last:
      return reference::routing::north_last;
    case mesh_routing::negative_first:
      return reference::routing::negative_first;
    case mesh_routing::odd_even:
      return reference::routing::odd_even;
  }
  return reference::routing::xy;
}

// The reference, sharing VCs as p says unless `share` is given.
inline std::vector<timing> run_reference(const fabric& f, const wormhole_params& p,
                                         const std::vector<job>& jobs,
                                         std::optional<reference::link_share> share = {}) {
  reference::flit_mesh mesh(f.rows, f.cols,
                            {p.width, p.router_delay, p.buffer, p.alpha, p.packet_bytes,
                             p.inject_gap, p.vcs, share.value_or(share_of(p)), p.credit_delay,
                             routing_of(p.routing), p.pipeline, f.kind == fabric_kind::torus});
  std::vector<reference::message> msgs;
  for (const job& j : jobs)
    msgs.push_back({j.src, j.dst, j.bytes, j.control, j.at});
  std::vector<timing> out;
  for (const reference::outcome& o : mesh.run(msgs))
    out.push_back({o.started, o.delivered});
  return out;
}

inline std::string describe(const wormhole_params& p) {
  return "width " + std::to_string(p.width) + " r " + std::to_string(p.router_delay) + " B " +
         std::to_string(p.buffer) + " alpha " + std::to_string(p.alpha) + " packet_bytes " +
         std::to_string(p.packet_bytes) + " gap " + std::to_string(p.inject_gap) + " vcs " +
         std::to_string(p.vcs) + (p.share == vc_share::fixed ? " fixed" : " round-robin") + " " +
         std::string{mesh_routing_names.at(static_cast<std::size_t>(p.routing))} +
         " credit_delay " + std::to_string(p.credit_delay) + " pipeline " +
         std::to_string(p.pipeline);
}

// Engine and reference (sharing VCs as p says) agree on every start and delivery;
// returns the engine's times.
inline std::vector<timing> require_agreement(const fabric& f, const wormhole_params& p,
                                             const std::vector<job>& jobs) {
  const auto e = run_engine(f, p, jobs);
  const auto r = run_reference(f, p, jobs);
  REQUIRE(e.size() == r.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    INFO(describe(p) << ", message " << i << ": " << jobs[i].src << "->" << jobs[i].dst << " "
                     << jobs[i].bytes << " B at " << jobs[i].at);
    CHECK(e[i].started == r[i].started);
    CHECK(e[i].delivered == r[i].delivered);
  }
  return e;
}

// Packets that crossed each link "from->to NAME", as the engine reports them.
inline std::map<std::string, std::uint64_t> link_packets(const fabric& f, const wormhole_params& p,
                                                         const std::vector<timed_xfer>& msgs) {
  const auto e = make_wormhole_engine(f, p);
  replay(*e, msgs);
  std::map<std::string, std::uint64_t> out;
  for (const link_stat& s : e->links()) {
    if (s.name == "inject" || s.name == "eject") continue;
    out[std::to_string(s.from) + "->" + std::to_string(s.to) + " " + s.name] = s.messages;
  }
  return out;
}

inline std::uint32_t hops(const fabric& f, std::uint32_t a, std::uint32_t b) {
  return distance(f, tile_id{a}, tile_id{b});
}

// What a credit loop costs per B flits on a row of w cycles per flit. A FIFO of B slots
// whose credits come back d cycles after a slot frees passes at most B flits per 1 + d
// cycles (a flit leaves, d cycles later the sender may send, it arrives one cycle
// after that), so B flits take max(wB, 1 + d) (docs/wormhole.md, "Zero load").
inline std::uint64_t credit_loop(const wormhole_params& p, std::uint64_t w) {
  const std::uint64_t round_trip = 1 + std::uint64_t{p.credit_delay};
  return round_trip > w * p.buffer ? round_trip - w * p.buffer : 0;
}

// Zero-load time of a message of P packets of F flits each: every router costs its r
// cycles plus one channel crossing, and the packets follow back to back (g = s = 1).
// With B <= d every further B flits of a packet cost the credit loop's 1 + d instead of
// B. Exact for one packet; for P > 1 when B >= r + 1 + d (and then the loop costs 0),
// otherwise a lower bound.
inline cycle_t zero_load(std::uint32_t h, const wormhole_params& p, std::uint64_t packets,
                         std::uint64_t flits) {
  return p.alpha + (h + 1) * (cycle_t{p.router_delay} + 1) + packets * flits +
         (flits - 1) / p.buffer * credit_loop(p, 1);
}

// Zero-load time of one packet of F flits with the NIC pacing at g and s cycles per flit
// on every link and the ejection (docs/wormhole.md, "Paced injection", "Zero load"): the
// tail leaves the NIC g(F-1) after the header and then crosses h + 1 channels, or it
// follows the header at s per flit. With r + 1 + d > gB the body bunches behind the
// header first (M buffers of B flits each wait r + 1 + d - gB); when a credit loop is
// slower than the row (1 + d > wB) each further B flits cost its 1 + d instead.
inline cycle_t paced_zero_load(std::uint32_t h, const wormhole_params& p, std::uint64_t flits,
                               std::uint64_t s) {
  const std::uint64_t g = p.inject_gap;
  const std::uint64_t r = p.router_delay;
  const std::uint64_t d = p.credit_delay;
  const std::uint64_t blocks = (flits - 1) / p.buffer;                 // u = floor((F-1)/B)
  const std::uint64_t bunch = std::min<std::uint64_t>(h + 1, blocks);  // M
  std::uint64_t lag = 0;
  if (credit_loop(p, g) > 0) {
    // Every B flits at the NIC take 1 + d; M routers' delays still add r each.
    lag = bunch * r + blocks * credit_loop(p, g);
  } else if (r + 1 + d > g * p.buffer) {
    lag = bunch * (r + 1 + d - g * p.buffer);
  }
  const std::uint64_t nic_bound = g * (flits - 1) + h + 1 + lag;
  const std::uint64_t header_bound =
      s * (flits - 1) + (h + 1) * (r + 1) + blocks * credit_loop(p, s);
  return p.alpha + 1 + std::max(nic_bound, header_bound);
}

inline std::int64_t diff(cycle_t a, cycle_t b) {
  return static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b);
}

// Random traffic on a 4x4 mesh, the same generator for every test that uses it.
struct random_case {
  wormhole_params p;
  std::vector<job> jobs;
};
inline random_case random_traffic(std::uint32_t seed, std::uint32_t gap, std::uint32_t vcs,
                                  std::uint32_t credit_delay,
                                  vc_share share = vc_share::round_robin,
                                  std::uint32_t tiles = 16) {
  std::mt19937 rng(seed);  // raw draws only: distributions differ between libraries
  auto draw = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  random_case c;
  c.p.width = 1 + draw(4);
  c.p.router_delay = draw(3);
  c.p.buffer = 1 + draw(4);
  c.p.alpha = draw(2) * draw(5);
  c.p.packet_bytes = draw(2) == 0 ? 0 : 4 + draw(12);
  c.p.inject_gap = gap;
  c.p.vcs = vcs;
  c.p.share = share;
  c.p.credit_delay = credit_delay;
  for (int i = 0; i < 50; ++i) {
    job j;
    j.src = draw(tiles);
    j.dst = draw(tiles);
    j.bytes = draw(40);
    j.at = draw(80);
    j.control = draw(8) == 0;
    c.jobs.push_back(j);
  }
  return c;
}

}  // namespace wormhole_test
