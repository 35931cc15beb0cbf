#include "commands.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include <nlohmann/json.hpp>

#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"

namespace tessera::cli {
namespace {

const char* const main_help =
    R"(tessera - collective communication on tiled networks-on-chip

usage: tessera <command> [options]
       tessera <command> --help
       tessera --version [--json]

commands:
  analyze    static analysis of a collective's schedule on a fabric: steps, per-round
             link loads, Bokhari slot charts and the papers' closed-form costs
  compare    several algorithms of one collective side by side on one fabric
  schedule   print the per-tile op streams of a collective as schedule JSON
  run        simulate a collective with the tile runtime on a network model and
             check every byte delivered (models: alphabeta, tlm, rtl)
  reproduce  a paper's results recomputed beside the paper's values, with its
             figures (thakur, bokhari, boppana, bermond, grama, all)
  trees      the spanning trees of a torus broadcast, checked and drawn
  models     the models, their timing engines and every --param with its default
  crosscheck one workload on two models, compared message by message
  sweep      tessera run over lists and ranges of its options, N runs at once, one
             row per run in CSV and JSON Lines

fabrics: mesh:RxC (XY routing), torus:RxC, hypercube:D (e-cube), ring:P
every command takes --json and then prints one JSON object on stdout.
exit status: 0 ok, 1 a failed check (lost or duplicated block, deadlock), 2 bad input.
)";

}  // namespace

namespace {

// Under --json stdout carries one JSON object whatever happens: for bad input, the
// error and the exit status (the same line goes to stderr).
int refuse(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
           const std::string& message) {
  err << "tessera: " << message << '\n';
  if (std::find(argv.begin(), argv.end(), "--json") != argv.end()) {
    nlohmann::ordered_json j;
    j["command"] = argv.empty() ? "" : shown(argv[0]);
    j["error"] = message;
    j["exit_status"] = 2;
    out << j.dump(2) << '\n';
  }
  return 2;
}

// tessera --version [--json]: the version CMake's project() gives.
int version(const std::vector<std::string>& rest, std::ostream& out) {
  bool json = false;
  for (const std::string& a : rest) {
    if (a != "--json") throw input_error("--version takes only --json, not '" + shown(a) + "'");
    json = true;
  }
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "version";
    j["version"] = TESSERA_VERSION;
    out << j.dump(2) << '\n';
  } else {
    out << "tessera " << TESSERA_VERSION << '\n';
  }
  return 0;
}

}  // namespace

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  try {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
      if (argv.size() >= 2 && argv[0] == "help") return run({argv[1], "--help"}, out, err);
      // Asked for, the usage is the output; missing a command, it is the error.
      (argv.empty() ? err : out) << main_help;
      return argv.empty() ? 2 : 0;
    }
    const std::string& cmd = argv[0];
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (cmd == "--version" || cmd == "-V") return version(rest, out);
    if (cmd == "analyze") return cmd_analyze(rest, out, err);
    if (cmd == "compare") return cmd_compare(rest, out, err);
    if (cmd == "schedule") return cmd_schedule(rest, out, err);
    if (cmd == "run") return cmd_run(rest, out, err);
    if (cmd == "reproduce") return cmd_reproduce(rest, out, err);
    if (cmd == "trees") return cmd_trees(rest, out, err);
    if (cmd == "models") return cmd_models(rest, out, err);
    if (cmd == "crosscheck") return cmd_crosscheck(rest, out, err);
    if (cmd == "sweep") return cmd_sweep(rest, out, err);
    throw input_error("unknown command '" + shown(cmd) +
                      "' (commands: analyze, compare, schedule, run, reproduce, trees, models, "
                      "crosscheck, sweep)");
  } catch (const input_error& e) {
    return refuse(argv, out, err, e.what());
  } catch (const std::bad_alloc&) {
    return refuse(argv, out, err, "out of memory");
  } catch (const std::exception& e) {
    // Not reached by any input the fuzz targets and tests know of; if it is, the user
    // still gets one line and an exit status rather than an abort.
    return refuse(argv, out, err,
                  "internal error (please report it with the command): " + shown(e.what(), 200));
  }
}

}  // namespace tessera::cli
