// The pipelined broadcast on edge-disjoint spanning trees of a torus
// (Bermond92 §2.1): the message of L
// bytes is split into d parts, one per tree, and each part into q packets. A tile
// forwards every packet to all of its children in that tree at once (async sends,
// one per output port), so with one slot P = beta + tau * L / (d q) per hop the last
// packet reaches depth h after (h + q - 1) P. Saad and Schultz's fill-in (§2.3)
// sends each tree's part again, after the root's last packet, along the line that
// tree misses.
//
// Each tile merges its streams (a tree it belongs to, or a fill-in line) in the order
// packets reach it in the ideal pipeline, so it never waits on one packet while
// another that arrived earlier could be forwarded. Freestanding and copyable.
#pragma once

#include <cstdint>
#include <span>

#include "tessera/firmware/trees.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::fw {

// Bytes of tree k's part and of its packet j: L split as evenly as bytes allow (the
// first L mod d parts, and the first part mod q packets, one byte longer).
constexpr std::uint32_t edst_part_len(std::uint32_t bytes, std::uint32_t d, std::uint32_t k) {
  return bytes / d + (k < bytes % d ? 1 : 0);
}
constexpr std::uint32_t edst_packet_len(std::uint32_t bytes, std::uint32_t d, std::uint32_t q,
                                        std::uint32_t k, std::uint32_t j) {
  const std::uint32_t part = edst_part_len(bytes, d, k);
  return part / q + (j < part % q ? 1 : 0);
}

// The pipeline slots the broadcast takes in the ideal model (every packet of one
// length): h + q - 1 for the trees, and for Saad-Schultz at least 2q + the longest
// fill-in line - 1, the regime L > L0 of §2.3 (L0 = beta D^2 / (2 tau (D - 1))).
constexpr std::uint32_t edst_slots(tree_family fam, const fabric& f, std::uint32_t q) {
  const std::uint32_t main = family_depth(fam, f) + q - 1;
  if (fam != tree_family::saad_schultz) return main;
  const std::uint32_t line = f.rows / 2 > f.cols / 2 ? f.rows / 2 : f.cols / 2;
  const std::uint32_t fill = 2 * q + line - 1;
  return main > fill ? main : fill;
}

class edst_program {
 public:
  static constexpr std::uint32_t max_streams = 4;  // 2 trees and 2 fill-in lines

  constexpr edst_program() = default;

  // Precondition: tree_support(fam, f, root) is none, q >= 1 and every packet has at
  // least one byte (bytes >= d q).
  constexpr edst_program(tree_family fam, const fabric& f, std::uint32_t root, std::uint32_t me,
                         std::uint32_t q)
      : q_{q}, me_{me} {
    const std::uint32_t d = info(fam).trees;
    for (std::uint32_t k = 0; k < d; ++k) {
      add(f, root, k * q, 0, [&](std::uint32_t t) { return tree_parent(fam, f, root, k, t); });
      if (fam == tree_family::saad_schultz) {
        // The root's port towards the line is busy with the other tree's q packets
        // first, so the line's packet j leaves the root in slot q + j.
        add(f, root, k * q, q,
            [&](std::uint32_t t) { return t == root ? root : fill_parent(f, root, k, t); });
      }
    }
  }

  [[nodiscard]] constexpr std::uint32_t max_blocks() const { return 1; }

  constexpr bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    out = op{};
    while (true) {
      if (cur_ == none) {
        std::uint32_t best = none;
        for (std::uint32_t s = 0; s < n_; ++s) {
          if (s_[s].j >= q_) continue;
          if (best == none || s_[s].base + s_[s].j < s_[best].base + s_[best].j) best = s;
        }
        if (best == none) return false;
        cur_ = best;
        sub_ = 0;
      }
      stream& st = s_[cur_];
      const std::uint32_t arrival = st.base + st.j;  // slots until the packet is here
      const std::uint32_t id = st.first_block + st.j;
      if (sub_ == 0) {
        sub_ = 1;
        if (st.parent != me_) {
          out.kind = op_kind::recv;
          out.from = st.parent;
          out.step = arrival;
          out.recv_count = 1;
          recv[0] = block_id{id};
          return true;
        }
      }
      if (sub_ <= st.children) {
        out.kind = op_kind::send;
        out.to = st.child[sub_ - 1];
        out.step = arrival + 1;
        out.send_count = 1;
        out.flags = op_flag::async;
        send[0] = block_id{id};
        ++sub_;
        return true;
      }
      ++st.j;
      cur_ = none;
    }
  }

 private:
  static constexpr std::uint32_t none = 0xffffffffU;

  struct stream {
    std::uint32_t parent{0};  // me_ at the root
    std::uint32_t base{0};    // slot in which packet 0 reaches this tile
    std::uint32_t first_block{0};
    std::uint32_t child[4]{};
    std::uint32_t children{0};
    std::uint32_t j{0};  // next packet
  };

  // A stream for the tree (or line) whose parent function is `parent_of`, when this
  // tile is in it.
  template <typename Parent>
  constexpr void add(const fabric& f, std::uint32_t root, std::uint32_t first_block,
                     std::uint32_t offset, Parent parent_of) {
    const std::uint32_t up = parent_of(me_);
    if (up == no_parent) return;
    stream st{};
    st.parent = up;
    st.first_block = first_block;
    std::uint32_t depth = 0;
    for (std::uint32_t t = me_; t != root && depth <= f.tiles(); t = parent_of(t))
      ++depth;
    st.base = offset + depth;
    for (std::uint32_t port = 0; port < f.ports(); ++port) {
      const auto nb = neighbour(f, tile_id{me_}, port);
      if (nb && nb->value() != me_ && parent_of(nb->value()) == me_)
        st.child[st.children++] = nb->value();
    }
    s_[n_++] = st;
  }

  stream s_[max_streams]{};
  std::uint32_t n_{0};
  std::uint32_t q_{1};
  std::uint32_t me_{0};
  std::uint32_t cur_{none};
  std::uint32_t sub_{0};
};

}  // namespace tessera::fw
