// The built binary itself: exit statuses and stdout/stderr separation.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace {

struct proc {
  int code;
  std::string out;
};

proc run_binary(const std::string& args) {
  const std::string cmd = std::string(TESSERA_CLI) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("the tessera binary prints JSON only and exits 0", "[cli][process]") {
  const auto r =
      run_binary("analyze --fabric hypercube:6 --collective alltoall --algorithm pairwise --json");
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["steps"] == 63);
}

TEST_CASE("the tessera binary exits 2 on bad input with nothing on stdout", "[cli][process]") {
  const auto r = run_binary("analyze --fabric mesh:4x5 --collective alltoall --algorithm pex");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
}
