#pragma once

// Reading and writing a Verilated model's ports whatever width Verilator gave them, and
// the reset and clock every top shares (clk_i, rst_ni; nothing on the falling edge).
#include <cstdint>
#include <type_traits>

namespace tessera::rtl_tops {

// A per-tile bit vector: Verilator gives a 16-tile vector 16 bits, a 64-tile one 64.
template <class Field>
void set_mask(Field& field, std::uint64_t v) {
  field = static_cast<std::remove_reference_t<Field>>(v);
}
template <class Field>
std::uint64_t mask(Field v) {
  return static_cast<std::uint64_t>(v);
}
template <class Field>
bool bit(Field v, unsigned i) {
  return ((mask(v) >> i) & 1U) != 0;
}

// Bits [lsb, lsb + width) of a Verilator wide value (32-bit words), width <= 32.
template <class Wide>
std::uint32_t get_bits(const Wide& w, unsigned lsb, unsigned width) {
  const unsigned word = lsb / 32;
  const unsigned off = lsb % 32;
  std::uint64_t v = static_cast<std::uint64_t>(w[word]) >> off;
  if (off + width > 32) v |= static_cast<std::uint64_t>(w[word + 1]) << (32 - off);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << width) - 1));
}

template <class Wide>
void set_bits(Wide& w, unsigned lsb, unsigned width, std::uint32_t value) {
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    const std::uint32_t m = 1U << (bit % 32);
    if ((value >> b) & 1U)
      w[bit / 32] |= m;
    else
      w[bit / 32] &= ~m;
  }
}

// Element i of a port that carries one `Width`-bit element per tile (or per port) as one
// packed vector, element i at bits [i * Width, (i + 1) * Width): the tops' ports are in
// the subset Yosys 0.23 reads, which has no array ports (docs/rtl.md, "Style"). Verilator
// gives such a vector as an integer up to 64 bits and as a VlWide of 32-bit words above.
template <unsigned Width, class Field>
std::uint64_t lane(const Field& f, unsigned i) {
  static_assert(Width >= 1 && Width <= 64);
  if constexpr (std::is_integral_v<Field>) {
    const std::uint64_t v = static_cast<std::uint64_t>(f) >> (i * Width);
    if constexpr (Width == 64) {
      return v;
    } else {
      return v & ((std::uint64_t{1} << Width) - 1);
    }
  } else {
    const unsigned lsb = i * Width;
    const unsigned word = lsb / 32;
    const unsigned off = lsb % 32;
    std::uint64_t v = static_cast<std::uint64_t>(f[word]) >> off;
    if (off + Width > 32) v |= static_cast<std::uint64_t>(f[word + 1]) << (32 - off);
    if (off + Width > 64) v |= static_cast<std::uint64_t>(f[word + 2]) << (64 - off);
    if constexpr (Width == 64) {
      return v;
    } else {
      return v & ((std::uint64_t{1} << Width) - 1);
    }
  }
}

template <unsigned Width, class Field>
void set_lane(Field& f, unsigned i, std::uint64_t v) {
  static_assert(Width >= 1 && Width <= 64);
  std::uint64_t m = ~std::uint64_t{0};
  if constexpr (Width < 64) m = (std::uint64_t{1} << Width) - 1;
  v &= m;
  if constexpr (std::is_integral_v<Field>) {
    const unsigned lsb = i * Width;
    f = static_cast<Field>((static_cast<std::uint64_t>(f) & ~(m << lsb)) | (v << lsb));
  } else {
    const unsigned lsb = i * Width;
    unsigned word = lsb / 32;
    const unsigned off = lsb % 32;
    // Up to three 32-bit words: the element's bits shifted to its offset, word by word.
    unsigned done = 0;
    unsigned shift = off;
    while (done < Width) {
      const unsigned take = (32 - shift) < (Width - done) ? (32 - shift) : (Width - done);
      const std::uint32_t wm =
          static_cast<std::uint32_t>(((std::uint64_t{1} << take) - 1) << shift);
      const std::uint32_t bits = static_cast<std::uint32_t>(((v >> done) << shift) & wm);
      f[word] = (f[word] & ~wm) | bits;
      done += take;
      shift = 0;
      ++word;
    }
  }
}

// The 32-bit words of element i of a packed vector of `Width`-bit elements, Width a
// multiple of 32 (a payload wider than 64 bits).
template <unsigned Width, class Wide>
auto* lane_words(Wide& f, unsigned i) {
  static_assert(Width % 32 == 0);
  return &f[i * (Width / 32)];
}

// The tops' reset: rst_ni low for `cycles` clock cycles, released with the clock low.
// The cycle after it is the first that may move data. `cycle` makes one clock cycle
// (a testbench's also dumps its trace).
template <class Model, class Cycle>
void reset(Model& m, unsigned cycles, Cycle cycle) {
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  for (unsigned i = 0; i < cycles; ++i)
    cycle();
  m.rst_ni = 1;
  m.eval();
}

// How many cycles the engines and the testbenches hold reset.
inline constexpr unsigned reset_cycles = 3;

}  // namespace tessera::rtl_tops
