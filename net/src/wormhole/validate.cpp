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
  check_ranges(
      "wormhole", wormhole_range::all,
      {p.width, p.buffer, p.router_delay, p.alpha, p.packet_bytes, p.inject_gap, p.vcs,
       p.credit_delay, p.duplex.duplex_window, p.eager_bytes, p.alpha_eager, p.eager_copy});
}

}  // namespace tessera::net
