// Grama et al.'s alpha-beta closed forms (Grama), for the
// collective and algorithm combinations where the slides give an exact cost.
// Reported beside simulated cycles; the tests derive their expectations on their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tessera/firmware/collective.hpp"

namespace tessera::analytic {

struct grama_form {
  std::string formula;  // as the slides write it
  std::string source;   // slide / equation
  std::uint64_t cycles{0};
};

std::optional<grama_form> grama_cycles(const fw::collective_params& c, std::uint64_t ts,
                                       std::uint64_t tw);

}  // namespace tessera::analytic
