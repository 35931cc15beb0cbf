// The built binary itself: exit statuses and stdout/stderr separation.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using proc = tessera::test::cli_result;

proc run_binary(const std::string& args) {
  return tessera::test::run_binary(args);
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
