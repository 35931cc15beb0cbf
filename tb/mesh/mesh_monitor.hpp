#pragma once

// The tiles' side of the NIs' ejection ports: each tile takes a flit when it is ready
// (at random with a back-pressure probability), and the flits are put back together
// into packets. A VC of the ejection channel carries one packet from head to tail, so
// flits are reassembled per tile and VC; with several VCs the packets of a tile
// interleave flit by flit.
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tessera/rtl_tops/mesh_top.hpp"

namespace tessera::tb {

using namespace rtl_tops;

struct mesh_packet {
  unsigned tile = 0;
  unsigned src = 0;
  std::vector<std::uint32_t> words;
  std::uint64_t tail_cycle = 0;  // the cycle the tail crossed the ejection channel
};

template <class Model>
class mesh_monitor {
 public:
  mesh_monitor(Model& m, const mesh_shape& shape, double stall, std::uint64_t seed)
      : m_(m),
        shape_(shape),
        open_(shape.tiles() * mesh_max_vcs),
        busy_(shape.tiles() * mesh_max_vcs, false),
        stall_(stall),
        rng_(seed) {}

  // Sets the tiles' readiness for the coming cycle; tiles outside the shape are ready.
  void drive() {
    std::bernoulli_distribution stall(stall_);
    std::uint64_t ready = ~std::uint64_t{0};  // tiles outside the shape too
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      if (stall_ > 0 && stall(rng_)) ready &= ~(std::uint64_t{1} << shape_.phys(t));
    }
    set_mask(m_.rx_ready_i, ready);
  }

  // Reads the flits ejected in cycle `now`; a malformed stream goes to on_error.
  void sample(std::uint64_t now, const std::function<void(const mesh_packet&)>& on_packet,
              const std::function<void(const std::string&)>& on_error) {
    if (mask(m_.rx_valid_o) == 0) return;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned phys = shape_.phys(t);
      if (!bit(m_.rx_valid_o, phys)) continue;
      const mesh_flit f = rx_flit(m_, phys, shape_);
      const std::string where = "tile " + std::to_string(t) + " VC " + std::to_string(f.vc);
      if (f.vc >= mesh_max_vcs) {
        on_error(where + ": no such VC");
        continue;
      }
      const unsigned k = t * mesh_max_vcs + f.vc;
      mesh_packet& p = open_[k];
      if (f.head == busy_[k]) {
        on_error(where +
                 (f.head ? " got a head inside a packet" : " got a body flit with no head"));
        continue;
      }
      if (f.head) p = mesh_packet{t, f.src, {}, 0};
      busy_[k] = true;
      if (f.src != p.src || f.dst != t) {
        on_error(where + " got a flit of (src " + std::to_string(f.src) + ", dst " +
                 std::to_string(f.dst) + ") inside a packet from " + std::to_string(p.src));
      }
      p.words.push_back(f.data);
      if (f.tail) {
        p.tail_cycle = now;
        busy_[k] = false;
        on_packet(p);
      }
    }
  }

 private:
  Model& m_;
  mesh_shape shape_;
  std::vector<mesh_packet> open_;  // per tile and VC
  std::vector<bool> busy_;
  double stall_;
  std::mt19937_64 rng_;
};

}  // namespace tessera::tb
