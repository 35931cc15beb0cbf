#include "tessera/pictures/trace.hpp"

#include <algorithm>
#include <tuple>

#include <nlohmann/json.hpp>

#include "trace_parts.hpp"

namespace tessera::pictures {
namespace {

// Process ids of the trace's two groups of tracks.
constexpr int tiles_pid = 1;
constexpr int steps_pid = 2;
constexpr int links_pid = 3;

class event_writer {
 public:
  event_writer(std::ostream& os, double us_per_cycle) : os_{os}, scale_{us_per_cycle} {}

  // ts and dur in the trace's unit: microseconds with a machine, else cycles.
  [[nodiscard]] nlohmann::ordered_json time(std::uint64_t cycles) const {
    if (scale_ > 0.0) return static_cast<double>(cycles) * scale_;
    return cycles;
  }

  void put(const nlohmann::ordered_json& e) {
    os_ << (first_ ? "\n" : ",\n") << e.dump();
    first_ = false;
  }

  void meta(int pid, int tid, const char* what, const nlohmann::ordered_json& args) {
    nlohmann::ordered_json e{{"ph", "M"}, {"name", what}, {"pid", pid}};
    if (tid >= 0) e["tid"] = tid;
    e["args"] = args;
    put(e);
  }

 private:
  std::ostream& os_;
  double scale_;
  bool first_{true};
};

}  // namespace

namespace detail {

bool kept(const trace_filter& f, std::uint32_t tile) {
  return f.tiles.empty() || (tile < f.tiles.size() && f.tiles[tile]);
}

bool overlaps(const trace_filter& f, std::uint64_t a, std::uint64_t b) {
  return b >= f.from && a < f.to;
}

namespace {

std::string peer_text(std::uint32_t to, std::uint32_t from) {
  if (to != no_tile && from != no_tile && to != from)
    return " to " + std::to_string(to) + " from " + std::to_string(from);
  if (to != no_tile) return (from == to ? " with " : " to ") + std::to_string(to);
  if (from != no_tile) return " from " + std::to_string(from);
  return {};
}

}  // namespace

std::pair<std::string, const char*> span_name(const harness::op_span& s) {
  using what = harness::op_span::what;
  switch (s.is) {
    case what::prologue:
      return {"prologue", "prologue"};
    case what::drain:
      return {"drain", "drain"};
    case what::wait: {
      const tile_wait w{s.waits, s.from, s.step};
      return {"wait for " + harness::wait_text(w), "wait"};
    }
    case what::op:
      break;
  }
  const bool local = s.kind == op_kind::shuffle || s.kind == op_kind::combine;
  return {std::string(op_name(s.kind)) + peer_text(s.to, s.from), local ? "compute" : "op"};
}

std::vector<const harness::op_span*> kept_spans(const trace_data& d, const trace_filter& f) {
  std::vector<const harness::op_span*> order;
  order.reserve(d.spans.size());
  for (const harness::op_span& s : d.spans)
    if (kept(f, s.tile) && overlaps(f, s.start, s.end)) order.push_back(&s);
  std::sort(order.begin(), order.end(), [](const harness::op_span* a, const harness::op_span* b) {
    const bool aw = a->is == harness::op_span::what::wait;
    const bool bw = b->is == harness::op_span::what::wait;
    return std::make_tuple(a->tile, a->start, aw, b->end) <
           std::make_tuple(b->tile, b->start, bw, a->end);
  });
  return order;
}

std::string message_name(const harness::transfer_record& t) {
  return std::string(msg_kind_name(t.header.kind)) + " " + std::to_string(t.header.src) + "->" +
         std::to_string(t.header.dst);
}

std::size_t take_lane(std::vector<std::uint64_t>& lane_end, std::uint64_t start,
                      std::uint64_t end) {
  std::size_t lane = 0;
  while (lane < lane_end.size() && lane_end[lane] > start)
    ++lane;
  if (lane == lane_end.size()) lane_end.push_back(0);
  lane_end[lane] = end;
  return lane;
}

std::string lane_name(const link_track& t, std::size_t lane) {
  return lane == 0 ? t.name : t.name + " (" + std::to_string(lane + 1) + ")";
}

std::string port_name(const fabric& f, std::uint32_t port) {
  switch (f.kind) {
    case fabric_kind::hypercube:
      return "dim " + std::to_string(port);
    case fabric_kind::ring:
      return port == 0 ? "+1" : "-1";
    default:
      return std::string(1, "EWSN"[port % 4]);
  }
}

std::vector<link_track> link_tracks(const trace_data& d, const trace_filter& f) {
  std::vector<const net::link_busy*> busy;
  for (const net::link_busy& b : d.links) {
    if ((kept(f, b.from) || kept(f, b.to)) && overlaps(f, b.start, b.end)) busy.push_back(&b);
  }
  std::sort(busy.begin(), busy.end(), [](const net::link_busy* a, const net::link_busy* b) {
    return std::make_tuple(a->from, a->port, a->start, a->end) <
           std::make_tuple(b->from, b->port, b->start, b->end);
  });
  std::vector<link_track> out;
  for (std::size_t i = 0; i < busy.size();) {
    const net::link_busy& first = *busy[i];
    link_track t;
    t.name = std::to_string(first.from) + "->" + std::to_string(first.to) + " " +
             port_name(d.f, first.port);
    std::vector<std::uint64_t> lane_end;
    for (; i < busy.size() && busy[i]->from == first.from && busy[i]->port == first.port; ++i)
      t.held.emplace_back(busy[i], take_lane(lane_end, busy[i]->start, busy[i]->end));
    t.lanes = lane_end.size();
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace detail

trace_counts write_trace(std::ostream& os, const trace_data& d, const trace_filter& f) {
  trace_counts n;
  const bool cycles_unit = d.us_per_cycle <= 0.0;
  nlohmann::ordered_json head;
  head["tessera"] = {{"run", d.title},
                     {"link_tracks", !d.links.empty()},
                     {"model", d.model},
                     {"tiles", d.f.tiles()},
                     {"cycles", d.cycles},
                     {"time_unit", cycles_unit ? "cycle" : "us"},
                     {"us_per_cycle", d.us_per_cycle},
                     {"op_spans", d.spans_recorded}};
  if (!f.tiles.empty()) {
    auto kept_tiles = nlohmann::ordered_json::array();
    for (std::uint32_t t = 0; t < f.tiles.size(); ++t)
      if (f.tiles[t]) kept_tiles.push_back(t);
    head["tessera"]["kept_tiles"] = std::move(kept_tiles);
  }
  if (f.from > 0 || f.to != trace_filter{}.to) {
    head["tessera"]["window"] = {f.from, f.to == trace_filter{}.to ? d.cycles : f.to};
  }
  // The viewers read ts in microseconds; with no machine one cycle is shown as one.
  os << "{\"displayTimeUnit\": \"ns\",\n\"otherData\": " << head.dump() << ",\n\"traceEvents\": [";
  event_writer w{os, d.us_per_cycle};

  w.meta(tiles_pid, -1, "process_name", {{"name", "tiles"}});
  w.meta(tiles_pid, -1, "process_sort_index", {{"sort_index", 0}});
  for (std::uint32_t t = 0; t < d.f.tiles(); ++t) {
    if (!detail::kept(f, t)) continue;
    w.meta(tiles_pid, static_cast<int>(t), "thread_name", {{"name", "tile " + std::to_string(t)}});
    w.meta(tiles_pid, static_cast<int>(t), "thread_sort_index", {{"sort_index", t}});
  }
  w.meta(steps_pid, -1, "process_name", {{"name", "steps"}});
  w.meta(steps_pid, -1, "process_sort_index", {{"sort_index", 1}});
  w.meta(steps_pid, 0, "thread_name", {{"name", "steps"}});

  // By tile and time, an op before the waits inside it, so a viewer nests them.
  const std::vector<const harness::op_span*> order = detail::kept_spans(d, f);
  for (const harness::op_span* sp : order) {
    const harness::op_span& s = *sp;
    const auto [name, cat] = detail::span_name(s);
    nlohmann::ordered_json e{{"ph", "X"},
                             {"name", name},
                             {"cat", cat},
                             {"pid", tiles_pid},
                             {"tid", s.tile},
                             {"ts", w.time(s.start)},
                             {"dur", w.time(s.end - s.start)}};
    nlohmann::ordered_json args{{"start_cycle", s.start}, {"end_cycle", s.end}};
    if (s.index > 0) args["op"] = s.index - 1;  // 0-based, as run reports count ops
    if (s.step > 0) args["step"] = s.step;
    e["args"] = std::move(args);
    w.put(e);
    ++n.spans;
  }

  // Messages: a flow from the sender (when the network took it) to the receiver (when
  // it was delivered), each bound to the span enclosing it on that tile's track.
  std::uint64_t id = 0;
  for (const harness::transfer_record& t : d.transfers) {
    ++id;
    const std::uint32_t src = t.header.src;
    const std::uint32_t dst = t.header.dst;
    if ((!detail::kept(f, src) && !detail::kept(f, dst)) || !detail::overlaps(f, t.start, t.end))
      continue;
    const std::string name = detail::message_name(t);
    nlohmann::ordered_json args{{"bytes", t.header.bytes},
                                {"step", t.header.tag},
                                {"start_cycle", t.start},
                                {"end_cycle", t.end}};
    w.put({{"ph", "s"},
           {"name", name},
           {"cat", "message"},
           {"id", id},
           {"pid", tiles_pid},
           {"tid", src},
           {"ts", w.time(t.start)},
           {"args", args}});
    w.put({{"ph", "f"},
           {"bp", "e"},
           {"name", name},
           {"cat", "message"},
           {"id", id},
           {"pid", tiles_pid},
           {"tid", dst},
           {"ts", w.time(t.end)},
           {"args", args}});
    ++n.messages;
  }

  // Steps overlap (a step begins on some tiles while others finish the last): async
  // slices, which the viewers lay out in lanes of their own.
  for (const harness::step_timing& s : d.steps) {
    if (!detail::overlaps(f, s.start, s.end)) continue;
    const std::string name = "step " + std::to_string(s.step);
    w.put({{"ph", "b"},
           {"name", name},
           {"cat", "step"},
           {"id", s.step},
           {"pid", steps_pid},
           {"tid", 0},
           {"ts", w.time(s.start)},
           {"args",
            {{"messages", s.messages},
             {"bytes", s.bytes},
             {"start_cycle", s.start},
             {"end_cycle", s.end}}}});
    w.put({{"ph", "e"},
           {"name", name},
           {"cat", "step"},
           {"id", s.step},
           {"pid", steps_pid},
           {"tid", 0},
           {"ts", w.time(s.end)}});
    ++n.steps;
  }
  // Links: a track per directed link, and a second (third, ...) lane where intervals
  // overlap.
  const std::vector<detail::link_track> tracks = detail::link_tracks(d, f);
  if (!tracks.empty()) {
    w.meta(links_pid, -1, "process_name", {{"name", "links"}});
    w.meta(links_pid, -1, "process_sort_index", {{"sort_index", 2}});
  }
  int tid = 0;
  for (const detail::link_track& track : tracks) {
    std::vector<int> lane_tid;
    for (const auto& [bp, lane] : track.held) {
      const net::link_busy& b = *bp;
      if (lane == lane_tid.size()) {  // a lane's first interval
        lane_tid.push_back(tid);
        w.meta(links_pid, tid, "thread_name", {{"name", detail::lane_name(track, lane)}});
        w.meta(links_pid, tid, "thread_sort_index", {{"sort_index", tid}});
        ++tid;
      }
      w.put({{"ph", "X"},
             {"name", std::to_string(b.src) + "->" + std::to_string(b.dst)},
             {"cat", "link"},
             {"pid", links_pid},
             {"tid", lane_tid[lane]},
             {"ts", w.time(b.start)},
             {"dur", w.time(b.end - b.start)},
             {"args", {{"link", track.name}, {"start_cycle", b.start}, {"end_cycle", b.end}}}});
      ++n.link_spans;
    }
  }
  os << "\n]}\n";
  return n;
}

}  // namespace tessera::pictures
