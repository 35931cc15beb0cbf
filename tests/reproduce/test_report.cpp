// The reproduction report's rules: how a row's tolerance decides pass, how deviation is
// signed, and that a report fails when one row does (docs/reproduction.md).
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "tessera/reproduce/report.hpp"

using namespace tessera::reproduce;

namespace {
row make(double paper, double simulated, tolerance t) {
  row r;
  r.source = "Table 1";
  r.what = "case";
  r.unit = "us";
  r.paper = paper;
  r.simulated = simulated;
  r.tol = std::move(t);
  return r;
}
}  // namespace

TEST_CASE("reproduce report: each tolerance kind decides pass by its own rule", "[reproduce]") {
  CHECK(make(100, 100, tolerance::exact()).pass());
  CHECK_FALSE(make(100, 101, tolerance::exact()).pass());
  // 10 % of 200 is 20: 220 passes, 221 does not, on either side.
  CHECK(make(200, 220, tolerance::relative(0.10, "")).pass());
  CHECK(make(200, 180, tolerance::relative(0.10, "")).pass());
  CHECK_FALSE(make(200, 221, tolerance::relative(0.10, "")).pass());
  CHECK_FALSE(make(200, 179, tolerance::relative(0.10, "")).pass());
  CHECK(make(5, 8, tolerance::absolute(3, "")).pass());
  CHECK_FALSE(make(5, 8.5, tolerance::absolute(3, "")).pass());
  CHECK(make(10, 10, tolerance::at_most("")).pass());
  CHECK(make(10, 9, tolerance::at_most("")).pass());
  CHECK_FALSE(make(10, 11, tolerance::at_most("")).pass());
  CHECK(make(10, 11, tolerance::at_least("")).pass());
  CHECK_FALSE(make(10, 9, tolerance::at_least("")).pass());
  // over: from the paper's value up to 5 % above it, never below.
  CHECK(make(100, 100, tolerance::over(0.05, "")).pass());
  CHECK(make(100, 105, tolerance::over(0.05, "")).pass());
  CHECK_FALSE(make(100, 105.5, tolerance::over(0.05, "")).pass());
  CHECK_FALSE(make(100, 99.9, tolerance::over(0.05, "")).pass());
  CHECK(make(1, 1, tolerance::claim()).pass());
  CHECK_FALSE(make(1, 0, tolerance::claim()).pass());
}

TEST_CASE("reproduce report: a run that proves nothing fails its row", "[reproduce]") {
  // A simulated value of NaN (a run that did not verify) fails under every tolerance,
  // even the loosest.
  CHECK_FALSE(make(10, NAN, tolerance::relative(1e9, "")).pass());
  CHECK_FALSE(make(10, NAN, tolerance::at_most("")).pass());
  CHECK_FALSE(make(NAN, 10, tolerance::at_least("")).pass());
}

TEST_CASE("reproduce report: deviation is (simulated - paper) / |paper|", "[reproduce]") {
  CHECK(make(200, 230, tolerance::exact()).deviation() == Approx(0.15));
  CHECK(make(200, 170, tolerance::exact()).deviation() == Approx(-0.15));
  CHECK(make(-200, -170, tolerance::exact()).deviation() == Approx(0.15));
  CHECK(make(0, 0, tolerance::exact()).deviation() == 0);
  CHECK(std::isinf(make(0, 1, tolerance::exact()).deviation()));
}

TEST_CASE("reproduce report: one failed row fails the report, in text and JSON", "[reproduce]") {
  paper_report r;
  r.paper = "demo";
  r.title = "A, B, \"A demo\"";
  r.model = "none";
  r.rows.push_back(make(100, 100, tolerance::exact()));
  r.rows.push_back(make(100, 150, tolerance::relative(0.1, "ten percent")));
  CHECK_FALSE(r.pass());
  CHECK(r.failed() == 1);
  const auto j = to_json(r);
  CHECK(j["pass"] == false);
  CHECK(j["rows_total"] == 2);
  CHECK(j["rows_failed"] == 1);
  CHECK(j["rows"][1]["deviation"].get<double>() == Approx(0.5));
  CHECK(j["rows"][1]["tolerance"]["kind"] == "relative");
  CHECK(j["rows"][1]["pass"] == false);
  std::ostringstream os;
  write_text(os, r);
  CHECK(os.str().find("FAIL") != std::string::npos);
  CHECK(os.str().find("demo: 1 of 2 rows within tolerance (FAILED)") != std::string::npos);
  r.rows.pop_back();
  CHECK(r.pass());
}
