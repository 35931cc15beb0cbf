// The reliable protocol's per-tile state (protocol::reliable; the executor drives it).
//
// End to end, over any fabric that may lose or damage data messages:
//  - every data message from a tile to a destination carries the next sequence number
//    of that pair and a checksum of its payload (message_check);
//  - the destination checks both when the message arrives, before the NIC matches or
//    buffers it (the NIC's arrival check): an intact message with the sequence number
//    it expects next from that source is kept and owed a data_ack; a damaged one, one
//    it already has (a retransmission that crossed the ack) and one from beyond a gap
//    (an earlier one was lost) are discarded, and a duplicate is acknowledged again,
//    since its sender may have missed nothing but still waits;
//  - the sender's send is complete when its data_ack arrives; a timer that scales with
//    the message's lone time (executor_config) retransmits it, doubling up to 16 times
//    its first length, until max_retries.
// Control messages (acks, barrier and pair syncs) are not sequenced: the fault model
// drops and damages data messages only; a link that goes down stops control messages
// too, and that ends in a report, not a recovery.
//
// Freestanding: the tables live in caller storage (one entry per tile of the fabric
// for each direction, and a ring of acks owed between two polls of the tile).
#pragma once

#include <cstdint>
#include <span>

#include "tessera/runtime/message.hpp"

namespace tessera {

struct owed_ack {
  std::uint32_t dst{0};
  std::uint32_t seq{0};
};

struct reliable_stats {
  std::uint64_t retransmissions{0};
  std::uint64_t timeout_cycles{0};      // timer lengths that expired before an ack
  std::uint64_t rejected_damaged{0};    // checksum mismatch
  std::uint64_t rejected_duplicate{0};  // already received
  std::uint64_t rejected_gap{0};        // an earlier message from the source is missing
  std::uint64_t acks_sent{0};
  std::uint64_t acks_deferred{0};  // the owed ring was full: the duplicate will ask again
};

class reliable_state {
 public:
  reliable_state() = default;
  // next_out[d]: next sequence number to tile d; next_in[s]: the one expected from s.
  reliable_state(std::span<std::uint32_t> next_out, std::span<std::uint32_t> next_in,
                 std::span<owed_ack> ring)
      : out_{next_out}, in_{next_in}, ring_{ring} {
    for (std::uint32_t& x : out_)
      x = 0;
    for (std::uint32_t& x : in_)
      x = 0;
  }

  [[nodiscard]] bool ready() const { return !out_.empty() && !ring_.empty(); }

  std::uint32_t take_seq(std::uint32_t dst) { return out_[dst]++; }

  // The NIC's arrival check (nic.hpp): keep the message or discard it.
  static bool check(void* ctx, const msg_header& h, std::span<const std::byte> payload) {
    return static_cast<reliable_state*>(ctx)->arrive(h, payload);
  }

  bool arrive(const msg_header& h, std::span<const std::byte> payload) {
    if (h.proto != protocol::reliable || h.src >= in_.size()) return true;
    if (message_check(h, payload) != h.check) {
      ++stats.rejected_damaged;
      return false;
    }
    const std::uint32_t want = in_[h.src];
    if (h.seq == want) {
      in_[h.src] = want + 1;
      owe(h.src, h.seq);
      return true;
    }
    if (seq_before(h.seq, want)) {
      ++stats.rejected_duplicate;
      owe(h.src, h.seq);
    } else {
      ++stats.rejected_gap;
    }
    return false;
  }

  // The next ack to send, oldest first.
  bool pop_ack(owed_ack& out) {
    if (count_ == 0) return false;
    out = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
    --count_;
    return true;
  }

  [[nodiscard]] std::uint32_t expected_from(std::uint32_t src) const { return in_[src]; }

  reliable_stats stats{};

 private:
  // Sequence numbers wrap: compare by the signed distance.
  static bool seq_before(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a - b) < 0;
  }

  void owe(std::uint32_t dst, std::uint32_t seq) {
    if (count_ == ring_.size()) {
      ++stats.acks_deferred;
      return;
    }
    ring_[(head_ + count_) % ring_.size()] = owed_ack{dst, seq};
    ++count_;
  }

  std::span<std::uint32_t> out_{};
  std::span<std::uint32_t> in_{};
  std::span<owed_ack> ring_{};
  std::size_t head_{0};
  std::size_t count_{0};
};

}  // namespace tessera
