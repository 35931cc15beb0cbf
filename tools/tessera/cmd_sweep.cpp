// tessera sweep: `tessera run` over the cartesian product of value lists and ranges,
// N runs at a time, one row per run in CSV and JSON Lines (docs/sweeps.md). The sweep
// library (tessera/sweep/sweep.hpp) holds the grammar, the spec, the job files and what
// the rows say; here: the options, their conflicts, the runs and the printing.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_file.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/isolated.hpp"
#include "tessera/pictures/load_latency.hpp"
#include "tessera/price/area.hpp"
#include "tessera/run/run.hpp"
#include "tessera/sweep/sweep.hpp"

namespace tessera::cli {

command_line sweep_command_line() {
  command_line c("sweep",
                 R"(tessera sweep [run options, any value a list or a range] [--param k=LIST ...]
                     [--jobs N] [--csv FILE] [--jsonl FILE] [--plot FILE.svg] [--json]
                     [--area TARGETS] [--pareto X,Y [--pareto-plot FILE.svg]]
                     [--emit-jobs FILE | --slurm FILE] [--job-dir DIR]
       tessera sweep --collect DIR [--csv FILE] [--jsonl FILE] [--plot FILE.svg] [--json]
                     [--area TARGETS [--jobs N]] [--pareto X,Y [--pareto-plot FILE.svg]])",
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
      .add({"jobs", "N",
            "runs at once (default 1); with --area also the configurations priced at once, "
            "each a Yosys process (with --collect only those)",
            false, 'j'})
      .value("csv", "FILE", "the rows as CSV (default: stdout, unless --json)")
      .value("jsonl", "FILE", "the rows as JSON Lines, one object per run")
      .value("plot", "F.svg",
             "with --traffic and a range of --rate: the load-latency curve, average and p99 "
             "latency against the offered load, one curve per combination of the other values, "
             "runs past saturation left out and the saturation throughput (the most the fabric "
             "accepted) marked")
      .flag("json", "one JSON object on stdout: the runs, the failures and the rows")
      .group("price the configurations (docs/ppa.md)")
      .value("area", "TARGETS",
             "add each run's router area to its row (area.ice40.lut4, area.gates.nand2_eq, "
             "...): ice40, xilinx, gates, all, or a comma list; synthesized once a "
             "configuration with Yosys (tessera area), from its cache after that")
      .value("pareto", "X,Y",
             "the Pareto front of two columns of the rows, each minimized unless written "
             "max:COLUMN; `saturation` and `saturation_bytes`, the most packets and bytes a "
             "load-latency series accepted per tile and cycle, are maximized per combination "
             "of the other options (e.g. area.ice40.lut4,saturation_bytes or "
             "energy.total_pj,cycles)")
      .value("pareto-plot", "F.svg", "with --pareto: every configuration and the front, drawn")
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
  left_out.insert({"json", "transfers", "gdb"});
  declare_run_options(c, left_out, false);
  for (const std::string& name : one_run) {
    c.refuse(name, "--" + name +
                       " does not go with sweep (each run would overwrite the one file; trace a "
                       "run of the sweep with tessera run)");
  }
  c.refuse("gdb",
           "--gdb does not go with sweep (every run would wait for a debugger; debug a run of "
           "the sweep with tessera run)");
  c.refuse("transfers",
           "--transfers does not go with sweep (a row holds a run's scalar results, not its "
           "transfers; list them with tessera run --transfers)");
  c.footer(R"(exit status: 0 every run verified, 1 a run failed its check or did not finish, 2 bad
input (checked for every combination before the first run).)");
  return c;
}

namespace {

// The sweep library's parts the local executor builds rows with.
using sweep::column;
using sweep::coords;
using sweep::flatten;
using sweep::point_argv;
using sweep_spec = sweep::spec;

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

// --area's targets: ice40, xilinx, gates, all, or a comma list of the first three.
unsigned area_targets(const std::string& text) {
  if (text == "all") return price::all_targets;
  unsigned bits = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string t = text.substr(at, comma - at);
    bool known = false;
    for (const auto x : {price::target::ice40, price::target::xilinx, price::target::gates}) {
      if (t == price::target_name(x)) {
        bits |= static_cast<unsigned>(x);
        known = true;
      }
    }
    if (!known) {
      throw input_error("--area '" + shown(text) +
                        "' is not ice40, xilinx, gates, all or a comma list of the first three");
    }
    at = comma + 1;
  }
  return bits;
}

// The pricing options' own conflicts, before any run.
void check_pricing(const args& a) {
  if (const auto t = a.get("area")) (void)area_targets(*t);
  if (const auto p = a.get("pareto")) (void)sweep::parse_pareto(*p);
  if (a.has("pareto-plot") && !a.has("pareto"))
    throw input_error("--pareto-plot goes with --pareto X,Y");
}

// With --area, the router each run simulates, in its configuration: every combination
// is priced or refused before the first run.
std::vector<price::area_design> run_designs(const args& a, const sweep_spec& s) {
  std::vector<price::area_design> out;
  if (!a.has("area")) return out;
  command_line run_cl = run_command_line();
  for (std::size_t i = 0; i < s.runs; ++i) {
    const std::vector<std::size_t> at = coords(s, i);
    const args ra(run_cl, point_argv(s.fixed, s.axes, at));
    const std::string where = sweep::where(s, at);
    const std::string at_text = where.empty() ? "" : " (at " + where + ")";
    try {
      const run_request q = parse_request(ra);
      const run::run_config& r = q.config;
      if (r.model != "tlm" && r.model != "rtl") {
        throw input_error(
            "--area goes with --model tlm or rtl (it prices the routers the run "
            "simulates; the " +
            r.model + " model has none)");
      }
      out.push_back(
          price::describe_run_router(r.c.f, run::platform_switching(r), run::platform_params(r)));
    } catch (const input_error& e) {
      throw input_error(std::string(e.what()) + at_text);
    }
  }
  return out;
}

// Each row's router area, from Yosys once a configuration (and its cache after that):
// the distinct configurations are priced `jobs` at a time, each one Yosys process, with a
// line on stderr for each when it is a terminal (a cold cache takes minutes a router).
void add_area(const args& a, const std::vector<price::area_design>& designs,
              std::vector<nlohmann::ordered_json>& rows, unsigned jobs, std::ostream& err) {
  const auto t = a.get("area");
  if (!t) return;
  const unsigned targets = area_targets(*t);
  const price::area_env env = price::default_env();
  std::map<std::string, std::size_t> slot;  // a configuration's label -> its index in `first`
  std::vector<std::size_t> first;           // the first design of each configuration
  std::vector<std::string> labels;          // each row's configuration
  for (std::size_t i = 0; i < rows.size() && i < designs.size(); ++i) {
    labels.push_back(price::design_label(designs[i]));
    if (slot.emplace(labels.back(), first.size()).second) first.push_back(i);
  }
  std::vector<std::optional<price::area_result>> priced(first.size());
  std::vector<std::exception_ptr> errors(first.size());
  std::atomic<std::size_t> next{0};
  std::mutex say;
  const bool tell = !a.flag("json") && ::isatty(STDERR_FILENO) != 0;
  const auto worker = [&] {
    for (std::size_t k = next++; k < first.size(); k = next++) {
      try {
        priced[k] = price::synthesize(designs[first[k]], targets, env);
        if (tell && priced[k]->from_cache != targets) {
          const std::lock_guard<std::mutex> lock(say);
          err << "tessera: area of " << labels[first[k]] << " in "
              << static_cast<long>(priced[k]->synth_seconds) << " s of Yosys\n";
        }
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < std::min<std::size_t>(jobs, first.size()); ++w)
    pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool)
    th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const price::area_result& r = *priced[slot.at(labels[i])];
    nlohmann::ordered_json& row = rows[i];
    row["area.router"] = labels[i];
    if (r.ice40) {
      row["area.ice40.lut4"] = r.ice40->lut4;
      row["area.ice40.ff"] = r.ice40->ff;
      row["area.ice40.carry"] = r.ice40->carry;
      row["area.ice40.ram"] = r.ice40->ram;
    }
    if (r.xilinx) {
      row["area.xilinx.lut"] = r.xilinx->lut;
      row["area.xilinx.ff"] = r.xilinx->ff;
      row["area.xilinx.lutram"] = r.xilinx->lutram;
      row["area.xilinx.bram"] = r.xilinx->bram;
    }
    if (r.gates) row["area.gates.nand2_eq"] = r.gates->nand2_eq;
    row["area.storage_bits"] = designs[i].storage_bits;
  }
}

// CSV, JSON Lines, the plot and the summary of finished rows; the exit status.
int write_results(const args& a, const sweep::spec& s,
                  const std::vector<nlohmann::ordered_json>& rows, std::ostream& out,
                  std::ostream& err) {
  const bool json = a.flag("json");
  std::optional<output_file> csv_file;
  std::optional<output_file> jsonl_file;
  if (const auto f = a.get("csv")) csv_file.emplace("--csv", *f);
  if (const auto f = a.get("jsonl")) jsonl_file.emplace("--jsonl", *f);
  const sweep::table t = sweep::tabulate(rows);
  if (jsonl_file) {
    for (const auto& row : rows)
      jsonl_file->stream() << row.dump() << '\n';
    jsonl_file->close();
  }
  if (csv_file) {
    csv_file->stream() << t.csv;
    csv_file->close();
  }
  if (const auto plot = a.get("plot")) {
    write_output_file(
        "--plot", *plot,
        pictures::to_svg(pictures::load_latency_figure(sweep::load_runs(s.axes, rows))));
  }
  // The Pareto front of two columns.
  std::optional<sweep::pareto_result> front;
  if (const auto p = a.get("pareto")) {
    front = sweep::pareto_front(s.axes, rows, sweep::parse_pareto(*p));
    if (front->points.empty()) {
      err << "tessera: --pareto " << *p << ": no verified run has both columns (the rows' "
          << "columns are the CSV header; `saturation` needs --traffic and a range of --rate)\n";
      return 2;
    }
    if (const auto f = a.get("pareto-plot"))
      write_output_file("--pareto-plot", *f, pictures::to_svg(sweep::pareto_figure(*front)));
  }
  const auto front_json = [&] {
    nlohmann::ordered_json j;
    j["x"] = {{"column", front->on[0].column}, {"maximize", front->on[0].maximize}};
    j["y"] = {{"column", front->on[1].column}, {"maximize", front->on[1].maximize}};
    j["points"] = front->points.size();
    j["without_values"] = front->without_values;
    auto f = nlohmann::ordered_json::array();
    for (const sweep::pareto_point& q : front->points)
      if (q.front) f.push_back({{"label", q.label}, {"x", q.x}, {"y", q.y}});
    j["front"] = std::move(f);
    if (const auto file = a.get("pareto-plot")) j["plot"] = *file;
    return j;
  };
  const auto front_text = [&] {
    std::size_t n = 0;
    std::string names;
    for (const sweep::pareto_point& q : front->points) {
      if (!q.front) continue;
      ++n;
      names += (names.empty() ? "" : "; ") + (q.label.empty() ? std::string("the run") : q.label);
    }
    return std::to_string(n) + " of " + std::to_string(front->points.size()) +
           " on the Pareto front of " + front->on[0].column + ", " + front->on[1].column + ": " +
           names;
  };
  // A load-latency sweep: where each series saturates.
  const bool load_latency = sweep::load_latency(s, rows);
  const nlohmann::ordered_json saturation =
      load_latency ? sweep::saturation_points(s.axes, rows) : nlohmann::ordered_json();
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "sweep";
    j["runs"] = rows.size();
    j["failed"] = t.failed;
    j["axes"] = nlohmann::ordered_json::object();
    for (const sweep::axis& x : s.axes)
      j["axes"][column(x)] = x.values;
    if (const auto f = a.get("csv")) j["csv"] = *f;
    if (const auto f = a.get("jsonl")) j["jsonl"] = *f;
    if (const auto f = a.get("plot")) j["plot"] = *f;
    if (load_latency) j["saturation"] = saturation;
    if (front) j["pareto"] = front_json();
    j["rows"] = rows;
    out << j.dump(2) << '\n';
  } else if (!csv_file) {
    out << t.csv;
    if (front) err << "pareto: " << front_text() << '\n';
  } else {
    // The rows went to a file: one line says what the sweep found.
    out << "sweep: " << rows.size() << (rows.size() == 1 ? " run, " : " runs, ") << t.failed
        << " failed; rows in " << *a.get("csv");
    if (const auto f = a.get("jsonl")) out << " and " << *f;
    if (const auto f = a.get("plot")) out << ", plot " << *f;
    if (load_latency) out << "; saturation: " << sweep::saturation_text(saturation);
    if (front) out << "; " << front_text();
    out << '\n';
  }
  if (const auto refused = sweep::refusal(s, rows)) {
    err << "tessera: " << *refused << '\n';
    return 2;
  }
  if (t.failed > 0) {
    err << "tessera: " << t.failed << " of " << rows.size()
        << " runs did not verify or did not run (their rows say why)\n";
  }
  return t.failed > 0 ? 1 : 0;
}

}  // namespace

int cmd_sweep(const args& a, std::ostream& out, std::ostream& err) {
  if (a.has("index") && !a.has("job")) throw input_error("--index goes with --job SPEC");
  if (a.has("job") || a.has("collect")) {
    // An emitted sweep's job or its collection: the spec says what the runs are.
    const std::set<std::string> allowed =
        a.has("job") ? std::set<std::string>{"job", "index", "json"}
                     : std::set<std::string>{"collect", "csv",  "jsonl",  "plot",       "json",
                                             "area",    "jobs", "pareto", "pareto-plot"};
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
    const sweep_spec s = sweep::read_spec("--job", *spec_file, *spec_file);
    const std::size_t i = parse_count("index", a.require("index"), s.runs - 1);
    const nlohmann::ordered_json row =
        make_row(s, i, run_isolated_process([&] { return run_point(s, i); }));
    const std::string file = sweep::job_file(sweep::job_dir(*spec_file), i);
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
    const sweep::spec s = sweep::read_spec("--collect", *dir + "/sweep.json", *dir);
    check_pricing(a);
    const std::vector<price::area_design> designs = run_designs(a, s);
    std::vector<nlohmann::ordered_json> rows = sweep::collect(s, *dir);
    add_area(a, designs, rows,
             static_cast<unsigned>(parse_count("jobs", a.get("jobs").value_or("1"), 256, 1)), err);
    return write_results(a, s, rows, out, err);
  }

  const unsigned jobs =
      static_cast<unsigned>(parse_count("jobs", a.get("jobs").value_or("1"), 256, 1));
  // The axes (options with several values) and what every run shares.
  sweep_spec s;
  for (const std::string& name : a.given()) {
    static const std::set<std::string> own{"jobs",      "csv",   "jsonl",  "json",
                                           "plot",      "area",  "pareto", "pareto-plot",
                                           "emit-jobs", "slurm", "job-dir"};
    if (own.contains(name)) continue;
    if (name == "param") {
      for (const std::string& kv : a.all("param"))
        sweep::add_param(s, kv);
      continue;
    }
    if (!a.get(name)) {  // a flag
      sweep::add_flag(s, name);
      continue;
    }
    for (const std::string& v : a.all(name))
      sweep::add_value(s, name, v);
  }
  sweep::count_runs(s);
  // Every combination is checked before the first run: bad input is the sweep's.
  command_line run_cl = run_command_line();
  for (std::size_t i = 0; i < s.runs; ++i) {
    const std::vector<std::size_t> at = coords(s, i);
    const std::vector<std::string> pa = point_argv(s.fixed, s.axes, at);
    const args ra(run_cl, pa);
    try {
      (void)parse_request(ra);
    } catch (const input_error& e) {
      const std::string where = sweep::where(s, at);
      throw input_error(std::string(e.what()) + (where.empty() ? "" : " (at " + where + ")"));
    }
  }
  check_pricing(a);
  const std::vector<price::area_design> designs = run_designs(a, s);
  if (a.has("plot")) {
    if (!a.has("traffic") || !sweep::has_axis(s, "rate")) {
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
    for (const char* o : {"csv", "jsonl", "plot", "jobs", "area", "pareto", "pareto-plot"}) {
      if (a.has(o)) {
        throw input_error("--" + std::string(o) + " goes with the local run or --collect, not " +
                          (emit ? "--emit-jobs" : "--slurm"));
      }
    }
    const std::string dir = a.get("job-dir").value_or("sweep-jobs");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string spec = std::filesystem::absolute(dir + "/sweep.json", ec).string();
    write_output_file("--job-dir", spec, sweep::spec_json(s).dump(2) + '\n');
    const std::string self = sweep::self_path();
    if (emit) write_output_file("--emit-jobs", *emit, sweep::job_list(self, spec, s.runs));
    if (slurm) write_output_file("--slurm", *slurm, sweep::slurm_script(self, spec, dir, s.runs));
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
  for (const char* o : {"csv", "jsonl", "plot", "pareto-plot"})
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
  add_area(a, designs, rows, jobs, err);
  return write_results(a, s, rows, out, err);
}

}  // namespace tessera::cli
