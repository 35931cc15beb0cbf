// The tessera command dispatcher: argv in, exit code out (0 ok, 1 failed check,
// 2 bad input), output on the given streams. main() is a thin wrapper so tests
// can run commands in-process.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"

namespace tessera::cli {

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

// Each command: the options given after the command name, parsed with its declarations
// (the dispatcher parses them and answers --help).
int cmd_analyze(const args& a, std::ostream& out, std::ostream& err);
int cmd_compare(const args& a, std::ostream& out, std::ostream& err);
int cmd_schedule(const args& a, std::ostream& out, std::ostream& err);
int cmd_run(const args& a, std::ostream& out, std::ostream& err);
int cmd_reproduce(const args& a, std::ostream& out, std::ostream& err);
int cmd_trees(const args& a, std::ostream& out, std::ostream& err);
int cmd_check_routes(const args& a, std::ostream& out, std::ostream& err);
int cmd_models(const args& a, std::ostream& out, std::ostream& err);
int cmd_crosscheck(const args& a, std::ostream& out, std::ostream& err);
int cmd_sweep(const args& a, std::ostream& out, std::ostream& err);
int cmd_area(const args& a, std::ostream& out, std::ostream& err);

// Each command's options, declared once: its parser and its --help.
command_line analyze_command_line();
command_line compare_command_line();
command_line schedule_command_line();
command_line run_command_line();
command_line reproduce_command_line();
command_line trees_command_line();
command_line check_routes_command_line();
command_line models_command_line();
command_line crosscheck_command_line();
command_line sweep_command_line();
command_line area_command_line();

// The names `tessera <command>` takes, in the order the usage lists them, and the
// declarations of one of them ("" for the top level).
const std::vector<std::string>& command_names();
command_line command_options(std::string_view command);

}  // namespace tessera::cli
