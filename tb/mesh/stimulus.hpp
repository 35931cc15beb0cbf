#pragma once

// tb_mesh --scenario file's messages (docs/rtl.md, "Add your own golden test"): a JSON
// file of messages, each with its source, destination, size, posting cycle and, for a
// golden test, the cycles it must take.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tb::mesh {

// One message of a --stimulus file.
struct file_message {
  unsigned src = 0, dst = 0, flits = 0, packet_flits = 0;
  std::uint64_t at = 0;
  std::optional<std::uint64_t> want;
  std::string what;
};

// The messages of a --stimulus file, in posting order (a tile's NI takes its messages in
// that order), each named by its "what" or its place in the file. input_error names the
// file and what is wrong.
std::vector<file_message> read_stimulus(const std::string& path, unsigned tiles);

}  // namespace tessera::tb::mesh
