#include "tessera/rtl_engines/tlm2rtl.hpp"

#include <array>

#include "tessera/common/errors.hpp"
#include "tlm2rtl_internal.hpp"

namespace tessera::rtl_engines {
namespace {

// The Verilated fabrics this library drives (docs/rtl.md).
constexpr std::array<models::switching, 3> rtl_switchings{
    models::switching::wormhole, models::switching::store_forward, models::switching::circuit};

const std::array<models::model_default, 1> rtl_defaults{{
    {models::switching::store_forward, "packet_bytes", rtl_torus_max_packet,
     "the RTL torus's largest packet (a crosscheck with rtl gives it to both models)"},
}};

// `--model rtl` is this library's: linking it (whole, rtl_models/engines/CMakeLists.txt)
// registers the model, and the platform asks the registry for its engines.
const models::model_registrar rtl_model{{
    "rtl",
    "the same platform over the Verilated RTL fabrics, through the tlm2rtl bridge "
    "(docs/rtl.md)",
    models::model_kind::platform,
    rtl_switchings,
    rtl_defaults,
    &make_rtl_engine,
}};

}  // namespace

std::unique_ptr<net::engine> make_rtl_engine(models::switching sw, const fabric& f,
                                             const models::engine_params& p) {
  switch (sw) {
    case models::switching::wormhole:
      return make_rtl_mesh_engine(f, p.wormhole);
    case models::switching::store_forward:
      return make_rtl_torus_engine(f, p.torus);
    case models::switching::circuit:
      return make_rtl_cube_engine(f, p.circuit);
    case models::switching::ideal:
      break;
  }
  throw input_error("--model rtl: " + std::string(models::switching_name(sw)) +
                    " switching has no Verilated fabric; built: " + rtl_configurations());
}

void refuse(const std::string& what, const std::string& built) {
  throw input_error("--model rtl: " + what + "; built: " + built);
}

std::string rtl_configurations() {
  return mesh_configurations() + "; " + torus_configurations() + "; " + cube_configurations();
}

}  // namespace tessera::rtl_engines
