// Deterministic routing on every fabric, as directed links.
//
// mesh:RxC   XY: along the row (X = column) to the destination column, then along
//            the column (Y = row). Ids are row-major: tile = row * C + col.
// torus:RxC  dimension order, X then Y, each the shorter way round. Tie rule: when
//            both ways are equally long (distance exactly half an even ring) the
//            route goes the positive way (east, south).
// ring:P     the shorter way round; the same tie rule (positive = +1).
// hypercube  e-cube: correct the differing address bits lowest first (Bokhari §2,
//            Boppana §3.1).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"

namespace tessera {

// Port numbers on 2D fabrics (mesh, torus).
enum class port2d : std::uint32_t { east = 0, west = 1, south = 2, north = 3 };
// Port numbers on rings.
enum class port_ring : std::uint32_t { plus = 0, minus = 1 };

struct link_ends {
  tile_id from;
  tile_id to;
};

constexpr link_id make_link(const fabric& f, tile_id t, std::uint32_t port) {
  return link_id{t.value() * f.ports() + port};
}
constexpr tile_id link_source(const fabric& f, link_id l) {
  return tile_id{l.value() / f.ports()};
}
constexpr std::uint32_t link_port(const fabric& f, link_id l) {
  return l.value() % f.ports();
}

// The tile reached through `port`, if that port has a link (mesh edges have none).
constexpr std::optional<tile_id> neighbour(const fabric& f, tile_id t, std::uint32_t port) {
  const std::uint32_t id = t.value();
  switch (f.kind) {
    case fabric_kind::hypercube:
      if (port >= f.dim) return std::nullopt;
      return tile_id{id ^ (std::uint32_t{1} << port)};
    case fabric_kind::ring: {
      const std::uint32_t p = f.cols;
      if (port == 0) return tile_id{(id + 1) % p};
      if (port == 1) return tile_id{(id + p - 1) % p};
      return std::nullopt;
    }
    case fabric_kind::mesh:
    case fabric_kind::torus: {
      const bool wrap = f.kind == fabric_kind::torus;
      const std::uint32_t r = id / f.cols;
      const std::uint32_t c = id % f.cols;
      switch (static_cast<port2d>(port)) {
        case port2d::east:
          if (c + 1 < f.cols) return tile_id{id + 1};
          if (wrap && f.cols > 1) return tile_id{r * f.cols};
          return std::nullopt;
        case port2d::west:
          if (c > 0) return tile_id{id - 1};
          if (wrap && f.cols > 1) return tile_id{r * f.cols + f.cols - 1};
          return std::nullopt;
        case port2d::south:
          if (r + 1 < f.rows) return tile_id{id + f.cols};
          if (wrap && f.rows > 1) return tile_id{c};
          return std::nullopt;
        case port2d::north:
          if (r > 0) return tile_id{id - f.cols};
          if (wrap && f.rows > 1) return tile_id{(f.rows - 1) * f.cols + c};
          return std::nullopt;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

constexpr bool link_exists(const fabric& f, link_id l) {
  if (l.value() >= f.link_slots()) return false;
  return neighbour(f, link_source(f, l), link_port(f, l)).has_value();
}

constexpr link_ends endpoints(const fabric& f, link_id l) {
  const tile_id from = link_source(f, l);
  return {from, neighbour(f, from, link_port(f, l)).value_or(from)};
}

// Upper bound on the hops of any route: the size a route buffer needs.
constexpr std::uint32_t max_hops(const fabric& f) {
  switch (f.kind) {
    case fabric_kind::mesh:
      return (f.rows - 1) + (f.cols - 1);
    case fabric_kind::torus:
      return f.rows / 2 + f.cols / 2;
    case fabric_kind::ring:
      return f.cols / 2;
    case fabric_kind::hypercube:
      return f.dim;
  }
  return 0;
}

namespace detail {
// Steps along one ring dimension of size n from a to b: the count and whether the
// positive way is taken (the shorter way; positive on a tie).
struct ring_walk {
  std::uint32_t hops;
  bool positive;
};
constexpr ring_walk ring_direction(std::uint32_t a, std::uint32_t b, std::uint32_t n) {
  const std::uint32_t fwd = (b + n - a) % n;
  const std::uint32_t back = (n - fwd) % n;
  if (fwd <= back) return {fwd, true};
  return {back, false};
}
}  // namespace detail

// The order in which a mesh or torus route takes its dimensions: columns first (XY, every
// fabric's default) or rows first (YX, the wormhole mesh's routing=yx).
enum class dim_order : std::uint8_t { xy, yx };

// Calls visit(link_id) for each directed link of the route src -> dst in order; meshes and
// tori take their dimensions in `order`.
template <typename Visit>
constexpr void for_each_hop(const fabric& f, tile_id src, tile_id dst, Visit&& visit,
                            dim_order order = dim_order::xy) {
  std::uint32_t cur = src.value();
  const std::uint32_t to = dst.value();
  switch (f.kind) {
    case fabric_kind::hypercube: {
      for (std::uint32_t b = 0; b < f.dim; ++b) {
        if (((cur ^ to) >> b) & 1U) {
          visit(make_link(f, tile_id{cur}, b));
          cur ^= std::uint32_t{1} << b;
        }
      }
      return;
    }
    case fabric_kind::ring: {
      const auto w = detail::ring_direction(cur, to, f.cols);
      const std::uint32_t port = w.positive ? 0 : 1;
      for (std::uint32_t h = 0; h < w.hops; ++h) {
        visit(make_link(f, tile_id{cur}, port));
        cur = w.positive ? (cur + 1) % f.cols : (cur + f.cols - 1) % f.cols;
      }
      return;
    }
    case fabric_kind::mesh:
    case fabric_kind::torus: {
      const std::uint32_t c = f.cols;
      std::uint32_t row = cur / c;
      std::uint32_t col = cur % c;
      const std::uint32_t to_row = to / c;
      const std::uint32_t to_col = to % c;
      std::uint32_t col_hops = 0;
      bool east = true;
      std::uint32_t row_hops = 0;
      bool south = true;
      if (f.kind == fabric_kind::mesh) {
        east = to_col >= col;
        col_hops = east ? to_col - col : col - to_col;
        south = to_row >= row;
        row_hops = south ? to_row - row : row - to_row;
      } else {
        const auto wx = detail::ring_direction(col, to_col, c);
        const auto wy = detail::ring_direction(row, to_row, f.rows);
        col_hops = wx.hops;
        east = wx.positive;
        row_hops = wy.hops;
        south = wy.positive;
      }
      const auto x_port = static_cast<std::uint32_t>(east ? port2d::east : port2d::west);
      const auto y_port = static_cast<std::uint32_t>(south ? port2d::south : port2d::north);
      auto columns = [&] {
        for (std::uint32_t h = 0; h < col_hops; ++h) {
          visit(make_link(f, tile_id{row * c + col}, x_port));
          col = east ? (col + 1) % c : (col + c - 1) % c;
        }
      };
      auto rows = [&] {
        for (std::uint32_t h = 0; h < row_hops; ++h) {
          visit(make_link(f, tile_id{row * c + col}, y_port));
          row = south ? (row + 1) % f.rows : (row + f.rows - 1) % f.rows;
        }
      };
      if (order == dim_order::yx) {
        rows();
        columns();
      } else {
        columns();
        rows();
      }
      return;
    }
  }
}

// Writes the route into out (capacity max_hops(f)) and returns the hop count.
constexpr std::uint32_t route(const fabric& f, tile_id src, tile_id dst, std::span<link_id> out) {
  std::uint32_t n = 0;
  for_each_hop(f, src, dst, [&](link_id l) {
    if (n < out.size()) out[n] = l;
    ++n;
  });
  return n;
}

constexpr std::uint32_t distance(const fabric& f, tile_id a, tile_id b) {
  std::uint32_t n = 0;
  for_each_hop(f, a, b, [&](link_id) { ++n; });
  return n;
}

// Number of distinct neighbours (a 2-wide torus dimension reaches the same tile both ways).
constexpr std::uint32_t degree(const fabric& f, tile_id t) {
  std::uint32_t n = 0;
  for (std::uint32_t p = 0; p < f.ports(); ++p) {
    const auto nb = neighbour(f, t, p);
    if (!nb) continue;
    bool seen = false;
    for (std::uint32_t q = 0; q < p; ++q)
      seen = seen || neighbour(f, t, q) == nb;
    if (!seen) ++n;
  }
  return n;
}

}  // namespace tessera
