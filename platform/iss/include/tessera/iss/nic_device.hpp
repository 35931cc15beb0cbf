// The platform's side of the tile NIC's registers (tessera/runtime/tile_abi.hpp,
// docs/nic-registers.md): a device that turns a tile's register accesses into calls of a
// tile_nic (nic.hpp) — the TLM platform's tlm_nic for an ISS tile, so an ISS tile's
// messages are the same TLM transactions a native tile's are. Payloads and receive
// buffers are addresses in the tile's RAM, which the device reaches directly (the ISS
// maps host memory as tile RAM): a send's payload is read when the command runs, a
// receive lands in the buffer as it arrives.
//
// Nothing the tile writes can crash the platform: an unknown command, an address or
// length outside tile RAM, or a handle the NIC did not give (or already released) makes
// the command answer tile_abi::bad_command, and the device counts the refusal.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tessera/harness/harness.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera::iss {

// The tile's RAM as the device sees it: tile address `base` is ram[0].
struct guest_ram {
  std::span<std::byte> ram;
  std::uint32_t base{tile_abi::ram_base};

  // The bytes at [addr, addr + len) of tile RAM; an empty span with ok false when any
  // of it lies outside.
  struct range {
    std::span<std::byte> bytes;
    bool ok{false};
  };
  [[nodiscard]] range at(std::uint32_t addr, std::uint32_t len) const {
    if (addr < base) return {};
    const std::uint64_t off = std::uint64_t{addr} - base;
    if (off > ram.size() || len > ram.size() - off) return {};
    return {ram.subspan(static_cast<std::size_t>(off), len), true};
  }
};

template <tile_nic Nic>
class nic_device {
 public:
  nic_device(Nic& nic, std::uint32_t tile, std::uint32_t tiles, guest_ram ram)
      : nic_{&nic}, ram_{ram}, tile_{tile}, tiles_{tiles} {}

  // Called at each op_mark command with where the tile's program is (the timeline's op
  // spans); none: the marks are taken and dropped.
  void on_op(std::function<void(const harness::tile_snapshot&)> f) { on_op_ = std::move(f); }

  [[nodiscard]] std::uint32_t read(std::uint32_t offset) const {
    namespace reg = tile_abi::reg;
    switch (offset) {
      case reg::magic:
        return tile_abi::nic_magic;
      case reg::version:
        return tile_abi::abi_version;
      case reg::tile:
        return tile_;
      case reg::tiles:
        return tiles_;
      default:
        break;
    }
    if (offset % 4 != 0 || offset >= tile_abi::nic_size) return 0;
    return regs_[offset / 4];
  }

  void write(std::uint32_t offset, std::uint32_t value) {
    if (offset % 4 != 0 || offset >= tile_abi::nic_size) return;
    if (offset == tile_abi::reg::command) {
      regs_[tile_abi::reg::result / 4] = execute(static_cast<tile_abi::command>(value));
      ++commands_;
      return;
    }
    // The identity and the result are read-only.
    if (offset <= tile_abi::reg::tiles || offset == tile_abi::reg::result) return;
    regs_[offset / 4] = value;
  }

  [[nodiscard]] bool finished() const { return finished_; }
  // Where the tile's program is: before its start command, between it and program_end,
  // after. A network command before start starts the program too (an image that never
  // says start is timed from its first use of the network).
  enum class program_phase : std::uint8_t { setup, running, report };
  [[nodiscard]] program_phase phase() const { return phase_; }
  // The platform starts the program of a tile whose setup ran past its budget.
  void start_program() {
    if (phase_ == program_phase::setup) phase_ = program_phase::running;
  }
  [[nodiscard]] std::uint64_t commands() const { return commands_; }
  [[nodiscard]] std::uint64_t refused() const { return refused_; }
  [[nodiscard]] Nic& nic() { return *nic_; }

 private:
  std::uint32_t get(std::uint32_t offset) const { return regs_[offset / 4]; }
  void set(std::uint32_t offset, std::uint32_t value) { regs_[offset / 4] = value; }

  std::uint32_t refuse() {
    ++refused_;
    return tile_abi::bad_command;
  }

  msg_header header_regs() const {
    namespace reg = tile_abi::reg;
    msg_header h;
    h.src = get(reg::hdr_src);
    h.dst = get(reg::hdr_dst);
    h.kind = static_cast<msg_kind>(get(reg::hdr_kind));
    h.proto = static_cast<protocol>(get(reg::hdr_proto));
    h.tag = get(reg::hdr_tag);
    h.blocks = get(reg::hdr_blocks);
    h.first_block = get(reg::hdr_first_block);
    h.bytes = tile_abi::join(get(reg::hdr_bytes_lo), get(reg::hdr_bytes_hi));
    h.seq = get(reg::hdr_seq);
    h.check = get(reg::hdr_check);
    return h;
  }

  void set_header_regs(const msg_header& h) {
    namespace reg = tile_abi::reg;
    set(reg::hdr_src, h.src);
    set(reg::hdr_dst, h.dst);
    set(reg::hdr_kind, static_cast<std::uint32_t>(h.kind));
    set(reg::hdr_proto, static_cast<std::uint32_t>(h.proto));
    set(reg::hdr_tag, h.tag);
    set(reg::hdr_blocks, h.blocks);
    set(reg::hdr_first_block, h.first_block);
    set(reg::hdr_bytes_lo, tile_abi::lo(h.bytes));
    set(reg::hdr_bytes_hi, tile_abi::hi(h.bytes));
    set(reg::hdr_seq, h.seq);
    set(reg::hdr_check, h.check);
  }

  // A known message kind and protocol: the enumerations' ranges.
  static bool valid(const msg_header& h) {
    return static_cast<std::uint32_t>(h.kind) <= static_cast<std::uint32_t>(msg_kind::data_ack) &&
           static_cast<std::uint32_t>(h.proto) <= static_cast<std::uint32_t>(protocol::reliable);
  }

  std::uint32_t issued(nic_handle h) {
    if (h == no_handle) return refuse();
    if (live_.size() <= h) live_.resize(std::size_t{h} + 1, false);
    live_[h] = true;
    return h;
  }

  bool live(std::uint32_t h) const { return h < live_.size() && live_[h]; }

  std::uint32_t execute(tile_abi::command c) {
    namespace reg = tile_abi::reg;
    using tile_abi::command;
    const auto code = static_cast<std::uint32_t>(c);
    if (code >= static_cast<std::uint32_t>(command::post_send) &&
        code <= static_cast<std::uint32_t>(command::release))
      start_program();  // a network command
    if (c == command::start) start_program();
    switch (c) {
      case command::post_send: {
        const msg_header h = header_regs();
        const auto payload = ram_.at(get(reg::arg_addr), get(reg::arg_len));
        if (!payload.ok || !valid(h) || h.dst >= tiles_) return refuse();
        return issued(nic_->post_send(h, payload.bytes));
      }
      case command::post_recv: {
        const auto buffer = ram_.at(get(reg::arg_addr), get(reg::arg_len));
        if (!buffer.ok || get(reg::arg_peer) >= tiles_) return refuse();
        return issued(nic_->post_recv(get(reg::arg_peer), buffer.bytes));
      }
      case command::post_delay:
        return issued(
            nic_->post_delay(tile_abi::join(get(reg::arg_cycles_lo), get(reg::arg_cycles_hi))));
      case command::post_control: {
        const msg_header h = header_regs();
        if (!valid(h) || h.dst >= tiles_) return refuse();
        return nic_->post_control(h) ? 1 : 0;
      }
      case command::take_control: {
        const msg_header want = header_regs();
        if (!valid(want)) return refuse();
        msg_header got;
        if (!nic_->take_control(want, got)) return 0;
        set_header_regs(got);
        return 1;
      }
      case command::test:
        if (!live(get(reg::arg_handle))) return refuse();
        return static_cast<std::uint32_t>(nic_->test(get(reg::arg_handle)));
      case command::header:
        if (!live(get(reg::arg_handle))) return refuse();
        set_header_regs(nic_->header(get(reg::arg_handle)));
        return 0;
      case command::release:
        if (!live(get(reg::arg_handle))) return refuse();
        nic_->release(get(reg::arg_handle));
        live_[get(reg::arg_handle)] = false;
        return 0;
      case command::finish:
        finished_ = true;
        return 0;
      case command::start:  // started above; until its first op, the program's prologue
        if (on_op_) on_op_(harness::tile_snapshot{});
        return 0;
      case command::program_end:
        phase_ = program_phase::report;
        return 0;
      case command::op_mark: {
        if (!on_op_) return 0;
        harness::tile_snapshot x;
        x.index = get(reg::arg_handle);
        x.past = (get(reg::arg_addr) >> 31) != 0;
        x.kind = static_cast<op_kind>(get(reg::arg_addr) & 0xffU);
        x.step = get(reg::arg_cycles_lo);
        x.to = get(reg::arg_peer);
        x.from = get(reg::arg_len);
        on_op_(x);
        return 0;
      }
      case command::none:
        break;
    }
    return refuse();
  }

  Nic* nic_;
  guest_ram ram_;
  std::uint32_t tile_;
  std::uint32_t tiles_;
  std::array<std::uint32_t, tile_abi::nic_size / 4> regs_{};
  std::vector<bool> live_;
  std::function<void(const harness::tile_snapshot&)> on_op_;
  bool finished_{false};
  program_phase phase_{program_phase::setup};
  std::uint64_t commands_{0};
  std::uint64_t refused_{0};
};

}  // namespace tessera::iss
