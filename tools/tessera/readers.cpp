#include "readers.hpp"

#include <unordered_map>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "workload.hpp"

namespace tessera::cli {
namespace {

using json = nlohmann::json;

constexpr std::size_t max_pattern_transfers = 1'000'000;
constexpr std::size_t max_route_entries = 1'000'000;

// A whole number in [0, max] from field k of object t; `where` names the entry.
std::uint64_t whole(const json& t, const char* k, const std::string& where, std::uint64_t max) {
  const json& v = t.at(k);
  if (v.is_number_unsigned()) {
    const auto x = v.get<std::uint64_t>();
    if (x > max) {
      throw input_error(where + ": " + k + " " + std::to_string(x) + " is too large, at most " +
                        std::to_string(max));
    }
    return x;
  }
  if (v.is_number_integer()) throw input_error(where + ": " + k + " " + v.dump() + " is negative");
  throw input_error(where + ": " + k + " " + json_brief(v) + " is not a whole number");
}

std::uint32_t tile_field(const json& t, const char* k, const std::string& where, const fabric& f) {
  const std::uint64_t x = whole(t, k, where, 0xffffffffULL);
  if (x >= f.tiles()) {
    throw input_error(where + ": " + k + " " + std::to_string(x) +
                      " is not a tile of the fabric (tiles 0.." + std::to_string(f.tiles() - 1) +
                      ")");
  }
  return static_cast<std::uint32_t>(x);
}

// Reads `option`'s JSON file and hands it to `parse`, whose errors start with the
// option's name: the file is named once, after it, in front of the entry.
template <typename Parse>
auto from_file(const std::string& option, const std::string& file, std::uint64_t limit,
               Parse parse) {
  const json j = read_json_file(option, file, limit);
  try {
    return parse(j);
  } catch (const input_error& e) {
    const std::string what = e.what();
    throw input_error(option + " '" + shown(file, 160) + "'" + what.substr(option.size()));
  }
}

}  // namespace

std::vector<harness::pattern_transfer> pattern_from_json(const json& j, const fabric& f) {
  if (!j.is_object() || !j.contains("transfers") || !j["transfers"].is_array())
    throw input_error("--pattern has no \"transfers\" array");
  const json& list = j["transfers"];
  if (list.empty()) throw input_error("--pattern has no transfers");
  if (list.size() > max_pattern_transfers) {
    throw input_error("--pattern has " + std::to_string(list.size()) +
                      " transfers, more than the " + std::to_string(max_pattern_transfers) +
                      " a run takes");
  }
  std::vector<harness::pattern_transfer> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& t = list[i];
    const std::string where = "--pattern transfer " + std::to_string(i);
    if (!t.is_object()) throw input_error(where + " is " + json_brief(t) + ", not an object");
    for (const char* k : {"src", "dst", "bytes"})
      if (!t.contains(k)) throw input_error(where + " has no \"" + k + "\"");
    for (const auto& [key, value] : t.items()) {
      if (key != "src" && key != "dst" && key != "bytes" && key != "start")
        throw input_error(where + " has an unknown field \"" + shown(key) + "\"");
    }
    harness::pattern_transfer p;
    p.src = tile_field(t, "src", where, f);
    p.dst = tile_field(t, "dst", where, f);
    if (p.src == p.dst) {
      throw input_error(where + ": src and dst are both tile " + std::to_string(p.src) +
                        " (a transfer crosses the fabric)");
    }
    p.bytes = whole(t, "bytes", where, std::uint64_t{1} << 30);
    p.start = t.contains("start") ? whole(t, "start", where, std::uint64_t{1} << 50) : 0;
    out.push_back(p);
  }
  return out;
}

std::vector<harness::pattern_transfer> load_pattern(const std::string& file, const fabric& f) {
  return from_file("--pattern", file, max_pattern_bytes,
                   [&](const json& j) { return pattern_from_json(j, f); });
}

std::vector<net::forwarding_entry> routes_from_json(const json& j, const fabric& f) {
  if (!j.is_object() || !j.contains("routes") || !j["routes"].is_array())
    throw input_error("--routes has no \"routes\" array");
  const json& list = j["routes"];
  if (list.size() > max_route_entries) {
    throw input_error("--routes has " + std::to_string(list.size()) + " entries, more than " +
                      std::to_string(max_route_entries));
  }
  const bool ring = f.kind == fabric_kind::ring;
  std::vector<net::forwarding_entry> out;
  out.reserve(list.size());
  // (tile, dst) -> the entry that set it: one tile forwards one destination one way, so
  // a second entry for the pair is refused, whether its port differs or not.
  std::unordered_map<std::uint64_t, std::size_t> first;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    const std::string where = "--routes entry " + std::to_string(i);
    if (!e.is_object() || !e.contains("tile") || !e.contains("dst") || !e.contains("port"))
      throw input_error(where + " needs tile, dst and port");
    net::forwarding_entry fe;
    fe.tile = tile_field(e, "tile", where, f);
    fe.dst = tile_field(e, "dst", where, f);
    const json& port = e["port"];
    const std::string name = port.is_string() ? port.get<std::string>() : "";
    if (port.is_number_unsigned() && port.get<std::uint64_t>() < f.ports()) {
      fe.port = port.get<std::uint32_t>();
    } else if (!ring && (name == "E" || name == "W" || name == "S" || name == "N")) {
      fe.port = name == "E" ? 0U : name == "W" ? 1U : name == "S" ? 2U : 3U;
    } else if (ring && (name == "+1" || name == "-1")) {
      fe.port = name == "+1" ? 0U : 1U;
    } else {
      throw input_error(where + ": port " + json_brief(port) + " is not " +
                        (ring ? "+1, -1, 0 or 1" : "E, W, S, N or 0..3"));
    }
    const auto [at, fresh] = first.try_emplace(std::uint64_t{fe.tile} << 32 | fe.dst, i);
    if (!fresh) {
      const std::size_t k = at->second;
      const std::string pair =
          "tile " + std::to_string(fe.tile) + ", dst " + std::to_string(fe.dst) + ", port ";
      if (out[k].port == fe.port) {
        throw input_error(where + " (" + pair + json_brief(port) + ") repeats entry " +
                          std::to_string(k) + " (" + pair + json_brief(list[k].at("port")) + ")");
      }
      throw input_error(where + " (" + pair + json_brief(port) + ") contradicts entry " +
                        std::to_string(k) + " (" + pair + json_brief(list[k].at("port")) +
                        "): a tile forwards a destination one way");
    }
    out.push_back(fe);
  }
  return out;
}

std::vector<harness::fault_spec> load_faults(const std::vector<std::string>& values,
                                             const std::optional<std::string>& file,
                                             const fabric& f) {
  std::vector<harness::fault_spec> out;
  for (const std::string& v : values) {
    if (out.size() == harness::max_faults)
      throw input_error("more than " + std::to_string(harness::max_faults) + " faults");
    out.push_back(harness::parse_fault(v, f));
  }
  if (file) {
    const std::string text = read_input_file("--fault-file", *file, max_fault_file_bytes);
    auto listed = harness::parse_fault_list(text, f, "--fault-file '" + shown(*file, 160) + "'");
    if (out.size() + listed.size() > harness::max_faults)
      throw input_error("more than " + std::to_string(harness::max_faults) + " faults");
    out.insert(out.end(), listed.begin(), listed.end());
  }
  harness::refuse_repeats(out);
  return out;
}

std::vector<net::forwarding_entry> load_routes(const std::string& file, const fabric& f) {
  return from_file("--routes", file, max_routes_bytes,
                   [&](const json& j) { return routes_from_json(j, f); });
}

}  // namespace tessera::cli
