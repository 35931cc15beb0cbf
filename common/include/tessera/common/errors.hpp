// Host-side error policy: bad input is an input_error whose message is one line
// naming the offending value; the CLI prints it and exits 2.
#pragma once

#include <stdexcept>
#include <string>

namespace tessera {

class input_error : public std::runtime_error {
 public:
  explicit input_error(const std::string& what) : std::runtime_error(what) {}
};

// Complete exchange moves p^2 blocks; beyond this the host analysis is refused
// rather than allowed to exhaust memory.
inline constexpr unsigned max_alltoall_tiles = 1024;

}  // namespace tessera
