#pragma once

// The two Verilated wormhole meshes (rtl_models/rtl/tsr_mesh_top.sv; their compile-time
// parameters are in rtl_models/rtl/CMakeLists.txt and repeated below) and the run-time
// shape a test uses: an R x C mesh runs in the top-left corner of the model, where XY
// routing keeps every packet, and the other tiles stay idle. Tests speak in tile ids of
// the R x C mesh (row-major); mesh_shape maps them onto the model's tiles.
//
// The models' tile ports carry the flit field by field (rx_head_o, rx_vc_o,
// rx_src_row_o, ...), so nothing here mirrors the flit's bit layout. Both models have
// the same ports; the widths that depend on the tiles and the VCs differ (Verilator
// gives a 16-tile vector 16 bits, a 64-tile one 64), so every vector goes through
// set_mask() and mask().
#include <cstdint>

#include <Vtsr_mesh_4x4_vc4.h>
#include <Vtsr_mesh_8x8.h>
#include <verilated.h>

namespace tessera::tb {

inline constexpr unsigned mesh_max_side = 8;  // the largest model's Rows and Cols
inline constexpr unsigned mesh_max_tiles = mesh_max_side * mesh_max_side;
inline constexpr unsigned mesh_ports = 5;  // east, west, south, north, local
inline constexpr unsigned mesh_local = 4;
inline constexpr unsigned mesh_max_vcs = 4;  // tsr_pkg::MeshMaxVcs

// 8 x 8, VCs 1, BufferDepth 8: the plain wormhole router (--model 8x8, the default);
// depth 1..8 at run time.
struct mesh_dut_8x8 {
  using model = Vtsr_mesh_8x8;
  static constexpr const char* name = "Vtsr_mesh_8x8";
  static constexpr unsigned rows = 8;    // Rows
  static constexpr unsigned cols = 8;    // Cols
  static constexpr unsigned vcs = 1;     // VCs
  static constexpr unsigned buffer = 8;  // BufferDepth
  static constexpr bool traced = false;  // built without FST tracing (rtl_models/rtl)
};

// 4 x 4, VCs 4, BufferDepth 8 (--model 4x4_vc4): every vcs 1..4 and depth 1..8 at run
// time, for the VC tests and the delta preset (mesh:4x4, 2 VCs); --trace runs on it.
struct mesh_dut_4x4_vc4 {
  using model = Vtsr_mesh_4x4_vc4;
  static constexpr const char* name = "Vtsr_mesh_4x4_vc4";
  static constexpr unsigned rows = 4;
  static constexpr unsigned cols = 4;
  static constexpr unsigned vcs = 4;
  static constexpr unsigned buffer = 8;
  static constexpr bool traced = true;  // built with FST tracing (when TESSERA_RTL_TRACE)
};

// A per-tile bit vector of the model, whatever width Verilator gave it.
template <class Field>
void set_mask(Field& field, std::uint64_t v) {
  field = static_cast<Field>(v);
}
template <class Field>
std::uint64_t mask(Field v) {
  return static_cast<std::uint64_t>(v);
}

// The run-time inputs of tsr_mesh_top, loaded during reset.
struct mesh_settings {
  unsigned alpha = 0;
  unsigned inject_gap = 1;
  unsigned router_delay = 1;
  unsigned vcs = 1;
  unsigned depth = 4;
};

template <class Model>
void apply(Model& m, const mesh_settings& s) {
  m.alpha_i = static_cast<std::uint16_t>(s.alpha);
  m.inject_gap_i = static_cast<std::uint16_t>(s.inject_gap);
  m.router_delay_i = static_cast<std::uint8_t>(s.router_delay);
  m.vcs_i = static_cast<std::uint8_t>(s.vcs);
  m.depth_i = static_cast<std::uint16_t>(s.depth);
}

// An R x C mesh in the top-left corner of a model with model_cols columns.
struct mesh_shape {
  unsigned rows = 4;
  unsigned cols = 4;
  unsigned model_cols = mesh_max_side;

  unsigned tiles() const { return rows * cols; }
  unsigned row(unsigned t) const { return t / cols; }
  unsigned col(unsigned t) const { return t % cols; }
  unsigned at(unsigned row, unsigned col) const { return row * cols + col; }
  // The model's tile for tile t of this mesh.
  unsigned phys(unsigned t) const { return row(t) * model_cols + col(t); }
  // Links an XY route from a to b crosses (the Manhattan distance).
  unsigned hops(unsigned a, unsigned b) const {
    const unsigned dr = row(a) > row(b) ? row(a) - row(b) : row(b) - row(a);
    const unsigned dc = col(a) > col(b) ? col(a) - col(b) : col(b) - col(a);
    return dr + dc;
  }
  // The output an XY router at `at` takes towards `dst` (tsr_mesh_route).
  unsigned xy_port(unsigned at, unsigned dst) const {
    if (col(dst) > col(at)) return 0;
    if (col(dst) < col(at)) return 1;
    if (row(dst) > row(at)) return 2;
    if (row(dst) < row(at)) return 3;
    return mesh_local;
  }
};

// One flit on a tile's receive port, in the tile ids of the shape.
struct mesh_flit {
  bool head = false;
  bool tail = false;
  unsigned vc = 0;
  unsigned src = 0;
  unsigned dst = 0;
  std::uint32_t data = 0;
};

template <class Field>
bool bit(Field v, unsigned i) {
  return ((mask(v) >> i) & 1U) != 0;
}

template <class Model>
mesh_flit rx_flit(const Model& m, unsigned phys, const mesh_shape& s) {
  mesh_flit f;
  f.head = bit(m.rx_head_o, phys);
  f.tail = bit(m.rx_tail_o, phys);
  f.vc = m.rx_vc_o[phys];
  f.src = s.at(m.rx_src_row_o[phys], m.rx_src_col_o[phys]);
  f.dst = s.at(m.rx_dst_row_o[phys], m.rx_dst_col_o[phys]);
  f.data = m.rx_data_o[phys];
  return f;
}

}  // namespace tessera::tb
