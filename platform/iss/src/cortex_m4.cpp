#include "tessera/iss/cortex_m4.hpp"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>

#include "tessera/common/errors.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera::iss {
namespace {

namespace abi = tile_abi;

constexpr std::uint16_t wfi_opcode = 0xBF30;
constexpr std::uint16_t wfe_opcode = 0xBF20;

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

void check(uc_err e, const char* what) {
  if (e != UC_ERR_OK)
    throw input_error(std::string("the Cortex-M4 core: ") + what + ": " + uc_strerror(e));
}

// Whether the core is inside an IT block (xPSR's IT bits, [26:25] and [15:10], nonzero). A
// block can start there, and the IT state does not survive a stop and a restart (Unicorn
// restarts at the program counter with a fresh xPSR), so the core is stopped only outside.
bool in_it_block(uc_engine* uc) {
  std::uint32_t xpsr = 0;
  uc_reg_read(uc, UC_ARM_REG_XPSR, &xpsr);
  return (xpsr & 0x0600'FC00U) != 0;
}

}  // namespace

cortex_m4::cortex_m4(const elf_image& image, register_bus& nic)
    : image_{image},
      nic_{&nic},
      ram_size_{abi::ram_size},
      flash_{zeroed(abi::flash_size)},
      ram_{zeroed(abi::ram_size)},
      scs_{zeroed(abi::scs_size)} {
  check(uc_open(UC_ARCH_ARM, static_cast<uc_mode>(UC_MODE_THUMB | UC_MODE_MCLASS), &uc_),
        "uc_open");
  check(uc_ctl_set_cpu_model(uc_, UC_CPU_ARM_CORTEX_M4), "the Cortex-M4 model");
  check(uc_mem_map_ptr(uc_, abi::flash_base, abi::flash_size, UC_PROT_READ | UC_PROT_EXEC,
                       flash_.get()),
        "mapping flash");
  // RAM in two parts around the stack guard page, both over the one host buffer.
  const std::uint32_t guard = image_.heap_end - abi::stack_guard;
  const std::uint32_t below = guard - abi::ram_base;
  const std::uint32_t above_off = image_.heap_end - abi::ram_base;
  check(uc_mem_map_ptr(uc_, abi::ram_base, below, UC_PROT_ALL, ram_.get()), "mapping RAM");
  check(uc_mem_map_ptr(uc_, image_.heap_end, abi::ram_size - above_off, UC_PROT_ALL,
                       ram_.get() + above_off),
        "mapping the stack");
  check(uc_mem_map_ptr(uc_, abi::scs_base, abi::scs_size, UC_PROT_READ | UC_PROT_WRITE, scs_.get()),
        "mapping the system control space");
  check(uc_mmio_map(uc_, abi::nic_base, abi::nic_size, &cortex_m4::on_read, this,
                    &cortex_m4::on_write, this),
        "mapping the NIC");
  uc_hook h{};
  check(
      uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&cortex_m4::on_code), this, 1, 0),
      "the instruction hook");
  check(uc_hook_add(uc_, &h, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&cortex_m4::on_invalid),
                    this, 1, 0),
        "the invalid-access hook");
}

void cortex_m4::freer::operator()(std::byte* p) const {
  std::free(p);
}

cortex_m4::block cortex_m4::zeroed(std::size_t bytes) {
  void* p = std::calloc(bytes, 1);
  if (p == nullptr) throw std::bad_alloc();
  return block{static_cast<std::byte*>(p)};
}

cortex_m4::~cortex_m4() {
  if (uc_ != nullptr) uc_close(uc_);
}

void cortex_m4::reset() {
  if (!fresh_) {
    std::memset(flash_.get(), 0, abi::flash_size);
    std::memset(ram_.get(), 0, abi::ram_size);
    std::memset(scs_.get(), 0, abi::scs_size);
  }
  fresh_ = false;
  for (const elf_segment& s : image_.segments) {
    std::byte* base = s.addr < abi::ram_base ? flash_.get() + (s.addr - abi::flash_base)
                                             : ram_.get() + (s.addr - abi::ram_base);
    if (!s.bytes.empty()) std::memcpy(base, s.bytes.data(), s.bytes.size());
  }
  std::uint32_t sp = 0;
  std::uint32_t pc = 0;
  std::memcpy(&sp, flash_.get(), 4);
  std::memcpy(&pc, flash_.get() + 4, 4);
  check(uc_reg_write(uc_, UC_ARM_REG_SP, &sp), "setting SP");
  const std::uint32_t start = pc & ~1U;
  check(uc_reg_write(uc_, UC_ARM_REG_PC, &start), "setting PC");
  retired_ = 0;
  past_command_ = false;
  // The image is new: translated blocks of an earlier image must go.
  uc_ctl_remove_cache(uc_, abi::flash_base, abi::flash_base + abi::flash_size);
}

std::uint32_t cortex_m4::pc() const {
  std::uint32_t pc = 0;
  uc_reg_read(uc_, UC_ARM_REG_PC, &pc);
  return pc;
}

std::uint16_t cortex_m4::halfword(std::uint32_t addr) {
  std::uint16_t h = 0;
  if (uc_mem_read(uc_, addr, &h, 2) != UC_ERR_OK) return 0;
  return h;
}

// Before every instruction: Unicorn stops exactly here, before the instruction runs, when
// asked from this hook (a stop asked from a block hook lets part of the block run and then
// restarts it, which corrupts the registers).
void cortex_m4::on_code(uc_struct* uc, std::uint64_t addr, std::uint32_t, void* self) {
  auto& c = *static_cast<cortex_m4*>(self);
  if (c.step_ && c.count_ >= 1 && !in_it_block(uc)) {
    c.stop_debug_ = true;
    uc_emu_stop(uc);
    return;
  }
  if (!c.breakpoints_.empty()) {
    const bool resuming = c.past_break_ && c.count_ == 0;
    c.past_break_ = false;
    if (!resuming && !in_it_block(uc) &&
        std::find(c.breakpoints_.begin(), c.breakpoints_.end(), static_cast<std::uint32_t>(addr)) !=
            c.breakpoints_.end()) {
      c.stop_debug_ = true;
      c.past_break_ = true;  // the next run() starts here and executes it
      uc_emu_stop(uc);
      return;
    }
  }
  if (addr == c.image_.nic_command) {
    if (c.past_command_) {
      c.past_command_ = false;
    } else {
      c.stop_command_ = true;
      uc_emu_stop(uc);
      return;
    }
  }
  if (c.count_ >= c.budget_ && !in_it_block(uc)) {
    c.stop_budget_ = true;
    uc_emu_stop(uc);
    return;
  }
  ++c.count_;
}

bool cortex_m4::on_invalid(uc_struct* uc, int type, std::uint64_t addr, int size, std::int64_t,
                           void* self) {
  auto& c = *static_cast<cortex_m4*>(self);
  const char* what = "access";
  switch (static_cast<uc_mem_type>(type)) {
    case UC_MEM_READ_UNMAPPED:
    case UC_MEM_READ_PROT:
      what = "read";
      break;
    case UC_MEM_WRITE_UNMAPPED:
    case UC_MEM_WRITE_PROT:
      what = "write";
      break;
    case UC_MEM_FETCH_UNMAPPED:
    case UC_MEM_FETCH_PROT:
      what = "instruction fetch";
      break;
    default:
      break;
  }
  const auto a = static_cast<std::uint32_t>(addr);
  std::string where;
  if (a >= c.image_.heap_end - abi::stack_guard && a < c.image_.heap_end) {
    where = " in the stack guard (stack overflow)";
  } else if (a < abi::flash_base + abi::flash_size &&
             static_cast<uc_mem_type>(type) == UC_MEM_WRITE_PROT) {
    where = " to flash";
  } else {
    where = " outside tile memory";
  }
  std::uint32_t pc = 0;
  std::uint32_t lr = 0;
  std::uint32_t sp = 0;
  uc_reg_read(uc, UC_ARM_REG_PC, &pc);
  uc_reg_read(uc, UC_ARM_REG_LR, &lr);
  uc_reg_read(uc, UC_ARM_REG_SP, &sp);
  c.invalid_ = std::string("bad memory ") + what + " of " + std::to_string(size) + " bytes at " +
               hex(a) + where + ", pc " + hex(pc) + " (lr " + hex(lr) + ", sp " + hex(sp) + ")";
  return false;
}

std::uint64_t cortex_m4::on_read(uc_struct*, std::uint64_t offset, unsigned size, void* self) {
  auto& c = *static_cast<cortex_m4*>(self);
  const std::uint32_t word = c.nic_->read(static_cast<std::uint32_t>(offset & ~3ULL));
  if (size >= 4) return word;
  const unsigned shift = static_cast<unsigned>(offset & 3U) * 8;
  return (word >> shift) & ((1ULL << (8 * size)) - 1);
}

void cortex_m4::on_write(uc_struct*, std::uint64_t offset, unsigned size, std::uint64_t value,
                         void* self) {
  auto& c = *static_cast<cortex_m4*>(self);
  // The registers are words: a narrower store writes nothing (the runtime never does one).
  if (size != 4 || (offset & 3U) != 0) return;
  c.nic_->write(static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(value));
}

core_stop cortex_m4::run(std::uint64_t budget) {
  budget_ = budget;
  count_ = 0;
  stop_budget_ = false;
  stop_command_ = false;
  stop_debug_ = false;
  invalid_.clear();
  const std::uint32_t start = pc();
  const uc_err e = uc_emu_start(uc_, start | 1U, 0xFFFF'FFFFULL, 0, 0);
  core_stop s;
  s.instructions = count_;
  retired_ += count_;
  s.pc = pc();
  if (stop_debug_) {
    s.why = stop_reason::debug;
    return s;
  }
  if (stop_command_) {
    s.why = stop_reason::command;
    past_command_ = true;  // the next run() enters the function
    return s;
  }
  if (stop_budget_) {
    s.why = stop_reason::budget;
    return s;
  }
  if (e == UC_ERR_OK || e == UC_ERR_INSN_INVALID) {
    // wfi halts the core (Unicorn returns OK); wfe is not in its Cortex-M4 (it reports an
    // invalid instruction); either way the program counter is past it.
    const std::uint16_t op = halfword(s.pc - 2);
    if (op == wfi_opcode || op == wfe_opcode) {
      s.why = stop_reason::idle;
      return s;
    }
  }
  s.why = stop_reason::fault;
  if (!invalid_.empty()) {
    s.fault = invalid_;
  } else if (e == UC_ERR_INSN_INVALID) {
    s.fault = "undefined instruction " + hex(halfword(s.pc)) + " at " + hex(s.pc);
  } else if (e == UC_ERR_EXCEPTION) {
    s.fault = "an exception the tile does not handle (svc, bkpt or a fault) near " + hex(s.pc);
  } else {
    s.fault = std::string("the core stopped: ") + uc_strerror(e);
  }
  return s;
}

// ---- The debugger's view (debug_target) --------------------------------------------

namespace {

// GDB's register n (the target description's order) as Unicorn's: r0..r12, sp, lr, pc,
// xpsr.
int unicorn_register(unsigned n) {
  constexpr int named[] = {UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};
  return n <= 12 ? UC_ARM_REG_R0 + static_cast<int>(n) : named[n - 13];
}

// Whether [addr, addr + len) lies inside [base, base + size).
bool within(std::uint32_t addr, std::size_t len, std::uint32_t base, std::size_t size) {
  return addr >= base && std::uint64_t{addr} - base + len <= size;
}

// Whether [addr, addr + len) touches the NIC's registers: I/O whose reads have effects.
bool touches_nic(std::uint32_t addr, std::size_t len) {
  return std::uint64_t{addr} + len > abi::nic_base && addr < abi::nic_base + abi::nic_size;
}

}  // namespace

std::uint32_t cortex_m4::read_register(unsigned n) {
  std::uint32_t v = 0;
  if (n > 16) return v;
  uc_reg_read(uc_, unicorn_register(n), &v);
  if (n == 15) v &= ~1U;
  if (n == 16) v |= 1U << 24U;  // the Thumb bit: an M-profile core is always in Thumb state
  return v;
}

void cortex_m4::write_register(unsigned n, std::uint32_t value) {
  if (n > 16) return;
  if (n == 15) {
    value &= ~1U;
    past_break_ = false;  // a new place: a breakpoint there stops
  }
  uc_reg_write(uc_, unicorn_register(n), &value);
}

bool cortex_m4::read_memory(std::uint32_t addr, std::span<std::byte> out) {
  if (out.empty()) return true;
  if (touches_nic(addr, out.size())) return false;  // the stack guard is unmapped: refused too
  return uc_mem_read(uc_, addr, out.data(), out.size()) == UC_ERR_OK;
}

bool cortex_m4::write_memory(std::uint32_t addr, std::span<const std::byte> in) {
  if (in.empty()) return true;
  if (touches_nic(addr, in.size())) return false;
  if (within(addr, in.size(), abi::flash_base, abi::flash_size)) {
    // Flash is read-only to the core, not to the debugger; code written there must be
    // translated again.
    std::memcpy(flash_.get() + (addr - abi::flash_base), in.data(), in.size());
    uc_ctl_remove_cache(uc_, addr, addr + in.size());
    return true;
  }
  return uc_mem_write(uc_, addr, in.data(), in.size()) == UC_ERR_OK;
}

void cortex_m4::set_breakpoint(std::uint32_t addr, bool on) {
  const auto it = std::find(breakpoints_.begin(), breakpoints_.end(), addr);
  if (on && it == breakpoints_.end()) breakpoints_.push_back(addr);
  if (!on && it != breakpoints_.end()) breakpoints_.erase(it);
}

}  // namespace tessera::iss
