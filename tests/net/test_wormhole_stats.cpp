// The flit engine's per-VC statistics (docs/wormhole.md, "Per VC and per port"), held to
// counts derived cycle by cycle from the router's rules for two worms on a row of four
// tiles: P = 1 -> 3 and Q = 0 -> 3, F flits each, posted at 0, r = 1, g = 1, B = 4,
// credit_delay 1, pipeline 1, alpha 0. A flit that crosses a channel at c may leave the
// next FIFO at c + 1, a head at c + 2. The derivations are tb_mesh's "contention" ones
// (tb/mesh/tb_mesh.cpp), carried on to what each FIFO's front flit waits for.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "tessera/net/flit_engine.hpp"
#include "tessera/net/replay.hpp"
#include "wormhole_test_util.hpp"

namespace {

using namespace wormhole_test;

// Channels by "from->to NAME", "inject T" or "eject T".
std::map<std::string, link_stat> channels(const engine& e) {
  std::map<std::string, link_stat> out;
  for (const link_stat& s : e.links()) {
    const std::string key =
        s.from == s.to ? s.name + " " + std::to_string(s.from)
                       : std::to_string(s.from) + "->" + std::to_string(s.to) + " " + s.name;
    out[key] = s;
  }
  return out;
}

vc_stat vc(std::uint64_t flits, cycle_t busy, cycle_t no_credit, cycle_t arbitration,
           cycle_t no_vc) {
  return vc_stat{flits, busy, no_credit, arbitration, no_vc};
}

}  // namespace

TEST_CASE("per-VC statistics, one VC: a head waits for the VC, the flits behind it for credits",
          "[wormhole][stats]") {
  const std::uint64_t F = 10;
  const fabric f = fabric::mesh(1, 4);
  const wormhole_params p{.vcs = 1, .engine = wormhole_model::flit};
  flit_engine e(f, p);
  const auto r =
      replay(e, {{xfer{1, 0, 3, 4 * F, false, 0}, 0}, {xfer{2, 1, 3, 4 * F, false, 0}, 0}});
  // P's head crosses 1->2 at 2, its flit f at 2 + f, its tail at F + 1; it is delivered at
  // 3(r + 1) + F. Q's head, ready at router 1 at 4, waits for the link's one VC until P's
  // tail has crossed: it crosses at F + 2 and Q is delivered at 3(r + 1) + 2F.
  CHECK(r[1].delivered == F + 6);
  CHECK(r[0].delivered == 2 * F + 6);
  const auto c = channels(e);
  REQUIRE(c.size() == 6);
  for (const auto& [name, s] : c) {
    INFO(name);
    REQUIRE(s.vcs.size() == 1);
    CHECK(s.busy == s.vcs[0].busy);
  }
  // Q's head waits in router 1's FIFO behind link 0->1 from 4 to F + 1, all of the link's
  // VCs held: F - 2 cycles for a VC. Q's flits 1-3 fill that FIFO (they cross 0->1 at 3,
  // 4, 5), so flit 4, at the front of router 0's local FIFO from 6, has no credit until
  // the head leaves at F + 2 and its slot counts at F + 3: F - 3 cycles. It crosses at
  // F + 3, flit k at F + k - 1, the tail at 2F - 2; the link held from 2: 2F - 3 cycles.
  CHECK(c.at("0->1 E").vcs[0] == vc(F, 2 * F - 3, 0, 0, F - 2));
  // The NI puts Q's flits in at 0..7 while the local FIFO has room (4 slots, a slot's
  // credit a cycle late), then from F + 4 one a cycle behind flit 4: flit k at F + k - 4,
  // the tail at 2F - 5, the channel held 2F - 4 cycles.
  CHECK(c.at("inject 0").vcs[0] == vc(F, 2 * F - 4, F - 3, 0, 0));
  // P streams: its NI puts flit f in at f, the router sends it at 2 + f.
  CHECK(c.at("inject 1").vcs[0] == vc(F, F, 0, 0, 0));
  // Link 1->2: P from 2 to F + 1, Q from F + 2 to 2F + 1. Q's head reaches router 2's
  // output at F + 4, the cycle after P's tail crossed 2->3, and the ejection at F + 6,
  // the cycle after P's tail left: nothing waits there.
  CHECK(c.at("1->2 E").vcs[0] == vc(2 * F, 2 * F, 0, 0, 0));
  CHECK(c.at("2->3 E").vcs[0] == vc(2 * F, 2 * F, 0, 0, 0));
  CHECK(c.at("eject 3").vcs[0] == vc(2 * F, 2 * F, 0, 0, 0));
}

TEST_CASE("per-VC statistics, two VCs: the worms alternate and each loses every other cycle",
          "[wormhole][stats]") {
  const std::uint64_t F = 10;
  const fabric f = fabric::mesh(1, 4);
  const wormhole_params p{.vcs = 2};
  flit_engine e(f, p);
  const auto r =
      replay(e, {{xfer{1, 0, 3, 4 * F, false, 0}, 0}, {xfer{2, 1, 3, 4 * F, false, 0}, 0}});
  // tb_mesh's contention with two VCs: P delivered at 2F + 4, Q at 2F + 6.
  CHECK(r[1].delivered == 2 * F + 4);
  CHECK(r[0].delivered == 2 * F + 6);
  const auto c = channels(e);
  for (const auto& [name, s] : c) {
    INFO(name);
    REQUIRE(s.vcs.size() == 2);
    CHECK(s.busy == s.vcs[0].busy + s.vcs[1].busy);
    for (const vc_stat& v : s.vcs)
      CHECK(v.no_vc == 0);  // two worms, two VCs
  }
  // Router 1's E output: Q's head takes VC 1 at 4, then P's flit f goes at 2f + 1 (f >= 2)
  // and Q's at 2f + 4. Each flit waits at the front of its FIFO the cycle before it goes,
  // the other worm's flit going: P's flits 2..F-1 (at 2f, its FIFO the injection's) and
  // Q's flits 1..F-2 (at 2f + 3, its FIFO behind link 0->1, VC 0); Q's last flit comes
  // to the front the cycle it goes. P holds VC 0 of 1->2 from 2 to 2F - 1, Q VC 1 from 4
  // to 2F + 1. P's local FIFO, drained at one flit every other cycle from 5, stops its NI:
  // flits 0..6 go in at 0..6 (a slot that frees counts a cycle later), then flit k at
  // 2k - 6, the tail at 2F - 8: the injection channel held 2F - 7 cycles.
  CHECK(c.at("inject 1").vcs[0] == vc(F, 2 * F - 7, 0, F - 2, 0));
  CHECK(c.at("0->1 E").vcs[0].arbitration == F - 2);
  CHECK(c.at("0->1 E").vcs[0].flits == F);
  CHECK(c.at("1->2 E").vcs[0].flits == F);
  CHECK(c.at("1->2 E").vcs[1].flits == F);
  CHECK(c.at("1->2 E").vcs[0].busy == 2 * F - 2);
  CHECK(c.at("1->2 E").vcs[1].busy == 2 * F - 2);
  // Router 2's output and the ejection at 3: the same alternation, 2 and 4 cycles later;
  // each worm's flits 2..F-1 (P) and 1..F-2 (Q) wait a cycle at the front of the FIFO
  // behind 1->2 (then 2->3), on the worm's VC, for want of the link alone.
  for (const char* link : {"1->2 E", "2->3 E"}) {
    INFO(link);
    CHECK(c.at(link).vcs[0].arbitration == F - 2);
    CHECK(c.at(link).vcs[1].arbitration == F - 2);
    CHECK(c.at(link).vcs[0].no_credit == 0);
    CHECK(c.at(link).vcs[1].no_credit == 0);
  }
  for (const vc_stat& v : c.at("eject 3").vcs) {
    CHECK(v.flits == F);
    CHECK(v.no_credit + v.arbitration == 0);  // no FIFO behind the ejection
  }
}

TEST_CASE("per-VC statistics add up: flits per hop, busy per VC, stalls only where flits wait",
          "[wormhole][stats]") {
  // Random traffic on a 4x4 mesh: every flit crosses the injection, each link of its XY
  // path and the ejection once, so the flits of the channels sum to flits x (hops + 2).
  std::mt19937_64 rng(7);
  for (std::uint32_t vcs : {1U, 2U, 4U}) {
    const fabric f = fabric::mesh(4, 4);
    const wormhole_params p{.packet_bytes = 32, .vcs = vcs, .engine = wormhole_model::flit};
    flit_engine e(f, p);
    std::vector<timed_xfer> msgs;
    std::uint64_t flit_hops = 0;
    for (std::uint64_t i = 0; i < 200; ++i) {
      const auto src = static_cast<std::uint32_t>(rng() % 16);
      auto dst = static_cast<std::uint32_t>(rng() % 15);
      if (dst >= src) ++dst;
      const std::uint64_t bytes = 4 * (1 + rng() % 20);
      msgs.push_back({xfer{i + 1, src, dst, bytes, false, 0}, rng() % 400});
      const std::uint64_t hops =
          std::uint64_t{src % 4 > dst % 4 ? src % 4 - dst % 4 : dst % 4 - src % 4} +
          (src / 4 > dst / 4 ? src / 4 - dst / 4 : dst / 4 - src / 4);
      flit_hops += bytes / 4 * (hops + 2);
    }
    replay(e, msgs);
    std::uint64_t flits = 0;
    cycle_t stalls = 0;
    for (const link_stat& s : e.links()) {
      INFO("vcs " << vcs << " " << s.name << " " << s.from << "->" << s.to);
      REQUIRE(s.vcs.size() == vcs);
      cycle_t busy = 0;
      for (const vc_stat& v : s.vcs) {
        flits += v.flits;
        busy += v.busy;
        stalls += v.no_credit + v.arbitration + v.no_vc;
        CHECK(v.busy >= v.flits);  // a packet holds its VC at least a cycle per flit
        if (s.name == "eject") CHECK(v.no_credit + v.arbitration + v.no_vc == 0);
      }
      CHECK(busy == s.busy);
    }
    CHECK(flits == flit_hops);
    CHECK(stalls > 0);  // 200 messages in 400 cycles on 16 tiles do meet
  }
}
