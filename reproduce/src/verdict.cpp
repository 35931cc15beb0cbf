// judge(): every row's verdict against the known-deviation table (known.hpp).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/reproduce/known.hpp"

namespace tessera::reproduce {
namespace {

// A value as the table and the problems write it: the shortest text that reads back as
// the same double (so an "analysed at" can be copied into the table).
std::string exact(double v) {
  return nlohmann::json(v).dump();
}

std::string analysed(const known_deviation& k) {
  if (k.lo == k.hi) return "analysed at " + exact(k.lo);
  return "analysed within [" + exact(k.lo) + ", " + exact(k.hi) + "]";
}

std::string runs_at(const known_deviation& k) {
  return "--" + std::string(k.seed_option) + " " + std::to_string(k.seed_count);
}

// What the row shows against its tolerance, for a problem's line.
std::string outcome(const row& x) {
  if (x.tol.kind == tolerance_kind::claim)
    return x.simulated == x.paper ? "the claim holds" : "the claim does not hold";
  if (!std::isfinite(x.simulated)) return "no simulated value (a run did not verify)";
  return "simulated " + exact(x.simulated) + " against paper " + exact(x.paper) + ", tolerance " +
         tolerance_text(x);
}

}  // namespace

void judge(paper_report& r, const std::vector<known_deviation>& table) {
  r.problems.clear();
  r.notes.clear();
  for (row& x : r.rows)
    x.known.reset();
  std::set<std::string> named;  // rows an entry spoke for (their problem, if any, is said)
  for (const known_deviation& k : table) {
    if (k.paper != r.paper || k.model != r.model_name) continue;
    const std::string id(k.id);
    const auto it =
        std::find_if(r.rows.begin(), r.rows.end(), [&](const row& x) { return x.id == id; });
    if (!k.seed_option.empty()) {
      const auto s = r.seeds.find(std::string(k.seed_option));
      if (s == r.seeds.end() || s->second != k.seed_count) {
        if (it != r.rows.end()) {
          r.notes.push_back(id + ": a known deviation at " + runs_at(k) +
                            ", not applied here: the row is held to its tolerance");
        }
        continue;
      }
    }
    if (it == r.rows.end()) {
      if (r.complete) {
        r.problems.push_back(id + ": stale known deviation: the report has no such row (" +
                             std::string(k.doc) + ")");
      }
      continue;
    }
    row& x = *it;
    named.insert(id);
    if (x.pass()) {
      r.problems.push_back(id + ": stale known deviation: the row now passes (" + outcome(x) +
                           "; " + analysed(k) + ")");
      continue;
    }
    const bool same =
        k.lo == k.hi ? x.simulated == k.lo : x.simulated >= k.lo && x.simulated <= k.hi;
    if (!same) {
      r.problems.push_back(id + ": known deviation moved: " + analysed(k) +
                           (k.seed_option.empty() ? "" : " at " + runs_at(k)) + ", now " +
                           exact(x.simulated) + " (" + std::string(k.doc) + ")");
      continue;
    }
    x.known = known_note{std::string(k.reason), std::string(k.doc), k.lo, k.hi};
  }
  for (const row& x : r.rows) {
    if (x.judged() != verdict::fail || named.count(x.id) != 0) continue;
    r.problems.push_back(x.id + ": fail: " + outcome(x) + " (not a known deviation)");
  }
}

}  // namespace tessera::reproduce
