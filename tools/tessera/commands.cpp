#include "commands.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <optional>

#include <nlohmann/json.hpp>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

namespace tessera::cli {
namespace {

struct command_entry {
  const char* name;
  const char* summary;
  int (*run)(const args&, std::ostream&, std::ostream&);
  command_line (*declare)();
};

const std::array<command_entry, 11> commands{{
    {"analyze",
     "static analysis of a collective's schedule on a fabric: steps, per-round link loads, "
     "Bokhari slot charts and the papers' closed-form costs",
     cmd_analyze, analyze_command_line},
    {"compare", "several algorithms of one collective side by side on one fabric", cmd_compare,
     compare_command_line},
    {"schedule", "print the per-tile op streams of a collective as schedule JSON", cmd_schedule,
     schedule_command_line},
    {"run",
     "simulate a collective with the tile runtime on a network model and check every byte "
     "delivered (models: alphabeta, tlm, rtl)",
     cmd_run, run_command_line},
    {"reproduce",
     "a paper's results recomputed beside the paper's values, with its figures (thakur, "
     "bokhari, boppana, bermond, grama, all)",
     cmd_reproduce, reproduce_command_line},
    {"trees", "the spanning trees of a torus broadcast, checked and drawn", cmd_trees,
     trees_command_line},
    {"check-routes",
     "the channel dependency graph of a fabric's routing (VCs, dateline classes, forwarding "
     "tables): acyclic, or one cycle of channels that can deadlock",
     cmd_check_routes, check_routes_command_line},
    {"models", "the models, their timing engines and every --param with its default", cmd_models,
     models_command_line},
    {"crosscheck", "one workload on two models, compared message by message", cmd_crosscheck,
     crosscheck_command_line},
    {"sweep",
     "tessera run over lists and ranges of its options, N runs at once, one row per run in CSV "
     "and JSON Lines",
     cmd_sweep, sweep_command_line},
    {"area",
     "the area of a router, a network interface or a fabric, synthesized from the RTL by "
     "Yosys: iCE40 and Xilinx resources and NAND2 equivalents",
     cmd_area, area_command_line},
}};

std::string command_list() {
  std::string out;
  for (const command_entry& c : commands)
    out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

// The top level: its own options, and a command word whose following words are the
// command's.
command_line top_command_line() {
  command_line c("",
                 R"(tessera <command> [options]
       tessera <command> --help
       tessera help <command>
       tessera --version [--json])",
                 "tessera - collective communication on tiled networks-on-chip");
  c.flag("json", "with --version: one JSON object")
      .add({"version", "", "the version of tessera", false, 'V'});
  for (const command_entry& e : commands)
    c.subcommand(e.name, e.summary);
  c.subcommand("help", "the usage of a command (tessera help run)");
  c.footer(R"(fabrics: mesh:RxC (XY routing), torus:RxC, hypercube:D (e-cube), ring:P
every command takes --json and then prints one JSON object on stdout.
exit status: 0 ok, 1 a failed check (lost or duplicated block, deadlock), 2 bad input.)");
  c.on_stray([](const std::string& word) {
    return "unknown command '" + shown(word) + "' (commands: " + command_list() + ")";
  });
  return c;
}

// Under --json stdout carries one JSON object whatever happens: for bad input, the
// error and the exit status (the same line goes to stderr).
int refuse(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
           const std::string& message) {
  err << "tessera: " << message << '\n';
  if (std::find(argv.begin(), argv.end(), "--json") != argv.end() ||
      std::find(argv.begin(), argv.end(), "--json=true") != argv.end()) {
    nlohmann::ordered_json j;
    j["command"] = argv.empty() ? "" : shown(argv[0]);
    j["error"] = message;
    j["exit_status"] = 2;
    out << j.dump(2) << '\n';
  }
  return 2;
}

// Every command's output, checked in this one place: a write to stdout that failed (a
// full disk, /dev/full, a closed descriptor) is exit 2 with one line, whatever the
// command, never a silent 0. A stream that failed earlier is flushed once more for the
// system's reason (main's stdout buffer gives its first failure's).
int output_written(std::ostream& out, std::ostream& err, int status) {
  errno = 0;
  if (out.flush()) return status;
  int cause = errno;
  if (cause == 0) {
    out.clear();
    out.flush();
    cause = errno;
  }
  err << "tessera: cannot write the output to stdout"
      << (cause != 0 ? ": " + std::string(std::strerror(cause)) : std::string{}) << '\n';
  return 2;
}

// tessera --version [--json]: the version CMake's project() gives.
int version(bool json, std::ostream& out) {
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

int dispatch(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  command_line top = top_command_line();
  if (argv.empty()) {
    // Missing a command, the usage is the error.
    err << top.help();
    return 2;
  }
  std::optional<args> a;
  try {
    a.emplace(top, argv);
  } catch (const input_error&) {
    // "--version --frob": what --version takes.
    if (argv[0] == "--version" || argv[0] == "-V") {
      const auto other = std::find_if(argv.begin() + 1, argv.end(),
                                      [](const std::string& w) { return w != "--json"; });
      if (other != argv.end())
        throw input_error("--version takes only --json, not '" + shown(*other) + "'");
    }
    throw;
  }
  const auto& cmd = a->subcommand();
  if (a->flag("version")) {
    if (cmd) throw input_error("--version takes only --json, not '" + shown(*cmd) + "'");
    return version(a->flag("json"), out);
  }
  if (!cmd || *cmd == "help") {
    if (cmd && !a->rest().empty()) {
      if (a->rest().size() > 1) {
        throw input_error("unexpected argument '" + shown(a->rest()[1]) +
                          "' for 'tessera help' (it takes one command)");
      }
      const std::string& of = a->rest().front();
      const auto& names = command_names();
      if (std::find(names.begin(), names.end(), of) == names.end())
        throw input_error("unknown command '" + shown(of) + "' (commands: " + command_list() + ")");
      return dispatch({of, "--help"}, out, err);
    }
    if (!cmd && !a->flag("help")) {
      throw input_error("'tessera' needs a command (" + command_list() + "; see tessera --help)");
    }
    if (a->flag("json")) throw input_error("--json goes with a command or --version");
    out << top.help();
    return 0;
  }
  if (a->flag("json")) {
    throw input_error("--json goes after the command (tessera " + *cmd + " ... --json)");
  }
  for (const command_entry& e : commands) {
    if (e.name != *cmd) continue;
    // "tessera --help run": the command's help; the command's own --help is answered
    // here for every command, after its words parsed.
    command_line cl = e.declare();
    if (a->flag("help")) {
      out << cl.help();
      return 0;
    }
    const args given(cl, a->rest());
    if (given.flag("help")) {
      out << cl.help();
      return 0;
    }
    return e.run(given, out, err);
  }
  throw input_error("unknown command '" + shown(*cmd) + "' (commands: " + command_list() + ")");
}

}  // namespace

const std::vector<std::string>& command_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const command_entry& c : commands)
      out.emplace_back(c.name);
    return out;
  }();
  return names;
}

command_line command_options(std::string_view command) {
  if (command.empty()) return top_command_line();
  for (const command_entry& c : commands)
    if (c.name == command) return c.declare();
  throw input_error("unknown command '" + shown(command) + "' (commands: " + command_list() + ")");
}

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  int status = 2;
  try {
    status = dispatch(argv, out, err);
  } catch (const input_error& e) {
    status = refuse(argv, out, err, e.what());
  } catch (const std::bad_alloc&) {
    status = refuse(argv, out, err, "out of memory");
  } catch (const std::exception& e) {
    // Not reached by any input the fuzz targets and tests know of; if it is, the user
    // still gets one line and an exit status rather than an abort.
    status = refuse(argv, out, err,
                    "internal error (please report it with the command): " + shown(e.what(), 200));
  }
  return output_written(out, err, status);
}

}  // namespace tessera::cli
