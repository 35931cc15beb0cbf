#include "tessera/pictures/load_latency.hpp"

#include <algorithm>
#include <map>

#include "tessera/pictures/svg.hpp"

namespace tessera::pictures {

figure load_latency_figure(const std::vector<load_run>& runs) {
  figure fig;
  fig.id = "load-latency";
  fig.title = "latency against offered load";
  fig.x_label = "offered load, packets/tile/cycle";
  fig.y_label = "latency, cycles";
  fig.log_y = true;
  std::map<std::string, std::vector<const load_run*>> groups;
  double lo = 0;
  double hi = 0;
  for (const load_run& r : runs) {
    groups[r.series].push_back(&r);
    if (r.offered) {
      lo = lo == 0 ? *r.offered : std::min(lo, *r.offered);
      hi = std::max(hi, *r.offered);
    }
  }
  fig.log_x = lo > 0 && hi / lo >= 10;
  double ymin = 0;
  double ymax = 0;
  for (const auto& [label, list] : groups) {
    series avg{label.empty() ? "average" : label + ", average", false, {}, label};
    series p99{label.empty() ? "p99" : label + ", p99", true, {}, label};
    double capacity = 0;
    for (const load_run* r : list) {
      if (!r->offered || !r->accepted) continue;
      capacity = std::max(capacity, *r->accepted);
      if (!r->average) continue;  // saturated: latency_unbounded
      avg.points.emplace_back(*r->offered, *r->average);
      p99.points.emplace_back(*r->offered, r->p99);
      ymin = ymin == 0 ? *r->average : std::min(ymin, *r->average);
      ymax = std::max(ymax, r->p99);
    }
    fig.curves.push_back(std::move(avg));
    fig.curves.push_back(std::move(p99));
    if (capacity > 0) {
      series sat{(label.empty() ? "" : label + ", ") + "saturation " + significant(capacity, 6) +
                     " accepted",
                 false,
                 {},
                 label};
      sat.points = {{capacity, 0}, {capacity, 0}};  // the height is set below
      fig.curves.push_back(std::move(sat));
    }
  }
  for (series& s : fig.curves) {
    if (s.name.find("saturation ") == std::string::npos) continue;
    s.points[0].second = std::max(ymin, 1.0);
    s.points[1].second = std::max(ymax, 2.0);
  }
  return fig;
}

}  // namespace tessera::pictures
