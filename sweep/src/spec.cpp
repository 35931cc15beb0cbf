#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/sweep/sweep.hpp"

namespace tessera::sweep {
namespace {

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end != nullptr && *end == '\0' && std::isfinite(v);
}

}  // namespace

std::string short_number(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

bool swept(const std::string& name) {
  static const std::set<std::string> fixed{
      "schedule", "pattern",  "routes",      "fault",        "fault-file",  "firmware",
      "trace",    "timeline", "trace-tiles", "trace-window", "heatmap",     "heatmap-metric",
      "help",     "json",     "transfers",   "param",        "packet-sizes"};
  return !fixed.contains(name);
}

std::vector<std::string> expand(const std::string& option, const std::string& text) {
  const std::string bad = "--" + option + " '" + shown(text) + "'";
  if (text.find(',') != std::string::npos) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at <= text.size()) {
      const std::size_t comma = std::min(text.find(',', at), text.size());
      const std::string v = text.substr(at, comma - at);
      if (v.empty()) throw input_error(bad + " has an empty value in its list");
      out.push_back(v);
      at = comma + 1;
    }
    return out;
  }
  const std::size_t c1 = text.find(':');
  if (c1 == std::string::npos) return {text};
  const std::size_t c2 = text.find(':', c1 + 1);
  const std::string a_text = text.substr(0, c1);
  const std::string b_text =
      text.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
  const std::string how = c2 == std::string::npos ? "" : text.substr(c2 + 1);
  double a = 0;
  double b = 0;
  // A value with a colon that is not numbers (mesh:4x4, key:value) is one value.
  if (!parse_double(a_text, a) || !parse_double(b_text, b)) return {text};
  if (b < a) throw input_error(bad + " runs backwards");
  std::vector<double> v;
  auto count_of = [&](const std::string& rest) -> std::size_t {
    if (rest.empty()) return 8;
    const std::uint64_t n = parse_count(option, rest, max_values, 2);
    return static_cast<std::size_t>(n);
  };
  if (how.rfind("log", 0) == 0) {
    if (a <= 0) throw input_error(bad + ": a log range starts above 0");
    const std::size_t n = count_of(how.substr(3));
    for (std::size_t i = 0; i < n; ++i)
      v.push_back(a * std::pow(b / a, static_cast<double>(i) / static_cast<double>(n - 1)));
  } else if (how.rfind("lin", 0) == 0) {
    const std::size_t n = count_of(how.substr(3));
    for (std::size_t i = 0; i < n; ++i)
      v.push_back(a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1));
  } else if (!how.empty() && how[0] == 'x') {
    double f = 0;
    if (!parse_double(how.substr(1), f) || f <= 1 || a <= 0)
      throw input_error(bad + ": a geometric range needs A > 0 and a factor above 1");
    for (double x = a; x <= b * (1 + 1e-12) && v.size() <= max_values; x *= f)
      v.push_back(x);
  } else {
    double s = 1;
    if (!how.empty() && (!parse_double(how, s) || s <= 0))
      throw input_error(bad + ": the step must be a number above 0");
    for (double x = a; x <= b * (1 + 1e-12) + 1e-12 && v.size() <= max_values; x += s)
      v.push_back(x);
  }
  if (v.size() > max_values)
    throw input_error(bad + " has more than " + std::to_string(max_values) + " values");
  // Between two integers the values are integers (block sizes, cycles, counts).
  const bool whole = a_text.find_first_not_of("0123456789") == std::string::npos &&
                     b_text.find_first_not_of("0123456789") == std::string::npos;
  std::vector<std::string> out;
  for (const double x : v) {
    const std::string t = whole ? std::to_string(std::llround(x)) : short_number(x);
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

std::string column(const axis& x) {
  return x.option.rfind("param:", 0) == 0 ? "--param " + x.option.substr(6) : "--" + x.option;
}

void add_flag(spec& s, const std::string& name) {
  s.fixed.push_back("--" + name);
  s.shared["--" + name] = true;
}

void add_value(spec& s, const std::string& name, const std::string& text) {
  const std::vector<std::string> list = swept(name) ? expand(name, text) : std::vector{text};
  if (list.size() > 1) {
    s.axes.push_back({name, list});
  } else {
    s.fixed.push_back("--" + name);
    s.fixed.push_back(list.front());
    s.shared["--" + name] = list.front();
  }
}

void add_param(spec& s, const std::string& key_value) {
  const auto eq = key_value.find('=');
  if (eq == std::string::npos || eq == 0)
    throw input_error("--param '" + shown(key_value) + "' is not key=value");
  const std::string key = key_value.substr(0, eq);
  const std::vector<std::string> v = expand("param " + key, key_value.substr(eq + 1));
  if (v.size() > 1) {
    s.axes.push_back({"param:" + key, v});
  } else {
    s.fixed.emplace_back("--param");
    s.fixed.push_back(key + "=" + v.front());
    s.shared["--param " + key] = v.front();
  }
}

void count_runs(spec& s) {
  for (const axis& x : s.axes) {
    s.runs *= x.values.size();
    if (s.runs > max_runs) {
      throw input_error("the sweep has more than " + std::to_string(max_runs) +
                        " runs; sweep fewer values");
    }
  }
}

bool has_axis(const spec& s, const std::string& option) {
  return std::any_of(s.axes.begin(), s.axes.end(),
                     [&](const axis& x) { return x.option == option; });
}

std::vector<std::size_t> coords(const spec& s, std::size_t i) {
  std::vector<std::size_t> at(s.axes.size(), 0);
  for (std::size_t k = s.axes.size(); k-- > 0;) {
    at[k] = i % s.axes[k].values.size();
    i /= s.axes[k].values.size();
  }
  return at;
}

std::vector<std::string> point_argv(const std::vector<std::string>& fixed,
                                    const std::vector<axis>& axes,
                                    const std::vector<std::size_t>& at) {
  std::vector<std::string> argv = fixed;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const axis& x = axes[i];
    if (x.option.rfind("param:", 0) == 0) {
      argv.emplace_back("--param");
      argv.push_back(x.option.substr(6) + "=" + x.values[at[i]]);
    } else {
      argv.push_back("--" + x.option);
      argv.push_back(x.values[at[i]]);
    }
  }
  return argv;
}

std::string where(const spec& s, const std::vector<std::size_t>& at) {
  std::string out;
  for (std::size_t k = 0; k < s.axes.size(); ++k)
    out += (out.empty() ? "" : ", ") + column(s.axes[k]) + " " + s.axes[k].values[at[k]];
  return out;
}

nlohmann::ordered_json spec_json(const spec& s) {
  nlohmann::ordered_json j;
  j["format"] = "tessera sweep 1";
  j["fixed"] = s.fixed;
  j["axes"] = nlohmann::ordered_json::array();
  for (const axis& x : s.axes)
    j["axes"].push_back({{"option", x.option}, {"values", x.values}});
  j["shared"] = s.shared;
  j["runs"] = s.runs;
  return j;
}

spec read_spec(const std::string& option, const std::string& path, const std::string& name) {
  const nlohmann::json j = read_json_file(option, path, max_spec_bytes);
  const std::string bad = "'" + shown(name) + "' is not a sweep's sweep.json";
  spec s;
  try {
    if (j.at("format") != "tessera sweep 1") throw input_error(bad);
    s.fixed = j.at("fixed").get<std::vector<std::string>>();
    for (const auto& x : j.at("axes")) {
      s.axes.push_back(
          {x.at("option").get<std::string>(), x.at("values").get<std::vector<std::string>>()});
    }
    s.shared = nlohmann::ordered_json(j.at("shared"));
    s.runs = j.at("runs").get<std::size_t>();
  } catch (const nlohmann::json::exception&) {
    throw input_error(bad);
  }
  std::size_t n = 1;
  for (const axis& x : s.axes) {
    if (x.values.empty()) throw input_error(bad);
    n *= x.values.size();
    if (n > max_runs) throw input_error(bad);
  }
  if (n != s.runs) throw input_error(bad);
  return s;
}

}  // namespace tessera::sweep
