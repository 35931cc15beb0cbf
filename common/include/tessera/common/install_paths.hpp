// Where the CLI finds the files it reads at run time (the default tile image, the RTL that
// `tessera area` synthesizes): installed, under <prefix>/share/tessera beside
// <prefix>/bin/tessera (`cmake --install`, the .deb: cmake/tessera_install.cmake), found
// from the running executable so that the prefix can be anywhere; in a build tree, which has
// no such directory beside its executable, at the path the build compiled in.
#pragma once

#include <filesystem>
#include <string_view>

namespace tessera {

// The directory of the running executable (/proc/self/exe); empty if it cannot be read.
std::filesystem::path executable_dir();

// $TESSERA_DATA_DIR/<relative> when that is set (for a program whose executable is not
// tessera's: the Python module runs in the interpreter's process); else
// <executable_dir>/../share/tessera/<relative> when it exists (an installed tessera); else
// `build_tree` (the build's own path, empty when the build has none).
std::filesystem::path data_path(std::string_view relative, const std::filesystem::path& build_tree);

}  // namespace tessera
