#include "tessera/schedule/schedule.hpp"

#include <numeric>

namespace tessera {

void tile_program::add(sched_op o, std::span<const std::uint32_t> send,
                       std::span<const std::uint32_t> recv) {
  o.send_first = static_cast<std::uint32_t>(pool.size());
  o.send_count = static_cast<std::uint32_t>(send.size());
  pool.insert(pool.end(), send.begin(), send.end());
  o.recv_first = static_cast<std::uint32_t>(pool.size());
  o.recv_count = static_cast<std::uint32_t>(recv.size());
  pool.insert(pool.end(), recv.begin(), recv.end());
  ops.push_back(o);
}

delivery_spec alltoall_delivery(std::uint32_t p) {
  delivery_spec d;
  d.blocks = p * p;
  d.origin.resize(d.blocks);
  d.wanted.resize(p);
  for (std::uint32_t s = 0; s < p; ++s) {
    for (std::uint32_t t = 0; t < p; ++t) {
      d.origin[s * p + t] = s;
      if (s != t) d.wanted[t].push_back(s * p + t);
    }
  }
  d.describe = [p](std::uint32_t b) {
    return "block " + std::to_string(b) + " (" + std::to_string(b / p) + "->" +
           std::to_string(b % p) + ")";
  };
  return d;
}

std::uint64_t schedule::op_count() const {
  return std::accumulate(programs.begin(), programs.end(), std::uint64_t{0},
                         [](std::uint64_t n, const tile_program& t) { return n + t.ops.size(); });
}

}  // namespace tessera
