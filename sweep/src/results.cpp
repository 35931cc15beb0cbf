// What a sweep's rows say: the CSV table, the load-latency figure's runs, where each
// series saturates, and the first run the model refused.
#include <algorithm>
#include <map>
#include <sstream>

#include "tessera/sweep/sweep.hpp"

namespace tessera::sweep {
namespace {

std::string csv_cell(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Where each series of a load-latency sweep saturates (docs/sweeps.md): the lowest
// offered load at which its run is saturated (it accepted less than 95 % of the load
// offered, or could not drain: docs/tlm.md) or its average latency exceeds
// saturation_factor times the zero-load latency, taken as the average latency at the
// series' lowest offered load.
constexpr double saturation_factor = 3;

}  // namespace

std::string series_label(const std::vector<axis>& axes, const nlohmann::ordered_json& row) {
  std::string label;
  for (const axis& x : axes) {
    if (x.option == "rate") continue;
    label += (label.empty() ? "" : ", ") + column(x).substr(2) + " " +
             row.value(column(x), std::string{});
  }
  return label;
}

std::string run_label(const std::vector<axis>& axes, const nlohmann::ordered_json& row) {
  std::string label;
  for (const axis& x : axes)
    label += (label.empty() ? "" : ", ") + column(x) + " " + row.value(column(x), std::string{});
  return label;
}

void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             nlohmann::ordered_json& row) {
  for (const auto& [k, v] : j.items()) {
    if (prefix.empty() && (k == "params" || k == "command" || k == "traffic")) continue;
    const std::string key = prefix.empty() ? k : prefix + "." + k;
    if (v.is_object()) {
      flatten(v, key, row);
    } else if (!v.is_array()) {
      row[key] = v;
    }
  }
}

table tabulate(const std::vector<nlohmann::ordered_json>& rows) {
  std::vector<std::string> cols;
  for (const auto& row : rows)
    for (const auto& [k, v] : row.items())
      if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  std::ostringstream csv;
  for (std::size_t c = 0; c < cols.size(); ++c)
    csv << (c == 0 ? "" : ",") << csv_cell(cols[c]);
  csv << '\n';
  table t;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < cols.size(); ++c)
      csv << (c == 0 ? "" : ",") << csv_cell(row.contains(cols[c]) ? row[cols[c]] : nullptr);
    csv << '\n';
    if (!row["exit_status"].is_number() || row["exit_status"] != 0) ++t.failed;
  }
  t.csv = csv.str();
  return t;
}

bool load_latency(const spec& s, const std::vector<nlohmann::ordered_json>& rows) {
  return has_axis(s, "rate") &&
         std::any_of(rows.begin(), rows.end(),
                     [](const nlohmann::ordered_json& r) { return r.contains("offered"); });
}

std::vector<pictures::load_run> load_runs(const std::vector<axis>& axes,
                                          const std::vector<nlohmann::ordered_json>& rows) {
  std::vector<pictures::load_run> runs;
  for (const auto& row : rows) {
    pictures::load_run& r = runs.emplace_back();
    r.series = series_label(axes, row);
    if (!row.contains("offered")) continue;
    r.offered = row["offered"].get<double>();
    if (!row.contains("accepted.packets")) continue;
    r.accepted = row["accepted.packets"].get<double>();
    if (!row.contains("latency.average")) continue;  // saturated: latency_unbounded
    r.average = row["latency.average"].get<double>();
    r.p99 = row["latency.p99"].get<double>();
  }
  return runs;
}

nlohmann::ordered_json saturation_points(const std::vector<axis>& axes,
                                         const std::vector<nlohmann::ordered_json>& rows) {
  std::map<std::string, std::vector<const nlohmann::ordered_json*>> series;
  for (const auto& row : rows) {
    if (row.value("exit_status", nlohmann::ordered_json()) != 0 || !row.contains("offered") ||
        !row.contains("saturated")) {
      continue;  // a run that failed has no point on the curve
    }
    series[series_label(axes, row)].push_back(&row);
  }
  auto out = nlohmann::ordered_json::array();
  for (auto& [label, list] : series) {
    std::stable_sort(list.begin(), list.end(), [](const auto* a, const auto* b) {
      return (*a)["offered"].template get<double>() < (*b)["offered"].template get<double>();
    });
    nlohmann::ordered_json p;
    p["series"] = label;
    const nlohmann::ordered_json& lowest = *list.front();
    std::optional<double> zero_load;
    if (!lowest["saturated"].get<bool>() && lowest.contains("latency.average"))
      zero_load = lowest["latency.average"].get<double>();
    p["zero_load_latency"] = zero_load ? nlohmann::ordered_json(*zero_load) : nullptr;
    p["rate"] = nullptr;
    for (const nlohmann::ordered_json* r : list) {
      std::string reason;
      if ((*r)["saturated"].get<bool>()) {
        reason = "accepted below offered";
      } else if (zero_load && r->contains("latency.average") &&
                 (*r)["latency.average"].get<double>() > saturation_factor * *zero_load) {
        reason = "latency above 3x zero-load";
      }
      if (reason.empty()) continue;
      p["rate"] = r->value("--rate", std::string{});
      p["offered"] = (*r)["offered"];
      p["accepted"] = r->value("accepted.packets", 0.0);
      p["reason"] = reason;
      break;
    }
    if (p["rate"].is_null()) p["highest_offered"] = (*list.back())["offered"];
    out.push_back(std::move(p));
  }
  return out;
}

std::string saturation_text(const nlohmann::ordered_json& points) {
  std::string text;
  for (const auto& p : points) {
    text += text.empty() ? "" : "; ";
    const std::string label = p["series"].get<std::string>();
    text += label.empty() ? "" : label + " ";
    if (p["rate"].is_null()) {
      text +=
          "not reached (offered up to " + short_number(p["highest_offered"].get<double>()) + ")";
    } else {
      text += "at --rate " + p["rate"].get<std::string>() + " (offered " +
              short_number(p["offered"].get<double>()) + ", " + p["reason"].get<std::string>() +
              ")";
    }
  }
  return text;
}

std::optional<std::string> refusal(const spec& s, const std::vector<nlohmann::ordered_json>& rows) {
  for (const auto& row : rows) {
    if (row["exit_status"] != 2) continue;
    // A value the model refuses (a parameter out of range for it): bad input.
    const std::string at = run_label(s.axes, row);
    return row.value("error", std::string("refused")) + (at.empty() ? "" : " (at " + at + ")");
  }
  return std::nullopt;
}

}  // namespace tessera::sweep
