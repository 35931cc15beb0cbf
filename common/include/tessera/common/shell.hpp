// A word for a POSIX shell: the commands Tessera prints for a user to paste (a sweep's
// job list and Slurm script, a testbench's replay line) quote what needs quoting.
#pragma once

#include <string>
#include <string_view>

namespace tessera {

// `w` as is when it holds only characters no shell treats specially, otherwise in single
// quotes (a quote inside written as '\'').
inline std::string sh_word(std::string_view w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./:=,+@%") == std::string_view::npos) {
    return std::string(w);
  }
  std::string out = "'";
  for (const char c : w)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace tessera
