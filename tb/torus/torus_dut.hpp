#pragma once

// The Verilated 4 x 4 torus (rtl_models/rtl/tsr_torus_top.sv with Rows = Cols = 4,
// Buffers = 4, MaxBytes = 32, Trees = 4; rtl_models/rtl/CMakeLists.txt) and the bit
// layout of its packed structs, kept next to tsr_pkg.sv's definitions (torus_msg_t
// below):
//   torus_link_t (79 bits): hdr_valid [78], hdr [77:9], byte_valid [8], data [7:0]
//   torus_hdr_t  (69 bits): src [68:53], dst [52:37], multicast [36], tree [35:32],
//                           seq [31:16], len [15:0]
#include <cstdint>

#include <Vtsr_torus_4x4.h>
#include <verilated.h>
#if TESSERA_RTL_TRACE_FST
#include <verilated_fst_c.h>
#endif

namespace tessera::tb {

inline constexpr unsigned torus_rows = 4;
inline constexpr unsigned torus_cols = 4;
inline constexpr unsigned torus_tiles = torus_rows * torus_cols;
inline constexpr unsigned torus_buffers = 4;
inline constexpr unsigned torus_max_bytes = 32;
inline constexpr unsigned torus_ports = 5;  // east, west, south, north, local
inline constexpr unsigned torus_local = 4;

using torus_model = Vtsr_torus_4x4;

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
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    v |= static_cast<std::uint64_t>((w[bit / 32] >> (bit % 32)) & 1U) << b;
  }
  return static_cast<std::uint32_t>(v);
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

template <class Wide>
void set_hdr(Wide& w, unsigned at, const torus_hdr& h) {
  set_bits(w, at + 0, 16, h.len);
  set_bits(w, at + 16, 16, h.seq);
  set_bits(w, at + 32, 4, h.tree);
  set_bits(w, at + 36, 1, h.multicast ? 1U : 0U);
  set_bits(w, at + 37, 16, h.dst);
  set_bits(w, at + 53, 16, h.src);
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
  l.hdr = get_hdr(w, 9);
  l.byte_valid = get_bits(w, 8, 1) != 0;
  l.data = static_cast<std::uint8_t>(get_bits(w, 0, 8));
  return l;
}

template <class Wide>
void set_link(Wide& w, const link_word& l) {
  set_bits(w, 78, 1, l.hdr_valid ? 1U : 0U);
  set_hdr(w, 9, l.hdr);
  set_bits(w, 8, 1, l.byte_valid ? 1U : 0U);
  set_bits(w, 0, 8, l.data);
}

}  // namespace tessera::tb
