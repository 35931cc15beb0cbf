// The executor of one tile's op stream. It is a poll-driven state machine: poll()
// does everything that can be done now and returns; a simulator steps many tiles
// from one thread, a real tile loops with run(). Data lives in a block_store; every
// message carries its blocks' ids, and every receive checks them against its op.
//
// Protocols (Bokhari §2.1, §5): raw and FORCED sends go out at once; an UNFORCED
// message above the threshold first sends `reserve` and waits for `ack`, which the
// receiving tile's executor answers from poll() whatever it is doing. With prepost,
// the tile posts every receive of its program, then joins a global barrier, before
// its first op: the discipline that makes FORCED messages safe. An op that sends
// then ends with its send, as the send loop of Bokhari's FORCED programs does (§5:
// every receive posted at the start, the algorithm a loop of sends): its receive half
// is detached and checked when the tile needs its blocks, or after the last op. A
// receive that combines into a held block is never detached. Reliable (reliable.hpp)
// numbers and checksums every data message, and a send is over when its data_ack is
// back; the executor retransmits on a timer and acknowledges what its NIC kept.
//
// Error policy: a fault stops the tile and is kept in fault(); nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"
#include "tessera/runtime/op.hpp"
#include "tessera/runtime/reduce.hpp"
#include "tessera/runtime/reliable.hpp"

namespace tessera {

struct executor_config {
  std::uint32_t tiles{1};
  protocol proto{protocol::raw};
  std::uint64_t unforced_threshold{100};  // bytes (Bokhari §2.2: 100 on the iPSC-860)
  bool prepost{false};
  elem_type type{elem_type::u32};
  reduce_op rop{reduce_op::sum};
  std::uint64_t idle_cycles{0};  // length of an idle op
  // Post the next op's send while the current op's send is still in flight, when
  // the next op sends only blocks already held (raw and FORCED; UNFORCED must
  // reserve first). Lets a circuit NIC set up the next path early (Boppana §3.3).
  // Needs the ahead_* buffers.
  bool send_ahead{false};
  // reliable: a message's retransmission timer first runs timeout_base +
  // timeout_per_byte * bytes cycles (the model sets both from a message's lone time
  // and its ack's, docs/faults.md); each expiry doubles it, up to 16 times the first.
  // After max_retries retransmissions without an ack the tile fails (no_ack).
  std::uint64_t timeout_base{1000};
  std::uint64_t timeout_per_byte{2};
  std::uint32_t max_retries{10};
};

enum class tile_error : std::uint8_t {
  none,
  nic_full,         // the NIC refused a descriptor
  buffer_small,     // an op's message does not fit the tx or rx buffer
  block_not_held,   // a send or combine names a block the tile does not hold
  duplicate_block,  // a received block is already held
  wrong_block,      // a received block is not the one the op expects
  block_count,      // a message carries a different number of blocks than expected
  store_full,       // no room in the block store
  combine_missing,  // a combining receive got a block the tile does not hold
  bad_length,       // a block longer than a slot, or of another length than its peer
  prepost_full,     // too many receives to post up front
  nic_failed,       // the NIC reported a failed transfer
  size_mismatch,    // a message of another size than the receive expects
  no_ack,           // reliable: no data_ack after max_retries retransmissions
  no_state,         // reliable without its tables (executor buffers)
  recv_too_long,    // a message larger than the receive's landing area (the NIC failed it)
};

constexpr const char* tile_error_text(tile_error e) {
  switch (e) {
    case tile_error::none:
      return "no error";
    case tile_error::nic_full:
      return "the NIC has no free descriptor";
    case tile_error::buffer_small:
      return "the message does not fit the tile's buffer";
    case tile_error::block_not_held:
      return "the tile does not hold the block";
    case tile_error::duplicate_block:
      return "the block was received twice";
    case tile_error::wrong_block:
      return "the message carries another block than the op expects";
    case tile_error::block_count:
      return "the message carries another number of blocks than the op expects";
    case tile_error::store_full:
      return "the tile's block store is full";
    case tile_error::combine_missing:
      return "a block to combine into is not held";
    case tile_error::bad_length:
      return "a block has the wrong length";
    case tile_error::prepost_full:
      return "too many receives to post up front";
    case tile_error::nic_failed:
      return "the NIC reported a failed transfer";
    case tile_error::size_mismatch:
      return "the message has another size than the receive expects";
    case tile_error::no_ack:
      return "no acknowledgement after the last retransmission";
    case tile_error::no_state:
      return "the reliable protocol has no tables";
    case tile_error::recv_too_long:
      return "the message is larger than the receive expects";
  }
  return "?";
}

struct tile_fault {
  tile_error code{tile_error::none};
  std::uint32_t op_index{0};  // 1-based position in the tile's stream
  op_kind kind{op_kind::idle};
  std::uint32_t step{0};
  std::uint32_t peer{no_tile};
  std::uint32_t block{0};           // the block concerned (expected one for wrong_block)
  std::uint32_t got{0};             // wrong_block / block_count: what arrived
  std::uint64_t bytes_expected{0};  // size_mismatch
  std::uint64_t bytes_got{0};
};

enum class tile_state : std::uint8_t { blocked, done, failed };

// What a blocked tile waits for, for deadlock reports.
enum class wait_kind : std::uint8_t { nothing, data, send, ack, sync, pair, delay, data_ack };

struct tile_wait {
  wait_kind what{wait_kind::nothing};
  std::uint32_t peer{no_tile};
  std::uint32_t step{0};
};

struct posted_recv {
  nic_handle handle{no_handle};
  std::uint32_t offset{0};  // landing area in the rx buffer
  std::uint32_t bytes{0};
  std::uint32_t from{no_tile};  // for wait reports
  std::uint32_t step{0};
  bool detached{false};  // its op ended with its send; the blocks are stored later
};

// A data message the tile sent and has not seen through yet: the NIC's send, and
// under the reliable protocol what a retransmission needs.
struct out_msg {
  nic_handle nic{no_handle};    // the latest transmission; no_handle: slot free
  nic_handle timer{no_handle};  // reliable: retransmission timer
  msg_header h{};
  std::span<const std::byte> payload{};
  std::uint64_t timeout{0};  // reliable: the running timer's length
  std::uint64_t first{0};    // reliable: its first length
  std::uint32_t retries{0};
  bool acked{false};
  [[nodiscard]] bool busy() const { return nic != no_handle; }
};

// The memory an executor works in besides its block store (sized by memory_plan.hpp).
struct executor_buffers {
  std::span<block_id> send_ids;   // at least the program's largest send
  std::span<block_id> recv_ids;   // at least the program's largest receive
  std::span<std::byte> tx;        // directory + bytes of the largest send
  std::span<std::byte> rx;        // largest receive; with prepost, all receives
  std::span<posted_recv> posted;  // with prepost: one per receiving op
  // send_ahead only: the same three for the op whose send went out early.
  std::span<block_id> ahead_send_ids{};
  std::span<block_id> ahead_recv_ids{};
  std::span<std::byte> ahead_tx{};
  // op_flag::async sends: pool_sends.size() slots of pool.size() / slots bytes
  // each (the size of tx), each slot busy until its send completes.
  std::span<std::byte> pool{};
  std::span<out_msg> pool_sends{};
  // protocol::reliable: the tile's sequence tables and owed acks.
  reliable_state* reliable{nullptr};
};

// Program: a copyable generator with bool next(op&, span<block_id>, span<block_id>).
template <tile_nic Nic, typename Program>
class executor {
 public:
  using buffers = executor_buffers;

  executor(tile_id me, Nic& nic, Program program, block_store& store, buffers b,
           executor_config cfg)
      : me_{me.value()},
        nic_{&nic},
        prog_{program},
        store_{&store},
        buf_{b},
        cfg_{cfg},
        first_{program},
        at_op_{program} {
    for (out_msg& m : buf_.pool_sends)
      m = out_msg{};
    // The check sees the tables, not the executor, which may be moved after this.
    if (reliable() && buf_.reliable != nullptr)
      nic.set_arrival_check(&reliable_state::check, buf_.reliable);
  }

  [[nodiscard]] const tile_fault& fault() const { return fault_; }
  [[nodiscard]] const op& current() const { return op_; }
  [[nodiscard]] std::uint32_t op_index() const { return op_index_; }
  [[nodiscard]] bool finished() const { return phase_ == phase::done; }
  // The program's ops are all taken: sends still in flight or detached receives still
  // to store (or done). For timeline traces.
  [[nodiscard]] bool past_program() const {
    return phase_ == phase::drain || phase_ == phase::settle || phase_ == phase::done;
  }
  [[nodiscard]] std::uint64_t messages_sent() const { return messages_; }
  [[nodiscard]] std::uint64_t bytes_sent() const { return bytes_; }

  [[nodiscard]] tile_wait waiting() const {
    switch (phase_) {
      case phase::wait: {
        if (delay_ != no_handle) return {wait_kind::delay, no_tile, op_.step};
        // With prepost the receive half of an op that sends does not hold it (halves_done):
        // while its send is out, the op waits for that alone.
        if (recv_ != no_handle && !(detachable() && send_.busy()) &&
            nic_->test(recv_) == nic_status::pending)
          return {wait_kind::data, op_.from, op_.step};
        if (send_.busy()) {
          return {send_.acked || !reliable() ? wait_kind::send : wait_kind::data_ack, op_.to,
                  op_.step};
        }
        return {};
      }
      case phase::await_ack:
        return {wait_kind::ack, op_.to, op_.step};
      case phase::slot_wait:
      case phase::drain:
        return {reliable() ? wait_kind::data_ack : wait_kind::send, op_.to, op_.step};
      case phase::barrier:
        return {wait_kind::sync, barrier_from(), op_.step};
      case phase::settle:
        for (std::uint32_t i = 0; i < posted_next_; ++i) {
          const posted_recv& p = buf_.posted[i];
          if (p.detached && nic_->test(p.handle) == nic_status::pending)
            return {wait_kind::data, p.from, p.step};
        }
        return {};
      case phase::pair:
        return {wait_kind::pair, op_.to, op_.step};
      default:
        return {};
    }
  }

  // Does all that can be done now.
  tile_state poll() {
    serve_reserves();
    if (reliable() && phase_ != phase::failed && phase_ != phase::start) {
      take_acks();
      if (!serve_acks()) return tile_state::failed;
    }
    while (true) {
      switch (phase_) {
        case phase::start:
          if (reliable() && (buf_.reliable == nullptr || !buf_.reliable->ready())) {
            fail(tile_error::no_state);
            break;
          }
          if (cfg_.prepost) {
            if (!prepost_all()) return tile_state::failed;
            begin_barrier();
          } else {
            phase_ = phase::fetch;
          }
          break;
        case phase::fetch:
          if (ahead_) {
            take_ahead();
            break;
          }
          op_ = op{};
          at_op_ = prog_;
          if (!prog_.next(op_, buf_.send_ids, buf_.recv_ids)) {
            phase_ = phase::drain;
            note_op(true);
            break;
          }
          ++op_index_;
          note_op(false);
          begin_op();
          break;
        case phase::barrier:
          if (!barrier_progress()) return tile_state::blocked;
          phase_ = phase::fetch;
          break;
        case phase::pair:
          if (!take_control(msg_kind::pair, op_.to, op_.step)) return tile_state::blocked;
          phase_ = phase::fetch;
          break;
        case phase::await_ack:
          if (!take_control(msg_kind::ack, op_.to, op_.step)) return tile_state::blocked;
          post_data();
          break;
        case phase::wait:
          try_send_ahead();
          if (!halves_done())
            return phase_ == phase::failed ? tile_state::failed : tile_state::blocked;
          finish_op();
          break;
        case phase::slot_wait:
          if (!reap_async()) return tile_state::failed;
          if (free_slot() == no_slot) return tile_state::blocked;
          post_async();
          break;
        case phase::drain:
          if (!reap_async()) return tile_state::failed;
          if (async_busy_ > 0) return tile_state::blocked;
          phase_ = detached_ > 0 ? phase::settle : phase::done;
          break;
        case phase::settle:
          // After the last op every detached receive must be in; before an op that
          // needs a detached block, any that are in are stored and the op tried again.
          if (!detached_arrived(settle_then_ == phase::done)) {
            return phase_ == phase::failed ? tile_state::failed : tile_state::blocked;
          }
          if (!settle_detached()) return tile_state::failed;
          phase_ = settle_then_;
          settle_then_ = phase::done;
          break;
        case phase::done:
          return tile_state::done;
        case phase::failed:
          return tile_state::failed;
      }
    }
  }

  // Runs the program to the end on a real tile.
  tile_state run() {
    tile_state s = poll();
    while (s == tile_state::blocked) {
      nic_->idle();
      s = poll();
    }
    return s;
  }

 private:
  enum class phase : std::uint8_t {
    start,
    fetch,
    barrier,
    pair,
    await_ack,
    wait,
    slot_wait,  // an async send waits for a free pool slot
    drain,      // the program is over; async sends are still in flight
    settle,     // waits for the detached receives, then stores their blocks
    done,
    failed
  };
  static constexpr std::size_t no_slot = ~std::size_t{0};

  [[nodiscard]] std::uint32_t tiles() const { return cfg_.tiles; }
  [[nodiscard]] bool reliable() const { return cfg_.proto == protocol::reliable; }
  [[nodiscard]] std::uint32_t sub(std::uint32_t a, std::uint32_t b) const {
    return (a + tiles() - b % tiles()) % tiles();
  }

  bool fail(tile_error e, std::uint32_t block = 0, std::uint32_t got = 0) {
    fault_.code = e;
    fault_.op_index = op_index_;
    fault_.kind = op_.kind;
    fault_.step = op_.step;
    fault_.peer = op_.sends() ? op_.to : op_.from;
    fault_.block = block;
    fault_.got = got;
    phase_ = phase::failed;
    return false;
  }

  // UNFORCED reservations are answered whatever the tile is doing: on the iPSC the
  // operating system does it, not the program.
  // A take_control pattern: any control message of this kind.
  static msg_header any_of(msg_kind kind) {
    msg_header want{};
    want.kind = kind;
    want.src = any_tile;
    want.tag = any_tag;
    return want;
  }

  void serve_reserves() {
    const msg_header want = any_of(msg_kind::reserve);
    msg_header got{};
    while (phase_ != phase::failed && nic_->take_control(want, got)) {
      post_control(msg_kind::ack, got.src, got.tag);
    }
  }

  // Consumes the control message of this kind from src with this tag, if it arrived.
  bool take_control(msg_kind kind, std::uint32_t src, std::uint32_t tag) {
    msg_header want{};
    want.kind = kind;
    want.src = src;
    want.tag = tag;
    msg_header got{};
    return nic_->take_control(want, got);
  }

  // A zero-byte control message; on a full NIC the tile fails.
  bool post_control(msg_kind kind, std::uint32_t dst, std::uint32_t tag) {
    msg_header h{};
    h.src = me_;
    h.dst = dst;
    h.kind = kind;
    h.tag = tag;
    if (nic_->post_control(h)) return true;
    return fail(tile_error::nic_full);
  }

  [[nodiscard]] std::size_t recv_bytes(std::uint32_t blocks) const {
    return dir_bytes(blocks) + std::size_t{blocks} * store_->slot_bytes();
  }

  bool prepost_all() {
    Program look = prog_;
    op o{};
    std::uint32_t offset = 0;
    while (look.next(o, buf_.send_ids, buf_.recv_ids)) {
      if (!o.receives()) continue;
      const std::size_t need = recv_bytes(o.recv_count);
      if (posted_count_ == buf_.posted.size() || offset + need > buf_.rx.size()) {
        op_ = o;
        return fail(tile_error::prepost_full);
      }
      const nic_handle h = nic_->post_recv(o.from, buf_.rx.subspan(offset, need));
      if (h == no_handle) {
        op_ = o;
        return fail(tile_error::nic_full);
      }
      buf_.posted[posted_count_++] =
          posted_recv{h, offset, static_cast<std::uint32_t>(need), o.from, o.step, false};
      offset += static_cast<std::uint32_t>(need);
    }
    return true;
  }

  void begin_barrier() {
    ++barrier_seq_;
    barrier_round_ = 0;
    barrier_sent_ = false;
    phase_ = phase::barrier;
  }

  // On a power-of-two number of tiles a butterfly barrier: in round r the tile and
  // me xor 2^r tell each other (on a hypercube, the neighbour across dimension r).
  // Otherwise a dissemination barrier: in round r tell me + 2^r and hear from
  // me - 2^r. Either takes ceil(log2 p) rounds of one zero-byte message a tile.
  [[nodiscard]] bool butterfly() const { return (tiles() & (tiles() - 1)) == 0; }
  [[nodiscard]] std::uint32_t barrier_to() const {
    const std::uint32_t dist = std::uint32_t{1} << barrier_round_;
    return butterfly() ? me_ ^ dist : (me_ + dist) % tiles();
  }
  [[nodiscard]] std::uint32_t barrier_from() const {
    const std::uint32_t dist = std::uint32_t{1} << barrier_round_;
    return butterfly() ? me_ ^ dist : sub(me_, dist);
  }

  bool barrier_progress() {
    while ((std::uint32_t{1} << barrier_round_) < tiles()) {
      const std::uint32_t tag = (barrier_seq_ << 5) | barrier_round_;
      if (!barrier_sent_) {
        if (!post_control(msg_kind::sync, barrier_to(), tag)) return false;
        barrier_sent_ = true;
      }
      if (!take_control(msg_kind::sync, barrier_from(), tag)) return false;
      ++barrier_round_;
      barrier_sent_ = false;
    }
    return true;
  }

  void begin_op() {
    send_ = out_msg{};
    recv_ = delay_ = no_handle;
    if (detached_ > 0 && (op_.sends() || op_.kind == op_kind::combine) && !holds_sends()) {
      // A block this op reads comes with a detached receive: store those first, then
      // take the op again.
      prog_ = at_op_;
      --op_index_;
      settle_then_ = phase::fetch;
      phase_ = phase::settle;
      return;
    }
    switch (op_.kind) {
      case op_kind::idle:
        if (cfg_.idle_cycles > 0) {
          delay_ = nic_->post_delay(cfg_.idle_cycles);
          if (delay_ == no_handle) {
            fail(tile_error::nic_full);
            return;
          }
          phase_ = phase::wait;
        }
        return;
      case op_kind::shuffle:  // blocks are found by id: a rearrangement moves nothing
        return;
      case op_kind::barrier:
        begin_barrier();
        return;
      case op_kind::pair_sync:
        if (post_control(msg_kind::pair, op_.to, op_.step)) phase_ = phase::pair;
        return;
      case op_kind::combine:
        local_combine();
        return;
      case op_kind::send:
      case op_kind::recv:
      case op_kind::exchange:
      case op_kind::sendrecv:
        break;
    }
    if (op_.kind == op_kind::send && (op_.flags & op_flag::async) != 0 &&
        !buf_.pool_sends.empty()) {
      if (!reap_async()) return;
      if (free_slot() == no_slot) {
        phase_ = phase::slot_wait;
        return;
      }
      post_async();
      return;
    }
    if (op_.receives() && !post_receive()) return;
    if (op_.sends()) {
      if (!gather()) return;
      if (cfg_.proto == protocol::unforced && tx_bytes_ > cfg_.unforced_threshold) {
        if (post_control(msg_kind::reserve, op_.to, op_.step)) phase_ = phase::await_ack;
        return;
      }
      post_data();
      return;
    }
    phase_ = phase::wait;
  }

  bool post_receive() {
    if (cfg_.prepost) {
      if (posted_next_ == posted_count_) return fail(tile_error::prepost_full);
      recv_posted_ = posted_next_;
      const posted_recv& p = buf_.posted[posted_next_++];
      recv_ = p.handle;
      landing_ = buf_.rx.subspan(p.offset, p.bytes);
      return true;
    }
    const std::size_t need = recv_bytes(op_.recv_count);
    if (need > buf_.rx.size()) return fail(tile_error::buffer_small);
    landing_ = buf_.rx.first(need);
    recv_ = nic_->post_recv(op_.from, landing_);
    if (recv_ == no_handle) return fail(tile_error::nic_full);
    return true;
  }

  // Copies the directory and the blocks of o's send half into tx; `bad` names the
  // block at fault.
  tile_error pack(const op& o, std::span<const block_id> ids, std::span<std::byte> tx,
                  std::size_t& bytes, std::size_t& used, std::uint32_t& bad) const {
    std::size_t at = dir_bytes(o.send_count);
    bad = 0;
    if (at > tx.size()) return tile_error::buffer_small;
    for (std::uint32_t i = 0; i < o.send_count; ++i) {
      const std::uint32_t id = ids[i].value();
      bad = id;
      const std::span<std::byte> b = store_->find(id);
      if (b.data() == nullptr && !store_->contains(id)) return tile_error::block_not_held;
      if (at + b.size() > tx.size()) return tile_error::buffer_small;
      write_dir(tx.data(), i, dir_entry{id, static_cast<std::uint32_t>(b.size())});
      if (!b.empty()) std::memcpy(tx.data() + at, b.data(), b.size());
      at += b.size();
    }
    bytes = at - dir_bytes(o.send_count);
    used = at;
    return tile_error::none;
  }

  bool gather() {
    std::uint32_t bad = 0;
    const tile_error e = pack(op_, buf_.send_ids, buf_.tx, tx_bytes_, tx_used_, bad);
    if (e != tile_error::none) return fail(e, bad);
    return true;
  }

  // Posts o's send half into m; false when the NIC has no room (m stays free).
  bool post(const op& o, std::span<const block_id> ids, std::span<const std::byte> payload,
            std::size_t bytes, out_msg& m) {
    msg_header h{};
    h.src = me_;
    h.dst = o.to;
    h.kind = msg_kind::data;
    h.proto = cfg_.proto;
    h.tag = o.step;
    h.blocks = o.send_count;
    h.first_block = o.send_count > 0 ? ids[0].value() : 0;
    h.bytes = bytes;
    out_msg next{};
    if (reliable()) {
      h.seq = buf_.reliable->take_seq(o.to);
      h.check = message_check(h, payload);
      next.first = next.timeout = cfg_.timeout_base + cfg_.timeout_per_byte * bytes;
      next.timer = nic_->post_delay(next.timeout);
      if (next.timer == no_handle) return false;
    }
    next.h = h;
    next.payload = payload;
    next.nic = nic_->post_send(h, payload);
    if (next.nic == no_handle) {
      if (next.timer != no_handle) nic_->release(next.timer);
      return false;
    }
    ++messages_;
    bytes_ += bytes;
    m = next;
    return true;
  }

  enum class send_state : std::uint8_t { pending, done, failed, no_ack };

  // Where a send stands. Raw, FORCED and UNFORCED: the NIC's word. Reliable: done
  // when acknowledged; on the timer, retransmitted if the NIC is through with the
  // last copy (a copy still in the fabric is not lost, so its timer restarts).
  send_state progress(out_msg& m) {
    const nic_status s = nic_->test(m.nic);
    if (s == nic_status::failed) return send_state::failed;
    if (!reliable()) return s == nic_status::done ? send_state::done : send_state::pending;
    if (m.acked) return s == nic_status::done ? send_state::done : send_state::pending;
    if (m.timer == no_handle || nic_->test(m.timer) != nic_status::done) return send_state::pending;
    nic_->release(m.timer);
    m.timer = no_handle;
    if (s == nic_status::done) {
      buf_.reliable->stats.timeout_cycles += m.timeout;
      if (m.retries == cfg_.max_retries) return send_state::no_ack;
      nic_->release(m.nic);
      m.nic = nic_->post_send(m.h, m.payload);
      if (m.nic == no_handle) return send_state::failed;
      ++m.retries;
      ++buf_.reliable->stats.retransmissions;
      ++messages_;
      bytes_ += m.h.bytes;
      m.timeout = m.timeout * 2 > m.first * 16 ? m.first * 16 : m.timeout * 2;
    }
    m.timer = nic_->post_delay(m.timeout);
    return m.timer == no_handle ? send_state::failed : send_state::pending;
  }

  // Frees a settled send: its NIC handle and its timer (releasing a timer cancels it).
  void release_out(out_msg& m) {
    if (m.nic != no_handle) nic_->release(m.nic);
    if (m.timer != no_handle) nic_->release(m.timer);
    m = out_msg{};
  }

  // Marks the sends whose data_acks arrived; an ack nothing waits for is dropped.
  void take_acks() {
    const msg_header want = any_of(msg_kind::data_ack);
    msg_header got{};
    while (nic_->take_control(want, got)) {
      auto mark = [&](out_msg& m) {
        if (!m.busy() || m.acked || m.h.dst != got.src || m.h.seq != got.tag) return false;
        m.acked = true;
        if (m.timer != no_handle) nic_->release(m.timer);
        m.timer = no_handle;
        return true;
      };
      if (mark(send_) || mark(ahead_send_)) continue;
      for (out_msg& m : buf_.pool_sends)
        if (mark(m)) break;
    }
  }

  // Sends the data_acks the arrival check owes; false on a full NIC.
  bool serve_acks() {
    owed_ack a{};
    while (buf_.reliable->pop_ack(a)) {
      if (!post_control(msg_kind::data_ack, a.dst, a.seq)) return false;
      ++buf_.reliable->stats.acks_sent;
    }
    return true;
  }

  // The tile error of a send that did not go through.
  bool fail_send(send_state st) {
    return fail(st == send_state::no_ack ? tile_error::no_ack : tile_error::nic_failed);
  }

  void post_data() {
    if (!post(op_, buf_.send_ids, buf_.tx.first(tx_used_), tx_bytes_, send_)) {
      fail(tile_error::nic_full);
      return;
    }
    phase_ = phase::wait;
  }

  // Releases the pool slots whose sends completed; false on a failed send.
  bool reap_async() {
    for (out_msg& m : buf_.pool_sends) {
      if (!m.busy()) continue;
      const send_state st = progress(m);
      if (st == send_state::pending) continue;
      release_out(m);
      --async_busy_;
      if (st != send_state::done) return fail_send(st);
    }
    return true;
  }

  [[nodiscard]] std::size_t free_slot() const {
    for (std::size_t i = 0; i < buf_.pool_sends.size(); ++i)
      if (!buf_.pool_sends[i].busy()) return i;
    return no_slot;
  }

  // Packs op_'s send into a free pool slot and posts it; the op is then over.
  void post_async() {
    const std::size_t i = free_slot();
    const std::size_t slot_bytes = buf_.pool.size() / buf_.pool_sends.size();
    const std::span<std::byte> slot = buf_.pool.subspan(i * slot_bytes, slot_bytes);
    std::size_t bytes = 0;
    std::size_t used = 0;
    std::uint32_t bad = 0;
    const tile_error e = pack(op_, buf_.send_ids, slot, bytes, used, bad);
    if (e != tile_error::none) {
      fail(e, bad);
      return;
    }
    if (!post(op_, buf_.send_ids, slot.first(used), bytes, buf_.pool_sends[i])) {
      fail(tile_error::nic_full);
      return;
    }
    ++async_busy_;
    if ((op_.flags & op_flag::release) != 0) {
      for (std::uint32_t k = 0; k < op_.send_count; ++k)
        store_->erase(buf_.send_ids[k].value());
    }
    phase_ = phase::fetch;
  }

  // Posts the next op's send now if it can go early (see executor_config). Anything
  // that stops it (blocks not held yet, no room) just leaves the op for later.
  void try_send_ahead() {
    if (!cfg_.send_ahead || ahead_ || ahead_end_ || !send_.busy()) return;
    if (cfg_.proto == protocol::unforced || buf_.ahead_tx.empty()) return;
    Program look = prog_;
    op o{};
    if (!look.next(o, buf_.ahead_send_ids, buf_.ahead_recv_ids)) {
      ahead_end_ = true;
      return;
    }
    if (o.kind != op_kind::send && o.kind != op_kind::exchange && o.kind != op_kind::sendrecv)
      return;
    if ((o.flags & op_flag::async) != 0) return;  // it needs no head start
    for (std::uint32_t i = 0; i < o.send_count; ++i) {
      const std::uint32_t id = buf_.ahead_send_ids[i].value();
      if (!store_->contains(id)) return;
      // A block the current op is still receiving into (a combining receive) holds
      // an old value until that op finishes.
      if (op_.receives()) {
        for (std::uint32_t j = 0; j < op_.recv_count; ++j) {
          if (buf_.recv_ids[j].value() == id) return;
        }
      }
    }
    std::size_t bytes = 0;
    std::size_t used = 0;
    std::uint32_t bad = 0;
    if (pack(o, buf_.ahead_send_ids, buf_.ahead_tx, bytes, used, bad) != tile_error::none) return;
    if (!post(o, buf_.ahead_send_ids, buf_.ahead_tx.first(used), bytes, ahead_send_)) return;
    prog_ = look;
    ahead_ = true;
    ahead_op_ = o;
  }

  // Tells a NIC that draws the timeline's op spans (the ISS tiles' mmio_nic) which op
  // the program takes up, or that it is past the last.
  void note_op(bool past) {
    if constexpr (requires(Nic & n) { n.note_op(std::uint32_t{}, op{}, bool{}); })
      nic_->note_op(op_index_, op_, past);
  }

  // Makes the op whose send went early the current one.
  void take_ahead() {
    std::swap(buf_.send_ids, buf_.ahead_send_ids);
    std::swap(buf_.recv_ids, buf_.ahead_recv_ids);
    std::swap(buf_.tx, buf_.ahead_tx);
    op_ = ahead_op_;
    ++op_index_;
    note_op(false);
    ahead_ = false;
    send_ = ahead_send_;
    ahead_send_ = out_msg{};
    recv_ = delay_ = no_handle;
    if (op_.receives() && !post_receive()) return;
    phase_ = phase::wait;
  }

  bool halves_done() {
    if (send_.busy()) {
      const send_state st = progress(send_);
      if (st == send_state::pending) return false;
      if (st != send_state::done) return fail_send(st);
    }
    // prepost: an op that sends ends with its send (see the top of this file).
    if (recv_ != no_handle && detachable() && nic_->test(recv_) == nic_status::pending) {
      buf_.posted[recv_posted_].detached = true;
      ++detached_;
      recv_ = no_handle;
    }
    for (nic_handle* h : {&recv_, &delay_}) {
      if (*h == no_handle) continue;
      const nic_status s = nic_->test(*h);
      if (s == nic_status::pending) return false;
      if (s == nic_status::failed) {
        if (h == &recv_) return fail_recv(recv_, op_.recv_count, landing_.size());
        return fail(tile_error::nic_failed);
      }
    }
    return true;
  }

  // A receive the NIC failed: the message that came does not fit its landing area. The
  // fault names what came (source, blocks, data bytes) against what the op expects
  // (`expected` blocks, 0 when unknown, in `room` bytes).
  bool fail_recv(nic_handle h, std::uint32_t expected, std::size_t room) {
    const msg_header got = nic_->header(h);
    fail(tile_error::recv_too_long, expected, got.blocks);
    fault_.peer = got.src;
    fault_.bytes_got = dir_bytes(got.blocks) + got.bytes;
    fault_.bytes_expected = room;
    return false;
  }

  // prepost: whether op_'s receive half may be detached, so that the op ends with its
  // send (see the top of this file); one that combines or waits out a delay may not.
  [[nodiscard]] bool detachable() const {
    return cfg_.prepost && op_.sends() && delay_ == no_handle &&
           (op_.flags & op_flag::combine_in) == 0;
  }

  // Whether the tile holds every block op_ sends (or, for combine, reads).
  [[nodiscard]] bool holds_sends() const {
    for (std::uint32_t i = 0; i < op_.send_count; ++i)
      if (!store_->contains(buf_.send_ids[i].value())) return false;
    return true;
  }

  // Whether every detached receive (all) or at least one (!all) has arrived; a failed
  // one fails the tile.
  bool detached_arrived(bool all) {
    bool any = false;
    for (std::uint32_t i = 0; i < posted_next_; ++i) {
      const posted_recv& p = buf_.posted[i];
      if (!p.detached) continue;
      const nic_status s = nic_->test(p.handle);
      if (s == nic_status::failed) return fail_recv(p.handle, 0, p.bytes);
      if (s == nic_status::pending && all) return false;
      any = any || s == nic_status::done;
    }
    return any;
  }

  // Stores the blocks of every detached receive that has arrived, checked against its
  // op, found again by walking the program from the start. A fault names the
  // receive's own op.
  bool settle_detached() {
    const std::uint32_t resume = op_index_;
    Program look = first_;
    std::uint32_t k = 0;
    std::uint32_t index = 0;
    while (detached_ > 0 && look.next(op_, buf_.send_ids, buf_.recv_ids)) {
      ++index;
      if (!op_.receives()) continue;
      posted_recv& p = buf_.posted[k++];
      if (!p.detached || nic_->test(p.handle) != nic_status::done) continue;
      op_index_ = index;
      landing_ = buf_.rx.subspan(p.offset, p.bytes);
      const msg_header h = nic_->header(p.handle);
      nic_->release(p.handle);
      p.handle = no_handle;
      p.detached = false;
      --detached_;
      if (!scatter(h)) return false;
    }
    op_index_ = resume;
    return true;
  }

  void finish_op() {
    release_out(send_);
    if (delay_ != no_handle) nic_->release(delay_);
    if (op_.sends() && (op_.flags & op_flag::release) != 0) {
      for (std::uint32_t i = 0; i < op_.send_count; ++i)
        store_->erase(buf_.send_ids[i].value());
    }
    if (recv_ != no_handle) {
      const msg_header h = nic_->header(recv_);
      nic_->release(recv_);
      recv_ = no_handle;
      if (!scatter(h)) return;
    }
    delay_ = no_handle;
    phase_ = phase::fetch;
  }

  // Stores or combines the received blocks after checking them against the op.
  bool scatter(const msg_header& h) {
    if ((op_.flags & op_flag::sized) != 0 && h.bytes != op_.recv_bytes) {
      fail(tile_error::size_mismatch, h.first_block);
      fault_.peer = op_.from;
      fault_.bytes_expected = op_.recv_bytes;
      fault_.bytes_got = h.bytes;
      return false;
    }
    if (h.blocks != op_.recv_count) return fail(tile_error::block_count, op_.recv_count, h.blocks);
    std::size_t at = dir_bytes(h.blocks);
    const bool combining = (op_.flags & op_flag::combine_in) != 0;
    for (std::uint32_t i = 0; i < h.blocks; ++i) {
      const dir_entry e = read_dir(landing_.data(), i);
      const std::uint32_t want = buf_.recv_ids[i].value();
      if (e.id != want) return fail(tile_error::wrong_block, want, e.id);
      if (at + e.len > landing_.size()) return fail(tile_error::bad_length, e.id);
      const std::span<const std::byte> data = landing_.subspan(at, e.len);
      at += e.len;
      if (combining) {
        const std::span<std::byte> mine = store_->find(e.id);
        if (!store_->contains(e.id)) return fail(tile_error::combine_missing, e.id);
        if (mine.size() != e.len) return fail(tile_error::bad_length, e.id);
        combine(mine.data(), data.data(), e.len, cfg_.type, cfg_.rop);
        continue;
      }
      switch (store_->insert(e.id, data)) {
        case block_store::put_result::ok:
          break;
        case block_store::put_result::duplicate:
          return fail(tile_error::duplicate_block, e.id);
        case block_store::put_result::full:
          return fail(tile_error::store_full, e.id);
        case block_store::put_result::too_long:
          return fail(tile_error::bad_length, e.id);
      }
    }
    return true;
  }

  // recv[0] (op)= send[0]; a destination not yet held starts as a copy.
  void local_combine() {
    const std::uint32_t src = buf_.send_ids[0].value();
    const std::uint32_t dst = buf_.recv_ids[0].value();
    const std::span<std::byte> s = store_->find(src);
    if (!store_->contains(src)) {
      fail(tile_error::block_not_held, src);
      return;
    }
    if (store_->contains(dst)) {
      const std::span<std::byte> d = store_->find(dst);
      if (d.size() != s.size()) {
        fail(tile_error::bad_length, dst);
        return;
      }
      combine(d.data(), s.data(), s.size(), cfg_.type, cfg_.rop);
    } else {
      switch (store_->insert(dst, s)) {
        case block_store::put_result::ok:
          break;
        case block_store::put_result::full:
          fail(tile_error::store_full, dst);
          return;
        default:
          fail(tile_error::bad_length, dst);
          return;
      }
    }
    if ((op_.flags & op_flag::release) != 0) store_->erase(src);
  }

  std::uint32_t me_;
  Nic* nic_;  // pointers, not references: an executor can be re-armed by assignment
  Program prog_;
  block_store* store_;
  buffers buf_;
  executor_config cfg_;

  phase phase_{phase::start};
  op op_{};
  std::uint32_t op_index_{0};
  tile_fault fault_{};
  out_msg send_{};
  nic_handle recv_{no_handle};
  nic_handle delay_{no_handle};
  std::span<std::byte> landing_{};
  std::size_t tx_bytes_{0};
  std::size_t tx_used_{0};
  bool ahead_{false};      // ahead_op_'s send is posted
  bool ahead_end_{false};  // the program has no op left to send early
  op ahead_op_{};
  out_msg ahead_send_{};
  std::uint32_t async_busy_{0};  // pool slots in flight
  std::uint32_t posted_count_{0};
  std::uint32_t posted_next_{0};
  std::uint32_t recv_posted_{0};  // prepost: the posted receive of op_
  std::uint32_t detached_{0};     // detached receives not yet settled
  Program first_;                 // the program from its first op (settle_detached)
  Program at_op_;                 // the program before op_ was taken
  phase settle_then_{phase::done};
  std::uint32_t barrier_seq_{0};
  std::uint32_t barrier_round_{0};
  bool barrier_sent_{false};
  std::uint64_t messages_{0};
  std::uint64_t bytes_{0};
};

}  // namespace tessera
