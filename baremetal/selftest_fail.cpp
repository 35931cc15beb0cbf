// tessera_selftest_fail.elf: one test that fails on purpose. ctest expects this image to
// fail (WILL_FAIL), which proves the whole path from a failed check to qemu's exit code:
// run_all -> main's return value -> picolibc exit() -> semihosting exit -> qemu.
#include "selftest.hpp"

namespace {

bool fails_on_purpose() {
  tessera::selftest::check(false) << "this image fails on purpose";
  return false;
}

constexpr tessera::selftest::test_case tests[] = {
    {"deliberate failure", &fails_on_purpose},
};

}  // namespace

int main() {
  return tessera::selftest::run_all("tessera_selftest_fail", tests);
}
