#pragma once

// The Verilated store-and-forward tori (rtl_models/rtl/tsr_torus_top.sv): Vtsr_torus_4x4
// and Vtsr_torus_8x8 and their limits (limits.hpp). The words on their ports are
// torus_words.hpp's.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <Vtsr_torus_4x4.h>
// A development build may verilate the 4 x 4 alone (TESSERA_RTL_ONLY,
// rtl_models/rtl/CMakeLists.txt); its users then say the 8 x 8 is not built.
#if __has_include(<Vtsr_torus_8x8.h>)
#include <Vtsr_torus_8x8.h>
#define TESSERA_RTL_TORUS_8X8 1
#else
#define TESSERA_RTL_TORUS_8X8 0
#endif
#include <verilated.h>

#include "tessera/rtl_tops/limits.hpp"
#include "tessera/rtl_tops/pins.hpp"
#include "tessera/rtl_tops/torus_words.hpp"

namespace tessera::rtl_tops {

inline constexpr unsigned torus_ports = 5;  // east, west, south, north, local
inline constexpr unsigned torus_local = 4;
inline constexpr unsigned torus_links = 4;  // the link ports, 0 .. torus_local - 1

// Every torus top has the same parameters but its size: the engines and testbenches
// take them from torus_4x4.
constexpr bool same_but_size(const torus_top_limits& a, const torus_top_limits& b) {
  return a.buffers == b.buffers && a.max_packet_bytes == b.max_packet_bytes && a.trees == b.trees &&
         a.min_beta == b.min_beta && a.max_beta == b.max_beta && a.min_tau == b.min_tau &&
         a.max_tau == b.max_tau && a.max_message_bytes == b.max_message_bytes;
}
static_assert(same_but_size(torus_4x4, torus_8x8));
inline constexpr unsigned torus_buffers = torus_4x4.buffers;
inline constexpr unsigned torus_max_bytes = torus_4x4.max_packet_bytes;
inline constexpr unsigned torus_trees = torus_4x4.trees;

// A Verilated torus top: its model class and its limits.
template <class Model, const torus_top_limits& Limits>
struct torus_top {
  using model = Model;
  static constexpr const torus_top_limits& limits = Limits;
  static constexpr unsigned rows = Limits.rows;
  static constexpr unsigned cols = Limits.cols;
  static constexpr unsigned tiles = rows * cols;
  static constexpr bool traced = Limits.traced;
  static constexpr const char* name = Limits.model.data();
  // "4x4": the size as tb_torus --size and fabric strings write it.
  static constexpr const char* size = Limits.rows == 4 ? "4x4" : "8x8";
  static_assert(Limits.rows == Limits.cols && (Limits.rows == 4 || Limits.rows == 8));
  // What the ports reveal: flat vectors of an element per tile or per (tile, port),
  // Verilator's wide values of 32-bit words, as wide as the element widths of
  // torus_words.hpp say; MaxBytes bytes of data_i per tile.
  template <class Port>
  static constexpr bool holds_bits(std::size_t n) {
    return sizeof(std::remove_reference_t<Port>) == (n + 31) / 32 * 4;
  }
  static constexpr std::size_t per_tile = tiles;  // elements of a per-tile port
  static constexpr std::size_t per_port = std::size_t{tiles} * torus_ports;  // per (tile, port)
  static_assert(holds_bits<decltype(Model::data_i)>(per_tile * Limits.max_packet_bytes * 8));
  static_assert(holds_bits<decltype(Model::msg_i)>(per_tile * torus_msg_bits));
  static_assert(holds_bits<decltype(Model::data_offset_o)>(per_tile * 16));
  static_assert(holds_bits<decltype(Model::rx_o)>(per_tile * torus_link_bits));
  static_assert(holds_bits<decltype(Model::arrive_o)>(per_port));
  static_assert(holds_bits<decltype(Model::arrive_hdr_o)>(per_port * torus_hdr_bits));
  static_assert(holds_bits<decltype(Model::wait_o)>(per_port));
  static_assert(holds_bits<decltype(Model::wait_hdr_o)>(per_port * torus_hdr_bits));
  static_assert(holds_bits<decltype(Model::wait_ports_o)>(per_port * torus_ports));
  static_assert(holds_bits<decltype(Model::link_o)>(per_tile * torus_links * torus_link_bits));
};

using torus_top_4x4 = torus_top<Vtsr_torus_4x4, torus_4x4>;
#if TESSERA_RTL_TORUS_8X8
using torus_top_8x8 = torus_top<Vtsr_torus_8x8, torus_8x8>;
#endif

}  // namespace tessera::rtl_tops
