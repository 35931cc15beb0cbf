// Wormhole-switched 2D mesh (issue 4, docs/wormhole.md): input-buffered routers with
// B-flit FIFOs and credits, XY routing, round-robin output arbitration, one flit per
// channel per cycle. The engine schedules about two events per header hop and gets
// every body flit from a max-plus closed form, so its cost does not grow with the
// message length. tb/reference/flit_reference.hpp simulates the same router flit by
// flit, and the tests hold the two to exact agreement. Credits return credit_delay
// cycles after a slot frees (default 1, the RTL router's).
//
// The closed form covers one VC, and several VCs only under vc_share=fixed, a named
// approximation (each VC one flit every vcs cycles). Real routers share a channel's VCs
// per flit, round robin (vc_share=round-robin, the default); flit_engine.hpp simulates
// that. make_wormhole_engine() picks the engine a configuration needs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/common/range.hpp"
#include "tessera/net/duplex.hpp"
#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/mesh_routing.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net {

// How the VCs of one physical channel share it.
//   round_robin  per flit, round robin among the VCs that have a flit and a credit, as
//                tsr_mesh_router does: a lone worm gets the whole channel (flit_engine);
//   fixed        each VC carries at most one flit every vcs cycles, whoever else is there:
//                an approximation the closed form computes fast, exact where every NIC
//                paces at inject_gap >= vcs with router_delay 0 (docs/wormhole.md,
//                "Virtual channels"); Thakur93's gamma on the delta preset.
enum class vc_share : std::uint8_t { round_robin, fixed };

// Which TLM engine runs a wormhole mesh (make_wormhole_engine):
//   automatic  the closed form (wormhole_engine) where it reaches (a mesh, xy or yx, one
//              VC or fixed shares, pipeline 1), the flit engine everywhere else;
//   flit       the flit engine always (vc_share round-robin), slower where the closed
//              form would do, but it counts the per-VC statistics (link_stat::vcs).
enum class wormhole_model : std::uint8_t { automatic, flit };

// The dimension order of a routing function: yx for yx, xy for every other (the closed
// form routes xy and yx only; the estimator takes XY paths for the routings decided per
// packet or per hop).
[[nodiscard]] constexpr dim_order order_of(mesh_routing r) {
  return r == mesh_routing::yx ? dim_order::yx : dim_order::xy;
}

struct wormhole_params {
  std::uint32_t width{4};         // bytes per flit, 1..4096
  std::uint32_t router_delay{1};  // r: cycles a header spends in a router before it may leave
  std::uint32_t buffer{4};        // B: flits per router input port, 1..65536
  cycle_t alpha{0};               // software start-up per message, cycles
  std::uint64_t packet_bytes{0};  // largest packet payload; 0 = one packet per message
  std::uint32_t inject_gap{1};    // cycles per flit at the NIC (a message's flits), 1..1024
  std::uint32_t vcs{1};           // virtual channels per physical channel, 1..16
  vc_share share{vc_share::round_robin};             // how they share it (above)
  wormhole_model engine{wormhole_model::automatic};  // which engine runs it (above)
  mesh_routing routing{mesh_routing::xy};  // the routers' routing function (mesh_routing.hpp)
  // Cycles from a router input FIFO slot freeing to its upstream sender (a router output
  // or the NIC) being able to use it, 0..16. 0: a flit may take a slot freed in the same
  // cycle; 1: the credit comes back the next cycle, as in tsr_mesh_router. The ejection
  // channel has no FIFO and no credit.
  std::uint32_t credit_delay{1};
  // Router pipeline depth p, 1..16: a flit that enters a router input FIFO in cycle c may
  // cross the router's output from c + p on (p = 1: the next cycle, tsr_mesh_router's
  // default); a head waits router_delay cycles more (routing and VC allocation, where
  // bodies take only switch allocation and traversal, as in BookSim2's input-queued
  // router). A FIFO slot then turns round in p + credit_delay cycles.
  std::uint32_t pipeline{1};
  // Half-duplex NIC (Bokhari91 §5; Thakur93 §2's beta_sr against beta_ex; duplex.hpp
  // states the rule, docs/delta.md its use): a tile's transmit and receive proceed
  // together only when they start within duplex_window cycles of each other. A transmit
  // that would start late waits before its header enters the injection channel; a
  // receive that starts late still drains from the network at full speed (the network is
  // not held), but it completes, and the sender's send with it, one receive length after
  // the transmit ends.
  // duplex_hold: the NIC serves one direction at a time in the network too. A message's
  // transmit and its receive start when its first header is granted the destination's
  // ejection; a header whose source is receiving, or whose destination is transmitting,
  // since more than duplex_window cycles waits at the ejection holding its path
  // (wormhole back-pressure) until that stream ends. Nothing completes late: a stream
  // that waits has not started. Off by default.
  duplex_params duplex{};
  // Two message protocols (eager_bytes > 0): a message of at most eager_bytes goes
  // eagerly, with start-up alpha_eager instead of alpha, and its receiver copies it out
  // of a system buffer after the last flit, eager_copy cycles per 1024 bytes, before it
  // is delivered. Longer messages (rendezvous, zero copy) keep alpha.
  std::uint64_t eager_bytes{0};
  cycle_t alpha_eager{0};
  std::uint64_t eager_copy{0};
};

// The parameters' valid values, for validate() and the registry's --param rows.
namespace wormhole_range {
inline constexpr cycle_t long_time = 1'000'000'000'000;
inline constexpr count_range width{"width", 1, 4096};
inline constexpr count_range router_delay{"router_delay", 0, 1'000'000};
inline constexpr count_range buffer{"buffer", 1, 65536};
inline constexpr count_range alpha{"alpha", 0, long_time};
inline constexpr count_range packet_bytes{"packet_bytes", 0, std::uint64_t{1} << 30};
inline constexpr count_range inject_gap{"inject_gap", 1, 1024};
inline constexpr count_range vcs{"vcs", 1, 16};
inline constexpr count_range credit_delay{"credit_delay", 0, 16};
inline constexpr count_range pipeline{"pipeline", 1, 16};
inline constexpr count_range duplex_window{"duplex_window", 0, long_time};
inline constexpr count_range eager_bytes{"eager_bytes", 0, std::uint64_t{1} << 40};
inline constexpr count_range alpha_eager{"alpha_eager", 0, long_time};
inline constexpr count_range eager_copy{"eager_copy", 0, 1'000'000};
// In the order validate() checks them.
inline constexpr std::array all{width,       buffer,      router_delay, alpha,    packet_bytes,
                                inject_gap,  vcs,         credit_delay, pipeline, duplex_window,
                                eager_bytes, alpha_eager, eager_copy};
}  // namespace wormhole_range

// Throws tessera::input_error naming the first value out of range ("wormhole: vcs 17 is
// out of range 1..16").
void validate(const wormhole_params& p);

// The half-duplex rule on the mesh: a late stream holds its path only with duplex_hold.
[[nodiscard]] inline duplex_policy duplex_of(const wormhole_params& p) {
  return duplex_policy{p.duplex};
}

// Flits of a packet with `payload` bytes: max(1, ceil(payload / width)).
[[nodiscard]] std::uint64_t packet_flits(std::uint64_t payload, std::uint32_t width);

// The engine for p: the closed form (wormhole_engine) on a mesh for dimension-order
// routing (xy, yx) and pipeline 1 with one VC or vc_share=fixed, the flit engine
// (flit_engine.hpp) otherwise, the wormhole torus included. Throws tessera::input_error as they do.
std::unique_ptr<engine> make_wormhole_engine(const fabric& f, const wormhole_params& p);

// The closed form: routing xy or yx, pipeline 1, vcs 1, or any vcs with vc_share=fixed.
class wormhole_engine final : public engine {
 public:
  // Throws tessera::input_error for a fabric that is not mesh:RxC or bad parameters,
  // for a torus (make_wormhole_engine gives the flit engine), for vcs > 1 shared round robin, for
  // the routings beyond dimension order and for pipeline > 1 (make_wormhole_engine gives the flit
  // engine).
  wormhole_engine(const fabric& f, const wormhole_params& p);
  ~wormhole_engine() override;
  wormhole_engine(const wormhole_engine&) = delete;
  wormhole_engine& operator=(const wormhole_engine&) = delete;

  // Throws tessera::input_error for a tile outside the mesh or an absurd size.
  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override;
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override;
  // Links "E", "W", "S", "N" (from, to = the two tiles), then "inject" and "eject"
  // (from = to = the tile). busy = cycles from a header crossing to its tail crossing,
  // summed; messages = packets that crossed; max_queue = most headers requesting at once.
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] energy_counts energy() const override;
  // blocked = header grants that came later than the header could have left.
  [[nodiscard]] contention_stat contention() const override;
  [[nodiscard]] std::vector<std::string> stuck() const override;

  [[nodiscard]] const wormhole_params& params() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace tessera::net
