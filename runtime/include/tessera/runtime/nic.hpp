// The network interface a tile runtime drives. On a real tile it is a set of
// memory-mapped registers and a DMA engine; in simulation it is bound to a model
// (the alpha-beta network, a TLM socket, RTL pins). The executor only polls, so one
// thread can step many tiles; a tile that has nothing to do calls idle().
//
// The rules every implementation keeps:
//  - Data messages between a pair of tiles are matched to posted receives in order
//    (no overtaking). A receive's buffer must hold the directory and the bytes.
//  - A FORCED data message that arrives when its source has no posted, unmatched
//    receive at the destination is dropped and counted (Bokhari §2.1). Raw and
//    UNFORCED data are buffered until a receive is posted.
//  - Control messages (reserve, ack, sync, pair, data_ack) carry no payload; they are
//    always buffered and are picked up with take_control.
//  - An arrival check, when set, sees every data message as it arrives, before the
//    NIC matches or buffers it (on a tile: the receive interrupt), and may refuse it:
//    the NIC then discards the message. The reliable protocol checks its sequence
//    number and checksum there (reliable.hpp).
//  - Releasing a pending delay cancels it.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>

#include "tessera/runtime/message.hpp"

namespace tessera {

enum class nic_status : std::uint8_t { pending, done, failed };

// True keeps the message; false discards it.
using arrival_check = bool (*)(void* ctx, const msg_header& h, std::span<const std::byte> payload);

using nic_handle = std::uint32_t;
inline constexpr nic_handle no_handle = 0xffffffffU;

template <typename N>
concept tile_nic = requires(N& n, const msg_header& h, std::span<const std::byte> payload,
                            std::span<std::byte> buffer, nic_handle x, msg_header& out,
                            std::uint32_t tile, std::uint64_t cycles, arrival_check check,
                            void* ctx) {
  // A data message; the payload may be reused once the handle completes.
  { n.post_send(h, payload) } -> std::same_as<nic_handle>;
  // The next data message from `tile` lands in `buffer`.
  { n.post_recv(tile, buffer) } -> std::same_as<nic_handle>;
  // Completes after `cycles` of the tile's time (Bokhari's idle slot).
  { n.post_delay(cycles) } -> std::same_as<nic_handle>;
  // A control message; fire and forget. False when the NIC has no room.
  { n.post_control(h) } -> std::same_as<bool>;
  // Pops the first arrived control message of kind h.kind from h.src (or any_tile)
  // with tag h.tag (or any_tag) into `out`.
  { n.take_control(h, out) } -> std::same_as<bool>;
  { n.test(x) } -> std::same_as<nic_status>;
  // The header of a completed receive.
  { n.header(x) } -> std::same_as<const msg_header&>;
  // Frees a completed handle.
  n.release(x);
  // Nothing can progress until the network acts: sleep (WFI) or drive the model.
  n.idle();
  // Installs the arrival check (nullptr: none).
  n.set_arrival_check(check, ctx);
};

}  // namespace tessera
