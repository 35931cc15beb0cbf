#include "output_file.hpp"

#include <utility>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

namespace tessera::cli {

output_file::output_file(std::string option, std::string path)
    : option_{std::move(option)}, path_{std::move(path)} {
  if (path_.empty()) throw input_error(option_ + " needs a file name");
  file_.open(path_, std::ios::binary);
  if (!file_) throw input_error(option_ + " '" + shown(path_, 160) + "' cannot be written");
}

void output_file::close() {
  file_.flush();
  file_.close();
  if (!file_) throw input_error(option_ + " '" + shown(path_, 160) + "': write failed");
}

void write_output_file(const std::string& option, const std::string& path,
                       const std::string& text) {
  output_file f{option, path};
  f.stream() << text;
  f.close();
}

void check_writable(const std::string& option, const std::string& path) {
  output_file{option, path}.close();
}

}  // namespace tessera::cli
