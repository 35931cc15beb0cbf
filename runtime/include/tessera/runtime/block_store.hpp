// A tile's memory for a collective: blocks of at most slot_bytes each, found by
// block id. Capacity is fixed by the caller's storage; there is no heap.
// Lookup is an open-addressing hash (linear probing, backward-shift deletion), so
// a tile holding a thousand blocks pays the same per lookup as one holding four.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace tessera {

class block_store {
 public:
  struct entry {
    std::uint32_t id{0};
    std::uint32_t len{0};
  };

  static constexpr std::uint32_t empty = 0;  // hash cells hold entry index + 1

  // The hash cells a store of `capacity` blocks takes: a power of two at least twice
  // the capacity, so that probes stay short at any fill.
  static constexpr std::uint32_t hash_cells(std::uint32_t capacity) {
    std::uint32_t h = 1;
    while (h < 2 * capacity)
      h *= 2;
    return h;
  }

  block_store() = default;
  // arena: capacity * slot_bytes bytes; entries and free_stack: capacity each;
  // hash: hash_cells(capacity).
  block_store(std::span<std::byte> arena, std::uint32_t slot_bytes, std::span<entry> entries,
              std::span<std::uint32_t> free_stack, std::span<std::uint32_t> hash)
      : arena_{arena},
        slot_{slot_bytes},
        entries_{entries},
        free_{free_stack},
        hash_{hash},
        capacity_{static_cast<std::uint32_t>(entries.size())} {
    clear();
  }

  void clear() {
    for (auto& h : hash_)
      h = empty;
    for (std::uint32_t i = 0; i < capacity_; ++i)
      free_[i] = capacity_ - 1 - i;
    free_top_ = capacity_;
    size_ = 0;
  }

  [[nodiscard]] std::uint32_t size() const { return size_; }
  [[nodiscard]] std::uint32_t capacity() const { return capacity_; }
  [[nodiscard]] std::uint32_t slot_bytes() const { return slot_; }

  [[nodiscard]] bool contains(std::uint32_t id) const { return cell_of(id) != npos; }

  // The bytes of block `id`, or an empty span if it is not held.
  [[nodiscard]] std::span<std::byte> find(std::uint32_t id) {
    const std::uint32_t c = cell_of(id);
    if (c == npos) return {};
    const std::uint32_t e = hash_[c] - 1;
    return arena_.subspan(std::size_t{e} * slot_, entries_[e].len);
  }

  enum class put_result : std::uint8_t { ok, duplicate, full, too_long };

  // Stores a new block (a copy of `data`).
  put_result insert(std::uint32_t id, std::span<const std::byte> data) {
    std::span<std::byte> slot;
    const put_result r = emplace(id, static_cast<std::uint32_t>(data.size()), slot);
    if (r == put_result::ok && !data.empty()) std::memcpy(slot.data(), data.data(), data.size());
    return r;
  }

  // Makes room for a new block of `len` bytes and hands back its bytes to fill.
  put_result emplace(std::uint32_t id, std::uint32_t len, std::span<std::byte>& out) {
    if (len > slot_) return put_result::too_long;
    if (contains(id)) return put_result::duplicate;
    if (free_top_ == 0) return put_result::full;
    const std::uint32_t e = free_[--free_top_];
    entries_[e] = entry{id, len};
    std::uint32_t c = home(id);
    while (hash_[c] != empty)
      c = (c + 1) & mask();
    hash_[c] = e + 1;
    ++size_;
    out = arena_.subspan(std::size_t{e} * slot_, len);
    return put_result::ok;
  }

  bool erase(std::uint32_t id) {
    std::uint32_t c = cell_of(id);
    if (c == npos) return false;
    free_[free_top_++] = hash_[c] - 1;
    --size_;
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    std::uint32_t next = (c + 1) & mask();
    while (hash_[next] != empty) {
      const std::uint32_t h = home(entries_[hash_[next] - 1].id);
      const bool movable = ((next - h) & mask()) >= ((next - c) & mask());
      if (movable) {
        hash_[c] = hash_[next];
        c = next;
      }
      next = (next + 1) & mask();
    }
    hash_[c] = empty;
    return true;
  }

  // Calls f(id, bytes) for every held block, in no particular order.
  template <typename F>
  void for_each(F&& f) {
    for (const std::uint32_t cell : hash_) {
      if (cell == empty) continue;
      const std::uint32_t e = cell - 1;
      f(entries_[e].id, arena_.subspan(std::size_t{e} * slot_, entries_[e].len));
    }
  }

 private:
  static constexpr std::uint32_t npos = 0xffffffffU;

  [[nodiscard]] std::uint32_t mask() const { return static_cast<std::uint32_t>(hash_.size()) - 1; }
  [[nodiscard]] std::uint32_t home(std::uint32_t id) const {
    return (id * 0x9E3779B1U) & mask();  // Fibonacci hashing spreads consecutive ids
  }
  [[nodiscard]] std::uint32_t cell_of(std::uint32_t id) const {
    if (hash_.empty()) return npos;
    std::uint32_t c = home(id);
    while (hash_[c] != empty) {
      if (entries_[hash_[c] - 1].id == id) return c;
      c = (c + 1) & mask();
    }
    return npos;
  }

  std::span<std::byte> arena_{};
  std::uint32_t slot_{0};
  std::span<entry> entries_{};
  std::span<std::uint32_t> free_{};
  std::span<std::uint32_t> hash_{};
  std::uint32_t capacity_{0};
  std::uint32_t free_top_{0};
  std::uint32_t size_{0};
};

// Static storage for a store of Capacity blocks of SlotBytes each (bare metal).
template <std::uint32_t Capacity, std::uint32_t SlotBytes>
struct block_store_storage {
  static constexpr std::uint32_t hash_size = block_store::hash_cells(Capacity);
  alignas(8) std::byte arena[std::size_t{Capacity} * SlotBytes];
  block_store::entry entries[Capacity];
  std::uint32_t free_stack[Capacity];
  std::uint32_t hash[hash_size];

  block_store make() { return block_store{arena, SlotBytes, entries, free_stack, hash}; }
};

}  // namespace tessera
