// Renders an analysis as the contract's JSON object or as a readable report.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/analytic/analysis.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/schedule/check.hpp"
#include "tessera/schedule/verdict.hpp"
#include "workload.hpp"

namespace tessera::cli {

struct analyze_result {
  workload w;
  check_result check;
  analytic::analysis an;
  // The data bytes a run of the schedule checks (resolve_schedule), and the verdict from
  // them and the check: the rule `run` follows (tessera/schedule/verdict.hpp).
  std::uint64_t bytes_checked{0};
  tessera::verdict verdict{tessera::verdict::failed};
};

// Throws input_error for a schedule `run` refuses too: block sizes that clash.
analyze_result run_analysis(workload w);

nlohmann::json to_json(const analyze_result& r);
std::string to_text(const analyze_result& r);

// Rounds grouped by their largest link load: "1:480 2:24 4:6 ...".
std::string load_histogram(const analytic::analysis& an);

// Throws input_error when the fabric is too large for a readable chart.
void require_chartable(const workload& w);

// The entries of the chart: slots on circuit fabrics, rounds otherwise.
std::string chart_text(const analyze_result& r);

// The first check error, for the one-line stderr reason of a failed run.
std::string failure_line(const analyze_result& r);

}  // namespace tessera::cli
