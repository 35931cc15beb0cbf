// The load-latency figure of a traffic sweep (tessera sweep --plot, docs/sweeps.md): per
// series (a combination of the sweep's other axes), the average and p99 latency of the
// runs below saturation against their offered load, and a vertical line at the most the
// fabric accepted (its saturation throughput).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tessera/pictures/figure.hpp"

namespace tessera::pictures {

// One run of the sweep, as its row gives it.
struct load_run {
  std::string series;              // "traffic uniform"; empty when --rate is the only axis
  std::optional<double> offered;   // packets/tile/cycle; none: not a traffic run
  std::optional<double> accepted;  // packets/tile/cycle
  std::optional<double> average;   // latency, cycles; none when the run saturated
  double p99{0};                   // with `average`
};

figure load_latency_figure(const std::vector<load_run>& runs);

}  // namespace tessera::pictures
