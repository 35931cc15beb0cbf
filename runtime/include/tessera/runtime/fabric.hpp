// Fabric descriptions and their spec strings ("mesh:4x5", "hypercube:6", ...).
// Freestanding: no heap, no exceptions; parsing reports an error code.
#pragma once

#include <cstdint>
#include <string_view>

namespace tessera {

enum class fabric_kind : std::uint8_t { mesh, torus, hypercube, ring };

// How a fabric moves a message: its timing engine's switching. The four built in; the
// registry (tessera/models/registry.hpp) numbers engines registered later after them.
enum class switching : std::uint8_t { ideal, circuit, store_forward, wormhole };

// Largest fabric accepted anywhere; larger requests are input errors, not OOMs.
inline constexpr std::uint32_t max_tiles = 65536;
inline constexpr std::uint32_t max_hypercube_dim = 16;

struct fabric {
  fabric_kind kind{fabric_kind::mesh};
  std::uint32_t rows{1};  // mesh, torus; 1 for ring and hypercube
  std::uint32_t cols{1};  // mesh, torus; tile count for ring and hypercube
  std::uint32_t dim{0};   // hypercube dimension, 0 otherwise

  [[nodiscard]] constexpr std::uint32_t tiles() const { return rows * cols; }

  // Output ports per tile. Mesh and torus: east, west, south, north. Ring: +1, -1.
  // Hypercube: one per dimension.
  [[nodiscard]] constexpr std::uint32_t ports() const {
    switch (kind) {
      case fabric_kind::mesh:
      case fabric_kind::torus:
        return 4;
      case fabric_kind::ring:
        return 2;
      case fabric_kind::hypercube:
        return dim;
    }
    return 0;
  }

  // Directed-link id space: tile * ports() + port. Some ids are unused (mesh edges).
  [[nodiscard]] constexpr std::uint32_t link_slots() const { return tiles() * ports(); }

  [[nodiscard]] constexpr bool is_2d() const {
    return kind == fabric_kind::mesh || kind == fabric_kind::torus;
  }

  constexpr bool operator==(const fabric&) const = default;

  static constexpr fabric mesh(std::uint32_t r, std::uint32_t c) {
    return {fabric_kind::mesh, r, c, 0};
  }
  static constexpr fabric torus(std::uint32_t r, std::uint32_t c) {
    return {fabric_kind::torus, r, c, 0};
  }
  static constexpr fabric hypercube(std::uint32_t d) {
    return {fabric_kind::hypercube, 1, std::uint32_t{1} << d, d};
  }
  static constexpr fabric ring(std::uint32_t p) { return {fabric_kind::ring, 1, p, 0}; }
};

enum class fabric_parse_error : std::uint8_t {
  none,
  unknown_kind,    // text before ':' is not mesh, torus, hypercube or ring
  missing_colon,   // no ':' at all
  bad_number,      // a size is empty, non-numeric or too large
  bad_shape,       // mesh/torus without "RxC"
  zero_size,       // a dimension is 0
  too_few_tiles,   // fewer than 2 tiles
  too_many_tiles,  // more than max_tiles
  bad_dimension,   // hypercube dimension outside 1..max_hypercube_dim
};

struct fabric_parse_result {
  fabric value{};
  fabric_parse_error error{fabric_parse_error::none};
  [[nodiscard]] constexpr bool ok() const { return error == fabric_parse_error::none; }
};

namespace detail {
// Parses a decimal number up to 10^7; anything else is bad_number.
constexpr bool parse_u32(std::string_view s, std::uint32_t& out) {
  if (s.empty() || s.size() > 7) return false;
  std::uint32_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + static_cast<std::uint32_t>(ch - '0');
  }
  out = v;
  return true;
}
}  // namespace detail

constexpr fabric_parse_result parse_fabric(std::string_view spec) {
  using E = fabric_parse_error;
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) return {{}, E::missing_colon};
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view size = spec.substr(colon + 1);

  if (kind == "mesh" || kind == "torus") {
    const auto x = size.find('x');
    if (x == std::string_view::npos) return {{}, E::bad_shape};
    std::uint32_t r = 0;
    std::uint32_t c = 0;
    if (!detail::parse_u32(size.substr(0, x), r) || !detail::parse_u32(size.substr(x + 1), c)) {
      return {{}, E::bad_number};
    }
    if (r == 0 || c == 0) return {{}, E::zero_size};
    if (static_cast<std::uint64_t>(r) * c > max_tiles) return {{}, E::too_many_tiles};
    if (r * c < 2) return {{}, E::too_few_tiles};
    return {kind == "mesh" ? fabric::mesh(r, c) : fabric::torus(r, c), E::none};
  }
  if (kind == "hypercube") {
    std::uint32_t d = 0;
    if (!detail::parse_u32(size, d)) return {{}, E::bad_number};
    if (d < 1 || d > max_hypercube_dim) return {{}, E::bad_dimension};
    return {fabric::hypercube(d), E::none};
  }
  if (kind == "ring") {
    std::uint32_t p = 0;
    if (!detail::parse_u32(size, p)) return {{}, E::bad_number};
    if (p == 0) return {{}, E::zero_size};
    if (p > max_tiles) return {{}, E::too_many_tiles};
    if (p < 2) return {{}, E::too_few_tiles};
    return {fabric::ring(p), E::none};
  }
  return {{}, E::unknown_kind};
}

constexpr std::string_view kind_name(fabric_kind k) {
  switch (k) {
    case fabric_kind::mesh:
      return "mesh";
    case fabric_kind::torus:
      return "torus";
    case fabric_kind::hypercube:
      return "hypercube";
    case fabric_kind::ring:
      return "ring";
  }
  return "?";
}

constexpr std::string_view describe(fabric_parse_error e) {
  switch (e) {
    case fabric_parse_error::none:
      return "ok";
    case fabric_parse_error::unknown_kind:
      return "unknown fabric kind (expected mesh, torus, hypercube or ring)";
    case fabric_parse_error::missing_colon:
      return "expected KIND:SIZE, e.g. mesh:4x4, torus:8x8, hypercube:6, ring:16";
    case fabric_parse_error::bad_number:
      return "size is not a decimal number";
    case fabric_parse_error::bad_shape:
      return "mesh and torus sizes are RxC, e.g. mesh:16x32";
    case fabric_parse_error::zero_size:
      return "a dimension is 0";
    case fabric_parse_error::too_few_tiles:
      return "at least 2 tiles are needed";
    case fabric_parse_error::too_many_tiles:
      return "more than 65536 tiles";
    case fabric_parse_error::bad_dimension:
      return "hypercube dimension must be 1..16";
  }
  return "?";
}

}  // namespace tessera
