// Spanning trees of a torus rooted at any tile, as parent arrays, for the pipelined
// broadcast of 002_99346807104d0b95.txt (Bermond, Michallon, Trystram). Freestanding:
// the caller owns the arrays (one entry per tile; parent[root] = root).
//
// The checks here are written independently of the builders so tests can hold every
// builder to them: a tree is a spanning tree of the fabric when every tile reaches
// the root by parent steps along links, and trees are edge-disjoint when no two use
// the same undirected link.
#pragma once

#include <cstdint>
#include <span>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::fw {

inline constexpr std::uint32_t no_parent = 0xffffffffU;

// §2.2, "a first solution": the root's column ring, then every row ring, each ring
// covered from its source both ways round (half each way; on an even ring the far
// tile hangs off the positive side), so the depth is floor(R/2) + floor(C/2) = D, the
// diameter. Works on any torus (and on a ring, as 1 x C). False when the fabric is not
// a torus or ring, the root is off it, or `parent` is too small.
constexpr bool single_tree(const fabric& f, std::uint32_t root, std::span<std::uint32_t> parent) {
  if (f.kind != fabric_kind::torus && f.kind != fabric_kind::ring) return false;
  const std::uint32_t p = f.tiles();
  if (root >= p || parent.size() < p) return false;
  const std::uint32_t rows = f.kind == fabric_kind::ring ? 1 : f.rows;
  const std::uint32_t cols = f.cols;
  const std::uint32_t r0 = root / cols;
  const std::uint32_t c0 = root % cols;
  for (std::uint32_t t = 0; t < p; ++t) {
    const std::uint32_t r = t / cols;
    const std::uint32_t c = t % cols;
    if (c != c0) {
      const std::uint32_t dc = (c + cols - c0) % cols;  // steps the positive way
      const std::uint32_t pc = dc <= cols / 2 ? (c + cols - 1) % cols : (c + 1) % cols;
      parent[t] = r * cols + pc;
    } else if (r != r0) {
      const std::uint32_t dr = (r + rows - r0) % rows;
      const std::uint32_t pr = dr <= rows / 2 ? (r + rows - 1) % rows : (r + 1) % rows;
      parent[t] = pr * cols + c;
    } else {
      parent[t] = t;
    }
  }
  return true;
}

// ---- checks ----

// The output port of `from` whose link leads to `to`, or no_parent.
constexpr std::uint32_t port_towards(const fabric& f, std::uint32_t from, std::uint32_t to) {
  for (std::uint32_t port = 0; port < f.ports(); ++port) {
    const auto n = neighbour(f, tile_id{from}, port);
    if (n && n->value() == to) return port;
  }
  return no_parent;
}

// The depth of a spanning tree (edges on the longest root path), or no_parent when
// `parent` is not one: a tile that does not reach the root within p steps, a parent
// that is not a neighbour, or a root that is not its own parent.
constexpr std::uint32_t tree_depth(const fabric& f, std::uint32_t root,
                                   std::span<const std::uint32_t> parent) {
  const std::uint32_t p = f.tiles();
  if (root >= p || parent.size() < p || parent[root] != root) return no_parent;
  std::uint32_t depth = 0;
  for (std::uint32_t t = 0; t < p; ++t) {
    std::uint32_t at = t;
    std::uint32_t steps = 0;
    while (at != root) {
      const std::uint32_t up = parent[at];
      if (up >= p || up == at || port_towards(f, up, at) == no_parent) return no_parent;
      at = up;
      if (++steps > p) return no_parent;  // a cycle
    }
    if (steps > depth) depth = steps;
  }
  return depth;
}

// True when no undirected link carries edges of both trees (each tree's edges are
// child-parent pairs; a tree never uses a link twice).
constexpr bool edge_disjoint(const fabric& f, std::span<const std::uint32_t> a,
                             std::span<const std::uint32_t> b) {
  const std::uint32_t p = f.tiles();
  for (std::uint32_t x = 0; x < p; ++x) {
    if (a[x] == x) continue;
    for (std::uint32_t y = 0; y < p; ++y) {
      if (b[y] == y) continue;
      const bool same = (x == y && a[x] == b[y]) || (x == b[y] && a[x] == y);
      if (same) return false;
    }
  }
  return true;
}

}  // namespace tessera::fw
