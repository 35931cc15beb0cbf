// The tile_nic contract (nic.hpp) over the NIC's memory-mapped registers
// (tile_abi.hpp, docs/nic-registers.md): what the tile runtime drives on a Cortex-M4
// tile image. Every operation stages its arguments in registers and writes a command;
// the answer is in `result` when the write returns.
//
// The registers are reached through a Bus, so the same driver runs on the tile (volatile
// loads and stores at tile_abi::nic_base, a wfi to idle) and in host tests (calls into
// the platform's device model):
//   std::uint32_t read(std::uint32_t offset);
//   void write(std::uint32_t offset, std::uint32_t value);
//   std::uint32_t address(const void* p);  // p's address in tile RAM
//   void wait();                           // sleep until the NIC changes
//
// The arrival check of the reliable protocol runs in the NIC's receive path, which this
// NIC does not give the tile: set_arrival_check with a check makes every later operation
// fail (no_handle, false), so a tile asked to run the reliable protocol stops with a
// named error instead of running unprotected.
#pragma once

#include <cstdint>
#include <span>

#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera {

template <typename Bus>
class mmio_nic {
 public:
  mmio_nic() = default;
  explicit mmio_nic(Bus bus) : bus_{bus} {}

  nic_handle post_send(const msg_header& h, std::span<const std::byte> payload) {
    put_header(h);
    bus_.write(tile_abi::reg::arg_addr, bus_.address(payload.data()));
    bus_.write(tile_abi::reg::arg_len, static_cast<std::uint32_t>(payload.size()));
    return handle_of(tile_abi::command::post_send);
  }

  nic_handle post_recv(std::uint32_t tile, std::span<std::byte> buffer) {
    bus_.write(tile_abi::reg::arg_peer, tile);
    bus_.write(tile_abi::reg::arg_addr, bus_.address(buffer.data()));
    bus_.write(tile_abi::reg::arg_len, static_cast<std::uint32_t>(buffer.size()));
    return handle_of(tile_abi::command::post_recv);
  }

  nic_handle post_delay(std::uint64_t cycles) {
    bus_.write(tile_abi::reg::arg_cycles_lo, tile_abi::lo(cycles));
    bus_.write(tile_abi::reg::arg_cycles_hi, tile_abi::hi(cycles));
    return handle_of(tile_abi::command::post_delay);
  }

  bool post_control(const msg_header& h) {
    put_header(h);
    return run(tile_abi::command::post_control) == 1;
  }

  bool take_control(const msg_header& want, msg_header& out) {
    put_header(want);
    if (run(tile_abi::command::take_control) != 1) return false;
    out = get_header();
    return true;
  }

  nic_status test(nic_handle x) {
    bus_.write(tile_abi::reg::arg_handle, x);
    const std::uint32_t r = run(tile_abi::command::test);
    return r <= static_cast<std::uint32_t>(nic_status::failed) ? static_cast<nic_status>(r)
                                                               : nic_status::failed;
  }

  const msg_header& header(nic_handle x) {
    bus_.write(tile_abi::reg::arg_handle, x);
    run(tile_abi::command::header);
    last_ = get_header();
    return last_;
  }

  void release(nic_handle x) {
    bus_.write(tile_abi::reg::arg_handle, x);
    run(tile_abi::command::release);
  }

  void idle() { bus_.wait(); }

  void set_arrival_check(arrival_check fn, void* ctx) {
    (void)ctx;
    refused_ = fn != nullptr;
  }

  // The tile's program starts (its initial data is in place) and ends (what follows is
  // the report): the platform charges the instructions between the two to fabric time.
  void start() { run(tile_abi::command::start); }
  void program_end() { run(tile_abi::command::program_end); }
  // The run is over for this tile: its result is in the boot block.
  void finish() { run(tile_abi::command::finish); }

  // The timeline's op spans: the executor says which op it takes up (command op_mark);
  // nothing unless the platform asked for spans (the boot block's trace_ops).
  void trace_ops(bool on) { trace_ = on; }
  void note_op(std::uint32_t index, const op& o, bool past) {
    if (!trace_) return;
    bus_.write(tile_abi::reg::arg_handle, index);
    bus_.write(tile_abi::reg::arg_peer, o.to);
    bus_.write(tile_abi::reg::arg_len, o.from);
    bus_.write(tile_abi::reg::arg_addr,
               static_cast<std::uint32_t>(o.kind) | (past ? std::uint32_t{1} << 31 : 0U));
    bus_.write(tile_abi::reg::arg_cycles_lo, o.step);
    run(tile_abi::command::op_mark);
  }

  [[nodiscard]] Bus& bus() { return bus_; }

 private:
  std::uint32_t run(tile_abi::command c) {
    if (refused_) return tile_abi::bad_command;
    bus_.write(tile_abi::reg::command, static_cast<std::uint32_t>(c));
    return bus_.read(tile_abi::reg::result);
  }

  nic_handle handle_of(tile_abi::command c) {
    const std::uint32_t r = run(c);
    return r == tile_abi::bad_command ? no_handle : r;
  }

  void put_header(const msg_header& h) {
    namespace reg = tile_abi::reg;
    bus_.write(reg::hdr_src, h.src);
    bus_.write(reg::hdr_dst, h.dst);
    bus_.write(reg::hdr_kind, static_cast<std::uint32_t>(h.kind));
    bus_.write(reg::hdr_proto, static_cast<std::uint32_t>(h.proto));
    bus_.write(reg::hdr_tag, h.tag);
    bus_.write(reg::hdr_blocks, h.blocks);
    bus_.write(reg::hdr_first_block, h.first_block);
    bus_.write(reg::hdr_bytes_lo, tile_abi::lo(h.bytes));
    bus_.write(reg::hdr_bytes_hi, tile_abi::hi(h.bytes));
    bus_.write(reg::hdr_seq, h.seq);
    bus_.write(reg::hdr_check, h.check);
  }

  msg_header get_header() {
    namespace reg = tile_abi::reg;
    msg_header h;
    h.src = bus_.read(reg::hdr_src);
    h.dst = bus_.read(reg::hdr_dst);
    h.kind = static_cast<msg_kind>(bus_.read(reg::hdr_kind));
    h.proto = static_cast<protocol>(bus_.read(reg::hdr_proto));
    h.tag = bus_.read(reg::hdr_tag);
    h.blocks = bus_.read(reg::hdr_blocks);
    h.first_block = bus_.read(reg::hdr_first_block);
    h.bytes = tile_abi::join(bus_.read(reg::hdr_bytes_lo), bus_.read(reg::hdr_bytes_hi));
    h.seq = bus_.read(reg::hdr_seq);
    h.check = bus_.read(reg::hdr_check);
    return h;
  }

  Bus bus_{};
  msg_header last_{};
  bool refused_{false};
  bool trace_{false};
};

}  // namespace tessera
