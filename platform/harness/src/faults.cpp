#include "tessera/harness/faults.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::harness {
namespace {

constexpr std::uint64_t max_cycle = std::uint64_t{1} << 60;

// Reads a decimal number at `pos` (advancing it); false if there is none or it is
// larger than `max`.
bool number(std::string_view s, std::size_t& pos, std::uint64_t max, std::uint64_t& out) {
  const std::size_t start = pos;
  std::uint64_t v = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    const auto d = static_cast<std::uint64_t>(s[pos] - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
    ++pos;
  }
  out = v;
  return pos > start;
}

bool literal(std::string_view s, std::size_t& pos, std::string_view lit) {
  if (s.substr(pos, lit.size()) != lit) return false;
  pos += lit.size();
  return true;
}

std::string tile_range(const fabric& f) {
  return "tiles 0.." + std::to_string(f.tiles() - 1);
}

}  // namespace

const char* fault_kind_name(fault_kind k) {
  switch (k) {
    case fault_kind::link:
      return "link";
    case fault_kind::drop:
      return "drop";
    case fault_kind::stall:
      return "stall";
    case fault_kind::corrupt:
      return "corrupt";
  }
  return "?";
}

const char* loss_cause_name(loss_cause c) {
  switch (c) {
    case loss_cause::dropped:
      return "dropped";
    case loss_cause::corrupted:
      return "corrupted";
    case loss_cause::undeliverable:
      return "undeliverable";
    case loss_cause::cut:
      return "cut in flight";
  }
  return "?";
}

fault_spec parse_fault(std::string_view text, const fabric& f) {
  const std::string quoted = "--fault '" + shown(text) + "'";
  const auto eq = text.find('=');
  const std::string_view kind = eq == std::string_view::npos ? text : text.substr(0, eq);
  fault_spec s;
  std::string form;
  if (kind == "link") {
    s.kind = fault_kind::link;
    form = "link=A-B@T";
  } else if (kind == "drop") {
    s.kind = fault_kind::drop;
    form = "drop=S->D#N";
  } else if (kind == "stall") {
    s.kind = fault_kind::stall;
    form = "stall=T@C+D";
  } else if (kind == "corrupt") {
    s.kind = fault_kind::corrupt;
    form = "corrupt=S->D#N";
  } else {
    throw input_error(quoted +
                      " is not a fault (link=A-B@T, drop=S->D#N, stall=T@C+D, corrupt=S->D#N)");
  }
  const std::string_view body = eq == std::string_view::npos ? "" : text.substr(eq + 1);
  std::size_t pos = 0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint64_t x = 0;
  std::uint64_t y = 0;
  bool ok = false;
  switch (s.kind) {
    case fault_kind::link:
      ok = number(body, pos, max_cycle, a) && literal(body, pos, "-") &&
           number(body, pos, max_cycle, b) && literal(body, pos, "@") &&
           number(body, pos, max_cycle, x);
      break;
    case fault_kind::drop:
    case fault_kind::corrupt:
      ok = number(body, pos, max_cycle, a) && literal(body, pos, "->") &&
           number(body, pos, max_cycle, b) && literal(body, pos, "#") &&
           number(body, pos, max_cycle, y);
      break;
    case fault_kind::stall:
      ok = number(body, pos, max_cycle, a) && literal(body, pos, "@") &&
           number(body, pos, max_cycle, x) && literal(body, pos, "+") &&
           number(body, pos, max_cycle, y);
      break;
  }
  if (!ok || pos != body.size()) {
    throw input_error(quoted + " is not " + form + " (whole numbers, at most 2^60)");
  }
  const std::uint32_t p = f.tiles();
  if (a >= p) {
    throw input_error(quoted + ": tile " + std::to_string(a) + " is not on the fabric (" +
                      tile_range(f) + ")");
  }
  if (s.kind != fault_kind::stall && b >= p) {
    throw input_error(quoted + ": tile " + std::to_string(b) + " is not on the fabric (" +
                      tile_range(f) + ")");
  }
  s.a = static_cast<std::uint32_t>(a);
  s.b = static_cast<std::uint32_t>(b);
  s.at = x;
  s.n = y;
  switch (s.kind) {
    case fault_kind::link: {
      bool neighbours = false;
      for (std::uint32_t port = 0; port < f.ports(); ++port) {
        const auto nb = neighbour(f, tile_id{s.a}, port);
        neighbours = neighbours || (nb && nb->value() == s.b);
      }
      if (!neighbours) {
        throw input_error(quoted + ": tiles " + std::to_string(s.a) + " and " +
                          std::to_string(s.b) + " are not neighbours, so no link joins them");
      }
      s.text =
          "link=" + std::to_string(s.a) + "-" + std::to_string(s.b) + "@" + std::to_string(s.at);
      break;
    }
    case fault_kind::drop:
    case fault_kind::corrupt:
      if (s.a == s.b) {
        throw input_error(quoted + ": source and destination are both tile " + std::to_string(s.a) +
                          " (messages cross the fabric)");
      }
      if (s.n == 0) throw input_error(quoted + ": messages are counted from 1, not 0");
      s.text = std::string(fault_kind_name(s.kind)) + "=" + std::to_string(s.a) + "->" +
               std::to_string(s.b) + "#" + std::to_string(s.n);
      break;
    case fault_kind::stall:
      if (s.n == 0) throw input_error(quoted + ": a stall of 0 cycles does nothing");
      s.text =
          "stall=" + std::to_string(s.a) + "@" + std::to_string(s.at) + "+" + std::to_string(s.n);
      break;
  }
  return s;
}

std::vector<fault_spec> parse_fault_list(std::string_view text, const fabric& f,
                                         const std::string& origin) {
  std::vector<fault_spec> out;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    // '#' also appears inside drop and corrupt faults: a comment starts at a '#' that
    // begins the line or follows white space.
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
        line = line.substr(0, i);
        break;
      }
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
      line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
      line.remove_prefix(1);
    if (line.empty()) continue;
    if (out.size() == max_faults) {
      throw input_error(origin + " lists more than " + std::to_string(max_faults) + " faults");
    }
    try {
      out.push_back(parse_fault(line, f));
    } catch (const input_error& e) {
      throw input_error(origin + " line " + std::to_string(line_no) + ": " + e.what());
    }
  }
  return out;
}

void refuse_repeats(const std::vector<fault_spec>& specs) {
  std::unordered_set<std::string_view> seen;
  for (const fault_spec& s : specs) {
    if (!seen.insert(s.text).second) {
      throw input_error("the fault " + s.text +
                        " is given twice (--fault and --fault-file give each fault once)");
    }
  }
}

fault_injector::fault_injector(const fabric& f, std::vector<fault_spec> specs)
    : f_{f}, specs_{std::move(specs)}, effects_(specs_.size()) {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const fault_spec& s = specs_[i];
    if (s.kind != fault_kind::link) continue;
    for (std::uint32_t port = 0; port < f_.ports(); ++port) {
      const auto nb = neighbour(f_, tile_id{s.a}, port);
      if (!nb || nb->value() != s.b) continue;
      const std::uint32_t link = make_link(f_, tile_id{s.a}, port).value();
      const auto it = link_fault_.find(link);
      if (it == link_fault_.end() || specs_[it->second].at > s.at) link_fault_[link] = i;
    }
  }
}

bool fault_injector::has_kind(fault_kind k) const {
  return std::any_of(specs_.begin(), specs_.end(),
                     [k](const fault_spec& s) { return s.kind == k; });
}

void fault_injector::route_of(std::uint32_t src, std::uint32_t dst) {
  path_.clear();
  if (route_) {
    route_(src, dst, path_);
    return;
  }
  for_each_hop(f_, tile_id{src}, tile_id{dst}, [&](link_id l) { path_.push_back(l.value()); });
}

std::size_t fault_injector::down_on_route(std::uint64_t t) const {
  for (const std::uint32_t l : path_) {
    const auto it = link_fault_.find(l);
    if (it != link_fault_.end() && specs_[it->second].at <= t) return it->second;
  }
  return specs_.size();
}

void fault_injector::act(std::size_t fault, std::uint64_t now) {
  fault_effect& e = effects_[fault];
  if (!e.acted) e.first_cycle = now;
  e.acted = true;
  ++e.messages;
}

loss_record fault_injector::record(const msg_header& h, std::uint64_t now, std::size_t fault,
                                   loss_cause cause) const {
  loss_record r;
  r.header = h;
  r.block = h.first_block;
  r.cycle = now;
  r.fault = fault;
  r.cause = cause;
  if (specs_[fault].kind == fault_kind::link) {
    r.link_from = specs_[fault].a;
    r.link_to = specs_[fault].b;
  }
  return r;
}

void fault_injector::lose(const msg_header& h, std::uint64_t now, std::size_t fault,
                          loss_cause cause) {
  act(fault, now);
  losses_.push_back(record(h, now, fault, cause));
}

bool fault_injector::admit(const msg_header& h, std::uint64_t id, std::uint64_t now) {
  if (specs_.empty()) return true;
  if (!link_fault_.empty()) {
    route_of(h.src, h.dst);
    const std::size_t down = down_on_route(now);
    if (down < specs_.size()) {
      lose(h, now, down, loss_cause::undeliverable);
      return false;
    }
  }
  if (h.kind != msg_kind::data) return true;
  const std::uint64_t pair = (std::uint64_t{h.src} << 32) | h.dst;
  std::uint64_t& count = sent_[pair];
  ++count;
  // Every drop and corrupt aimed at this message (one of each at most: parsing refuses
  // a fault given twice), in the order given.
  doomed d;
  for (std::size_t i = 0; i < specs_.size() && d.count < d.faults.size(); ++i) {
    const fault_spec& s = specs_[i];
    if ((s.kind == fault_kind::drop || s.kind == fault_kind::corrupt) && s.a == h.src &&
        s.b == h.dst && s.n == count) {
      d.faults[d.count++] = i;
    }
  }
  if (d.count > 0) doomed_.emplace(id, d);
  return true;
}

bool fault_injector::deliver(const msg_header& h, std::uint64_t id, std::span<std::byte> payload,
                             std::uint64_t admitted, std::uint64_t now) {
  if (specs_.empty()) return true;
  // The faults that meet the message, in the order given: a link on its route that
  // failed while it was in flight, and the drop and corrupt aimed at it. Each acts on
  // what the ones before it left: once the message is lost, the rest find nothing.
  std::array<std::size_t, 3> meet{};
  std::size_t n = 0;
  if (!link_fault_.empty()) {
    route_of(h.src, h.dst);
    const std::size_t down = down_on_route(now);
    if (down < specs_.size() && specs_[down].at > admitted) meet[n++] = down;
  }
  if (const auto it = doomed_.find(id); it != doomed_.end()) {
    for (std::size_t k = 0; k < it->second.count; ++k)
      meet[n++] = it->second.faults[k];
    doomed_.erase(it);
  }
  for (std::size_t k = 1; k < n; ++k) {  // at most three: into the order given
    for (std::size_t j = k; j > 0 && meet[j - 1] > meet[j]; --j)
      std::swap(meet[j - 1], meet[j]);
  }
  std::optional<loss_record> damaged;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = meet[k];
    switch (specs_[i].kind) {
      case fault_kind::link:
        // Lost: a damage before it is moot (the fault that damaged it still acted).
        lose(h, now, i, loss_cause::cut);
        return false;
      case fault_kind::drop:
        lose(h, now, i, loss_cause::dropped);
        return false;
      case fault_kind::corrupt:
        if (payload.empty()) break;  // nothing to flip: the fault does not act
        damaged = flip(h, payload, now, i);
        break;
      case fault_kind::stall:
        break;
    }
  }
  if (damaged) losses_.push_back(*damaged);
  return true;
}

loss_record fault_injector::flip(const msg_header& h, std::span<std::byte> payload,
                                 std::uint64_t now, std::size_t fault) {
  const std::size_t dir = dir_bytes(h.blocks);
  const std::size_t at =
      payload.size() > dir ? dir + (payload.size() - dir) / 2 : payload.size() / 2;
  payload[at] = ~payload[at];
  act(fault, now);
  loss_record r = record(h, now, fault, loss_cause::corrupted);
  r.byte = at;
  // The block holding the byte, from the directory (the byte may be in it).
  if (at >= dir && payload.size() >= dir) {
    std::size_t from = dir;
    for (std::uint32_t k = 0; k < h.blocks; ++k) {
      const dir_entry e = read_dir(payload.data(), k);
      if (at < from + e.len) {
        r.block = e.id;
        r.byte = at - from;
        break;
      }
      from += e.len;
    }
  }
  return r;
}

std::uint64_t fault_injector::resume_at(std::uint32_t t, std::uint64_t now) {
  std::uint64_t until = now;
  bool moved = true;
  while (moved) {
    moved = false;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
      const fault_spec& s = specs_[i];
      if (s.kind != fault_kind::stall || s.a != t) continue;
      const std::uint64_t end = s.at + s.n;
      if (until >= s.at && until < end) {
        // Held from the first time the tile wanted to run in the stall to its end.
        fault_effect& e = effects_[i];
        if (!e.acted) {
          e.first_cycle = until;
          e.held_cycles = end - until;
        }
        e.acted = true;
        until = end;
        moved = true;
      }
    }
  }
  return until;
}

std::string fault_injector::cause_text(const loss_record& r) const {
  std::ostringstream os;
  const fault_spec& s = specs_[r.fault];
  switch (r.cause) {
    case loss_cause::dropped:
      os << "dropped in the fabric at cycle " << r.cycle;
      break;
    case loss_cause::corrupted:
      os << "byte " << r.byte << " of block " << r.block << " flipped at cycle " << r.cycle;
      break;
    case loss_cause::undeliverable:
      os << "undeliverable: link " << r.link_from << "->" << r.link_to << " down since cycle "
         << s.at;
      break;
    case loss_cause::cut:
      os << "cut in flight: link " << r.link_from << "->" << r.link_to << " went down at cycle "
         << s.at;
      break;
  }
  os << " (fault " << s.text << ")";
  return os.str();
}

std::string fault_injector::loss_text(const loss_record& r) const {
  std::ostringstream os;
  const msg_header& h = r.header;
  if (h.kind != msg_kind::data) {
    os << "the " << msg_kind_name(h.kind) << " message from tile " << h.src << " to tile " << h.dst
       << " (tag " << h.tag << "): " << cause_text(r);
    return os.str();
  }
  const fault_spec& s = specs_[r.fault];
  switch (r.cause) {
    case loss_cause::dropped:
      os << "tile " << h.dst << " lost block " << r.block << " from tile " << h.src << " (step "
         << h.tag << "): dropped in the fabric at cycle " << r.cycle;
      break;
    case loss_cause::corrupted:
      os << "tile " << h.dst << " got block " << r.block << " from tile " << h.src << " (step "
         << h.tag << ") with byte " << r.byte << " flipped at cycle " << r.cycle;
      break;
    case loss_cause::undeliverable:
    case loss_cause::cut:
      os << "tile " << h.dst << " never got block " << r.block << " from tile " << h.src
         << " (step " << h.tag << "): " << cause_text(r);
      return os.str();
  }
  os << " (fault " << s.text << ")";
  return os.str();
}

}  // namespace tessera::harness
