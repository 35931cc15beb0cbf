// The wormhole engine's parameters and fabric named in its refusals.
#include <string>

#include "impl.hpp"

namespace tessera::net {

std::string wormhole_detail::fabric_spec(const fabric& f) {
  std::string s{kind_name(f.kind)};
  if (f.kind == fabric_kind::hypercube) return s + ":" + std::to_string(f.dim);
  if (f.kind == fabric_kind::ring) return s + ":" + std::to_string(f.cols);
  return s + ":" + std::to_string(f.rows) + "x" + std::to_string(f.cols);
}

void validate(const wormhole_params& p) {
  check_ranges("wormhole", wormhole_range::all,
               {p.width, p.buffer, p.router_delay, p.alpha, p.packet_bytes, p.inject_gap, p.vcs,
                p.credit_delay, p.pipeline, p.duplex.duplex_window, p.eager_bytes, p.alpha_eager,
                p.eager_copy});
  const std::string routing{mesh_routing_names.at(static_cast<std::size_t>(p.routing))};
  if (p.routing == mesh_routing::o1turn && p.vcs < 2) {
    throw input_error(
        "wormhole: param routing o1turn needs vcs >= 2 (a VC class for XY "
        "packets and one for YX), got vcs " +
        std::to_string(p.vcs));
  }
  if (p.share == vc_share::fixed && p.pipeline != 1) {
    throw input_error("wormhole: param pipeline " + std::to_string(p.pipeline) +
                      " with vc_share=fixed is not modelled (the fixed share is the closed "
                      "form's, whose router takes one cycle a flit)");
  }
  if (p.share == vc_share::fixed && p.routing != mesh_routing::xy &&
      p.routing != mesh_routing::yx) {
    throw input_error("wormhole: param routing " + routing +
                      " with vc_share=fixed is not modelled (the fixed share is the closed "
                      "form's, which routes in dimension order: xy or yx)");
  }
}

}  // namespace tessera::net
