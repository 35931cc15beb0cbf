#pragma once

// The tiles' side of the NIs' ejection ports: each tile takes a flit when it is ready
// (at random with a back-pressure probability), and the flits are put back together
// into packets. One ejection port carries one packet from head to tail (wormhole), so
// a tile's flits never interleave.
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mesh_dut.hpp"

namespace tessera::tb {

struct mesh_packet {
  unsigned tile = 0;
  unsigned src = 0;
  std::vector<std::uint32_t> words;
  std::uint64_t tail_cycle = 0;  // the cycle the tail crossed the ejection channel
};

class mesh_monitor {
 public:
  mesh_monitor(mesh_model& m, double stall, std::uint64_t seed)
      : m_(m), open_(mesh_tiles), busy_(mesh_tiles, false), stall_(stall), rng_(seed) {}

  // Sets the tiles' readiness for cycle `now`.
  void drive() {
    std::bernoulli_distribution stall(stall_);
    std::uint16_t ready = 0;
    for (unsigned t = 0; t < mesh_tiles; ++t) {
      if (!(stall_ > 0 && stall(rng_))) ready = static_cast<std::uint16_t>(ready | (1U << t));
    }
    m_.rx_ready_i = ready;
  }

  // Reads the flits ejected in cycle `now`; a malformed stream goes to on_error.
  void sample(std::uint64_t now, const std::function<void(const mesh_packet&)>& on_packet,
              const std::function<void(const std::string&)>& on_error) {
    for (unsigned t = 0; t < mesh_tiles; ++t) {
      if (((m_.rx_valid_o >> t) & 1U) == 0) continue;
      const mesh_flit f = get_flit(m_.rx_flit_o[t]);
      mesh_packet& p = open_[t];
      if (f.head == busy_[t]) {
        on_error("tile " + std::to_string(t) +
                 (f.head ? " got a head inside a packet" : " got a body flit with no head"));
        continue;
      }
      if (f.head) p = mesh_packet{t, f.src, {}, 0};
      busy_[t] = true;
      if (f.src != p.src || f.dst != t) {
        on_error("tile " + std::to_string(t) + " got a flit of (src " + std::to_string(f.src) +
                 ", dst " + std::to_string(f.dst) + ") inside a packet from " +
                 std::to_string(p.src));
      }
      p.words.push_back(f.data);
      if (f.tail) {
        p.tail_cycle = now;
        busy_[t] = false;
        on_packet(p);
      }
    }
  }

 private:
  mesh_model& m_;
  std::vector<mesh_packet> open_;
  std::vector<bool> busy_;
  double stall_;
  std::mt19937_64 rng_;
};

}  // namespace tessera::tb
