// The command line as CLI11 parses it (tools/tessera/args.hpp): the forms an option
// takes, what is refused and how, and the --help each command generates from its
// declared options.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "tessera/schedule/errors.hpp"

using tessera::cli::args;
using tessera::cli::command_line;
using tessera::test::one_line;
using tessera::test::run_cli;

namespace {

const std::vector<std::string> analyze_argv{"analyze",  "--fabric",    "mesh:4x4", "--collective",
                                            "alltoall", "--algorithm", "pex"};

std::vector<std::string> with(std::vector<std::string> argv, const std::vector<std::string>& more) {
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// The one stderr line of a refused command line, without "tessera: ".
std::string refusal(const std::vector<std::string>& argv) {
  const auto r = run_cli(argv);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(one_line(r.err));
  return r.err.rfind("tessera: ", 0) == 0 ? r.err.substr(9, r.err.size() - 10) : r.err;
}

// A small declaration to look at args on its own.
command_line sample() {
  command_line c("sample", "tessera sample [options]", "A command for the tests.");
  c.value("fabric", "F", "the fabric")
      .value("bytes", "N", "bytes")
      .add({"param", "k=v", "a parameter", true})
      .add({"jobs", "N", "runs at once", false, 'j'})
      .flag("json", "one JSON object");
  return c;
}

}  // namespace

TEST_CASE("every command's --help lists every option it declares, each with its explanation",
          "[cli][parser]") {
  std::vector<std::string> commands = tessera::cli::command_names();
  commands.emplace_back("");  // the top level
  for (const std::string& command : commands) {
    INFO("tessera " << command);
    command_line cl = tessera::cli::command_options(command);
    const auto declared = cl.declared();
    REQUIRE(declared.size() >= 2);  // at least --json and --help
    const auto r = run_cli(command.empty() ? std::vector<std::string>{"--help"}
                                           : std::vector<std::string>{command, "--help"});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == cl.help());
    CHECK(r.out.rfind("usage: tessera", 0) == 0);
    for (const auto& o : declared) {
      INFO(o.name);
      CHECK_FALSE(o.help.empty());
      // As a word of the help: "--fabric F", "--prepost,", "--json\n".
      const std::regex word("(^|[ ,])" + o.name + "([ ,\n]|$)");
      CHECK(std::regex_search(r.out, word));
    }
    // -h and `tessera help <command>` print the same.
    CHECK(run_cli(command.empty() ? std::vector<std::string>{"-h"}
                                  : std::vector<std::string>{command, "-h"})
              .out == r.out);
    if (!command.empty()) {
      CHECK(run_cli({"help", command}).out == r.out);
      CHECK(run_cli({"--help", command}).out == r.out);
    }
  }
}

TEST_CASE("the top-level help lists every command, run's help the parameter table and algorithms",
          "[cli][parser]") {
  const auto top = run_cli({"--help"});
  for (const std::string& command : tessera::cli::command_names()) {
    INFO(command);
    CHECK(top.out.find("\n  " + command + " ") != std::string::npos);
  }
  const auto run = run_cli({"run", "--help"});
  for (const char* text : {"ideal switching:", "ts 100 cycles", "max_cycles 2^50 cycles",
                           "alltoall        naive, linear, pairwise, pex", "exit status:"}) {
    INFO(text);
    CHECK(run.out.find(text) != std::string::npos);
  }
}

TEST_CASE("parser: --name value and --name=value are the same option", "[cli][parser]") {
  const auto spaced = run_cli(with(analyze_argv, {"--bytes", "256", "--json"}));
  const auto joined = run_cli({"analyze", "--fabric=mesh:4x4", "--collective=alltoall",
                               "--algorithm=pex", "--bytes=256", "--json"});
  REQUIRE(spaced.code == 0);
  CHECK(joined.code == 0);
  CHECK(joined.out == spaced.out);
}

TEST_CASE("refusals name the option and the value in one line", "[cli][parser][errors]") {
  CHECK(refusal(with(analyze_argv, {"--json=1"})) == "option --json takes no value (got '1')");
  CHECK(refusal(with(analyze_argv, {"--chart=yes"})) ==
        "option --chart takes no value (got 'yes')");
  CHECK(refusal(with(analyze_argv, {"--bytes", "8", "--bytes=16"})) ==
        "option --bytes given twice ('8' and '16')");
  CHECK(refusal({"analyze", "--collective", "alltoall", "--fabric"}) ==
        "option --fabric needs a value");
  CHECK(refusal({"analyze", "--fabric", "--collective", "alltoall"}) ==
        "option --fabric needs a value (got the option '--collective')");
  CHECK(refusal(with(analyze_argv, {"--fabrc=mesh:4x4"})) ==
        "unknown option '--fabrc' for 'tessera analyze' (see tessera analyze --help)");
  CHECK(refusal(with(analyze_argv, {"-x"})) ==
        "unknown option '-x' for 'tessera analyze' (see tessera analyze --help)");
  CHECK(refusal(with(analyze_argv, {"stray"})) ==
        "unexpected argument 'stray' for 'tessera analyze'");
  CHECK(refusal({"models", "--frob"}) ==
        "unknown option '--frob' for 'tessera models' (see tessera models --help)");
  CHECK(refusal({"--frob"}) == "unknown option '--frob' for 'tessera' (see tessera --help)");
  CHECK(refusal({"reproduce", "thakur", "grama"}) == "reproduce takes one paper, got 'grama' too");
  CHECK(refusal({"reproduce", "thakur", "--table"}) == "option --table needs a value");
  CHECK(refusal({"crosscheck", "--model", "tlm"}) == "crosscheck takes --models A,B, not --model");
  CHECK(refusal({"help", "--frob"}).rfind("unknown command '--frob' (commands: analyze, ", 0) == 0);
  CHECK(refusal({"help", "run", "trees"}) ==
        "unexpected argument 'trees' for 'tessera help' (it takes one command)");
  // Under --json the refusal is also the one JSON object on stdout.
  const auto early = run_cli({"--json", "models"});
  CHECK(early.code == 2);
  CHECK(early.err == "tessera: --json goes after the command (tessera models ... --json)\n");
  CHECK(nlohmann::json::parse(early.out)["exit_status"] == 2);
  // A value that starts with '-' but is no option reaches the command, which names it.
  CHECK(refusal(with(analyze_argv, {"--bytes", "-8"})).find("'-8'") != std::string::npos);
}

TEST_CASE("a refusal under --json is one JSON object on stdout", "[cli][parser][errors]") {
  const auto r = run_cli(with(analyze_argv, {"--bytes", "1", "--bytes", "2", "--json"}));
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["error"] == "option --bytes given twice ('1' and '2')");
  CHECK(j["exit_status"] == 2);
}

TEST_CASE("args: values, repeated options, short names and the command-line order",
          "[cli][parser]") {
  command_line c = sample();
  const args a(c, {"--param", "ts=5", "-j", "3", "--json", "--fabric=ring:4", "--param=tw=2",
                   "--bytes", "-1"});
  CHECK(a.given() == std::vector<std::string>{"param", "jobs", "json", "fabric", "bytes"});
  CHECK(a.all("param") == std::vector<std::string>{"ts=5", "tw=2"});
  CHECK(a.get("jobs") == "3");
  CHECK(a.get("fabric") == "ring:4");
  CHECK(a.get("bytes") == "-1");
  CHECK(a.flag("json"));
  CHECK_FALSE(a.flag("help"));
  CHECK_FALSE(a.has("nothing"));
  CHECK(a.require("fabric") == "ring:4");
  command_line again = sample();
  const args none(again, {});
  CHECK(none.given().empty());
  CHECK_THROWS_WITH(none.require("fabric"), "'tessera sample' needs --fabric");
  command_line help = sample();
  CHECK(args(help, {"--bytes", "8", "--help"}).flag("help"));
}

TEST_CASE("sweep takes -j for --jobs and refuses what only one run can write", "[cli][parser]") {
  command_line cl = tessera::cli::sweep_command_line();
  const args a(cl, {"-j", "4", "--fabric", "ring:4", "--bytes", "8,16"});
  CHECK(a.get("jobs") == "4");
  CHECK(a.get("bytes") == "8,16");
  CHECK(refusal({"sweep", "--fabric", "ring:4", "--collective", "bcast", "--heatmap-steps"})
            .rfind("--heatmap-steps does not go with sweep", 0) == 0);
  CHECK(refusal({"crosscheck", "--models", "alphabeta,alphabeta", "--fabric", "ring:4",
                 "--collective", "bcast", "--trace", "t.json"})
            .rfind("--trace does not go with crosscheck", 0) == 0);
}
