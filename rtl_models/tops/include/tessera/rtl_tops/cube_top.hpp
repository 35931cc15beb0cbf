#pragma once

// The Verilated circuit-switched 7-cube (rtl_models/rtl/tsr_cube_top.sv; cube_7 in
// limits.hpp); the words on its ports are cube_words.hpp's. Outputs per node: 0..D-1 the
// links across dimensions 0..D-1, D the ejection port. Inputs: 0..D-1 the links, D and
// D + 1 the local inputs of the network interface's two message slots (tsr_pkg
// CubeSlots).
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
inline constexpr unsigned cube_local = cube_dims;  // the ejection port; slot 0's input

// What the ports reveal of the limits: a tile per entry, a wait bit per input.
static_assert(std::extent_v<std::remove_reference_t<decltype(cube_model::xi_i)>> == cube_tiles);
static_assert(std::extent_v<std::remove_reference_t<decltype(cube_model::want_o)>, 1> ==
              cube_inputs);
static_assert(
    sizeof(std::remove_extent_t<std::remove_reference_t<decltype(cube_model::tx_data_i)>>) * 8 ==
    cube_7.data_width);

}  // namespace tessera::rtl_tops
