#include "tessera/common/range.hpp"

#include "tessera/common/errors.hpp"

namespace tessera {

std::string bound_text(std::uint64_t v) {
  if (v >= (std::uint64_t{1} << 20) && (v & (v - 1)) == 0) {
    unsigned e = 20;
    while ((std::uint64_t{1} << e) != v)
      ++e;
    return "2^" + std::to_string(e);
  }
  return std::to_string(v);
}

std::string range_text(std::uint64_t min, std::uint64_t max) {
  return bound_text(min) + ".." + bound_text(max);
}

void out_of_range(std::string_view owner, const count_range& r, const std::string& value) {
  throw input_error(std::string(owner) + ": " + std::string(r.name) + " " + value +
                    " is out of range " + range_text(r.min, r.max));
}

void check_range(std::string_view owner, const count_range& r, std::uint64_t v) {
  if (!r.holds(v)) out_of_range(owner, r, std::to_string(v));
}

}  // namespace tessera
