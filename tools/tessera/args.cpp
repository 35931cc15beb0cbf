#include "args.hpp"

#include <algorithm>
#include <cctype>

#include <CLI/CLI.hpp>

#include "help_format.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

namespace tessera::cli {
namespace {

// "--fabric", "-j", "--frob=1": a word CLI11 reads as an option (a negative number is a
// value or a stray word, as "-8").
bool option_word(const std::string& w) {
  return w.size() > 1 && w[0] == '-' && (std::isdigit(static_cast<unsigned char>(w[1])) == 0) &&
         w[1] != '.';
}

std::string long_name(const CLI::Option* o) {
  return o->get_positional() ? o->get_option_text() : "--" + o->get_lnames().front();
}

}  // namespace

command_line::command_line(std::string command, std::string usage, std::string description)
    : command_{std::move(command)},
      app_{std::make_unique<CLI::App>(std::move(description), title())},
      formatter_{std::make_shared<help_formatter>()} {
  formatter_->usage(std::move(usage));
  app_->formatter(formatter_);
  // CLI11's own -h,--help goes; seal() declares ours, listed beside --json.
  app_->set_help_flag();
}

command_line::command_line(command_line&&) noexcept = default;
command_line& command_line::operator=(command_line&&) noexcept = default;
command_line::~command_line() = default;

std::string command_line::title() const {
  return command_.empty() ? "tessera" : "tessera " + command_;
}

command_line& command_line::group(const std::string& heading) {
  group_ = heading;
  return *this;
}

command_line& command_line::add(const option_spec& o) {
  CLI::Option* opt = nullptr;
  if (o.positional) {
    opt = app_->add_option(o.name, CLI::callback_t{}, o.help, false);
    opt->option_text(o.value_name);
  } else {
    const std::string names =
        (o.short_name != 0 ? std::string{'-', o.short_name} + "," : std::string{}) + "--" + o.name;
    if (o.value_name.empty()) {
      opt = app_->add_flag(names, o.help);
      // "--json=1" is refused (ArgumentMismatch below), not read as a boolean.
      opt->disable_flag_override();
    } else {
      opt = app_->add_option(names, CLI::callback_t{}, o.help, false);
      opt->option_text(o.value_name);
      // CLI11 takes the next word as the value whatever it is; "--fabric --json" is
      // refused rather than read as the fabric "--json".
      const std::string name = o.name;
      opt->check(CLI::Validator(
          [name](std::string& v) -> std::string {
            return v.rfind("--", 0) == 0
                       ? "option --" + name + " needs a value (got the option '" + shown(v) + "')"
                       : std::string{};
          },
          "", ""));
      if (o.repeated) {
        opt->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        repeated_.insert(o.name);
      } else {
        opt->multi_option_policy(CLI::MultiOptionPolicy::Throw);
      }
    }
  }
  opt->group(group_);
  if (o.name == "json") json_group_ = group_;
  return *this;
}

command_line& command_line::value(const std::string& name, const std::string& value_name,
                                  const std::string& help) {
  return add({name, value_name, help});
}

command_line& command_line::flag(const std::string& name, const std::string& help) {
  return add({name, "", help});
}

command_line& command_line::brief_group(const std::string& heading, const std::string& note) {
  formatter_->brief(heading, note);
  return group(heading);
}

command_line& command_line::subcommand(const std::string& name, const std::string& summary) {
  CLI::App* sub = app_->add_subcommand(name, summary);
  // The words after the command are the command's own, parsed by its own command_line.
  sub->prefix_command();
  sub->set_help_flag();
  app_->require_subcommand(0, 1);
  return *this;
}

command_line& command_line::footer(const std::string& text) {
  app_->footer(text);
  return *this;
}

command_line& command_line::refuse(const std::string& name, const std::string& reason) {
  refusals_[name] = reason;
  return *this;
}

command_line& command_line::on_stray(std::function<std::string(const std::string&)> message) {
  stray_ = std::move(message);
  return *this;
}

void command_line::seal() {
  if (app_->get_help_ptr() == nullptr)
    app_->set_help_flag("-h,--help", "this help")->group(json_group_.value_or(group_));
}

std::string command_line::help() {
  seal();
  return app_->help();
}

std::vector<command_line::declared_option> command_line::declared() {
  seal();
  std::vector<declared_option> out;
  for (const CLI::Option* o : app_->get_options())
    out.push_back({long_name(o), o->get_description()});
  return out;
}

// CLI11 refuses; the message is the project's: one line, lower case, naming the option
// and the value.
std::string command_line::refusal(const CLI::ParseError& e,
                                  const std::vector<std::string>& argv) const {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // The first word not taken; after "--" every word is an argument, never an option.
    const std::vector<std::string> rest = app_->remaining();
    const auto end_of_options = std::find(rest.begin(), rest.end(), "--");
    const auto first =
        std::find_if(rest.begin(), rest.end(), [](const std::string& w) { return w != "--"; });
    const std::string word = first == rest.end() ? std::string{} : *first;
    const bool after_end = end_of_options < first;
    if (option_word(word) && !after_end) {
      const std::string name = word.substr(0, word.find('='));
      const std::size_t letters = name.find_first_not_of('-');
      // "--=x", "-=", "---": dashes and no name.
      if (letters == std::string::npos) {
        return "'" + shown(word) + "' is not an option (an option is --name or --name=value; see " +
               title() + " --help)";
      }
      if (const auto r = refusals_.find(name.substr(letters)); r != refusals_.end())
        return r->second;
      return "unknown option '" + shown(name) + "' for '" + title() + "' (see " + title() +
             " --help)";
    }
    if (stray_) return stray_(word);
    return "unexpected argument '" + shown(word) + "' for '" + title() + "'" +
           (after_end ? " (after '--' a word is an argument, not an option)" : "");
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // A flag given a value: CLI11 stops at it.
    for (const std::string& w : argv) {
      const auto eq = w.find('=');
      if (w.rfind("--", 0) != 0 || eq == std::string::npos) continue;
      const CLI::Option* o = app_->get_option_no_throw(w.substr(0, eq));
      if (o != nullptr && o->get_expected_max() == 0) {
        return "option " + long_name(o) + " takes no value (got '" + shown(w.substr(eq + 1)) + "')";
      }
    }
    // A value option given twice: CLI11's Throw policy.
    for (const CLI::Option* o : app_->get_options()) {
      if (o->get_expected_max() == 0 || o->get_positional()) continue;
      if (o->results().size() > 1 && !repeated_.contains(o->get_single_name())) {
        return "option " + long_name(o) + " given twice ('" + shown(o->results()[0]) + "' and '" +
               shown(o->results()[1]) + "')";
      }
    }
    // The words ran out before the value.
    if (!argv.empty()) {
      const std::string& last = argv.back();
      const CLI::Option* o =
          option_word(last) ? app_->get_option_no_throw(last.substr(0, last.find('='))) : nullptr;
      if (o != nullptr) return "option " + long_name(o) + " needs a value";
    }
  }
  std::string what = e.what();
  if (dynamic_cast<const CLI::ValidationError*>(&e) != nullptr) {
    // "--fabric: option --fabric needs a value ...": CLI11 puts the option first.
    if (const auto colon = what.find(": "); colon != std::string::npos)
      return what.substr(colon + 2);
  }
  if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
  return title() + ": " + what;
}

args::args(command_line& cl, const std::vector<std::string>& argv) : command_{cl.command()} {
  cl.seal();
  CLI::App& app = *cl.app_;
  std::vector<std::string> words(argv.rbegin(), argv.rend());  // CLI11 reads from the back
  try {
    app.parse(words);
  } catch (const CLI::CallForHelp&) {
    // The command prints its help; what else was given is not looked at.
  } catch (const CLI::ParseError& e) {
    throw input_error(cl.refusal(e, argv));
  }
  // What CLI11 takes and the contract does not: a flag given an empty value ("--json=",
  // which CLI11 reads as the flag), or given twice.
  for (const std::string& w : argv) {
    if (w == "--") break;
    if (w.rfind("--", 0) != 0 || w.back() != '=') continue;
    const CLI::Option* o = app.get_option_no_throw(w.substr(0, w.size() - 1));
    if (o != nullptr && o->get_expected_max() == 0)
      throw input_error("option " + long_name(o) + " takes no value (got '')");
  }
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_expected_max() != 0 || o->get_positional()) continue;
    if (o->count() > 1) throw input_error("option " + long_name(o) + " given twice");
  }
  for (const CLI::Option* o : app.parse_order()) {
    const std::string& name = o->get_single_name();
    if (std::find(order_.begin(), order_.end(), name) == order_.end()) order_.push_back(name);
  }
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() == 0) continue;
    if (o->get_expected_max() == 0) {
      flags_.insert(o->get_single_name());
    } else {
      values_[o->get_single_name()] = o->results();
    }
  }
  for (const CLI::App* sub : app.get_subcommands()) {
    subcommand_ = sub->get_name();
    rest_ = sub->remaining();
  }
}

std::optional<std::string> args::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.front();
}

std::string args::require(const std::string& name) const {
  auto v = get(name);
  if (!v) throw input_error("'tessera " + command_ + "' needs --" + name);
  return *v;
}

std::vector<std::string> args::all(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace tessera::cli
