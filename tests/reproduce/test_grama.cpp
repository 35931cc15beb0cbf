// `reproduce grama`: the slides' costs (Grama, Gupta, Karypis, Kumar, "Basic
// Communication Operations") against the alpha-beta model. The expected costs here are
// the slides' formulas evaluated in the test, with ts = 100 and tw = 2.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "find_row.hpp"
#include "tessera/reproduce/reproduce.hpp"

using namespace tessera::reproduce;
using tessera::test::find_row;

TEST_CASE("reproduce grama: every row within its tolerance, on every fabric family",
          "[reproduce]") {
  const paper_report r = run("grama", options{});
  INFO(r.failed() << " rows failed");
  CHECK(r.pass());
  // Every operation the runtime implements appears, on each family the slides cost it on.
  std::set<std::string> seen;
  for (const row& x : r.rows) {
    const std::string op = x.what.substr(0, x.what.find(' '));
    const std::string family = x.what.substr(x.what.find(", ") + 2, 4);
    seen.insert(op + "@" + family);
  }
  for (const char* want :
       {"bcast@hype",     "bcast@ring",          "bcast@mesh",          "reduce@hype",
        "reduce@ring",    "reduce@mesh",         "allgather@ring",      "allgather@mesh",
        "allgather@hype", "reduce-scatter@ring", "reduce-scatter@mesh", "reduce-scatter@hype",
        "allreduce@hype", "prefix@hype",         "scatter@hype",        "scatter@ring",
        "gather@mesh",    "alltoall@ring",       "alltoall@mesh",       "alltoall@hype",
        "shift@ring",     "shift@mesh",          "shift@hype"}) {
    INFO(want);
    CHECK(seen.count(want) == 1);
  }
}

TEST_CASE("reproduce grama: the slides' formulas, evaluated here", "[reproduce]") {
  const paper_report r = run("grama", options{});
  struct want {
    const char* what;
    double cycles;
  };
  // p = 8 (hypercube:3), 16 (mesh:4x4, ring:16), 64 (hypercube:6).
  const want cases[] = {
      // (ts + tw m) log p
      {"bcast binomial, hypercube:3, m = 1024", (100 + 2 * 1024) * 3},
      {"reduce binomial, ring:16, m = 4096", (100 + 2 * 4096) * 4},
      // ts log p + tw m (p - 1)
      {"allgather hypercube, hypercube:6, m = 1024", 100 * 6 + 2 * 1024 * 63},
      {"scatter binomial, hypercube:3, m = 4096", 100 * 3 + 2 * 4096 * 7},
      // (ts + tw m)(p - 1) on a ring
      {"allgather ring, ring:8, m = 1024", (100 + 2 * 1024) * 7},
      // 2 ts (sqrt p - 1) + tw m (p - 1) on a mesh
      {"allgather mesh, mesh:4x4, m = 1024", 2 * 100 * 3 + 2 * 1024 * 15},
      // all-to-all: ring (ts + tw m p / 2)(p - 1), mesh (2 ts + tw m p)(sqrt p - 1),
      // hypercube (ts + tw m p / 2) log p and, pairwise, (ts + tw m)(p - 1)
      {"alltoall ring, ring:16, m = 64", (100 + 2 * 64 * 16 / 2) * 15},
      {"alltoall mesh, mesh:8x8, m = 64", (2 * 100 + 2 * 64 * 64) * 7},
      {"alltoall standard, hypercube:6, m = 1024", (100 + 2 * 1024 * 64 / 2) * 6},
      {"alltoall pairwise, hypercube:3, m = 64", (100 + 2 * 64) * 7},
      // shift on a ring: (ts + tw m) min(q, p - q), q = p / 2 - 1
      {"shift ring, ring:16, m = 1024, q = 7", (100 + 2 * 1024) * 7},
      // bounds: mesh (ts + tw m)(sqrt p + 1), hypercube (ts + tw m)(2 log p - 1)
      {"shift mesh, mesh:8x8, m = 4096, q = 31", (100 + 2 * 4096) * 9},
      {"shift powers-of-two, hypercube:6, m = 1024, q = 31", (100 + 2 * 1024) * 11},
  };
  for (const want& w : cases) {
    INFO(w.what);
    const row* x = find_row(r, w.what);
    REQUIRE(x != nullptr);
    CHECK(x->paper == w.cycles);
    CHECK(x->pass());
  }
}

TEST_CASE("reproduce grama: an unknown paper is refused naming it", "[reproduce]") {
  CHECK_THROWS_WITH(run("nosuch", options{}), Catch::Contains("paper 'nosuch'"));
}
