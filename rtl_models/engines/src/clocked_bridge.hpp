// What every bridge engine shares: the fabric module's driving protocol
// (tessera/net/engine.hpp) over a clocked Verilated model, the idle fast path and the
// no-progress watchdog. A fabric's engine derives from it and supplies one RTL cycle
// (step), what it still owes (busy), and what happens to a delivery that falls due.
//
// The RTL's cycle c is the platform's cycle c + offset_. arbitrate(t) simulates cycle
// t, after every message posted at t is in. While anything is owed the bridge asks for
// every cycle (next_event); with nothing owed it reports no event, and the next
// message's cycle is reached by simulating idle cycles until the RTL has been quiet for
// quiet_needed_ of them, then by moving offset_ (an idle RTL does not change).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/rtl_tops/pins.hpp"

namespace tessera::rtl_engines {

class clocked_bridge : public net::engine {
 public:
  void arbitrate(net::cycle_t now) final {
    if (failed() || now < rtl_time()) return;  // cycle `now` is simulated already
    catch_up(now);
    if (!busy()) return;
    step(true);
  }

  [[nodiscard]] net::cycle_t next_event() const final {
    if (failed() || !busy()) return net::never;
    return std::max(rtl_time(), last_fire_ == net::never ? 0 : last_fire_ + 1);
  }

  void fire(net::cycle_t now) final {
    last_fire_ = now;
    while (!due_.empty() && due_.begin()->first <= now) {
      const auto [t, id] = *due_.begin();
      due_.erase(due_.begin());
      deliver(id, t);
    }
  }

  [[nodiscard]] bool idle() const final { return !busy(); }
  [[nodiscard]] std::string failure() const override { return failure_; }

 protected:
  // One RTL cycle, offering the queued messages to the NIs when `offer` (not while an
  // idle stretch is being caught up). It ends with account().
  virtual void step(bool offer) = 0;
  // Messages posted and not delivered, or anything still in the RTL.
  [[nodiscard]] virtual bool busy() const = 0;
  // Reports message `id` delivered in cycle t (called from fire for due_ entries).
  virtual void deliver(std::uint64_t id, net::cycle_t t) = 0;
  [[nodiscard]] virtual bool failed() const { return !failure_.empty(); }

  // The tops' reset (rtl_tops::reset); cycle 0 is the first that may move data.
  template <class Model>
  static void reset(Model& m) {
    rtl_tops::reset(m, rtl_tops::reset_cycles, [&m] {
      m.clk_i = 1;
      m.eval();
      m.clk_i = 0;
      m.eval();
    });
  }

  // The rising edge that ends a cycle. The clock goes low without an evaluation: the
  // next step evaluates the falling edge together with its inputs.
  template <class Model>
  void rising_edge(Model& m) {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    ++rtl_cycle_;
  }

  // After each cycle: `active` when something was in the RTL or offered to it, `moved`
  // when any of it moved. Returns true when the watchdog runs out: active and nothing
  // moved for watchdog_ cycles (the caller then fails the run, saying what waits).
  bool account(bool active, bool moved) {
    if (!active) {
      ++quiet_;
      last_progress_ = rtl_cycle_;
      return false;
    }
    quiet_ = 0;
    if (moved) {
      last_progress_ = rtl_cycle_;
      return false;
    }
    return rtl_cycle_ - last_progress_ > watchdog_;
  }

  void fail(const std::string& why) {
    if (failure_.empty()) failure_ = "rtl: " + why;
  }

  // Fails the run when account() says the watchdog ran out: nothing (`what`, "flit",
  // "packet", ...) moved for watchdog_ cycles, with the first lines of stuck().
  void watchdog_expired(const char* fabric_name, const char* what, net::cycle_t now,
                        std::size_t lines) {
    std::ostringstream os;
    os << "the Verilated " << fabric_name << " moved no " << what << " for " << watchdog_
       << " cycles (cycle " << now << ")";
    const std::vector<std::string> waits = stuck();
    for (std::size_t i = 0; i < waits.size() && i < lines; ++i)
      os << "; " << waits[i];
    fail(os.str());
  }

  // stuck()'s first lines: the failure, if any, then up to 16 messages still owed, in id
  // order: "message ID SRC->DST (SIZE): " and either the queue it waits in (not taken by
  // its NI yet) or progress(id, m). A message m has src, dst and taken.
  template <class Map, class Size, class Progress>
  std::vector<std::string> owed_messages(const Map& msgs, Size size, Progress progress) const {
    std::vector<std::string> out;
    if (!failure().empty()) out.push_back(failure());
    std::vector<std::uint64_t> ids;  // by id, so the report is the same every run
    ids.reserve(msgs.size());
    for (const auto& [id, m] : msgs)
      ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for (const std::uint64_t id : ids) {
      const auto& m = msgs.at(id);
      std::ostringstream os;
      os << "message " << id << " " << m.src << "->" << m.dst << " (" << size(m) << "): ";
      if (!m.taken) {
        os << "waits in tile " << m.src << "'s queue for the RTL NI";
      } else {
        os << progress(id, m);
      }
      out.push_back(os.str());
      if (out.size() >= 16) break;
    }
    return out;
  }

  // The platform's cycle the RTL simulates next.
  [[nodiscard]] net::cycle_t rtl_time() const { return rtl_cycle_ + offset_; }

  std::multimap<net::cycle_t, std::uint64_t> due_;  // deliveries by cycle
  std::uint64_t quiet_needed_{16};
  std::uint64_t watchdog_{10000};
  std::string failure_;

 private:
  // Brings the RTL to the platform's cycle `now` from an idle stretch (every message
  // delivered; those posted at `now` are not offered yet).
  void catch_up(net::cycle_t now) {
    while (rtl_time() < now) {
      if (quiet_ >= quiet_needed_) {
        offset_ += now - rtl_time();
        return;
      }
      step(false);
    }
  }

  net::cycle_t rtl_cycle_{0};  // the RTL's next cycle
  net::cycle_t offset_{0};     // platform cycle - RTL cycle
  net::cycle_t last_fire_{net::never};
  std::uint64_t quiet_{~std::uint64_t{0} >> 1};  // idle since reset
  std::uint64_t last_progress_{0};
};

}  // namespace tessera::rtl_engines
