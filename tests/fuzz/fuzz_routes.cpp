// libFuzzer target: the --routes reader, the forwarding table installed on a 4x4 torus
// (which checks ports, loops and deadlock), and its channel dependency graph searched for
// a cycle as check-routes searches it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "readers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/net/torus_engine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const tessera::fabric f = tessera::fabric::torus(4, 4);
  try {
    const auto j = tessera::parse_json_text(text, "--routes");
    const auto entries = tessera::cli::routes_from_json(j, f);
    tessera::net::torus_engine checked{f, tessera::net::torus_params{}};
    checked.set_forwarding(entries, tessera::net::torus_engine::deadlock_check::skip);
    (void)checked.dependencies().find_cycle();
    tessera::net::torus_engine e{f, tessera::net::torus_params{}};
    e.set_forwarding(entries);
    std::vector<std::uint32_t> path;
    for (std::uint32_t s = 0; s < f.tiles(); ++s)
      for (std::uint32_t d = 0; d < f.tiles(); ++d)
        if (s != d) e.route(s, d, path);
  } catch (const tessera::input_error&) {
  }
  return 0;
}
