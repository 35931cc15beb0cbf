// `tessera reproduce thakur --model tlm`: Thakur's Tables 2-6 on the SystemC platform
// with the delta preset.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "run_request.hpp"
#include "tessera/analytic/thakur_delta.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"
#include "tessera/tlm/delta.hpp"
#include "tessera/tlm/machines.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::cli {
namespace {

namespace tlmm = tlm_models;

void apply_param(tlmm::platform_options& o, const std::string& key, const std::string& v) {
  models::set_param(o, o.sw, key, v);
}

// The engine's parameters and unforced_threshold, from the registry's table.
nlohmann::ordered_json params_json(const tlmm::platform_options& o) {
  static constexpr std::string_view common[] = {"unforced_threshold"};
  return models::params_json(o, o.sw, common);
}

}  // namespace

int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const tlmm::machine* m = tlmm::find_machine("delta");
  if (m == nullptr) throw input_error("the delta preset is missing");
  tlmm::platform_options o;
  if (!models::parse_switching(m->switching, o.sw)) throw input_error("delta: bad switching");
  for (const auto& [k, v] : m->params)
    apply_param(o, std::string(k), std::string(v));
  const tlmm::delta_tlm_fit fit = tlmm::fit_delta_tlm(o);
  const auto cells = tlmm::delta_cells();
  struct row {
    tlmm::delta_cell cell;
    tlmm::cell_run run;
    double model_s{0};
    double deviation{0};
  };
  std::vector<row> rows;
  std::map<std::uint32_t, std::pair<double, double>> sums;  // table -> (sum, max) |dev|
  std::map<std::uint32_t, int> counts;
  int failures = 0;
  for (const auto& c : cells) {
    if (!tables.empty() && tables.count(c.table) == 0) continue;
    row r{c, tlmm::run_delta_cell(c.alg, c.rows, c.cols, c.bytes, o), 0, 0};
    if (!r.run.ok) {
      ++failures;
      err << "tessera: table " << c.table << " " << c.rows << "x" << c.cols << " " << c.bytes
          << " bytes: " << r.run.failure << '\n';
    }
    r.model_s = static_cast<double>(r.run.cycles) * m->us_per_cycle * 1e-6;
    r.deviation = (r.model_s - c.paper_s) / c.paper_s;
    if (!c.fitted) {
      auto& [sum, mx] = sums[c.table];
      sum += std::fabs(r.deviation);
      mx = std::max(mx, std::fabs(r.deviation));
      ++counts[c.table];
    }
    rows.push_back(r);
  }
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "reproduce";
    j["paper"] = "thakur";
    j["source"] = thakur_source;
    j["model"] = "tlm: wormhole mesh, machine delta";
    j["params"] = params_json(o);
    j["us_per_cycle"] = m->us_per_cycle;
    j["fit"] = {{"cells", "Table 2, 4 x 4 column"},
                {"alpha_us", fit.alpha_us},
                {"alpha_cycles", fit.alpha_cycles},
                {"beta_sat_us_per_byte", fit.beta_sat_us},
                {"rms_s", fit.rms_s}};
    auto arr = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
      arr.push_back({{"table", r.cell.table},
                     {"algorithm", std::string(fw::info(r.cell.alg).name)},
                     {"mesh", std::to_string(r.cell.rows) + "x" + std::to_string(r.cell.cols)},
                     {"bytes", r.cell.bytes},
                     {"paper", r.cell.paper_s},
                     {"simulated", r.model_s},
                     {"cycles", r.run.cycles},
                     {"deviation", r.deviation},
                     {"verified", r.run.ok},
                     {"fitted", r.cell.fitted}});
    }
    j["rows"] = std::move(arr);
    auto sum = nlohmann::ordered_json::array();
    for (const auto& [t, v] : sums) {
      sum.push_back({{"table", t},
                     {"mean_abs_deviation", v.first / counts[t]},
                     {"max_abs_deviation", v.second}});
    }
    j["tables"] = std::move(sum);
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << std::fixed;
    os << "Thakur " << thakur_tables_name(tables)
       << " (Touchstone Delta) on the TLM platform, machine delta\n";
    os << "fit on Table 2, 4x4 (platform at alpha = 0, then least squares): alpha = "
       << std::setprecision(1) << fit.alpha_us << " us (" << fit.alpha_cycles
       << " cycles), beta_sat = " << std::setprecision(5) << fit.beta_sat_us << " us/byte, rms "
       << std::setprecision(4) << fit.rms_s << " s\n";
    std::uint32_t current = 0;
    for (const auto& r : rows) {
      if (r.cell.table != current) {
        current = r.cell.table;
        os << "\nTable " << current << " (" << fw::info(r.cell.alg).name << ")\n"
           << "  mesh      bytes     paper s       tlm s   deviation\n";
      }
      os << "  " << std::left << std::setw(8)
         << (std::to_string(r.cell.rows) + "x" + std::to_string(r.cell.cols)) << std::right
         << std::setw(7) << r.cell.bytes << std::setw(12) << std::setprecision(3) << r.cell.paper_s
         << std::setw(12) << r.model_s << std::setw(10) << std::setprecision(1) << r.deviation * 100
         << " %" << (r.cell.fitted ? "  (fitted)" : "") << (r.run.ok ? "" : "  NOT VERIFIED")
         << '\n';
    }
    os << "\nmean / max |deviation| of the predicted cells:\n";
    for (const auto& [t, v] : sums) {
      os << "  Table " << t << ": " << std::setprecision(1) << v.first / counts[t] * 100 << " % / "
         << v.second * 100 << " %\n";
    }
    out << os.str();
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace tessera::cli
