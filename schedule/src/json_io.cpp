#include "tessera/schedule/json_io.hpp"

#include <nlohmann/json.hpp>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera {
namespace {

using json = nlohmann::json;

// Bounds on what a file may ask for, so a hostile file cannot exhaust memory.
constexpr std::uint64_t max_file_ops = 20'000'000;
constexpr std::uint64_t max_step = std::uint64_t{1} << 20;  // analysis keeps one entry per step

std::string where(std::size_t t, std::size_t i) {
  return "ops[" + std::to_string(t) + "][" + std::to_string(i) + "]";
}

std::uint64_t get_uint(const json& j, const char* field, const std::string& at,
                       std::uint64_t fallback, std::uint64_t limit) {
  if (!j.contains(field)) return fallback;
  const json& v = j.at(field);
  if (!v.is_number_unsigned()) {
    throw input_error(at + "." + field + " = " + json_brief(v) + " is not a non-negative integer");
  }
  const auto x = v.get<std::uint64_t>();
  if (x > limit) {
    throw input_error(at + "." + field + " = " + std::to_string(x) + " exceeds " +
                      std::to_string(limit));
  }
  return x;
}

std::uint32_t get_tile(const json& j, const char* field, const std::string& at, std::uint32_t tiles,
                       bool required) {
  if (!j.contains(field)) {
    if (required) throw input_error(at + " has no \"" + field + "\"");
    return no_tile;
  }
  const auto x = get_uint(j, field, at, 0, UINT32_MAX);
  if (x >= tiles) {
    throw input_error(at + "." + field + " = " + std::to_string(x) +
                      " is not a tile (tiles = " + std::to_string(tiles) + ")");
  }
  return static_cast<std::uint32_t>(x);
}

std::vector<std::uint32_t> block_array(const json& v, const std::string& at) {
  if (!v.is_array()) throw input_error(at + " is not an array");
  std::vector<std::uint32_t> out;
  out.reserve(v.size());
  for (const json& b : v) {
    if (!b.is_number_unsigned() || b.get<std::uint64_t>() > UINT32_MAX) {
      throw input_error(at + " has a bad block id " + json_brief(b));
    }
    out.push_back(b.get<std::uint32_t>());
  }
  return out;
}

std::vector<std::uint32_t> get_blocks(const json& j, const char* field, const std::string& at) {
  if (!j.contains(field)) return {};
  return block_array(j.at(field), at + "." + field);
}

// A name the reports print: short and printable.
std::string get_string(const json& j, const char* field) {
  if (!j.contains(field)) return {};
  const json& v = j.at(field);
  if (!v.is_string()) {
    throw input_error(std::string("schedule.") + field + " = " + json_brief(v) +
                      " is not a string");
  }
  const auto& text = v.get_ref<const std::string&>();
  if (text.size() > 64 || shown(text, 64) != text) {
    throw input_error(std::string("schedule.") + field + " = " + json_brief(v) +
                      " is not a name (at most 64 printable characters)");
  }
  return text;
}

// The peer field: "peer", or the directional name ("to" for sends, "from" for recvs).
std::uint32_t get_peer(const json& j, const char* dir, const std::string& at, std::uint32_t tiles) {
  if (j.contains(dir)) return get_tile(j, dir, at, tiles, true);
  return get_tile(j, "peer", at, tiles, true);
}

bool get_flag(const json& j, const char* key, const std::string& at) {
  if (!j.contains(key)) return false;
  if (!j.at(key).is_boolean()) throw input_error(at + "." + key + " is not true or false");
  return j.at(key).get<bool>();
}

// A message's declared size must be what its listed blocks hold: block_bytes each when
// the schedule gives it, else an equal share.
void check_block_sizes(const std::string& at, const char* field, std::uint64_t bytes,
                       std::size_t blocks, std::uint64_t block_bytes) {
  if (blocks == 0) return;
  if (block_bytes > 0 && bytes != blocks * block_bytes) {
    throw input_error(at + "." + field + " = " + std::to_string(bytes) + " but its " +
                      std::to_string(blocks) + " blocks of block_bytes " +
                      std::to_string(block_bytes) + " hold " +
                      std::to_string(blocks * block_bytes));
  }
  if (block_bytes == 0 && bytes % blocks != 0) {
    throw input_error(at + "." + field + " = " + std::to_string(bytes) + " does not split into " +
                      std::to_string(blocks) + " equal blocks");
  }
}

sched_op parse_op(const json& j, const std::string& at, std::uint32_t tiles, std::uint32_t self,
                  std::size_t index, std::uint64_t block_bytes, std::vector<std::uint32_t>& send,
                  std::vector<std::uint32_t>& recv) {
  if (!j.is_object()) throw input_error(at + " is not an object");
  if (!j.contains("op") || !j.at("op").is_string()) throw input_error(at + " has no \"op\" name");
  const auto name = j.at("op").get<std::string>();
  sched_op o;
  if (!parse_op_kind(name, o.kind)) {
    throw input_error(at + ".op = \"" + name +
                      "\" is not an op (send, recv, exchange, sendrecv, idle, barrier, "
                      "pair_sync, shuffle, combine)");
  }
  o.step = static_cast<std::uint32_t>(get_uint(j, "step", at, index + 1, max_step));
  if (o.step == 0) throw input_error(at + ".step = 0: steps are numbered from 1");
  const std::uint64_t bytes = get_uint(j, "bytes", at, 0, std::uint64_t{1} << 40);
  send = get_blocks(j, "send_blocks", at);
  recv = get_blocks(j, "recv_blocks", at);
  switch (o.kind) {
    case op_kind::send:
      o.to = get_peer(j, "to", at, tiles);
      o.send_bytes = bytes;
      break;
    case op_kind::recv:
      o.from = get_peer(j, "from", at, tiles);
      o.recv_bytes = bytes;
      break;
    case op_kind::exchange:
      o.to = o.from = get_tile(j, "peer", at, tiles, true);
      o.send_bytes = bytes;
      o.recv_bytes = get_uint(j, "recv_bytes", at, bytes, std::uint64_t{1} << 40);
      break;
    case op_kind::sendrecv:
      o.to = get_tile(j, "to", at, tiles, true);
      o.from = get_tile(j, "from", at, tiles, true);
      o.send_bytes = bytes;
      o.recv_bytes = get_uint(j, "recv_bytes", at, bytes, std::uint64_t{1} << 40);
      break;
    case op_kind::pair_sync:
      o.to = get_tile(j, "peer", at, tiles, true);
      break;
    case op_kind::shuffle:
      o.count = static_cast<std::uint32_t>(get_uint(j, "count", at, 0, UINT32_MAX));
      break;
    case op_kind::combine:
      if (send.size() != 1 || recv.size() != 1)
        throw input_error(at +
                          " (combine) needs one send_blocks id (the source) and one "
                          "recv_blocks id (the destination)");
      break;
    case op_kind::idle:
    case op_kind::barrier:
      break;
  }
  // A message goes over the fabric, which has no link from a tile to itself; analyze
  // and run both refuse it here, so they agree.
  if (o.to == self || o.from == self) {
    throw input_error(at + " (" + name + ") names tile " + std::to_string(self) +
                      ", its own tile: a tile does not send to or receive from itself");
  }
  if (get_flag(j, "release", at)) o.flags |= op_flag::release;
  if (get_flag(j, "combine_in", at)) o.flags |= op_flag::combine_in;
  if (o.kind == op_kind::combine) return o;
  if (!o.sends() && !send.empty()) throw input_error(at + " (" + name + ") has send_blocks");
  if (!o.receives() && !recv.empty()) throw input_error(at + " (" + name + ") has recv_blocks");
  check_block_sizes(at, "bytes", o.send_bytes, send.size(), block_bytes);
  check_block_sizes(at, o.kind == op_kind::recv ? "bytes" : "recv_bytes", o.recv_bytes, recv.size(),
                    block_bytes);
  return o;
}

delivery_spec parse_delivery(const json& j, std::uint32_t tiles) {
  delivery_spec d;
  if (!j.is_object()) throw input_error("delivery is not an object");
  d.blocks = static_cast<std::uint32_t>(get_uint(j, "blocks", "delivery", 0, 1U << 26));
  if (!j.contains("origin") || !j.at("origin").is_array() || j.at("origin").size() != d.blocks) {
    throw input_error("delivery.origin must list one tile per block (" + std::to_string(d.blocks) +
                      " blocks)");
  }
  for (const json& o : j.at("origin")) {
    if (!o.is_number_unsigned() || o.get<std::uint64_t>() >= tiles) {
      throw input_error("delivery.origin has a bad tile " + json_brief(o));
    }
    d.origin.push_back(o.get<std::uint32_t>());
  }
  if (!j.contains("wanted") || !j.at("wanted").is_array() || j.at("wanted").size() != tiles) {
    throw input_error("delivery.wanted must list one block array per tile (" +
                      std::to_string(tiles) + " tiles)");
  }
  d.wanted.resize(tiles);
  for (std::uint32_t t = 0; t < tiles; ++t) {
    d.wanted[t] = block_array(j.at("wanted").at(t), "delivery.wanted[" + std::to_string(t) + "]");
    for (std::uint32_t b : d.wanted[t]) {
      if (b >= d.blocks) {
        throw input_error("delivery.wanted[" + std::to_string(t) + "] names block " +
                          std::to_string(b) + " but there are " + std::to_string(d.blocks));
      }
    }
  }
  return d;
}

}  // namespace

schedule schedule_from_json(std::string_view text) {
  return schedule_from_value(parse_json_text(text, "schedule"));
}

schedule schedule_from_value(const json& j) {
  if (!j.is_object()) throw input_error("schedule must be a JSON object");
  schedule s;
  if (!j.contains("tiles")) throw input_error("schedule has no \"tiles\"");
  s.tiles = static_cast<std::uint32_t>(get_uint(j, "tiles", "schedule", 0, max_tiles));
  if (s.tiles < 1) throw input_error("schedule.tiles = 0: at least one tile is needed");
  if (!j.contains("ops") || !j.at("ops").is_array()) {
    throw input_error("schedule has no \"ops\" array");
  }
  const json& ops = j.at("ops");
  if (ops.size() != s.tiles) {
    throw input_error("schedule.ops has " + std::to_string(ops.size()) + " op lists for " +
                      std::to_string(s.tiles) + " tiles");
  }
  s.collective = get_string(j, "collective");
  s.algorithm = get_string(j, "algorithm");
  s.block_bytes = get_uint(j, "block_bytes", "schedule", 0, std::uint64_t{1} << 40);

  s.programs.resize(s.tiles);
  std::uint64_t total = 0;
  std::vector<std::uint32_t> send;
  std::vector<std::uint32_t> recv;
  for (std::uint32_t t = 0; t < s.tiles; ++t) {
    const json& list = ops.at(t);
    if (!list.is_array()) throw input_error("ops[" + std::to_string(t) + "] is not an array");
    total += list.size();
    if (total > max_file_ops) {
      throw input_error("schedule has more than " + std::to_string(max_file_ops) + " ops");
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const sched_op o =
          parse_op(list.at(i), where(t, i), s.tiles, t, i, s.block_bytes, send, recv);
      s.programs[t].add(o, send, recv);
    }
  }

  if (j.contains("delivery")) {
    s.delivery = parse_delivery(j.at("delivery"), s.tiles);
  } else if (s.collective == "alltoall") {
    if (s.tiles > max_alltoall_tiles) {
      throw input_error("schedule.tiles = " + std::to_string(s.tiles) +
                        " is too many for an alltoall check (at most " +
                        std::to_string(max_alltoall_tiles) + ")");
    }
    s.delivery = alltoall_delivery(s.tiles);
  }
  return s;
}

std::string schedule_to_json(const schedule& s) {
  json j;
  j["format"] = "tessera-schedule";
  j["version"] = 1;
  j["tiles"] = s.tiles;
  if (!s.collective.empty()) j["collective"] = s.collective;
  if (!s.algorithm.empty()) j["algorithm"] = s.algorithm;
  if (s.block_bytes) j["block_bytes"] = s.block_bytes;
  json ops = json::array();
  for (const auto& prog : s.programs) {
    json list = json::array();
    for (const auto& o : prog.ops) {
      json e;
      e["op"] = std::string(op_name(o.kind));
      e["step"] = o.step;
      switch (o.kind) {
        case op_kind::send:
          e["peer"] = o.to;
          e["bytes"] = o.send_bytes;
          break;
        case op_kind::recv:
          e["peer"] = o.from;
          e["bytes"] = o.recv_bytes;
          break;
        case op_kind::exchange:
          e["peer"] = o.to;
          e["bytes"] = o.send_bytes;
          if (o.recv_bytes != o.send_bytes) e["recv_bytes"] = o.recv_bytes;
          break;
        case op_kind::sendrecv:
          e["to"] = o.to;
          e["from"] = o.from;
          e["bytes"] = o.send_bytes;
          if (o.recv_bytes != o.send_bytes) e["recv_bytes"] = o.recv_bytes;
          break;
        case op_kind::pair_sync:
          e["peer"] = o.to;
          break;
        case op_kind::shuffle:
          e["count"] = o.count;
          break;
        case op_kind::combine:
        case op_kind::idle:
        case op_kind::barrier:
          break;
      }
      if ((o.flags & op_flag::release) != 0) e["release"] = true;
      if ((o.flags & op_flag::combine_in) != 0) e["combine_in"] = true;
      const auto sb = prog.send_blocks(o);
      const auto rb = prog.recv_blocks(o);
      if (!sb.empty()) e["send_blocks"] = std::vector<std::uint32_t>(sb.begin(), sb.end());
      if (!rb.empty()) e["recv_blocks"] = std::vector<std::uint32_t>(rb.begin(), rb.end());
      list.push_back(std::move(e));
    }
    ops.push_back(std::move(list));
  }
  j["ops"] = std::move(ops);
  return j.dump();
}

}  // namespace tessera
