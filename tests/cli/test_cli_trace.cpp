// Timeline traces (tessera run --trace, tessera/pictures/trace.hpp, docs/visualize.md): the
// structure every trace must have (every message once as a flow, op spans in order on
// each tile's track with the waits nested inside them, timestamps in the unit the
// header names), checked on runs whose times follow from the model's definition:
// Grama's alpha-beta cost ts + tw m per message ("Basic Communication Operations").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "run_configs.hpp"
#include "tessera/pictures/trace.hpp"
#include "tessera/run/run.hpp"

namespace {

using nlohmann::json;

tessera::run::run_config allgather_on_cube(std::uint32_t dims, std::uint32_t bytes) {
  tessera::run::run_config c = tessera::test::allgather_on_cube(dims, bytes);
  c.trace = true;
  return c;
}

json traced(const tessera::run::run_result& res, const tessera::pictures::trace_filter& f = {}) {
  std::ostringstream os;
  tessera::pictures::write_trace(os, res.trace(), f);
  return json::parse(os.str());
}

struct span {
  std::uint64_t tile, start, end;
  std::string cat, name;
  std::int64_t op;
};

std::vector<span> spans_of(const json& t) {
  std::vector<span> out;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] != "X" || e["pid"] != 1) continue;
    const json& a = e["args"];
    out.push_back({e["tid"].get<std::uint64_t>(), a["start_cycle"].get<std::uint64_t>(),
                   a["end_cycle"].get<std::uint64_t>(), e["cat"].get<std::string>(),
                   e["name"].get<std::string>(),
                   a.contains("op") ? a["op"].get<std::int64_t>() : -1});
  }
  return out;
}

// The structure every trace has: op-level spans one after another on each tile, each
// wait inside the op-level span it belongs to, every flow id once as a start and once as
// a finish, and ts/dur the cycles times the header's scale.
void check_structure(const json& t) {
  const json& head = t["otherData"]["tessera"];
  const double scale = head["time_unit"] == "cycle" ? 1.0 : head["us_per_cycle"].get<double>();
  std::map<std::uint64_t, std::vector<span>> ops;
  std::vector<span> waits;
  for (const span& s : spans_of(t)) {
    REQUIRE(s.start <= s.end);
    (s.cat == "wait" ? waits : ops[s.tile]).push_back(s);
  }
  for (auto& [tile, list] : ops) {
    for (std::size_t i = 1; i < list.size(); ++i) {
      INFO("tile " << tile << " span " << list[i].name);
      CHECK(list[i - 1].end <= list[i].start);
    }
  }
  for (const span& w : waits) {
    const auto& list = ops[w.tile];
    const bool inside = std::any_of(list.begin(), list.end(), [&](const span& o) {
      return o.op == w.op && o.start <= w.start && w.end <= o.end;
    });
    INFO("tile " << w.tile << " " << w.name << " " << w.start << ".." << w.end);
    CHECK(inside);
  }
  std::map<std::uint64_t, int> starts;
  std::map<std::uint64_t, int> finishes;
  for (const json& e : t["traceEvents"]) {
    if (e.contains("ts") && e.contains("args") && e["args"].contains("start_cycle") &&
        e["ph"] != "f" && e["ph"] != "e") {
      CHECK(e["ts"].get<double>() ==
            Approx(static_cast<double>(e["args"]["start_cycle"].get<std::uint64_t>()) * scale));
    }
    if (e["ph"] == "s") ++starts[e["id"].get<std::uint64_t>()];
    if (e["ph"] == "f") ++finishes[e["id"].get<std::uint64_t>()];
  }
  CHECK(starts.size() == finishes.size());
  for (const auto& [id, n] : starts) {
    INFO("flow " << id);
    CHECK(n == 1);
    CHECK(finishes[id] == 1);
  }
}

}  // namespace

TEST_CASE("trace: every message once, op spans in order, waits nested, alpha-beta times",
          "[cli][trace]") {
  const auto res = tessera::run::run(allgather_on_cube(3, 64));
  REQUIRE(res->verified());
  const json t = traced(*res);
  const json& head = t["otherData"]["tessera"];
  CHECK(head["time_unit"] == "cycle");
  CHECK(head["op_spans"] == true);
  CHECK(head["tiles"] == 8);
  check_structure(t);
  // Grama, all-gather on a hypercube: step i exchanges 2^(i-1) m bytes, ts + tw 2^(i-1) m
  // cycles, and every tile's three exchange spans last exactly that.
  std::map<std::uint64_t, std::vector<std::uint64_t>> lengths;
  for (const span& s : spans_of(t))
    if (s.cat == "op") lengths[s.tile].push_back(s.end - s.start);
  REQUIRE(lengths.size() == 8);
  for (const auto& [tile, l] : lengths) {
    INFO("tile " << tile);
    CHECK(l == std::vector<std::uint64_t>{100 + 2 * 64, 100 + 2 * 128, 100 + 2 * 256});
  }
  // Each tile sends one message a step: 8 x 3 flows, each from its sender's track at the
  // start of its step to its receiver's at the end.
  const json j = res->json();
  std::size_t flows = 0;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] != "s") continue;
    ++flows;
    const auto step = e["args"]["step"].get<std::uint64_t>();
    const std::uint64_t begin = step == 1 ? 0 : step == 2 ? 228 : 228 + 356;
    CHECK(e["args"]["start_cycle"] == begin);
  }
  CHECK(flows == 8 * 3);
  CHECK(flows == j["per_transfer"].size());
  // The steps track: one async slice per step, as the report's per_step.
  std::size_t steps = 0;
  for (const json& e : t["traceEvents"])
    if (e["ph"] == "b" && e["cat"] == "step") ++steps;
  CHECK(steps == j["per_step"].size());
}

TEST_CASE("trace: --trace-tiles and --trace-window keep what they name", "[cli][trace]") {
  const auto res = tessera::run::run(allgather_on_cube(3, 64));
  tessera::pictures::trace_filter f;
  f.tiles.assign(8, false);
  f.tiles[5] = true;
  const json t = traced(*res, f);
  check_structure(t);
  for (const span& s : spans_of(t))
    CHECK(s.tile == 5);
  // Tile 5 sends 3 messages and receives 3: six flows, each starting or ending on it.
  std::map<std::uint64_t, std::uint64_t> from;
  std::map<std::uint64_t, std::uint64_t> to;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] == "s") from[e["id"].get<std::uint64_t>()] = e["tid"].get<std::uint64_t>();
    if (e["ph"] == "f") to[e["id"].get<std::uint64_t>()] = e["tid"].get<std::uint64_t>();
  }
  CHECK(from.size() == 6);
  std::size_t sent = 0;
  for (const auto& [id, src] : from) {
    INFO("flow " << id << ": " << src << " -> " << to[id]);
    CHECK((src == 5 || to[id] == 5));
    sent += src == 5 ? 1 : 0;
  }
  CHECK(sent == 3);
  CHECK(t["otherData"]["tessera"]["kept_tiles"] == json::array({5}));

  // Step 2 runs over cycles 228..584: a window inside it keeps step 2's spans only.
  tessera::pictures::trace_filter w;
  w.from = 300;
  w.to = 400;
  const json u = traced(*res, w);
  check_structure(u);
  const auto in = spans_of(u);
  CHECK(in.size() >= 8);
  for (const span& s : in) {
    CHECK(s.end >= 300);
    CHECK(s.start < 400);
  }
}

#ifdef TESSERA_TEST_PLATFORM
TEST_CASE("trace: the binary writes it, in microseconds with a machine", "[cli][trace][tlm]") {
  const std::string file = "tessera_test_trace_ipsc.json";
  const auto r = tessera::test::run_binary(
      "run --model tlm --machine ipsc860 --fabric hypercube:3 --collective alltoall "
      "--algorithm stable --protocol forced --prepost --bytes 100 --json --trace " +
      file);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  json t;
  {
    std::ifstream in(file);
    t = json::parse(in);
  }
  std::remove(file.c_str());
  CHECK(t["otherData"]["tessera"]["time_unit"] == "us");
  CHECK(t["otherData"]["tessera"]["us_per_cycle"] == 0.394);
  check_structure(t);
  // Every message of the run, data and control (the barrier's), is one flow.
  CHECK(j["trace"]["messages"] ==
        j["messages"].get<std::uint64_t>() + j["control_messages"].get<std::uint64_t>());
  // The links: every data message holds each link of its e-cube route (lowest bit
  // first, Bokhari §3) once, and no track has two intervals at once.
  std::map<std::string, std::set<std::string>> held;  // "a->b dim k" -> messages "s->d"
  std::map<std::uint64_t, std::vector<std::pair<double, double>>> lanes;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "link") continue;
    held[e["args"]["link"].get<std::string>()].insert(e["name"].get<std::string>());
    lanes[e["tid"].get<std::uint64_t>()].emplace_back(
        e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>());
  }
  CHECK(t["otherData"]["tessera"]["link_tracks"] == true);
  std::size_t routed = 0;
  for (std::uint32_t s = 0; s < 8; ++s) {
    for (std::uint32_t d = 0; d < 8; ++d) {
      if (s == d) continue;
      std::uint32_t at = s;
      for (std::uint32_t b = 0; b < 3; ++b) {
        if (((at ^ d) >> b & 1U) == 0) continue;
        const std::string link = std::to_string(at) + "->" + std::to_string(at ^ (1U << b)) +
                                 " dim " + std::to_string(b);
        INFO("message " << s << "->" << d << " on " << link);
        CHECK(held[link].count(std::to_string(s) + "->" + std::to_string(d)) == 1);
        at ^= 1U << b;
        ++routed;
      }
    }
  }
  CHECK(routed == 8 * 12);  // 8 tiles x (3 one-hop + 3 two-hop x 2 + 1 three-hop x 3) hops
  for (auto& [tid, list] : lanes) {
    std::sort(list.begin(), list.end());
    for (std::size_t i = 1; i < list.size(); ++i)
      CHECK(list[i - 1].second <= list[i].first + 1e-9);
  }
  CHECK(j["trace"]["link_spans"].get<std::size_t>() >= routed);
  // --prepost: each tile's prologue (posting and the barrier) comes first.
  std::set<std::uint64_t> prologue;
  for (const span& s : spans_of(t))
    if (s.cat == "prologue" && s.start == 0) prologue.insert(s.tile);
  CHECK(prologue.size() == 8);
}
#endif

#ifdef TESSERA_TEST_PLATFORM
namespace {

// The links each data message held, from a trace file: message "s->d" -> links, each
// with its interval in cycles. Checks on the way that no lane of a link track holds
// two intervals at once.
std::map<std::string, std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>> links_held(
    const json& t) {
  std::map<std::string, std::map<std::string, std::pair<std::uint64_t, std::uint64_t>>> out;
  std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> lanes;
  for (const json& e : t["traceEvents"]) {
    if (e["ph"] != "X" || e["cat"] != "link") continue;
    const std::uint64_t a = e["args"]["start_cycle"].get<std::uint64_t>();
    const std::uint64_t b = e["args"]["end_cycle"].get<std::uint64_t>();
    const std::string link = e["args"]["link"].get<std::string>();
    INFO("link " << link << " held by " << e["name"].get<std::string>());
    CHECK(out[e["name"].get<std::string>()].count(link) == 0);  // once per message
    out[e["name"].get<std::string>()][link] = {a, b};
    lanes[e["tid"].get<std::uint64_t>()].emplace_back(a, b);
  }
  for (auto& [tid, list] : lanes) {
    std::sort(list.begin(), list.end());
    for (std::size_t i = 1; i < list.size(); ++i)
      CHECK(list[i - 1].second <= list[i].first);
  }
  return out;
}

}  // namespace

TEST_CASE("trace: --model rtl draws the Verilated fabrics' link tracks", "[cli][trace][rtl]") {
  // Complete exchange (pairwise) on each RTL fabric, traced on rtl and on tlm. Both run
  // dimension-order routes, so every data message must hold the same links on both: the
  // route's hops, each once, in order along the route. The routes are derived here:
  // XY on the mesh (columns first, then rows), the e-cube order on the hypercube (lowest
  // dimension first, Bokhari §3), and on the torus a path of the torus distance.
  struct fabric_case {
    std::string fabric;
    std::uint32_t rows, cols, dims;
  };
  for (const fabric_case& c : {fabric_case{"mesh:4x4", 4, 4, 0}, fabric_case{"torus:4x4", 4, 4, 0},
                               fabric_case{"hypercube:3", 0, 0, 3}}) {
    std::map<std::string, json> traces;
    for (const std::string model : {"rtl", "tlm"}) {
      const std::string file = "tessera_test_trace_" + model + ".json";
      const auto r = tessera::test::run_binary(
          "run --model " + model + " --fabric " + c.fabric +
          " --collective alltoall --algorithm pairwise --bytes 16 --json --trace " + file);
      INFO(c.fabric << " on " << model << ": " << r.err);
      REQUIRE(r.code == 0);
      {
        std::ifstream in(file);
        traces[model] = json::parse(in);
      }
      std::remove(file.c_str());
      CHECK(traces[model]["otherData"]["tessera"]["link_tracks"] == true);
      check_structure(traces[model]);
    }
    const auto rtl = links_held(traces["rtl"]);
    const auto tlm = links_held(traces["tlm"]);
    const std::uint32_t p = c.dims != 0 ? 1U << c.dims : c.rows * c.cols;
    std::size_t hops = 0;
    for (std::uint32_t s = 0; s < p; ++s) {
      for (std::uint32_t d = 0; d < p; ++d) {
        if (s == d) continue;
        const std::string msg = std::to_string(s) + "->" + std::to_string(d);
        INFO(c.fabric << " message " << msg);
        REQUIRE(rtl.count(msg) == 1);
        const auto& held = rtl.at(msg);
        // The same links as the TLM engine's.
        std::set<std::string> a, b;
        for (const auto& [l, iv] : held)
          a.insert(l);
        for (const auto& [l, iv] : tlm.at(msg))
          b.insert(l);
        CHECK(a == b);
        // The route, hop by hop, each hop starting no earlier than the one before.
        std::vector<std::string> route;
        if (c.dims != 0) {
          std::uint32_t at = s;
          for (std::uint32_t k = 0; k < c.dims; ++k) {
            if (((at ^ d) >> k & 1U) == 0) continue;
            route.push_back(std::to_string(at) + "->" + std::to_string(at ^ (1U << k)) + " dim " +
                            std::to_string(k));
            at ^= 1U << k;
          }
        } else if (c.fabric.rfind("mesh", 0) == 0) {
          std::uint32_t r = s / c.cols, col = s % c.cols;
          const std::uint32_t dr = d / c.cols, dc = d % c.cols;
          auto hop = [&](std::uint32_t nr, std::uint32_t ncol, const char* dir) {
            route.push_back(std::to_string(r * c.cols + col) + "->" +
                            std::to_string(nr * c.cols + ncol) + " " + dir);
            r = nr;
            col = ncol;
          };
          while (col != dc)
            col < dc ? hop(r, col + 1, "E") : hop(r, col - 1, "W");
          while (r != dr)
            r < dr ? hop(r + 1, col, "S") : hop(r - 1, col, "N");
        } else {
          // Torus: as many hops as the ring distances in each dimension add to.
          auto ring = [](std::uint32_t x, std::uint32_t y, std::uint32_t n) {
            const std::uint32_t f = (y + n - x) % n;
            return std::min(f, n - f);
          };
          CHECK(held.size() ==
                ring(s % c.cols, d % c.cols, c.cols) + ring(s / c.cols, d / c.cols, c.rows));
        }
        if (!route.empty()) {
          REQUIRE(held.size() == route.size());
          for (std::size_t k = 0; k < route.size(); ++k) {
            REQUIRE(held.count(route[k]) == 1);
            if (k > 0) CHECK(held.at(route[k]).first >= held.at(route[k - 1]).first);
          }
        }
        hops += held.size();
      }
    }
    CHECK(hops > 0);
  }
}
#endif

TEST_CASE("trace: bad trace options exit 2 naming the value", "[cli][trace]") {
  using tessera::test::run_cli;
  auto err = [](const std::vector<std::string>& argv) {
    std::vector<std::string> a{"run", "--fabric", "ring:4", "--collective", "bcast"};
    a.insert(a.end(), argv.begin(), argv.end());
    const auto r = run_cli(a);
    CHECK(r.code == 2);
    return r.err;
  };
  CHECK(err({"--trace-tiles", "0"}) ==
        "tessera: --trace-tiles goes with --trace FILE or --timeline FILE\n");
  CHECK(err({"--trace", "t.json", "--trace-tiles", "0-4"}) ==
        "tessera: --trace-tiles '0-4': tile 4 is not a tile of the fabric (0..3)\n");
  CHECK(err({"--trace", "t.json", "--trace-tiles", "3-1"}) ==
        "tessera: --trace-tiles '3-1': range 3-1 runs backwards\n");
  CHECK(err({"--trace", "t.json", "--trace-tiles", "a"}) ==
        "tessera: --trace-tiles 'a' is not a list of tiles and ranges (e.g. 0-3,7)\n");
  CHECK(err({"--trace", "t.json", "--trace-window", "5:5"}) ==
        "tessera: --trace-window '5:5' is empty: TO must be above FROM\n");
  CHECK(err({"--trace", "t.json", "--trace-window", "5"}) ==
        "tessera: --trace-window '5' is not FROM:TO in cycles (TO may be left out)\n");
  CHECK(err({"--trace", "/nonexistent/dir/t.json"}) ==
        "tessera: --trace '/nonexistent/dir/t.json' cannot be written\n");
  CHECK(err({"--timeline", "/nonexistent/dir/t.svg"}) ==
        "tessera: --timeline '/nonexistent/dir/t.svg' cannot be written\n");
  CHECK(err({"--timeline", ""}) == "tessera: --timeline needs a file name\n");
  CHECK(err({"--trace", "same.out", "--timeline", "same.out"}) ==
        "tessera: --trace and --timeline name the same file 'same.out'\n");
  std::remove("same.out");
  std::remove("t.json");
}
