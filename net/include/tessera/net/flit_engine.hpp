// The wormhole mesh router simulated flit by flit, cycle by cycle (docs/wormhole.md,
// "The flit engine"). It is the model of every configuration the closed form of
// wormhole_engine.hpp does not reach: several virtual channels shared per flit, round
// robin among the VCs that have a flit and a credit, as tsr_mesh_router shares them, so a
// lone worm gets the whole link. Its rules are the RTL router's, cycle for cycle, and
// crosscheck holds the two to exact agreement.
//
// Router: five input ports (E, W, S, N by direction of travel, and the NIC's), each with
// `vcs` FIFOs of B flits; an input VC sends at most one flit a cycle. Per cycle t, on the
// state at the start of the cycle:
//   1. a NIC whose previous message has left starts its next one (started(t));
//   2. each output that has not carried a flit this cycle finds its header candidate: round
//      robin over the 5 x vcs input VCs from its header pointer, a head flit that has
//      waited router_delay cycles, is routed to it and whose input VC holds no output, for
//      which the output has a VC that is free (its last tail crossed before t), has a
//      credit and is in the head's class (o1turn's or the torus's dateline class, on
//      links); the candidate would take the lowest such VC. The output then sends one
//      flit, serving from its flit pointer the first of its VCs that is held by a packet
//      whose next flit is at the front of its input FIFO, arrived before t and has a
//      credit behind the output, or is the header candidate's VC; the flit pointer moves
//      just past the VC served, the header pointer just past a header's input VC. The
//      route is the routing function's (mesh_routing.hpp), decided each cycle on the state
//      at its start: of two allowed outputs the one with more credits left;
//   3. a NIC puts its packet's next body flit in when inject_gap cycles have passed since
//      its last flit and the local input VC it holds has a free slot; its header takes
//      the lowest local input VC with a free slot, alpha cycles after the message started
//      (or inject_gap after its previous flit). Steps 2 and 3 are decided on the state at
//      the start of the round and then applied. A slot freed in cycle c serves its sender
//      from c + credit_delay; with credit_delay 0 rounds repeat until one moves nothing;
//   4. a message is delivered the cycle after the tail of its last packet to arrive
//      crossed the ejection (packets of one message may overtake each other on other VCs),
//      plus the eager copy when it went eagerly.
// On torus:RxC the routers are joined by wraparound links as well, heads route in
// dimension order the shorter way round, and a head's VC class on a link is its dateline
// class (mesh_routing.hpp, torus_class: class 0 the lower vcs / 2 VCs, class 1 the rest).
// Idle stretches are skipped: the engine asks for a cycle only while a flit or a start-up
// is due. The half-duplex NIC (duplex.hpp) is not modelled here; the engine refuses it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::net {

class flit_engine final : public engine {
 public:
  // Throws tessera::input_error for a fabric that is not mesh:RxC or torus:RxC,
  // parameters out of range, a torus with a routing other than xy or yx, fewer than 2
  // VCs or vc_share=fixed, or the half-duplex NIC.
  flit_engine(const fabric& f, const wormhole_params& p);
  ~flit_engine() override;
  flit_engine(const flit_engine&) = delete;
  flit_engine& operator=(const flit_engine&) = delete;

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override;
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override;
  // As wormhole_engine's: links "E", "W", "S", "N", then "inject" and "eject"; busy =
  // cycles from a packet's header crossing to its tail crossing, summed over its VCs' packets;
  // messages = packets; max_queue = most headers requesting the channel at once.
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] energy_counts energy() const override;
  // blocked = header grants later than router_delay after the head flit arrived.
  [[nodiscard]] contention_stat contention() const override;
  [[nodiscard]] std::vector<std::string> stuck() const override;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace tessera::net
