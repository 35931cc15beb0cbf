// Fault injection for every timed model (docs/faults.md). A model calls the injector
// where messages enter the fabric (admit) and where they reach their destination
// (deliver), and asks it when a tile may run (resume_at); the injector decides, keeps
// what each fault did, and the harness turns that into the run's report.
//
//   link=A-B@T      the directed link from tile A to its neighbour B fails at cycle T
//                   and stays down (on a 2-wide torus dimension both links A->B fail)
//   drop=S->D#N     the N-th data message from S to D (counted as they enter the
//                   fabric, retransmissions included) is lost in the fabric
//   stall=T@C+D     tile T executes nothing from cycle C for D cycles (its NIC runs on)
//   corrupt=S->D#N  one payload byte of that message is flipped (the middle byte of its
//                   data; of its directory when it carries no data)
//
// Routes are the model's own deterministic routes (XY, e-cube, dimension order, or a
// store-forward forwarding table). A message whose route crosses a link that is down
// when it enters the fabric is undeliverable and never enters; one that enters before
// the link fails and arrives after is cut in flight. Both are lost. Link faults stop
// every message; drop and corrupt touch data messages only. At its arrival the faults
// that meet a message (a cut, its drop, its corrupt) act in the order given, each on what
// the ones before left: once it is lost the rest do not act; corrupted then lost, it is
// recorded once, as lost.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::harness {

enum class fault_kind : std::uint8_t { link, drop, stall, corrupt };

const char* fault_kind_name(fault_kind k);

struct fault_spec {
  fault_kind kind{fault_kind::drop};
  std::uint32_t a{0};   // link: from tile; drop, corrupt: source; stall: the tile
  std::uint32_t b{0};   // link: to tile; drop, corrupt: destination
  std::uint64_t at{0};  // link: the cycle it fails; stall: its first cycle
  std::uint64_t n{0};   // drop, corrupt: which message (1 = the first); stall: cycles
  std::string text;     // as the report writes it: "drop=0->5#2"
};

inline constexpr std::size_t max_faults = 4096;

// One --fault value; input_error names it and says what is wrong.
fault_spec parse_fault(std::string_view text, const fabric& f);

// A fault file: one fault per line as for --fault; '#' starts a comment; blank lines
// are skipped. `origin` names the file in errors.
std::vector<fault_spec> parse_fault_list(std::string_view text, const fabric& f,
                                         const std::string& origin);

// Refuses a fault given twice (input_error naming it): a second copy would have
// nothing left to act on, and a byte flipped twice is intact again.
void refuse_repeats(const std::vector<fault_spec>& specs);

enum class loss_cause : std::uint8_t { dropped, corrupted, undeliverable, cut };

const char* loss_cause_name(loss_cause c);

// A message a fault lost or damaged.
struct loss_record {
  msg_header header;       // as sent: src, dst, kind, step (tag), blocks, seq
  std::uint32_t block{0};  // the block concerned (corrupted: the one with the byte)
  std::uint64_t byte{0};   // corrupted: the byte's offset in that block
  std::uint64_t cycle{0};  // when it was lost or damaged
  std::size_t fault{0};    // index of the fault in specs()
  loss_cause cause{loss_cause::dropped};
  std::uint32_t link_from{0};  // undeliverable, cut: the failed link
  std::uint32_t link_to{0};
};

// What one fault did.
struct fault_effect {
  std::uint64_t messages{0};     // messages it lost or damaged
  std::uint64_t first_cycle{0};  // when it first acted
  std::uint64_t held_cycles{0};  // stall: cycles the tile's work was held back
  bool acted{false};
};

class fault_injector {
 public:
  // route(src, dst, out): the directed link ids (tile * ports + port) of the model's
  // route; by default the fabric's deterministic routing (runtime/routing.hpp).
  using route_fn =
      std::function<void(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out)>;

  fault_injector() = default;
  fault_injector(const fabric& f, std::vector<fault_spec> specs);

  void set_route(route_fn r) { route_ = std::move(r); }

  [[nodiscard]] bool empty() const { return specs_.empty(); }
  [[nodiscard]] bool has_kind(fault_kind k) const;

  // The message `id` enters the fabric at `now`; false: a link on its route is down,
  // the message is undeliverable (recorded) and must not enter.
  bool admit(const msg_header& h, std::uint64_t id, std::uint64_t now);

  // The message `id`, admitted at `admitted`, reaches its destination at `now` with
  // `payload`; false: it is lost (dropped, or cut by a link that failed meanwhile).
  // A corrupt fault flips one byte of `payload` and returns true.
  bool deliver(const msg_header& h, std::uint64_t id, std::span<std::byte> payload,
               std::uint64_t admitted, std::uint64_t now);

  // When tile t may run: `now` unless now falls in one of its stalls, then the stall's
  // end (the hold is recorded).
  std::uint64_t resume_at(std::uint32_t t, std::uint64_t now);

  [[nodiscard]] const std::vector<fault_spec>& specs() const { return specs_; }
  [[nodiscard]] const std::vector<fault_effect>& effects() const { return effects_; }
  [[nodiscard]] const std::vector<loss_record>& losses() const { return losses_; }

  // One line about a loss, naming the tile, the source, the block, the step and the
  // fault: "tile 5 lost block 17 from tile 2 (step 3): dropped in the fabric at cycle
  // 812 by fault drop=2->5#1".
  [[nodiscard]] std::string loss_text(const loss_record& r) const;
  // What happened and which fault did it, without the message: "dropped in the fabric
  // at cycle 812 (fault drop=2->5#1)".
  [[nodiscard]] std::string cause_text(const loss_record& r) const;

 private:
  void route_of(std::uint32_t src, std::uint32_t dst);
  // The first link of the current route that is down at `t`, as a fault index.
  [[nodiscard]] std::size_t down_on_route(std::uint64_t t) const;
  // The fault acted on one more message at `now`.
  void act(std::size_t fault, std::uint64_t now);
  [[nodiscard]] loss_record record(const msg_header& h, std::uint64_t now, std::size_t fault,
                                   loss_cause cause) const;
  void lose(const msg_header& h, std::uint64_t now, std::size_t fault, loss_cause cause);
  // Flips the corrupt fault's byte of the payload; the record names its block and offset.
  loss_record flip(const msg_header& h, std::span<std::byte> payload, std::uint64_t now,
                   std::size_t fault);

  fabric f_{};
  std::vector<fault_spec> specs_;
  std::vector<fault_effect> effects_;
  std::vector<loss_record> losses_;
  route_fn route_;
  std::vector<std::uint32_t> path_;
  // Link faults: link id -> fault index (the earliest failure of that link).
  std::unordered_map<std::uint32_t, std::size_t> link_fault_;
  // drop/corrupt: data messages counted per (src, dst), and the doomed ids with the
  // faults aimed at each (a drop and a corrupt at most), in the order given.
  struct doomed {
    std::array<std::size_t, 2> faults{};
    std::size_t count{0};
  };
  std::unordered_map<std::uint64_t, std::uint64_t> sent_;
  std::unordered_map<std::uint64_t, doomed> doomed_;
};

}  // namespace tessera::harness
