// A GDB remote-serial-protocol server for one tile core (`tessera run --tiles cortex-m4
// --gdb TILE[:PORT]`, docs/tiles.md "Debugging a tile"). It listens on 127.0.0.1, and the
// tile's SystemC thread calls stopped() whenever its core stops for the debugger (before
// its first instruction, at a breakpoint, after a single step, on an interrupt from GDB):
// the call answers GDB's packets and returns only when GDB resumes the core. The whole
// simulation waits meanwhile, since the tile's thread is the kernel's, so simulated time
// does not move while the tile is stopped and the other tiles and the fabric stay in step.
//
// What it answers: the stop reason (?), the registers r0-r12, sp, lr, pc and xpsr as an
// M-profile target description (qXfer:features:read:target.xml; g, G, p, P), memory (m, M;
// the NIC's registers are refused, reading them has effects), breakpoints (Z0/Z1, z0/z1;
// the core stops before the instruction), continue and step (c, s, and vCont), detach (D:
// the breakpoints go and the run goes on to its end), kill (k: taken as a detach, a tile
// cannot end alone), and the protocol's housekeeping (qSupported, QStartNoAckMode,
// qAttached, thread queries for the one thread). Anything else gets the empty reply,
// which GDB reads as "not supported".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tessera::iss {

// What the server needs of the stopped core.
class debug_target {
 public:
  virtual ~debug_target() = default;
  // Registers by GDB's number in the target description: 0..15 r0..r12, sp, lr, pc;
  // 16 xpsr.
  virtual std::uint32_t read_register(unsigned n) = 0;
  virtual void write_register(unsigned n, std::uint32_t value) = 0;
  // False when any byte is outside the tile's memory (or in the NIC's registers).
  virtual bool read_memory(std::uint32_t addr, std::span<std::byte> out) = 0;
  virtual bool write_memory(std::uint32_t addr, std::span<const std::byte> in) = 0;
  virtual void set_breakpoint(std::uint32_t addr, bool on) = 0;
  virtual void clear_breakpoints() = 0;
};

enum class resume_kind : std::uint8_t { cont, step, detach };

class gdb_server {
 public:
  // Registers in the target description (r0..pc, xpsr).
  static constexpr unsigned registers = 17;
  // Signals a stop reports: SIGINT (GDB's interrupt), SIGTRAP (a breakpoint, a step, the
  // stop before the first instruction), SIGSEGV (a fault).
  static constexpr int sigint = 2;
  static constexpr int sigtrap = 5;
  static constexpr int sigsegv = 11;

  // Listens on 127.0.0.1:port; port 0 takes a free one (port() says which). Throws
  // input_error naming the port when it cannot listen there (in use).
  explicit gdb_server(std::uint16_t port);
  ~gdb_server();
  gdb_server(const gdb_server&) = delete;
  gdb_server& operator=(const gdb_server&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }
  // A debugger is connected and has not detached.
  [[nodiscard]] bool attached() const { return conn_ >= 0 && !detached_; }

  // The core stopped with `signal`: on the first call waits for GDB to connect, then
  // reports the stop if GDB asked for it (after a resume) and answers packets until GDB
  // resumes the core. Returns how to resume; detach also when the connection is lost.
  resume_kind stopped(debug_target& t, int signal);
  // While the core runs: whether GDB sent an interrupt (Ctrl-C); does not block.
  bool interrupted();
  // The tile's program ended with `code`: tells a resumed GDB (W) and closes.
  void exited(int code);
  // The tile ended on `signal` (a fault): tells GDB (X) and closes.
  void terminated(int signal);

 private:
  bool read_byte(char& c);
  bool read_packet(std::string& body);
  void send_packet(std::string_view body);
  // Answers one packet; sets resume_ and returns true when the core is to run on.
  bool answer(debug_target& t, const std::string& p, int signal);
  void close_connection();

  int listen_{-1};
  int conn_{-1};
  std::uint16_t port_{0};
  bool no_ack_{false};
  bool detached_{false};
  bool waiting_{false};  // GDB resumed the core and waits for a stop reply
  resume_kind resume_{resume_kind::cont};
  std::string in_;  // bytes read and not yet taken
  std::size_t at_{0};
};

}  // namespace tessera::iss
