// The wormhole engine's parameters and fabric named in its refusals.
#include <string>

#include "impl.hpp"
#include "tessera/common/errors.hpp"

namespace tessera::net {

namespace {

void check_range(const char* name, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v < lo || v > hi) {
    throw input_error("wormhole: " + std::string(name) + " " + std::to_string(v) +
                      " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  }
}

}  // namespace

std::string wormhole_detail::fabric_spec(const fabric& f) {
  std::string s{kind_name(f.kind)};
  if (f.kind == fabric_kind::hypercube) return s + ":" + std::to_string(f.dim);
  if (f.kind == fabric_kind::ring) return s + ":" + std::to_string(f.cols);
  return s + ":" + std::to_string(f.rows) + "x" + std::to_string(f.cols);
}

void validate(const wormhole_params& p) {
  check_range("width", p.width, 1, 4096);
  check_range("buffer", p.buffer, 1, 65536);
  check_range("router_delay", p.router_delay, 0, 1'000'000);
  check_range("alpha", p.alpha, 0, 1'000'000'000'000);
  check_range("packet_bytes", p.packet_bytes, 0, wormhole_detail::max_message_bytes);
  check_range("inject_gap", p.inject_gap, 1, 1024);
  check_range("vcs", p.vcs, 1, 16);
  check_range("credit_delay", p.credit_delay, 0, 16);
  check_range("duplex_window", p.duplex.duplex_window, 0, 1'000'000'000'000);
  check_range("alpha_eager", p.alpha_eager, 0, 1'000'000'000'000);
  check_range("eager_copy", p.eager_copy, 0, 1'000'000);
}

}  // namespace tessera::net
