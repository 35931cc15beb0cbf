// A communication pattern (docs/tlm.md, "Patterns"): a list of transfers, each a
// message of `bytes` from src to dst posted at `start`. Bokhari's contention experiment
// (Bokhari91 §2.3) is one. A model runs it; the reader is the CLI's (readers.hpp).
#pragma once

#include <cstdint>

namespace tessera::harness {

struct pattern_transfer {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint64_t bytes{0};
  std::uint64_t start{0};  // cycles
};

}  // namespace tessera::harness
