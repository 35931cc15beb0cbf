// A count parameter's valid values, declared once beside the parameter (the engines'
// headers in net/) and read by everything that holds a value to them: the engine's
// validate() and the registry's --param row, so the two cannot disagree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera {

struct count_range {
  std::string_view name;  // as --param spells it
  std::uint64_t min;
  std::uint64_t max;

  [[nodiscard]] constexpr bool holds(std::uint64_t v) const { return v >= min && v <= max; }
};

// A value as the docs write it: a power of two from 2^20 up as 2^N, others as numbers.
std::string bound_text(std::uint64_t v);

// "1..4096", "0..2^40".
std::string range_text(std::uint64_t min, std::uint64_t max);

// Throws input_error "<owner>: <name> <value> is out of range <min>..<max>" unless the
// range holds the value; `value` is the text the user gave (or the number).
void check_range(std::string_view owner, const count_range& r, std::uint64_t v);

// check_range over each value beside its range, in order: the first value out of its
// range is refused.
template <std::size_t N>
void check_ranges(std::string_view owner, const std::array<count_range, N>& ranges,
                  const std::array<std::uint64_t, N>& values) {
  for (std::size_t i = 0; i < N; ++i)
    check_range(owner, ranges[i], values[i]);
}
[[noreturn]] void out_of_range(std::string_view owner, const count_range& r,
                               const std::string& value);

}  // namespace tessera
