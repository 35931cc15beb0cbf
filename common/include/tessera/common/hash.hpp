// A 64-bit FNV-1a hash, for cache keys (not for security): stable across runs and
// machines, unlike std::hash.
#pragma once

#include <cstdint>
#include <string_view>

namespace tessera {

class fnv1a64 {
 public:
  fnv1a64& add(std::string_view bytes) {
    for (const char c : bytes) {
      h_ ^= static_cast<unsigned char>(c);
      h_ *= 0x100000001b3ULL;
    }
    return *this;
  }
  // A field and a separator, so that ("ab", "c") and ("a", "bc") differ.
  fnv1a64& field(std::string_view bytes) {
    add(bytes);
    return add(std::string_view("\0", 1));
  }
  [[nodiscard]] std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_{0xcbf29ce484222325ULL};
};

}  // namespace tessera
