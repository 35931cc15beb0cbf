// Torus (or ring, or mesh) with parallel monodirectional store-and-forward ports
// (002_99346807104d0b95.txt, Bermond-Michallon-Trystram §1): every tile has one
// output port per direction and one input port per direction, all usable at once. A
// message is cut into packets of at most `packet_bytes` (0: one packet); a packet of
// L bytes is received whole at each node before it goes on, and each hop costs
// beta + tau*L cycles on that hop's link. One packet over h hops therefore takes
// h (beta + tau L) cycles.
//
// Each output port sends one packet at a time from a FIFO queue. Packets that reach
// a queue in the same cycle are ordered by the direction of the link they arrived
// on: east, west, south, north (ring: +1, -1), then the tile's own NIC, whose packets
// keep the order they were posted in. Routing is dimension order (runtime/routing.hpp). A message
// is delivered when its last packet arrives.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::net {

struct torus_params {
  cycle_t beta{100};              // cycles per packet per hop
  cycle_t tau{1};                 // cycles per byte per hop
  std::uint64_t packet_bytes{0};  // 0: a message is one packet
};

// Throws input_error naming the offending value.
void validate(const torus_params& p);

// Explicit forwarding: a message at `tile` headed for `dst` leaves on `port` instead
// of its dimension-order port. Entries for one destination form a forwarding table
// (a tree's edges towards a root, a detour); tiles without an entry keep dimension
// order.
struct forwarding_entry {
  std::uint32_t tile{0};
  std::uint32_t dst{0};
  std::uint32_t port{0};
};

class torus_engine final : public engine {
 public:
  torus_engine(const fabric& f, torus_params p);

  // Installs forwarding entries. Throws input_error naming the entry when a port has
  // no link, a tile is off the fabric, or some route to an entry's destination
  // would loop instead of arriving.
  void set_forwarding(const std::vector<forwarding_entry>& entries);

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override { return events_.next(); }
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override { return live_ == 0; }
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] contention_stat contention() const override { return cont_; }
  [[nodiscard]] std::vector<std::string> stuck() const override;

  // The directed links (tile * ports + port) a message from src to dst crosses:
  // dimension order, or the forwarding entries where there are some.
  void route(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& path) const;

 private:
  static constexpr std::uint32_t local = 0xffffffffU;

  struct message {
    xfer x;
    std::vector<std::uint32_t> path;  // directed links (tile * ports + port)
    std::uint64_t packets{0};
    std::uint64_t arrived{0};
    bool started{false};
  };
  struct packet {
    std::uint32_t msg{0};
    std::uint32_t hop{0};  // index into the message's path of the link it waits for
    std::uint64_t bytes{0};
    cycle_t queued{0};
    std::uint32_t from{local};  // input port it came in on, or local
  };
  struct port {
    std::deque<packet> queue;
    std::vector<packet> arriving;  // reached this queue this cycle, not yet ordered
    cycle_t free_at{0};
    cycle_t busy{0};
    std::uint64_t messages{0};
    std::uint32_t max_queue{0};
  };

  void enqueue(std::uint32_t link, const packet& pk);
  // The port a message at `at` takes towards `dst`.
  std::uint32_t next_port(std::uint32_t at, std::uint32_t dst) const;

  fabric f_;
  torus_params p_;
  std::vector<message> msgs_;
  std::vector<std::uint32_t> free_;
  std::vector<port> ports_;
  std::vector<std::uint32_t> dirty_;
  std::vector<bool> is_dirty_;
  std::unordered_map<std::uint64_t, std::uint32_t> forward_;  // tile * p + dst -> port
  event_queue<packet> events_;                                // a packet finishing a hop
  contention_stat cont_{};
  std::uint64_t live_{0};
};

}  // namespace tessera::net
