// The routing functions of the wormhole mesh (docs/wormhole.md, "Routing"): which outputs
// a head flit may take at a router, and which of them it asks for. The flit engine, the
// closed form (dimension order only) and tsr_mesh_route (RTL) apply these rules; the
// enum's values are tsr_pkg's MeshRoute* codes.
//
// Ports by direction of travel: E (column + 1), W (column - 1), S (row + 1), N (row - 1),
// then the local port. Every routing is minimal: a head only ever moves towards its
// destination, inside the rectangle spanned by its source and destination.
//   xy              columns first, then rows (Thakur93's mesh);
//   yx              rows first, then columns;
//   o1turn          XY or YX per packet, on separate VC classes (Seo et al., "Near-optimal
//                   worst-case throughput routing for two-dimensional mesh networks",
//                   2005): a tile's packets alternate, its even-numbered ones XY on the
//                   lower VC class, its odd-numbered ones YX on the upper (BookSim draws
//                   the choice at random; alternating keeps the TLM and the RTL equal);
//   west_first      all westward hops first, then E, S and N adaptively (Glass and Ni's
//                   turn model: no turn into W);
//   north_last      northward hops last: E, W and S adaptively, then N (no turn out of N);
//   negative_first  W and N (the negative directions) adaptively first, then E and S (no
//                   turn from E or S into W or N);
//   odd_even        Chiu's odd-even turn model: no E->N or E->S turn in an even column,
//                   no N->W or S->W turn in an odd column.
// Selection among two allowed outputs (select()): the one with more credits left over the
// VCs in use behind it; a tie goes to the column direction (E or W).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tessera::net {

enum class mesh_routing : std::uint8_t {
  xy,
  yx,
  o1turn,
  west_first,
  north_last,
  negative_first,
  odd_even
};

// The parameter's values (`--param routing=...`), in the enum's order.
constexpr std::array<std::string_view, 7> mesh_routing_names{
    "xy", "yx", "o1turn", "west-first", "north-last", "negative-first", "odd-even"};

// Output ports as the routers number them.
namespace mesh_port {
constexpr std::uint32_t east = 0;
constexpr std::uint32_t west = 1;
constexpr std::uint32_t south = 2;
constexpr std::uint32_t north = 3;
constexpr std::uint32_t local = 4;
}  // namespace mesh_port

// Deterministic: one path per source and destination (o1turn: per packet class).
[[nodiscard]] constexpr bool oblivious(mesh_routing r) {
  return r == mesh_routing::xy || r == mesh_routing::yx || r == mesh_routing::o1turn;
}

// A tile's place, column and row.
struct mesh_place {
  std::uint32_t col{0};
  std::uint32_t row{0};
};

// The outputs a head may take: at most one column port (E or W) and one row port (S or
// N), or the local port alone at the destination.
struct mesh_choice {
  std::uint32_t col_port{mesh_port::local};  // E or W, or local when not allowed
  std::uint32_t row_port{mesh_port::local};  // S or N, or local when not allowed
  [[nodiscard]] constexpr bool two() const {
    return col_port != mesh_port::local && row_port != mesh_port::local;
  }
  [[nodiscard]] constexpr std::uint32_t only() const {
    return col_port != mesh_port::local ? col_port : row_port;
  }
};

// The allowed outputs at `here` of a head from src to dst; `yx_class` is the packet's
// o1turn class (odd-numbered at its source), ignored by the other routings.
// `in_source_column`: the head is still in its source's column (here.col == src.col), all
// that odd-even reads of the source.
[[nodiscard]] constexpr mesh_choice allowed_in_column(mesh_routing r, mesh_place here,
                                                      mesh_place dst, bool in_source_column,
                                                      bool yx_class) {
  const std::uint32_t cp = dst.col > here.col   ? mesh_port::east
                           : dst.col < here.col ? mesh_port::west
                                                : mesh_port::local;
  const std::uint32_t rp = dst.row > here.row   ? mesh_port::south
                           : dst.row < here.row ? mesh_port::north
                                                : mesh_port::local;
  constexpr std::uint32_t none = mesh_port::local;
  const bool col_done = cp == none;
  const bool row_done = rp == none;
  if (col_done || row_done) return {cp, rp};  // one way left (or none: local)
  switch (r) {
    case mesh_routing::xy:
      return {cp, none};
    case mesh_routing::yx:
      return {none, rp};
    case mesh_routing::o1turn:
      return yx_class ? mesh_choice{none, rp} : mesh_choice{cp, none};
    case mesh_routing::west_first:
      return cp == mesh_port::west ? mesh_choice{cp, none} : mesh_choice{cp, rp};
    case mesh_routing::north_last:
      return rp == mesh_port::north ? mesh_choice{cp, none} : mesh_choice{cp, rp};
    case mesh_routing::negative_first:
      if (cp == mesh_port::west && rp == mesh_port::north) return {cp, rp};
      if (cp == mesh_port::west) return {cp, none};
      if (rp == mesh_port::north) return {none, rp};
      return {cp, rp};
    case mesh_routing::odd_even: {
      const bool odd = (here.col & 1U) != 0;
      if (cp == mesh_port::east) {
        const bool turn = odd || in_source_column;
        const bool on = (dst.col & 1U) != 0 || dst.col - here.col != 1;
        return {on ? cp : none, turn ? rp : none};
      }
      return {cp, odd ? none : rp};
    }
  }
  return {cp, none};
}

[[nodiscard]] constexpr mesh_choice allowed(mesh_routing r, mesh_place here, mesh_place dst,
                                            mesh_place src, bool yx_class) {
  return allowed_in_column(r, here, dst, here.col == src.col, yx_class);
}

// The output a head asks for among the allowed ones: with two, the one with more
// credits left (col_credits, row_credits: summed over the VCs in use behind each), a tie
// to the column port.
[[nodiscard]] constexpr std::uint32_t select(mesh_choice c, std::uint64_t col_credits,
                                             std::uint64_t row_credits) {
  if (!c.two()) return c.only();
  return row_credits > col_credits ? c.row_port : c.col_port;
}

// The VCs of a class on a link among the vcs in use (vcs >= 2): class 0 the lower
// vcs / 2, class 1 the rest. O1TURN's classes (0 XY packets, 1 YX ones) and the torus's
// dateline classes (torus_class) split the VCs so; `split` says whether the run has
// classes. The ejection, and every other routing on a mesh, lets a head take any VC.
[[nodiscard]] constexpr bool vc_in_class(bool split, bool upper_class, std::uint32_t v,
                                         std::uint32_t vcs) {
  if (!split) return true;
  return upper_class == (v >= vcs / 2);
}

// ---- The wormhole torus (docs/wormhole.md, "The wormhole torus") -------------------------
// A torus:RxC is the mesh with wraparound links: E out of the last column enters the
// first, S out of the last row enters the first, and back. Routing is dimension order
// (xy or yx), each ring the shorter way round, the positive way (E, S) when both are
// equally long (runtime/routing.hpp's tie rule).
//
// Deadlock freedom by dateline classes (Dally and Seitz, "Deadlock-free message routing
// in multiprocessor interconnection networks", 1987): in each ring a packet takes a VC of
// class 0 until it crosses that ring's wraparound link, the dateline, and class 1 on the
// wraparound link and after it; it starts again in class 0 when it turns into the other
// dimension. A minimal route crosses a ring's dateline at most once, so neither class's
// channels of one ring close a cycle of waits, and dimension order orders the rings.

// The way a ring of n positions is travelled from a to b: +1 (E or S), -1 (W or N), or 0
// when a == b; the shorter way, +1 on a tie.
[[nodiscard]] constexpr int ring_way(std::uint32_t a, std::uint32_t b, std::uint32_t n) {
  if (a == b) return 0;
  const std::uint32_t plus = b > a ? b - a : b + n - a;
  return 2 * plus <= n ? 1 : -1;
}

// The outputs a head from src to dst may take at `here` of a torus of `cols` x `rows`
// under dimension order r (xy or yx; the other routings are refused on a torus): one
// port, or the local port at the destination.
[[nodiscard]] constexpr mesh_choice torus_allowed(mesh_routing r, mesh_place here, mesh_place dst,
                                                  std::uint32_t cols, std::uint32_t rows) {
  const int cw = ring_way(here.col, dst.col, cols);
  const int rw = ring_way(here.row, dst.row, rows);
  const std::uint32_t cp = cw > 0 ? mesh_port::east : cw < 0 ? mesh_port::west : mesh_port::local;
  const std::uint32_t rp = rw > 0 ? mesh_port::south : rw < 0 ? mesh_port::north : mesh_port::local;
  constexpr std::uint32_t none = mesh_port::local;
  if (cp == none || rp == none) return {cp, rp};
  return r == mesh_routing::yx ? mesh_choice{none, rp} : mesh_choice{cp, none};
}

// The dateline class of the VC a head from src takes on link output `port` at `here`: 1
// when that link is its ring's wraparound link or the packet crossed it before in this
// dimension. Dimension order changes a column only in the column phase, which starts at
// src.col, so going E the packet has wrapped exactly when the next column is below
// src.col (W: above it); rows alike. The local port has no class (0).
[[nodiscard]] constexpr bool torus_class(std::uint32_t port, mesh_place here, mesh_place src,
                                         std::uint32_t cols, std::uint32_t rows) {
  switch (port) {
    case mesh_port::east:
      return (here.col + 1 == cols ? 0 : here.col + 1) < src.col;
    case mesh_port::west:
      return (here.col == 0 ? cols - 1 : here.col - 1) > src.col;
    case mesh_port::south:
      return (here.row + 1 == rows ? 0 : here.row + 1) < src.row;
    case mesh_port::north:
      return (here.row == 0 ? rows - 1 : here.row - 1) > src.row;
    default:
      return false;
  }
}

}  // namespace tessera::net
