// The Pareto front of two of a sweep's columns (sweep --pareto, docs/sweeps.md): the
// configurations no other beats on both, each column minimized unless it is marked max:
// (or is a saturation throughput: `saturation`, the most packets a load-latency series
// accepted per tile and cycle, or `saturation_bytes`, the most bytes).
#include <algorithm>
#include <cmath>
#include <map>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/sweep/sweep.hpp"

namespace tessera::sweep {
namespace {

std::optional<double> number(const nlohmann::ordered_json& row, const std::string& col) {
  if (!row.contains(col) || !row[col].is_number()) return std::nullopt;
  const double v = row[col].get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

pareto_axes parse_pareto(const std::string& text) {
  const auto comma = text.find(',');
  const std::string bad = "--pareto '" + shown(text) + "'";
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
    throw input_error(bad + " is not X,Y: two columns of the sweep's rows");
  pareto_axes out;
  std::array<std::string, 2> parts{text.substr(0, comma), text.substr(comma + 1)};
  for (std::size_t k = 0; k < 2; ++k) {
    std::string c = parts[k];
    bool max = false;
    if (c.rfind("max:", 0) == 0) {
      max = true;
      c = c.substr(4);
    } else if (c.rfind("min:", 0) == 0) {
      c = c.substr(4);
    }
    if (c.empty()) throw input_error(bad + " names an empty column");
    if (c == "saturation" || c == "saturation_bytes") max = true;  // throughputs
    out[k] = {c, max};
  }
  return out;
}

pareto_result pareto_front(const std::vector<axis>& axes,
                           const std::vector<nlohmann::ordered_json>& rows, const pareto_axes& on) {
  pareto_result out;
  out.on = on;
  const auto saturation = [](const std::string& c) {
    return c == "saturation" || c == "saturation_bytes";
  };
  const bool by_series = saturation(on[0].column) || saturation(on[1].column);
  // The candidates: the runs that verified, or (saturation) the series of a load-latency
  // sweep, each with the most it accepted at any load.
  struct cand {
    std::string label;
    nlohmann::ordered_json row;
  };
  std::vector<cand> cands;
  if (by_series) {
    std::map<std::string, std::size_t> at;
    for (const auto& row : rows) {
      if (row.value("exit_status", -1) != 0 || !row.contains("accepted.packets")) continue;
      const std::string s = series_label(axes, row);
      // Packets, and bytes (flits times the bytes of a flit), per tile and cycle.
      const double packets = row["accepted.packets"].get<double>();
      const auto flits = number(row, "accepted.flits");
      const auto unit = number(row, "energy.unit_bytes");
      const auto it = at.find(s);
      if (it == at.end()) {
        at[s] = cands.size();
        cands.push_back({s, row});
      }
      nlohmann::ordered_json& best = cands[at[s]].row;
      best["saturation"] = std::max(best.value("saturation", 0.0), packets);
      if (flits && unit)
        best["saturation_bytes"] = std::max(best.value("saturation_bytes", 0.0), *flits * *unit);
    }
  } else {
    for (const auto& row : rows) {
      if (row.value("exit_status", -1) != 0) continue;
      cands.push_back({run_label(axes, row), row});
    }
  }
  for (const cand& c : cands) {
    const auto x = number(c.row, on[0].column);
    const auto y = number(c.row, on[1].column);
    if (!x || !y) {
      ++out.without_values;
      continue;
    }
    out.points.push_back({c.label, *x, *y, false});
  }
  // p is on the front when no other point is at least as good on both columns and
  // better on one.
  const auto better_eq = [](double a, double b, bool max) { return max ? a >= b : a <= b; };
  const auto better = [](double a, double b, bool max) { return max ? a > b : a < b; };
  for (pareto_point& p : out.points) {
    p.front = std::none_of(out.points.begin(), out.points.end(), [&](const pareto_point& q) {
      return better_eq(q.x, p.x, on[0].maximize) && better_eq(q.y, p.y, on[1].maximize) &&
             (better(q.x, p.x, on[0].maximize) || better(q.y, p.y, on[1].maximize));
    });
  }
  return out;
}

pictures::figure pareto_figure(const pareto_result& r) {
  pictures::figure f;
  f.id = "pareto";
  const auto name = [](const pareto_axis& a) {
    return a.column + (a.maximize ? " (more is better)" : " (less is better)");
  };
  f.title = "Pareto front: " + r.on[0].column + " against " + r.on[1].column;
  f.x_label = name(r.on[0]);
  f.y_label = name(r.on[1]);
  pictures::series all{"configurations", true, {}, "all"};
  pictures::series front{"Pareto front", false, {}, "front"};
  pictures::series marks{"dominating configurations", true, {}, "front"};
  for (const pareto_point& p : r.points) {
    all.points.emplace_back(p.x, p.y);
    if (p.front) {
      front.points.emplace_back(p.x, p.y);
      marks.points.emplace_back(p.x, p.y);
    }
  }
  std::sort(front.points.begin(), front.points.end());
  f.curves = {std::move(all), std::move(front), std::move(marks)};
  return f;
}

}  // namespace tessera::sweep
