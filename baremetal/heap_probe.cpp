// Must NOT link: the no-heap rule of tile images (docs/baremetal.md). The ctest
// baremetal.no_heap builds this target and passes only if the link fails on malloc.
#include <cstdint>

namespace {
// volatile so the allocation cannot be optimised away (new/delete pairs may be elided).
std::uint32_t* volatile kept;
}  // namespace

int main() {
  kept = new std::uint32_t{7};
  return static_cast<int>(*kept);
}
