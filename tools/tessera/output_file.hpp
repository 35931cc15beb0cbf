// The files a command's options write (--trace, --csv, --plot, --html, ...). Every one is
// opened, written and closed through here, so a write that fails (a full disk, /dev/full,
// a directory that cannot be made) is bad input with one line naming the option and the
// file, never a silent success: "--csv '/dev/full': write failed".
#pragma once

#include <fstream>
#include <string>

namespace tessera::cli {

class output_file {
 public:
  // Opens (and empties) the file now: input_error "--trace 'PATH' cannot be written".
  output_file(std::string option, std::string path);

  [[nodiscard]] std::ostream& stream() { return file_; }
  // Flushes and closes it: input_error "--trace 'PATH': write failed" when any write
  // to it failed.
  void close();

 private:
  std::string option_;
  std::string path_;
  std::ofstream file_;
};

// The whole text to the file: opened, written and closed, each step checked.
void write_output_file(const std::string& option, const std::string& path, const std::string& text);

// Opens and empties the file now, so a path that cannot be written is refused before a
// long run rather than after it.
void check_writable(const std::string& option, const std::string& path);

}  // namespace tessera::cli
