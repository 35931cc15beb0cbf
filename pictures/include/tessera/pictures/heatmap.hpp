// Link heat maps of a run as SVG (docs/visualize.md): the fabric drawn as it is (a mesh
// grid, a torus with its wrap links, a ring, a hypercube laid out by dimension), each
// directed link coloured by a value on one scale, with the scale beside it. One panel
// for the whole run, or one per step of a collective.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "tessera/harness/harness.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::pictures {

struct heatmap_link {
  std::uint32_t from{0};
  std::uint32_t to{0};
  std::string name;    // E, W, S, N, dim k, +1, -1, ...
  double value{0.0};   // on the map's scale, 0..scale_max
  std::string detail;  // the tooltip
};

struct heatmap_panel {
  std::string title;
  std::vector<heatmap_link> links;  // links that carried nothing may be left out
};

struct heatmap_input {
  fabric f{};
  std::string title;   // the run in one line
  std::string metric;  // what the colour means, with its unit
  double scale_max{1.0};
  bool integer_scale{false};  // counts: ticks at whole numbers
  std::vector<heatmap_panel> panels;
};

// The SVG document, self-contained (no script, no external resource).
void write_heatmap(std::ostream& os, const heatmap_input& in);

// The step panels of a collective or schedule: for step k, each directed link's load,
// the number of step k's data messages whose route crosses it (the exact count Thakur's
// f(i) bounds), from the run's transfer records and the fabric's dimension-order routes
// (meshes and tori in `order`: the wormhole's routing=xy or yx).
std::vector<heatmap_panel> step_panels(const fabric& f,
                                       const std::vector<harness::transfer_record>& transfers,
                                       double& max_load, dim_order order = dim_order::xy);

}  // namespace tessera::pictures
