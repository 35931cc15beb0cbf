#pragma once

// The receivers and the fabric's observability pins: what each tile's interface hands
// out (a circuit set up to it, then the elements), every grant (node, port, cycle, whose
// header) and every tail crossing a port.
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/rtl_tops/cube_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

// A message as one tile received it.
struct cube_delivery {
  unsigned tile = 0;
  cube_hdr hdr;
  std::uint64_t setup = 0;  // the cycle its circuit reached this tile (S)
  std::uint64_t tail = 0;   // the cycle the last element left the ejection port (E)
  std::vector<std::uint32_t> elements;
};

struct cube_grant {
  unsigned node = 0;
  unsigned port = 0;  // 0..6 a link, 7 the ejection port
  cube_hdr hdr;
  std::uint64_t cycle = 0;
};

class cube_monitor {
 public:
  explicit cube_monitor(const cube_model& m)
      : m_(m), open_(cube_tiles), tails_(cube_tiles * cube_ports, 0) {}

  // Samples cycle `now` (after the inputs settled). on_grant sees every grant,
  // on_delivery every message whose last element left this cycle; returns whether
  // anything moved (the watchdog's notion of progress).
  template <class OnGrant, class OnDelivery>
  bool sample(std::uint64_t now, OnGrant on_grant, OnDelivery on_delivery) {
    bool moved = false;
    for (unsigned t = 0; t < cube_tiles; ++t) {
      const unsigned granted = m_.grant_o[t];
      const unsigned tails = m_.tail_o[t];
      for (unsigned p = 0; p < cube_ports; ++p) {
        if ((granted >> p) & 1U) {
          on_grant(cube_grant{t, p, unpack_hdr(m_.hold_hdr_o[t][p]), now});
          moved = true;
        }
        if ((tails >> p) & 1U) ++tails_[t * cube_ports + p];
      }
      open& o = open_[t];
      if (m_.rx_start_o[t]) {
        if (o.busy)
          stray_.push_back("tile " + std::to_string(t) + ": a circuit set up at cycle " +
                           std::to_string(now) + " while the last one still delivers");
        o.busy = true;
        o.d = cube_delivery{t, unpack_hdr(m_.rx_hdr_o[t]), now, 0, {}};
      }
      if (m_.rx_valid_o[t]) {
        moved = true;
        if (!o.busy) {
          stray_.push_back("tile " + std::to_string(t) + ": an element at cycle " +
                           std::to_string(now) + " outside any circuit");
          continue;
        }
        o.d.elements.push_back(m_.rx_data_o[t]);
        if (m_.rx_last_o[t]) {
          o.d.tail = now;
          o.busy = false;
          on_delivery(o.d);
        }
      }
    }
    return moved;
  }

  // Tails that crossed port p of node t so far.
  unsigned tails(unsigned node, unsigned port) const { return tails_[node * cube_ports + port]; }
  // Protocol errors seen on the receive side.
  const std::vector<std::string>& stray() const { return stray_; }

 private:
  struct open {
    bool busy = false;
    cube_delivery d;
  };
  const cube_model& m_;
  std::vector<open> open_;
  std::vector<unsigned> tails_;
  std::vector<std::string> stray_;
};

}  // namespace tessera::tb
