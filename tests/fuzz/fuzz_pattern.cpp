// libFuzzer target: the --pattern reader on a 4x4 mesh.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "readers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto j = tessera::parse_json_text(text, "--pattern");
    (void)tessera::cli::pattern_from_json(j, tessera::fabric::mesh(4, 4));
  } catch (const tessera::input_error&) {
  }
  return 0;
}
