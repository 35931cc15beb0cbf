#include "tessera/rtl_engines/tlm2rtl.hpp"

#include "fabric_engines.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/rtl_engines/rtl_model.hpp"

namespace tessera::rtl_engines {
namespace {

std::string built(models::switching sw) {
  switch (sw) {
    case models::switching::wormhole:
      return mesh_configurations();
    case models::switching::store_forward:
      return torus_configurations();
    case models::switching::circuit:
      return cube_configurations();
    case models::switching::ideal:
      break;
  }
  return rtl_configurations();
}

bool has_fabric(models::switching sw, const fabric& f) {
  switch (sw) {
    case models::switching::wormhole:
      return mesh_built(f);
    case models::switching::store_forward:
      return torus_built(f);
    case models::switching::circuit:
      return cube_built(f);
    case models::switching::ideal:
      break;
  }
  return false;
}

// `--model rtl` is this library's: linking it (whole, run/CMakeLists.txt) registers the
// model, and the platform asks the registry for its engines.
const models::model_registrar rtl_model{rtl_model_info(&make_rtl_engine, &built, &has_fabric)};

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
