// The collectives as per-tile op generators (Grama).
// A program is a cursor over (step, op within the step): every step is computed
// directly from the tile id, so a tile produces its stream in O(1) memory.
//
// Rooted algorithms use virtual ids: me XOR root on a hypercube (slide 19, so every
// partner is a neighbour), (me - root) mod p elsewhere (slide 8). Block ids are
// documented in docs/collectives.md; alltoall's are s*p+d as in complete_exchange.hpp.
#pragma once

#include <cstdint>
#include <span>

#include "tessera/firmware/bits.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/firmware/edst_bcast.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"

namespace tessera::fw {

constexpr std::uint32_t ceil_log2(std::uint32_t x) {
  std::uint32_t l = 0;
  while ((std::uint64_t{1} << l) < x)
    ++l;
  return l;
}

class collective_program {
 public:
  constexpr collective_program(const collective_params& c, tile_id me)
      : c_{c},
        me_{me.value()},
        p_{c.f.tiles()},
        rows_{c.f.is_2d() ? c.f.rows : 1},
        cols_{c.f.is_2d() ? c.f.cols : c.f.tiles()},
        a2a_{c.a2a, c.f, me, c.pair_sync} {
    if (is_edst(c, fam_)) {
      edst_ = true;
      tree_ = edst_program{fam_, c.f, c.root, me.value(), c.packets};
    }
  }

  // Pool slots for op_flag::async sends (an edst tile sends to up to four children
  // at once; two packets' worth keeps every port busy).
  [[nodiscard]] constexpr std::uint32_t async_slots() const { return edst_ ? 8 : 0; }

  // Largest number of blocks one op moves.
  [[nodiscard]] constexpr std::uint32_t max_blocks() const {
    if (c_.coll == collective::alltoall) return a2a_.max_blocks();
    if (edst_) return tree_.max_blocks();
    return p_ > 0 ? p_ : 1;
  }

  // Number of communication rounds (op.step runs from 1 to this).
  [[nodiscard]] constexpr std::uint32_t steps() const {
    const std::uint32_t lp = ceil_log2(p_);
    const std::uint32_t lr = ceil_log2(rows_);
    const std::uint32_t lc = ceil_log2(cols_);
    switch (c_.coll) {
      case collective::bcast:
        if (edst_) return edst_slots(fam_, c_.f, c_.packets) + 1;
        if (c_.alg == tb_algorithm::mesh) return lc + lr;
        if (c_.alg == tb_algorithm::scatter_allgather) return lp + allgather_steps();
        return lp;
      case collective::reduce:
        if (c_.alg == tb_algorithm::rs_gather) return allgather_steps() + lp;
        return c_.alg == tb_algorithm::mesh ? lr + lc : lp;
      case collective::allgather:
      case collective::reduce_scatter:
        return allgather_steps();
      case collective::allreduce:
        switch (c_.alg) {
          case tb_algorithm::recursive_doubling:
            return lp;
          case tb_algorithm::mesh:
            return (cols_ - 1) + (rows_ - 1);
          case tb_algorithm::reduce_bcast:
            return 2 * lp;
          case tb_algorithm::rs_allgather:
            return 2 * allgather_steps();
          default:
            return p_ - 1;
        }
      case collective::prefix:
        return c_.alg == tb_algorithm::hypercube ? lp : p_ - 1;
      case collective::scatter:
      case collective::gather:
        return lp;
      case collective::alltoall:
        return a2a_.rounds();
      case collective::shift:
        return shift_steps();
    }
    return 0;
  }

  constexpr bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    out = op{};
    if (c_.coll == collective::alltoall) {
      if (!a2a_.next(out, send, recv)) return false;
      // Nothing is sent twice in a complete exchange: forwarding frees the block.
      if (out.sends()) out.flags |= op_flag::release;
      return true;
    }
    if (edst_) return tree_.next(out, send, recv);
    const std::uint32_t n = steps();
    while (step_ < n) {
      if (op_in_step(step_, sub_++, out, send, recv)) {
        out.step = step_ + 1;
        return true;
      }
      ++step_;
      sub_ = 0;
    }
    return false;
  }

 private:
  // ---- shapes ------------------------------------------------------------------

  [[nodiscard]] constexpr std::uint32_t allgather_steps() const {
    switch (gather_alg()) {
      case tb_algorithm::hypercube:
        return log2_exact(p_);
      case tb_algorithm::mesh:
        return (cols_ - 1) + (rows_ - 1);
      default:
        return p_ - 1;
    }
  }

  // The composite algorithms of slides 70-71 use the fabric's own all-gather and
  // reduce-scatter for their all-to-all phases.
  [[nodiscard]] constexpr tb_algorithm gather_alg() const {
    if (c_.coll == collective::bcast || c_.alg == tb_algorithm::rs_gather ||
        c_.alg == tb_algorithm::rs_allgather)
      return default_algorithm(collective::allgather, c_.f);
    return c_.alg;
  }

  [[nodiscard]] constexpr bool cube() const { return c_.f.kind == fabric_kind::hypercube; }
  [[nodiscard]] constexpr std::uint32_t vid(std::uint32_t t) const {
    return cube() ? t ^ c_.root : sub_mod(t, c_.root, p_);
  }
  [[nodiscard]] constexpr std::uint32_t phys(std::uint32_t v) const {
    return cube() ? v ^ c_.root : (v + c_.root) % p_;
  }
  [[nodiscard]] constexpr std::uint32_t row() const { return me_ / cols_; }
  [[nodiscard]] constexpr std::uint32_t col() const { return me_ % cols_; }
  [[nodiscard]] constexpr std::uint32_t at(std::uint32_t r, std::uint32_t c) const {
    return r * cols_ + c;
  }

  // ---- op builders ---------------------------------------------------------------

  static constexpr bool one(op& o, op_kind k, std::uint32_t to, std::uint32_t from,
                            std::uint8_t flags) {
    o.kind = k;
    o.to = to;
    o.from = from;
    o.flags = flags;
    return true;
  }
  static constexpr bool send1(op& o, std::uint32_t to, std::uint32_t block,
                              std::span<block_id> send, std::uint8_t flags = 0) {
    send[0] = block_id{block};
    o.send_count = 1;
    return one(o, op_kind::send, to, no_tile, flags);
  }
  static constexpr bool recv1(op& o, std::uint32_t from, std::uint32_t block,
                              std::span<block_id> recv, std::uint8_t flags = 0) {
    recv[0] = block_id{block};
    o.recv_count = 1;
    return one(o, op_kind::recv, no_tile, from, flags);
  }
  static constexpr bool sendrecv1(op& o, std::uint32_t to, std::uint32_t sb, std::uint32_t from,
                                  std::uint32_t rb, std::span<block_id> send,
                                  std::span<block_id> recv, std::uint8_t flags = 0) {
    send[0] = block_id{sb};
    recv[0] = block_id{rb};
    o.send_count = 1;
    o.recv_count = 1;
    return one(o, to == from ? op_kind::exchange : op_kind::sendrecv, to, from, flags);
  }
  static constexpr bool combine1(op& o, std::uint32_t dst, std::uint32_t src,
                                 std::span<block_id> send, std::span<block_id> recv,
                                 std::uint8_t flags = 0) {
    send[0] = block_id{src};
    recv[0] = block_id{dst};
    o.send_count = 1;
    o.recv_count = 1;
    return one(o, op_kind::combine, no_tile, no_tile, flags);
  }

  // ---- dispatch ------------------------------------------------------------------

  constexpr bool op_in_step(std::uint32_t j, std::uint32_t sub, op& o, std::span<block_id> send,
                            std::span<block_id> recv) const {
    switch (c_.coll) {
      case collective::bcast:
        return bcast_op(j, sub, o, send, recv);
      case collective::reduce:
        return reduce_op_at(j, sub, o, send, recv);
      case collective::allgather:
        return sub == 0 && allgather_op(j, o, send, recv);
      case collective::reduce_scatter:
        return sub == 0 && reduce_scatter_op(j, o, send, recv);
      case collective::allreduce:
        return allreduce_op(j, sub, o, send, recv);
      case collective::prefix:
        return c_.alg == tb_algorithm::hypercube ? prefix_cube_op(j, sub, o, send, recv)
                                                 : prefix_linear_op(j, sub, o, send, recv);
      case collective::scatter:
      case collective::gather:
        return sub == 0 && scatter_or_gather(j, o, send, recv);
      case collective::shift:
        return sub == 0 && shift_op(j, o, send, recv);
      case collective::alltoall:
        break;
    }
    return false;
  }

  // ---- broadcast and reduction (slides 7-21) --------------------------------------

  // Level `bit` of a binomial broadcast among n virtual ids: v sends to v + bit or
  // receives from v - bit. Returns 1 for send, 2 for receive, 0 for neither.
  static constexpr int bcast_role(std::uint32_t v, std::uint32_t n, std::uint32_t bit) {
    if (v % (2 * bit) == 0 && v + bit < n) return 1;
    if (v % (2 * bit) == bit) return 2;
    return 0;
  }

  constexpr bool bcast_op(std::uint32_t j, std::uint32_t sub, op& o, std::span<block_id> send,
                          std::span<block_id> recv) const {
    if (sub != 0) return false;
    const std::uint32_t lp = ceil_log2(p_);
    if (c_.alg == tb_algorithm::binomial) {
      const std::uint32_t bit = std::uint32_t{1} << (lp - 1 - j);
      const std::uint32_t v = vid(me_);
      switch (bcast_role(v, p_, bit)) {
        case 1:
          return send1(o, phys(v + bit), 0, send);
        case 2:
          return recv1(o, phys(v - bit), 0, recv);
        default:
          return false;
      }
    }
    if (c_.alg == tb_algorithm::mesh) {
      const std::uint32_t rr = c_.root / cols_;
      const std::uint32_t rc = c_.root % cols_;
      const std::uint32_t lc = ceil_log2(cols_);
      if (j < lc) {  // along the root's row
        if (row() != rr) return false;
        const std::uint32_t bit = std::uint32_t{1} << (lc - 1 - j);
        const std::uint32_t v = sub_mod(col(), rc, cols_);
        switch (bcast_role(v, cols_, bit)) {
          case 1:
            return send1(o, at(rr, (v + bit + rc) % cols_), 0, send);
          case 2:
            return recv1(o, at(rr, (v - bit + rc) % cols_), 0, recv);
          default:
            return false;
        }
      }
      const std::uint32_t lr = ceil_log2(rows_);
      const std::uint32_t bit = std::uint32_t{1} << (lr - 1 - (j - lc));
      const std::uint32_t v = sub_mod(row(), rr, rows_);
      switch (bcast_role(v, rows_, bit)) {
        case 1:
          return send1(o, at((v + bit + rr) % rows_, col()), 0, send);
        case 2:
          return recv1(o, at((v - bit + rr) % rows_, col()), 0, recv);
        default:
          return false;
      }
    }
    // scatter_allgather: scatter the p pieces (piece d for tile d), then all-gather.
    if (j < lp) return scatter_op(j, o, send) || scatter_recv(j, o, recv);
    return allgather_op(j - lp, o, send, recv);
  }

  constexpr bool reduce_op_at(std::uint32_t j, std::uint32_t sub, op& o, std::span<block_id> send,
                              std::span<block_id> recv) const {
    if (sub != 0) return false;
    constexpr auto rel = op_flag::release;
    constexpr auto cmb = op_flag::combine_in;
    if (c_.alg == tb_algorithm::rs_gather) {  // segment t ends on tile t, then gather
      const std::uint32_t rs = allgather_steps();
      return j < rs ? reduce_scatter_op(j, o, send, recv)
                    : scatter_or_gather(j - rs, o, send, recv);
    }
    if (c_.alg == tb_algorithm::binomial) {
      const std::uint32_t bit = std::uint32_t{1} << j;
      const std::uint32_t v = vid(me_);
      switch (bcast_role(v, p_, bit)) {
        case 1:
          return recv1(o, phys(v + bit), 0, recv, cmb);
        case 2:
          return send1(o, phys(v - bit), 0, send, rel);
        default:
          return false;
      }
    }
    // mesh: reduce every column onto the root's row, then that row onto the root.
    const std::uint32_t rr = c_.root / cols_;
    const std::uint32_t rc = c_.root % cols_;
    const std::uint32_t lr = ceil_log2(rows_);
    if (j < lr) {
      const std::uint32_t bit = std::uint32_t{1} << j;
      const std::uint32_t v = sub_mod(row(), rr, rows_);
      switch (bcast_role(v, rows_, bit)) {
        case 1:
          return recv1(o, at((v + bit + rr) % rows_, col()), 0, recv, cmb);
        case 2:
          return send1(o, at((v - bit + rr) % rows_, col()), 0, send, rel);
        default:
          return false;
      }
    }
    if (row() != rr) return false;
    const std::uint32_t bit = std::uint32_t{1} << (j - lr);
    const std::uint32_t v = sub_mod(col(), rc, cols_);
    switch (bcast_role(v, cols_, bit)) {
      case 1:
        return recv1(o, at(rr, (v + bit + rc) % cols_), 0, recv, cmb);
      case 2:
        return send1(o, at(rr, (v - bit + rc) % cols_), 0, send, rel);
      default:
        return false;
    }
  }

  // ---- all-gather and reduce-scatter (slides 22-34) ---------------------------------

  // Fills `ids` with the blocks of row r of the grid (one per column).
  constexpr std::uint32_t row_group(std::uint32_t r, std::span<block_id> ids) const {
    for (std::uint32_t c = 0; c < cols_; ++c)
      ids[c] = block_id{at(r, c)};
    return cols_;
  }

  constexpr bool allgather_op(std::uint32_t j, op& o, std::span<block_id> send,
                              std::span<block_id> recv) const {
    switch (gather_alg()) {
      case tb_algorithm::hypercube: {
        const std::uint32_t bit = std::uint32_t{1} << j;
        const std::uint32_t peer = me_ ^ bit;
        for (std::uint32_t x = 0; x < bit; ++x) {
          send[x] = block_id{(me_ & ~(bit - 1)) | x};
          recv[x] = block_id{(peer & ~(bit - 1)) | x};
        }
        o.send_count = o.recv_count = bit;
        return one(o, op_kind::exchange, peer, peer, 0);
      }
      case tb_algorithm::mesh: {
        const std::uint32_t r = row();
        const std::uint32_t c = col();
        if (j < cols_ - 1) {
          const std::uint32_t i = j + 1;
          return sendrecv1(o, at(r, (c + 1) % cols_), at(r, sub_mod(c, i - 1, cols_)),
                           at(r, sub_mod(c, 1, cols_)), at(r, sub_mod(c, i, cols_)), send, recv);
        }
        const std::uint32_t i = j - (cols_ - 1) + 1;
        o.send_count = row_group(sub_mod(r, i - 1, rows_), send);
        o.recv_count = row_group(sub_mod(r, i, rows_), recv);
        return one(o, op_kind::sendrecv, at((r + 1) % rows_, c), at(sub_mod(r, 1, rows_), c), 0);
      }
      default: {
        const std::uint32_t i = j + 1;
        return sendrecv1(o, (me_ + 1) % p_, sub_mod(me_, i - 1, p_), sub_mod(me_, 1, p_),
                         sub_mod(me_, i, p_), send, recv);
      }
    }
  }

  // The dual of all-gather: partial sums travel and are combined on arrival.
  constexpr bool reduce_scatter_op(std::uint32_t j, op& o, std::span<block_id> send,
                                   std::span<block_id> recv) const {
    constexpr std::uint8_t both = op_flag::release | op_flag::combine_in;
    switch (gather_alg()) {
      case tb_algorithm::hypercube: {
        const std::uint32_t d = log2_exact(p_);
        const std::uint32_t i = d - 1 - j;
        const std::uint32_t bit = std::uint32_t{1} << i;
        const std::uint32_t peer = me_ ^ bit;
        const std::uint32_t high = ~((bit << 1) - 1);  // bits above i, already settled
        for (std::uint32_t x = 0; x < bit; ++x) {
          send[x] = block_id{(me_ & high) | (peer & bit) | x};
          recv[x] = block_id{(me_ & high) | (me_ & bit) | x};
        }
        o.send_count = o.recv_count = bit;
        return one(o, op_kind::exchange, peer, peer, both);
      }
      case tb_algorithm::mesh: {
        const std::uint32_t r = row();
        const std::uint32_t c = col();
        if (j < rows_ - 1) {  // columns first, whole rows of partial sums
          const std::uint32_t i = j + 1;
          o.send_count = row_group(sub_mod(r, i, rows_), send);
          o.recv_count = row_group(sub_mod(r, i + 1, rows_), recv);
          return one(o, op_kind::sendrecv, at((r + 1) % rows_, c), at(sub_mod(r, 1, rows_), c),
                     both);
        }
        const std::uint32_t i = j - (rows_ - 1) + 1;
        return sendrecv1(o, at(r, (c + 1) % cols_), at(r, sub_mod(c, i, cols_)),
                         at(r, sub_mod(c, 1, cols_)), at(r, sub_mod(c, i + 1, cols_)), send, recv,
                         both);
      }
      default: {
        const std::uint32_t i = j + 1;
        return sendrecv1(o, (me_ + 1) % p_, sub_mod(me_, i, p_), sub_mod(me_, 1, p_),
                         sub_mod(me_, i + 1, p_), send, recv, both);
      }
    }
  }

  // ---- all-reduce (slide 37) ---------------------------------------------------------

  // Block ids: 0 is the tile's vector; 1 + t carries tile t's contribution around a
  // ring; 1 + p + r carries row r's sum around a column.
  constexpr bool allreduce_op(std::uint32_t j, std::uint32_t sub, op& o, std::span<block_id> send,
                              std::span<block_id> recv) const {
    constexpr auto rel = op_flag::release;
    switch (c_.alg) {
      case tb_algorithm::rs_allgather: {
        if (sub != 0) return false;
        const std::uint32_t rs = allgather_steps();
        return j < rs ? reduce_scatter_op(j, o, send, recv) : allgather_op(j - rs, o, send, recv);
      }
      case tb_algorithm::recursive_doubling: {
        if (sub != 0) return false;
        const std::uint32_t peer = me_ ^ (std::uint32_t{1} << j);
        return sendrecv1(o, peer, 0, peer, 0, send, recv, op_flag::combine_in);
      }
      case tb_algorithm::reduce_bcast: {
        if (sub != 0) return false;
        const std::uint32_t lp = ceil_log2(p_);
        const std::uint32_t v = me_;  // root 0
        if (j < lp) {
          const std::uint32_t bit = std::uint32_t{1} << j;
          switch (bcast_role(v, p_, bit)) {
            case 1:
              return recv1(o, v + bit, 0, recv, op_flag::combine_in);
            case 2:
              return send1(o, v - bit, 0, send, rel);
            default:
              return false;
          }
        }
        const std::uint32_t bit = std::uint32_t{1} << (2 * lp - 1 - j);
        switch (bcast_role(v, p_, bit)) {
          case 1:
            return send1(o, v + bit, 0, send);
          case 2:
            return recv1(o, v - bit, 0, recv);
          default:
            return false;
        }
      }
      case tb_algorithm::mesh: {
        const std::uint32_t r = row();
        const std::uint32_t c = col();
        if (j < cols_ - 1) {  // forward the row's contributions
          const std::uint32_t i = j + 1;
          return ring_accumulate(
              i, sub, cols_ - 1, at(r, (c + 1) % cols_), at(r, sub_mod(c, 1, cols_)), 1 + me_,
              1 + at(r, sub_mod(c, i - 1, cols_)), 1 + at(r, sub_mod(c, i, cols_)), o, send, recv);
        }
        const std::uint32_t i = j - (cols_ - 1) + 1;  // forward the row sums
        return ring_accumulate(
            i, sub, rows_ - 1, at((r + 1) % rows_, c), at(sub_mod(r, 1, rows_), c), 1 + p_ + r,
            1 + p_ + sub_mod(r, i - 1, rows_), 1 + p_ + sub_mod(r, i, rows_), o, send, recv);
      }
      default: {
        const std::uint32_t i = j + 1;
        return ring_accumulate(i, sub, p_ - 1, (me_ + 1) % p_, sub_mod(me_, 1, p_), 1 + me_,
                               1 + sub_mod(me_, i - 1, p_), 1 + sub_mod(me_, i, p_), o, send, recv);
      }
    }
  }

  // Step i of n of a ring that forwards copies and adds each arrival into block 0.
  // Step 1 first copies block 0 into `mine`, the copy that travels.
  static constexpr bool ring_accumulate(std::uint32_t i, std::uint32_t sub, std::uint32_t n,
                                        std::uint32_t to, std::uint32_t from, std::uint32_t mine,
                                        std::uint32_t out_block, std::uint32_t in_block, op& o,
                                        std::span<block_id> send, std::span<block_id> recv) {
    const std::uint32_t first = i == 1 ? 1 : 0;
    if (sub < first) return combine1(o, mine, 0, send, recv);
    if (sub == first)
      return sendrecv1(o, to, out_block, from, in_block, send, recv, op_flag::release);
    if (sub == first + 1)
      return combine1(o, 0, in_block, send, recv, i == n ? op_flag::release : std::uint8_t{0});
    return false;
  }

  // ---- prefix sum (slides 38-41) -------------------------------------------------------

  // Block 0 is the result; the message of Grama's procedure is a node of the
  // segment tree over tile ids: node(i, x) = (p >> i) + (x >> i) covers the 2^i
  // tiles of x's i-subcube, so every partial sum in flight has its own id.
  [[nodiscard]] constexpr std::uint32_t node(std::uint32_t i, std::uint32_t x) const {
    return (p_ >> i) + (x >> i);
  }

  constexpr bool prefix_cube_op(std::uint32_t j, std::uint32_t sub, op& o, std::span<block_id> send,
                                std::span<block_id> recv) const {
    constexpr auto rel = op_flag::release;
    const std::uint32_t peer = me_ ^ (std::uint32_t{1} << j);
    const std::uint32_t mine = node(j, me_);
    const std::uint32_t theirs = node(j, peer);
    const std::uint32_t parent = node(j + 1, me_);
    std::uint32_t k = sub;
    if (j == 0) {
      if (k == 0) return combine1(o, mine, 0, send, recv);
      --k;
    }
    switch (k) {
      case 0:
        return sendrecv1(o, peer, mine, peer, theirs, send, recv);
      case 1:
        return combine1(o, parent, mine, send, recv, rel);
      case 2:
        if (peer < me_) return combine1(o, 0, theirs, send, recv);
        return combine1(o, parent, theirs, send, recv, rel);
      case 3:
        if (peer < me_) return combine1(o, parent, theirs, send, recv, rel);
        return false;
      default:
        return false;
    }
  }

  // A chain: tile t gets the prefix of t - 1 at step t and passes its own at t + 1.
  constexpr bool prefix_linear_op(std::uint32_t j, std::uint32_t sub, op& o,
                                  std::span<block_id> send, std::span<block_id> recv) const {
    constexpr auto rel = op_flag::release;
    if (me_ > 0 && j == me_ - 1) {
      if (sub == 0) return recv1(o, me_ - 1, me_, recv);
      if (sub == 1) return combine1(o, 0, me_, send, recv, rel);
      return false;
    }
    if (me_ + 1 < p_ && j == me_) {
      if (sub == 0) return combine1(o, 1 + me_, 0, send, recv);
      if (sub == 1) return send1(o, me_ + 1, 1 + me_, send, rel);
    }
    return false;
  }

  // ---- scatter and gather (slides 42-45) ----------------------------------------------

  // The blocks for virtual ids [lo, hi), each named by its physical destination.
  constexpr std::uint32_t subtree(std::uint32_t lo, std::uint32_t hi,
                                  std::span<block_id> ids) const {
    for (std::uint32_t u = lo; u < hi; ++u)
      ids[u - lo] = block_id{phys(u)};
    return hi - lo;
  }

  [[nodiscard]] constexpr std::uint32_t level_bit(std::uint32_t j) const {
    return std::uint32_t{1} << (ceil_log2(p_) - 1 - j);
  }

  constexpr bool scatter_op(std::uint32_t j, op& o, std::span<block_id> send) const {
    const std::uint32_t bit = level_bit(j);
    const std::uint32_t v = vid(me_);
    if (bcast_role(v, p_, bit) != 1) return false;
    const std::uint32_t hi = v + 2 * bit < p_ ? v + 2 * bit : p_;
    o.send_count = subtree(v + bit, hi, send);
    return one(o, op_kind::send, phys(v + bit), no_tile, op_flag::release);
  }

  constexpr bool scatter_recv(std::uint32_t j, op& o, std::span<block_id> recv) const {
    const std::uint32_t bit = level_bit(j);
    const std::uint32_t v = vid(me_);
    if (bcast_role(v, p_, bit) != 2) return false;
    const std::uint32_t hi = v + bit < p_ ? v + bit : p_;
    o.recv_count = subtree(v, hi, recv);
    return one(o, op_kind::recv, no_tile, phys(v - bit), 0);
  }

  // scatter runs the binomial tree top down; gather is its mirror, bottom up.
  constexpr bool scatter_or_gather(std::uint32_t j, op& o, std::span<block_id> send,
                                   std::span<block_id> recv) const {
    if (c_.coll == collective::scatter) return scatter_op(j, o, send) || scatter_recv(j, o, recv);
    const std::uint32_t bit = std::uint32_t{1} << j;
    const std::uint32_t v = vid(me_);
    switch (bcast_role(v, p_, bit)) {
      case 1: {
        const std::uint32_t hi = v + 2 * bit < p_ ? v + 2 * bit : p_;
        o.recv_count = subtree(v + bit, hi, recv);
        return one(o, op_kind::recv, no_tile, phys(v + bit), 0);
      }
      case 2: {
        const std::uint32_t hi = v + bit < p_ ? v + bit : p_;
        o.send_count = subtree(v, hi, send);
        return one(o, op_kind::send, phys(v - bit), no_tile, op_flag::release);
      }
      default:
        return false;
    }
  }

 private:
  // ---- circular shift (slides 64-69) ----------------------------------------------------

  [[nodiscard]] constexpr std::uint32_t q() const { return p_ > 0 ? c_.shift % p_ : 0; }

  // A shift by k around a ring of n, done hop by hop the shorter way.
  static constexpr std::uint32_t hops(std::uint32_t k, std::uint32_t n) {
    return k <= n - k ? k : n - k;
  }

  [[nodiscard]] constexpr std::uint32_t shift_steps() const {
    switch (c_.alg) {
      case tb_algorithm::direct:
        return q() == 0 ? 0 : 1;
      case tb_algorithm::powers_of_two: {
        std::uint32_t n = 0;
        for (std::uint32_t b = q(); b != 0; b &= b - 1)
          ++n;
        return n;
      }
      case tb_algorithm::mesh: {
        const std::uint32_t qc = q() % cols_;
        const std::uint32_t qr = q() / cols_;
        return hops(qc, cols_) + (qc != 0 && rows_ > 1 ? 1 : 0) + hops(qr % rows_, rows_);
      }
      default:
        return hops(q(), p_);
    }
  }

  // The block tile (r, c) holds after the mesh shift's row phase (k steps of it).
  [[nodiscard]] constexpr std::uint32_t mesh_row_block(std::uint32_t r, std::uint32_t c,
                                                       std::uint32_t k) const {
    const std::uint32_t qc = q() % cols_;
    const bool fwd = qc <= cols_ - qc;
    return at(r, fwd ? sub_mod(c, k, cols_) : (c + k) % cols_);
  }

  // After the row phase and the compensating step: blocks that wrapped around their
  // row (now in columns < qc) have moved one row down.
  [[nodiscard]] constexpr std::uint32_t mesh_comp_block(std::uint32_t r, std::uint32_t c) const {
    const std::uint32_t qc = q() % cols_;
    const std::uint32_t k = hops(qc, cols_);
    if (rows_ > 1 && c < qc) return mesh_row_block(sub_mod(r, 1, rows_), c, k);
    return mesh_row_block(r, c, k);
  }

  constexpr bool shift_op(std::uint32_t j, op& o, std::span<block_id> send,
                          std::span<block_id> recv) const {
    constexpr auto rel = op_flag::release;
    switch (c_.alg) {
      case tb_algorithm::direct: {
        const std::uint32_t k = q();
        return sendrecv1(o, (me_ + k) % p_, me_, sub_mod(me_, k, p_), sub_mod(me_, k, p_), send,
                         recv, rel);
      }
      case tb_algorithm::powers_of_two: {
        std::uint32_t done = 0;  // shift applied by earlier phases
        std::uint32_t bits = q();
        for (std::uint32_t n = 0; n < j; ++n) {
          done += bits & (~bits + 1);
          bits &= bits - 1;
        }
        const std::uint32_t k = bits & (~bits + 1);
        return sendrecv1(o, (me_ + k) % p_, sub_mod(me_, done, p_), sub_mod(me_, k, p_),
                         sub_mod(me_, done + k, p_), send, recv, rel);
      }
      case tb_algorithm::mesh:
        return mesh_shift_op(j, o, send, recv);
      default: {
        const std::uint32_t k = q();
        const bool fwd = k <= p_ - k;
        const std::uint32_t to = fwd ? (me_ + 1) % p_ : sub_mod(me_, 1, p_);
        const std::uint32_t from = fwd ? sub_mod(me_, 1, p_) : (me_ + 1) % p_;
        const auto held = [&](std::uint32_t steps) {
          return fwd ? sub_mod(me_, steps, p_) : (me_ + steps) % p_;
        };
        return sendrecv1(o, to, held(j), from, held(j + 1), send, recv, rel);
      }
    }
  }

  constexpr bool mesh_shift_op(std::uint32_t j, op& o, std::span<block_id> send,
                               std::span<block_id> recv) const {
    constexpr auto rel = op_flag::release;
    const std::uint32_t r = row();
    const std::uint32_t c = col();
    const std::uint32_t qc = q() % cols_;
    const std::uint32_t k1 = hops(qc, cols_);
    if (j < k1) {
      const bool fwd = qc <= cols_ - qc;
      const std::uint32_t to = at(r, fwd ? (c + 1) % cols_ : sub_mod(c, 1, cols_));
      const std::uint32_t from = at(r, fwd ? sub_mod(c, 1, cols_) : (c + 1) % cols_);
      return sendrecv1(o, to, mesh_row_block(r, c, j), from, mesh_row_block(r, c, j + 1), send,
                       recv, rel);
    }
    const bool comp = qc != 0 && rows_ > 1;
    if (comp && j == k1) {  // the compensating step: only columns < qc move
      if (c >= qc) return false;
      return sendrecv1(o, at((r + 1) % rows_, c), mesh_row_block(r, c, k1),
                       at(sub_mod(r, 1, rows_), c), mesh_row_block(sub_mod(r, 1, rows_), c, k1),
                       send, recv, rel);
    }
    const std::uint32_t k = j - k1 - (comp ? 1 : 0);
    const std::uint32_t qr = (q() / cols_) % rows_;
    const bool fwd = qr <= rows_ - qr;
    const std::uint32_t to = at(fwd ? (r + 1) % rows_ : sub_mod(r, 1, rows_), c);
    const std::uint32_t from = at(fwd ? sub_mod(r, 1, rows_) : (r + 1) % rows_, c);
    const auto held = [&](std::uint32_t steps) {
      return mesh_comp_block(fwd ? sub_mod(r, steps, rows_) : (r + steps) % rows_, c);
    };
    return sendrecv1(o, to, held(k), from, held(k + 1), send, recv, rel);
  }

  collective_params c_;
  std::uint32_t me_;
  std::uint32_t p_;
  std::uint32_t rows_;
  std::uint32_t cols_;
  a2a_generator a2a_;
  bool edst_{false};
  tree_family fam_{tree_family::single};
  edst_program tree_{};
  std::uint32_t step_{0};
  std::uint32_t sub_{0};
};

}  // namespace tessera::fw
