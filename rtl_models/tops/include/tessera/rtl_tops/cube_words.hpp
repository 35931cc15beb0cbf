#pragma once

// The words on the cube top's ports (rtl_models/rtl/tsr_cube_top.sv), kept next to
// tsr_pkg.sv's packed structs:
//   cube_hdr_t (64 bits): src [63:48], dst [47:32], seq [31:16], len [15:0]
//   cube_req_t (48 bits): dst [47:32], seq [31:16], len [15:0]
#include <cstdint>

namespace tessera::rtl_tops {

// Bits of each, a lane of the top's flat header and request ports (tsr_pkg CubeHdrBits,
// CubeReqBits).
inline constexpr unsigned cube_hdr_bits = 64;
inline constexpr unsigned cube_req_bits = 48;

// tsr_pkg's CubeArbLowestId / CubeArbRoundRobin.
enum class cube_arb : std::uint8_t { lowest_id = 0, round_robin = 1 };

struct cube_hdr {
  std::uint16_t src = 0;
  std::uint16_t dst = 0;
  std::uint16_t seq = 0;
  std::uint16_t len = 0;
};

inline cube_hdr unpack_hdr(std::uint64_t w) {
  cube_hdr h;
  h.len = static_cast<std::uint16_t>(w & 0xffffU);
  h.seq = static_cast<std::uint16_t>((w >> 16) & 0xffffU);
  h.dst = static_cast<std::uint16_t>((w >> 32) & 0xffffU);
  h.src = static_cast<std::uint16_t>((w >> 48) & 0xffffU);
  return h;
}

inline std::uint64_t pack_req(std::uint16_t dst, std::uint16_t seq, std::uint16_t len) {
  return (std::uint64_t{dst} << 32) | (std::uint64_t{seq} << 16) | std::uint64_t{len};
}

}  // namespace tessera::rtl_tops
