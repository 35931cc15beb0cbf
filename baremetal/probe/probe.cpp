#include <array>
#include <span>

extern "C" {
#include <semihost.h>
}

int main() {
  constexpr std::array<char, 3> text{'o', 'k', '\0'};
  sys_semihost_write0(std::span{text}.data());
  return 0;
}
