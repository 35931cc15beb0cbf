// Torus (or ring, or mesh) with parallel monodirectional store-and-forward ports
// (Bermond92, "Broadcasting in wraparound
// meshes with parallel monodirectional links", §1): every tile has one output port per
// direction and one input port per direction, all usable at once. A message is cut into
// packets of at most `packet_bytes` (0: one packet); a packet of L bytes is received
// whole at each node before it goes on, and each hop holds its link for beta + tau*L
// cycles. One packet over h hops therefore takes h (beta + tau L) cycles from the cycle
// it is posted to the cycle it is complete at its destination.
//
// The engine follows the rules of the RTL torus (rtl_models/rtl/tsr_torus_node.sv,
// docs/rtl.md "Store-and-forward torus"), so the two agree cycle for cycle
// (tb/torus, rtl.tb_torus.engine_agreement.*). With `buffers` B > 0:
//   - Inputs. Every input of a node (one per link direction, and the local input the
//     tile's network interface writes) has B packet buffers. A link input's are split
//     into dateline classes, ceil(B/2) of class 0 and the rest of class 1; the local
//     input's all serve class 0. A unicast packet takes class 1 once its route in the
//     current dimension has wrapped round the ring, class 0 before; multicast packets
//     stay in class 0.
//   - Credits. An output starts a hop only while the neighbour's input has a free
//     buffer of the class the packet takes there. A buffer is freed when the last of
//     its packet's outputs has sent the last byte; the credit is usable from the cycle
//     the hop ends.
//   - Network interface. Each tile's interface writes one packet a cycle, in posting
//     order, into a free buffer of its node's local input; the packet is stored, and
//     may leave, in the cycle it is written. A message posted at t starts at t when
//     the interface is idle and a buffer is free.
//   - Order. Each output takes, from each input, the oldest stored packet that wants
//     it and may go (its class has a credit), and round-robins between the inputs:
//     from the input after the one it served last (inputs numbered E, W, S, N, local;
//     ring +1, -1, local; the pointer starts at input 0, so input 1 goes first).
//   - Hops. A granted link output is busy beta + tau*L cycles (at least one); the
//     packet is complete at the neighbour when the hop ends and may go on in that
//     cycle. A packet for this tile is delivered in the cycle it is complete here; it
//     then leaves through the local (ejection) output, which is busy L + 1 cycles (a
//     header cycle, then a byte a cycle) and frees the buffer.
// With B = 0 the node is Bermond's ideal one: unlimited buffers, no credits, and the
// interface writes every posted packet at once, so q packets posted together all
// queue at once (the order rule still holds).
//
// Routing: unicast is dimension order (runtime/routing.hpp) unless forwarding entries
// say otherwise; a multicast message (xfer.tree = k >= 1) follows tree table k, a port
// mask per tile (bit `ports` delivers a copy there), as the RTL's tree tables do
// (RTL entry k - 1). A message is delivered when its last packet is complete at its
// destination (multicast: at every tile its tree delivers to).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "tessera/common/range.hpp"
#include "tessera/net/channel_graph.hpp"
#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::net {

// The packet buffers per input of the Verilated torus tops (Vtsr_torus_4x4,
// Vtsr_torus_8x8: Buffers = 4), the default of torus_params::buffers.
inline constexpr std::uint32_t rtl_torus_buffers = 4;
// The largest `buffers` validate() accepts.
inline constexpr std::uint32_t max_torus_buffers = 65536;

struct torus_params {
  cycle_t beta{100};              // cycles per packet per hop
  cycle_t tau{1};                 // cycles per byte per hop
  std::uint64_t packet_bytes{0};  // 0: a message is one packet
  // Packet buffers per input, split into dateline classes (above); 0: unlimited
  // (Bermond's ideal node).
  std::uint32_t buffers{rtl_torus_buffers};
};

// The parameters' valid values, for validate() and the registry's --param rows.
namespace torus_range {
inline constexpr count_range beta{"beta", 0, cycle_t{1} << 40};
inline constexpr count_range tau{"tau", 0, cycle_t{1} << 20};
inline constexpr count_range packet_bytes{"packet_bytes", 0, std::uint64_t{1} << 30};
// 0 (unlimited) or 2 and more: one buffer per dateline class at least.
inline constexpr count_range buffers{"buffers", 0, max_torus_buffers};
// In the order validate() checks them.
inline constexpr std::array all{beta, tau, packet_bytes, buffers};
}  // namespace torus_range

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

// Multicast: a packet of tree `tree` (>= 1) at `tile` leaves on every port whose bit
// is set in `mask` (bit p for port p) and is delivered to the tile itself when bit
// `ports` (4 on a torus or mesh, 2 on a ring) is set. Tiles without an entry drop it.
struct tree_entry {
  std::uint32_t tree{1};
  std::uint32_t tile{0};
  std::uint32_t mask{0};
};

// A packet complete at a tile it is delivered to (see set_arrival_hook).
struct torus_arrival {
  std::uint64_t id{0};      // the message's xfer id
  std::uint32_t tile{0};    // where it is delivered
  std::uint64_t packet{0};  // its number in the message, from 0
  cycle_t at{0};
};

class torus_engine final : public engine {
 public:
  torus_engine(const fabric& f, torus_params p);

  // Installs forwarding entries. Throws input_error naming the entry when a port has
  // no link, a tile is off the fabric, or some route to an entry's destination
  // would loop instead of arriving; and, unless told to skip it (check-routes, which
  // prints the graph itself), when the routes' channel dependency graph
  // (dependencies()) has a cycle, naming one: such tables can deadlock.
  enum class deadlock_check : std::uint8_t { refuse, skip };
  void set_forwarding(const std::vector<forwarding_entry>& entries,
                      deadlock_check check = deadlock_check::refuse);

  // The channel dependency graph of the unicast routes (dimension order, or the forwarding
  // entries where there are some) over the buffers' dateline classes
  // (route_dependencies.hpp: store_forward_dependencies).
  [[nodiscard]] channel_graph dependencies() const;

  // Installs multicast tree tables (replacing any). Throws input_error naming the
  // entry when a port has no link, a tile is off the fabric, a tree is 0, or a table
  // is not a forest (a tile reached twice, or a cycle).
  void set_trees(const std::vector<tree_entry>& entries);

  // Called for every packet complete at a tile it is delivered to, in the cycle it is
  // (the unit the RTL's arrive_o reports). Called inside fire() and arbitrate().
  void set_arrival_hook(std::function<void(const torus_arrival&)> hook) { hook_ = std::move(hook); }

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override { return events_.next(); }
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override { return live_ == 0 && held_ == 0 && events_.empty(); }
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] energy_counts energy() const override;
  [[nodiscard]] contention_stat contention() const override { return cont_; }
  [[nodiscard]] std::vector<std::string> stuck() const override;
  // Times a free link output found packets waiting for it and none with a credit for
  // its class at the neighbour: a full buffer held the link idle.
  [[nodiscard]] std::uint64_t credit_stalls() const { return credit_stalls_; }

  // The directed links (tile * ports + port) a unicast message from src to dst
  // crosses: dimension order, or the forwarding entries where there are some.
  void route(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& path) const;

 private:
  static constexpr std::uint32_t none = 0xffffffffU;

  struct message {
    xfer x;
    std::uint64_t packets{0};
    std::uint64_t expected{0};  // packet deliveries owed (multicast: packets x tiles)
    std::uint64_t arrived{0};
    std::uint64_t written{0};  // packets the interface has written
    std::uint64_t copies{0};   // packets queued or stored that belong to it
    bool started{false};
    bool live{false};  // not yet delivered
  };
  // One copy of a packet, in the network interface's queue or in an input buffer.
  struct packet {
    std::uint32_t msg{0};
    std::uint32_t at{0};     // tile
    std::uint32_t input{0};  // input port at `at` (ports: local)
    std::uint32_t pend{0};   // outputs it still owes (bit ports: ejection)
    std::uint64_t index{0};  // number in its message
    std::uint64_t bytes{0};
    cycle_t ready{0};     // cycle it became complete here
    std::uint8_t cls{0};  // dateline class of its buffer
  };
  struct output {
    cycle_t free_at{0};
    std::uint32_t rr{0};          // the input served last
    std::uint32_t room[2]{0, 0};  // link outputs: free buffers per class at the neighbour
    bool dirty{false};
    cycle_t busy{0};
    std::uint64_t messages{0};  // packets granted (links and the ejection)
    std::uint32_t waiting{0};
    std::uint32_t max_queue{0};
    std::uint64_t units{0};  // their bytes
  };
  struct interface {
    std::deque<std::uint32_t> queue;  // packets posted, not yet written
    std::uint32_t room{0};            // free local buffers
    cycle_t written_at{never};        // the last cycle it wrote a packet
    bool dirty{false};
    std::uint64_t written{0};  // bytes of the packets it wrote
  };
  struct event {
    std::uint32_t tile{0};
    std::uint32_t out{none};  // none: the interface's next write
    std::uint32_t pk{0};
  };

  // The packets of one input that want one output, oldest first. Empty lists cost no
  // allocation: there is one per input and output of every tile.
  struct wait_list {
    std::vector<std::uint32_t> items;
    std::size_t head{0};
    [[nodiscard]] bool empty() const { return head == items.size(); }
    [[nodiscard]] std::uint32_t front() const { return items[head]; }
    void push_back(std::uint32_t pk) { items.push_back(pk); }
    void erase(std::size_t at) {
      if (at != head) {
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
      } else if (++head == items.size()) {
        items.clear();
        head = 0;
      } else if (head >= 64 && 2 * head >= items.size()) {
        items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
  };

  [[nodiscard]] std::uint32_t in_ports() const { return f_.ports() + 1; }
  wait_list& waiting(std::uint32_t tile, std::uint32_t in, std::uint32_t out) {
    return wants_[(std::size_t{tile} * in_ports() + in) * in_ports() + out];
  }
  output& out_port(std::uint32_t tile, std::uint32_t o) {
    return outs_[std::size_t{tile} * in_ports() + o];
  }
  std::uint32_t new_packet();
  void mark(std::uint32_t tile, std::uint32_t o);
  void mark_interface(std::uint32_t tile);
  // The packet is complete at its tile and input in cycle now: route it.
  void stored(std::uint32_t pk, cycle_t now);
  void release(std::uint32_t pk);
  void deliver_one(std::uint32_t msg, std::uint32_t tile, std::uint64_t index, cycle_t now);
  void complete(std::uint32_t msg, cycle_t now);
  void write_packet(std::uint32_t tile, cycle_t now);
  std::uint32_t route_mask(const packet& pk) const;
  std::uint8_t next_class(const packet& pk, std::uint32_t o) const;
  bool try_grant(std::uint32_t tile, std::uint32_t o, cycle_t now);
  // The port a message at `at` takes towards `dst`.
  std::uint32_t next_port(std::uint32_t at, std::uint32_t dst) const;

  fabric f_;
  torus_params p_;
  std::vector<message> msgs_;
  std::vector<std::uint32_t> free_msgs_;
  std::vector<packet> pks_;
  std::vector<std::uint32_t> free_pks_;
  std::vector<wait_list> wants_;  // [tile][input][output]
  std::vector<output> outs_;      // [tile][output]
  std::vector<interface> nis_;
  std::vector<std::uint32_t> dirty_outs_;  // tile * in_ports + output
  std::vector<std::uint32_t> dirty_nis_;
  std::unordered_map<std::uint64_t, std::uint32_t> forward_;  // tile * p + dst -> port
  std::unordered_map<std::uint64_t, std::uint32_t> trees_;    // tree * p + tile -> mask
  std::function<void(const torus_arrival&)> hook_;
  event_queue<event> events_;  // a hop ending, an interface writing again
  contention_stat cont_{};
  std::uint64_t credit_stalls_{0};
  std::uint64_t live_{0};  // messages not delivered
  std::uint64_t held_{0};  // packets queued or in buffers
};

}  // namespace tessera::net
