// `tessera sweep` as a library (docs/sweeps.md): the value grammar (lists and ranges),
// the sweep's spec (the arguments every run shares and the axes, saved as sweep.json),
// the job files for GNU parallel and Slurm, the collection of their rows, and what the
// rows say (CSV, the load-latency figure's runs, where each series saturates). The CLI
// declares the options, refuses conflicts, runs the runs and prints.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/pictures/figure.hpp"
#include "tessera/pictures/load_latency.hpp"

namespace tessera::sweep {

inline constexpr std::size_t max_values = 10000;  // values of one option
inline constexpr std::size_t max_runs = 100000;
// A sweep's sweep.json and a run's row are read as every input is, bounded by the bytes
// read (tessera/common/input.hpp): `--job /dev/zero` stops at the limit.
inline constexpr std::uint64_t max_spec_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t max_row_bytes = std::uint64_t{16} << 20;

// v to six significant digits, as the sweep writes the values it computes.
std::string short_number(double v);

// Whether the option's value is a list or range of values; the others (files, lists of
// their own) are passed to every run as given.
bool swept(const std::string& name);

// The values one option takes: a list (a,b,c), a range (A:B, A:B:S, A:B:xF, A:B:log[N],
// A:B:lin[N]), or the text as one value. input_error names "--option 'text'".
std::vector<std::string> expand(const std::string& option, const std::string& text);

struct axis {
  std::string option;  // "bytes", or "param:ts"
  std::vector<std::string> values;
};

// The option's column, as it is written on the command line ("--bytes", "--param ts"),
// apart from the results' columns (the run's "cycles" is not --cycles).
std::string column(const axis& x);
// A load-latency series, the values of every axis but --rate: "traffic uniform, param
// vcs 2" (a saturation point's label on a Pareto front too).
std::string series_label(const std::vector<axis>& axes, const nlohmann::ordered_json& row);
// A run's place in the sweep, every axis: "--traffic uniform, --param vcs 2".
std::string run_label(const std::vector<axis>& axes, const nlohmann::ordered_json& row);

// What a sweep runs: the arguments every run shares, the axes, the shared options' row
// columns. Saved as sweep.json for --emit-jobs and --slurm, read back by --job and
// --collect.
struct spec {
  std::vector<std::string> fixed;
  std::vector<axis> axes;
  nlohmann::ordered_json shared = nlohmann::ordered_json::object();
  std::size_t runs{1};
};

// An option given to the sweep, in command-line order: several values make an axis, one
// is shared by every run.
void add_flag(spec& s, const std::string& name);
void add_value(spec& s, const std::string& name, const std::string& text);
void add_param(spec& s, const std::string& key_value);  // --param k=LIST
// The runs: the product of the axes' sizes; input_error past max_runs.
void count_runs(spec& s);
[[nodiscard]] bool has_axis(const spec& s, const std::string& option);

// Run i's value index on each axis (the last varies fastest).
std::vector<std::size_t> coords(const spec& s, std::size_t i);
// Run i's arguments to `tessera run`.
std::vector<std::string> point_argv(const std::vector<std::string>& fixed,
                                    const std::vector<axis>& axes,
                                    const std::vector<std::size_t>& at);
// "--bytes 64, --param ts 10": the axes' values at `at`, for a message.
std::string where(const spec& s, const std::vector<std::size_t>& at);

nlohmann::ordered_json spec_json(const spec& s);
// A sweep.json read (bounded) from `path`; input_error "'name' is not a sweep's
// sweep.json" when it is not one.
spec read_spec(const std::string& option, const std::string& path, const std::string& name);

// The job files: DIR/run-000042.json holds run 42's row.
std::string job_file(const std::string& dir, std::size_t i);
// The directory of a sweep.json ("." for a bare file name), where its rows go.
std::string job_dir(const std::string& spec_file);
// This program's path, for the emitted commands.
std::string self_path();
// One command a run, for GNU parallel; the Slurm job-array script.
std::string job_list(const std::string& self, const std::string& spec_file, std::size_t runs);
std::string slurm_script(const std::string& self, const std::string& spec_file,
                         const std::string& dir, std::size_t runs);
// The rows of an emitted sweep's jobs in DIR; a missing, unreadable or broken file is a
// row that says why.
std::vector<nlohmann::ordered_json> collect(const spec& s, const std::string& dir);

// The run's scalar results into the row, nested objects flattened with dots
// ("latency.p99"); the echoed parameters and the per-step, per-tile and per-link lists
// are left out.
void flatten(const nlohmann::ordered_json& j, const std::string& prefix,
             nlohmann::ordered_json& row);

// The rows as CSV: the swept options, the shared ones, then every result in first-seen
// order; and how many runs failed.
struct table {
  std::string csv;
  std::size_t failed{0};
};
table tabulate(const std::vector<nlohmann::ordered_json>& rows);

// A load-latency sweep: --rate an axis, and runs that offered traffic.
[[nodiscard]] bool load_latency(const spec& s, const std::vector<nlohmann::ordered_json>& rows);
// The runs of the load-latency figure (tessera/pictures/load_latency.hpp).
std::vector<pictures::load_run> load_runs(const std::vector<axis>& axes,
                                          const std::vector<nlohmann::ordered_json>& rows);
// Where each series saturates (docs/sweeps.md), and the same in words: "traffic uniform
// at --rate 0.0344 (offered 0.0342, accepted below offered)".
nlohmann::ordered_json saturation_points(const std::vector<axis>& axes,
                                         const std::vector<nlohmann::ordered_json>& rows);
std::string saturation_text(const nlohmann::ordered_json& points);

// The Pareto front of two columns (--pareto X,Y, docs/sweeps.md). A column is minimized
// unless written max:COLUMN; `saturation` and `saturation_bytes` (the most packets, and
// bytes, a load-latency series accepted per tile and cycle, per combination of the other
// axes) are maximized.
struct pareto_axis {
  std::string column;
  bool maximize{false};
};
using pareto_axes = std::array<pareto_axis, 2>;
// input_error "--pareto 'text' ..." unless it is X,Y.
pareto_axes parse_pareto(const std::string& text);
struct pareto_point {
  std::string label;  // the axes' values: "--param vcs 2, --param buffer 4"
  double x{0};
  double y{0};
  bool front{false};  // no other point is as good on both columns and better on one
};
struct pareto_result {
  pareto_axes on;
  std::vector<pareto_point> points;  // the verified runs (or series) with both values
  std::size_t without_values{0};     // verified runs (or series) lacking one of them
};
pareto_result pareto_front(const std::vector<axis>& axes,
                           const std::vector<nlohmann::ordered_json>& rows, const pareto_axes& on);
// Every point as a mark, the front as a line through its points.
pictures::figure pareto_figure(const pareto_result& r);

// The first run the model refused (bad input, exit status 2): its error and where.
std::optional<std::string> refusal(const spec& s, const std::vector<nlohmann::ordered_json>& rows);

}  // namespace tessera::sweep
