// The reproduction report's rules: how a row's tolerance decides pass, how deviation is
// signed, and that a report fails when one row does (docs/reproduction.md).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/reproduce/known.hpp"
#include "tessera/reproduce/report.hpp"
#include "tessera/reproduce/reproduce.hpp"

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
  CHECK(os.str().find("demo: 1 pass, 0 known deviations, 1 fail (FAILED)") != std::string::npos);
  r.rows.pop_back();
  CHECK(r.pass());
}

namespace {
// A report of three rows: "demo.ok" within 10 % of 100, "demo.off" 150 against 100 (10 %),
// "demo.claim" a claim that does not hold.
paper_report three_rows() {
  paper_report r;
  r.paper = "demo";
  r.model_name = "tlm";
  r.rows.push_back(make(100, 105, tolerance::relative(0.1, "ten percent")));
  r.rows.back().id = "demo.ok";
  r.rows.push_back(make(100, 150, tolerance::relative(0.1, "ten percent")));
  r.rows.back().id = "demo.off";
  r.rows.push_back(make(1, 0, tolerance::claim()));
  r.rows.back().id = "demo.claim";
  return r;
}

known_deviation entry(std::string_view id, double lo, double hi) {
  return {"demo", "tlm", id, lo, hi, "", 0, "a reason", "docs/reproduction.md#demo"};
}

bool has_problem(const paper_report& r, const std::string& text) {
  for (const std::string& p : r.problems)
    if (p.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("reproduce verdicts: a listed row still at its analysed value is a known deviation",
          "[reproduce]") {
  paper_report r = three_rows();
  judge(r, {entry("demo.off", 150, 150), entry("demo.claim", 0, 0)});
  CHECK(r.problems.empty());
  CHECK(r.pass());
  CHECK(r.rows[0].judged() == verdict::pass);
  CHECK(r.rows[1].judged() == verdict::known);
  CHECK(r.rows[2].judged() == verdict::known);
  CHECK(r.count(verdict::pass) == 1);
  CHECK(r.count(verdict::known) == 2);
  CHECK(r.failed() == 0);
  // An entry of another paper or model says nothing about these rows.
  paper_report other = three_rows();
  known_deviation k = entry("demo.off", 150, 150);
  k.model = "analytic";
  judge(other, {k, entry("demo.claim", 0, 0)});
  CHECK(other.rows[1].judged() == verdict::fail);
  CHECK(has_problem(other, "demo.off: fail"));
  CHECK_FALSE(other.pass());
}

TEST_CASE("reproduce verdicts: an unlisted failure, a moved value and a stale entry fail",
          "[reproduce]") {
  SECTION("unlisted") {
    paper_report r = three_rows();
    judge(r, {entry("demo.off", 150, 150)});
    CHECK_FALSE(r.pass());
    CHECK(r.rows[2].judged() == verdict::fail);
    REQUIRE(r.problems.size() == 1);
    CHECK(has_problem(r, "demo.claim: fail"));
  }
  SECTION("moved: a deterministic row must keep its value exactly") {
    paper_report r = three_rows();
    judge(r, {entry("demo.off", 149.5, 149.5), entry("demo.claim", 0, 0)});
    CHECK_FALSE(r.pass());
    CHECK(r.rows[1].judged() == verdict::fail);
    CHECK(has_problem(r, "demo.off: known deviation moved: analysed at 149.5, now 150.0"));
  }
  SECTION("stale: the row now passes") {
    paper_report r = three_rows();
    judge(r, {entry("demo.ok", 105, 105), entry("demo.off", 150, 150), entry("demo.claim", 0, 0)});
    CHECK_FALSE(r.pass());
    CHECK(r.rows[0].judged() == verdict::pass);
    CHECK(has_problem(r, "demo.ok: stale known deviation: the row now passes"));
  }
  SECTION("stale: no such row in a complete report, none said for a subset") {
    paper_report r = three_rows();
    const std::vector<known_deviation> t = {entry("demo.off", 150, 150), entry("demo.claim", 0, 0),
                                            entry("demo.gone", 1, 1)};
    judge(r, t);
    CHECK_FALSE(r.pass());
    CHECK(has_problem(r, "demo.gone: stale known deviation: the report has no such row"));
    r.complete = false;  // e.g. thakur --table 2: the row may be in another table
    judge(r, t);
    CHECK(r.problems.empty());
    CHECK(r.pass());
  }
}

TEST_CASE("reproduce verdicts: a seeded row holds within its envelope at its run count",
          "[reproduce]") {
  auto seeded = [](double lo, double hi) {
    known_deviation k = entry("demo.off", lo, hi);
    k.seed_option = "seeds";
    k.seed_count = 8;
    return k;
  };
  paper_report r = three_rows();
  r.seeds = {{"seeds", 8}};
  judge(r, {seeded(140, 160), entry("demo.claim", 0, 0)});
  CHECK(r.pass());
  CHECK(r.rows[1].judged() == verdict::known);
  judge(r, {seeded(151, 160), entry("demo.claim", 0, 0)});
  CHECK_FALSE(r.pass());
  CHECK(has_problem(r,
                    "demo.off: known deviation moved: analysed within [151.0, 160.0] at "
                    "--seeds 8, now 150.0"));
  // At another run count the entry is not applied: the row is held to its tolerance, and
  // a note says why.
  r.seeds = {{"seeds", 100}};
  judge(r, {seeded(140, 160), entry("demo.claim", 0, 0)});
  CHECK_FALSE(r.pass());
  CHECK(r.rows[1].judged() == verdict::fail);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("demo.off: a known deviation at --seeds 8, not applied here") == 0);
}

TEST_CASE("reproduce verdicts: JSON and text mark a known deviation apart from a failure",
          "[reproduce]") {
  paper_report r = three_rows();
  judge(r, {entry("demo.off", 150, 150)});
  const auto j = to_json(r);
  CHECK(j["rows_total"] == 3);
  CHECK(j["rows_passed"] == 1);
  CHECK(j["rows_known"] == 1);
  CHECK(j["rows_failed"] == 1);
  CHECK(j["pass"] == false);
  CHECK(j["rows"][0]["id"] == "demo.ok");
  CHECK(j["rows"][0]["verdict"] == "pass");
  CHECK_FALSE(j["rows"][0].contains("reason"));
  CHECK(j["rows"][1]["verdict"] == "known deviation");
  CHECK(j["rows"][1]["reason"] == "a reason");
  CHECK(j["rows"][1]["doc"] == "docs/reproduction.md#demo");
  CHECK(j["rows"][1]["pass"] == false);
  CHECK(j["rows"][2]["verdict"] == "fail");
  REQUIRE(j["problems"].size() == 1);
  CHECK(j["problems"][0].get<std::string>().find("demo.claim: fail") == 0);
  std::ostringstream os;
  write_text(os, r);
  const std::string t = os.str();
  CHECK(t.find("  known demo.off\n") != std::string::npos);
  CHECK(t.find("  FAIL demo.claim\n") != std::string::npos);
  CHECK(t.find("demo.off: a reason (docs/reproduction.md#demo)") != std::string::npos);
  CHECK(t.find("demo: 1 pass, 1 known deviation, 1 fail (FAILED)") != std::string::npos);
}

TEST_CASE("reproduce ids: every row has one, unique and of the id characters", "[reproduce]") {
  paper_report r = three_rows();
  CHECK_NOTHROW(check_ids(r));
  r.rows[2].id = "demo.ok";
  CHECK_THROWS_WITH(check_ids(r), Catch::Contains("two rows have the id 'demo.ok'"));
  r.rows[2].id = "demo claim";
  CHECK_THROWS_WITH(check_ids(r), Catch::Contains("has the id 'demo claim'"));
  r.rows[2].id = "";
  CHECK_THROWS(check_ids(r));
  CHECK(id_part("one-to-all broadcast") == "one-to-all-broadcast");
  CHECK(id_part("send/receive") == "send-receive");
}

TEST_CASE(
    "reproduce known deviations: every entry names its paper, model, a reason and an "
    "anchor of docs/reproduction.md",
    "[reproduce]") {
  std::set<std::string> seen;
  for (const known_deviation& k : known_deviations()) {
    INFO(k.id);
    const auto& ps = papers();
    CHECK(std::find(ps.begin(), ps.end(), k.paper) != ps.end());
    CHECK(k.id.substr(0, k.paper.size() + 1) == std::string(k.paper) + ".");
    CHECK(!k.model.empty());
    CHECK(!k.reason.empty());
    CHECK(k.doc.substr(0, 21) == "docs/reproduction.md#");
    CHECK(k.lo <= k.hi);
    CHECK((k.seed_option.empty() == (k.seed_count == 0)));
    CHECK(seen.insert(std::string(k.paper) + "/" + std::string(k.model) + "/" + std::string(k.id))
              .second);
  }
}
