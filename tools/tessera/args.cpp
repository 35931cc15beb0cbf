#include "args.hpp"

#include <algorithm>

#include "tessera/schedule/errors.hpp"
#include "tessera/schedule/input.hpp"

namespace tessera::cli {

args::args(const std::string& command, const std::vector<std::string>& argv,
           const std::set<std::string>& values, const std::set<std::string>& flags,
           const std::set<std::string>& repeated)
    : command_{command} {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0) {
      throw input_error("unexpected argument '" + shown(a) + "' for 'tessera " + command + "'");
    }
    std::string name = a.substr(2);
    std::optional<std::string> value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (flags.contains(name)) {
      if (value) {
        throw input_error("option --" + name + " takes no value (got '" + shown(*value) + "')");
      }
      if (flags_.insert(name).second) order_.push_back(name);
      continue;
    }
    if (!values.contains(name)) {
      throw input_error("unknown option '--" + shown(name) + "' for 'tessera " + command +
                        "' (see tessera " + command + " --help)");
    }
    if (!value) {
      // "--fabric --json": the next word is an option, not this one's value.
      if (i + 1 >= argv.size() || argv[i + 1].rfind("--", 0) == 0) {
        throw input_error(
            "option --" + name + " needs a value" +
            (i + 1 < argv.size() ? " (got the option '" + shown(argv[i + 1]) + "')" : ""));
      }
      value = argv[++i];
    }
    auto& slot = values_[name];
    if (!slot.empty() && !repeated.contains(name)) {
      throw input_error("option --" + name + " given twice ('" + shown(slot.front()) + "' and '" +
                        shown(*value) + "')");
    }
    if (slot.empty()) order_.push_back(name);
    slot.push_back(*value);
  }
}

std::optional<std::string> args::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
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
