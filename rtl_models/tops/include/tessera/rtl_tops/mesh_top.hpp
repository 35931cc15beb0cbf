#pragma once

// The Verilated wormhole meshes (rtl_models/rtl/tsr_mesh_top.sv), their limits
// (limits.hpp) and the run-time shape a user of them works in: an R x C mesh runs in the
// top-left corner of a model, where XY routing keeps every packet, and the other tiles
// stay idle; so does an R x C torus on a model built with the wraparound links, which
// close its rings there. Users speak in tile ids of the R x C mesh (row-major); mesh_shape maps
// them onto the model's tiles.
//
// The models' tile and link ports carry a flit's control word in a 32-bit lane
// (rx_ctl_o, link_ctl_o, inject_ctl_o), which mesh_ctl below reads field by field. The
// models have the same ports; the widths that depend on the tiles and the VCs differ, so
// every per-tile vector goes through set_mask(), mask() and lane() (pins.hpp).
#include <cstdint>
#include <type_traits>

#include <Vtsr_mesh_4x4_vc4.h>
// A development or coverage build may verilate the 4 x 4 alone (TESSERA_RTL_ONLY,
// rtl_models/rtl/CMakeLists.txt); its users then say the 8 x 8 models are not built.
#if __has_include(<Vtsr_mesh_8x8.h>) && __has_include(<Vtsr_mesh_8x8_vc4.h>)
#include <Vtsr_mesh_8x8.h>
#include <Vtsr_mesh_8x8_vc4.h>
#define TESSERA_RTL_MESH_8X8 1
#else
#define TESSERA_RTL_MESH_8X8 0
#endif
#include <verilated.h>

#include "tessera/rtl_tops/limits.hpp"
#include "tessera/rtl_tops/mesh_check.hpp"
#include "tessera/rtl_tops/pins.hpp"

namespace tessera::rtl_tops {

inline constexpr unsigned mesh_ports = 5;  // east, west, south, north, local
inline constexpr unsigned mesh_local = 4;
// Payload bits of a flit in every model (tsr_mesh_top FlitWidth, rtl_models/rtl CMake).
inline constexpr unsigned mesh_flit_bits = 32;

// A flit's control word, tsr_pkg::mesh_ctl_t (rtl_models/rtl/tsr_pkg.sv), as the models'
// *_ctl_o lanes carry it in their low 29 bits: {head, tail, odd, vc[1:0], dst.row[5:0],
// dst.col[5:0], src.row[5:0], src.col[5:0]}, the first field the most significant. The
// testbenches' checks of every flit's source, destination and VC hold this layout to the
// RTL's.
struct mesh_ctl {
  explicit mesh_ctl(std::uint64_t word)
      : head((word >> 28 & 1U) != 0),
        tail((word >> 27 & 1U) != 0),
        vc(static_cast<unsigned>(word >> 24 & 3U)),
        dst_row(static_cast<unsigned>(word >> 18 & 63U)),
        dst_col(static_cast<unsigned>(word >> 12 & 63U)),
        src_row(static_cast<unsigned>(word >> 6 & 63U)),
        src_col(static_cast<unsigned>(word & 63U)) {}
  bool head;
  bool tail;
  unsigned vc;
  unsigned dst_row;
  unsigned dst_col;
  unsigned src_row;
  unsigned src_col;
};

// A Verilated mesh top: its model class and its limits.
template <class Model, const mesh_top_limits& Limits>
struct mesh_top {
  using model = Model;
  static constexpr const mesh_top_limits& limits = Limits;
  static constexpr unsigned rows = Limits.rows;
  static constexpr unsigned cols = Limits.cols;
  static constexpr unsigned vcs = Limits.vcs;
  static constexpr unsigned buffer = Limits.buffer;
  static constexpr unsigned max_pipeline = Limits.max_pipeline;
  static constexpr unsigned max_credit_delay = Limits.max_credit_delay;
  static constexpr bool traced = Limits.traced;
  static constexpr const char* name = Limits.model.data();
  // What the ports reveal of the limits: a per-tile vector holds the tiles' elements
  // (a Verilated vector is stored in whole words, so at least as many bits), and the
  // stall vector mesh_ports x VCs bits per tile; the payload vector mesh_flit_bits per tile.
  static_assert(sizeof(Model::msg_flits_i) * 8 >= 16 * Limits.rows * Limits.cols &&
                sizeof(Model::msg_flits_i) * 8 < 16 * Limits.rows * Limits.cols + 32);
  static_assert(sizeof(Model::stall_o) * 8 >= mesh_ports * Limits.vcs * Limits.rows * Limits.cols &&
                sizeof(Model::stall_o) * 8 <
                    mesh_ports * Limits.vcs * Limits.rows * Limits.cols + 64);
  static_assert(sizeof(Model::data_i) * 8 >= mesh_flit_bits * Limits.rows * Limits.cols &&
                sizeof(Model::data_i) * 8 < mesh_flit_bits * Limits.rows * Limits.cols + 32);
};

using mesh_top_4x4_vc4 = mesh_top<Vtsr_mesh_4x4_vc4, mesh_4x4_vc4>;
#if TESSERA_RTL_MESH_8X8
using mesh_top_8x8 = mesh_top<Vtsr_mesh_8x8, mesh_8x8>;
using mesh_top_8x8_vc4 = mesh_top<Vtsr_mesh_8x8_vc4, mesh_8x8_vc4>;
#endif

// The run-time inputs of tsr_mesh_top, loaded during reset.
struct mesh_settings {
  unsigned alpha = 0;
  unsigned inject_gap = 1;
  unsigned router_delay = 1;
  unsigned pipeline = 1;      // pipeline_i, 1..16
  unsigned credit_delay = 1;  // credit_delay_i, 1..16
  unsigned vcs = 1;
  unsigned depth = 4;
  // routing_i: tsr_pkg's MeshRoute* code, 0..6 (xy, yx, o1turn, west-first, north-last,
  // negative-first, odd-even: net::mesh_routing's values).
  unsigned routing = 0;
  // wrap_i: a torus of rows x cols (rows_i, cols_i) in the model's top-left corner.
  bool wrap = false;
  unsigned rows = 1;
  unsigned cols = 1;
};

template <class Model>
void apply(Model& m, const mesh_settings& s) {
  m.alpha_i = static_cast<std::uint16_t>(s.alpha);
  m.inject_gap_i = static_cast<std::uint16_t>(s.inject_gap);
  m.router_delay_i = static_cast<std::uint8_t>(s.router_delay);
  m.pipeline_i = static_cast<std::uint8_t>(s.pipeline);
  m.credit_delay_i = static_cast<std::uint8_t>(s.credit_delay);
  m.vcs_i = static_cast<std::uint8_t>(s.vcs);
  m.depth_i = static_cast<std::uint16_t>(s.depth);
  m.routing_i = static_cast<std::uint8_t>(s.routing);
  m.wrap_i = s.wrap ? 1 : 0;
  m.rows_i = static_cast<std::uint8_t>(s.rows);
  m.cols_i = static_cast<std::uint8_t>(s.cols);
}

// An R x C mesh, or torus (wrap), in the top-left corner of a model with model_cols
// columns.
struct mesh_shape {
  unsigned rows = 4;
  unsigned cols = 4;
  unsigned model_cols = mesh_max_side;
  bool wrap = false;

  unsigned tiles() const { return rows * cols; }
  unsigned row(unsigned t) const { return t / cols; }
  unsigned col(unsigned t) const { return t % cols; }
  unsigned at(unsigned row, unsigned col) const { return row * cols + col; }
  // The model's tile for tile t of this mesh.
  unsigned phys(unsigned t) const { return row(t) * model_cols + col(t); }
  // Links an XY route from a to b crosses (the Manhattan distance; on a torus the
  // shorter way round each ring).
  unsigned hops(unsigned a, unsigned b) const {
    unsigned dr = row(a) > row(b) ? row(a) - row(b) : row(b) - row(a);
    unsigned dc = col(a) > col(b) ? col(a) - col(b) : col(b) - col(a);
    if (wrap) {
      dr = dr < rows - dr ? dr : rows - dr;
      dc = dc < cols - dc ? dc : cols - dc;
    }
    return dr + dc;
  }
  // The output an XY router at `at` takes towards `dst` (tsr_mesh_route; on a torus the
  // shorter way round, east or south on a tie).
  unsigned xy_port(unsigned at, unsigned dst) const {
    if (col(dst) != col(at)) {
      if (!wrap) return col(dst) > col(at) ? 0 : 1;
      return 2 * ((col(dst) + cols - col(at)) % cols) <= cols ? 0 : 1;
    }
    if (row(dst) != row(at)) {
      if (!wrap) return row(dst) > row(at) ? 2 : 3;
      return 2 * ((row(dst) + rows - row(at)) % rows) <= rows ? 2 : 3;
    }
    return mesh_local;
  }
  // The tile the link out of t's port (0..3) leads to (round the ring on a torus).
  unsigned neighbour(unsigned t, unsigned port) const {
    switch (port) {
      case 0:
        return at(row(t), (col(t) + 1) % cols);
      case 1:
        return at(row(t), (col(t) + cols - 1) % cols);
      case 2:
        return at((row(t) + 1) % rows, col(t));
      default:
        return at((row(t) + rows - 1) % rows, col(t));
    }
  }
};

// The flit on ejection port `phys` of the model, in the tile ids of the shape.
template <class Model>
mesh_flit rx_flit(const Model& m, unsigned phys, const mesh_shape& s) {
  mesh_flit f;
  const mesh_ctl c(lane<32>(m.rx_ctl_o, phys));
  f.head = c.head;
  f.tail = c.tail;
  f.vc = c.vc;
  f.src = s.at(c.src_row, c.src_col);
  f.dst = s.at(c.dst_row, c.dst_col);
  f.data = static_cast<std::uint32_t>(lane<mesh_flit_bits>(m.rx_data_o, phys));
  return f;
}

}  // namespace tessera::rtl_tops
