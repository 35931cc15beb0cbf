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
#include "tessera/common/errors.hpp"
#include "tessera/run/run.hpp"

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

// The same for a command line with --json: the line, and the JSON object on stdout
// that carries it.
std::string json_refusal(const std::vector<std::string>& argv) {
  const auto r = run_cli(argv);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  const std::string line =
      r.err.rfind("tessera: ", 0) == 0 ? r.err.substr(9, r.err.size() - 10) : r.err;
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["error"] == line);
  CHECK(j["exit_status"] == 2);
  return line;
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

TEST_CASE("odd option forms are refused naming the word, never an internal error",
          "[cli][parser][errors]") {
  const std::string see = "; see tessera analyze --help)";
  for (const char* word : {"--=x", "--=", "-=", "-=x", "---", "---="}) {
    INFO(word);
    CHECK(refusal(with(analyze_argv, {word})) == "'" + std::string(word) +
                                                     "' is not an option (an option is --name or "
                                                     "--name=value" +
                                                     see);
  }
  CHECK(refusal(with(analyze_argv, {"---x"})) ==
        "unknown option '---x' for 'tessera analyze' (see tessera analyze --help)");
  CHECK(refusal(with(analyze_argv, {"=x"})) == "unexpected argument '=x' for 'tessera analyze'");
  CHECK(refusal(with(analyze_argv, {"--json="})) == "option --json takes no value (got '')");
  CHECK(json_refusal(with(analyze_argv, {"--", "--json"})) ==
        "unexpected argument '--json' for 'tessera analyze' (after '--' a word is an argument, "
        "not an option)");
  // The run's own parser, the same words.
  CHECK(refusal({"run", "--fabric", "ring:4", "--collective", "bcast", "--=x"}) ==
        "'--=x' is not an option (an option is --name or --name=value; see tessera run --help)");
}

TEST_CASE("a flag given twice is refused, as a value option is", "[cli][parser][errors]") {
  CHECK(json_refusal(with(analyze_argv, {"--json", "--json"})) == "option --json given twice");
  CHECK(refusal({"run", "--fabric", "ring:4", "--collective", "bcast", "--prepost", "--prepost"}) ==
        "option --prepost given twice");
  CHECK(json_refusal({"run", "--fabric", "ring:4", "--collective", "bcast", "--json",
                      "--json=true"}) == "option --json given twice");
  // A repeatable option may repeat.
  CHECK(run_cli({"run", "--fabric", "ring:4", "--collective", "bcast", "--param", "ts=5", "--param",
                 "tw=2"})
            .code == 0);
}

namespace {

// An option's probe: arguments with which `tessera run` refuses the option by name (the
// model is given as --model M to run and sweep, as --models M,M to crosscheck; empty:
// the arguments name their own).
struct probe {
  std::string option;
  std::string model;
  std::vector<std::string> args;
  std::string names;  // a piece of the refusal
};

std::vector<std::string> ring_bcast(std::vector<std::string> more) {
  std::vector<std::string> a{"--fabric", "ring:4", "--collective", "bcast"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// Every option of tessera run, each with a probe.
std::vector<probe> run_probes() {
  const std::vector<std::string> traffic{"--fabric", "mesh:2x2", "--traffic", "uniform"};
  auto on_traffic = [&](const std::string& flag) {
    std::vector<std::string> a = traffic;
    a.push_back(flag);
    return a;
  };
  return {
      {"--collective", "alphabeta", {"--fabric", "ring:4", "--collective", "gossip"}, "'gossip'"},
      {"--schedule",
       "alphabeta",
       {"--fabric", "ring:4", "--schedule", "/nonexistent/s.json"},
       "--schedule '/nonexistent/s.json'"},
      {"--pattern",
       "alphabeta",
       {"--fabric", "ring:4", "--pattern", "p.json"},
       "--pattern needs --model tlm or rtl"},
      {"--traffic",
       "alphabeta",
       {"--fabric", "ring:4", "--traffic", "uniform"},
       "--traffic needs --model tlm or rtl"},
      {"--fabric", "alphabeta", {"--fabric", "star:8", "--collective", "bcast"}, "'star:8'"},
      {"--model", "", ring_bcast({"--model", "analytic"}), "--model 'analytic'"},
      {"--switching", "alphabeta", ring_bcast({"--switching", "wormhole"}), "--switching needs"},
      {"--machine", "alphabeta", ring_bcast({"--machine", "delta"}), "--machine needs"},
      {"--tiles", "tlm", ring_bcast({"--tiles", "arm"}), "--tiles 'arm'"},
      {"--firmware", "tlm", ring_bcast({"--firmware", "t.elf"}),
       "--firmware goes with --tiles cortex-m4"},
      {"--routes", "alphabeta", ring_bcast({"--routes", "r.json"}), "--routes needs"},
      {"--param", "alphabeta", ring_bcast({"--param", "cpu_mhz=100"}),
       "--param cpu_mhz goes with --tiles cortex-m4"},
      {"--algorithm", "alphabeta", ring_bcast({"--algorithm", "quick"}), "'quick'"},
      {"--root", "alphabeta", ring_bcast({"--root", "9"}), "--root 9"},
      {"--bytes", "alphabeta", ring_bcast({"--bytes", "0"}), "--bytes 0"},
      {"--type", "alphabeta", ring_bcast({"--type", "f32"}), "--type does not apply"},
      {"--op", "alphabeta", ring_bcast({"--op", "max"}), "--op does not apply"},
      {"--shift", "alphabeta", ring_bcast({"--shift", "2"}), "--shift does not apply"},
      {"--packets", "alphabeta", ring_bcast({"--packets", "3"}), "--packets goes with"},
      {"--pair-sync", "alphabeta", ring_bcast({"--pair-sync"}), "--pair-sync goes with"},
      {"--payload-bytes", "alphabeta", ring_bcast({"--payload-bytes", "8"}), "--payload-bytes"},
      {"--rate", "alphabeta", ring_bcast({"--rate", "0.1"}), "--rate does not apply"},
      {"--packet-flits", "alphabeta", ring_bcast({"--packet-flits", "2"}), "--packet-flits"},
      {"--cycles", "alphabeta", ring_bcast({"--cycles", "100"}), "--cycles does not apply"},
      {"--warmup", "alphabeta", ring_bcast({"--warmup", "10"}), "--warmup does not apply"},
      {"--seed", "alphabeta", ring_bcast({"--seed", "3"}), "--seed does not apply"},
      {"--hotspot", "alphabeta", ring_bcast({"--hotspot", "1"}), "--hotspot does not apply"},
      {"--protocol", "alphabeta", ring_bcast({"--protocol", "lazy"}), "'lazy'"},
      {"--prepost", "tlm", on_traffic("--prepost"), "--prepost does not apply to --traffic"},
      {"--send-ahead", "tlm", on_traffic("--send-ahead"),
       "--send-ahead does not apply to --traffic"},
      {"--source-queue", "tlm",
       [&] {
         std::vector<std::string> a = on_traffic("--source-queue");
         a.emplace_back("0");
         return a;
       }(),
       "--source-queue 0"},
      {"--packet-sizes", "tlm",
       [&] {
         std::vector<std::string> a = on_traffic("--packet-sizes");
         a.emplace_back("4:0");
         return a;
       }(),
       "--packet-sizes '4:0': weight 0"},
      {"--injection", "tlm",
       [&] {
         std::vector<std::string> a = on_traffic("--injection");
         a.emplace_back("bursty");
         return a;
       }(),
       "--injection 'bursty'"},
      {"--burst-on", "tlm",
       [&] {
         std::vector<std::string> a = on_traffic("--burst-on");
         a.emplace_back("5");
         return a;
       }(),
       "--burst-on goes with --injection on-off"},
      {"--burst-off", "tlm",
       [&] {
         std::vector<std::string> a = on_traffic("--injection");
         a.insert(a.end(), {"on-off", "--burst-off", "0"});
         return a;
       }(),
       "--burst-off '0'"},
      {"--self-packets", "alphabeta", ring_bcast({"--self-packets"}),
       "--self-packets does not apply"},
      {"--fault", "alphabeta", ring_bcast({"--fault", "flood=1"}), "'flood=1'"},
      {"--fault-file", "alphabeta", ring_bcast({"--fault-file", "/nonexistent/f.txt"}),
       "--fault-file '/nonexistent/f.txt'"},
  };
}

std::vector<std::string> command_argv(const std::string& command, const probe& p) {
  std::vector<std::string> argv{command};
  if (!p.model.empty()) {
    argv.emplace_back(command == "crosscheck" ? "--models" : "--model");
    argv.push_back(command == "crosscheck" ? p.model + "," + p.model : p.model);
  }
  argv.insert(argv.end(), p.args.begin(), p.args.end());
  return argv;
}

}  // namespace

TEST_CASE("every option crosscheck and sweep declare takes effect: each reaches its check",
          "[cli][parser][errors]") {
  // Each declared option given a value its check refuses: the command refuses it by name.
  // A run option must reach the run's own check (the same refusal as tessera run's), so
  // no option is accepted and dropped on the way. A new option needs a probe here.
  const std::vector<probe> own_sweep{
      {"--jobs", "alphabeta", ring_bcast({"--jobs", "0"}), "--jobs 0"},
      {"--csv", "alphabeta", ring_bcast({"--csv", "/nonexistent/dir/x.csv"}),
       "--csv '/nonexistent/dir/x.csv' cannot be written"},
      {"--jsonl", "alphabeta", ring_bcast({"--jsonl", "/nonexistent/dir/x.jsonl"}),
       "--jsonl '/nonexistent/dir/x.jsonl' cannot be written"},
      {"--plot", "alphabeta", ring_bcast({"--plot", "p.svg"}), "--plot draws"},
      {"--emit-jobs", "alphabeta", ring_bcast({"--emit-jobs", "j.txt", "--jobs", "2"}),
       "not --emit-jobs"},
      {"--slurm", "alphabeta", ring_bcast({"--slurm", "j.sbatch", "--jobs", "2"}), "not --slurm"},
      {"--job-dir", "alphabeta", ring_bcast({"--job-dir", "jd"}), "--job-dir goes with"},
      {"--job",
       "",
       {"--job", "/nonexistent/s.json", "--index", "0"},
       "--job '/nonexistent/s.json'"},
      {"--index", "alphabeta", ring_bcast({"--index", "3"}), "--index goes with --job"},
      {"--collect", "", {"--collect", "/nonexistent/dir"}, "--collect '/nonexistent/dir"},
      {"--area", "alphabeta", ring_bcast({"--area", "asic"}), "--area 'asic'"},
      {"--pareto", "alphabeta", ring_bcast({"--pareto", "cycles"}), "--pareto 'cycles'"},
      {"--pareto-plot", "alphabeta", ring_bcast({"--pareto-plot", "p.svg"}),
       "--pareto-plot goes with --pareto"},
  };
  const std::vector<probe> own_crosscheck{
      {"--models", "", ring_bcast({"--models", "tlm"}), "--models 'tlm' is not two models"},
      {"--tiles", "alphabeta", ring_bcast({"--tiles", "arm"}), "--tiles 'arm'"},
      {"--tolerance", "alphabeta", ring_bcast({"--tolerance", "x"}), "--tolerance 'x'"},
  };
  const std::vector<probe> run_side = run_probes();
  for (const auto& [command, own] : {std::pair{std::string("sweep"), own_sweep},
                                     std::pair{std::string("crosscheck"), own_crosscheck}}) {
    command_line cl = tessera::cli::command_options(command);
    for (const auto& o : cl.declared()) {
      if (o.name == "--help" || o.name == "--json") continue;  // their own tests
      INFO("tessera " << command << " " << o.name);
      const auto is = [&](const probe& p) { return p.option == o.name; };
      const auto mine = std::find_if(own.begin(), own.end(), is);
      const auto theirs = std::find_if(run_side.begin(), run_side.end(), is);
      REQUIRE((mine != own.end() || theirs != run_side.end()));
      const probe& p = mine != own.end() ? *mine : *theirs;
      // A build without SystemC (the sanitizer build) refuses the platform models first.
      if (!p.model.empty() && !tessera::run::model_available(p.model)) continue;
      const std::string line = refusal(command_argv(command, p));
      CHECK(line.find(p.names) != std::string::npos);
      if (mine == own.end()) CHECK(line == refusal(command_argv("run", p)));
    }
  }
  // What neither takes, each refuses with its reason.
  CHECK(refusal(command_argv("crosscheck", {"", "alphabeta", ring_bcast({"--transfers"}), ""}))
            .rfind("--transfers does not go with crosscheck", 0) == 0);
  CHECK(refusal(command_argv("sweep", {"", "alphabeta", ring_bcast({"--transfers"}), ""}))
            .rfind("--transfers does not go with sweep", 0) == 0);
  // The cases: the processor's options with native tiles on both models.
  if (tessera::run::model_available("tlm")) {
    CHECK(refusal({"crosscheck", "--models", "alphabeta,tlm", "--fabric", "ring:4", "--collective",
                   "bcast", "--param", "cpu_mhz=100"}) ==
          "--param cpu_mhz goes with --tiles cortex-m4");
    CHECK(refusal({"crosscheck", "--models", "tlm,tlm", "--fabric", "ring:4", "--collective",
                   "bcast", "--firmware", "t.elf"}) ==
          "--firmware goes with --tiles cortex-m4 (native tiles run the host's runtime)");
  }
  // An empty image name is refused, not read as the default image.
  CHECK(refusal({"run", "--model", "tlm", "--tiles", "cortex-m4", "--fabric", "mesh:2x2",
                 "--collective", "bcast", "--firmware", ""}) ==
        "--firmware needs a file name (without --firmware: this build's image)");
}
