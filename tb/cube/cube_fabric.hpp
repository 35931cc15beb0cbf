#pragma once

// The cube's observability pins tb_cube times its golden counts by: every grant (node,
// port, cycle, whose header) and every tail crossing a port. What the tiles receive is
// the tops' cube monitor's (rtl_models/tops).
#include <cstdint>
#include <vector>

#include "tessera/rtl_tops/cube_top.hpp"

namespace tessera::tb {

struct cube_grant {
  unsigned node = 0;
  unsigned port = 0;  // 0..6 a link, 7 the ejection port
  rtl_tops::cube_hdr hdr;
  std::uint64_t cycle = 0;
};

class cube_fabric_monitor {
 public:
  explicit cube_fabric_monitor(const rtl_tops::cube_model& m)
      : m_(m), tails_(rtl_tops::cube_tiles * rtl_tops::cube_ports, 0) {}

  // Samples cycle `now` (after the inputs settled): on_grant sees every grant. Returns
  // whether a header was granted.
  template <class OnGrant>
  bool sample(std::uint64_t now, OnGrant on_grant) {
    bool moved = false;
    for (unsigned t = 0; t < rtl_tops::cube_tiles; ++t) {
      const auto granted =
          static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_ports>(m_.grant_o, t));
      const auto tails = static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_ports>(m_.tail_o, t));
      for (unsigned p = 0; p < rtl_tops::cube_ports; ++p) {
        if ((granted >> p) & 1U) {
          on_grant(cube_grant{
              t, p, rtl_tops::cube_hdr_at(m_.hold_hdr_o, t * rtl_tops::cube_ports + p), now});
          moved = true;
        }
        if ((tails >> p) & 1U) ++tails_[t * rtl_tops::cube_ports + p];
      }
    }
    return moved;
  }

  // Tails that crossed port p of node t so far.
  unsigned tails(unsigned node, unsigned port) const {
    return tails_[node * rtl_tops::cube_ports + port];
  }

 private:
  const rtl_tops::cube_model& m_;
  std::vector<unsigned> tails_;
};

}  // namespace tessera::tb
