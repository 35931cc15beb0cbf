// A data message for replay() (net/replay.hpp), posted at `at`: the engine tests' input.
#pragma once

#include <cstdint>

#include "tessera/net/replay.hpp"

namespace tessera::test {

inline net::timed_xfer msg(std::uint64_t id, std::uint32_t src, std::uint32_t dst,
                           std::uint64_t bytes, net::cycle_t at = 0) {
  net::timed_xfer t;
  t.x = net::xfer{id, src, dst, bytes, false, 0};
  t.at = at;
  return t;
}

}  // namespace tessera::test
