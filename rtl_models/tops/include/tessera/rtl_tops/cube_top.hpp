#pragma once

// The Verilated circuit-switched 7-cube (rtl_models/rtl/tsr_cube_top.sv; cube_7 in
// limits.hpp); the words on its ports are cube_words.hpp's. Outputs per node: 0..D-1 the
// links across dimensions 0..D-1, D the ejection port. Inputs: 0..D-1 the links, D and
// D + 1 the local inputs of the network interface's two message slots (tsr_pkg
// CubeSlots).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <Vtsr_cube_7.h>
#include <verilated.h>

#include "tessera/rtl_tops/cube_words.hpp"
#include "tessera/rtl_tops/limits.hpp"
#include "tessera/rtl_tops/pins.hpp"

namespace tessera::rtl_tops {

using cube_model = Vtsr_cube_7;

inline constexpr unsigned cube_dims = cube_7.dims;
inline constexpr unsigned cube_tiles = 1U << cube_dims;
inline constexpr unsigned cube_ports = cube_dims + 1;  // outputs
inline constexpr unsigned cube_slots = cube_7.slots;   // local inputs
inline constexpr unsigned cube_inputs = cube_dims + cube_slots;
inline constexpr unsigned cube_local = cube_dims;               // the ejection port; slot 0's input
inline constexpr unsigned cube_data_width = cube_7.data_width;  // bits of an element

// Width of an output index on want_o (tsr_pkg::idx_width(Outs)).
inline constexpr unsigned cube_out_width =
    cube_ports > 1 ? static_cast<unsigned>(std::bit_width(cube_ports - 1)) : 1U;

// The ports are flat vectors (tsr_cube_top.sv): tile t's element at lane t, node t's
// output o at lane t * cube_ports + o, its input p at lane t * cube_inputs + p; read and
// written with pins.hpp's lane and set_lane. Verilator stores a vector of up to 64 bits
// in the smallest integer that holds it and a wider one in whole 32-bit words: the bits a
// port of `bits` bits takes.
constexpr std::size_t cube_stored_bits(std::size_t bits) {
  if (bits <= 8) return 8;
  if (bits <= 16) return 16;
  if (bits <= 32) return 32;
  if (bits <= 64) return 64;
  return (bits + 31) / 32 * 32;
}
template <class Port>
constexpr std::size_t cube_port_bits = sizeof(std::remove_reference_t<Port>) * 8;

// What the ports reveal of the limits: 16 bits of xi per tile, a wait bit per node input,
// an output index per node input, a data element per tile, a header per node output.
static_assert(cube_port_bits<decltype(cube_model::xi_i)> == cube_stored_bits(16 * cube_tiles));
static_assert(cube_port_bits<decltype(cube_model::wait_o)> ==
              cube_stored_bits(cube_tiles * cube_inputs));
static_assert(cube_port_bits<decltype(cube_model::want_o)> ==
              cube_stored_bits(cube_out_width * cube_tiles * cube_inputs));
static_assert(cube_port_bits<decltype(cube_model::tx_data_i)> ==
              cube_stored_bits(std::size_t{cube_data_width} * cube_tiles));
static_assert(cube_port_bits<decltype(cube_model::req_i)> ==
              cube_stored_bits(cube_req_bits * cube_tiles));
static_assert(cube_port_bits<decltype(cube_model::hold_hdr_o)> ==
              cube_stored_bits(cube_hdr_bits * cube_tiles * cube_ports));
static_assert(cube_port_bits<decltype(cube_model::want_hdr_o)> ==
              cube_stored_bits(cube_hdr_bits * cube_tiles * cube_inputs));

// Header i of a flat header port (rx_hdr_o, hold_hdr_o, want_hdr_o), unpacked. Read as
// two 32-bit lanes: pins.hpp's lane<64> does not compile under -Werror (its mask shift is
// instantiated for Width 64 too).
template <class Field>
cube_hdr cube_hdr_at(const Field& f, unsigned i) {
  static_assert(cube_hdr_bits == 64);
  return unpack_hdr(lane<32>(f, 2 * i) | (lane<32>(f, 2 * i + 1) << 32));
}

// Lanes wider than 64 bits cannot be read with lane: the data element must fit.
static_assert(cube_data_width <= 64);

}  // namespace tessera::rtl_tops
