#include "tessera/reproduce/html.hpp"
#include "tessera/common/input.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "tessera/pictures/figure.hpp"

namespace tessera::reproduce {
namespace {

std::string value(const row& r, double v) {
  if (r.tol.kind == tolerance_kind::claim) return v == 1 ? "holds" : "does not hold";
  if (!std::isfinite(v)) return "-";
  std::ostringstream os;
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    os << std::fixed << std::setprecision(0) << v;
  } else {
    os << std::setprecision(5) << v;
  }
  return os.str();
}

// The SVG of a figure, without its XML declaration, to sit inline in the page.
std::string inline_svg(const figure& f) {
  std::string s = pictures::to_svg(f);
  if (s.rfind("<?xml", 0) == 0) s.erase(0, s.find('\n') + 1);
  return s;
}

}  // namespace

std::string to_html(const std::vector<paper_report>& reports) {
  std::size_t total = 0;
  std::size_t passed = 0;
  std::size_t known = 0;
  std::size_t failed = 0;
  bool pass = true;
  for (const paper_report& r : reports) {
    total += r.rows.size();
    passed += r.count(verdict::pass);
    known += r.count(verdict::known);
    failed += r.failed();
    pass = pass && r.pass();
  }
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<title>Tessera: the papers reproduced</title>\n<style>\n"
     << "body{font-family:DejaVu Sans,Arial,sans-serif;margin:2em;color:#222;max-width:1200px}\n"
     << "table{border-collapse:collapse;margin:1em 0;font-size:13px}\n"
     << "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}\n"
     << "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
     << "tr.fail td{background:#fdd}\ntr.known td{background:#fff3cd}\n"
     << ".pass{color:#060}.fail{color:#b00;font-weight:bold}.known{color:#8a5a00}\n"
     << "td.reason{font-size:12px;color:#555}\n"
     << "details{margin:0.5em 0}\nsvg{max-width:100%;height:auto;display:block;margin:1em 0}\n"
     << "</style>\n</head>\n<body>\n";
  os << "<h1>The papers reproduced</h1>\n<p id=\"summary\" class=\"" << (pass ? "pass" : "fail")
     << "\">" << total << " rows over " << reports.size()
     << " papers: " << counts_text(passed, known, failed)
     << ". A known deviation misses its tolerance for a reason docs/reproduction.md analyses, "
        "still at the value analysed.</p>\n";
  os << "<ul>\n";
  for (const paper_report& r : reports) {
    os << "<li><a href=\"#" << escape_markup(r.paper) << "\">" << escape_markup(r.title)
       << "</a>: " << counts_text(r.count(verdict::pass), r.count(verdict::known), r.failed())
       << (r.pass() ? "" : " <span class=\"fail\">FAILED</span>") << "</li>\n";
  }
  os << "</ul>\n";
  for (const paper_report& r : reports) {
    os << "<section id=\"" << escape_markup(r.paper) << "\" class=\"paper\">\n<h2>"
       << escape_markup(r.title) << "</h2>\n<p>Model: " << escape_markup(r.model)
       << ". <span class=\"" << (r.pass() ? "pass" : "fail") << "\">"
       << counts_text(r.count(verdict::pass), r.count(verdict::known), r.failed())
       << ".</span></p>\n";
    for (const figure& f : r.figures)
      os << "<figure id=\"" << escape_markup(f.id) << "\">\n" << inline_svg(f) << "</figure>\n";
    // The rows by source, in the order the sources first appear.
    std::vector<std::string> sources;
    for (const row& x : r.rows)
      if (std::find(sources.begin(), sources.end(), x.source) == sources.end())
        sources.push_back(x.source);
    for (const std::string& s : sources) {
      std::size_t n = 0;
      std::size_t bad = 0;
      std::size_t kn = 0;
      for (const row& x : r.rows) {
        if (x.source != s) continue;
        ++n;
        if (x.judged() == verdict::fail) ++bad;
        if (x.judged() == verdict::known) ++kn;
      }
      os << "<details" << (bad + kn > 0 ? " open" : "") << "><summary>" << escape_markup(s) << ": "
         << counts_text(n - bad - kn, kn, bad)
         << (bad > 0 ? " <span class=\"fail\">FAILED</span>" : "") << "</summary>\n"
         << "<table class=\"rows\">\n<tr><th>case</th><th>unit</th><th>paper</th>"
         << "<th>simulated</th><th>deviation</th><th>tolerance</th><th>verdict</th></tr>\n";
      for (const row& x : r.rows) {
        if (x.source != s) continue;
        const double d = x.deviation();
        std::ostringstream dev;
        if (x.tol.kind != tolerance_kind::claim && std::isfinite(d))
          dev << std::fixed << std::setprecision(2) << d * 100 << " %";
        const verdict v = x.judged();
        const char* cls = v == verdict::pass ? "pass" : v == verdict::known ? "known" : "fail";
        os << "<tr" << (v == verdict::pass ? "" : std::string(" class=\"") + cls + "\"") << " id=\""
           << escape_markup(x.id) << "\"><td>" << escape_markup(x.what) << "</td><td>"
           << escape_markup(x.unit) << "</td><td class=\"n\""
           << (x.formula.empty() ? "" : " title=\"" + escape_markup(x.formula) + "\"") << ">"
           << value(x, x.paper) << "</td><td class=\"n\">" << value(x, x.simulated)
           << "</td><td class=\"n\">" << dev.str() << "</td><td title=\""
           << escape_markup(x.tol.why) << "\">" << escape_markup(tolerance_text(x))
           << "</td><td class=\"" << cls << "\">"
           << (v == verdict::pass    ? "pass"
               : v == verdict::known ? "known deviation"
                                     : "FAIL")
           << "</td></tr>\n";
        if (v == verdict::known) {
          os << "<tr class=\"known reason\"><td class=\"reason\" colspan=\"7\">"
             << escape_markup(x.id) << ": " << escape_markup(x.known->reason) << " ("
             << escape_markup(x.known->doc) << ")</td></tr>\n";
        }
      }
      os << "</table>\n</details>\n";
    }
    os << "</section>\n";
  }
  os << "</body>\n</html>\n";
  return os.str();
}

}  // namespace tessera::reproduce
