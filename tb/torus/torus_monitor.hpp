#pragma once

// The network interfaces' receive side: arrival events (a packet for this tile
// complete in one of its input buffers, the cycle a hop ends) and the ejected bytes,
// reassembled per tile.
#include <cstdint>
#include <functional>
#include <vector>

#include "torus_dut.hpp"

namespace tessera::tb {

struct torus_arrival {
  unsigned tile = 0;
  torus_hdr hdr;
  std::uint64_t cycle = 0;  // the cycle the last byte arrived
};

struct torus_delivery {
  unsigned tile = 0;
  torus_hdr hdr;
  std::vector<std::uint8_t> bytes;
};

class torus_monitor {
 public:
  explicit torus_monitor(const torus_model& m) : m_(m), open_(torus_tiles) {}

  void sample(std::uint64_t now, const std::function<void(const torus_arrival&)>& on_arrival,
              const std::function<void(const torus_delivery&)>& on_delivery) {
    for (unsigned t = 0; t < torus_tiles; ++t) {
      const unsigned bits = m_.arrive_o[t];
      for (unsigned port = 0; port < torus_ports; ++port) {
        if ((bits >> port) & 1U) on_arrival({t, get_hdr(m_.arrive_hdr_o[t][port], 0), now});
      }
      const link_word w = get_link(m_.rx_o[t]);
      torus_delivery& d = open_[t];
      if (w.hdr_valid) {
        d = torus_delivery{t, w.hdr, {}};
      }
      if (w.byte_valid) {
        d.bytes.push_back(w.data);
        if (d.bytes.size() == d.hdr.len) {
          on_delivery(d);
          d.bytes.clear();
        }
      }
    }
  }

 private:
  const torus_model& m_;
  std::vector<torus_delivery> open_;
};

}  // namespace tessera::tb
