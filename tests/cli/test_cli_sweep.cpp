// tessera sweep (docs/sweeps.md): the cartesian product of lists and ranges, one row per
// run, the same rows whatever --jobs, bad input refused before the first run. Expected
// cycles are Grama's binomial broadcast, (ts + tw m) log p ("Basic Communication
// Operations"), evaluated here.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "tessera/run/run.hpp"

namespace {

using nlohmann::json;
using tessera::test::run_cli;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("sweep: the product of a log range and a geometric one, Grama's times", "[cli][sweep]") {
  const auto r = run_cli({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--param",
                          "ts=1:1000:log4", "--bytes", "256:4096:x4", "--json", "--jsonl",
                          "tessera_test_sweep.jsonl", "--jobs", "2"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["runs"] == 12);
  CHECK(j["failed"] == 0);
  CHECK(j["axes"]["--param ts"] == json::array({"1", "10", "100", "1000"}));
  CHECK(j["axes"]["--bytes"] == json::array({"256", "1024", "4096"}));
  std::size_t i = 0;
  for (const std::uint64_t ts : {1U, 10U, 100U, 1000U}) {
    for (const std::uint64_t m : {256U, 1024U, 4096U}) {  // the last option varies fastest
      const json& row = j["rows"][i];
      INFO("run " << i << ": ts " << ts << " m " << m);
      CHECK(row["run"] == i);
      CHECK(row["--param ts"] == std::to_string(ts));
      CHECK(row["--bytes"] == std::to_string(m));
      CHECK(row["--fabric"] == "ring:4");
      CHECK(row["verified"] == true);
      CHECK(row["cycles"] == 2 * (ts + m));  // log2 4 rounds of ts + tw m, tw = 1
      ++i;
    }
  }
  // The JSON Lines file: the same rows, one a line.
  std::ifstream in("tessera_test_sweep.jsonl");
  std::stringstream text;
  text << in.rdbuf();
  const auto lines = lines_of(text.str());
  REQUIRE(lines.size() == 12);
  for (std::size_t k = 0; k < lines.size(); ++k)
    CHECK(json::parse(lines[k]) == j["rows"][k]);
}

TEST_CASE("sweep: CSV rows are the same with one job or several", "[cli][sweep]") {
  const std::vector<std::string> base{"sweep",        "--fabric",  "ring:8,hypercube:3",
                                      "--collective", "allgather", "--bytes",
                                      "64,128",       "--param",   "ts=5:15:5"};
  auto one = base;
  one.insert(one.end(), {"--jobs", "1"});
  auto three = base;
  three.insert(three.end(), {"-j", "3"});
  const auto a = run_cli(one);
  const auto b = run_cli(three);
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  CHECK(a.out == b.out);
  const auto rows = lines_of(a.out);
  CHECK(rows.size() == 1 + 2 * 2 * 3);  // a header and the 12 runs
  CHECK(rows[0].rfind("run,--fabric,--bytes,--param ts,--collective,exit_status", 0) == 0);
}

TEST_CASE("sweep: bad input exits 2 before any run, naming the value", "[cli][sweep]") {
  auto err = [](const std::vector<std::string>& extra) {
    std::vector<std::string> a{"sweep", "--fabric", "ring:4", "--collective", "bcast"};
    a.insert(a.end(), extra.begin(), extra.end());
    const auto r = run_cli(a);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    return r.err;
  };
  CHECK(err({"--bytes", "5:1"}) == "tessera: --bytes '5:1' runs backwards\n");
  CHECK(err({"--bytes", "1:5:0"}) ==
        "tessera: --bytes '1:5:0': the step must be a number above 0\n");
  CHECK(err({"--bytes", "64,,128"}) ==
        "tessera: --bytes '64,,128' has an empty value in its list\n");
  CHECK(err({"--bytes", "0:2"}) == "tessera: --bytes 0 is too small, at least 1 (at --bytes 0)\n");
  CHECK(err({"--algorithm", "binomial,warp"})
            .rfind("tessera: --algorithm 'warp' is not a bcast algorithm", 0) == 0);
  CHECK(err({"--plot", "p.svg"}) ==
        "tessera: --plot draws a load-latency curve: it needs --traffic and a list or range of "
        "--rate\n");
  CHECK(err({"--jobs", "0"}) == "tessera: --jobs 0 is too small, at least 1\n");
}

#ifdef TESSERA_TEST_PLATFORM
TEST_CASE("sweep: a load-latency curve, saturation reported and not drawn as latency",
          "[cli][sweep][tlm]") {
  const auto r = run_cli({"sweep", "--model", "tlm", "--fabric", "mesh:4x4", "--traffic", "uniform",
                          "--rate", "0.01:0.3:log3", "--cycles", "3000", "--plot",
                          "tessera_test_sweep.svg", "--json", "-j", "3"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["rows"].size() == 3);
  // 0.01 is far below a 4 x 4 mesh's saturation and 0.3 far beyond it.
  CHECK(j["rows"][0]["saturated"] == false);
  CHECK(j["rows"][0].contains("latency.average"));
  CHECK(j["rows"][2]["saturated"] == true);
  CHECK(!j["rows"][2].contains("latency.average"));
  CHECK(j["rows"][2].contains("latency_unbounded.average"));
  CHECK(j["rows"][2]["accepted.packets"].get<double>() <
        0.95 * j["rows"][2]["offered"].get<double>());
  std::ifstream in("tessera_test_sweep.svg");
  std::stringstream svg;
  svg << in.rdbuf();
  CHECK(svg.str().find("<svg ") != std::string::npos);
  CHECK(svg.str().find("saturation") != std::string::npos);
  CHECK(svg.str().find("average") != std::string::npos);
  // The saturation point (docs/sweeps.md), found here from the rows by its definition:
  // the lowest offered load whose run is saturated or whose average latency exceeds three
  // times the zero-load latency, the average latency at the lowest offered load.
  const double zero_load = j["rows"][0]["latency.average"].get<double>();
  std::size_t at = 0;
  while (at < 3 && !(j["rows"][at]["saturated"] == true ||
                     j["rows"][at].value("latency.average", 0.0) > 3 * zero_load))
    ++at;
  REQUIRE(at < 3);  // 0.3 saturates
  REQUIRE(j["saturation"].size() == 1);
  const json& p = j["saturation"][0];
  CHECK(p["series"] == "");
  CHECK(p["zero_load_latency"] == zero_load);
  CHECK(p["rate"] == j["rows"][at]["--rate"]);
  CHECK(p["offered"] == j["rows"][at]["offered"]);
  CHECK(p["reason"] == (j["rows"][at]["saturated"] == true ? "accepted below offered"
                                                           : "latency above 3x zero-load"));
}
#endif

TEST_CASE("sweep: rows to a file, a one-line summary on stdout", "[cli][sweep]") {
  const auto r = run_cli({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--bytes",
                          "64,128,256", "--csv", "tessera_test_summary.csv"});
  REQUIRE(r.code == 0);
  CHECK(r.out == "sweep: 3 runs, 0 failed; rows in tessera_test_summary.csv\n");
  CHECK(r.err.empty());
  std::ifstream in("tessera_test_summary.csv");
  std::stringstream csv;
  csv << in.rdbuf();
  CHECK(lines_of(csv.str()).size() == 1 + 3);
  // A run that fails counts as failed (a deadlocking max_cycles), with the rows as well.
  const auto f = run_cli({"sweep", "--fabric", "ring:4", "--collective", "alltoall", "--param",
                          "max_cycles=10,100000000", "--csv", "tessera_test_summary.csv", "--jsonl",
                          "tessera_test_summary.jsonl"});
  CHECK(f.code == 1);
  CHECK(f.out ==
        "sweep: 2 runs, 1 failed; rows in tessera_test_summary.csv and "
        "tessera_test_summary.jsonl\n");
}

TEST_CASE("sweep: the Pareto front of two columns, derived here from Grama's times",
          "[cli][sweep]") {
  // Broadcast on a ring of 4: cycles = 2 (ts + m), and the m bytes every tile holds at
  // the end are checked (the root's too).
  // A run is on the front when no other has fewer cycles and as many bytes or more, or
  // as few cycles and more bytes.
  const auto r =
      run_cli({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--param", "ts=1,10,100",
               "--bytes", "256,1024", "--json", "--pareto", "cycles,max:bytes_checked"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  struct point {
    std::uint64_t ts, m;
    double cycles, bytes;
  };
  std::vector<point> pts;
  for (const std::uint64_t ts : {1U, 10U, 100U})
    for (const std::uint64_t m : {256U, 1024U})
      pts.push_back({ts, m, 2.0 * static_cast<double>(ts + m), 4.0 * static_cast<double>(m)});
  std::vector<std::string> want;
  for (const point& p : pts) {
    bool dominated = false;
    for (const point& q : pts) {
      dominated = dominated || (q.cycles <= p.cycles && q.bytes >= p.bytes &&
                                (q.cycles < p.cycles || q.bytes > p.bytes));
    }
    if (!dominated)
      want.push_back("--param ts " + std::to_string(p.ts) + ", --bytes " + std::to_string(p.m));
  }
  REQUIRE(want.size() == 2);  // ts 1 at either size
  const json& pf = j["pareto"];
  CHECK(pf["x"]["column"] == "cycles");
  CHECK(pf["x"]["maximize"] == false);
  CHECK(pf["y"]["maximize"] == true);
  CHECK(pf["points"] == 6);
  std::vector<std::string> got;
  for (const json& f : pf["front"])
    got.push_back(f["label"].get<std::string>());
  CHECK(got == want);
  for (const json& row : j["rows"])
    CHECK(row["bytes_checked"] == 4 * std::stoull(row["--bytes"].get<std::string>()));
}

TEST_CASE("sweep: --pareto and --area refuse what they cannot price", "[cli][sweep]") {
  const auto none = run_cli({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--bytes",
                             "256,1024", "--pareto", "cycles,nothing"});
  CHECK(none.code == 2);
  CHECK(none.err.find("--pareto cycles,nothing: no verified run has both columns") !=
        std::string::npos);
  const auto plot = run_cli({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--bytes",
                             "256,1024", "--pareto-plot", "p.svg"});
  CHECK(plot.code == 2);
  CHECK(plot.err == "tessera: --pareto-plot goes with --pareto X,Y\n");
  // A build without SystemC (the sanitizer build) refuses the platform model first.
  if (!tessera::run::model_available("tlm")) return;
  const auto ring = run_cli({"sweep", "--model", "tlm", "--fabric", "ring:4", "--collective",
                             "bcast", "--bytes", "256,1024", "--area", "gates"});
  CHECK(ring.code == 2);
  CHECK(ring.err.find("--area prices the RTL routers") != std::string::npos);
  CHECK(ring.err.find("(at --bytes 256)") != std::string::npos);
}
