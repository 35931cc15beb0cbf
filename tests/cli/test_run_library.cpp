// The run library's entry point (tessera/run/run.hpp) called directly, as a front end
// other than the CLI would: a config built in code, one result that writes its own JSON
// and text, refusals as input_error. Expected cycles are Grama's closed forms
// ("Basic Communication Operations"), evaluated here.
#include <catch2/catch.hpp>

#include <sstream>

#include "run_configs.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/run/run.hpp"

namespace {

using tessera::test::allgather_on_cube;

}  // namespace

TEST_CASE("run library: a config in, one result with its JSON and text out", "[cli]") {
  const auto res = tessera::run::run(allgather_on_cube(3, 64));
  REQUIRE(res != nullptr);
  // Grama eq. (2), all-gather on a hypercube: ts log p + tw m (p - 1).
  const std::uint64_t want = 100 * 3 + 2 * 64 * 7;
  CHECK(res->verified());
  CHECK(res->exit_status() == 0);
  CHECK(res->failure().empty());
  const auto j = res->json();
  CHECK(j["command"] == "run");
  CHECK(j["model"] == "alphabeta");
  CHECK(j["fabric"] == "hypercube:3");
  CHECK(j["cycles"] == want);
  CHECK(j["verified"] == true);
  // All-gather: each of the 8 tiles ends holding all 8 blocks of 64 bytes, each compared.
  const std::uint64_t checked = 8 * 8 * 64;
  CHECK(j["bytes_checked"] == checked);
  CHECK(j["per_step"].size() == 3);
  std::ostringstream text;
  res->write_text(text);
  CHECK(text.str().find("cycles      " + std::to_string(want) + "\n") != std::string::npos);
  CHECK(text.str().find("verified    yes, " + std::to_string(checked) + " bytes checked\n") !=
        std::string::npos);
}

TEST_CASE("run library: refusals are input_error naming the value", "[cli]") {
  auto c = allgather_on_cube(2, 16);
  c.model = "nosuch";
  CHECK_THROWS_WITH(tessera::run::run(c), "--model 'nosuch' is not a model (alphabeta, tlm, rtl)");
  c = allgather_on_cube(2, 16);
  c.params = {{"beta", "3"}};
  CHECK_THROWS_WITH(tessera::run::run(c), Catch::Contains("--param 'beta'"));
  c = allgather_on_cube(2, 16);
  c.workload = tessera::run::workload_kind::traffic;
  c.traffic.pattern = "uniform";
  CHECK_THROWS_WITH(tessera::run::run(c), Catch::Contains("--traffic needs a timed model"));
}
