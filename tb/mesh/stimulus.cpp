#include "stimulus.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"

namespace tessera::tb::mesh {

std::vector<file_message> read_stimulus(const std::string& path, unsigned tiles) {
  using tessera::input_error;
  const nlohmann::json j = tessera::read_json_file("--stimulus", path, 1U << 22);
  if (!j.is_object() || !j.contains("messages") || !j["messages"].is_array() ||
      j["messages"].empty() || j.size() != 1)
    throw input_error("--stimulus " + path +
                      ": wants one object with one key, \"messages\": a non-empty array");
  if (j["messages"].size() > 100000)
    throw input_error("--stimulus " + path + ": more than 100000 messages");
  std::vector<file_message> out;
  for (std::size_t i = 0; i < j["messages"].size(); ++i) {
    const nlohmann::json& m = j["messages"][i];
    const std::string where = "--stimulus " + path + ": message " + std::to_string(i);
    if (!m.is_object()) throw input_error(where + " is not an object");
    // A whole number in lo..hi; without the key, `fallback` (nothing: it is required).
    const auto count = [&](const char* key, std::uint64_t lo, std::uint64_t hi,
                           std::optional<std::uint64_t> fallback) -> std::uint64_t {
      if (!m.contains(key)) {
        if (!fallback) throw input_error(where + " has no \"" + key + "\"");
        return *fallback;
      }
      const nlohmann::json& v = m[key];
      if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lo || v.get<std::uint64_t>() > hi)
        throw input_error(where + ": \"" + key + "\" " + tessera::json_brief(v) +
                          " is not a whole number in " + std::to_string(lo) + ".." +
                          std::to_string(hi));
      return v.get<std::uint64_t>();
    };
    for (const auto& [key, value] : m.items()) {
      if (key != "src" && key != "dst" && key != "flits" && key != "packet_flits" && key != "at" &&
          key != "want" && key != "what")
        throw input_error(where + ": unknown key \"" + tessera::shown(key) + "\"");
    }
    file_message f;
    f.src = static_cast<unsigned>(count("src", 0, tiles - 1, std::nullopt));
    f.dst = static_cast<unsigned>(count("dst", 0, tiles - 1, std::nullopt));
    f.flits = static_cast<unsigned>(count("flits", 1, 4096, std::nullopt));
    f.packet_flits = static_cast<unsigned>(count("packet_flits", 0, 4096, 0));
    f.at = count("at", 0, std::uint64_t{1} << 40, 0);
    if (m.contains("want")) f.want = count("want", 0, std::uint64_t{1} << 40, std::nullopt);
    if (m.contains("what")) {
      if (!m["what"].is_string()) throw input_error(where + ": \"what\" is not a string");
      f.what = m["what"].get<std::string>();
    }
    if (f.what.empty()) {
      f.what =
          std::to_string(i) + " (" + std::to_string(f.src) + "->" + std::to_string(f.dst) + ")";
    }
    out.push_back(f);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const file_message& a, const file_message& b) { return a.at < b.at; });
  return out;
}

}  // namespace tessera::tb::mesh
