// The ideal alpha-beta network (Grama slide 4): a message of m bytes costs
// ts + tw*m cycles; every tile has one output and one input port (single-ported,
// bidirectional), so it sends one message and receives one at a time; the network
// itself never contends. Messages wait for the sender's output port, in the order
// the tile posted them, and for the receiver's input port (lowest sender id first
// when several are ready at once).
//
// ab_nic implements the tile_nic contract of runtime/nic.hpp over this network.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <span>
#include <vector>

#include "tessera/harness/endpoint.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"

namespace tessera::ab {

struct params {
  std::uint64_t ts{100};  // start-up cycles per message
  std::uint64_t tw{1};    // cycles per byte
};

using harness::drop_record;
using harness::transfer_record;

class network;

class ab_nic {
 public:
  ab_nic(network& n, std::uint32_t tile) : net_{&n}, tile_{tile} {}

  nic_handle post_send(const msg_header& h, std::span<const std::byte> payload);
  nic_handle post_recv(std::uint32_t src, std::span<std::byte> buffer);
  nic_handle post_delay(std::uint64_t cycles);
  bool post_control(const msg_header& h);
  bool take_control(const msg_header& want, msg_header& out);
  nic_status test(nic_handle h) const;
  const msg_header& header(nic_handle h) const;
  void release(nic_handle h);
  void idle() {}
  void set_arrival_check(arrival_check fn, void* ctx);

 private:
  network* net_;
  std::uint32_t tile_;
};

static_assert(tile_nic<ab_nic>);

class network {
 public:
  network(std::uint32_t tiles, params prm);

  [[nodiscard]] std::uint64_t now() const { return now_; }
  [[nodiscard]] std::uint32_t tiles() const { return tiles_; }

  // Faults to apply as messages start and arrive (docs/faults.md); nullptr: none.
  void set_faults(harness::fault_injector* f) { faults_ = f; }
  // Tile t is touched at `time` (a stalled tile resumes then).
  void wake_at(std::uint32_t t, std::uint64_t time);

  enum class step : std::uint8_t { advanced, idle, past_limit };
  // Starts what can start now, then advances to the next event and applies every
  // event of that instant; idle when nothing is pending, past_limit (time unchanged)
  // when the next event lies beyond `limit`.
  step advance(std::uint64_t limit = ~std::uint64_t{0});
  // Tiles whose NIC changed since the last call (arrivals, completions).
  std::vector<std::uint32_t> take_touched();

  [[nodiscard]] const std::vector<transfer_record>& transfers() const { return log_; }
  [[nodiscard]] const std::vector<drop_record>& drops() const { return drops_; }
  // Data messages that arrived but were never received, per destination tile.
  [[nodiscard]] std::vector<msg_header> unreceived() const;

 private:
  friend class ab_nic;

  struct tile_state {
    explicit tile_state(std::uint32_t t) : ep{t} {}
    harness::endpoint ep;
    std::deque<harness::message> out;  // posted, not yet started
    std::uint64_t out_free{0};
    std::uint64_t in_free{0};
  };

  enum class event_kind : std::uint8_t { transfer, delay, wake };
  struct event {
    std::uint64_t time;
    std::uint64_t seq;
    std::uint32_t tile;      // delay, wake: the tile; transfer: destination
    std::uint64_t token;     // delay: the endpoint's delay token
    std::size_t message{0};  // transfer: index into in_flight_
    event_kind kind;
    bool operator>(const event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };

  void start_transfers();
  void deliver(std::size_t idx);
  void touch(std::uint32_t t);

  std::uint32_t tiles_;
  params prm_;
  std::uint64_t now_{0};
  std::uint64_t seq_{0};
  std::vector<tile_state> t_;
  std::priority_queue<event, std::vector<event>, std::greater<>> events_;
  std::vector<harness::message> in_flight_;
  std::vector<std::size_t> free_flight_;
  std::vector<transfer_record> log_;
  std::vector<drop_record> drops_;
  std::vector<bool> touched_;
  std::vector<std::uint32_t> touched_list_;
  harness::fault_injector* faults_{nullptr};
  std::uint64_t next_id_{0};
};

}  // namespace tessera::ab
