// sh_word: the shell itself reads each quoted word back as the original string.
#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "tessera/common/shell.hpp"

namespace {

// What /bin/sh makes of `word` as one argument of printf.
std::string shell_reads(const std::string& word) {
  const std::string cmd = "printf '%s|' " + word;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[256];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
    out.append(buf, n);
  REQUIRE(::pclose(p) == 0);
  return out;
}

}  // namespace

TEST_CASE("sh_word leaves plain words alone") {
  CHECK(tessera::sh_word("tb_mesh") == "tb_mesh");
  CHECK(tessera::sh_word("--model=4x4_vc4") == "--model=4x4_vc4");
  CHECK(tessera::sh_word("/tmp/a,b:c+d@e%f") == "/tmp/a,b:c+d@e%f");
}

TEST_CASE("sh_word quotes what the shell would split, expand or drop") {
  for (const std::string w : {"", "two words", "it's", "'", "$HOME", "a*b", "x;y", "\"q\"",
                              "back\\slash", "new\nline", "~user", "a&b|c", "''''"}) {
    INFO(w);
    const std::string q = tessera::sh_word(w);
    CHECK(q.front() == '\'');
    CHECK(shell_reads(q) == w + "|");  // exactly one argument, byte for byte
  }
}
