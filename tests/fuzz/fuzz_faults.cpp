// libFuzzer target: the fault reader (--fault values and --fault-file lines) on a 4x4
// torus and a 3-cube, and an injector built from what it accepts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/common/errors.hpp"
#include "tessera/harness/faults.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const tessera::fabric& f : {tessera::fabric::torus(4, 4), tessera::fabric::hypercube(3)}) {
    try {
      auto specs = tessera::harness::parse_fault_list(text, f, "--fault-file");
      tessera::harness::fault_injector inj{f, std::move(specs)};
      tessera::msg_header h{};
      h.src = 0;
      h.dst = f.tiles() - 1;
      (void)inj.admit(h, 1, 10);
      (void)inj.resume_at(0, 10);
    } catch (const tessera::input_error&) {
    }
    try {
      (void)tessera::harness::parse_fault(text, f);
    } catch (const tessera::input_error&) {
    }
  }
  return 0;
}
