// What travels between tiles: a header and, for data messages, a block directory
// followed by the blocks' bytes. The directory carries every block's id and length
// end to end, so a receiver checks what it got against what its op expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace tessera {

enum class msg_kind : std::uint8_t {
  data,      // blocks of a send op
  reserve,   // UNFORCED: ask the receiver to reserve space for a large message
  ack,       // UNFORCED: space reserved, send the data
  sync,      // one round of the global barrier (butterfly or dissemination)
  pair,      // pairwise synchronization (Bokhari §5)
  data_ack,  // reliable: the data message with this sequence number arrived intact
};

// Bokhari §2.1: the iPSC-860's two message types, plus raw (no protocol at all) and
// an end-to-end reliable protocol of the tile runtime (reliable.hpp).
enum class protocol : std::uint8_t {
  raw,       // delivered whenever it arrives; buffered if no receive is posted
  forced,    // dropped on arrival if no receive is posted
  unforced,  // above the threshold: reserve/ack first; at or below it: like raw
  reliable,  // sequence numbers, a checksum, acks and retransmission: survives loss
};

constexpr std::string_view protocol_name(protocol p) {
  switch (p) {
    case protocol::raw:
      return "raw";
    case protocol::forced:
      return "forced";
    case protocol::unforced:
      return "unforced";
    case protocol::reliable:
      return "reliable";
  }
  return "?";
}

constexpr bool parse_protocol(std::string_view s, protocol& out) {
  for (auto p : {protocol::raw, protocol::forced, protocol::unforced, protocol::reliable}) {
    if (protocol_name(p) == s) {
      out = p;
      return true;
    }
  }
  return false;
}

constexpr std::string_view msg_kind_name(msg_kind k) {
  switch (k) {
    case msg_kind::data:
      return "data";
    case msg_kind::reserve:
      return "reserve";
    case msg_kind::ack:
      return "ack";
    case msg_kind::sync:
      return "sync";
    case msg_kind::pair:
      return "pair";
    case msg_kind::data_ack:
      return "data_ack";
  }
  return "?";
}

inline constexpr std::uint32_t any_tile = 0xffffffffU;
inline constexpr std::uint32_t any_tag = 0xffffffffU;

struct msg_header {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  msg_kind kind{msg_kind::data};
  protocol proto{protocol::raw};
  std::uint32_t tag{0};          // data: the op's step; control: a sequence number
  std::uint32_t blocks{0};       // data: directory entries
  std::uint32_t first_block{0};  // data: id of the first block, for diagnostics
  std::uint64_t bytes{0};        // data bytes after the directory: what the wire is charged for
  std::uint32_t seq{0};          // reliable: per (source, destination) sequence number
  std::uint32_t check{0};        // reliable: message_check of the payload
};

// One directory entry; the payload starts with `blocks` of them.
struct dir_entry {
  std::uint32_t id;
  std::uint32_t len;
};

inline constexpr std::size_t dir_bytes(std::uint32_t blocks) {
  return blocks * sizeof(dir_entry);
}

inline dir_entry read_dir(const std::byte* payload, std::uint32_t i) {
  dir_entry e;
  __builtin_memcpy(&e, payload + dir_bytes(i), sizeof e);  // inline when freestanding too
  return e;
}

inline void write_dir(std::byte* payload, std::uint32_t i, dir_entry e) {
  __builtin_memcpy(payload + dir_bytes(i), &e, sizeof e);
}

// Fletcher-32 over the payload's bytes (sums modulo 65535), started from the header
// fields the receiver relies on. Changing any one byte always changes it: the byte's
// difference is below 65535, so the first sum moves.
constexpr std::uint32_t message_check(const msg_header& h, std::span<const std::byte> payload) {
  std::uint32_t a = (h.blocks ^ static_cast<std::uint32_t>(h.bytes)) % 65535U + 1U;
  std::uint32_t b = (h.seq ^ h.tag) % 65535U;
  std::size_t i = 0;
  while (i < payload.size()) {
    // 359 bytes keep both sums below 2^32 before the reduction.
    const std::size_t end = payload.size() - i > 359 ? i + 359 : payload.size();
    for (; i < end; ++i) {
      a += static_cast<std::uint32_t>(payload[i]);
      b += a;
    }
    a %= 65535U;
    b %= 65535U;
  }
  return (b << 16) | a;
}

}  // namespace tessera
