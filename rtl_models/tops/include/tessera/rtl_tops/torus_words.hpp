#pragma once

// The words on a torus top's ports (rtl_models/rtl/tsr_torus_top.sv), kept next to
// tsr_pkg.sv's packed structs:
//   torus_link_t (79 bits): hdr_valid [78], hdr [77:9], byte_valid [8], data [7:0]
//   torus_hdr_t  (69 bits): src [68:53], dst [52:37], multicast [36], tree [35:32],
//                           seq [31:16], len [15:0]
//   torus_msg_t  (69 bits): dst [68:53], multicast [52], tree [51:48], seq [47:32],
//                           len [31:16], packet_bytes [15:0]
//   data_i       (MaxBytes x 8 bits): payload byte b at [8b + 7 : 8b]
// Plain C++ over Verilator's wide values (arrays of 32-bit words): no Verilator header.
#include <cstdint>

#include "tessera/rtl_tops/pins.hpp"

namespace tessera::rtl_tops {

struct torus_hdr {
  std::uint16_t src = 0;
  std::uint16_t dst = 0;
  bool multicast = false;
  std::uint8_t tree = 0;
  std::uint16_t seq = 0;
  std::uint16_t len = 0;
};

// A header at bit offset `at` (9 inside a link, 0 for arrive_hdr_o and wait_hdr_o).
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

template <class Wide>
void set_message(Wide& w, const message_word& m) {
  set_bits(w, 0, 16, m.packet_bytes);
  set_bits(w, 16, 16, m.len);
  set_bits(w, 32, 16, m.seq);
  set_bits(w, 48, 4, m.tree);
  set_bits(w, 52, 1, m.multicast ? 1U : 0U);
  set_bits(w, 53, 16, m.dst);
}

// One cycle of a link or an ejection port (torus_link_t).
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

}  // namespace tessera::rtl_tops
