// Runs a collective on any host network model: plans each tile's memory from a dry
// walk of its program, builds the tiles' executors over the model's NICs, records
// when each finishes, and turns the end state into an outcome: completed, verified
// byte by byte, or a one-line failure naming the tile and block. The model supplies
// the NICs and the clock; everything else is the same for every fidelity.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/contract.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/firmware/textbook.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/memory_plan.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::harness {

// One message as it crossed the network.
struct transfer_record {
  msg_header header;
  std::uint64_t start{0};
  std::uint64_t end{0};
};

// A data message that was dropped (FORCED, no receive posted).
struct drop_record {
  msg_header header;
  std::uint64_t time{0};
};

struct step_timing {
  std::uint32_t step{0};
  std::uint64_t start{0};
  std::uint64_t end{0};
  std::uint64_t messages{0};
  std::uint64_t bytes{0};
};

struct tile_report {
  std::uint64_t finish{0};
  std::uint64_t messages{0};
  std::uint64_t bytes{0};
  std::uint32_t peak_blocks{0};
};

// What one injected fault did (docs/faults.md).
struct fault_report {
  std::string fault;  // "drop=0->5#2"
  std::string kind;
  bool acted{false};  // it lost, damaged or held something
  std::uint64_t first_cycle{0};
  std::uint64_t messages{0};     // messages lost or damaged
  std::uint64_t held_cycles{0};  // stall: cycles the tile was held back
};

// A message a fault lost or damaged.
struct lost_report {
  std::uint32_t tile{0};  // the destination
  std::uint32_t source{0};
  std::uint32_t block{0};
  std::uint32_t step{0};
  std::string kind;  // data, sync, data_ack, ...
  std::uint64_t cycle{0};
  std::string cause;  // dropped, corrupted, undeliverable, cut in flight
  std::string fault;
  std::string text;  // the one-line account
};

// The reports of an injector's faults and losses (at most max_lost losses listed).
inline constexpr std::size_t max_lost = 1000;
void report_faults(const fault_injector& f, std::vector<fault_report>& faults,
                   std::vector<lost_report>& lost, std::uint64_t& lost_total);

// What a tile did over an interval, for timeline traces (docs/visualize.md). An op
// span runs from the poll that took the op up to the poll that moved past it; a wait
// span, inside its op span, from the poll that found the tile waiting for something to
// the one that found it no longer waiting for it. Index 0 is the time before the first
// op (posting receives and the barrier of --prepost); past the last op the tile drains
// (kind drain).
struct op_span {
  enum class what : std::uint8_t { op, prologue, drain, wait };
  what is{what::op};
  std::uint32_t tile{0};
  std::uint32_t index{0};  // the op's index in the tile's program, 1-based
  op_kind kind{op_kind::idle};
  wait_kind waits{wait_kind::nothing};  // what::wait: what for
  std::uint32_t step{0};
  std::uint32_t to{no_tile};
  std::uint32_t from{no_tile};  // what::wait: the peer waited for
  std::uint64_t start{0};
  std::uint64_t end{0};
};

struct run_outcome {
  bool completed{false};  // every tile ran its program to the end
  bool verified{false};   // and every tile holds exactly what it should, and a byte was checked
  // Completed with nothing wrong, but no data byte to check: not verified, exit status 0
  // (tessera/schedule/verdict.hpp).
  bool nothing_checked{false};
  std::uint64_t bytes_checked{0};  // data bytes compared with their definition at the end
  std::uint64_t cycles{0};
  std::vector<step_timing> steps;
  std::vector<tile_report> tiles;
  std::uint64_t data_messages{0};
  std::uint64_t control_messages{0};
  std::uint64_t dropped{0};
  std::uint64_t memory_bytes{0};
  std::string failure;               // one line naming the tile and block, when not verified
  std::vector<fault_report> faults;  // one per --fault, in the order given
  std::vector<lost_report> lost;     // messages faults lost or damaged, in time order
  std::uint64_t lost_total{0};       // all of them (lost lists the first max_lost)
  reliable_stats reliable{};         // protocol reliable: summed over the tiles
  bool timed_out{false};             // stopped by max_cycles
  std::vector<op_span> ops;          // with harness_options::trace_ops, in closing order
};

struct harness_options {
  executor_config exec{};  // tiles, type and op are taken from the collective
  std::uint64_t memory_limit{std::uint64_t{4} << 30};
  std::string_view model{"alphabeta"};  // named in the refusal messages
  // The model times a sample of each block as its full size (--payload-bytes): the
  // memory refusal suggests it.
  bool samples_payload{false};
  bool trace_ops{false};  // record op and wait spans (run_outcome::ops)
};

// Where a tile's program is, as a poll leaves it: what op spans are made of. The native
// tiles' executors say it directly; ISS tiles write it to their boot block each time
// they go idle (tile_abi.hpp).
struct tile_snapshot {
  std::uint32_t index{0};  // the op's index, 1-based; 0: before the first (the prologue)
  bool past{false};        // after the last op (the drain)
  op_kind kind{op_kind::idle};
  std::uint32_t step{0};
  std::uint32_t to{no_tile};
  std::uint32_t from{no_tile};
  bool done{false};  // finished or failed: every span closes
  tile_wait wait{};
};

// Turns the snapshots of each tile's polls, at their times, into op and wait spans: an
// op's span runs from the poll that first finds the tile in it to the one that finds it
// past it, and a wait's likewise inside it.
class span_tracker {
 public:
  void note(std::uint32_t t, const tile_snapshot& x, std::uint64_t now);
  // The spans recorded so far, the ones still open closed at `now`.
  std::vector<op_span> take(std::uint64_t now);

 private:
  struct open_spans {
    bool op_open{false};
    bool wait_open{false};
    op_span op;
    op_span wait;
  };
  void close(op_span& s, std::uint64_t now) {
    s.end = now;
    spans_.push_back(s);
  }
  std::vector<open_spans> open_;
  std::vector<op_span> spans_;
};

// Work bounds of a run: the ops of all tiles, and the blocks their messages carry (an
// op counts the larger of the blocks it sends and receives).
inline constexpr std::uint64_t max_ops = 50'000'000;
inline constexpr std::uint64_t max_block_moves = 1'000'000'000;

struct run_work {
  std::uint64_t ops{0};
  std::uint64_t block_moves{0};
};
// The work of a collective, walked tile by tile; the walk stops once either count passes
// its limit, so a count past its limit is only a lower bound.
run_work count_work(const fw::collective_params& c, std::uint64_t ops_limit = UINT64_MAX,
                    std::uint64_t moves_limit = UINT64_MAX);

// What tile t's program needs (walk_needs, tessera/runtime/memory_plan.hpp), from its
// initial blocks and a walk of its ops; `slot` is the largest block in bytes.
tile_needs plan_tile(const fw::collective_params& c, std::uint32_t t, std::uint32_t slot);

// A native tile's memory: one arena laid out and carved by its plan (memory_plan.hpp),
// as a Cortex-M4 tile carves its own, and the reliable protocol's tables.
struct tile_memory {
  std::unique_ptr<std::byte[]> bytes;
  tile_arena arena;
  // protocol::reliable only: sequence numbers per peer and the owed acks.
  std::vector<std::uint32_t> seq_out;
  std::vector<std::uint32_t> seq_in;
  std::vector<owed_ack> owed;
  reliable_state reliable;
};

// The memory of a tile planned as `plan`.
std::unique_ptr<tile_memory> make_tile_memory(const tile_plan& plan);

// Sizes the reliable tables of m for a fabric of `tiles` (protocol::reliable).
void arm_reliable(tile_memory& m, std::uint32_t tiles);

std::string wait_text(const tile_wait& w);
// What tile t holds that its program never took (a stuck tile's clue): ", holding an
// unexpected message from tile 4 (step 3, 1 block from block 4, 64 bytes)" and how many
// more, or "" when it holds none.
std::string held_text(const std::vector<msg_header>& unreceived, std::uint32_t t);
std::string fault_text(std::uint32_t t, const tile_fault& f);
// "tile 3: block 17 ..." for a block a tile ends with that is missing, extra or damaged.
std::string mismatch_text(const fw::mismatch& m);

// Checks a collective run that ended without a failure: every tile's blocks against what
// the collective leaves there (fw::verify_tile), the first difference being the failure,
// else the verdict over the bytes checked. blocks_of(t, why) gives tile t's blocks, or
// null with `why` saying they cannot be read (a Cortex-M4 tile's report).
void verify_collective(run_outcome& out, const fw::collective_params& c,
                       const std::function<block_store*(std::uint32_t, std::string&)>& blocks_of);
// The same against an image's own contract (tessera/firmware/contract.hpp) on `tiles`
// tiles; a difference names the block's source as the contract does ("tile 2's block 0").
void verify_contract(run_outcome& out, const fw::contract_layout& l, std::uint32_t tiles,
                     elem_type type, reduce_op rop,
                     const std::function<block_store*(std::uint32_t, std::string&)>& blocks_of);

// Every tile's executor state at the end of a run.
struct tile_ends {
  std::vector<tile_fault> faults;
  std::vector<tile_wait> waits;
  std::vector<std::uint64_t> messages;
  std::vector<std::uint64_t> bytes;
};

// The tiles' executors over one NIC type and program type, built on planned memory.
template <typename Nic, typename Program>
class tile_executors {
 public:
  using exec = executor<Nic, Program>;

  // Creates tile t's executor over `nic`, which must outlive this object.
  void attach(std::uint32_t t, Nic& nic, Program prog, tile_memory& m, const executor_config& cfg) {
    if (ex_.size() <= t) ex_.resize(t + 1);
    executor_buffers b = m.arena.buffers;
    b.reliable = m.seq_out.empty() ? nullptr : &m.reliable;
    ex_[t] = std::make_unique<exec>(tile_id{t}, nic, prog, m.arena.store, b, cfg);
  }

  // With spans on, polls at `now` record what each tile did (op_span).
  void trace_spans(bool on) { trace_ = on; }

  tile_state poll(std::uint32_t t, std::uint64_t now) {
    const tile_state s = ex_[t]->poll();
    if (trace_) note_spans(t, now);
    return s;
  }

  // The spans recorded so far, the ones still open closed at `now`.
  std::vector<op_span> take_spans(std::uint64_t now) { return spans_.take(now); }

  [[nodiscard]] tile_ends ends() const {
    tile_ends e;
    for (const auto& x : ex_) {
      e.faults.push_back(x->fault());
      e.waits.push_back(x->waiting());
      e.messages.push_back(x->messages_sent());
      e.bytes.push_back(x->bytes_sent());
    }
    return e;
  }

 private:
  void note_spans(std::uint32_t t, std::uint64_t now) {
    const exec& x = *ex_[t];
    tile_snapshot snap;
    snap.index = x.op_index();
    snap.past = x.past_program();
    if (!snap.past && snap.index != 0) {
      snap.kind = x.current().kind;
      snap.step = x.current().step;
      snap.to = x.current().to;
      snap.from = x.current().from;
    }
    snap.done = x.finished() || x.fault().code != tile_error::none;
    if (!snap.done) snap.wait = x.waiting();
    spans_.note(t, snap, now);
  }

  std::vector<std::unique_ptr<exec>> ex_;
  bool trace_{false};
  span_tracker spans_;
};

// What every run shares whatever its workload and NIC: finish times, the first
// failed tile, and the outcome's statistics and failure line.
class harness_core {
 public:
  harness_core(std::uint32_t tiles, protocol proto)
      : p_{tiles}, finished_(tiles, false), finish_(tiles, 0), proto_{proto} {}

  [[nodiscard]] std::uint32_t tiles() const { return p_; }
  [[nodiscard]] protocol proto() const { return proto_; }
  [[nodiscard]] bool failed() const { return failed_ >= 0; }
  [[nodiscard]] std::uint32_t done() const { return done_; }
  // The model stopped the run at `cycle` because of its cycle limit (max_cycles), not
  // because nothing could move: unfinished tiles are a timeout, not a deadlock.
  // `what` names the limit in the report.
  void stopped_by_limit(std::uint64_t cycle, std::string what = "max_cycles") {
    limited_ = true;
    limit_cycle_ = cycle;
    limit_what_ = std::move(what);
  }

  // The run's faults (owned by the model, which calls it at admission and delivery);
  // the outcome reports them and names the fault behind a failure.
  void set_faults(fault_injector* f) { faults_ = f; }
  // When tile t may run at `now` (its stalls hold it back).
  std::uint64_t resume_at(std::uint32_t t, std::uint64_t now) {
    return faults_ == nullptr ? now : faults_->resume_at(t, now);
  }

 protected:
  // Records tile t's state after a poll at time `now`.
  void note(std::uint32_t t, tile_state s, std::uint64_t now);
  // Cycles, per-step and per-tile statistics, and the failure line (a tile fault, a
  // FORCED loss, a deadlock, a message never received); completed is true when every
  // tile ran to its end. The workload's own byte checks come after.
  run_outcome settle(std::uint64_t now, const std::vector<transfer_record>& transfers,
                     const std::vector<drop_record>& drops,
                     const std::vector<msg_header>& unreceived, const tile_ends& ends,
                     const std::vector<std::uint32_t>& peak_blocks) const;

  std::uint32_t p_;
  std::vector<bool> finished_;
  std::vector<std::uint64_t> finish_;
  std::uint32_t done_{0};
  std::int64_t failed_{-1};
  bool limited_{false};  // stopped by a limit (max_cycles), at limit_cycle_
  std::uint64_t limit_cycle_{0};
  std::string limit_what_;
  protocol proto_{protocol::raw};
  fault_injector* faults_{nullptr};
  std::vector<tile_memory*> memory_of_;  // per tile, for the reliable protocol's stats
  std::uint64_t memory_{0};
  std::string setup_failure_;
};

// The parts of a collective run that do not depend on the NIC type.
class harness_base : public harness_core {
 public:
  using program = fw::collective_program;

  // Throws input_error when the run is too large or needs too much memory.
  harness_base(const fw::collective_params& c, const harness_options& o);

 protected:
  [[nodiscard]] program program_of(std::uint32_t t) const { return program{c_, tile_id{t}}; }
  [[nodiscard]] executor_config exec_config() const {
    executor_config cfg = o_.exec;
    cfg.tiles = p_;
    cfg.type = c_.type;
    cfg.rop = c_.rop;
    return cfg;
  }
  // The outcome from the tiles' end states and the network's report.
  run_outcome finish(std::uint64_t now, const std::vector<transfer_record>& transfers,
                     const std::vector<drop_record>& drops,
                     const std::vector<msg_header>& unreceived, const tile_ends& ends);

  fw::collective_params c_;
  harness_options o_;
  std::uint32_t slot_;
  std::vector<tile_plan> plans_;
  std::vector<std::unique_ptr<tile_memory>> mem_;
};

// A run's tiles over one NIC type. Base plans their memory, says each tile's program and
// executor settings, and checks the end state (harness_base for a collective,
// schedule_harness_base for a schedule file); the model adds the NICs and the clock.
template <typename Base, typename Nic>
class tiles_harness : public Base {
 public:
  using Base::Base;

  // Creates tile t's executor over `nic`, which must outlive the harness.
  void attach(std::uint32_t t, Nic& nic) {
    ex_.attach(t, nic, this->program_of(t), *this->mem_[t], this->exec_config());
    ex_.trace_spans(this->o_.trace_ops);
  }

  tile_state poll(std::uint32_t t, std::uint64_t now) {
    const tile_state s = ex_.poll(t, now);
    this->note(t, s, now);
    return s;
  }

  run_outcome finish(std::uint64_t now, const std::vector<transfer_record>& transfers,
                     const std::vector<drop_record>& drops,
                     const std::vector<msg_header>& unreceived) {
    run_outcome out = Base::finish(now, transfers, drops, unreceived, ex_.ends());
    out.ops = ex_.take_spans(now);
    return out;
  }

 private:
  tile_executors<Nic, typename Base::program> ex_;
};

template <typename Nic>
using collective_harness = tiles_harness<harness_base, Nic>;

}  // namespace tessera::harness
