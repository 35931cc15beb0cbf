#pragma once

// The Verilated tori (rtl_models/rtl/tsr_torus_top.sv; rtl_models/rtl/CMakeLists.txt):
// Vtsr_torus_4x4 and Vtsr_torus_8x8 (no FST tracing), both with Buffers = 4,
// MaxBytes = 256, Trees = 4 (net::torus_params::buffers defaults to the same Buffers),
// and the bit layout of their
// packed structs, kept next to tsr_pkg.sv's definitions (torus_msg_t below):
//   torus_link_t (79 bits): hdr_valid [78], hdr [77:9], byte_valid [8], data [7:0]
//   torus_hdr_t  (69 bits): src [68:53], dst [52:37], multicast [36], tree [35:32],
//                           seq [31:16], len [15:0]
//   data_i       (MaxBytes x 8 bits): payload byte b at [8b + 7 : 8b]
#include <cstdint>
#include <vector>

#include <Vtsr_torus_4x4.h>
// A development build may verilate the 4 x 4 alone (TESSERA_RTL_ONLY,
// rtl_models/rtl/CMakeLists.txt); --size 8x8 then says the model is not built.
#if __has_include(<Vtsr_torus_8x8.h>)
#include <Vtsr_torus_8x8.h>
#define TESSERA_TB_TORUS_8X8 1
#else
#define TESSERA_TB_TORUS_8X8 0
#endif
#include <verilated.h>
#if TESSERA_RTL_TRACE_FST
#include <verilated_fst_c.h>
#endif

namespace tessera::tb {

inline constexpr unsigned torus_buffers = 4;
inline constexpr unsigned torus_max_bytes = 256;
inline constexpr unsigned torus_trees = 4;
inline constexpr unsigned torus_ports = 5;  // east, west, south, north, local
inline constexpr unsigned torus_local = 4;

// One Verilated top: its model class and shape.
struct torus_4x4 {
  using model = Vtsr_torus_4x4;
  static constexpr unsigned rows = 4;
  static constexpr unsigned cols = 4;
  static constexpr unsigned tiles = rows * cols;
  static constexpr const char* name = "4x4";
  static constexpr bool traced = true;  // built with FST tracing (when TESSERA_RTL_TRACE)
};

#if TESSERA_TB_TORUS_8X8
struct torus_8x8 {
  using model = Vtsr_torus_8x8;
  static constexpr unsigned rows = 8;
  static constexpr unsigned cols = 8;
  static constexpr unsigned tiles = rows * cols;
  static constexpr const char* name = "8x8";
  static constexpr bool traced = false;  // built without tracing (rtl_models/rtl/CMakeLists.txt)
};
#endif

struct torus_hdr {
  std::uint16_t src = 0;
  std::uint16_t dst = 0;
  bool multicast = false;
  std::uint8_t tree = 0;
  std::uint16_t seq = 0;
  std::uint16_t len = 0;
};

// Bits [lsb, lsb + width) of a Verilator wide value, width <= 32.
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
    const std::uint32_t mask = 1U << (bit % 32);
    if ((value >> b) & 1U)
      w[bit / 32] |= mask;
    else
      w[bit / 32] &= ~mask;
  }
}

// A header at bit offset `at` (9 inside a link, 0 for arrive_hdr_o).
template <class Wide>
torus_hdr get_hdr(const Wide& w, unsigned at) {
  torus_hdr h;
  h.len = static_cast<std::uint16_t>(get_bits(w, at + 0, 16));
  h.seq = static_cast<std::uint16_t>(get_bits(w, at + 16, 16));
  h.tree = static_cast<std::uint8_t>(get_bits(w, at + 32, 4));
  h.multicast = get_bits(w, at + 36, 1) != 0;
  h.dst = static_cast<std::uint16_t>(get_bits(w, at + 37, 16));
  h.src = static_cast<std::uint16_t>(get_bits(w, at + 53, 16));
  return h;
}

// torus_msg_t (69 bits): dst [68:53], multicast [52], tree [51:48], seq [47:32],
// len [31:16], packet_bytes [15:0]
struct message_word {
  std::uint16_t dst = 0;
  bool multicast = false;
  std::uint8_t tree = 0;
  std::uint16_t seq = 0;
  unsigned len = 0;
  unsigned packet_bytes = 0;
};

template <class Wide>
void set_message(Wide& w, const message_word& m) {
  set_bits(w, 0, 16, m.packet_bytes);
  set_bits(w, 16, 16, m.len);
  set_bits(w, 32, 16, m.seq);
  set_bits(w, 48, 4, m.tree);
  set_bits(w, 52, 1, m.multicast ? 1U : 0U);
  set_bits(w, 53, 16, m.dst);
}

// A packet's payload into data_i: bytes[first .. first + n), the rest zero.
template <class Wide>
void set_payload(Wide& w, const std::vector<std::uint8_t>& bytes, std::size_t first,
                 std::size_t n) {
  for (unsigned word = 0; word < torus_max_bytes / 4; ++word) {
    std::uint32_t v = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const std::size_t b = word * 4 + k;
      if (b < n) v |= static_cast<std::uint32_t>(bytes[first + b]) << (8 * k);
    }
    w[word] = v;
  }
}

struct link_word {
  bool hdr_valid = false;
  torus_hdr hdr;
  bool byte_valid = false;
  std::uint8_t data = 0;
};

template <class Wide>
link_word get_link(const Wide& w) {
  link_word l;
  l.hdr_valid = get_bits(w, 78, 1) != 0;
  if (l.hdr_valid) l.hdr = get_hdr(w, 9);
  l.byte_valid = get_bits(w, 8, 1) != 0;
  l.data = static_cast<std::uint8_t>(get_bits(w, 0, 8));
  return l;
}

}  // namespace tessera::tb
