// A schedule's time on one of the registry's timing engines, estimated without
// simulating the engine: what `--algorithm auto` ranks algorithms by
// (docs/algorithms.md, "Choosing an algorithm").
//
// A message-level model. Every tile runs its ops in order, one at a time; the ops are
// taken in the order of their start times. A message is posted when its sender's op
// starts, and holds the channels of its route for its whole length, as a worm or a
// circuit does (a store-and-forward packet holds one link a hop at a time):
//   wormhole       alpha (alpha_eager for an eager message), then the worm holds a lane
//                  of each channel of its route (injection, XY links, the receiver's
//                  ejection) from when its header gets there, router_delay + 1 cycles a
//                  hop, until its tail has passed; its tail arrives zero-load time
//                  minus alpha after the start. A link has min(vcs, inject_gap) lanes
//                  (vcs worms share it, each sending a flit every inject_gap cycles on
//                  a link that moves one a cycle);
//   circuit        xi - xi_held, then the circuit holds every link of its e-cube path
//                  and the receiver's port, alone, for the rest of the zero-load time;
//   store-forward  each hop holds one link for beta + tau P (Bermond), then the next;
//   ideal          ts + tw m, holding the sender's output port and the receiver's input
//                  port (Grama's single-ported tiles, alphabeta_engine.hpp), no links.
// A message that finds a channel held starts when it is free. The half-duplex NICs'
// rules (half_duplex, duplex_window, duplex_exchange, duplex_hold: docs/delta.md) are
// applied to the streams' start times. An op ends when its send is delivered and its
// receive has arrived; the estimate is the last op's end. What it leaves out: the
// order in which an engine grants contending headers, credit stalls, and a held
// worm's effect on links it has not reached.
#pragma once

#include <cstdint>

#include "tessera/models/registry.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/schedule/schedule.hpp"

namespace tessera::models {

struct engine_estimate {
  double cycles{0};
  std::uint64_t messages{0};
  double waited{0};     // cycles messages waited for held channels, summed
  bool complete{true};  // false: some receive has no matching send (the schedule
                        // would deadlock); cycles is then the time reached
};

engine_estimate estimate_on_engine(const schedule& s, const fabric& f, switching sw,
                                   const engine_params& p);

}  // namespace tessera::models
