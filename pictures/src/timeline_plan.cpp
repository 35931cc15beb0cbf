#include "timeline_plan.hpp"

#include <cmath>
#include <numbers>
#include <tuple>

#include "trace_parts.hpp"

namespace tessera::pictures::detail {

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

plan make_plan(const trace_data& d, const trace_filter& f) {
  plan p;
  // The window: to the filter's end, else to the run's end (or the last thing drawn,
  // for a run that stopped early).
  p.axis.from = f.from;
  std::uint64_t end = d.cycles;
  if (f.to == trace_filter{}.to) {
    for (const harness::op_span& s : d.spans)
      end = std::max(end, s.end);
    for (const harness::transfer_record& t : d.transfers)
      end = std::max(end, t.end);
    for (const harness::step_timing& s : d.steps)
      end = std::max(end, s.end);
    for (const net::link_busy& b : d.links)
      end = std::max<std::uint64_t>(end, b.end);
  } else {
    end = f.to;
  }
  p.axis.to = std::max(end, f.from + 1);
  p.axis.us_per_cycle = d.us_per_cycle;
  p.axis.k = plot_width / static_cast<double>(p.axis.to - p.axis.from);

  p.row_of.assign(d.f.tiles(), no_row);
  for (std::uint32_t t = 0; t < d.f.tiles(); ++t) {
    if (!kept(f, t)) continue;
    ++p.tiles_kept;
    if (p.tiles.size() == timeline_max_tile_rows) continue;
    p.row_of[t] = static_cast<std::uint32_t>(p.tiles.size());
    p.tiles.push_back({t, {}, {}});
  }
  for (const harness::op_span* s : kept_spans(d, f)) {
    const std::uint32_t row = s->tile < p.row_of.size() ? p.row_of[s->tile] : no_row;
    if (row == no_row) {
      ++p.spans_without_row;
      continue;
    }
    (s->is == harness::op_span::what::wait ? p.tiles[row].waits : p.tiles[row].ops).push_back(s);
  }

  // Steps overlap (some tiles start a step while others finish the last): lanes.
  std::vector<const harness::step_timing*> steps;
  for (const harness::step_timing& s : d.steps)
    if (overlaps(f, s.start, s.end)) steps.push_back(&s);
  std::sort(steps.begin(), steps.end(),
            [](const harness::step_timing* a, const harness::step_timing* b) {
              return std::tie(a->start, a->step) < std::tie(b->start, b->step);
            });
  std::vector<std::uint64_t> lane_end;
  for (const harness::step_timing* s : steps) {
    const std::size_t lane = take_lane(lane_end, s->start, s->end);
    if (lane >= timeline_max_step_lanes) {
      ++p.steps_left_out;
      continue;
    }
    if (lane == p.step_lanes.size()) p.step_lanes.emplace_back();
    p.step_lanes[lane].push_back(s);
  }

  for (const link_track& track : link_tracks(d, f)) {
    if (p.links.size() + track.lanes > timeline_max_link_rows) {
      p.link_rows_left_out += track.lanes;
      p.link_spans_left_out += track.held.size();
      continue;
    }
    const std::size_t base = p.links.size();
    for (std::size_t lane = 0; lane < track.lanes; ++lane)
      p.links.push_back({lane_name(track, lane), {}});
    for (const auto& [b, lane] : track.held)
      p.links[base + lane].held.push_back(b);
  }
  return p;
}

bar_tally tally_bars(const plan& p, double min_px) {
  bar_tally t;
  auto one = [&](const auto&) { ++t.bars; };
  auto many = [&](std::size_t, std::size_t n, std::uint64_t) {
    ++t.bars;
    ++t.merged;
    t.merged_in += n;
  };
  for (const tile_row& r : p.tiles) {
    lay_out(r.ops, p.axis, min_px, one, many);
    for (const harness::op_span* w : r.waits) {
      if (p.axis.x(w->end) - p.axis.x(w->start) >= min_px) {
        ++t.bars;
      } else {
        ++t.waits_dropped;
      }
    }
  }
  for (const auto& lane : p.step_lanes)
    lay_out(lane, p.axis, min_px, one, many);
  for (const link_row& r : p.links)
    lay_out(r.held, p.axis, min_px, one, many);
  return t;
}

// Past the plot's width every lane is at most one bar, so the search ends.
double merge_width(const plan& p) {
  double min_px = 0;
  while (tally_bars(p, min_px).bars > timeline_max_bars)
    min_px = min_px == 0 ? 0.5 : min_px * std::numbers::sqrt2;
  return min_px;
}

std::vector<double> ticks(const time_axis& a) {
  const double lo = a.unit(a.from);
  const double hi = a.unit(a.to);
  const double raw = (hi - lo) / 8;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  std::vector<double> out;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; k += 1)
    out.push_back(k == 0 ? 0.0 : k * step);  // never "-0"
  return out;
}

double tick_x(const time_axis& a, double v) {
  return plot_x + (v - a.unit(a.from)) * (plot_width / (a.unit(a.to) - a.unit(a.from)));
}

}  // namespace tessera::pictures::detail
