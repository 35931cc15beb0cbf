// What travels between tiles: a header and, for data messages, a block directory
// followed by the blocks' bytes. The directory carries every block's id and length
// end to end, so a receiver checks what it got against what its op expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tessera {

enum class msg_kind : std::uint8_t {
  data,     // blocks of a send op
  reserve,  // UNFORCED: ask the receiver to reserve space for a large message
  ack,      // UNFORCED: space reserved, send the data
  sync,     // one round of the dissemination barrier
  pair,     // pairwise synchronization (Bokhari §5)
};

// Bokhari §2.1: the iPSC-860's two message types, plus raw (no protocol at all).
enum class protocol : std::uint8_t {
  raw,       // delivered whenever it arrives; buffered if no receive is posted
  forced,    // dropped on arrival if no receive is posted
  unforced,  // above the threshold: reserve/ack first; at or below it: like raw
};

constexpr std::string_view protocol_name(protocol p) {
  switch (p) {
    case protocol::raw:
      return "raw";
    case protocol::forced:
      return "forced";
    case protocol::unforced:
      return "unforced";
  }
  return "?";
}

constexpr bool parse_protocol(std::string_view s, protocol& out) {
  for (auto p : {protocol::raw, protocol::forced, protocol::unforced}) {
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
  std::memcpy(&e, payload + dir_bytes(i), sizeof e);
  return e;
}

inline void write_dir(std::byte* payload, std::uint32_t i, dir_entry e) {
  std::memcpy(payload + dir_bytes(i), &e, sizeof e);
}

}  // namespace tessera
