// What the JSON trace (trace.cpp), the timeline picture (timeline.cpp) and the heat map
// (heatmap.cpp) take alike from a run's trace_data: which parts a filter keeps, the names
// of spans, messages, links and link tracks, and the lanes that overlapping intervals go
// to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tessera/pictures/trace.hpp"

namespace tessera::pictures::detail {

bool kept(const trace_filter& f, std::uint32_t tile);

// [a, b] overlaps the window [from, to) (a zero-length interval at `from` counts).
bool overlaps(const trace_filter& f, std::uint64_t a, std::uint64_t b);

// The span's name on its track ("exchange with 3", "wait for data from tile 3 (step
// 2)") and its category (op, compute, wait, prologue, drain).
std::pair<std::string, const char*> span_name(const harness::op_span& s);

// The spans the filter keeps, by tile and time, an op before the waits inside it (a
// wait may start and end with its op), so they nest as they happened.
std::vector<const harness::op_span*> kept_spans(const trace_data& d, const trace_filter& f);

// A directed link's name by its port, as the engines' link reports name it: E, W, S,
// N on meshes and tori, +1 and -1 on rings, dim k on hypercubes.
std::string port_name(const fabric& f, std::uint32_t port);

// "data 3->7", "sync 0->1".
std::string message_name(const harness::transfer_record& t);

// The first lane free at `start` (a new one when none is), then held until `end`.
std::size_t take_lane(std::vector<std::uint64_t>& lane_end, std::uint64_t start, std::uint64_t end);

// A directed link's kept intervals in start order, each with its lane: a second (third,
// ...) lane where intervals overlap (two worms on a link's two virtual channels).
struct link_track {
  std::string name;  // "3->7 dim 2"
  std::vector<std::pair<const net::link_busy*, std::size_t>> held;
  std::size_t lanes{0};
};

// The lane's name: the track's, with " (2)", " (3)", ... from the second lane on.
std::string lane_name(const link_track& t, std::size_t lane);

// The links the filter keeps (either end kept, an interval in the window), by link.
std::vector<link_track> link_tracks(const trace_data& d, const trace_filter& f);

}  // namespace tessera::pictures::detail
