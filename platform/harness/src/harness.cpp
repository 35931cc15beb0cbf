#include "tessera/harness/harness.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/schedule/verdict.hpp"

namespace tessera::harness {

using program = fw::collective_program;

tile_needs plan_tile(const fw::collective_params& c, std::uint32_t t, std::uint32_t slot) {
  std::unordered_set<std::uint32_t> held;
  fw::layout{c}.initial(t, [&](const fw::block_desc& b) { held.insert(b.id); });
  const program prog{c, tile_id{t}};
  std::vector<block_id> s(prog.max_blocks());
  std::vector<block_id> r(prog.max_blocks());
  return walk_needs(prog, held, s, r, slot);
}

// operator new[] aligns its bytes for every object the arena holds, so a layout made
// from base 0 holds at whatever address the bytes get.
static_assert(alignof(out_msg) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(posted_recv) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(block_store::entry) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

std::unique_ptr<tile_memory> make_tile_memory(const tile_plan& plan) {
  auto m = std::make_unique<tile_memory>();
  const arena_layout l = lay_out(plan, 0);
  const auto n = static_cast<std::size_t>(l.end);
  m->bytes = std::make_unique<std::byte[]>(n);  // zeroed, as a tile's fresh RAM
  m->arena = carve(plan, l, {m->bytes.get(), n});
  return m;
}

run_work count_work(const fw::collective_params& c, std::uint64_t ops_limit,
                    std::uint64_t moves_limit) {
  run_work w;
  const std::uint32_t p = c.f.tiles();
  std::vector<block_id> s;
  std::vector<block_id> r;
  for (std::uint32_t t = 0; t < p; ++t) {
    program prog{c, tile_id{t}};
    s.resize(prog.max_blocks());
    r.resize(prog.max_blocks());
    op o;
    while (prog.next(o, s, r)) {
      ++w.ops;
      w.block_moves += std::max(o.send_count, o.recv_count);
      if (w.ops > ops_limit || w.block_moves > moves_limit) return w;
    }
  }
  return w;
}

std::string held_text(const std::vector<msg_header>& unreceived, std::uint32_t t) {
  const msg_header* first = nullptr;
  std::size_t more = 0;
  for (const msg_header& h : unreceived) {
    if (h.dst != t || h.kind != msg_kind::data) continue;
    if (first == nullptr)
      first = &h;
    else
      ++more;
  }
  if (first == nullptr) return {};
  std::ostringstream os;
  os << ", holding an unexpected message from tile " << first->src << " (step " << first->tag
     << ", " << first->blocks << (first->blocks == 1 ? " block" : " blocks") << " from block "
     << first->first_block << ", " << first->bytes << " bytes)";
  if (more > 0) os << " and " << more << " more";
  return os.str();
}

std::string wait_text(const tile_wait& w) {
  std::ostringstream os;
  switch (w.what) {
    case wait_kind::data:
      os << "data from tile " << w.peer;
      break;
    case wait_kind::send:
      os << "its send to tile " << w.peer << " to finish";
      break;
    case wait_kind::ack:
      os << "an UNFORCED ack from tile " << w.peer;
      break;
    case wait_kind::sync:
      os << "barrier message from tile " << w.peer;
      break;
    case wait_kind::pair:
      os << "pairwise sync from tile " << w.peer;
      break;
    case wait_kind::delay:
      os << "its idle period";
      break;
    case wait_kind::data_ack:
      os << "the acknowledgement of its message to tile " << w.peer;
      break;
    case wait_kind::nothing:
      os << "nothing";
      break;
  }
  os << " (step " << w.step << ")";
  return os.str();
}

std::string fault_text(std::uint32_t t, const tile_fault& f) {
  std::ostringstream os;
  // Ops counted from 0, as analyze and the schedule format's ops[tile][op] count them.
  os << "tile " << t << ": op " << (f.op_index > 0 ? f.op_index - 1 : 0) << " (" << op_name(f.kind)
     << ", step " << f.step << "): " << tile_error_text(f.code);
  if (f.code == tile_error::wrong_block) {
    os << " (expected block " << f.block << ", got block " << f.got << ")";
  } else if (f.code == tile_error::block_count) {
    os << " (expected " << f.block << " blocks, got " << f.got << ")";
  } else if (f.code == tile_error::recv_too_long) {
    os << ": tile " << f.peer << " sent " << f.got << (f.got == 1 ? " block" : " blocks") << " ("
       << f.bytes_got << " bytes with its directory), the receive expects ";
    if (f.block > 0) os << f.block << (f.block == 1 ? " block" : " blocks") << " (";
    os << "room for " << f.bytes_expected << " bytes" << (f.block > 0 ? ")" : "");
  } else if (f.code == tile_error::size_mismatch) {
    os << ": tile " << f.peer << " sent " << f.bytes_got << " bytes, the receive expects "
       << f.bytes_expected;
  } else if (f.code != tile_error::nic_full && f.code != tile_error::prepost_full &&
             f.code != tile_error::nic_failed && f.code != tile_error::no_state &&
             f.code != tile_error::recv_too_long && f.code != tile_error::no_ack) {
    os << " (block " << f.block << ")";
  }
  return os.str();
}

std::string mismatch_text(const fw::mismatch& m) {
  std::ostringstream os;
  os << "tile " << m.tile << ": block " << m.block;
  switch (m.kind) {
    case fw::mismatch_kind::missing:
      os << " never arrived";
      break;
    case fw::mismatch_kind::extra:
      os << " is held but should not be (duplicated or misdelivered)";
      break;
    case fw::mismatch_kind::length:
      os << " has " << m.got << " bytes, expected " << m.expected;
      break;
    case fw::mismatch_kind::bytes:
      os << " differs at byte " << m.offset << " (expected " << m.expected << ", got " << m.got
         << ")";
      break;
    case fw::mismatch_kind::none:
      break;
  }
  return os.str();
}

// Expected bytes of reduction results, folded once per block shape and extended tile
// by tile, so checking p tiles costs O(p m) and not O(p^2 m): every all-reduce tile
// wants the same fold, prefix tile t wants the fold of tile t - 1 plus one more.
class fold_cache {
 public:
  fold_cache(elem_type type, reduce_op rop) : type_{type}, rop_{rop} {}

  void operator()(const fw::block_desc& b, std::uint32_t from, std::span<std::byte> out) {
    if (b.kind != fw::content::fold) {
      fw::block_bytes(b, type_, rop_, from, out);
      return;
    }
    entry& e = cache_[{b.elem0, b.len}];
    if (e.bytes.size() != b.len || e.limit > b.tile) {
      e.bytes.assign(b.len, std::byte{0});
      fw::block_bytes(fw::block_desc{b.id, b.len, fw::content::contrib, 0, b.elem0}, type_, rop_, 0,
                      e.bytes);
      e.limit = 0;
    }
    std::vector<std::byte> next(b.len);
    for (; e.limit < b.tile; ++e.limit) {
      fw::block_bytes(fw::block_desc{b.id, b.len, fw::content::contrib, e.limit + 1, b.elem0},
                      type_, rop_, 0, next);
      combine(e.bytes.data(), next.data(), b.len, type_, rop_);
    }
    std::memcpy(out.data(), e.bytes.data() + from, out.size());
  }

 private:
  struct entry {
    std::vector<std::byte> bytes;
    std::uint32_t limit{0};  // bytes hold the fold of tiles 0 .. limit
  };
  elem_type type_;
  reduce_op rop_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, entry> cache_;
};

// Checks every tile's blocks against `layout` (the catalog's or a contract's): the first
// difference, described by describe(m), is the failure, else the verdict over the bytes.
template <typename Layout, typename Describe>
void verify_layout(run_outcome& out, const Layout& layout, std::uint32_t tiles, elem_type type,
                   reduce_op rop,
                   const std::function<block_store*(std::uint32_t, std::string&)>& blocks_of,
                   Describe&& describe) {
  fold_cache expect{type, rop};
  for (std::uint32_t t = 0; t < tiles; ++t) {
    std::string why;
    block_store* const blocks = blocks_of(t, why);
    if (blocks == nullptr) {
      out.failure = why;
      return;
    }
    const fw::mismatch m = fw::verify_holdings(layout, t, *blocks, expect);
    if (m.kind != fw::mismatch_kind::none) {
      out.failure = describe(m);
      return;
    }
  }
  out.bytes_checked = fw::verified_bytes_of(layout, tiles);
  const verdict v = verdict_of(true, out.bytes_checked);
  out.verified = v == verdict::verified;
  out.nothing_checked = v == verdict::nothing_checked;
}

void verify_collective(run_outcome& out, const fw::collective_params& c,
                       const std::function<block_store*(std::uint32_t, std::string&)>& blocks_of) {
  verify_layout(out, fw::layout{c}, c.f.tiles(), c.type, c.rop, blocks_of, mismatch_text);
}

void verify_contract(run_outcome& out, const fw::contract_layout& l, std::uint32_t tiles,
                     elem_type type, reduce_op rop,
                     const std::function<block_store*(std::uint32_t, std::string&)>& blocks_of) {
  verify_layout(out, l, tiles, type, rop, blocks_of, [&](const fw::mismatch& m) {
    std::uint32_t source = 0;
    std::uint32_t number = 0;
    l.source_of(m.block, source, number);
    return mismatch_text(m) + " (" +
           (source < tiles ? "tile " + std::to_string(source) + "'s block " + std::to_string(number)
                           : "contribution block " + std::to_string(number)) +
           " in the image's contract)";
  });
}

void arm_reliable(tile_memory& m, std::uint32_t tiles) {
  m.seq_out.assign(tiles, 0);
  m.seq_in.assign(tiles, 0);
  // Acks owed between two polls: one per source is plenty; more are deferred safely.
  m.owed.resize(tiles + 1);
  m.reliable = reliable_state{m.seq_out, m.seq_in, m.owed};
}

void report_faults(const fault_injector& f, std::vector<fault_report>& faults,
                   std::vector<lost_report>& lost, std::uint64_t& lost_total) {
  for (std::size_t i = 0; i < f.specs().size(); ++i) {
    const fault_spec& s = f.specs()[i];
    const fault_effect& e = f.effects()[i];
    faults.push_back(fault_report{s.text, fault_kind_name(s.kind), e.acted, e.first_cycle,
                                  e.messages, e.held_cycles});
  }
  lost_total = f.losses().size();
  for (const loss_record& r : f.losses()) {
    if (lost.size() == max_lost) break;
    lost.push_back(lost_report{r.header.dst, r.header.src, r.block, r.header.tag,
                               std::string(msg_kind_name(r.header.kind)), r.cycle,
                               loss_cause_name(r.cause), f.specs()[r.fault].text, f.loss_text(r)});
  }
}

namespace {

// Refuses runs too long to finish, by the ops and block ids they handle (a ring all-gather
// on 65536 tiles is 4e9 messages). The bound p x steps x the program's largest message
// clears most runs without walking them; a run it does not clear is walked tile by tile
// and charged what it does (a broadcast moves one block a message, not p), stopping as
// soon as a limit is passed.
void refuse_too_large(const fw::collective_params& c, std::string_view model) {
  const std::uint32_t p = c.f.tiles();
  const program probe{c, tile_id{0}};
  const std::uint64_t bound_ops = std::uint64_t{p} * probe.steps();
  if (bound_ops <= max_ops && bound_ops * probe.max_blocks() <= max_block_moves) return;
  const run_work w = count_work(c, max_ops, max_block_moves);
  if (w.ops <= max_ops && w.block_moves <= max_block_moves) return;
  std::ostringstream os;
  os << "the run is too large for the " << model << " model: its " << p << " tiles ";
  if (w.ops > max_ops)
    os << "run more than " << max_ops << " ops in all";
  else
    os << "handle more than " << max_block_moves << " blocks in their messages";
  os << "; use fewer tiles or another algorithm";
  throw input_error(os.str());
}

}  // namespace

harness_base::harness_base(const fw::collective_params& c, const harness_options& o)
    : harness_core{c.f.tiles(), o.exec.proto}, c_{c}, o_{o}, slot_{fw::layout{c}.slot_bytes()} {
  refuse_too_large(c, o.model);
  // Plan every tile and refuse runs that cannot fit in memory.
  plans_.resize(p_);
  for (std::uint32_t t = 0; t < p_; ++t) {
    const plan_options po{o.exec.prepost, o.exec.send_ahead, program{c, tile_id{t}}.async_slots()};
    plans_[t] = plan_memory(plan_tile(c, t, slot_), slot_, po);
    memory_ += plans_[t].data_bytes();
    if (memory_ > o.memory_limit) {
      std::ostringstream os;
      os << "the run needs more than " << (o.memory_limit >> 20) << " MiB of tile memory (--bytes "
         << c.bytes << " on " << p_ << " tiles); use fewer bytes or tiles"
         << (o.samples_payload ? ", or --payload-bytes to time the full size"
                                 " with a verified sample of each block"
                               : "");
      throw input_error(os.str());
    }
  }
  for (std::uint32_t t = 0; t < p_; ++t) {
    std::unique_ptr<tile_memory> m = make_tile_memory(plans_[t]);
    if (o.exec.proto == protocol::reliable) arm_reliable(*m, p_);
    memory_of_.push_back(m.get());
    if (!fw::load_initial(c, t, m->arena.store) && setup_failure_.empty())
      setup_failure_ = "tile " + std::to_string(t) + ": initial blocks do not fit its store";
    mem_.push_back(std::move(m));
  }
}

void harness_core::note(std::uint32_t t, tile_state s, std::uint64_t now) {
  if (s == tile_state::done && !finished_[t]) {
    finished_[t] = true;
    finish_[t] = now;
    ++done_;
  }
  if (s == tile_state::failed && failed_ < 0) failed_ = t;
}

run_outcome harness_core::settle(std::uint64_t now, const std::vector<transfer_record>& transfers,
                                 const std::vector<drop_record>& drops,
                                 const std::vector<msg_header>& unreceived, const tile_ends& ends,
                                 const std::vector<std::uint32_t>& peak_blocks) const {
  run_outcome out;
  out.memory_bytes = memory_;
  out.tiles.resize(p_);
  for (std::uint32_t t = 0; t < p_; ++t) {
    out.tiles[t].finish = finish_[t];
    out.tiles[t].messages = ends.messages[t];
    out.tiles[t].bytes = ends.bytes[t];
    out.tiles[t].peak_blocks = peak_blocks[t];
    out.cycles = std::max(out.cycles, finish_[t]);
  }
  if (done_ < p_) out.cycles = now;  // where the run stopped
  std::map<std::uint32_t, step_timing> steps;
  for (const transfer_record& r : transfers) {
    if (limited_ && r.end > limit_cycle_) continue;  // still on its way at the stop
    if (r.header.kind != msg_kind::data) {
      ++out.control_messages;
      continue;
    }
    ++out.data_messages;
    auto [it, fresh] = steps.try_emplace(r.header.tag);
    step_timing& s = it->second;
    if (fresh) {
      s.step = r.header.tag;
      s.start = r.start;
    }
    s.start = std::min(s.start, r.start);
    s.end = std::max(s.end, r.end);
    ++s.messages;
    s.bytes += r.header.bytes;
  }
  for (const auto& [k, s] : steps)
    out.steps.push_back(s);
  out.dropped = drops.size();
  out.timed_out = limited_ && done_ < p_;
  for (const tile_memory* m : memory_of_) {
    if (m->seq_out.empty()) continue;
    const reliable_stats& r = m->reliable.stats;
    out.reliable.retransmissions += r.retransmissions;
    out.reliable.timeout_cycles += r.timeout_cycles;
    out.reliable.rejected_damaged += r.rejected_damaged;
    out.reliable.rejected_duplicate += r.rejected_duplicate;
    out.reliable.rejected_gap += r.rejected_gap;
    out.reliable.acks_sent += r.acks_sent;
    out.reliable.acks_deferred += r.acks_deferred;
  }
  const std::vector<loss_record> no_losses;
  const std::vector<loss_record>& losses = faults_ != nullptr ? faults_->losses() : no_losses;
  if (faults_ != nullptr) report_faults(*faults_, out.faults, out.lost, out.lost_total);

  if (!setup_failure_.empty()) {
    out.failure = setup_failure_;
    return out;
  }
  if (failed_ >= 0) {
    const auto t = static_cast<std::uint32_t>(failed_);
    out.failure = fault_text(t, ends.faults[t]);
    // A send that failed for want of an ack: name what the fabric did to it.
    if (!losses.empty()) {
      const tile_fault& f = ends.faults[t];
      const loss_record* why = &losses.front();
      for (const loss_record& r : losses) {
        if (r.header.src == t && r.header.dst == f.peer && r.header.kind == msg_kind::data) {
          why = &r;
          break;
        }
      }
      out.failure += "; " + faults_->loss_text(*why);
    }
    return out;
  }
  if (done_ < p_ && !losses.empty() && !limited_) {
    // Nothing moves because a fault took a message: that is the cause, not a deadlock.
    out.failure = faults_->loss_text(losses.front());
    if (losses.size() > 1) out.failure += " (" + std::to_string(losses.size()) + " messages lost)";
    return out;
  }
  if (done_ < p_) {
    std::ostringstream os;
    if (!drops.empty()) {
      const drop_record& d = drops.front();
      os << "tile " << d.header.dst << " lost block " << d.header.first_block << " from tile "
         << d.header.src << " (step " << d.header.tag << ", cycle " << d.time
         << "): a FORCED message arrived before its receive was posted";
      if (drops.size() > 1) os << " (" << drops.size() << " messages dropped)";
    } else {
      // A timeout is not a deadlock: at the limit things could still move.
      if (limited_) {
        os << "stopped at cycle " << limit_cycle_ << " by " << limit_what_ << " with " << p_ - done_
           << " of " << p_ << " tiles unfinished:";
      } else {
        os << "deadlock:";
      }
      std::uint32_t listed = 0;
      for (std::uint32_t t = 0; t < p_ && listed < 8; ++t) {
        if (finished_[t]) continue;
        os << (listed == 0 ? " " : "; ") << "tile " << t << " waits for "
           << wait_text(ends.waits[t]) << held_text(unreceived, t);
        ++listed;
      }
      if (p_ - done_ > listed)
        os << "; ... (" << p_ - done_ << " tiles " << (limited_ ? "unfinished" : "stuck") << ")";
    }
    out.failure = os.str();
    return out;
  }
  out.completed = true;
  // Without the reliable protocol nothing repairs a lost or damaged data message: such
  // a run is never verified, even when the damage escaped the byte checks.
  if (proto_ != protocol::reliable) {
    for (const loss_record& r : losses) {
      if (r.header.kind != msg_kind::data) continue;
      out.failure = faults_->loss_text(r);
      return out;
    }
  }
  if (!unreceived.empty()) {
    const msg_header& h = unreceived.front();
    std::ostringstream os;
    os << "tile " << h.dst << " was sent block " << h.first_block << " by tile " << h.src
       << " (step " << h.tag << ") but never received it";
    out.failure = os.str();
  }
  return out;
}

run_outcome harness_base::finish(std::uint64_t now, const std::vector<transfer_record>& transfers,
                                 const std::vector<drop_record>& drops,
                                 const std::vector<msg_header>& unreceived, const tile_ends& ends) {
  std::vector<std::uint32_t> peak(p_);
  for (std::uint32_t t = 0; t < p_; ++t)
    peak[t] = plans_[t].peak_blocks;
  run_outcome out = settle(now, transfers, drops, unreceived, ends, peak);
  if (!out.completed || !out.failure.empty()) return out;
  verify_collective(out, c_,
                    [this](std::uint32_t t, std::string&) { return &mem_[t]->arena.store; });
  return out;
}

}  // namespace tessera::harness

namespace tessera::harness {

void span_tracker::note(std::uint32_t t, const tile_snapshot& x, std::uint64_t now) {
  if (open_.size() <= t) open_.resize(t + 1);
  open_spans& o = open_[t];
  // The op (or the prologue before the first, or the drain after the last) now.
  op_span cur;
  cur.tile = t;
  cur.index = x.index;
  if (x.past) {
    cur.is = op_span::what::drain;
  } else if (cur.index == 0) {
    cur.is = op_span::what::prologue;
  } else {
    cur.kind = x.kind;
    cur.step = x.step;
    cur.to = x.to;
    cur.from = x.from;
  }
  const tile_wait w = x.done ? tile_wait{} : x.wait;
  const bool same_op = o.op_open && o.op.is == cur.is && o.op.index == cur.index && !x.done;
  const bool same_wait = o.wait_open && same_op && o.wait.waits == w.what && o.wait.from == w.peer;
  if (o.wait_open && !same_wait) {
    close(o.wait, now);
    o.wait_open = false;
  }
  if (o.op_open && !same_op) {
    close(o.op, now);
    o.op_open = false;
  }
  if (x.done) return;
  if (!o.op_open) {
    o.op = cur;
    o.op.start = now;
    o.op_open = true;
  }
  if (!o.wait_open && w.what != wait_kind::nothing) {
    o.wait = op_span{
        op_span::what::wait, t, cur.index, cur.kind, w.what, w.step, no_tile, w.peer, now, now};
    o.wait_open = true;
  }
}

std::vector<op_span> span_tracker::take(std::uint64_t now) {
  for (open_spans& o : open_) {
    if (o.wait_open) close(o.wait, now);
    if (o.op_open) close(o.op, now);
    o.wait_open = o.op_open = false;
  }
  return std::move(spans_);
}

}  // namespace tessera::harness
