// The engines of the Verilated fabrics, one source file per fabric (mesh_engine.cpp,
// torus_engine.cpp, cube_engine.cpp); tlm2rtl.cpp picks one.
#pragma once

#include <memory>
#include <string>

#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::rtl_engines {

// Refuses a configuration that was not built: input_error "--model rtl: <what>; built:
// <built>", built being the fabric's *_configurations().
[[noreturn]] void refuse(const std::string& what, const std::string& built);

// Each fabric's engine, what is built of it (for refusals) and whether fabric f is: a
// mesh up to the one-VC top's size (more VCs run on the smaller top), a built torus, a
// sub-cube of the 7-cube.
std::unique_ptr<net::engine> make_rtl_mesh_engine(const fabric& f, const net::wormhole_params& p);
std::string mesh_configurations();
bool mesh_built(const fabric& f);
std::unique_ptr<net::engine> make_rtl_torus_engine(const fabric& f, const net::torus_params& p);
std::string torus_configurations();
bool torus_built(const fabric& f);
std::unique_ptr<net::engine> make_rtl_cube_engine(const fabric& f, const net::circuit_params& p);
std::string cube_configurations();
bool cube_built(const fabric& f);

}  // namespace tessera::rtl_engines
