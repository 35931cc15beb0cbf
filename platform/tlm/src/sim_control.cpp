#include "tessera/tlm/sim_control.hpp"

#include <fstream>
#include <iostream>
#include <string>

#include <systemc>

#include "tessera/common/errors.hpp"
#include "tessera/tlm/msg_link.hpp"

namespace tessera::tlm_models {
namespace {

bool stop_called = false;

const char* severity(sc_core::sc_severity s) {
  switch (s) {
    case sc_core::SC_INFO:
      return "info";
    case sc_core::SC_WARNING:
      return "warning";
    case sc_core::SC_ERROR:
      return "error";
    case sc_core::SC_FATAL:
      return "fatal";
    default:
      return "report";
  }
}

void to_stderr(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) != 0) {
    std::cerr << "tessera: systemc " << severity(rep.get_severity()) << " " << rep.get_msg_type()
              << ": " << rep.get_msg() << '\n';
  }
  // Logging, stopping and aborting as SystemC would; only the display moves.
  const sc_core::sc_actions rest = actions & static_cast<sc_core::sc_actions>(~sc_core::SC_DISPLAY);
  sc_core::sc_report_handler::default_handler(rep, rest);
}

}  // namespace

void route_systemc_reports() {
  sc_core::sc_report_handler::set_handler(&to_stderr);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
}

void check_thread_count(std::uint64_t threads, const char* what) {
  // The rest of the process (libraries, heap, the engine's large arrays) takes a few
  // hundred maps; 4096 leaves room for them.
  constexpr std::uint64_t reserve = 4096;
  std::uint64_t limit = 65530;  // Linux's default, if the setting cannot be read
  {
    std::ifstream in("/proc/sys/vm/max_map_count");
    char text[24] = {};
    in.read(text, sizeof text - 1);
    try {
      const std::uint64_t v = std::stoull(std::string(text));
      if (v > 0) limit = v;
    } catch (const std::exception&) {  // unreadable: keep the default
    }
  }
  const std::uint64_t needed = 2 * threads + reserve;
  if (needed > limit) {
    throw input_error("the platform runs a SystemC thread per tile, and " +
                      std::to_string(threads) + " " + what + " need about " +
                      std::to_string(needed) + " memory maps, more than this machine allows " +
                      "(vm.max_map_count " + std::to_string(limit) + "; at most about " +
                      std::to_string(limit > reserve ? (limit - reserve) / 2 : 0) + " " + what +
                      "): use fewer tiles, or the alphabeta model");
  }
}

void stop_once() {
  if (stop_called) return;
  stop_called = true;
  sc_core::sc_stop();
}

sim_end run_simulation(std::uint64_t max_cycles) {
  stop_called = false;
  // SC_EXIT_ON_STARVATION: sc_start returns at the last event when none is left, and
  // stays at the last event before the limit when the next one lies beyond it.
  sc_core::sc_start(cycles(max_cycles), sc_core::SC_EXIT_ON_STARVATION);
  sim_end e;
  e.cycle = now_cycles();
  if (stop_called) {
    e.how = run_end::stopped;
  } else if (sc_core::sc_pending_activity()) {
    e.how = run_end::cycle_limit;
    e.cycle = max_cycles;
  } else {
    e.how = run_end::starved;
  }
  return e;
}

}  // namespace tessera::tlm_models
