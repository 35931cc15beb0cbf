// Delivery check of a complete exchange on the tile itself: enumerate every tile's op
// stream and match the send halves to the receive halves, with fixed-size tables only.
//
// Rules (block (s, d) has id s * p + d, as in complete_exchange.hpp):
// - every block received by a tile was sent to it by the op's peer in the same step;
//   every block sent was received, by that peer in that step;
// - a tile sends a block only if it is its own (s = me) or arrived in an earlier step,
//   and sends and receives each block at most once (blocks move, they are not copied);
// - tile d receives every block (s, d), s != d, exactly once and never a block (d, d).
// Forwarding algorithms (standard, ring, mesh) pass blocks through other tiles; the
// rules hold for them too, so one check serves every algorithm.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"

namespace tessera::selftest {

// A set of block ids below Bits.
template <std::uint32_t Bits>
class block_set {
 public:
  static constexpr std::uint32_t none = Bits;

  [[nodiscard]] constexpr bool contains(std::uint32_t b) const {
    return ((words_[b / 64] >> (b % 64)) & 1U) != 0;
  }
  constexpr void insert(std::uint32_t b) { words_[b / 64] |= std::uint64_t{1} << (b % 64); }
  constexpr void clear() { words_.fill(0); }
  // The smallest member that `other` lacks, or none.
  [[nodiscard]] constexpr std::uint32_t first_not_in(const block_set& other) const {
    for (std::uint32_t b = 0; b < Bits; ++b) {
      if (contains(b) && !other.contains(b)) return b;
    }
    return none;
  }

 private:
  std::array<std::uint64_t, (Bits + 63) / 64> words_{};
};

enum class delivery_error : std::uint8_t {
  none,
  fabric_too_large,    // more tiles than the checker's tables hold
  buffer_too_small,    // the generator's max_blocks() exceeds the checker's buffers
  too_many_ops,        // a tile's stream does not end within the op budget
  too_many_blocks,     // an op moves more blocks than its generator's max_blocks()
  bad_step,            // a send or receive outside steps 1 .. MaxSteps
  bad_peer,            // a peer that is not another tile of the fabric
  bad_block,           // a block id >= p * p
  not_held,            // a tile sends a block that is neither its own nor arrived earlier
  sent_twice,          // a tile sends the same block twice
  received_twice,      // a tile receives the same block twice
  own_block_received,  // tile d receives block (d, d)
  unmatched_send,      // sent in a step, but the peer does not receive it in that step
  unmatched_receive,   // received in a step, but the peer does not send it in that step
  not_delivered,       // block (s, d) never reaches tile d
};

constexpr std::string_view describe(delivery_error e) {
  switch (e) {
    case delivery_error::none:
      return "ok";
    case delivery_error::fabric_too_large:
      return "fabric has more tiles than the checker holds";
    case delivery_error::buffer_too_small:
      return "generator needs larger block buffers than the checker has";
    case delivery_error::too_many_ops:
      return "op stream does not end";
    case delivery_error::too_many_blocks:
      return "op moves more blocks than max_blocks()";
    case delivery_error::bad_step:
      return "step out of range";
    case delivery_error::bad_peer:
      return "peer is not another tile";
    case delivery_error::bad_block:
      return "block id out of range";
    case delivery_error::not_held:
      return "sends a block it does not hold";
    case delivery_error::sent_twice:
      return "sends a block twice";
    case delivery_error::received_twice:
      return "receives a block twice";
    case delivery_error::own_block_received:
      return "receives its own block";
    case delivery_error::unmatched_send:
      return "block sent but not received by the peer in that step";
    case delivery_error::unmatched_receive:
      return "block received but not sent by the peer in that step";
    case delivery_error::not_delivered:
      return "block never delivered";
  }
  return "?";
}

// The verdict, and where the first error was seen (no_tile / 0 where not applicable).
struct delivery_report {
  delivery_error error{delivery_error::none};
  std::uint32_t tile{no_tile};
  std::uint32_t peer{no_tile};
  std::uint32_t step{0};
  std::uint32_t block{0};
  std::uint32_t ops{0};        // ops of all tiles
  std::uint32_t messages{0};   // send halves
  std::uint32_t delivered{0};  // blocks received by their destination

  [[nodiscard]] constexpr bool ok() const { return error == delivery_error::none; }
};

// Capacity is in the type. The tables are about 2 * (MaxSteps + 1) * MaxTiles^2 block
// sets; keep a checker in static storage, not on a tile's stack.
template <std::uint32_t MaxTiles, std::uint32_t MaxSteps,
          std::uint32_t MaxOpsPerTile = 4 * MaxSteps>
class delivery_checker {
 public:
  static constexpr std::uint32_t max_block_ids = MaxTiles * MaxTiles;

  // make_generator(tile_id) returns the tile's generator: an object with
  // max_blocks() and next(op&, std::span<block_id> send, std::span<block_id> recv).
  template <typename MakeGenerator>
  delivery_report check(const fabric& f, MakeGenerator&& make_generator) {
    clear();
    delivery_report r;
    const std::uint32_t p = f.tiles();
    if (p > MaxTiles) return fail(r, delivery_error::fabric_too_large, no_tile, no_tile, 0, 0);
    for (std::uint32_t t = 0; t < p; ++t) {
      auto gen = make_generator(tile_id{t});
      const std::uint32_t cap = gen.max_blocks();
      if (cap > max_block_ids) return fail(r, delivery_error::buffer_too_small, t, no_tile, 0, 0);
      arrived_.fill(0);
      sent_by_me_.clear();
      op o;
      std::uint32_t n = 0;
      while (gen.next(o, send_buf_, recv_buf_)) {
        if (++n > MaxOpsPerTile) return fail(r, delivery_error::too_many_ops, t, no_tile, 0, 0);
        ++r.ops;
        if (!o.sends() && !o.receives()) continue;
        if (o.step == 0 || o.step > MaxSteps) {
          return fail(r, delivery_error::bad_step, t, no_tile, o.step, 0);
        }
        if (o.send_count > cap || o.recv_count > cap) {
          return fail(r, delivery_error::too_many_blocks, t, no_tile, o.step, 0);
        }
        if (o.sends()) {
          const auto [e, b] = add_sends(t, o, p);
          if (e != delivery_error::none) return fail(r, e, t, o.to, o.step, b);
          ++r.messages;
        }
        if (o.receives()) {
          const auto [e, b] = add_receives(t, o, p, r.delivered);
          if (e != delivery_error::none) return fail(r, e, t, o.from, o.step, b);
        }
      }
    }
    return match(r, p);
  }

 private:
  using set = block_set<max_block_ids>;
  // [step][from][to]: the blocks `from` sends to / `to` receives from the other in `step`.
  using step_table = std::array<std::array<std::array<set, MaxTiles>, MaxTiles>, MaxSteps + 1>;

  struct block_error {
    delivery_error error{delivery_error::none};
    std::uint32_t block{0};
  };

  void clear() {
    for (auto& by_from : sent_) {
      for (auto& by_to : by_from) {
        for (auto& s : by_to)
          s.clear();
      }
    }
    received_ = sent_;
    for (auto& s : delivered_)
      s.clear();
  }

  static delivery_report& fail(delivery_report& r, delivery_error e, std::uint32_t tile,
                               std::uint32_t peer, std::uint32_t step, std::uint32_t block) {
    r.error = e;
    r.tile = tile;
    r.peer = peer;
    r.step = step;
    r.block = block;
    return r;
  }

  block_error add_sends(std::uint32_t t, const op& o, std::uint32_t p) {
    if (o.to >= p || o.to == t) return {delivery_error::bad_peer, 0};
    for (std::uint32_t i = 0; i < o.send_count; ++i) {
      const std::uint32_t b = send_buf_[i].value();
      if (b >= p * p) return {delivery_error::bad_block, b};
      const bool own = b / p == t;
      const bool arrived_before = arrived_[b] != 0 && arrived_[b] < o.step;
      if (!own && !arrived_before) return {delivery_error::not_held, b};
      if (sent_by_me_.contains(b)) return {delivery_error::sent_twice, b};
      sent_by_me_.insert(b);
      sent_[o.step][t][o.to].insert(b);
    }
    return {};
  }

  block_error add_receives(std::uint32_t t, const op& o, std::uint32_t p,
                           std::uint32_t& delivered) {
    if (o.from >= p || o.from == t) return {delivery_error::bad_peer, 0};
    for (std::uint32_t i = 0; i < o.recv_count; ++i) {
      const std::uint32_t b = recv_buf_[i].value();
      if (b >= p * p) return {delivery_error::bad_block, b};
      if (arrived_[b] != 0) return {delivery_error::received_twice, b};
      arrived_[b] = o.step;
      received_[o.step][o.from][t].insert(b);
      if (b % p == t) {
        if (b / p == t) return {delivery_error::own_block_received, b};
        delivered_[t].insert(b);
        ++delivered;
      }
    }
    return {};
  }

  delivery_report& match(delivery_report& r, std::uint32_t p) const {
    for (std::uint32_t k = 1; k <= MaxSteps; ++k) {
      for (std::uint32_t from = 0; from < p; ++from) {
        for (std::uint32_t to = 0; to < p; ++to) {
          const set& s = sent_[k][from][to];
          const set& v = received_[k][from][to];
          if (const auto b = s.first_not_in(v); b != set::none) {
            return fail(r, delivery_error::unmatched_send, from, to, k, b);
          }
          if (const auto b = v.first_not_in(s); b != set::none) {
            return fail(r, delivery_error::unmatched_receive, to, from, k, b);
          }
        }
      }
    }
    for (std::uint32_t d = 0; d < p; ++d) {
      for (std::uint32_t s = 0; s < p; ++s) {
        const std::uint32_t b = s * p + d;
        if (s != d && !delivered_[d].contains(b)) {
          return fail(r, delivery_error::not_delivered, d, s, 0, b);
        }
      }
    }
    return r;
  }

  step_table sent_{};
  step_table received_{};
  std::array<set, MaxTiles> delivered_{};
  // Per tile while its stream is read: the step each block arrived in (0: not yet) and
  // the blocks it has sent.
  std::array<std::uint32_t, max_block_ids> arrived_{};
  set sent_by_me_{};
  std::array<block_id, max_block_ids> send_buf_{};
  std::array<block_id, max_block_ids> recv_buf_{};
};

}  // namespace tessera::selftest
