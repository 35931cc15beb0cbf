#pragma once

// The smallest TLM-2.0 model the project builds: one initiator, one target, blocking
// transport with loosely-timed delay annotation. It proves the SystemC toolchain
// (C++20 against Debian's C++17 SystemC, SYSTEM headers under -Werror) before any
// fabric model exists, and is the pattern fabric links follow: delays are constructor
// parameters, never globals.

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

// Not tessera::tlm: inside such a namespace every `tlm::` would resolve to it instead of
// the TLM library.
namespace tessera::tlm_models {

// One transaction as the initiator issues it.
struct smoke_transfer {
  tlm::tlm_command command = tlm::TLM_WRITE_COMMAND;
  std::uint64_t address = 0;
  std::vector<unsigned char> data;
};

// One write as the target stored it.
struct smoke_write {
  std::uint64_t address = 0;
  std::vector<unsigned char> data;

  friend bool operator==(const smoke_write&, const smoke_write&) = default;
};

// A sink: stores the bytes of every write and answers anything else with a command
// error. Every call, accepted or not, adds `latency` to the caller's annotated delay.
class smoke_target : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<smoke_target> socket;

  smoke_target(sc_core::sc_module_name name, sc_core::sc_time latency);

  const std::vector<smoke_write>& writes() const { return writes_; }
  const sc_core::sc_time& latency() const { return latency_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  sc_core::sc_time latency_;
  std::vector<smoke_write> writes_;
};

// Issues its transfers in order from one thread. Each starts with `issue_delay`
// annotated and the initiator waits out the returned annotation before the next, so
// transfer k (1-based) completes at k * (issue_delay + target latency).
class smoke_initiator : public sc_core::sc_module {
 public:
  struct completion {
    tlm::tlm_response_status status;
    sc_core::sc_time time;
  };

  tlm_utils::simple_initiator_socket<smoke_initiator> socket;

  smoke_initiator(sc_core::sc_module_name name, sc_core::sc_time issue_delay,
                  std::vector<smoke_transfer> transfers);

  const std::vector<completion>& completions() const { return completions_; }
  const sc_core::sc_time& issue_delay() const { return issue_delay_; }

 private:
  void run();

  sc_core::sc_time issue_delay_;
  std::vector<smoke_transfer> transfers_;
  std::vector<completion> completions_;
};

// An initiator bound to a target.
class smoke_link : public sc_core::sc_module {
 public:
  smoke_initiator initiator;
  smoke_target target;

  smoke_link(sc_core::sc_module_name name, sc_core::sc_time issue_delay,
             sc_core::sc_time target_latency, std::vector<smoke_transfer> transfers);
};

}  // namespace tessera::tlm_models
