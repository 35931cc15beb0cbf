// tessera sweep: `tessera run` over the cartesian product of value lists and ranges,
// N runs at a time, one row per run in CSV and JSON Lines (docs/sweeps.md).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_file.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/isolated.hpp"
#include "tessera/pictures/load_latency.hpp"
#include "tessera/run/run.hpp"

namespace tessera::cli {

command_line sweep_command_line() {
  command_line c("sweep",
                 R"(tessera sweep [run options, any value a list or a range] [--param k=LIST ...]
                     [--jobs N] [--csv FILE] [--jsonl FILE] [--plot FILE.svg] [--json]
                     [--emit-jobs FILE | --slurm FILE] [--job-dir DIR]
       tessera sweep --collect DIR [--csv FILE] [--jsonl FILE] [--plot FILE.svg] [--json])",
                 R"(Runs `tessera run` once for every combination of the values given: the cartesian
product, the last option varying fastest. Each run is its own process (a failed or
crashed run is a row, not the end of the sweep), --jobs N of them at once. One row
per run, every option and every result a column: CSV (--csv FILE, or stdout) and JSON
Lines (--jsonl FILE). A progress bar goes to stderr when it is a terminal.

values:
  a,b,c          a list                      --bytes 256,1024,4096
  A:B            integers A to B             --shift 1:7
  A:B:S          A to B in steps of S        --cycles 2000:10000:2000
  A:B:xF         A, A*F, ... up to B         --bytes 256:16384:x2
  A:B:log[N]     N values spaced evenly in log between A and B (default 8)
                                             --rate 0.001:0.3:log
  A:B:lin[N]     N values spaced evenly between A and B (default 8)
  --param k=v1,v2 or k=A:B:..., a range or list per parameter

Options that take a file, --fault and --routes are passed to every run as they
are. --trace, --timeline and --heatmap are one run's: use them with tessera run.)");
  c.group("sweep")
      .add({"jobs", "N", "runs at once (default 1)", false, 'j'})
      .value("csv", "FILE", "the rows as CSV (default: stdout, unless --json)")
      .value("jsonl", "FILE", "the rows as JSON Lines, one object per run")
      .value("plot", "F.svg",
             "with --traffic and a range of --rate: the load-latency curve, average and p99 "
             "latency against the offered load, one curve per combination of the other values, "
             "runs past saturation left out and the saturation throughput (the most the fabric "
             "accepted) marked")
      .flag("json", "one JSON object on stdout: the runs, the failures and the rows")
      .group("a sweep handed to GNU parallel or Slurm (docs/sweeps.md)")
      .value("emit-jobs", "F",
             "run nothing: write the sweep to --job-dir DIR (default sweep-jobs) and one "
             "command a run to F, for GNU parallel (`parallel < F`; its --sshlogin spreads them "
             "over machines); each writes DIR/run-N.json")
      .value("slurm", "F", "the same as a Slurm job-array script (`sbatch F`)")
      .value("job-dir", "DIR", "where --emit-jobs and --slurm write the sweep (sweep-jobs)")
      .value("job", "SPEC",
             "one run of an emitted sweep, as the emitted commands give it: DIR/sweep.json")
      .value("index", "N", "with --job: the run's number")
      .value("collect", "DIR",
             "merge the runs' rows of DIR into CSV, JSON Lines and the plot, as a local sweep "
             "writes them; a run with no row is a row that says so")
      .brief_group("run options",
                   "as tessera run takes them (tessera run --help), any value a list or a range");
  // A trace or a heat map is one run's: every run would overwrite the one file.
  const std::set<std::string> one_run{"trace",   "timeline",       "trace-tiles",  "trace-window",
                                      "heatmap", "heatmap-metric", "heatmap-steps"};
  std::set<std::string> left_out = one_run;
  left_out.insert({"json", "transfers"});
  declare_run_options(c, left_out, false);
  for (const std::string& name : one_run) {
    c.refuse(name, "--" + name +
                       " does not go with sweep (each run would overwrite the one file; trace a "
                       "run of the sweep with tessera run)");
  }
  c.refuse("transfers",
           "--transfers does not go with sweep (a row holds a run's scalar results, not its "
           "transfers; list them with tessera run --transfers)");
  c.footer(R"(exit status: 0 every run verified, 1 a run failed its check or did not finish, 2 bad
input (checked for every combination before the first run).)");
  return c;
}

namespace {

// Options whose value is passed to every run as given (files, lists of their own).
bool swept(const std::string& name) {
  static const std::set<std::string> fixed{
      "schedule", "pattern",  "routes",      "fault",        "fault-file", "firmware",
      "trace",    "timeline", "trace-tiles", "trace-window", "heatmap",    "heatmap-metric",
      "help",     "json",     "transfers",   "param"};
  return !fixed.contains(name);
}

std::string fmt_number(double v) {
  std::ostringstream os;
  os << std::setprecision(6) << v;
  return os.str();
}

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end != nullptr && *end == '\0' && std::isfinite(v);
}

constexpr std::size_t max_values = 10000;
constexpr std::size_t max_runs = 100000;

// The values one option takes: a list, or a range.
std::vector<std::string> expand(const std::string& option, const std::string& text) {
  const std::string bad = "--" + option + " '" + shown(text) + "'";
  if (text.find(',') != std::string::npos) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at <= text.size()) {
      const std::size_t comma = std::min(text.find(',', at), text.size());
      const std::string v = text.substr(at, comma - at);
      if (v.empty()) throw input_error(bad + " has an empty value in its list");
      out.push_back(v);
      at = comma + 1;
    }
    return out;
  }
  const std::size_t c1 = text.find(':');
  if (c1 == std::string::npos) return {text};
  const std::size_t c2 = text.find(':', c1 + 1);
  const std::string a_text = text.substr(0, c1);
  const std::string b_text =
      text.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
  const std::string how = c2 == std::string::npos ? "" : text.substr(c2 + 1);
  double a = 0;
  double b = 0;
  // A value with a colon that is not numbers (mesh:4x4, key:value) is one value.
  if (!parse_double(a_text, a) || !parse_double(b_text, b)) return {text};
  if (b < a) throw input_error(bad + " runs backwards");
  std::vector<double> v;
  auto count_of = [&](const std::string& rest) -> std::size_t {
    if (rest.empty()) return 8;
    const std::uint64_t n = parse_count(option, rest, max_values, 2);
    return static_cast<std::size_t>(n);
  };
  if (how.rfind("log", 0) == 0) {
    if (a <= 0) throw input_error(bad + ": a log range starts above 0");
    const std::size_t n = count_of(how.substr(3));
    for (std::size_t i = 0; i < n; ++i)
      v.push_back(a * std::pow(b / a, static_cast<double>(i) / static_cast<double>(n - 1)));
  } else if (how.rfind("lin", 0) == 0) {
    const std::size_t n = count_of(how.substr(3));
    for (std::size_t i = 0; i < n; ++i)
      v.push_back(a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1));
  } else if (!how.empty() && how[0] == 'x') {
    double f = 0;
    if (!parse_double(how.substr(1), f) || f <= 1 || a <= 0)
      throw input_error(bad + ": a geometric range needs A > 0 and a factor above 1");
    for (double x = a; x <= b * (1 + 1e-12) && v.size() <= max_values; x *= f)
      v.push_back(x);
  } else {
    double s = 1;
    if (!how.empty() && (!parse_double(how, s) || s <= 0))
      throw input_error(bad + ": the step must be a number above 0");
    for (double x = a; x <= b * (1 + 1e-12) + 1e-12 && v.size() <= max_values; x += s)
      v.push_back(x);
  }
  if (v.size() > max_values)
    throw input_error(bad + " has more than " + std::to_string(max_values) + " values");
  // Between two integers the values are integers (block sizes, cycles, counts).
  const bool whole = a_text.find_first_not_of("0123456789") == std::string::npos &&
                     b_text.find_first_not_of("0123456789") == std::string::npos;
  std::vector<std::string> out;
  for (const double x : v) {
    const std::string t = whole ? std::to_string(std::llround(x)) : fmt_number(x);
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

struct axis {
  std::string option;  // "bytes", or "param:ts"
  std::vector<std::string> values;
};

// The option's column, as it is written on the command line ("--bytes", "--param ts"),
// apart from the results' columns (the run's "cycles" is not --cycles).
std::string column(const axis& x) {
  return x.option.rfind("param:", 0) == 0 ? "--param " + x.option.substr(6) : "--" + x.option;
}

std::vector<std::string> point_argv(const std::vector<std::string>& fixed,
                                    const std::vector<axis>& axes,
                                    const std::vector<std::size_t>& at) {
  std::vector<std::string> argv = fixed;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const axis& x = axes[i];
    if (x.option.rfind("param:", 0) == 0) {
      argv.emplace_back("--param");
      argv.push_back(x.option.substr(6) + "=" + x.values[at[i]]);
    } else {
      argv.push_back("--" + x.option);
      argv.push_back(x.values[at[i]]);
    }
  }
  return argv;
}

// The run's scalar results, nested objects flattened with dots ("latency.p99"); the
// echoed parameters and the per-step, per-tile and per-link lists are left out.
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

std::string csv_cell(const nlohmann::ordered_json& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (const char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A load-latency series: the values of every axis but --rate ("traffic uniform").
std::string series_label(const std::vector<axis>& axes, const nlohmann::ordered_json& row) {
  std::string label;
  for (const axis& x : axes) {
    if (x.option == "rate") continue;
    label +=
        (label.empty() ? "" : ", ") + column(x).substr(2) + " " + row[column(x)].get<std::string>();
  }
  return label;
}

// The load-latency figure of a traffic sweep (tessera/pictures/load_latency.hpp) from its
// rows.
void write_load_latency(const std::string& file, const std::vector<axis>& axes,
                        const std::vector<nlohmann::ordered_json>& rows) {
  std::vector<pictures::load_run> runs;
  for (const auto& row : rows) {
    pictures::load_run& r = runs.emplace_back();
    r.series = series_label(axes, row);
    if (!row.contains("offered")) continue;
    r.offered = row["offered"].get<double>();
    if (!row.contains("accepted.packets")) continue;
    r.accepted = row["accepted.packets"].get<double>();
    if (!row.contains("latency.average")) continue;
    r.average = row["latency.average"].get<double>();
    r.p99 = row["latency.p99"].get<double>();
  }
  write_output_file("--plot", file, pictures::to_svg(pictures::load_latency_figure(runs)));
}

// Where each series of a load-latency sweep saturates (docs/sweeps.md): the lowest
// offered load at which its run is saturated (it accepted less than 95 % of the load
// offered, or could not drain: docs/tlm.md) or its average latency exceeds
// saturation_factor times the zero-load latency, taken as the average latency at the
// series' lowest offered load.
constexpr double saturation_factor = 3;

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

// "traffic uniform at --rate 0.0344 (offered 0.0342, accepted below offered)".
std::string saturation_text(const nlohmann::ordered_json& points) {
  std::string text;
  for (const auto& p : points) {
    text += text.empty() ? "" : "; ";
    const std::string label = p["series"].get<std::string>();
    text += label.empty() ? "" : label + " ";
    if (p["rate"].is_null()) {
      text += "not reached (offered up to " + fmt_number(p["highest_offered"].get<double>()) + ")";
    } else {
      text += "at --rate " + p["rate"].get<std::string>() + " (offered " +
              fmt_number(p["offered"].get<double>()) + ", " + p["reason"].get<std::string>() + ")";
    }
  }
  return text;
}

// What a sweep runs: the arguments every run shares, the axes, the shared options' row
// columns. Saved as sweep.json for --emit-jobs and --slurm, read back by --job and
// --collect.
struct sweep_spec {
  std::vector<std::string> fixed;
  std::vector<axis> axes;
  nlohmann::ordered_json shared = nlohmann::ordered_json::object();
  std::size_t runs{1};
};

nlohmann::ordered_json spec_json(const sweep_spec& s) {
  nlohmann::ordered_json j;
  j["format"] = "tessera sweep 1";
  j["fixed"] = s.fixed;
  j["axes"] = nlohmann::ordered_json::array();
  for (const axis& x : s.axes)
    j["axes"].push_back({{"option", x.option}, {"values", x.values}});
  j["shared"] = s.shared;
  j["runs"] = s.runs;
  return j;
}

sweep_spec spec_from(const nlohmann::json& j, const std::string& file) {
  const std::string bad = "'" + shown(file) + "' is not a sweep's sweep.json";
  sweep_spec s;
  try {
    if (j.at("format") != "tessera sweep 1") throw input_error(bad);
    s.fixed = j.at("fixed").get<std::vector<std::string>>();
    for (const auto& x : j.at("axes")) {
      s.axes.push_back(
          {x.at("option").get<std::string>(), x.at("values").get<std::vector<std::string>>()});
    }
    s.shared = nlohmann::ordered_json(j.at("shared"));
    s.runs = j.at("runs").get<std::size_t>();
  } catch (const nlohmann::json::exception&) {
    throw input_error(bad);
  }
  std::size_t n = 1;
  for (const axis& x : s.axes) {
    if (x.values.empty()) throw input_error(bad);
    n *= x.values.size();
    if (n > max_runs) throw input_error(bad);
  }
  if (n != s.runs) throw input_error(bad);
  return s;
}

// Run i's value index on each axis (the last varies fastest).
std::vector<std::size_t> coords(const sweep_spec& s, std::size_t i) {
  std::vector<std::size_t> at(s.axes.size(), 0);
  for (std::size_t k = s.axes.size(); k-- > 0;) {
    at[k] = i % s.axes[k].values.size();
    i /= s.axes[k].values.size();
  }
  return at;
}

// Runs run i in a child process; its row.
// Run i of the sweep, in a child: its run's JSON and exit status.
std::pair<std::string, int> run_point(const sweep_spec& s, std::size_t i) {
  try {
    command_line run_cl = run_command_line();
    const args ra(run_cl, point_argv(s.fixed, s.axes, coords(s, i)));
    run_request q = parse_request(ra);
    const std::unique_ptr<run::run_result> res = run::run(std::move(q.config));
    nlohmann::ordered_json j = res->json();
    if (res->exit_status() != 0) j["failure"] = res->failure();
    return {j.dump(), res->exit_status()};
  } catch (const input_error& e) {
    return {nlohmann::json{{"error", e.what()}}.dump(), 2};
  }
}

// Row i of the sweep from how its child ended.
nlohmann::ordered_json make_row(const sweep_spec& s, std::size_t i, const isolated_result& child) {
  const std::vector<std::size_t> at = coords(s, i);
  nlohmann::ordered_json row = nlohmann::ordered_json::object();
  row["run"] = i;
  for (std::size_t k = 0; k < s.axes.size(); ++k)
    row[column(s.axes[k])] = s.axes[k].values[at[k]];
  for (const auto& [k, v] : s.shared.items())
    row[k] = v;
  if (child.ok()) {
    row["exit_status"] = child.exit_status;
    try {
      flatten(nlohmann::ordered_json::parse(child.text), "", row);
    } catch (const nlohmann::json::exception&) {
      row["error"] = "the run's output is not JSON";
    }
  } else {
    row["exit_status"] = child.exited ? child.exit_status : 128 + child.signal;
    row["error"] = !child.failure.empty() ? child.failure
                   : child.too_long       ? std::string("the run's output was too long")
                                    : "the run ended by signal " + std::to_string(child.signal);
  }
  return row;
}

std::string job_file(const std::string& dir, std::size_t i) {
  std::ostringstream os;
  os << dir << "/run-" << std::setw(6) << std::setfill('0') << i << ".json";
  return os.str();
}

// A word for a POSIX shell, quoted when it needs to be.
std::string sh_word(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789-_./:=,+@%") == std::string::npos) {
    return w;
  }
  std::string out = "'";
  for (const char c : w)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string self_path() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  return n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : std::string("tessera");
}

// CSV, JSON Lines, the plot and the summary of finished rows; the exit status.
int write_results(const args& a, const sweep_spec& s,
                  const std::vector<nlohmann::ordered_json>& rows, std::ostream& out,
                  std::ostream& err) {
  const bool json = a.flag("json");
  std::optional<output_file> csv_file;
  std::optional<output_file> jsonl_file;
  if (const auto f = a.get("csv")) csv_file.emplace("--csv", *f);
  if (const auto f = a.get("jsonl")) jsonl_file.emplace("--jsonl", *f);
  // Columns: the swept options, the shared ones, then every result in first-seen order.
  std::vector<std::string> cols;
  for (const auto& row : rows)
    for (const auto& [k, v] : row.items())
      if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  std::ostringstream csv;
  for (std::size_t c = 0; c < cols.size(); ++c)
    csv << (c == 0 ? "" : ",") << csv_cell(cols[c]);
  csv << '\n';
  std::size_t failed = 0;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < cols.size(); ++c)
      csv << (c == 0 ? "" : ",") << csv_cell(row.contains(cols[c]) ? row[cols[c]] : nullptr);
    csv << '\n';
    if (!row["exit_status"].is_number() || row["exit_status"] != 0) ++failed;
    if (jsonl_file) jsonl_file->stream() << row.dump() << '\n';
  }
  if (jsonl_file) jsonl_file->close();
  if (csv_file) {
    csv_file->stream() << csv.str();
    csv_file->close();
  }
  if (const auto plot = a.get("plot")) write_load_latency(*plot, s.axes, rows);
  // A load-latency sweep: where each series saturates.
  const bool load_latency =
      std::any_of(s.axes.begin(), s.axes.end(), [](const axis& x) { return x.option == "rate"; }) &&
      std::any_of(rows.begin(), rows.end(),
                  [](const nlohmann::ordered_json& r) { return r.contains("offered"); });
  const nlohmann::ordered_json saturation =
      load_latency ? saturation_points(s.axes, rows) : nlohmann::ordered_json();
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "sweep";
    j["runs"] = rows.size();
    j["failed"] = failed;
    j["axes"] = nlohmann::ordered_json::object();
    for (const axis& x : s.axes)
      j["axes"][column(x)] = x.values;
    if (const auto f = a.get("csv")) j["csv"] = *f;
    if (const auto f = a.get("jsonl")) j["jsonl"] = *f;
    if (const auto f = a.get("plot")) j["plot"] = *f;
    if (load_latency) j["saturation"] = saturation;
    j["rows"] = rows;
    out << j.dump(2) << '\n';
  } else if (!csv_file) {
    out << csv.str();
  } else {
    // The rows went to a file: one line says what the sweep found.
    out << "sweep: " << rows.size() << (rows.size() == 1 ? " run, " : " runs, ") << failed
        << " failed; rows in " << *a.get("csv");
    if (const auto f = a.get("jsonl")) out << " and " << *f;
    if (const auto f = a.get("plot")) out << ", plot " << *f;
    if (load_latency) out << "; saturation: " << saturation_text(saturation);
    out << '\n';
  }
  for (const auto& row : rows) {
    if (row["exit_status"] != 2) continue;
    // A value the model refuses (a parameter out of range for it): bad input.
    std::string where;
    for (const axis& x : s.axes)
      where += (where.empty() ? "" : ", ") + column(x) + " " + row[column(x)].get<std::string>();
    err << "tessera: " << row.value("error", std::string("refused"))
        << (where.empty() ? "" : " (at " + where + ")") << '\n';
    return 2;
  }
  if (failed > 0) {
    err << "tessera: " << failed << " of " << rows.size()
        << " runs did not verify or did not run (their rows say why)\n";
  }
  return failed > 0 ? 1 : 0;
}

// A sweep's sweep.json and a run's row are read as every input is, bounded by the bytes
// read (tessera/common/input.hpp): `--job /dev/zero` stops at the limit.
constexpr std::uint64_t max_spec_bytes = std::uint64_t{64} << 20;
constexpr std::uint64_t max_row_bytes = std::uint64_t{16} << 20;

// Run i's row as its job wrote it to DIR/run-N.json; a missing, unreadable or broken
// file is a row that says why.
nlohmann::ordered_json read_row(const sweep_spec& s, const std::string& dir, std::size_t i) {
  const std::string file = job_file(dir, i);
  std::string problem = "no result: the job did not run or did not finish";
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    try {
      // Parsed in order (the row's columns keep their order), as deep as a row may be.
      const std::string text = read_input_file("--collect", file, max_row_bytes);
      nlohmann::ordered_json row = nlohmann::ordered_json::parse(
          text, [&](int depth, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
            if (depth >= static_cast<int>(max_json_depth))
              throw input_error("'" + shown(file, 160) + "' nests deeper than a row");
            return true;
          });
      if (row.is_object() && row.value("run", s.runs) == i) return row;
      problem = "no result: '" + shown(file, 160) + "' is not the row of run " + std::to_string(i);
    } catch (const input_error& e) {
      problem = std::string("no result: ") + e.what();
    } catch (const nlohmann::json::exception&) {
      problem = "no result: '" + shown(file, 160) + "' is not JSON";
    }
  }
  nlohmann::ordered_json row = nlohmann::ordered_json::object();
  row["run"] = i;
  const std::vector<std::size_t> at = coords(s, i);
  for (std::size_t k = 0; k < s.axes.size(); ++k)
    row[column(s.axes[k])] = s.axes[k].values[at[k]];
  for (const auto& [k, v] : s.shared.items())
    row[k] = v;
  row["exit_status"] = nullptr;
  row["error"] = problem;
  return row;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  command_line cl = sweep_command_line();
  const args a(cl, argv);
  if (a.flag("help")) {
    out << cl.help();
    return 0;
  }

  if (a.has("index") && !a.has("job")) throw input_error("--index goes with --job SPEC");
  if (a.has("job") || a.has("collect")) {
    // An emitted sweep's job or its collection: the spec says what the runs are.
    const std::set<std::string> allowed =
        a.has("job") ? std::set<std::string>{"job", "index", "json"}
                     : std::set<std::string>{"collect", "csv", "jsonl", "plot", "json"};
    for (const std::string& name : a.given()) {
      if (!allowed.contains(name)) {
        throw input_error("--" + name + " does not go with --" +
                          (a.has("job") ? "job" : "collect") +
                          " (the sweep's sweep.json holds its options)");
      }
    }
  }
  // One job of an emitted sweep: run it, write its row.
  if (const auto spec_file = a.get("job")) {
    const sweep_spec s = spec_from(read_json_file("--job", *spec_file, max_spec_bytes), *spec_file);
    const std::size_t i = parse_count("index", a.require("index"), s.runs - 1);
    const std::string dir = spec_file->substr(
        0, spec_file->find_last_of('/') == std::string::npos ? 0 : spec_file->find_last_of('/'));
    const nlohmann::ordered_json row =
        make_row(s, i, run_isolated_process([&] { return run_point(s, i); }));
    const std::string file = job_file(dir.empty() ? "." : dir, i);
    write_output_file("--job's row", file, row.dump() + '\n');
    if (a.flag("json")) {
      out << nlohmann::ordered_json{{"command", "sweep"},
                                    {"job", i},
                                    {"row", file},
                                    {"exit_status", row["exit_status"]}}
                 .dump(2)
          << '\n';
    }
    return row["exit_status"].is_number() && row["exit_status"].get<int>() <= 2
               ? row["exit_status"].get<int>()
               : 1;
  }
  // The rows of an emitted sweep's jobs, merged as a local sweep writes them.
  if (const auto dir = a.get("collect")) {
    const sweep_spec s =
        spec_from(read_json_file("--collect", *dir + "/sweep.json", max_spec_bytes), *dir);
    std::vector<nlohmann::ordered_json> rows;
    for (std::size_t i = 0; i < s.runs; ++i)
      rows.push_back(read_row(s, *dir, i));
    return write_results(a, s, rows, out, err);
  }

  const unsigned jobs =
      static_cast<unsigned>(parse_count("jobs", a.get("jobs").value_or("1"), 256, 1));
  // The axes (options with several values) and what every run shares.
  sweep_spec s;
  for (const std::string& name : a.given()) {
    static const std::set<std::string> own{"jobs", "csv",       "jsonl", "json",
                                           "plot", "emit-jobs", "slurm", "job-dir"};
    if (own.contains(name)) continue;
    if (name == "param") {
      for (const std::string& kv : a.all("param")) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
          throw input_error("--param '" + shown(kv) + "' is not key=value");
        const std::vector<std::string> v = expand("param " + kv.substr(0, eq), kv.substr(eq + 1));
        if (v.size() > 1) {
          s.axes.push_back({"param:" + kv.substr(0, eq), v});
        } else {
          s.fixed.emplace_back("--param");
          s.fixed.push_back(kv.substr(0, eq) + "=" + v.front());
          s.shared["--param " + kv.substr(0, eq)] = v.front();
        }
      }
      continue;
    }
    if (!a.get(name)) {  // a flag
      s.fixed.push_back("--" + name);
      s.shared["--" + name] = true;
      continue;
    }
    for (const std::string& v : a.all(name)) {
      const std::vector<std::string> list = swept(name) ? expand(name, v) : std::vector{v};
      if (list.size() > 1) {
        s.axes.push_back({name, list});
      } else {
        s.fixed.push_back("--" + name);
        s.fixed.push_back(list.front());
        s.shared["--" + name] = list.front();
      }
    }
  }
  for (const axis& x : s.axes) {
    s.runs *= x.values.size();
    if (s.runs > max_runs) {
      throw input_error("the sweep has more than " + std::to_string(max_runs) +
                        " runs; sweep fewer values");
    }
  }
  // Every combination is checked before the first run: bad input is the sweep's.
  command_line run_cl = run_command_line();
  for (std::size_t i = 0; i < s.runs; ++i) {
    const std::vector<std::size_t> at = coords(s, i);
    const std::vector<std::string> pa = point_argv(s.fixed, s.axes, at);
    const args ra(run_cl, pa);
    try {
      (void)parse_request(ra);
    } catch (const input_error& e) {
      std::string where;
      for (std::size_t k = 0; k < s.axes.size(); ++k)
        where += (where.empty() ? "" : ", ") + column(s.axes[k]) + " " + s.axes[k].values[at[k]];
      throw input_error(std::string(e.what()) + (where.empty() ? "" : " (at " + where + ")"));
    }
  }
  if (a.has("plot")) {
    const bool rate_axis =
        std::any_of(s.axes.begin(), s.axes.end(), [](const axis& x) { return x.option == "rate"; });
    if (!a.has("traffic") || !rate_axis) {
      throw input_error(
          "--plot draws a load-latency curve: it needs --traffic and a list or "
          "range of --rate");
    }
  }

  // Handing the runs to GNU parallel or Slurm: the spec, and one command a run.
  const auto emit = a.get("emit-jobs");
  const auto slurm = a.get("slurm");
  if (a.has("job-dir") && !emit && !slurm)
    throw input_error("--job-dir goes with --emit-jobs FILE or --slurm FILE");
  if (emit || slurm) {
    for (const char* o : {"csv", "jsonl", "plot", "jobs"}) {
      if (a.has(o)) {
        throw input_error("--" + std::string(o) + " goes with the local run or --collect, not " +
                          (emit ? "--emit-jobs" : "--slurm"));
      }
    }
    const std::string dir = a.get("job-dir").value_or("sweep-jobs");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string spec = std::filesystem::absolute(dir + "/sweep.json", ec).string();
    write_output_file("--job-dir", spec, spec_json(s).dump(2) + '\n');
    const std::string self = sh_word(self_path());
    if (emit) {
      output_file o{"--emit-jobs", *emit};
      for (std::size_t i = 0; i < s.runs; ++i)
        o.stream() << self << " sweep --job " << sh_word(spec) << " --index " << i << '\n';
      o.close();
    }
    if (slurm) {
      output_file f{"--slurm", *slurm};
      std::ostream& o = f.stream();
      o << "#!/bin/sh\n"
        << "#SBATCH --job-name=tessera-sweep\n"
        << "#SBATCH --array=0-" << s.runs - 1 << "\n"
        << "#SBATCH --ntasks=1\n"
        << "# One run of the sweep a task; then: tessera sweep --collect " << sh_word(dir) << "\n"
        << "exec " << self << " sweep --job " << sh_word(spec)
        << " --index \"${SLURM_ARRAY_TASK_ID:?run this as a Slurm array job}\"\n";
      f.close();
    }
    if (a.flag("json")) {
      nlohmann::ordered_json j{{"command", "sweep"}, {"runs", s.runs}, {"job_dir", dir}};
      if (emit) j["emit_jobs"] = *emit;
      if (slurm) j["slurm"] = *slurm;
      out << j.dump(2) << '\n';
    } else {
      out << "sweep of " << s.runs << " runs in " << dir << ": ";
      if (emit) out << "parallel < " << *emit;
      if (emit && slurm) out << ", or ";
      if (slurm) out << "sbatch " << *slurm;
      out << "; then tessera sweep --collect " << dir << '\n';
    }
    return 0;
  }

  // The files are opened (and emptied) before the first run, not found unwritable after
  // the last.
  for (const char* o : {"csv", "jsonl", "plot"})
    if (const auto f = a.get(o)) check_writable("--" + std::string(o), *f);

  // The runs, each in a child process, `jobs` at a time, forked from this thread.
  std::vector<nlohmann::ordered_json> rows(s.runs);
  std::size_t done = 0;
  const bool bar = !a.flag("json") && ::isatty(STDERR_FILENO) != 0;
  run_isolated_pool(
      s.runs, jobs, [&](std::size_t i) { return run_point(s, i); },
      [&](std::size_t i, const isolated_result& child) {
        rows[i] = make_row(s, i, child);
        const std::size_t n = ++done;
        if (bar) {
          const std::size_t width = 40;
          const std::size_t filled = n * width / s.runs;
          err << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << n
              << "/" << s.runs << std::flush;
        }
      });
  if (bar) err << '\n';
  return write_results(a, s, rows, out, err);
}

}  // namespace tessera::cli
