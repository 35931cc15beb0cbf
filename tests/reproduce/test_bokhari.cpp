// `reproduce bokhari` (Bokhari, "Complete Exchange on the iPSC-860"): the message times
// of §2.2 evaluated here, every row within its tolerance, and the edge-contention
// experiment's "more than seven times" (§2.3).
#include <catch2/catch.hpp>
#include <string>

#include "tessera/reproduce/reproduce.hpp"

using namespace tessera::reproduce;

TEST_CASE("reproduce bokhari: Figure 2's times and Figure 4's contention", "[reproduce]") {
  options o;
  o.bokhari.message_bytes = {0, 400, 1000};
  o.bokhari.contention_bytes = {1000};
  const paper_report r = run("bokhari", o);
  INFO(r.failed() << " rows failed");
  CHECK(r.pass());
  std::size_t forced = 0;
  std::size_t unforced = 0;
  for (const row& x : r.rows) {
    if (x.what == "FORCED, d = 7, m = 1000") {
      CHECK(x.paper == Approx(95 + 0.394 * 1000 + 10.3 * 7));  // 561.1 us
      ++forced;
    }
    if (x.what == "UNFORCED, d = 3, m = 400") {
      CHECK(x.paper == Approx(164 + 0.398 * 400 + 29.9 * 3));  // 412.9 us
      ++unforced;
    }
    if (x.source == "§2.2, FORCED (Figure 2)") {
      // Whole cycles of 0.394 us cannot be closer than a few tenths of a microsecond.
      CHECK(x.tol.value < 0.5);
    }
    if (x.what == "8 contending 1000-byte messages / 1 message") {
      CHECK(x.paper == 7);
      CHECK(x.simulated > 7);
    }
  }
  CHECK(forced == 1);
  CHECK(unforced == 1);
  // The charts of §4 on the d-cubes, n = 2^d: naive 3n/2 - 2 steps (10 on the 3-cube, as
  // Figure 6 shows), linear and pairwise n - 1, stable n.
  for (const row& x : r.rows) {
    if (x.what == "naive, n = 8") CHECK(x.paper == 10);
    if (x.what == "naive, n = 128") CHECK(x.paper == 3 * 128 / 2 - 2);
    if (x.what == "stable, n = 64") CHECK(x.paper == 64);
  }
  // 7 distances x 3 sizes FORCED, 7 x 2 UNFORCED (m > 100), 7 claims and the ratio; the
  // charts: 4 step counts for each of 7 cubes, 2 contention-free claims each, and the
  // stability claim from the 2-cube on.
  CHECK(r.rows.size() == 21 + 14 + 7 + 1 + 7 * 4 + 7 * 2 + 6);
  CHECK(r.figures.size() == 2);
}
