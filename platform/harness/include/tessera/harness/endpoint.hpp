// A tile's NIC as every host model keeps it: the handles the runtime polls, receive
// matching (per source, in order), the FORCED drop rule and the control queue of
// runtime/nic.hpp. A network model only moves messages and decides when; it calls
// complete() when a send or delay is over and arrive() when a message lands.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"

namespace tessera::harness {

struct message {
  msg_header header;
  std::vector<std::byte> payload;
  nic_handle send_handle{no_handle};  // completes when the message is delivered
  std::uint64_t id{0};                // the model's id, for the fault injector
  std::uint64_t admitted{0};          // when it entered the fabric
};

// rejected: the tile's arrival check refused it (the reliable protocol's damaged,
// duplicate or out-of-order messages); the NIC discards it.
enum class arrival : std::uint8_t { received, buffered, dropped, control, rejected };

class endpoint {
 public:
  explicit endpoint(std::uint32_t tile) : tile_{tile} {}

  [[nodiscard]] std::uint32_t tile() const { return tile_; }

  // ---- the tile's side ----
  nic_handle new_send();
  nic_handle new_delay();
  // Takes the oldest unreceived message from src, or waits for one.
  nic_handle post_recv(std::uint32_t src, std::span<std::byte> buffer);
  bool take_control(const msg_header& want, msg_header& out);
  [[nodiscard]] nic_status test(nic_handle h) const { return handles_[h].status; }
  [[nodiscard]] const msg_header& header(nic_handle h) const { return handles_[h].header; }
  // Releasing a pending delay cancels it: complete_delay then ignores it.
  void release(nic_handle h);
  void set_arrival_check(arrival_check fn, void* ctx) {
    check_ = fn;
    check_ctx_ = ctx;
  }

  // ---- the network's side ----
  void complete(nic_handle h) { handles_[h].status = nic_status::done; }
  // Delays are completed by their token (delay_token when posted), so a delay that was
  // released, and its handle reused, is not completed by mistake.
  [[nodiscard]] std::uint64_t delay_token(nic_handle h) const {
    return (std::uint64_t{handles_[h].gen} << 32) | h;
  }
  void complete_delay(std::uint64_t token);
  arrival arrive(message&& m);
  [[nodiscard]] const std::deque<message>& unreceived() const { return unexpected_; }

 private:
  enum class kind : std::uint8_t { free, send, recv, delay };
  struct handle_state {
    kind k{kind::free};
    std::uint32_t gen{0};  // bumped each time the handle is handed out
    nic_status status{nic_status::pending};
    std::uint32_t src{0};
    std::span<std::byte> buffer{};
    msg_header header{};
  };

  nic_handle make(kind k);
  void land(nic_handle h, const message& m);

  std::uint32_t tile_;
  std::vector<handle_state> handles_;
  std::vector<nic_handle> free_;
  // Unmatched receives and unreceived messages, oldest first. One list per tile, not
  // per (tile, source) pair: a tile rarely has more than a few, and p^2 containers
  // would cost gigabytes at p = 1024.
  std::deque<nic_handle> posted_;
  std::deque<message> unexpected_;
  std::deque<msg_header> control_;
  arrival_check check_{nullptr};
  void* check_ctx_{nullptr};
};

}  // namespace tessera::harness
