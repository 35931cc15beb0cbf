// Strong id types shared by the tile runtime, the firmware and the host tools.
#pragma once

#include <compare>
#include <cstdint>

namespace tessera {

// A strong typedef: ids of different kinds cannot be mixed up by accident.
template <typename Tag>
class strong_id {
 public:
  using value_type = std::uint32_t;
  constexpr strong_id() = default;
  constexpr explicit strong_id(value_type v) : v_{v} {}
  [[nodiscard]] constexpr value_type value() const { return v_; }
  constexpr auto operator<=>(const strong_id&) const = default;

 private:
  value_type v_{0};
};

struct tile_tag {};
struct link_tag {};
struct block_tag {};

using tile_id = strong_id<tile_tag>;    // row-major tile number
using link_id = strong_id<link_tag>;    // directed link: tile * ports + port
using block_id = strong_id<block_tag>;  // a unit of data whose delivery is checked

}  // namespace tessera
