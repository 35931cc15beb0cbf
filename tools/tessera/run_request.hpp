// `tessera run`'s options, read into the library's run_config (tessera/run/config.hpp):
// what the CLI parses before it calls run::run(), which runs the config on its model.
#pragma once

#include <cstdint>
#include <ostream>
#include <set>
#include <string>

#include "args.hpp"
#include "tessera/pictures/trace.hpp"
#include "tessera/run/config.hpp"

namespace tessera::cli {

struct run_request {
  run::run_config config;
  bool json{false};
  // --trace FILE: the timeline trace (docs/visualize.md), and what of it to write.
  std::string trace_file;
  pictures::trace_filter trace_filter;
  // --timeline FILE.svg: the same trace drawn as a picture, with the same filter.
  std::string timeline_file;
  // --heatmap FILE.svg: the links coloured by --heatmap-metric, or a panel per step.
  std::string heatmap_file;
  std::string heatmap_metric{"utilization"};
  bool heatmap_steps{false};
  // The routes the step panels draw: the wormhole's routing (xy, yx), dimension order.
  dim_order heatmap_order{dim_order::xy};
};

// Every option checked on its own and against the others, and the input files read;
// input_error names the offending value. What depends on the model (the machine, the
// switching, --param values) is checked by run::run().
run_request parse_request(const args& a);

}  // namespace tessera::cli
