#include <iomanip>
#include <ostream>
#include <sstream>

#include "commands.hpp"
#include "report.hpp"
#include "tessera/common/errors.hpp"

namespace tessera::cli {

command_line compare_command_line() {
  command_line c(
      "compare",
      R"(tessera compare --fabric F --collective C --algorithms A,B,...
                       [--bytes N] [--switching S] [--param key=value ...] [--json])",
      R"(Runs the analysis of `tessera analyze` for each algorithm and prints them side by
side: delivery check, rounds, slots (circuit), link loads and closed-form estimates.
With --json: {"command": "compare", "runs": [<analyze object>, ...]}.)");
  c.value("fabric", "F", "mesh:RxC, torus:RxC, hypercube:D, ring:P")
      .value("collective", "C", "alltoall (complete exchange)")
      .value("algorithms", "A,B,...",
             "the algorithms to compare, as tessera analyze --algorithm takes them")
      .value("bytes", "N", "bytes per block (default 1024)")
      .value("switching", "S", "wormhole, circuit or store-forward")
      .add({"param", "k=v", "alpha, beta, beta_ex, beta_sr, beta_sat, xi, tau, width (cycles)",
            true})
      .flag("json", "one JSON object on stdout")
      .footer("exit status: 0 ok, 1 some algorithm fails its delivery check, 2 bad input.");
  return c;
}

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) throw input_error("--algorithms '" + text + "' has an empty name");
    out.push_back(item);
  }
  if (out.empty()) throw input_error("--algorithms is empty");
  return out;
}

std::string fixed0(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0) << v;
  return os.str();
}

}  // namespace

int cmd_compare(const args& a, std::ostream& out, std::ostream& err) {
  const auto names = split_list(a.require("algorithms"));
  std::vector<analyze_result> runs;
  for (const auto& name : names)
    runs.push_back(run_analysis(load_workload(a, name)));

  bool all_ok = true;
  for (const auto& r : runs)
    all_ok = all_ok && r.check.ok();

  if (a.flag("json")) {
    nlohmann::json j;
    j["command"] = "compare";
    j["fabric"] = runs.front().w.fabric_spec;
    j["collective"] = runs.front().w.collective;
    j["runs"] = nlohmann::json::array();
    for (const auto& r : runs)
      j["runs"].push_back(to_json(r));
    out << j.dump(2) << '\n';
  } else {
    const auto& first = runs.front();
    out << first.w.collective << " on " << first.w.fabric_spec << " (" << first.w.fab.tiles()
        << " tiles), " << models::switching_name(first.an.sw) << " switching, " << first.w.bytes
        << " bytes per block\n\n";
    constexpr int label = 28;
    constexpr int col = 16;
    auto row = [&](const std::string& name, auto cell) {
      out << std::left << std::setw(label) << name << std::right;
      for (const auto& r : runs)
        out << std::setw(col) << cell(r);
      out << '\n';
    };
    row("algorithm", [](const analyze_result& r) { return r.w.algorithm; });
    row("every block delivered once",
        [](const analyze_result& r) { return std::string(r.check.ok() ? "yes" : "NO"); });
    row("rounds", [](const analyze_result& r) { return std::to_string(r.an.rounds); });
    if (first.an.slots) {
      row("slots (steps)", [](const analyze_result& r) { return std::to_string(r.an.steps); });
      row("transfers delayed",
          [](const analyze_result& r) { return std::to_string(r.an.slots->delayed); });
      row("min link reuse gap",
          [](const analyze_result& r) { return std::to_string(r.an.slots->min_reuse_gap); });
    }
    row("max link load",
        [](const analyze_result& r) { return std::to_string(r.an.max_link_load); });
    row("rounds with load > 1", [](const analyze_result& r) {
      std::size_t n = 0;
      for (const auto& pr : r.an.per_round)
        n += pr.max_link_load > 1 ? 1 : 0;
      return std::to_string(n);
    });
    row("alpha-beta cycles", [](const analyze_result& r) { return fixed0(r.an.est.alphabeta); });
    row("Thakur cycles (exact f)", [](const analyze_result& r) { return fixed0(r.an.est.thakur); });
    row("Thakur cycles (paper f)", [](const analyze_result& r) {
      return r.an.est.thakur_paper ? fixed0(*r.an.est.thakur_paper) : std::string("-");
    });
    if (first.an.slots) {
      row("Boppana cycles (per slot)", [](const analyze_result& r) {
        return r.an.est.boppana ? fixed0(*r.an.est.boppana) : std::string("-");
      });
    }
    out << "\nrounds by their max link load (load:rounds)\n";
    for (const auto& r : runs) {
      out << "  " << std::left << std::setw(14) << r.w.algorithm << std::right
          << load_histogram(r.an) << '\n';
    }
  }
  if (!all_ok) {
    for (const auto& r : runs) {
      if (!r.check.ok()) err << "tessera: " << r.w.algorithm << ": " << failure_line(r) << '\n';
    }
    return 1;
  }
  return 0;
}

}  // namespace tessera::cli
