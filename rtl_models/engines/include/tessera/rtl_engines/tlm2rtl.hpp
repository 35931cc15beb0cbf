// The tlm2rtl bridge: net::engine implementations that clock a Verilated fabric
// (rtl_models/rtl) and move the platform's messages through its network interfaces.
// The TLM platform's fabric module drives them exactly as it drives the timing engines
// of net, so `tessera run --model rtl` runs the same tiles, NICs, runtime and
// byte checks as `--model tlm` with the RTL deciding every cycle (docs/rtl.md, "The RTL
// as a model").
//
// The bridge sees messages, not their bytes (the NICs keep the payload and check it end
// to end). Each flit the bridge injects carries a word naming its message and its index,
// and the bridge checks every word it takes out of the RTL: a flit the RTL loses,
// repeats, corrupts or misroutes stops the run with the tile, message and flit.
#pragma once

#include <memory>
#include <string>

#include "tessera/models/registry.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::rtl_engines {

// The engine for `--model rtl` with switching sw on fabric f. Throws input_error when
// no Verilated configuration runs f with these parameters, naming the ones built.
std::unique_ptr<net::engine> make_rtl_engine(models::switching sw, const fabric& f,
                                             const models::engine_params& p);

// The Verilated configurations, one fabric after another ("; " between), for the error
// messages.
std::string rtl_configurations();

}  // namespace tessera::rtl_engines
