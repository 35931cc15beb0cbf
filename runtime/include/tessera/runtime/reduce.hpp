// Element-wise reduction of typed vectors held as bytes: the combine step of
// reduce, all-reduce, reduce-scatter and prefix sum (Grama slides 20, 33, 37-41).
// Integer arithmetic wraps (it is done on the unsigned type), so every tile and
// the host checker get the same bits whatever the order of combination.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace tessera {

enum class elem_type : std::uint8_t { i32, u32, i64, u64, f32, f64 };
enum class reduce_op : std::uint8_t { sum, min, max, band, bor, bxor };

struct elem_type_info {
  elem_type type;
  std::string_view name;
  std::uint32_t bytes;
  bool floating;
};

inline constexpr std::array<elem_type_info, 6> elem_types{{
    {elem_type::i32, "i32", 4, false},
    {elem_type::u32, "u32", 4, false},
    {elem_type::i64, "i64", 8, false},
    {elem_type::u64, "u64", 8, false},
    {elem_type::f32, "f32", 4, true},
    {elem_type::f64, "f64", 8, true},
}};

inline constexpr std::array<std::string_view, 6> reduce_op_names{"sum",  "min", "max",
                                                                 "band", "bor", "bxor"};

constexpr const elem_type_info& info(elem_type t) {
  return elem_types[static_cast<std::size_t>(t)];
}
constexpr std::uint32_t elem_bytes(elem_type t) {
  return info(t).bytes;
}
constexpr std::string_view reduce_op_name(reduce_op o) {
  return reduce_op_names[static_cast<std::size_t>(o)];
}

constexpr bool parse_elem_type(std::string_view s, elem_type& out) {
  for (const auto& i : elem_types) {
    if (i.name == s) {
      out = i.type;
      return true;
    }
  }
  return false;
}

constexpr bool parse_reduce_op(std::string_view s, reduce_op& out) {
  for (std::size_t i = 0; i < reduce_op_names.size(); ++i) {
    if (reduce_op_names[i] == s) {
      out = static_cast<reduce_op>(i);
      return true;
    }
  }
  return false;
}

// Bitwise operators are not defined on floating-point data.
constexpr bool reduce_supported(elem_type t, reduce_op o) {
  return !info(t).floating || o == reduce_op::sum || o == reduce_op::min || o == reduce_op::max;
}

// One element of a reduction.
template <typename T>
constexpr T combine_elem(T a, T b, reduce_op o) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const auto ua = static_cast<U>(a);
    const auto ub = static_cast<U>(b);
    switch (o) {
      case reduce_op::sum:
        return static_cast<T>(static_cast<U>(ua + ub));
      case reduce_op::min:
        return a < b ? a : b;
      case reduce_op::max:
        return a < b ? b : a;
      case reduce_op::band:
        return static_cast<T>(ua & ub);
      case reduce_op::bor:
        return static_cast<T>(ua | ub);
      case reduce_op::bxor:
        return static_cast<T>(ua ^ ub);
    }
  } else {
    switch (o) {
      case reduce_op::sum:
        return a + b;
      case reduce_op::min:
        return a < b ? a : b;
      case reduce_op::max:
        return a < b ? b : a;
      default:
        break;
    }
  }
  return a;
}

namespace detail {

// The element copies are __builtin_memcpy, not std::memcpy: the tile build is
// -ffreestanding, which turns std::memcpy into a call of the C library's byte loop even for
// one element: the root of a 16-tile reduce of m bytes retired 125 instructions per byte
// of m on the Cortex-M4 tiles with it, 39.5 with the builtin (docs/tiles.md).
template <typename T>
void combine_typed(std::byte* acc, const std::byte* in, std::size_t bytes, reduce_op o) {
  for (std::size_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T a;
    T b;
    __builtin_memcpy(&a, acc + i, sizeof(T));
    __builtin_memcpy(&b, in + i, sizeof(T));
    const T r = combine_elem(a, b, o);
    __builtin_memcpy(acc + i, &r, sizeof(T));
  }
}

}  // namespace detail

// acc[i] = acc[i] (o) in[i] for every element of `bytes` bytes (a whole number of
// elements; a trailing partial element is left alone).
inline void combine(std::byte* acc, const std::byte* in, std::size_t bytes, elem_type t,
                    reduce_op o) {
  switch (t) {
    case elem_type::i32:
      return detail::combine_typed<std::int32_t>(acc, in, bytes, o);
    case elem_type::u32:
      return detail::combine_typed<std::uint32_t>(acc, in, bytes, o);
    case elem_type::i64:
      return detail::combine_typed<std::int64_t>(acc, in, bytes, o);
    case elem_type::u64:
      return detail::combine_typed<std::uint64_t>(acc, in, bytes, o);
    case elem_type::f32:
      return detail::combine_typed<float>(acc, in, bytes, o);
    case elem_type::f64:
      return detail::combine_typed<double>(acc, in, bytes, o);
  }
}

}  // namespace tessera
