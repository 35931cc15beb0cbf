// Message records reused by slot: an engine keeps its messages in a vector and the slots
// of delivered ones in a free list, so a long run holds as many records as it ever had
// messages in flight at once.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::net {

// A slot for a new message: the most recently freed one, else a new default record at
// the end. A reused record keeps its old contents; the engine sets what it reads.
template <typename Message>
std::uint32_t take_slot(std::vector<Message>& msgs, std::vector<std::uint32_t>& free_slots) {
  if (!free_slots.empty()) {
    const std::uint32_t slot = free_slots.back();
    free_slots.pop_back();
    return slot;
  }
  msgs.emplace_back();
  return static_cast<std::uint32_t>(msgs.size() - 1);
}

}  // namespace tessera::net
