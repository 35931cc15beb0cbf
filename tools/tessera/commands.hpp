// The tessera command dispatcher: argv in, exit code out (0 ok, 1 failed check,
// 2 bad input), output on the given streams. main() is a thin wrapper so tests
// can run commands in-process.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tessera::cli {

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

// Each command: its arguments after the command name.
int cmd_analyze(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_compare(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_schedule(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_reproduce(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_trees(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_models(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_crosscheck(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
int cmd_sweep(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

extern const char* const analyze_help;
extern const char* const compare_help;
extern const char* const schedule_help;
std::string run_help();
extern const char* const reproduce_help;
extern const char* const trees_help;
extern const char* const models_help;
extern const char* const crosscheck_help;

}  // namespace tessera::cli
