// One Cortex-M4 tile core: the Unicorn engine (Debian libunicorn 2.0.1, its
// UC_CPU_ARM_CORTEX_M4 model) running a tile image (elf_image.hpp) against the tile's
// memory map (tessera/runtime/tile_abi.hpp): flash, RAM that is host memory (the NIC device
// reads payloads from it and receives land in it directly), the stack guard page left
// unmapped, the system control space as a page of plain RAM, and the NIC's registers as
// memory-mapped I/O handed to a bus.
//
// run() executes until one of these, and says which:
//   command  the core is about to enter tessera_nic_command: the caller brings the tile's
//            time and the fabric's together, then runs on, and the command's register
//            write reaches the NIC at that time (docs/tiles.md, "Time");
//   idle     the core executed wfi (or wfe): it waits for the NIC, not for work;
//   budget   it retired at least `budget` instructions since run() began;
//   fault    a bad memory access (unmapped, the stack guard, a write to flash), an
//            undefined instruction or an exception the tile does not handle, with the
//            program counter and, for accesses, the address;
//   debug    a breakpoint (before its instruction), or one instruction done in single-step
//            mode (gdb_server.hpp).
// The core is also a debug_target: GDB's view of its registers and memory.
// Instructions are counted one by one, in a hook before each, which is also where the core
// stops: exactly before the instruction (never inside an IT block, whose state would not
// survive the restart).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/iss/elf_image.hpp"
#include "tessera/iss/gdb_server.hpp"

struct uc_struct;

namespace tessera::iss {

// The NIC's registers as the core reaches them.
class register_bus {
 public:
  virtual ~register_bus() = default;
  virtual std::uint32_t read(std::uint32_t offset) = 0;
  virtual void write(std::uint32_t offset, std::uint32_t value) = 0;
};

enum class stop_reason : std::uint8_t { command, idle, budget, fault, debug };

struct core_stop {
  stop_reason why{stop_reason::budget};
  std::uint64_t instructions{0};  // retired during this run()
  std::uint32_t pc{0};
  std::string fault;  // why == fault: what happened, with the address
};

class cortex_m4 final : public debug_target {
 public:
  // Throws input_error when Unicorn cannot build the core.
  cortex_m4(const elf_image& image, register_bus& nic);
  ~cortex_m4() override;
  cortex_m4(const cortex_m4&) = delete;
  cortex_m4& operator=(const cortex_m4&) = delete;

  // Tile RAM as host memory: ram()[0] is tile_abi::ram_base (the boot block).
  [[nodiscard]] std::span<std::byte> ram() { return {ram_.get(), ram_size_}; }
  // Loads the image's segments, zeroes RAM, and takes SP and PC from the vector table.
  void reset();
  core_stop run(std::uint64_t budget);

  [[nodiscard]] std::uint32_t pc() const;
  [[nodiscard]] std::uint64_t retired() const { return retired_; }

  // The debugger's view (debug_target). Memory: flash, RAM and the system control space;
  // the stack guard and the NIC's registers are refused. A breakpoint stops the core
  // before its instruction, except inside an IT block (it cannot stop there); single-step
  // mode stops after each instruction (an IT block's instructions run as one step).
  std::uint32_t read_register(unsigned n) override;
  void write_register(unsigned n, std::uint32_t value) override;
  bool read_memory(std::uint32_t addr, std::span<std::byte> out) override;
  bool write_memory(std::uint32_t addr, std::span<const std::byte> in) override;
  void set_breakpoint(std::uint32_t addr, bool on) override;
  void clear_breakpoints() override { breakpoints_.clear(); }
  void single_step(bool on) { step_ = on; }

 private:
  static void on_code(uc_struct* uc, std::uint64_t addr, std::uint32_t size, void* self);
  static bool on_invalid(uc_struct* uc, int type, std::uint64_t addr, int size, std::int64_t value,
                         void* self);
  static std::uint64_t on_read(uc_struct* uc, std::uint64_t offset, unsigned size, void* self);
  static void on_write(uc_struct* uc, std::uint64_t offset, unsigned size, std::uint64_t value,
                       void* self);
  std::uint16_t halfword(std::uint32_t addr);

  const elf_image& image_;
  register_bus* nic_;
  uc_struct* uc_{nullptr};
  // Zeroed memory the host maps on first touch (calloc): a tile's 4 MiB of RAM costs only
  // the pages it uses.
  struct freer {
    void operator()(std::byte* p) const;
  };
  using block = std::unique_ptr<std::byte[], freer>;
  static block zeroed(std::size_t bytes);
  std::size_t ram_size_;
  block flash_;
  block ram_;
  block scs_;
  bool fresh_{true};  // nothing has run yet: the memory is still all zero
  std::uint64_t retired_{0};
  // This run():
  std::uint64_t budget_{0};
  std::uint64_t count_{0};
  bool stop_budget_{false};
  bool stop_command_{false};
  bool past_command_{false};  // resuming at tessera_nic_command: do not stop there again
  // The debugger's: breakpoint addresses, single-step mode, resuming at the breakpoint
  // the core stopped at (do not stop there again), a debug stop in this run.
  std::vector<std::uint32_t> breakpoints_;
  bool step_{false};
  bool past_break_{false};
  bool stop_debug_{false};
  std::string invalid_;  // the last invalid access
};

}  // namespace tessera::iss
