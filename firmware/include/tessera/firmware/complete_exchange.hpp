// Complete exchange (all-to-all personalized) as freestanding per-tile generators:
// given the algorithm, the fabric and my tile, yield my ops one at a time.
//
// Block (s, t) is the block tile s holds for tile t; its id is s * p + t.
//
// Sources (docs/references.md):
//   naive, linear, pairwise, stable, standard  Bokhari91 §4
//   pex, pex-gen, pex-gen-shift, gen           Thakur93 §3
//   ring, mesh                                 Grama slides 50-55
//   aap, aap-prime                             Boppana90 §3.2-3.3
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/firmware/bits.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"

namespace tessera::fw {

enum class a2a_algorithm : std::uint8_t {
  naive,          // Bokhari: step i, everyone sends to tile i
  linear,         // Bokhari: step i, send to (me + i) mod p
  pairwise,       // Bokhari/Seidel: step i, exchange with me XOR i
  pex,            // Thakur: the same schedule as pairwise, named for meshes
  pex_gen,        // Thakur: XOR schedule over q = 2^ceil(lg p), partners >= p skipped
  pex_gen_shift,  // Thakur: PEX-GEN on virtual ids shifted by (q - p) / 2
  gen,            // Thakur: step i, send to me + i, receive from me - i (= linear)
  stable,         // Bokhari: n steps with one idle slot, no link used in consecutive steps
  standard,       // Bokhari/Johnsson-Ho: log p exchanges of p/2 blocks, local shuffles
  ring,           // Grama: p - 1 steps around a logical ring, forwarding
  mesh,           // Grama: ring all-to-all in each row, then in each column
  aap,            // Boppana-Raghavendra: vector reversals in subcubes, phase by phase
  aap_prime,      // Boppana-Raghavendra (Ho): AAP with dual phases interleaved
};

enum class a2a_requirement : std::uint8_t { any, power_of_two, even, two_d };

struct a2a_info {
  a2a_algorithm alg;
  std::string_view name;
  a2a_requirement needs;
  std::string_view source;  // paper key and section (docs/references.md)
};

inline constexpr std::array<a2a_info, 13> a2a_algorithms{{
    {a2a_algorithm::naive, "naive", a2a_requirement::any, "Bokhari91 §4"},
    {a2a_algorithm::linear, "linear", a2a_requirement::any, "Bokhari91 §4.1"},
    {a2a_algorithm::pairwise, "pairwise", a2a_requirement::power_of_two, "Bokhari91 §4.1"},
    {a2a_algorithm::pex, "pex", a2a_requirement::power_of_two, "Thakur93 §3.1"},
    {a2a_algorithm::pex_gen, "pex-gen", a2a_requirement::any, "Thakur93 §3.2"},
    {a2a_algorithm::pex_gen_shift, "pex-gen-shift", a2a_requirement::any, "Thakur93 §3.3"},
    {a2a_algorithm::gen, "gen", a2a_requirement::any, "Thakur93 §3.4"},
    {a2a_algorithm::stable, "stable", a2a_requirement::even, "Bokhari91 §4.2"},
    {a2a_algorithm::standard, "standard", a2a_requirement::power_of_two, "Bokhari91 §4.3"},
    {a2a_algorithm::ring, "ring", a2a_requirement::any, "Grama slides 50-52"},
    {a2a_algorithm::mesh, "mesh", a2a_requirement::two_d, "Grama slides 53-55"},
    {a2a_algorithm::aap, "aap", a2a_requirement::power_of_two, "Boppana90 §3.2"},
    {a2a_algorithm::aap_prime, "aap-prime", a2a_requirement::power_of_two, "Boppana90 §3.3"},
}};

constexpr const a2a_info& info(a2a_algorithm a) {
  return a2a_algorithms[static_cast<std::size_t>(a)];
}

constexpr bool parse_a2a_algorithm(std::string_view name, a2a_algorithm& out) {
  for (const auto& i : a2a_algorithms) {
    if (i.name == name) {
      out = i.alg;
      return true;
    }
  }
  return false;
}

// Whether the algorithm is defined on this fabric (returns the unmet requirement).
constexpr bool a2a_supported(a2a_algorithm a, const fabric& f) {
  switch (info(a).needs) {
    case a2a_requirement::any:
      return true;
    case a2a_requirement::power_of_two:
      return is_pow2(f.tiles());
    case a2a_requirement::even:
      return f.tiles() % 2 == 0;
    case a2a_requirement::two_d:
      return f.is_2d();
  }
  return false;
}

constexpr block_id a2a_block(std::uint32_t src, std::uint32_t dst, std::uint32_t p) {
  return block_id{src * p + dst};
}

// Algorithms whose ops include exchanges (a send to and a receive from one peer), the
// ones a pair_sync can precede.
constexpr bool a2a_has_exchanges(a2a_algorithm alg) {
  switch (alg) {
    case a2a_algorithm::pairwise:
    case a2a_algorithm::pex:
    case a2a_algorithm::pex_gen:
    case a2a_algorithm::pex_gen_shift:
    case a2a_algorithm::standard:
    case a2a_algorithm::aap:
    case a2a_algorithm::aap_prime:
      return true;
    default:
      return false;
  }
}

// Yields one tile's ops. The caller supplies block buffers of max_blocks() ids each.
// Precondition: a2a_supported(alg, f).
class a2a_generator {
 public:
  // pair_sync: every exchange is preceded by a pair_sync op with the same peer in the
  // same step (Bokhari §5: two zero-byte messages make the exchange's transmit and
  // receive start together).
  constexpr a2a_generator(a2a_algorithm alg, const fabric& f, tile_id me, bool pair_sync = false)
      : alg_{alg},
        f_{f},
        me_{me.value()},
        p_{f.tiles()},
        q_{ceil_pow2(f.tiles())},
        pair_sync_{pair_sync} {}

  // The algorithm's number of rounds (Thakur's and Bokhari's "steps").
  [[nodiscard]] constexpr std::uint32_t rounds() const {
    switch (alg_) {
      case a2a_algorithm::naive:
      case a2a_algorithm::stable:
        return p_;
      case a2a_algorithm::pex_gen:
      case a2a_algorithm::pex_gen_shift:
        return q_ - 1;
      case a2a_algorithm::standard:
        return log2_exact(p_);
      case a2a_algorithm::mesh:
        return (f_.cols - 1) + (f_.rows - 1);
      default:
        return p_ - 1;
    }
  }

  // Largest number of block ids one op sends or receives.
  [[nodiscard]] constexpr std::uint32_t max_blocks() const {
    switch (alg_) {
      case a2a_algorithm::standard:
        return p_ / 2;
      case a2a_algorithm::ring:
        return p_ - 1;
      case a2a_algorithm::mesh: {
        const std::uint32_t row = f_.rows * (f_.cols - 1);
        const std::uint32_t col = f_.cols * (f_.rows - 1);
        return row > col ? row : col;
      }
      default:
        return 1;
    }
  }

  // Produces the next op; false when the tile's stream is over.
  constexpr bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (pair_sync_ && !synced_) {
      // Look at the next op on a copy; an exchange gets its pair_sync first.
      a2a_generator ahead = *this;
      ahead.pair_sync_ = false;
      if (!ahead.next(out, send, recv)) return false;
      if (out.kind == op_kind::exchange) {
        const std::uint32_t peer = out.to;
        const std::uint32_t step = out.step;
        out = op{};
        out.kind = op_kind::pair_sync;
        out.step = step;
        out.to = peer;
        synced_ = true;
        return true;
      }
    }
    synced_ = false;
    return next_op(out, send, recv);
  }

 private:
  constexpr bool next_op(op& out, std::span<block_id> send, std::span<block_id> recv) {
    out = op{};
    switch (alg_) {
      case a2a_algorithm::naive:
        return next_naive(out, send, recv);
      case a2a_algorithm::linear:
      case a2a_algorithm::gen:
        return next_linear(out, send, recv);
      case a2a_algorithm::pairwise:
      case a2a_algorithm::pex:
        if (k_ >= p_ - 1) return false;
        ++k_;
        return exchange(out, k_, me_ ^ k_, send, recv);
      case a2a_algorithm::pex_gen:
      case a2a_algorithm::pex_gen_shift:
        return next_pex_gen(out, send, recv);
      case a2a_algorithm::stable:
        return next_stable(out, send, recv);
      case a2a_algorithm::standard:
        return next_standard(out, send, recv);
      case a2a_algorithm::ring:
        return next_ring(out, send, recv);
      case a2a_algorithm::mesh:
        return next_mesh(out, send, recv);
      case a2a_algorithm::aap:
      case a2a_algorithm::aap_prime:
        return next_aap(out, send, recv);
    }
    return false;
  }

  // An op moving one block each way: mine for `to`, and `from`'s for me.
  constexpr bool one_block(op& out, op_kind kind, std::uint32_t step, std::uint32_t to,
                           std::uint32_t from, std::span<block_id> send,
                           std::span<block_id> recv) const {
    out.kind = kind;
    out.step = step;
    out.to = to;
    out.from = from;
    out.send_count = 1;
    out.recv_count = 1;
    send[0] = a2a_block(me_, to, p_);
    recv[0] = a2a_block(from, me_, p_);
    return true;
  }

  constexpr bool exchange(op& out, std::uint32_t step, std::uint32_t peer, std::span<block_id> send,
                          std::span<block_id> recv) const {
    return one_block(out, op_kind::exchange, step, peer, peer, send, recv);
  }

  // Bokhari's naive: for destination = 0 .. n-1 (skipping myself) send; all my
  // receives follow (on the iPSC they are posted up front; under the checker's
  // buffered semantics their order does not matter). Tile d is the target of round d+1.
  constexpr bool next_naive(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (k_ < p_ - 1) {
      const std::uint32_t dest = k_ < me_ ? k_ : k_ + 1;
      ++k_;
      out.kind = op_kind::send;
      out.step = dest + 1;
      out.to = dest;
      out.send_count = 1;
      send[0] = a2a_block(me_, dest, p_);
      return true;
    }
    if (k_ < 2 * (p_ - 1)) {
      const std::uint32_t j = k_ - (p_ - 1);
      const std::uint32_t src = j < me_ ? j : j + 1;
      ++k_;
      out.kind = op_kind::recv;
      out.step = me_ + 1;
      out.from = src;
      out.recv_count = 1;
      recv[0] = a2a_block(src, me_, p_);
      return true;
    }
    return false;
  }

  constexpr bool next_linear(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (k_ >= p_ - 1) return false;
    const std::uint32_t i = ++k_;
    return one_block(out, op_kind::sendrecv, i, (me_ + i) % p_, sub_mod(me_, i, p_), send, recv);
  }

  // Thakur Fig. 2 and Fig. 4. For the shift variant the virtual id is me + shift:
  // Fig. 3(b) numbers real tiles 0..19 as 6..25. The figure's mod(me + shift, p)
  // would fold tiles p - shift .. p - 1 onto 0 .. shift - 1 and break the pairing.
  constexpr bool next_pex_gen(op& out, std::span<block_id> send, std::span<block_id> recv) {
    const bool shifted = alg_ == a2a_algorithm::pex_gen_shift;
    const std::uint32_t shift = shifted ? (q_ - p_) / 2 : 0;
    const std::uint32_t virt = me_ + shift;
    while (j_ + 1 < q_) {
      const std::uint32_t j = ++j_;
      const std::uint32_t vdest = virt ^ j;
      if (vdest < shift) continue;  // dest = vdest - shift + q >= p: nobody there
      const std::uint32_t dest = vdest - shift;
      if (dest < p_) return exchange(out, j, dest, send, recv);
    }
    return false;
  }

  // Bokhari §4.2. Step i (0-based) of tile x sends to (2x + 1 + i) mod n for x < n/2
  // and (2x - n + i) mod n otherwise; the map is a permutation for even n, so the
  // sender to me is found by inverting it. I idle exactly when nobody sends to me.
  constexpr bool next_stable(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (k_ >= p_) return false;
    const std::uint32_t i = k_++;
    const std::uint32_t n = p_;
    const std::uint32_t dest = me_ < n / 2 ? (2 * me_ + 1 + i) % n : (2 * me_ - n + i) % n;
    if (dest == me_) {
      out.kind = op_kind::idle;
      out.step = i + 1;
      return true;
    }
    const std::uint32_t even = sub_mod(me_, i % n, n);  // 2s - n = me - i for s >= n/2
    const std::uint32_t src = even % 2 == 0 ? n / 2 + even / 2 : sub_mod(even, 1, n) / 2;
    return one_block(out, op_kind::sendrecv, i + 1, dest, src, send, recv);
  }

  // Bokhari §4.3: for j = d-1 downto 0 exchange with me XOR 2^j, then shuffle.
  // Before dimension j, tile x holds the blocks (s, t) whose s agrees with x in bits
  // 0..j and whose t agrees with x in bits j+1..d-1; it sends those with t_j != x_j.
  constexpr bool next_standard(op& out, std::span<block_id> send, std::span<block_id> recv) {
    const std::uint32_t d = log2_exact(p_);
    if (k_ >= 2 * d) return false;
    const std::uint32_t k = k_++;
    const std::uint32_t j = d - 1 - k / 2;
    out.step = k / 2 + 1;
    if (k % 2 == 1) {
      out.kind = op_kind::shuffle;
      out.count = p_;
      return true;
    }
    const std::uint32_t bit = std::uint32_t{1} << j;
    const std::uint32_t peer = me_ ^ bit;
    out.kind = op_kind::exchange;
    out.to = peer;
    out.from = peer;
    out.send_count = standard_blocks(me_, j, send);
    out.recv_count = standard_blocks(peer, j, recv);
    return true;
  }

  // The p/2 blocks tile x sends at dimension j, in ascending id order.
  constexpr std::uint32_t standard_blocks(std::uint32_t x, std::uint32_t j,
                                          std::span<block_id> out) const {
    const std::uint32_t d = log2_exact(p_);
    const std::uint32_t low = (std::uint32_t{1} << (j + 1)) - 1;  // bits 0..j
    const std::uint32_t t_fixed = (x & ~low) | ((x ^ (std::uint32_t{1} << j)) & (1U << j));
    std::uint32_t n = 0;
    for (std::uint32_t hi = 0; hi < (std::uint32_t{1} << (d - 1 - j)); ++hi) {
      const std::uint32_t s = (hi << (j + 1)) | (x & low);
      for (std::uint32_t lo = 0; lo < (std::uint32_t{1} << j); ++lo) {
        out[n++] = a2a_block(s, t_fixed | lo, p_);
      }
    }
    return n;
  }

  // Grama slide 50: step i forwards, to the right, the blocks of the tile i-1 places
  // to the left that are still in transit: those for me+1 .. me+p-i.
  constexpr bool next_ring(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (k_ >= p_ - 1) return false;
    const std::uint32_t i = ++k_;
    out.kind = op_kind::sendrecv;
    out.step = i;
    out.to = (me_ + 1) % p_;
    out.from = sub_mod(me_, 1, p_);
    const std::uint32_t src_out = sub_mod(me_, i - 1, p_);
    const std::uint32_t src_in = sub_mod(me_, i, p_);
    for (std::uint32_t k = 0; k < p_ - i; ++k) {
      send[k] = a2a_block(src_out, (me_ + 1 + k) % p_, p_);
      recv[k] = a2a_block(src_in, (me_ + k) % p_, p_);
    }
    out.send_count = p_ - i;
    out.recv_count = p_ - i;
    return true;
  }

  // Grama slides 53-55 on an R x C grid: a ring all-to-all along each row with the
  // blocks grouped by destination column (R per group), then along each column with
  // the blocks grouped by destination row (C per group).
  constexpr bool next_mesh(op& out, std::span<block_id> send, std::span<block_id> recv) {
    const std::uint32_t rows = f_.rows;
    const std::uint32_t cols = f_.cols;
    const std::uint32_t r = me_ / cols;
    const std::uint32_t c = me_ % cols;
    if (k_ >= (cols - 1) + (rows - 1)) return false;
    const std::uint32_t k = k_++;
    out.kind = op_kind::sendrecv;
    out.step = k + 1;
    std::uint32_t n_send = 0;
    std::uint32_t n_recv = 0;
    if (k < cols - 1) {
      const std::uint32_t i = k + 1;
      out.to = r * cols + (c + 1) % cols;
      out.from = r * cols + sub_mod(c, 1, cols);
      const std::uint32_t s_out = r * cols + sub_mod(c, i - 1, cols);
      const std::uint32_t s_in = r * cols + sub_mod(c, i, cols);
      for (std::uint32_t g = 0; g < cols - i; ++g) {
        for (std::uint32_t row = 0; row < rows; ++row) {
          send[n_send++] = a2a_block(s_out, row * cols + (c + 1 + g) % cols, p_);
          recv[n_recv++] = a2a_block(s_in, row * cols + (c + g) % cols, p_);
        }
      }
    } else {
      const std::uint32_t i = k - (cols - 1) + 1;
      out.to = ((r + 1) % rows) * cols + c;
      out.from = sub_mod(r, 1, rows) * cols + c;
      const std::uint32_t row_out = sub_mod(r, i - 1, rows);
      const std::uint32_t row_in = sub_mod(r, i, rows);
      for (std::uint32_t g = 0; g < rows - i; ++g) {
        for (std::uint32_t col = 0; col < cols; ++col) {
          send[n_send++] = a2a_block(row_out * cols + col, ((r + 1 + g) % rows) * cols + c, p_);
          recv[n_recv++] = a2a_block(row_in * cols + col, ((r + g) % rows) * cols + c, p_);
        }
      }
    }
    out.send_count = n_send;
    out.recv_count = n_recv;
    return true;
  }

  // Boppana §3.2: phase i (0 <= i < n) has C(n, i) steps; step (i, j) is a vector
  // reversal in the (n-i)-subcubes spanned by the j-th (n-i)-subset of dimensions in
  // lexicographic order, i.e. an exchange with me XOR mask. AAP' (§3.3) runs phase 0,
  // then interleaves phase i with its dual n-i: (i, j), (n-i, C(n,i)-1-j), (i, j+1) ...
  // The paper writes "1 < i"; its Q3 example starts at i = 1, which is what is used.
  constexpr bool next_aap(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (k_ >= p_ - 1) return false;
    const std::uint32_t k = k_++;
    const std::uint32_t n = log2_exact(p_);
    std::uint32_t phase = 0;
    std::uint64_t idx = 0;
    if (alg_ == a2a_algorithm::aap) {
      std::uint64_t rest = k;
      while (rest >= binomial(n, phase))
        rest -= binomial(n, phase++);
      idx = rest;
    } else {
      std::uint64_t rest = k;
      if (rest == 0) {
        phase = 0;
      } else {
        rest -= 1;
        std::uint32_t i = 1;
        for (; 2 * i < n; ++i) {  // i <= floor((n-1)/2)
          const std::uint64_t ni = binomial(n, i);
          if (rest < 2 * ni) break;
          rest -= 2 * ni;
        }
        const std::uint64_t ni = binomial(n, i);
        const std::uint64_t j = rest / 2;
        if (rest % 2 == 0) {
          phase = i;
          idx = j;
        } else {
          phase = n - i;
          idx = ni - 1 - j;
        }
      }
    }
    const std::uint32_t mask = unrank_subset(n, n - phase, idx);
    return exchange(out, k + 1, me_ ^ mask, send, recv);
  }

  a2a_algorithm alg_;
  fabric f_;
  std::uint32_t me_;
  std::uint32_t p_;
  std::uint32_t q_;
  std::uint32_t k_{0};  // ops produced so far
  std::uint32_t j_{0};  // PEX-GEN loop variable
  bool pair_sync_{false};
  bool synced_{false};  // the pair_sync of the next exchange was produced
};

}  // namespace tessera::fw
