// The GDB remote-serial-protocol server (tessera/iss/gdb_server.hpp) against a client
// written here from the protocol's rules (packets $body#checksum, acknowledgements '+' and
// '-'), and a target of plain memory and registers: every reply is what the protocol and
// the target's state say it must be.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/iss/gdb_server.hpp"

namespace {

using namespace tessera;
using iss::gdb_server;
using iss::resume_kind;

// 64 bytes of memory at 0x2000'0000 and 17 registers.
struct fake_target final : iss::debug_target {
  std::array<std::uint32_t, 17> regs{};
  std::array<std::byte, 64> mem{};
  std::vector<std::uint32_t> breaks;
  static constexpr std::uint32_t base = 0x2000'0000U;

  std::uint32_t read_register(unsigned n) override { return regs.at(n); }
  void write_register(unsigned n, std::uint32_t v) override { regs.at(n) = v; }
  bool read_memory(std::uint32_t a, std::span<std::byte> out) override {
    if (a < base || a - base + out.size() > mem.size()) return false;
    std::memcpy(out.data(), mem.data() + (a - base), out.size());
    return true;
  }
  bool write_memory(std::uint32_t a, std::span<const std::byte> in) override {
    if (a < base || a - base + in.size() > mem.size()) return false;
    std::memcpy(mem.data() + (a - base), in.data(), in.size());
    return true;
  }
  void set_breakpoint(std::uint32_t a, bool on) override {
    if (on) {
      breaks.push_back(a);
    } else {
      std::erase(breaks, a);
    }
  }
  void clear_breakpoints() override { breaks.clear(); }
};

// The protocol's checksum: the sum of the body's bytes modulo 256, two hex digits.
std::string framed(const std::string& body) {
  unsigned sum = 0;
  for (const char c : body)
    sum += static_cast<unsigned char>(c);
  char cs[3];
  std::snprintf(cs, sizeof cs, "%02x", sum & 0xFFU);
  return "$" + body + "#" + cs;
}

class client {
 public:
  explicit client(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    REQUIRE(::connect(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0);
  }
  ~client() { ::close(fd_); }
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  void raw(const std::string& s) {
    REQUIRE(::send(fd_, s.data(), s.size(), 0) == static_cast<ssize_t>(s.size()));
  }
  char byte() {
    char c = 0;
    REQUIRE(::recv(fd_, &c, 1, 0) == 1);
    return c;
  }
  // A reply packet's body, acknowledged; checks its checksum.
  std::string reply() {
    char c = byte();
    while (c == '+')
      c = byte();
    REQUIRE(c == '$');
    std::string body;
    while ((c = byte()) != '#')
      body += c;
    std::string cs{byte()};
    cs += byte();
    CHECK(framed(body).substr(framed(body).size() - 2) == cs);
    raw("+");
    return body;
  }
  // Sends a packet, expects '+', returns the reply.
  std::string ask(const std::string& body) {
    raw(framed(body));
    CHECK(byte() == '+');
    return reply();
  }
  void tell(const std::string& body) {  // a packet with no reply (c, s, k)
    raw(framed(body));
    CHECK(byte() == '+');
  }

 private:
  int fd_{-1};
};

}  // namespace

TEST_CASE("gdb server: registers, memory, breakpoints, resume and detach") {
  gdb_server srv{0};
  REQUIRE(srv.port() != 0);
  fake_target t;
  for (unsigned n = 0; n < 17; ++n)
    t.regs[n] = 0x1000U * n + n;
  for (std::size_t i = 0; i < t.mem.size(); ++i)
    t.mem[i] = static_cast<std::byte>(i);

  std::vector<std::string> got;
  std::thread gdb([&] {
    client c{srv.port()};
    got.push_back(c.ask("qSupported:multiprocess+;xmlRegisters=arm"));
    got.push_back(c.ask("?"));
    got.push_back(c.ask("qXfer:features:read:target.xml:0,15"));  // 0x15 = 21 bytes
    got.push_back(c.ask("g"));
    got.push_back(c.ask("p10"));          // xpsr, register 16
    got.push_back(c.ask("P3=efbeadde"));  // r3 = 0xdeadbeef
    got.push_back(c.ask("m20000004,4"));
    got.push_back(c.ask("M20000000,2:abcd"));
    got.push_back(c.ask("m30000000,4"));  // outside the target's memory
    got.push_back(c.ask("Z0,8000,2"));
    got.push_back(c.ask("qFooBar"));  // unknown: the empty reply
    c.raw("$g#00");                   // a bad checksum is refused
    CHECK(c.byte() == '-');
    c.tell("c");
    got.push_back(c.reply());  // the stop after the resume
    got.push_back(c.ask("D"));
  });
  CHECK(srv.stopped(t, gdb_server::sigtrap) == resume_kind::cont);
  CHECK(t.breaks == std::vector<std::uint32_t>{0x8000});
  CHECK(t.regs[3] == 0xdeadbeefU);
  CHECK(t.mem[0] == std::byte{0xab});
  CHECK(t.mem[1] == std::byte{0xcd});
  // The core stops at the breakpoint; GDB hears of it and detaches.
  CHECK(srv.stopped(t, gdb_server::sigtrap) == resume_kind::detach);
  gdb.join();
  CHECK(t.breaks.empty());
  CHECK_FALSE(srv.attached());
  // After a detach the run goes on without stopping.
  CHECK(srv.stopped(t, gdb_server::sigtrap) == resume_kind::detach);

  REQUIRE(got.size() == 13);
  CHECK(got[0].find("qXfer:features:read+") != std::string::npos);
  CHECK(got[1] == "S05");
  // The first 21 bytes of the description, more to come ('m').
  CHECK(got[2] == "m<?xml version=\"1.0\"?>");
  // 17 registers, each four bytes little-endian: r1 = 0x1001 is "01100000".
  REQUIRE(got[3].size() == 17 * 8);
  CHECK(got[3].substr(8, 8) == "01100000");
  CHECK(got[4] == "10000100");  // 0x10010 little-endian
  CHECK(got[5] == "OK");
  CHECK(got[6] == "04050607");
  CHECK(got[7] == "OK");
  CHECK(got[8] == "E01");
  CHECK(got[9] == "OK");
  CHECK(got[10].empty());
  CHECK(got[11] == "S05");
  CHECK(got[12] == "OK");
}

TEST_CASE("gdb server: step, interrupt, exit, and a port in use") {
  gdb_server srv{0};
  fake_target t;
  std::string stop_after_step, stop_after_interrupt, exit_reply;
  std::thread gdb([&] {
    client c{srv.port()};
    CHECK(c.ask("QStartNoAckMode") == "OK");
    // Without acknowledgements now: packets and replies only.
    c.raw(framed("vCont;s:1"));
    stop_after_step = c.reply();
    c.raw(framed("c"));
    c.raw("\x03");
    stop_after_interrupt = c.reply();
    c.raw(framed("c"));
    exit_reply = c.reply();
  });
  CHECK(srv.stopped(t, gdb_server::sigtrap) == resume_kind::step);
  CHECK(srv.stopped(t, gdb_server::sigtrap) == resume_kind::cont);
  // The core runs; the interrupt arrives and is seen without blocking.
  bool seen = false;
  for (int i = 0; i < 2000 && !seen; ++i) {
    seen = srv.interrupted();
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(seen);
  CHECK(srv.stopped(t, gdb_server::sigint) == resume_kind::cont);
  srv.exited(0);
  gdb.join();
  CHECK(stop_after_step == "S05");
  CHECK(stop_after_interrupt == "S02");
  CHECK(exit_reply == "W00");

  gdb_server other{0};
  CHECK_THROWS_WITH(gdb_server{other.port()},
                    Catch::Contains("cannot listen on port " + std::to_string(other.port())));
}
