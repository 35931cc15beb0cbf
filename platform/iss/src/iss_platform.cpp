#include "tessera/iss/iss_platform.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/install_paths.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/iss/boot.hpp"
#include "tessera/iss/cortex_m4.hpp"
#include "tessera/iss/elf_image.hpp"
#include "tessera/iss/gdb_server.hpp"
#include "tessera/iss/nic_device.hpp"
#include "tessera/tlm/platform_run.hpp"

namespace tessera::iss {
namespace {

namespace abi = tile_abi;
namespace tlmm = tlm_models;

using device = nic_device<tlmm::tlm_nic>;

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// The program's op a tile was in when it last went idle, as its image reported it: " in
// op 3 (sendrecv, step 4, to tile 1, from tile 7)", or where it was outside its ops.
std::string op_text(const harness::tile_snapshot& x) {
  if (x.past) return " past its last op";
  if (x.index == 0) return " before its first op";
  // Ops counted from 0, as the executor's errors and the schedule format count them.
  std::string s = " in op " + std::to_string(x.index - 1) + " (" + std::string(op_name(x.kind)) +
                  ", step " + std::to_string(x.step);
  const bool sends =
      x.kind == op_kind::send || x.kind == op_kind::sendrecv || x.kind == op_kind::exchange;
  const bool receives = x.kind == op_kind::recv || x.kind == op_kind::sendrecv;
  if (x.kind == op_kind::exchange) {
    s += ", with tile " + std::to_string(x.to);
  } else {
    if (sends) s += ", to tile " + std::to_string(x.to);
    if (receives) s += ", from tile " + std::to_string(x.from);
  }
  return s + ")";
}

struct device_bus final : register_bus {
  device* dev{nullptr};
  std::uint32_t read(std::uint32_t offset) override { return dev->read(offset); }
  void write(std::uint32_t offset, std::uint32_t value) override { dev->write(offset, value); }
};

// One tile: its core, its NIC's register device, and what it did.
struct tile_parts {
  device_bus bus;
  std::unique_ptr<cortex_m4> core;
  std::unique_ptr<device> dev;
  tlmm::tile_cpu cpu;
  std::string fault;  // the core faulted: what, where
  tile_result result;
  std::uint64_t end_cycle{0};  // when its program ended (program_end), if it did
  bool ended{false};
  bool asleep{false};  // in wfi, waiting for its NIC to change
};

// The harness of an ISS run: the tiles' boot blocks in, their results out, and the
// outcome the native harness would give, from the blocks each tile reports.
class iss_harness : public harness::harness_core {
 public:
  iss_harness(const fw::collective_params& c, const tlmm::platform_options& o,
              const iss_options& io, const elf_image& image)
      : harness_core{c.f.tiles(), o.proto},
        c_{c},
        io_{io},
        image_{image},
        cfg_{tlmm::harness_for(c.f, o, c.bytes).exec},
        own_{io.own_contract ? image.contract : std::nullopt},
        slot_{own_ ? c.bytes : fw::layout{c}.slot_bytes()},
        parts_(c.f.tiles()),
        trace_{o.trace_ops} {
    if (own_) own_layout_.emplace(*own_, c.f, c.bytes, c.type);
    cfg_.tiles = c.f.tiles();
    cfg_.type = c.type;
    cfg_.rop = c.rop;
    if (io.instruction_budget) {
      budget_.resize(p_);
      for (std::uint32_t t = 0; t < p_; ++t) {
        budget_[t] = own_layout_ ? instruction_budget(*own_layout_, t) : instruction_budget(c, t);
        parts_[t].cpu.instruction_budget = budget_[t];
      }
    }
  }

  // Whether tile t has retired more instructions than its budget; if so the run stops
  // at `now` as a timeout.
  bool over_budget(std::uint32_t t, std::uint64_t now) {
    if (budget_.empty()) return false;
    const tlmm::tile_cpu& cpu = parts_[t].cpu;
    const std::uint64_t retired = cpu.instructions + cpu.setup_instructions;
    if (retired <= budget_[t]) return false;
    if (limited_) return true;  // another tile stopped the run in this instant: its report
    stopped_by_limit(now, "the instruction budget (tile " + std::to_string(t) + " retired " +
                              std::to_string(retired) + " instructions, past its " +
                              std::to_string(budget_[t]) +
                              " for this workload; --param max_cycles sets a cycle limit "
                              "instead, docs/tiles.md)");
    return true;
  }

  void attach(std::uint32_t t, tlmm::tlm_nic& n) {
    tile_parts& p = parts_[t];
    p.core = std::make_unique<cortex_m4>(image_, p.bus);
    p.core->reset();
    write_boot(p.core->ram(), c_, cfg_, t, trace_, own_layout_ ? &*own_layout_ : nullptr);
    p.dev = std::make_unique<device>(n, t, p_, guest_ram{p.core->ram()});
    // The op each op_mark names starts now: the core stopped before the command, and its
    // time has caught up with the fabric's.
    if (trace_) {
      p.dev->on_op(
          [this, t](const harness::tile_snapshot& x) { spans_.note(t, x, tlmm::now_cycles()); });
    }
    p.bus.dev = p.dev.get();
  }

  tile_parts& parts(std::uint32_t t) { return parts_[t]; }

  // Tile t went idle at `now`: where its program is, for the op spans (the image wrote
  // it to its boot block before its wfi), as the native harness notes it at each poll.
  void went_idle(std::uint32_t t, std::uint64_t now) {
    tile_parts& p = parts_[t];
    // Once its program has ended, the boot block's words are its last wait's.
    if (trace_ && p.dev->phase() == device::program_phase::running)
      spans_.note(t, read_progress(p.core->ram()), now);
  }
  const iss_options& options() const { return io_; }
  // The debugger's server, for the one tile it serves (nullptr for the others).
  gdb_server* debugger(std::uint32_t t) const {
    return io_.gdb_tile && *io_.gdb_tile == t ? gdb_ : nullptr;
  }
  void set_debugger(gdb_server* g) { gdb_ = g; }

  // Tile t's image reported its end (or its core faulted) at `now`; its program ended at
  // its program_end command, if it gave one.
  void ended(std::uint32_t t, std::uint64_t now) {
    tile_parts& p = parts_[t];
    p.ended = true;
    if (p.dev->phase() == device::program_phase::report) now = p.end_cycle;
    if (trace_) {
      harness::tile_snapshot end;
      end.done = true;
      spans_.note(t, end, now);
    }
    if (!p.fault.empty()) {
      note(t, tile_state::failed, now);
      return;
    }
    p.result = read_result(p.core->ram());
    note(t, p.result.state == abi::tile_state_code::done ? tile_state::done : tile_state::failed,
         now);
  }

  harness::run_outcome finish(std::uint64_t now,
                              const std::vector<harness::transfer_record>& transfers,
                              const std::vector<harness::drop_record>& drops,
                              const std::vector<msg_header>& unreceived) {
    harness::tile_ends ends;
    std::vector<std::uint32_t> peak(p_);
    for (std::uint32_t t = 0; t < p_; ++t) {
      tile_parts& p = parts_[t];
      if (!p.ended) p.result = read_result(p.core->ram());  // the wait it reported last
      ends.faults.push_back(p.result.fault);
      ends.waits.push_back(p.result.wait);
      ends.messages.push_back(p.result.messages);
      ends.bytes.push_back(p.result.bytes);
      peak[t] = static_cast<std::uint32_t>(p.result.blocks.size());
    }
    harness::run_outcome out = settle(now, transfers, drops, unreceived, ends, peak);
    if (trace_) out.ops = spans_.take(now);
    for (std::uint32_t t = 0; t < p_; ++t) {
      const tile_parts& p = parts_[t];
      if (p.result.state == abi::tile_state_code::too_big) {
        throw input_error("the workload does not fit the tile: tile " + std::to_string(t) +
                          " needs " + std::to_string(p.result.arena_used) +
                          " bytes of arena, its image has " + std::to_string(p.result.arena_size) +
                          " (--bytes " + std::to_string(c_.bytes) + " on " + std::to_string(p_) +
                          " tiles; use fewer bytes or tiles)");
      }
      if (p.result.state == abi::tile_state_code::bad_boot) {
        throw input_error("tile " + std::to_string(t) + ": the image '" + image_.path +
                          "' does not take this platform's boot block (tile ABI version " +
                          std::to_string(abi::abi_version) + ")");
      }
      if (!p.fault.empty()) {
        out.verified = false;
        out.failure = "tile " + std::to_string(t) + ": the core stopped: " + p.fault;
        return out;
      }
    }
    // An image of one's own that outgrows the memory plan: the plan is the built-in
    // algorithm's, which the host wrote into the boot block (docs/tiles.md, "Bring your
    // own collective"); say so, the run's --collective and --algorithm named.
    const std::string own = io_.firmware;
    if (!own.empty() && own != default_firmware() && !out.failure.empty()) {
      for (std::uint32_t t = 0; t < p_; ++t) {
        const tile_error e = parts_[t].result.fault.code;
        if ((e == tile_error::buffer_small || e == tile_error::store_full ||
             e == tile_error::prepost_full) &&
            out.failure.rfind("tile " + std::to_string(t) + ": ", 0) == 0) {
          out.failure += "; " + plan_text(t);
          break;
        }
      }
    }
    if (!out.completed || !out.failure.empty()) {
      // A deadlock or a timeout: each unfinished core with its program counter, whether it
      // sleeps in wfi or computes, and what its runtime last said it waits for.
      const bool deadlock = out.failure.rfind("deadlock:", 0) == 0;
      const bool timeout = out.failure.rfind("stopped at cycle", 0) == 0;
      if (deadlock || timeout) {
        std::string line = out.failure.substr(0, out.failure.find(':') + 1);
        bool first = true;
        for (std::uint32_t t = 0; t < p_; ++t) {
          const tile_parts& p = parts_[t];
          if (p.ended) continue;
          const bool waits = p.result.wait.what != wait_kind::nothing;
          line += std::string(first ? " " : "; ") + "tile " + std::to_string(t) +
                  op_text(read_progress(p.core->ram())) + " at pc " + hex(p.core->pc()) +
                  (p.asleep ? " asleep (wfi)" : " computing") +
                  (waits ? ", waiting for " + harness::wait_text(p.result.wait) : "") +
                  harness::held_text(unreceived, t);
          first = false;
        }
        out.failure = line;
      }
      return out;
    }
    // Each tile's blocks as it reported them, copied from its RAM.
    reported_blocks got;
    const auto blocks_of = [&](std::uint32_t t, std::string& why) -> block_store* {
      tile_parts& p = parts_[t];
      why = got.load(t, p.result, p.core->ram(), slot_);
      return why.empty() ? &got.store() : nullptr;
    };
    if (own_layout_)
      harness::verify_contract(out, *own_layout_, p_, c_.type, c_.rop, blocks_of);
    else
      harness::verify_collective(out, c_, blocks_of);
    return out;
  }

 private:
  // Whose memory plan tile t ran under, for a program that outgrew it.
  std::string plan_text(std::uint32_t t) const {
    if (own_layout_) {
      const fw::contract_plan pl = fw::plan_of(*own_layout_, t);
      return "the tile's memory plan is its contract's (peak_blocks " +
             std::to_string(pl.peak_blocks) + ", max_send " + std::to_string(pl.max_send) +
             ", max_recv " + std::to_string(pl.max_recv) + " blocks of " + std::to_string(slot_) +
             " bytes): declare what the program needs in its TESSERA_CONTRACT";
    }
    return "the tile's memory plan is the host's for --collective " +
           std::string(fw::info(c_.coll).name) + " --algorithm " +
           std::string(fw::algorithm_name(c_)) + " (" + std::to_string(slot_) +
           "-byte blocks), which an image of one's own must fit";
  }

  fw::collective_params c_;
  iss_options io_;
  const elf_image& image_;
  executor_config cfg_;
  std::optional<fw::contract> own_;  // the image's contract, when the run checks it
  std::optional<fw::contract_layout> own_layout_;
  std::uint32_t slot_;
  std::vector<tile_parts> parts_;
  std::vector<std::uint64_t> budget_;  // per tile; empty: no instruction budget
  gdb_server* gdb_{nullptr};
  bool trace_{false};
  harness::span_tracker spans_;
};

// One tile's SystemC process: the core runs, and the tile's time catches the fabric's up
// at every command, every wfi and every quantum.
class iss_tile : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(iss_tile);

  iss_tile(const sc_core::sc_module_name& name, std::uint32_t t, iss_harness& h, tlmm::tlm_nic& n)
      : sc_core::sc_module(name), t_{t}, h_{&h}, nic_{&n} {
    SC_THREAD(run);
  }

 private:
  // Advances the tile's time by the fabric cycles its instructions took.
  void catch_up(std::uint64_t instructions, tlmm::tile_cpu& cpu) {
    const iss_options& io = h_->options();
    carry_ += instructions * io.cpi * io.fabric_khz;
    const std::uint64_t cycles = carry_ / io.cpu_khz;
    carry_ %= io.cpu_khz;
    cpu.compute_cycles += cycles;
    if (cycles > 0) sc_core::wait(tlmm::cycles(cycles));
  }

  // The core stopped for the debugger: GDB looks and resumes it, continuing or stepping.
  static void debug_stop(gdb_server& g, cortex_m4& core, int signal) {
    core.single_step(g.stopped(core, signal) == resume_kind::step);
  }

  void run() {
    tile_parts& p = h_->parts(t_);
    std::uint64_t seen = nic_->changes();
    gdb_server* const g = h_->debugger(t_);
    if (g != nullptr) debug_stop(*g, *p.core, gdb_server::sigtrap);  // before the first instruction
    while (true) {
      const std::uint64_t now = tlmm::now_cycles();
      if (const std::uint64_t at = h_->resume_at(t_, now); at > now) {
        sc_core::wait(tlmm::cycles(at - now));  // stalled (a fault): the NIC runs on
        continue;
      }
      const auto before = p.dev->phase();
      const core_stop s = p.core->run(h_->options().quantum);
      const auto after = p.dev->phase();
      if (g != nullptr && g->attached()) {
        if (s.why == stop_reason::debug) {
          debug_stop(*g, *p.core, gdb_server::sigtrap);
        } else if (g->interrupted()) {
          debug_stop(*g, *p.core, gdb_server::sigint);
        }
      }
      // A command runs first thing in a run (the core stopped just before it): when the
      // phase changed in this run, every instruction of the run came after the change.
      // The program's time runs from its start command to its program_end; the making of
      // its initial data before and its report after cost no fabric time.
      // Past its untimed budget a tile's setup becomes its program, and its report's
      // instructions take time (its end stays at its program_end).
      const bool untimed = after != device::program_phase::running &&
                           p.cpu.setup_instructions + s.instructions <= h_->options().untimed_max;
      if (untimed) {
        p.cpu.setup_instructions += s.instructions;
      } else {
        p.dev->start_program();
        p.cpu.instructions += s.instructions;
        catch_up(s.instructions, p.cpu);
      }
      if (before != device::program_phase::report && after == device::program_phase::report)
        p.end_cycle = tlmm::now_cycles();
      if (h_->over_budget(t_, tlmm::now_cycles())) {
        tlmm::stop_once();
        return;
      }
      switch (s.why) {
        case stop_reason::command:
          break;
        case stop_reason::budget:
          break;
        case stop_reason::idle: {
          h_->went_idle(t_, tlmm::now_cycles());
          if (p.dev->finished()) {
            if (g != nullptr) g->exited(0);
            h_->ended(t_, tlmm::now_cycles());
            if (h_->failed()) tlmm::stop_once();
            return;
          }
          // An event register, as wfe has: a change of the NIC since the tile last woke up
          // (or last found one here) may be one it has not looked at yet, so it goes on and
          // polls once more instead of sleeping. Recording the count at each command instead
          // loses a wakeup: a send that completes while the tile catches up before some
          // other command is never seen (a deadlock of the 8x8 all-to-all at 100 MHz).
          if (nic_->changes() != seen) {
            seen = nic_->changes();
            break;
          }
          const std::uint64_t from = tlmm::now_cycles();
          p.asleep = true;
          sc_core::wait(nic_->changed());
          p.asleep = false;
          p.cpu.wait_cycles += tlmm::now_cycles() - from;
          seen = nic_->changes();
          break;
        }
        case stop_reason::debug:
          break;
        case stop_reason::fault:
          if (g != nullptr && g->attached()) {
            // GDB sees the fault where it happened; the tile ends when GDB resumes it.
            g->stopped(*p.core, gdb_server::sigsegv);
            g->terminated(gdb_server::sigsegv);
          }
          p.fault = s.fault;
          h_->ended(t_, tlmm::now_cycles());
          tlmm::stop_once();
          return;
      }
    }
  }

  std::uint32_t t_;
  iss_harness* h_;
  tlmm::tlm_nic* nic_;
  std::uint64_t carry_{0};
};

// No transparent huge pages while the engines live. Unicorn's code buffer asks for them
// (QEMU's madvise), so every engine's first translated block and first writes cost a 2 MiB
// page zeroed: 232 MiB for the 64 tiles of mesh:8x8 with them, 124 MiB without, in the
// same time (bench/iss.sh). Restored afterwards.
class no_huge_pages {
 public:
  no_huge_pages() {
#ifdef __linux__
    before_ = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
    if (before_ == 0) prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
#endif
  }
  ~no_huge_pages() {
#ifdef __linux__
    if (before_ == 0) prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
#endif
  }
  no_huge_pages(const no_huge_pages&) = delete;
  no_huge_pages& operator=(const no_huge_pages&) = delete;

 private:
  int before_{-1};
};

struct iss_tiles {
  std::unique_ptr<sc_core::sc_module> operator()(const std::string& name, std::uint32_t t,
                                                 iss_harness& h, tlmm::tlm_nic& n) const {
    return std::make_unique<iss_tile>(name.c_str(), t, h, n);
  }
};

// The image's contract against the run: present exactly when the run checks one, and
// well formed for the fabric and --bytes.
void check_contract(const elf_image& image, const fw::collective_params& c, const iss_options& io) {
  const std::string what = "--firmware '" + shown(image.path, 160) + "'";
  if (!io.own_contract) {
    if (image.contract) {
      throw input_error(what + " declares its own contract ('" + contract_name(*image.contract) +
                        "', docs/tiles.md): leave out --collective and --algorithm");
    }
    return;
  }
  if (!image.contract) {
    throw input_error(what +
                      " declares no contract of its own (TESSERA_CONTRACT, docs/tiles.md): give "
                      "--collective and --algorithm for the built-in one it runs");
  }
  std::uint32_t rule = 0;
  if (const char* problem = fw::contract_problem(*image.contract, c.f, rule)) {
    throw input_error(
        what + ": its contract" +
        (rule < fw::max_contract_rules ? " (rule " + std::to_string(rule) + ")" : std::string{}) +
        " is wrong: " + problem);
  }
  if (c.bytes == 0) throw input_error("--bytes 0: the contract's blocks would be empty");
  if (image.contract->inputs == fw::contract_terms::inputs::contrib &&
      c.bytes % elem_bytes(c.type) != 0) {
    throw input_error("--bytes " + std::to_string(c.bytes) + " is not a multiple of the " +
                      std::to_string(elem_bytes(c.type)) + "-byte " +
                      std::string(info(c.type).name) + " element the contract's folds use");
  }
}

}  // namespace

std::uint64_t instruction_budget(const fw::collective_params& c, std::uint32_t t) {
  const std::uint64_t s = fw::layout{c}.slot_bytes();
  const tile_needs pl = harness::plan_tile(c, t, static_cast<std::uint32_t>(s));
  // A block moved costs more the more blocks the tile's store holds (its lookups).
  const std::uint64_t estimate = 20'000 + 5'000 * pl.ops +
                                 (400 + 2 * std::uint64_t{pl.peak_blocks}) * pl.blocks_moved +
                                 2 * s * pl.blocks_moved + 5 * s * pl.blocks_combined +
                                 25 * s * (pl.initial_blocks + pl.final_blocks);
  return std::max<std::uint64_t>(8 * estimate, std::uint64_t{1} << 20);
}

std::uint64_t instruction_budget(const fw::contract_layout& l, std::uint32_t t) {
  // The contract gives no ops: as many ops as blocks the tile ends with (one receive each,
  // its sends as many), and every block it starts or ends with moved.
  const fw::contract_plan pl = fw::plan_of(l, t);
  const std::uint64_t s = l.slot_bytes();
  const std::uint64_t moved = std::uint64_t{pl.initial} + pl.final;
  const std::uint64_t estimate = 20'000 + 5'000 * (moved + 1) +
                                 (400 + 2 * std::uint64_t{pl.peak_blocks}) * moved + 2 * s * moved +
                                 5 * s * moved + 25 * s * moved;
  return std::max<std::uint64_t>(8 * estimate, std::uint64_t{1} << 20);
}

std::optional<fw::contract> image_contract(const std::string& firmware) {
  const std::string path = firmware.empty() ? default_firmware() : firmware;
  if (path.empty()) return std::nullopt;
  return load_elf(path).contract;
}

std::string contract_name(const fw::contract& k) {
  std::string n;
  for (const char ch : k.name) {
    if (ch == '\0') break;
    n += ch;
  }
  return n;
}

std::string default_firmware() {
  // $TESSERA_DATA_DIR's or an installed tessera's image (share/tessera), else the
  // bare-metal build's (tessera/common/install_paths.hpp).
#ifdef TESSERA_DEFAULT_TILE_IMAGE
  return data_path("tessera_tile.elf", TESSERA_DEFAULT_TILE_IMAGE).string();
#else
  return data_path("tessera_tile.elf", {}).string();
#endif
}

tlm_models::platform_outcome run_collective(const fw::collective_params& c,
                                            const tlm_models::platform_options& o,
                                            const iss_options& io) {
  if (o.proto == protocol::reliable) {
    throw input_error(
        "--protocol reliable with --tiles cortex-m4: the reliable protocol checks each arrival "
        "in the NIC's receive path, which the tiles' NIC registers do not give the tile "
        "(docs/tiles.md)");
  }
  // Every tile is an engine of about 4 MiB (its translation buffer and the pages its
  // program touches): a bound on the memory a run can take.
  constexpr std::uint32_t max_iss_tiles = 1024;
  if (c.f.tiles() > max_iss_tiles) {
    throw input_error("--tiles cortex-m4 runs at most " + std::to_string(max_iss_tiles) +
                      " tiles (an instruction-set simulator each, about 4 MiB), not " +
                      std::to_string(c.f.tiles()));
  }
  if (io.cpu_khz == 0 || io.fabric_khz == 0 || io.cpi == 0 || io.quantum == 0)
    throw input_error("the Cortex-M4 tiles' clocks, cpi and quantum must be positive");
  std::string path = io.firmware.empty() ? default_firmware() : io.firmware;
  if (path.empty()) {
    throw input_error(
        "--tiles cortex-m4: this build has no tile image (the cross tools were missing when it "
        "was configured: install gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc "
        "picolibc-arm-none-eabi and reconfigure), and no --firmware was given");
  }
  const elf_image image = load_elf(path);
  check_contract(image, c, io);
  std::unique_ptr<net::engine> engine = tlmm::make_engine(c.f, o);  // validates the parameters
  const no_huge_pages small_pages;
  iss_harness h{c, o, io, image};
  std::unique_ptr<gdb_server> gdb;
  if (io.gdb_tile) {
    if (*io.gdb_tile >= c.f.tiles()) {
      throw input_error("--gdb: tile " + std::to_string(*io.gdb_tile) +
                        " is not on the fabric (tiles 0.." + std::to_string(c.f.tiles() - 1) + ")");
    }
    gdb = std::make_unique<gdb_server>(io.gdb_port);
    std::cerr << "tessera: tile " << *io.gdb_tile << " waits for GDB on 127.0.0.1:" << gdb->port()
              << " (target remote :" << gdb->port() << ")\n";
    h.set_debugger(gdb.get());
  }
  tlmm::platform_outcome out = tlmm::run_platform(h, c.f, *engine, o, iss_tiles{});
  // The run ended with the debugged tile still running (a limit, a deadlock, another
  // tile's fault): GDB hears that its program is gone.
  if (gdb) gdb->exited(1);
  for (std::uint32_t t = 0; t < c.f.tiles(); ++t)
    out.cpu.push_back(h.parts(t).cpu);
  return out;
}

}  // namespace tessera::iss
