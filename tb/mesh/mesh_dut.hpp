#pragma once

// The Verilated 4 x 4 wormhole mesh (rtl_models/rtl/tsr_mesh_top.sv with Rows = Cols = 4,
// FlitWidth = 32, BufferDepth = 4, RouterDelay = 1; rtl_models/rtl/CMakeLists.txt) and
// the bit layout of its flits, kept next to tsr_pkg.sv's mesh_ctl_t:
//   flit (66 bits): head [65], tail [64], dst [63:48], src [47:32], data [31:0]
//   mesh_ctl_t (34 bits, front_o): head [33], tail [32], dst [31:16], src [15:0]
#include <cstdint>

#include <Vtsr_mesh_4x4.h>
#include <verilated.h>

namespace tessera::tb {

inline constexpr unsigned mesh_rows = 4;
inline constexpr unsigned mesh_cols = 4;
inline constexpr unsigned mesh_tiles = mesh_rows * mesh_cols;
inline constexpr unsigned mesh_buffer = 4;        // BufferDepth
inline constexpr unsigned mesh_router_delay = 1;  // RouterDelay (r)
inline constexpr unsigned mesh_ports = 5;         // east, west, south, north, local
inline constexpr unsigned mesh_local = 4;

using mesh_model = Vtsr_mesh_4x4;

struct mesh_flit {
  bool head = false;
  bool tail = false;
  unsigned dst = 0;
  unsigned src = 0;
  std::uint32_t data = 0;
};

template <class Wide>
mesh_flit get_flit(const Wide& w) {
  mesh_flit f;
  f.data = w[0];
  f.src = w[1] & 0xffffU;
  f.dst = (w[1] >> 16) & 0xffffU;
  f.tail = (w[2] & 1U) != 0;
  f.head = (w[2] & 2U) != 0;
  return f;
}

inline mesh_flit get_ctl(std::uint64_t c) {
  mesh_flit f;
  f.src = static_cast<unsigned>(c & 0xffffU);
  f.dst = static_cast<unsigned>((c >> 16) & 0xffffU);
  f.tail = ((c >> 32) & 1U) != 0;
  f.head = ((c >> 33) & 1U) != 0;
  return f;
}

inline unsigned mesh_row(unsigned t) {
  return t / mesh_cols;
}
inline unsigned mesh_col(unsigned t) {
  return t % mesh_cols;
}
// Links an XY route from a to b crosses (the Manhattan distance).
inline unsigned mesh_hops(unsigned a, unsigned b) {
  const unsigned dr =
      mesh_row(a) > mesh_row(b) ? mesh_row(a) - mesh_row(b) : mesh_row(b) - mesh_row(a);
  const unsigned dc =
      mesh_col(a) > mesh_col(b) ? mesh_col(a) - mesh_col(b) : mesh_col(b) - mesh_col(a);
  return dr + dc;
}
// The output an XY router at `at` takes towards `dst` (tsr_mesh_router's route()).
inline unsigned mesh_xy_port(unsigned at, unsigned dst) {
  if (mesh_col(dst) > mesh_col(at)) return 0;
  if (mesh_col(dst) < mesh_col(at)) return 1;
  if (mesh_row(dst) > mesh_row(at)) return 2;
  if (mesh_row(dst) < mesh_row(at)) return 3;
  return mesh_local;
}

}  // namespace tessera::tb
