// What each tile holds before and after a collective, and the bytes of every
// block, so that every byte delivered can be checked against an independent
// definition (not against another run). Freestanding: the bare-metal self-test
// uses it as the host does.
//
// Data blocks carry a pattern keyed by block id and byte offset. Reduction blocks
// hold typed elements: tile t contributes value(t, e) at global element e, small
// integers so every sum is exact even in f32; the expected result folds the
// contributions with the same operator (integer sums wrap identically everywhere).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/edst_bcast.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/reduce.hpp"

namespace tessera::fw {

enum class content : std::uint8_t {
  data,     // pattern(id, byte)
  contrib,  // tile `tile`'s contribution
  fold,     // contributions of tiles 0 .. tile folded (tile = p - 1 for all)
};

struct block_desc {
  std::uint32_t id{0};
  std::uint32_t len{0};
  content kind{content::data};
  std::uint32_t tile{0};
  std::uint32_t elem0{0};  // global index of the block's first element
};

constexpr std::uint32_t mix32(std::uint32_t a, std::uint32_t b) {
  std::uint32_t x = a * 0x9E3779B1U ^ (b + 0x7F4A7C15U) * 0x85EBCA6BU;
  x ^= x >> 15;
  x *= 0x2C1B3C6DU;
  x ^= x >> 12;
  x *= 0x297A2D39U;
  x ^= x >> 15;
  return x;
}

constexpr std::byte data_byte(std::uint32_t block, std::uint32_t offset) {
  return static_cast<std::byte>(mix32(block, offset) & 0xffU);
}

// Tile t's element e, in [-500, 500) for signed and floating types, [0, 1000) otherwise.
constexpr std::int64_t contrib_value(std::uint32_t t, std::uint32_t e, elem_type type) {
  const auto v = static_cast<std::int64_t>(mix32(t + 0x51ED27U, e) % 1000U);
  return type == elem_type::u32 || type == elem_type::u64 ? v : v - 500;
}

namespace detail {

// __builtin_memcpy: an element copy inline even in the freestanding tile build (reduce.hpp).
template <typename T>
void put(std::byte* out, T v) {
  __builtin_memcpy(out, &v, sizeof v);
}

template <typename T>
void element(std::byte* out, const block_desc& b, std::uint32_t e, reduce_op o, elem_type type) {
  const std::uint32_t ge = b.elem0 + e;
  if (b.kind == content::contrib) {
    put(out, static_cast<T>(contrib_value(b.tile, ge, type)));
    return;
  }
  T acc = static_cast<T>(contrib_value(0, ge, type));
  for (std::uint32_t t = 1; t <= b.tile; ++t)
    acc = combine_elem(acc, static_cast<T>(contrib_value(t, ge, type)), o);
  put(out, acc);
}

}  // namespace detail

// Writes `n` bytes of block b starting at byte `from` (from and n element-aligned
// for reduction blocks).
inline void block_bytes(const block_desc& b, elem_type type, reduce_op o, std::uint32_t from,
                        std::span<std::byte> out) {
  if (b.kind == content::data) {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = data_byte(b.id, from + static_cast<std::uint32_t>(i));
    return;
  }
  const std::uint32_t eb = elem_bytes(type);
  for (std::size_t i = 0; i + eb <= out.size(); i += eb) {
    const std::uint32_t e = (from + static_cast<std::uint32_t>(i)) / eb;
    std::byte* at = out.data() + i;
    switch (type) {
      case elem_type::i32:
        detail::element<std::int32_t>(at, b, e, o, type);
        break;
      case elem_type::u32:
        detail::element<std::uint32_t>(at, b, e, o, type);
        break;
      case elem_type::i64:
        detail::element<std::int64_t>(at, b, e, o, type);
        break;
      case elem_type::u64:
        detail::element<std::uint64_t>(at, b, e, o, type);
        break;
      case elem_type::f32:
        detail::element<float>(at, b, e, o, type);
        break;
      case elem_type::f64:
        detail::element<double>(at, b, e, o, type);
        break;
    }
  }
}

// The holdings of a collective: which blocks each tile starts with and must end
// with. Precondition: the parameters were validated (see validate.hpp).
class layout {
 public:
  constexpr explicit layout(const collective_params& c) : c_{c}, p_{c.f.tiles()} {
    edst_ = is_edst(c, fam_);
  }

  // Every byte of every block fits a slot of this size.
  [[nodiscard]] constexpr std::uint32_t slot_bytes() const {
    if (piecewise()) return c_.bytes / p_ + (c_.bytes % p_ != 0 ? 1 : 0);
    if (edst_) return edst_packet_len(c_.bytes, info(fam_).trees, c_.packets, 0, 0);
    if (segmented()) return (elems() / p_ + (elems() % p_ != 0 ? 1 : 0)) * elem_bytes(c_.type);
    return c_.bytes;
  }

  // Whether a tile must end holding exactly its final blocks (data movement) or
  // may keep partial results besides them (reductions).
  [[nodiscard]] constexpr bool exact() const { return !info(c_.coll).reduction; }

  template <typename F>
  constexpr void initial(std::uint32_t t, F&& emit) const {
    const std::uint32_t m = c_.bytes;
    switch (c_.coll) {
      case collective::bcast:
        if (t == c_.root) message(emit);
        return;
      case collective::reduce:
      case collective::allreduce:
        if (segmented()) {
          for (std::uint32_t s = 0; s < p_; ++s)
            emit(segment(s, content::contrib, t));
          return;
        }
        emit(block_desc{0, m, content::contrib, t, 0});
        return;
      case collective::prefix:
        emit(block_desc{0, m, content::contrib, t, 0});
        return;
      case collective::reduce_scatter:
        for (std::uint32_t s = 0; s < p_; ++s)
          emit(block_desc{s, m, content::contrib, t, s * elems()});
        return;
      case collective::scatter:
        if (t != c_.root) return;
        for (std::uint32_t d = 0; d < p_; ++d)
          emit(data(d, m));
        return;
      case collective::allgather:
      case collective::gather:
      case collective::shift:
        emit(data(t, m));
        return;
      case collective::alltoall:
        for (std::uint32_t d = 0; d < p_; ++d)
          emit(data(t * p_ + d, m));
        return;
    }
  }

  template <typename F>
  constexpr void final_blocks(std::uint32_t t, F&& emit) const {
    const std::uint32_t m = c_.bytes;
    const std::uint32_t last = p_ - 1;
    switch (c_.coll) {
      case collective::bcast:
        message(emit);
        return;
      case collective::reduce:
        if (t != c_.root) return;
        [[fallthrough]];
      case collective::allreduce:
        if (segmented()) {
          for (std::uint32_t s = 0; s < p_; ++s)
            emit(segment(s, content::fold, last));
          return;
        }
        emit(block_desc{0, m, content::fold, last, 0});
        return;
      case collective::prefix:
        emit(block_desc{0, m, content::fold, t, 0});
        return;
      case collective::reduce_scatter:
        emit(block_desc{t, m, content::fold, last, t * elems()});
        return;
      case collective::scatter:
        emit(data(t, m));
        return;
      case collective::allgather:
        for (std::uint32_t s = 0; s < p_; ++s)
          emit(data(s, m));
        return;
      case collective::gather:
        if (t == c_.root) {
          for (std::uint32_t s = 0; s < p_; ++s)
            emit(data(s, m));
        }
        return;
      case collective::shift:
        emit(data((t + p_ - c_.shift % p_) % p_, m));
        return;
      case collective::alltoall:
        for (std::uint32_t s = 0; s < p_; ++s)
          emit(data(s * p_ + t, m));
        return;
    }
  }

  // Bytes of a piece of the scatter + all-gather broadcast: m split as evenly as
  // bytes allow (the first m mod p pieces are one byte longer).
  [[nodiscard]] constexpr std::uint32_t piece_len(std::uint32_t d) const {
    return c_.bytes / p_ + (d < c_.bytes % p_ ? 1 : 0);
  }

 private:
  // The broadcast message: one block, or p pieces for scatter + all-gather.
  template <typename F>
  constexpr void message(F&& emit) const {
    if (edst_) {
      // Tree k's packet j is block k q + j.
      const std::uint32_t d = info(fam_).trees;
      const std::uint32_t q = c_.packets;
      for (std::uint32_t k = 0; k < d; ++k)
        for (std::uint32_t j = 0; j < q; ++j)
          emit(data(k * q + j, edst_packet_len(c_.bytes, d, q, k, j)));
      return;
    }
    if (!piecewise()) {
      emit(data(0, c_.bytes));
      return;
    }
    for (std::uint32_t d = 0; d < p_; ++d)
      emit(data(d, piece_len(d)));
  }

  // Slides 70-71: a reduction in p segments of whole elements (the first E mod p
  // segments one element longer), segment s being reduced onto tile s.
  [[nodiscard]] constexpr bool segmented() const {
    return c_.alg == tb_algorithm::rs_gather || c_.alg == tb_algorithm::rs_allgather;
  }
  [[nodiscard]] constexpr block_desc segment(std::uint32_t s, content kind,
                                             std::uint32_t tile) const {
    const std::uint32_t base = elems() / p_;
    const std::uint32_t extra = elems() % p_;
    const std::uint32_t n = base + (s < extra ? 1 : 0);
    const std::uint32_t first = s * base + (s < extra ? s : extra);
    return block_desc{s, n * elem_bytes(c_.type), kind, tile, first};
  }

  [[nodiscard]] constexpr bool piecewise() const {
    return c_.coll == collective::bcast && c_.alg == tb_algorithm::scatter_allgather;
  }
  [[nodiscard]] constexpr std::uint32_t elems() const { return c_.bytes / elem_bytes(c_.type); }
  static constexpr block_desc data(std::uint32_t id, std::uint32_t len) {
    return block_desc{id, len, content::data, 0, 0};
  }

  collective_params c_;
  std::uint32_t p_;
  bool edst_{false};
  tree_family fam_{tree_family::single};
};

// Fills a tile's store with its initial blocks as layout l (this file's layout, or a
// contract's, contract.hpp) defines them; false if the store is too small.
template <typename Layout>
bool load_initial_of(const Layout& l, elem_type type, reduce_op rop, std::uint32_t t,
                     block_store& store) {
  bool ok = true;
  l.initial(t, [&](const block_desc& b) {
    std::span<std::byte> bytes;
    if (!ok || store.emplace(b.id, b.len, bytes) != block_store::put_result::ok) {
      ok = false;
      return;
    }
    block_bytes(b, type, rop, 0, bytes);
  });
  return ok;
}

inline bool load_initial(const collective_params& c, std::uint32_t t, block_store& store) {
  return load_initial_of(layout{c}, c.type, c.rop, t, store);
}

enum class mismatch_kind : std::uint8_t { none, missing, extra, length, bytes };

struct mismatch {
  mismatch_kind kind{mismatch_kind::none};
  std::uint32_t tile{0};
  std::uint32_t block{0};
  std::uint32_t offset{0};  // first differing byte
  std::uint32_t expected{0};
  std::uint32_t got{0};
};

// Compares a tile's final holdings with the layout; returns the first difference.
// expect(block, from, out) writes the expected bytes [from, from + out.size()) of a
// block; the default computes them from their definition (a fold over p tiles per
// element: a host with many tiles passes a memoizing one).
struct direct_expectation {
  elem_type type;
  reduce_op rop;
  void operator()(const block_desc& b, std::uint32_t from, std::span<std::byte> out) const {
    block_bytes(b, type, rop, from, out);
  }
};

template <typename Layout, typename Expect>
mismatch verify_holdings(const Layout& l, std::uint32_t t, block_store& store, Expect&& expect) {
  mismatch bad{};
  std::uint32_t wanted = 0;
  l.final_blocks(t, [&](const block_desc& b) {
    ++wanted;
    if (bad.kind != mismatch_kind::none) return;
    if (!store.contains(b.id)) {
      bad = {mismatch_kind::missing, t, b.id, 0, 0, 0};
      return;
    }
    const std::span<std::byte> got = store.find(b.id);
    if (got.size() != b.len) {
      bad = {mismatch_kind::length, t, b.id, 0, b.len, static_cast<std::uint32_t>(got.size())};
      return;
    }
    constexpr std::uint32_t chunk = 64;  // a multiple of every element size
    std::byte want[chunk];
    for (std::uint32_t at = 0; at < b.len; at += chunk) {
      const std::uint32_t n = b.len - at < chunk ? b.len - at : chunk;
      expect(b, at, std::span<std::byte>(want, n));
      for (std::uint32_t i = 0; i < n; ++i) {
        if (got[at + i] != want[i]) {
          bad = {mismatch_kind::bytes,
                 t,
                 b.id,
                 at + i,
                 std::to_integer<std::uint32_t>(want[i]),
                 std::to_integer<std::uint32_t>(got[at + i])};
          return;
        }
      }
    }
  });
  if (bad.kind == mismatch_kind::none && l.exact() && store.size() != wanted) {
    // Something is held that should not be: name it.
    store.for_each([&](std::uint32_t id, std::span<std::byte>) {
      if (bad.kind != mismatch_kind::none) return;
      bool is_wanted = false;
      l.final_blocks(t, [&](const block_desc& b) { is_wanted = is_wanted || b.id == id; });
      if (!is_wanted) bad = {mismatch_kind::extra, t, id, 0, 0, 0};
    });
  }
  return bad;
}

template <typename Expect>
mismatch verify_tile(const collective_params& c, std::uint32_t t, block_store& store,
                     Expect&& expect) {
  return verify_holdings(layout{c}, t, store, expect);
}

inline mismatch verify_tile(const collective_params& c, std::uint32_t t, block_store& store) {
  return verify_tile(c, t, store, direct_expectation{c.type, c.rop});
}

// The data bytes verify_tile compares on every tile: what a verified run has checked.
template <typename Layout>
std::uint64_t verified_bytes_of(const Layout& l, std::uint32_t tiles) {
  std::uint64_t n = 0;
  for (std::uint32_t t = 0; t < tiles; ++t)
    l.final_blocks(t, [&](const block_desc& b) { n += b.len; });
  return n;
}

inline std::uint64_t verified_bytes(const collective_params& c) {
  return verified_bytes_of(layout{c}, c.f.tiles());
}

}  // namespace tessera::fw
