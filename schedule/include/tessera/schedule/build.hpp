// Builds the global schedule by running each tile's firmware generator on the host.
#pragma once

#include <cstdint>

#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/schedule/schedule.hpp"

namespace tessera {

// Precondition: fw::a2a_supported(alg, f).
schedule build_alltoall(fw::a2a_algorithm alg, const fabric& f, std::uint64_t block_bytes);

}  // namespace tessera
