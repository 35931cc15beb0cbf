#include "tessera/reproduce/report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace tessera::reproduce {

tolerance tolerance::exact(std::string why) {
  return {tolerance_kind::exact, 0, std::move(why)};
}
tolerance tolerance::relative(double v, std::string why) {
  return {tolerance_kind::relative, v, std::move(why)};
}
tolerance tolerance::absolute(double v, std::string why) {
  return {tolerance_kind::absolute, v, std::move(why)};
}
tolerance tolerance::at_most(std::string why) {
  return {tolerance_kind::at_most, 0, std::move(why)};
}
tolerance tolerance::at_least(std::string why) {
  return {tolerance_kind::at_least, 0, std::move(why)};
}
tolerance tolerance::over(double v, std::string why) {
  return {tolerance_kind::over, v, std::move(why)};
}
tolerance tolerance::claim(std::string why) {
  return {tolerance_kind::claim, 0, std::move(why)};
}

double row::deviation() const {
  if (paper == simulated) return 0;
  if (paper == 0) return simulated > 0 ? INFINITY : -INFINITY;
  return (simulated - paper) / std::fabs(paper);
}

bool row::pass() const {
  if (!std::isfinite(paper) || !std::isfinite(simulated)) return false;
  // A tolerance computed in floating point (a derived bound) may equal the deviation up to
  // the last bits: those are not a miss.
  const double slack = 1e-12 * std::max(std::fabs(paper), std::fabs(simulated));
  switch (tol.kind) {
    case tolerance_kind::exact:
      return simulated == paper;
    case tolerance_kind::relative:
      return std::fabs(simulated - paper) <= tol.value * std::fabs(paper) + slack;
    case tolerance_kind::absolute:
      return std::fabs(simulated - paper) <= tol.value + slack;
    case tolerance_kind::at_most:
      return simulated <= paper;
    case tolerance_kind::at_least:
      return simulated >= paper;
    case tolerance_kind::over:
      return simulated >= paper - slack &&
             simulated - paper <= tol.value * std::fabs(paper) + slack;
    case tolerance_kind::claim:
      return simulated == paper;
  }
  return false;
}

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::pass:
      return "pass";
    case verdict::known:
      return "known deviation";
    case verdict::fail:
      return "fail";
  }
  return "fail";
}

verdict row::judged() const {
  if (pass()) return verdict::pass;
  return known ? verdict::known : verdict::fail;
}

bool paper_report::pass() const {
  return failed() == 0 && problems.empty();
}

std::size_t paper_report::count(verdict v) const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [v](const row& r) { return r.judged() == v; }));
}

namespace {
bool id_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
         std::string_view("_.:+-").find(c) != std::string_view::npos;
}
}  // namespace

std::string id_part(std::string_view name) {
  std::string s;
  for (const char c : name) {
    const char k = id_char(c) ? c : '-';
    if (k == '-' && !s.empty() && s.back() == '-') continue;
    s += k;
  }
  return s;
}

void check_ids(const paper_report& r) {
  std::set<std::string> seen;
  for (const row& x : r.rows) {
    const bool well_formed = !x.id.empty() && std::all_of(x.id.begin(), x.id.end(), id_char);
    if (!well_formed) {
      throw std::logic_error("reproduce " + r.paper + ": row '" + x.what + "' has the id '" + x.id +
                             "' (want [A-Za-z0-9_.:+-]+)");
    }
    if (!seen.insert(x.id).second)
      throw std::logic_error("reproduce " + r.paper + ": two rows have the id '" + x.id + "'");
  }
}

std::string counts_text(std::size_t pass, std::size_t known, std::size_t fail) {
  return std::to_string(pass) + " pass, " + std::to_string(known) + " known deviation" +
         (known == 1 ? "" : "s") + ", " + std::to_string(fail) + " fail";
}

namespace {

const char* kind_name(tolerance_kind k) {
  switch (k) {
    case tolerance_kind::exact:
      return "exact";
    case tolerance_kind::relative:
      return "relative";
    case tolerance_kind::absolute:
      return "absolute";
    case tolerance_kind::at_most:
      return "at_most";
    case tolerance_kind::at_least:
      return "at_least";
    case tolerance_kind::over:
      return "over";
    case tolerance_kind::claim:
      return "claim";
  }
  return "exact";
}

}  // namespace

std::string tolerance_text(const row& r) {
  std::ostringstream os;
  switch (r.tol.kind) {
    case tolerance_kind::exact:
      return "exact";
    case tolerance_kind::relative:
      os << std::setprecision(3) << r.tol.value * 100 << " %";
      return os.str();
    case tolerance_kind::absolute:
      os << "+-" << r.tol.value << (r.unit.empty() ? "" : " ") << r.unit;
      return os.str();
    case tolerance_kind::at_most:
      return "<= paper";
    case tolerance_kind::at_least:
      return ">= paper";
    case tolerance_kind::over:
      os << "0.." << std::setprecision(3) << r.tol.value * 100 << " %";
      return os.str();
    case tolerance_kind::claim:
      return "holds";
  }
  return "";
}

namespace {

// A value as short as it is exact: integers whole, others to 4 significant digits.
std::string number(double v) {
  std::ostringstream os;
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    os << std::fixed << std::setprecision(0) << v;
  } else {
    os << std::setprecision(4) << v;
  }
  return os.str();
}

nlohmann::ordered_json finite_or_null(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

}  // namespace

nlohmann::ordered_json to_json(const paper_report& r) {
  nlohmann::ordered_json j;
  j["paper"] = r.paper;
  j["title"] = r.title;
  j["model"] = r.model;
  j["rows_total"] = r.rows.size();
  j["rows_passed"] = r.count(verdict::pass);
  j["rows_known"] = r.count(verdict::known);
  j["rows_failed"] = r.failed();
  j["pass"] = r.pass();
  j["problems"] = r.problems;
  if (!r.notes.empty()) j["notes"] = r.notes;
  auto rows = nlohmann::ordered_json::array();
  for (const row& x : r.rows) {
    nlohmann::ordered_json o;
    o["id"] = x.id;
    o["source"] = x.source;
    o["what"] = x.what;
    o["unit"] = x.unit;
    o["paper"] = finite_or_null(x.paper);
    o["simulated"] = finite_or_null(x.simulated);
    o["deviation"] = finite_or_null(x.deviation());
    o["tolerance"] = {{"kind", kind_name(x.tol.kind)}, {"value", x.tol.value}, {"why", x.tol.why}};
    o["pass"] = x.pass();
    o["verdict"] = verdict_name(x.judged());
    if (x.known) {
      o["reason"] = x.known->reason;
      o["doc"] = x.known->doc;
      if (x.known->lo == x.known->hi) {
        o["analysed"] = x.known->lo;
      } else {
        o["analysed"] = {x.known->lo, x.known->hi};
      }
    }
    if (!x.formula.empty()) o["formula"] = x.formula;
    rows.push_back(std::move(o));
  }
  j["rows"] = std::move(rows);
  auto figs = nlohmann::ordered_json::array();
  for (const figure& f : r.figures) {
    nlohmann::ordered_json o{{"id", f.id},           {"title", f.title},     {"source", f.source},
                             {"x_label", f.x_label}, {"y_label", f.y_label}, {"log_x", f.log_x},
                             {"log_y", f.log_y}};
    auto curves = nlohmann::ordered_json::array();
    for (const series& s : f.curves) {
      auto pts = nlohmann::ordered_json::array();
      for (const auto& [x, y] : s.points)
        pts.push_back({x, y});
      curves.push_back({{"name", s.name}, {"paper", s.paper}, {"points", std::move(pts)}});
    }
    o["series"] = std::move(curves);
    figs.push_back(std::move(o));
  }
  j["figures"] = std::move(figs);
  for (const auto& [k, v] : r.extra.items())
    j[k] = v;
  return j;
}

void write_text(std::ostream& os, const paper_report& r) {
  os << r.title << "\n"
     << "model: " << r.model << "\n";
  if (!r.detail.empty()) os << "\n" << r.detail;
  // Rows grouped by source, in the order the sources first appear.
  std::vector<std::string> sources;
  for (const row& x : r.rows)
    if (std::find(sources.begin(), sources.end(), x.source) == sources.end())
      sources.push_back(x.source);
  for (const std::string& s : sources) {
    std::size_t what_w = 4;
    for (const row& x : r.rows)
      if (x.source == s) what_w = std::max(what_w, x.what.size());
    os << "\n" << s << "\n";
    os << "  " << std::left << std::setw(static_cast<int>(what_w)) << "case" << std::right
       << std::setw(14) << "paper" << std::setw(14) << "simulated" << std::setw(11) << "deviation"
       << "  tolerance\n";
    for (const row& x : r.rows) {
      if (x.source != s) continue;
      std::ostringstream dev;
      const double d = x.deviation();
      if (x.tol.kind == tolerance_kind::claim) {
        dev << "";
      } else if (std::isfinite(d)) {
        dev << std::fixed << std::setprecision(2) << d * 100 << " %";
      } else {
        dev << "-";
      }
      const bool claim = x.tol.kind == tolerance_kind::claim;
      os << "  " << std::left << std::setw(static_cast<int>(what_w)) << x.what << std::right
         << std::setw(14) << (claim ? "holds" : number(x.paper)) << std::setw(14)
         << (claim ? (x.simulated == x.paper ? "holds" : "does not") : number(x.simulated))
         << std::setw(11) << dev.str() << "  " << tolerance_text(x);
      switch (x.judged()) {
        case verdict::pass:
          break;
        case verdict::known:
          os << "  known " << x.id;
          break;
        case verdict::fail:
          os << "  FAIL " << x.id;
          break;
      }
      os << "\n";
    }
  }
  if (r.count(verdict::known) > 0) {
    os << "\nknown deviations (each analysed at its value):\n";
    for (const row& x : r.rows)
      if (x.judged() == verdict::known)
        os << "  " << x.id << ": " << x.known->reason << " (" << x.known->doc << ")\n";
  }
  for (const std::string& n : r.notes)
    os << "note: " << n << "\n";
  os << "\n"
     << r.paper << ": " << counts_text(r.count(verdict::pass), r.count(verdict::known), r.failed())
     << (r.pass() ? "" : " (FAILED)") << "\n";
}

}  // namespace tessera::reproduce
