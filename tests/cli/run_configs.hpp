// Run configs the CLI tests build in code, as a front end other than the CLI would.
#pragma once

#include <cstdint>
#include <string>

#include "tessera/run/config.hpp"

namespace tessera::test {

// An all-gather on a d-cube on the alpha-beta model with ts 100, tw 2 (Grama et al.,
// "Basic Communication Operations": ts log p + tw m (p - 1) cycles).
inline run::run_config allgather_on_cube(std::uint32_t dims, std::uint32_t bytes) {
  run::run_config c;
  c.fabric_spec = "hypercube:" + std::to_string(dims);
  c.c.f = fabric::hypercube(dims);
  c.c.coll = fw::collective::allgather;
  c.c.alg = fw::tb_algorithm::hypercube;
  c.algorithm = "hypercube";
  c.c.bytes = bytes;
  c.params = {{"ts", "100"}, {"tw", "2"}};
  return c;
}

}  // namespace tessera::test
