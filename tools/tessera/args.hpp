// Command-line options: "--name value", "--name=value" and flags. Anything the
// command does not declare is an input error naming the option.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tessera/schedule/input.hpp"

namespace tessera::cli {

class args {
 public:
  // values: options that take a value; repeated: may be given several times;
  // flags: options without a value.
  args(const std::string& command, const std::vector<std::string>& argv,
       const std::set<std::string>& values, const std::set<std::string>& flags,
       const std::set<std::string>& repeated = {});

  [[nodiscard]] bool flag(const std::string& name) const { return flags_.contains(name); }
  [[nodiscard]] std::optional<std::string> get(const std::string& name) const;
  [[nodiscard]] std::string require(const std::string& name) const;
  [[nodiscard]] std::vector<std::string> all(const std::string& name) const;
  [[nodiscard]] bool has(const std::string& name) const {
    return flags_.contains(name) || values_.contains(name);
  }
  // Every option given, once each, in command-line order.
  [[nodiscard]] const std::vector<std::string>& given() const { return order_; }

 private:
  std::string command_;
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> flags_;
  std::vector<std::string> order_;
};

using tessera::parse_count;  // tessera/schedule/input.hpp

}  // namespace tessera::cli
