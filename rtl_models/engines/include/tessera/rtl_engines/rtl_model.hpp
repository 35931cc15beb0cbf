// `--model rtl` as the registry lists it: the Verilated fabrics it drives and its own
// parameter defaults. Plain data, no Verilator: a build without the RTL (the sanitizer
// build) declares the model too, as not available, so every build names the same models.
#pragma once

#include <array>
#include <cstdint>

#include "tessera/models/registry.hpp"

namespace tessera::rtl_engines {

// The largest packet of the RTL torus (tsr_torus_top's MaxBytes; the torus engine checks
// it against the tops' limits, rtl_tops::torus_top_limits): --model rtl's default
// packet_bytes. Written here, not read from rtl_models/tops, because a build without the
// RTL declares the model too.
inline constexpr std::uint64_t rtl_torus_max_packet = 256;

// The Verilated fabrics this library drives (docs/rtl.md).
inline constexpr std::array<models::switching, 3> rtl_switchings{
    models::switching::wormhole, models::switching::store_forward, models::switching::circuit};

inline const std::array<models::model_default, 1> rtl_defaults{{
    {models::switching::store_forward, "packet_bytes", rtl_torus_max_packet,
     "the RTL torus's largest packet (a crosscheck with rtl gives it to both models)"},
}};

// The registry's row; `make` builds its engines (nullptr where the RTL is not built).
inline models::model_info rtl_model_info(models::engine_factory make) {
  return {"rtl",
          "the same platform over the Verilated RTL fabrics, through the tlm2rtl bridge "
          "(docs/rtl.md)",
          models::model_kind::platform,
          rtl_switchings,
          rtl_defaults,
          make};
}

}  // namespace tessera::rtl_engines
