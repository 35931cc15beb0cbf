#include "help_format.hpp"

#include <algorithm>
#include <sstream>

namespace tessera::cli {

std::string wrap_text(const std::string& text, std::size_t indent, std::size_t at,
                      std::size_t width) {
  std::string out;
  std::size_t col = at;
  bool first = true;
  auto new_line = [&]() {
    out += '\n' + std::string(indent, ' ');
    col = indent;
  };
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!first) new_line();
    first = false;
    if (line.empty() || line.front() == ' ') {  // laid out by hand: a table, an example
      out += line;
      col += line.size();
      continue;
    }
    std::istringstream words(line);
    std::string word;
    bool line_start = true;
    while (words >> word) {
      if (!line_start && col + 1 + word.size() > width) {
        new_line();
        line_start = true;
      }
      if (!line_start) {
        out += ' ';
        ++col;
      }
      out += word;
      col += word.size();
      line_start = false;
    }
  }
  return out;
}

std::string help_formatter::synopsis(const CLI::Option* opt) {
  if (opt->get_positional()) return opt->get_option_text();
  std::string s;
  for (const std::string& n : opt->get_snames())
    s += "-" + n + ", ";
  s += "--" + opt->get_lnames().front();
  if (!opt->get_option_text().empty()) s += " " + opt->get_option_text();
  if (opt->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll) s += " ...";
  return s;
}

std::string help_formatter::make_option(const CLI::Option* opt, bool) const {
  std::string head = "  " + synopsis(opt);
  const std::string& help = opt->get_description();
  if (help.empty()) return head + '\n';
  if (head.size() + 2 > column) {
    head += '\n' + std::string(column, ' ');
  } else {
    head.resize(column, ' ');
  }
  return head + wrap_text(help, column, column, width) + '\n';
}

std::string help_formatter::make_group(std::string group, bool,
                                       std::vector<const CLI::Option*> opts) const {
  std::string out = "\n" + group + ":\n";
  const auto brief = brief_.find(group);
  if (brief == brief_.end()) {
    for (const CLI::Option* opt : opts)
      out += make_option(opt, opt->get_positional());
    return out;
  }
  out += "  " + wrap_text(brief->second, 2, 2, width) + '\n';
  // The names, never broken inside one ("--switching S").
  std::string line = " ";
  for (std::size_t i = 0; i < opts.size(); ++i) {
    const std::string item = synopsis(opts[i]) + (i + 1 < opts.size() ? "," : "");
    if (line.size() > 1 && line.size() + 1 + item.size() > width) {
      out += line + '\n';
      line = " ";
    }
    line += " " + item;
  }
  return out + line + '\n';
}

std::string help_formatter::make_subcommands(const CLI::App* app, CLI::AppFormatMode) const {
  std::string out;
  const std::vector<const CLI::App*> subs = app->get_subcommands({});
  if (subs.empty()) return out;
  out += "\ncommands:\n";
  constexpr std::size_t at = 13;
  for (const CLI::App* sub : subs) {
    std::string head = "  " + sub->get_name();
    head.resize(std::max(at, head.size() + 1), ' ');
    out += head + wrap_text(sub->get_description(), at, head.size(), width) + '\n';
  }
  return out;
}

std::string help_formatter::make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const {
  std::string out = "usage: " + usage_ + '\n';
  if (!app->get_description().empty()) out += '\n' + app->get_description() + '\n';
  for (const std::string& group : app->get_groups()) {
    std::vector<const CLI::Option*> opts =
        app->get_options([&group](const CLI::Option* opt) { return opt->get_group() == group; });
    if (!group.empty() && !opts.empty()) out += make_group(group, false, opts);
  }
  out += make_subcommands(app, CLI::AppFormatMode::Normal);
  if (!app->get_footer().empty()) out += '\n' + app->get_footer() + '\n';
  return out;
}

}  // namespace tessera::cli
