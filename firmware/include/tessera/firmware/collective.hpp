// The catalog of collectives and their algorithms: names, what each needs of the
// fabric, and the default per topology (docs/collectives.md).
//
// Sources (Grama, slide numbers):
//   bcast / reduce 7-21, allgather / reduce-scatter 22-34, allreduce and prefix
//   37-41, scatter / gather 42-45, alltoall 46-63, shift 64-69, scatter+allgather 70-71.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tessera/firmware/bits.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/reduce.hpp"

namespace tessera::fw {

enum class collective : std::uint8_t {
  bcast,           // one-to-all broadcast
  reduce,          // all-to-one reduction
  allgather,       // all-to-all broadcast
  reduce_scatter,  // all-to-all reduction
  allreduce,
  prefix,  // prefix sum (scan, inclusive)
  scatter,
  gather,
  alltoall,  // all-to-all personalized (complete exchange)
  shift,     // circular q-shift
};

struct collective_info {
  collective kind;
  std::string_view name;
  bool rooted;     // takes --root
  bool reduction;  // combines typed elements
};

inline constexpr std::array<collective_info, 10> collectives{{
    {collective::bcast, "bcast", true, false},
    {collective::reduce, "reduce", true, true},
    {collective::allgather, "allgather", false, false},
    {collective::reduce_scatter, "reduce-scatter", false, true},
    {collective::allreduce, "allreduce", false, true},
    {collective::prefix, "prefix", false, true},
    {collective::scatter, "scatter", true, false},
    {collective::gather, "gather", true, false},
    {collective::alltoall, "alltoall", false, false},
    {collective::shift, "shift", false, false},
}};

constexpr const collective_info& info(collective c) {
  return collectives[static_cast<std::size_t>(c)];
}

constexpr bool parse_collective(std::string_view s, collective& out) {
  for (const auto& c : collectives) {
    if (c.name == s) {
      out = c.kind;
      return true;
    }
  }
  return false;
}

// Algorithms of the textbook collectives (alltoall uses a2a_algorithm).
enum class tb_algorithm : std::uint8_t {
  binomial,            // recursive doubling / halving on virtual ids (slides 7-21, 42-45)
  mesh,                // row phase then column phase (slides 12-13, 27-29, 53-55, 65-66)
  hypercube,           // dimension exchange (slides 30-32, 39-41, 56-58)
  ring,                // logical ring (slides 24-26, 50-52, 64)
  scatter_allgather,   // bcast as scatter + allgather (slide 70)
  recursive_doubling,  // allreduce by dimension exchange of whole vectors (slide 37)
  reduce_bcast,        // allreduce as reduce then bcast (slide 37, "not the most efficient")
  linear,              // prefix sum along a chain
  direct,              // shift: one message to tile + q
  powers_of_two,       // shift: one phase per power of two in q (slides 67-69)
  rs_gather,           // reduce as reduce-scatter + gather (slide 70)
  rs_allgather,        // allreduce as reduce-scatter + all-gather (slide 71)
  // bcast pipelined on edge-disjoint spanning trees of a torus (Bermond92, edst_bcast.hpp)
  edst_single,
  edst_saad_schultz,
  edst_simmen,
  edst_3d2,
  edst_optimal,
};

enum class fabric_need : std::uint8_t { any, power_of_two, two_d, torus };

struct tb_algorithm_info {
  collective coll;
  tb_algorithm alg;
  std::string_view name;
  fabric_need needs;
};

inline constexpr std::array<tb_algorithm_info, 30> tb_algorithms{{
    {collective::bcast, tb_algorithm::binomial, "binomial", fabric_need::any},
    {collective::bcast, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::bcast, tb_algorithm::scatter_allgather, "scatter-allgather", fabric_need::any},
    {collective::bcast, tb_algorithm::edst_single, "edst-single", fabric_need::torus},
    {collective::bcast, tb_algorithm::edst_saad_schultz, "edst-saad-schultz", fabric_need::torus},
    {collective::bcast, tb_algorithm::edst_simmen, "edst-simmen", fabric_need::torus},
    {collective::bcast, tb_algorithm::edst_3d2, "edst-3d2", fabric_need::torus},
    {collective::bcast, tb_algorithm::edst_optimal, "edst-optimal", fabric_need::torus},
    {collective::reduce, tb_algorithm::binomial, "binomial", fabric_need::any},
    {collective::reduce, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::reduce, tb_algorithm::rs_gather, "reduce-scatter-gather", fabric_need::any},
    {collective::allgather, tb_algorithm::ring, "ring", fabric_need::any},
    {collective::allgather, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::allgather, tb_algorithm::hypercube, "hypercube", fabric_need::power_of_two},
    {collective::reduce_scatter, tb_algorithm::ring, "ring", fabric_need::any},
    {collective::reduce_scatter, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::reduce_scatter, tb_algorithm::hypercube, "hypercube", fabric_need::power_of_two},
    {collective::allreduce, tb_algorithm::recursive_doubling, "recursive-doubling",
     fabric_need::power_of_two},
    {collective::allreduce, tb_algorithm::ring, "ring", fabric_need::any},
    {collective::allreduce, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::allreduce, tb_algorithm::reduce_bcast, "reduce-bcast", fabric_need::any},
    {collective::allreduce, tb_algorithm::rs_allgather, "reduce-scatter-allgather",
     fabric_need::any},
    {collective::prefix, tb_algorithm::hypercube, "hypercube", fabric_need::power_of_two},
    {collective::prefix, tb_algorithm::linear, "linear", fabric_need::any},
    {collective::scatter, tb_algorithm::binomial, "binomial", fabric_need::any},
    {collective::gather, tb_algorithm::binomial, "binomial", fabric_need::any},
    {collective::shift, tb_algorithm::ring, "ring", fabric_need::any},
    {collective::shift, tb_algorithm::mesh, "mesh", fabric_need::two_d},
    {collective::shift, tb_algorithm::powers_of_two, "powers-of-two", fabric_need::any},
    {collective::shift, tb_algorithm::direct, "direct", fabric_need::any},
}};

constexpr bool parse_tb_algorithm(collective c, std::string_view s, tb_algorithm& out) {
  for (const auto& a : tb_algorithms) {
    if (a.coll == c && a.name == s) {
      out = a.alg;
      return true;
    }
  }
  return false;
}

constexpr std::string_view tb_algorithm_name(tb_algorithm a) {
  for (const auto& i : tb_algorithms) {
    if (i.alg == a) return i.name;
  }
  return "?";
}

constexpr fabric_need needs(collective c, tb_algorithm a) {
  for (const auto& i : tb_algorithms) {
    if (i.coll == c && i.alg == a) return i.needs;
  }
  return fabric_need::any;
}

constexpr bool fabric_meets(fabric_need n, const fabric& f) {
  switch (n) {
    case fabric_need::any:
      return true;
    case fabric_need::power_of_two:
      return is_pow2(f.tiles());
    case fabric_need::two_d:
      return f.is_2d();
    case fabric_need::torus:
      return f.kind == fabric_kind::torus;
  }
  return false;
}

// The tree family of an edst broadcast; false for the other algorithms.
constexpr bool edst_family(tb_algorithm a, tree_family& out) {
  switch (a) {
    case tb_algorithm::edst_single:
      out = tree_family::single;
      return true;
    case tb_algorithm::edst_saad_schultz:
      out = tree_family::saad_schultz;
      return true;
    case tb_algorithm::edst_simmen:
      out = tree_family::simmen;
      return true;
    case tb_algorithm::edst_3d2:
      out = tree_family::bermond_3d2;
      return true;
    case tb_algorithm::edst_optimal:
      out = tree_family::bermond_optimal;
      return true;
    default:
      return false;
  }
}

// The algorithm a collective uses on a fabric when none is named.
constexpr tb_algorithm default_algorithm(collective c, const fabric& f) {
  const bool cube = f.kind == fabric_kind::hypercube;
  const bool grid = f.is_2d();
  switch (c) {
    case collective::bcast:
    case collective::reduce:
      return grid ? tb_algorithm::mesh : tb_algorithm::binomial;
    case collective::allgather:
    case collective::reduce_scatter:
      return cube ? tb_algorithm::hypercube : grid ? tb_algorithm::mesh : tb_algorithm::ring;
    case collective::allreduce:
      return cube   ? tb_algorithm::recursive_doubling
             : grid ? tb_algorithm::mesh
                    : tb_algorithm::ring;
    case collective::prefix:
      return is_pow2(f.tiles()) ? tb_algorithm::hypercube : tb_algorithm::linear;
    case collective::scatter:
    case collective::gather:
      return tb_algorithm::binomial;
    case collective::shift:
      return cube ? tb_algorithm::powers_of_two : grid ? tb_algorithm::mesh : tb_algorithm::ring;
    case collective::alltoall:
      break;
  }
  return tb_algorithm::ring;
}

constexpr a2a_algorithm default_a2a_algorithm(const fabric& f) {
  if (f.kind == fabric_kind::hypercube) return a2a_algorithm::pairwise;  // slides 59-63
  return f.is_2d() ? a2a_algorithm::mesh : a2a_algorithm::ring;
}

// Everything a tile needs to know about the collective it runs.
struct collective_params {
  collective coll{collective::bcast};
  tb_algorithm alg{tb_algorithm::binomial};  // all but alltoall
  a2a_algorithm a2a{a2a_algorithm::pairwise};
  fabric f{};
  std::uint32_t root{0};
  std::uint32_t bytes{0};  // Grama's m: the message each tile contributes or gets
  elem_type type{elem_type::u32};
  reduce_op rop{reduce_op::sum};
  std::uint32_t shift{1};    // q of the circular shift
  std::uint32_t packets{1};  // q of an edst broadcast: packets per tree
  bool pair_sync{false};     // alltoall: a pair_sync before every exchange (Bokhari §5)
};

// The one lookup of an algorithm's name: complete exchange's table for alltoall, the
// textbook table for every other collective. Sets c.a2a or c.alg; false when the
// collective has no algorithm of that name.
constexpr bool parse_algorithm(std::string_view name, collective_params& c) {
  return c.coll == collective::alltoall ? parse_a2a_algorithm(name, c.a2a)
                                        : parse_tb_algorithm(c.coll, name, c.alg);
}

// The name of the collective's algorithm in c.
constexpr std::string_view algorithm_name(const collective_params& c) {
  return c.coll == collective::alltoall ? info(c.a2a).name : tb_algorithm_name(c.alg);
}

// Every algorithm of the collective, in table order, each given to `f` by name.
template <typename F>
constexpr void for_each_algorithm(collective k, F&& f) {
  if (k == collective::alltoall) {
    for (const auto& a : a2a_algorithms)
      f(a.name);
    return;
  }
  for (const auto& a : tb_algorithms)
    if (a.coll == k) f(a.name);
}

// Whether a collective is an edst broadcast, and its family.
constexpr bool is_edst(const collective_params& c, tree_family& fam) {
  return c.coll == collective::bcast && edst_family(c.alg, fam);
}

}  // namespace tessera::fw
