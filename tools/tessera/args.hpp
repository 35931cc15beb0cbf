// Command-line options, declared once per command and parsed by CLI11: each option has
// its value name, its help text and the --help group it is listed under, so the help is
// generated from the same declarations the parser accepts. Parsing keeps the CLI
// contract: "--name value" and "--name=value"; a flag takes no value; an option given
// twice is refused unless it is repeatable; anything not declared is refused naming it.
// Every refusal is an input_error in the project's words, never CLI11's own output.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tessera/common/input.hpp"

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace tessera::cli {

class help_formatter;

// The column --help starts option explanations in (after "  --fabric F").
inline constexpr std::size_t help_column = 19;

// One option of a command: a value option (value_name set), a flag (value_name empty)
// or, with positional, a bare word.
struct option_spec {
  std::string name;        // "fabric": given as --fabric
  std::string value_name;  // "F" in "--fabric F"; empty for a flag
  std::string help;        // wrapped by --help; lines that start with a space are kept
  bool repeated{false};    // may be given several times (--param, --fault)
  char short_name{0};      // -j for --jobs
  bool positional{false};  // reproduce's paper
};

class command_line {
 public:
  // usage: the synopsis lines after "usage: "; description: the paragraphs after it.
  command_line(std::string command, std::string usage, std::string description);
  command_line(command_line&&) noexcept;
  command_line& operator=(command_line&&) noexcept;
  ~command_line();

  // The options declared after this are listed under this heading.
  command_line& group(const std::string& heading);
  command_line& add(const option_spec& o);
  command_line& value(const std::string& name, const std::string& value_name,
                      const std::string& help);
  command_line& flag(const std::string& name, const std::string& help);
  // A group whose options --help lists by name only, explained elsewhere (sweep's run
  // options: tessera run --help explains them).
  command_line& brief_group(const std::string& heading, const std::string& note);
  // A command word of the top level: the words after it are the command's own.
  command_line& subcommand(const std::string& name, const std::string& summary);
  command_line& footer(const std::string& text);
  // The reason an undeclared option is refused, where the generic "unknown option" would
  // not help (crosscheck's --model).
  command_line& refuse(const std::string& name, const std::string& reason);
  // The message for a word that is not an option's value (default: "unexpected argument").
  command_line& on_stray(std::function<std::string(const std::string& word)> message);

  [[nodiscard]] const std::string& command() const { return command_; }
  // "tessera run" (or "tessera" for the top level).
  [[nodiscard]] std::string title() const;
  [[nodiscard]] std::string help();
  // Every declared option as --help writes it ("--fabric"; a positional by its value name)
  // with its help text, --help included, in declaration order.
  struct declared_option {
    std::string name;
    std::string help;
  };
  [[nodiscard]] std::vector<declared_option> declared();

 private:
  friend class args;
  void seal();
  [[nodiscard]] std::string refusal(const CLI::ParseError& e,
                                    const std::vector<std::string>& argv) const;

  std::string command_;
  std::unique_ptr<CLI::App> app_;
  std::shared_ptr<help_formatter> formatter_;
  std::string group_{"options"};
  std::optional<std::string> json_group_;  // --help is listed beside --json
  std::set<std::string> repeated_;
  std::map<std::string, std::string> refusals_;
  std::function<std::string(const std::string&)> stray_;
};

// The options one command line gave, read back by name (without the dashes).
class args {
 public:
  // Parses argv (the words after the command) with cl's declarations; input_error names
  // whatever is refused.
  args(command_line& cl, const std::vector<std::string>& argv);

  [[nodiscard]] bool flag(const std::string& name) const { return flags_.contains(name); }
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
  [[nodiscard]] std::string require(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> all(const std::string& name) const;
  [[nodiscard]] bool has(const std::string& name) const {
    return flags_.contains(name) || values_.contains(name);
  }
  // Every option given, once each, in command-line order.
  [[nodiscard]] const std::vector<std::string>& given() const { return order_; }
  // The top level: the command word given and the words after it.
  [[nodiscard]] const std::optional<std::string>& subcommand() const { return subcommand_; }
  [[nodiscard]] const std::vector<std::string>& rest() const { return rest_; }

 private:
  std::string command_;
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> order_;
  std::optional<std::string> subcommand_;
  std::vector<std::string> rest_;
};

// Words of text wrapped to width, each line after the first indented by indent (the
// first starts at column `at`); lines that start with a space are kept as they are.
std::string wrap_text(const std::string& text, std::size_t indent, std::size_t at,
                      std::size_t width);

using tessera::parse_count;  // tessera/common/input.hpp

}  // namespace tessera::cli
