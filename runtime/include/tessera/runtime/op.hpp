// One operation of a tile's op stream. Every collective, on every fidelity, is a
// list of these per tile. Block ids travel with each message so delivery can be
// checked end to end; the block ids of an op live in caller-provided storage.
#pragma once

#include <cstdint>
#include <string_view>

#include "tessera/runtime/ids.hpp"

namespace tessera {

enum class op_kind : std::uint8_t {
  send,       // send blocks to `to`
  recv,       // receive blocks from `from`
  exchange,   // send to and receive from the same peer (`to` == `from`)
  sendrecv,   // send to `to` and receive from `from` in the same step
  idle,       // take one step doing nothing (Bokhari's stable schedule)
  barrier,    // global synchronization
  pair_sync,  // zero-byte synchronization with `to` (Bokhari §5)
  shuffle,    // local rearrangement of `count` blocks (standard exchange)
  combine,    // local: recv block [0] (op)= send block [0] (reduce, prefix sum)
};

// Op flags. A send normally copies (the sender keeps its blocks, as a broadcast
// needs); forwarding algorithms release what they pass on so a tile's memory stays
// bounded. A receive normally stores the blocks it gets; reductions combine them
// into the blocks of the same id the tile already holds.
namespace op_flag {
inline constexpr std::uint8_t release = 1;  // send half / combine: drop the sent or source blocks
inline constexpr std::uint8_t combine_in = 2;  // receive half: combine into held blocks
// A send op that ends once its message is posted: the NIC sends it from a slot of the
// executor's pool while the tile goes on, as a tile forwarding a packet to all its
// children at once on parallel ports does (Bermond92 §2.1). Without a pool it is an
// ordinary send. The tile finishes only when every such send has completed.
inline constexpr std::uint8_t async = 4;
// The receive half expects exactly recv_bytes data bytes; a message of another size
// fails the op (size_mismatch). Schedule files say the size of every receive.
inline constexpr std::uint8_t sized = 8;
}  // namespace op_flag

inline constexpr std::uint32_t no_tile = 0xffffffffU;

// Whether an op of this kind has a send half / a receive half.
constexpr bool sends(op_kind k) {
  return k == op_kind::send || k == op_kind::exchange || k == op_kind::sendrecv;
}
constexpr bool receives(op_kind k) {
  return k == op_kind::recv || k == op_kind::exchange || k == op_kind::sendrecv;
}

struct op {
  op_kind kind{op_kind::idle};
  std::uint32_t step{0};        // the algorithm's round, 1-based
  std::uint32_t to{no_tile};    // peer of the send half / pair_sync
  std::uint32_t from{no_tile};  // peer of the receive half
  std::uint32_t send_count{0};  // blocks sent (ids written to the send buffer)
  std::uint32_t recv_count{0};  // blocks received (ids written to the recv buffer)
  std::uint32_t count{0};       // shuffle: blocks rearranged
  std::uint8_t flags{0};        // op_flag bits
  std::uint64_t recv_bytes{0};  // with op_flag::sized: the data bytes the receive expects

  [[nodiscard]] constexpr bool sends() const { return tessera::sends(kind); }
  [[nodiscard]] constexpr bool receives() const { return tessera::receives(kind); }
};

constexpr std::string_view op_name(op_kind k) {
  switch (k) {
    case op_kind::send:
      return "send";
    case op_kind::recv:
      return "recv";
    case op_kind::exchange:
      return "exchange";
    case op_kind::sendrecv:
      return "sendrecv";
    case op_kind::idle:
      return "idle";
    case op_kind::barrier:
      return "barrier";
    case op_kind::pair_sync:
      return "pair_sync";
    case op_kind::shuffle:
      return "shuffle";
    case op_kind::combine:
      return "combine";
  }
  return "?";
}

constexpr bool parse_op_kind(std::string_view s, op_kind& out) {
  for (auto k : {op_kind::send, op_kind::recv, op_kind::exchange, op_kind::sendrecv, op_kind::idle,
                 op_kind::barrier, op_kind::pair_sync, op_kind::shuffle, op_kind::combine}) {
    if (op_name(k) == s) {
      out = k;
      return true;
    }
  }
  return false;
}

}  // namespace tessera
