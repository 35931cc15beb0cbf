// libFuzzer target: the fabric spec parser, and the routing of what it accepts: every
// route stays within max_hops, on links that exist, and ends at its destination.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const tessera::fabric_parse_result r = tessera::parse_fabric(text);
  if (!r.ok()) {
    (void)tessera::describe(r.error);
    return 0;
  }
  const tessera::fabric& f = r.value;
  const std::uint32_t p = f.tiles();
  // A few pairs, not all p^2 of a 65536-tile fabric.
  for (std::uint32_t k = 0; k < 8; ++k) {
    const std::uint32_t s = (k * 2654435761U) % p;
    const std::uint32_t d = (k * 40503U + 7U) % p;
    std::uint32_t at = s;
    std::uint32_t hops = 0;
    tessera::for_each_hop(f, tessera::tile_id{s}, tessera::tile_id{d}, [&](tessera::link_id l) {
      if (!tessera::link_exists(f, l) || tessera::link_source(f, l).value() != at) std::abort();
      at = tessera::endpoints(f, l).to.value();
      ++hops;
    });
    if (at != d || hops > tessera::max_hops(f)) std::abort();
  }
  return 0;
}
