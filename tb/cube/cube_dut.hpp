#pragma once

// The Verilated circuit-switched 7-cube (rtl_models/rtl/tsr_cube_top.sv with Dims = 7,
// DataWidth = 32; rtl_models/rtl/CMakeLists.txt) and the bit layout of the packed structs
// it exchanges, kept next to tsr_pkg.sv's definitions:
//   cube_hdr_t (64 bits): src [63:48], dst [47:32], seq [31:16], len [15:0]
//   cube_req_t (48 bits): dst [47:32], seq [31:16], len [15:0]
// Outputs per node: 0..6 the links across dimensions 0..6, 7 the ejection port. Inputs:
// 0..6 the links, 7 and 8 the local inputs of the network interface's two message
// slots (tsr_pkg CubeSlots).
#include <cstdint>

#include <Vtsr_cube_7.h>
#include <verilated.h>

namespace tessera::tb {

inline constexpr unsigned cube_dims = 7;
inline constexpr unsigned cube_tiles = 1U << cube_dims;
inline constexpr unsigned cube_ports = cube_dims + 1;  // outputs
inline constexpr unsigned cube_slots = 2;              // local inputs
inline constexpr unsigned cube_inputs = cube_dims + cube_slots;
inline constexpr unsigned cube_local = cube_dims;  // the ejection port; slot 0's input
inline constexpr unsigned cube_max_tau = 255;      // tau_i is 8 bits
inline constexpr unsigned cube_max_xi = 65535;     // xi_i is 16 bits
inline constexpr unsigned cube_max_len = 65535;    // len is 16 bits

using cube_model = Vtsr_cube_7;

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

}  // namespace tessera::tb
