// `--model rtl` as the registry lists it: the Verilated fabrics it drives, its own
// parameter defaults and its limits, the ranges of the engines' parameters that the
// Verilated tops take (rtl_tops/limits.hpp). Plain data, no Verilator: a build without
// the RTL (the sanitizer build) declares the model too, as not available, so every build
// names the same models.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tessera/models/registry.hpp"
#include "tessera/rtl_tops/limits.hpp"

namespace tessera::rtl_engines {

// The Verilated fabrics this library drives (docs/rtl.md).
inline constexpr std::array<models::switching, 3> rtl_switchings{
    models::switching::wormhole, models::switching::store_forward, models::switching::circuit};

// The largest packet of the RTL torus (tsr_torus_top's MaxBytes): --model rtl's default
// packet_bytes.
inline const std::array<models::model_default, 1> rtl_defaults{{
    {models::switching::store_forward, "packet_bytes", rtl_tops::torus_4x4.max_packet_bytes,
     "the RTL torus's largest packet (a crosscheck with rtl gives it to both models)"},
}};

namespace detail {
template <typename E>
constexpr std::uint64_t choice(E e) {
  return std::uint64_t{1} << static_cast<unsigned>(e);
}
// Every built mesh top and every torus top takes the same run-time inputs (the engines
// assert it); the 7-cube is the only cube.
inline constexpr const rtl_tops::mesh_top_limits& mesh = rtl_tops::mesh_8x8;
inline constexpr const rtl_tops::torus_top_limits& torus = rtl_tops::torus_4x4;
inline constexpr const rtl_tops::cube_top_limits& cube = rtl_tops::cube_7;
}  // namespace detail

// The parameters' ranges in the Verilated tops, in the order the registry checks them
// (models::check_limits, before the rtl factory runs). What depends on several parameters
// or on the fabric's size (packets in flits of width bytes, the sizes built per VC count)
// the engines check themselves.
inline constexpr std::array<models::model_limit, 20> rtl_limits{{
    // The wormhole meshes: tsr_mesh_router and tsr_mesh_ni.
    {models::switching::wormhole, "credit_delay", detail::mesh.min_credit_delay,
     rtl_tops::mesh_max_credit_delay},
    {models::switching::wormhole, "pipeline", 1, rtl_tops::mesh_max_pipeline},
    {models::switching::wormhole, "half_duplex", 0, 0, 0,
     "the RTL network interface is full duplex"},
    {models::switching::wormhole, "eager_bytes", 0, 0, 0,
     "the RTL network interface has one message protocol"},
    {models::switching::wormhole, "buffer", 1, detail::mesh.buffer},
    {models::switching::wormhole, "router_delay", 0, detail::mesh.max_router_delay},
    {models::switching::wormhole, "alpha", 0, detail::mesh.max_alpha},
    {models::switching::wormhole, "inject_gap", 1, detail::mesh.max_inject_gap},
    {models::switching::wormhole, "vcs", 1, rtl_tops::mesh_max_vcs},
    {models::switching::wormhole, "vc_share", 0, 0, detail::choice(net::vc_share::round_robin)},
    // The store-and-forward tori: tsr_torus_node and tsr_torus_ni.
    {models::switching::store_forward, "buffers", detail::torus.buffers, detail::torus.buffers},
    {models::switching::store_forward, "beta", detail::torus.min_beta, detail::torus.max_beta},
    {models::switching::store_forward, "tau", detail::torus.min_tau, detail::torus.max_tau},
    {models::switching::store_forward, "packet_bytes", 0, detail::torus.max_packet_bytes},
    // The circuit-switched 7-cube: tsr_cube_node and tsr_cube_ni.
    {models::switching::circuit, "xi", 0, detail::cube.max_xi},
    {models::switching::circuit, "control_xi", 0, detail::cube.max_xi},
    {models::switching::circuit, "tau", detail::cube.min_tau, detail::cube.max_tau},
    {models::switching::circuit, "arbitration", 0, 0,
     detail::choice(net::circuit_arbitration::lowest_id) |
         detail::choice(net::circuit_arbitration::round_robin)},
    {models::switching::circuit, "blocking", 0, 0,
     detail::choice(net::circuit_blocking::hold_wait)},
    {models::switching::circuit, "half_duplex", 0, 0, 0, "the RTL cube interface is full duplex"},
}};

// The registry's row; `make` builds its engines, `built` says what is built for a
// switching and `has_fabric` which fabrics (all nullptr where the RTL is not built).
inline models::model_info rtl_model_info(models::engine_factory make,
                                         std::string (*built)(models::switching) = nullptr,
                                         bool (*has_fabric)(models::switching,
                                                            const fabric&) = nullptr) {
  return {"rtl",
          "the same platform over the Verilated RTL fabrics, through the tlm2rtl bridge "
          "(docs/rtl.md)",
          models::model_kind::platform,
          rtl_switchings,
          rtl_defaults,
          make,
          false,
          rtl_limits,
          "the RTL",
          built,
          has_fabric};
}

}  // namespace tessera::rtl_engines
