#pragma once

// The network interfaces' receive side: arrival events (a packet for this tile complete
// in one of its input buffers: it is delivered in that cycle) and the ejected bytes,
// reassembled per tile. Link inputs report from a register, so their arrivals of cycle
// c can be read before the testbench drives cycle c (a tile may post in the cycle a
// packet arrives); the local input reports the packet its NI writes, after driving.
#include <cstdint>
#include <functional>
#include <vector>

#include "tessera/rtl_tops/torus_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

struct torus_arrival {
  unsigned tile = 0;
  unsigned port = 0;  // the input it is complete in
  torus_hdr hdr;
  std::uint64_t cycle = 0;  // the cycle it is complete (delivered)
};

struct torus_delivery {
  unsigned tile = 0;
  torus_hdr hdr;
  std::vector<std::uint8_t> bytes;
};

template <class Dut>
class torus_monitor {
 public:
  explicit torus_monitor(const typename Dut::model& m) : m_(m), open_(Dut::tiles) {}

  // Arrivals on the link inputs, readable before the inputs of `now` are driven.
  void sample_links(std::uint64_t now,
                    const std::function<void(const torus_arrival&)>& on_arrival) {
    for (unsigned t = 0; t < Dut::tiles; ++t) {
      const unsigned bits = m_.arrive_o[t];
      for (unsigned port = 0; port < torus_local; ++port) {
        if ((bits >> port) & 1U) on_arrival({t, port, get_hdr(m_.arrive_hdr_o[t][port], 0), now});
      }
    }
  }

  // After the inputs of `now` settled: arrivals on the local input, and ejected bytes.
  void sample_local(std::uint64_t now, const std::function<void(const torus_arrival&)>& on_arrival,
                    const std::function<void(const torus_delivery&)>& on_delivery) {
    for (unsigned t = 0; t < Dut::tiles; ++t) {
      if ((m_.arrive_o[t] >> torus_local) & 1U)
        on_arrival({t, torus_local, get_hdr(m_.arrive_hdr_o[t][torus_local], 0), now});
      const link_word w = get_link(m_.rx_o[t]);
      torus_delivery& d = open_[t];
      if (w.hdr_valid) d = torus_delivery{t, w.hdr, {}};
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
  const typename Dut::model& m_;
  std::vector<torus_delivery> open_;
};

}  // namespace tessera::tb
