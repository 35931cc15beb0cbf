#pragma once

// The words on a torus top's ports (rtl_models/rtl/tsr_torus_top.sv), kept next to
// tsr_pkg.sv's packed structs:
//   torus_link_t (79 bits): hdr_valid [78], hdr [77:9], byte_valid [8], data [7:0]
//   torus_hdr_t  (69 bits): src [68:53], dst [52:37], multicast [36], tree [35:32],
//                           seq [31:16], len [15:0]
//   torus_msg_t  (69 bits): dst [68:53], multicast [52], tree [51:48], seq [47:32],
//                           len [31:16], packet_bytes [15:0]
// The top's ports are flat vectors (Yosys 0.23 reads no array ports): element k of a port
// of W-bit elements at bits [k W, (k + 1) W), e.g. tile t's message at t * 69 of msg_i,
// the header of tile t's input p at (t * 5 + p) * 69 of arrive_hdr_o, tile t's payload
// byte b at (t * MaxBytes + b) * 8 of data_i. Elements up to 64 bits are read with
// pins.hpp's lane(); these wider ones at their bit offset `at`.
// Plain C++ over Verilator's wide values (arrays of 32-bit words): no Verilator header.
#include <cstdint>

#include "tessera/rtl_tops/pins.hpp"

namespace tessera::rtl_tops {

// Bits of each word (tsr_pkg.sv's TorusHdrBits, TorusLinkBits, TorusMsgBits).
inline constexpr unsigned torus_hdr_bits = 69;
inline constexpr unsigned torus_link_bits = 79;
inline constexpr unsigned torus_msg_bits = 69;

struct torus_hdr {
  std::uint16_t src = 0;
  std::uint16_t dst = 0;
  bool multicast = false;
  std::uint8_t tree = 0;
  std::uint16_t seq = 0;
  std::uint16_t len = 0;
};

// A header at bit offset `at` (at + 9 inside a link at `at`; an element's offset in
// arrive_hdr_o and wait_hdr_o).
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

// A message as an NI takes it (torus_msg_t).
struct message_word {
  std::uint16_t dst = 0;
  bool multicast = false;
  std::uint8_t tree = 0;
  std::uint16_t seq = 0;  // its first packet's number
  unsigned len = 0;       // payload bytes
  unsigned packet_bytes = 0;
};

// At bit offset `at` (tile t's in msg_i: t * torus_msg_bits).
template <class Wide>
void set_message(Wide& w, const message_word& m, unsigned at = 0) {
  set_bits(w, at + 0, 16, m.packet_bytes);
  set_bits(w, at + 16, 16, m.len);
  set_bits(w, at + 32, 16, m.seq);
  set_bits(w, at + 48, 4, m.tree);
  set_bits(w, at + 52, 1, m.multicast ? 1U : 0U);
  set_bits(w, at + 53, 16, m.dst);
}

// One cycle of a link or an ejection port (torus_link_t).
struct link_word {
  bool hdr_valid = false;
  torus_hdr hdr;
  bool byte_valid = false;
  std::uint8_t data = 0;
};

// At bit offset `at` (tile t's link output l in link_o: (t * 4 + l) * torus_link_bits).
template <class Wide>
link_word get_link(const Wide& w, unsigned at = 0) {
  link_word l;
  l.hdr_valid = get_bits(w, at + 78, 1) != 0;
  if (l.hdr_valid) l.hdr = get_hdr(w, at + 9);
  l.byte_valid = get_bits(w, at + 8, 1) != 0;
  l.data = static_cast<std::uint8_t>(get_bits(w, at + 0, 8));
  return l;
}

}  // namespace tessera::rtl_tops
