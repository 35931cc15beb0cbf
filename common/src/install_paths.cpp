#include "tessera/common/install_paths.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <system_error>

namespace tessera {

std::filesystem::path executable_dir() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  return std::filesystem::path(std::string_view(buf.data(), static_cast<std::size_t>(n)))
      .parent_path();
}

std::filesystem::path data_path(std::string_view relative,
                                const std::filesystem::path& build_tree) {
  if (const char* d = std::getenv("TESSERA_DATA_DIR"); d != nullptr && *d != '\0')
    return std::filesystem::path(d) / relative;
  const std::filesystem::path dir = executable_dir();
  if (!dir.empty()) {
    // TESSERA_DATA_FROM_BINDIR: the data directory relative to the executable's, as the
    // install rules lay them out (common/CMakeLists.txt).
    std::filesystem::path installed = dir / TESSERA_DATA_FROM_BINDIR / relative;
    std::error_code ec;
    if (std::filesystem::exists(installed, ec)) return installed.lexically_normal();
  }
  return build_tree;
}

}  // namespace tessera
