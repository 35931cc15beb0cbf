// The GDB remote-serial-protocol server of a tile core (gdb_server.hpp).
#include "tessera/iss/gdb_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <vector>

#include "tessera/common/errors.hpp"

namespace tessera::iss {

namespace {

// The M-profile registers GDB's arm target knows (org.gnu.gdb.arm.m-profile), numbered
// 0..16 in this order.
constexpr std::string_view target_xml =
    "<?xml version=\"1.0\"?>"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target version=\"1.0\"><architecture>arm</architecture>"
    "<feature name=\"org.gnu.gdb.arm.m-profile\">"
    "<reg name=\"r0\" bitsize=\"32\"/><reg name=\"r1\" bitsize=\"32\"/>"
    "<reg name=\"r2\" bitsize=\"32\"/><reg name=\"r3\" bitsize=\"32\"/>"
    "<reg name=\"r4\" bitsize=\"32\"/><reg name=\"r5\" bitsize=\"32\"/>"
    "<reg name=\"r6\" bitsize=\"32\"/><reg name=\"r7\" bitsize=\"32\"/>"
    "<reg name=\"r8\" bitsize=\"32\"/><reg name=\"r9\" bitsize=\"32\"/>"
    "<reg name=\"r10\" bitsize=\"32\"/><reg name=\"r11\" bitsize=\"32\"/>"
    "<reg name=\"r12\" bitsize=\"32\"/>"
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"lr\" bitsize=\"32\"/>"
    "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"xpsr\" bitsize=\"32\"/>"
    "</feature></target>";

// The largest packet GDB may send (qSupported's PacketSize), and so the most memory one
// m packet reads (two hex digits a byte).
constexpr std::size_t packet_size = 4096;

constexpr char hex_digit(unsigned v) {
  return "0123456789abcdef"[v & 15U];
}

std::optional<unsigned> hex_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
  return std::nullopt;
}

// A hex number (GDB's addresses, lengths, register numbers); nullopt when malformed.
std::optional<std::uint32_t> parse_hex(std::string_view s) {
  if (s.empty() || s.size() > 8) return std::nullopt;
  std::uint32_t v = 0;
  for (const char c : s) {
    const auto d = hex_value(c);
    if (!d) return std::nullopt;
    v = v << 4U | *d;
  }
  return v;
}

// Hex bytes to bytes; nullopt when malformed.
std::optional<std::vector<std::byte>> parse_bytes(std::string_view s) {
  if (s.size() % 2 != 0) return std::nullopt;
  std::vector<std::byte> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto hi = hex_value(s[2 * i]);
    const auto lo = hex_value(s[2 * i + 1]);
    if (!hi || !lo) return std::nullopt;
    out[i] = static_cast<std::byte>(*hi << 4U | *lo);
  }
  return out;
}

void append_bytes(std::string& out, std::span<const std::byte> b) {
  for (const std::byte x : b) {
    out += hex_digit(static_cast<unsigned>(x) >> 4U);
    out += hex_digit(static_cast<unsigned>(x));
  }
}

// A register as GDB wants it: the target's byte order, little-endian.
void append_word(std::string& out, std::uint32_t w) {
  const std::array<std::byte, 4> b{static_cast<std::byte>(w), static_cast<std::byte>(w >> 8U),
                                   static_cast<std::byte>(w >> 16U),
                                   static_cast<std::byte>(w >> 24U)};
  append_bytes(out, b);
}

std::optional<std::uint32_t> parse_word(std::string_view s) {
  const auto b = parse_bytes(s);
  if (!b || b->size() != 4) return std::nullopt;
  return static_cast<std::uint32_t>((*b)[0]) | static_cast<std::uint32_t>((*b)[1]) << 8U |
         static_cast<std::uint32_t>((*b)[2]) << 16U | static_cast<std::uint32_t>((*b)[3]) << 24U;
}

// A reply of one letter and a byte in two hex digits: S (a stop and its signal), W (an
// exit and its code), X (an end by a signal).
std::string coded(char letter, int value) {
  std::string r{letter};
  r += hex_digit(static_cast<unsigned>(value) >> 4U);
  r += hex_digit(static_cast<unsigned>(value));
  return r;
}

}  // namespace

gdb_server::gdb_server(std::uint16_t port) {
  listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_ < 0)
    throw input_error("--gdb: cannot open a socket: " + std::string(std::strerror(errno)));
  const int one = 1;
  ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  if (::bind(listen_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 ||
      ::listen(listen_, 1) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_);
    listen_ = -1;
    throw input_error("--gdb: cannot listen on port " + std::to_string(port) + " (" + why + ")");
  }
  socklen_t len = sizeof a;
  ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
}

gdb_server::~gdb_server() {
  close_connection();
  if (listen_ >= 0) ::close(listen_);
}

void gdb_server::close_connection() {
  if (conn_ >= 0) ::close(conn_);
  conn_ = -1;
  in_.clear();
  at_ = 0;
}

bool gdb_server::read_byte(char& c) {
  if (at_ == in_.size()) {
    in_.clear();
    at_ = 0;
    std::array<char, 1024> buf{};
    ssize_t n = 0;
    do {
      n = ::recv(conn_, buf.data(), buf.size(), 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return false;
    in_.assign(buf.data(), static_cast<std::size_t>(n));
  }
  c = in_[at_++];
  return true;
}

// One packet's body: skips acknowledgements and stray bytes up to '$', checks the
// checksum (a bad one is refused with '-' and read again), acknowledges it unless the
// session runs without acknowledgements.
bool gdb_server::read_packet(std::string& body) {
  while (true) {
    char c = 0;
    do {
      if (!read_byte(c)) return false;
    } while (c != '$');
    body.clear();
    unsigned sum = 0;
    bool escaped = false;
    while (true) {
      if (!read_byte(c)) return false;
      if (c == '#') break;
      sum += static_cast<unsigned char>(c);
      if (escaped) {
        body += static_cast<char>(c ^ 0x20);
        escaped = false;
      } else if (c == '}') {
        escaped = true;
      } else {
        body += c;
      }
    }
    char h = 0;
    char l = 0;
    if (!read_byte(h) || !read_byte(l)) return false;
    const auto hv = hex_value(h);
    const auto lv = hex_value(l);
    const bool good = hv && lv && (*hv << 4U | *lv) == (sum & 0xFFU);
    if (!no_ack_) {
      const char ack = good ? '+' : '-';
      if (::send(conn_, &ack, 1, MSG_NOSIGNAL) != 1) return false;
    }
    if (good || no_ack_) return true;
  }
}

void gdb_server::send_packet(std::string_view body) {
  std::string out = "$";
  unsigned sum = 0;
  for (const char c : body) {
    if (c == '$' || c == '#' || c == '}' || c == '*') {
      out += '}';
      out += static_cast<char>(c ^ 0x20);
      sum += static_cast<unsigned char>('}') + static_cast<unsigned char>(c ^ 0x20);
    } else {
      out += c;
      sum += static_cast<unsigned char>(c);
    }
  }
  out += '#';
  out += hex_digit((sum & 0xFFU) >> 4U);
  out += hex_digit(sum);
  std::size_t sent = 0;
  while (sent < out.size()) {
    const ssize_t n = ::send(conn_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the connection is gone; the next read says so
    sent += static_cast<std::size_t>(n);
  }
}

resume_kind gdb_server::stopped(debug_target& t, int signal) {
  if (detached_) return resume_kind::detach;
  if (conn_ < 0) {
    do {
      conn_ = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
    } while (conn_ < 0 && errno == EINTR);
    if (conn_ < 0) {
      detached_ = true;
      return resume_kind::detach;
    }
  }
  if (waiting_) {
    send_packet(coded('S', signal));
    waiting_ = false;
  }
  std::string p;
  while (read_packet(p)) {
    if (answer(t, p, signal)) return resume_;
  }
  // The connection is lost: the run goes on as after a detach.
  t.clear_breakpoints();
  detached_ = true;
  close_connection();
  return resume_kind::detach;
}

bool gdb_server::interrupted() {
  if (!attached()) return false;
  std::array<char, 256> buf{};
  const ssize_t n = ::recv(conn_, buf.data(), buf.size(), MSG_DONTWAIT);
  if (n > 0) in_.append(buf.data(), static_cast<std::size_t>(n));
  const auto pos = in_.find('\x03', at_);
  if (pos == std::string::npos) return false;
  in_.erase(pos, 1);
  return true;
}

void gdb_server::exited(int code) {
  if (attached() && waiting_) {
    send_packet(coded('W', code));
  }
  detached_ = true;
  close_connection();
}

void gdb_server::terminated(int signal) {
  if (attached()) {
    send_packet(coded('X', signal));
  }
  detached_ = true;
  close_connection();
}

bool gdb_server::answer(debug_target& t, const std::string& p, int signal) {
  const auto resume = [&](resume_kind k, std::string_view addr) {
    if (!addr.empty()) {
      if (const auto a = parse_hex(addr)) t.write_register(15, *a);
    }
    resume_ = k;
    waiting_ = true;
    return true;
  };
  if (p.empty()) {
    send_packet("");
    return false;
  }
  const std::string_view v{p};
  switch (p[0]) {
    case '?':
      send_packet(coded('S', signal));
      return false;
    case 'g': {
      std::string r;
      for (unsigned n = 0; n < registers; ++n)
        append_word(r, t.read_register(n));
      send_packet(r);
      return false;
    }
    case 'G': {
      if (v.size() != 1 + registers * 8) {
        send_packet("E01");
        return false;
      }
      for (unsigned n = 0; n < registers; ++n) {
        const auto w = parse_word(v.substr(1 + n * 8, 8));
        if (!w) {
          send_packet("E01");
          return false;
        }
        t.write_register(n, *w);
      }
      send_packet("OK");
      return false;
    }
    case 'p': {
      const auto n = parse_hex(v.substr(1));
      if (!n || *n >= registers) {
        send_packet("E01");
        return false;
      }
      std::string r;
      append_word(r, t.read_register(*n));
      send_packet(r);
      return false;
    }
    case 'P': {
      const auto eq = v.find('=');
      const auto n = eq == std::string_view::npos ? std::nullopt : parse_hex(v.substr(1, eq - 1));
      const auto w = n ? parse_word(v.substr(eq + 1)) : std::nullopt;
      if (!n || *n >= registers || !w) {
        send_packet("E01");
        return false;
      }
      t.write_register(*n, *w);
      send_packet("OK");
      return false;
    }
    case 'm':
    case 'M': {
      const auto comma = v.find(',');
      const auto colon = v.find(':');
      const bool write = p[0] == 'M';
      const auto addr =
          comma == std::string_view::npos ? std::nullopt : parse_hex(v.substr(1, comma - 1));
      const auto len =
          !addr
              ? std::nullopt
              : parse_hex(write ? v.substr(comma + 1,
                                           colon == std::string_view::npos ? 0 : colon - comma - 1)
                                : v.substr(comma + 1));
      if (!len || (write && colon == std::string_view::npos) ||
          (!write && *len > packet_size / 2)) {
        send_packet("E01");
        return false;
      }
      if (write) {
        const auto bytes = parse_bytes(v.substr(colon + 1));
        if (!bytes || bytes->size() != *len || !t.write_memory(*addr, *bytes)) {
          send_packet("E01");
          return false;
        }
        send_packet("OK");
        return false;
      }
      std::vector<std::byte> buf(*len);
      if (!t.read_memory(*addr, buf)) {
        send_packet("E01");
        return false;
      }
      std::string r;
      append_bytes(r, buf);
      send_packet(r);
      return false;
    }
    case 'Z':
    case 'z': {
      // Z0 (software) and Z1 (hardware) breakpoints alike; watchpoints are not supported.
      const auto c1 = v.find(',');
      const auto c2 = c1 == std::string_view::npos ? c1 : v.find(',', c1 + 1);
      if (v.size() < 2 || (v[1] != '0' && v[1] != '1')) {
        send_packet("");
        return false;
      }
      const auto addr = c1 == std::string_view::npos || c2 == std::string_view::npos
                            ? std::nullopt
                            : parse_hex(v.substr(c1 + 1, c2 - c1 - 1));
      if (!addr) {
        send_packet("E01");
        return false;
      }
      t.set_breakpoint(*addr & ~1U, p[0] == 'Z');
      send_packet("OK");
      return false;
    }
    case 'c':
      return resume(resume_kind::cont, v.substr(1));
    case 's':
      return resume(resume_kind::step, v.substr(1));
    case 'C':
    case 'S': {
      // The signal GDB would deliver is dropped: a tile has no handlers for one.
      const auto semi = v.find(';');
      return resume(p[0] == 'C' ? resume_kind::cont : resume_kind::step,
                    semi == std::string_view::npos ? std::string_view{} : v.substr(semi + 1));
    }
    case 'D':
      send_packet("OK");
      [[fallthrough]];
    case 'k':
      t.clear_breakpoints();
      detached_ = true;
      close_connection();
      resume_ = resume_kind::detach;
      return true;
    case 'H':
    case 'T':
      send_packet("OK");
      return false;
    default:
      break;
  }
  if (v.starts_with("vCont?")) {
    send_packet("vCont;c;C;s;S");
    return false;
  }
  if (v.starts_with("vCont;")) {
    // The first action is the one thread's.
    const char a = v.size() > 6 ? v[6] : 'c';
    return resume(a == 's' || a == 'S' ? resume_kind::step : resume_kind::cont, {});
  }
  if (v.starts_with("qSupported")) {
    send_packet("PacketSize=" + std::to_string(packet_size) +
                ";qXfer:features:read+;QStartNoAckMode+");
    return false;
  }
  if (v == "QStartNoAckMode") {
    send_packet("OK");
    no_ack_ = true;
    return false;
  }
  if (v.starts_with("qXfer:features:read:target.xml:")) {
    const std::string_view range =
        v.substr(std::string_view{"qXfer:features:read:target.xml:"}.size());
    const auto comma = range.find(',');
    const auto off =
        comma == std::string_view::npos ? std::nullopt : parse_hex(range.substr(0, comma));
    const auto len = off ? parse_hex(range.substr(comma + 1)) : std::nullopt;
    if (!len) {
      send_packet("E01");
      return false;
    }
    if (*off >= target_xml.size()) {
      send_packet("l");
      return false;
    }
    const std::string_view part = target_xml.substr(*off, *len);
    send_packet((*off + part.size() >= target_xml.size() ? "l" : "m") + std::string(part));
    return false;
  }
  // Queries with a fixed answer: an existing process, one thread (1).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> fixed{{
      {"qAttached", "1"},
      {"qC", "QC1"},
      {"qfThreadInfo", "m1"},
      {"qsThreadInfo", "l"},
  }};
  for (const auto& [query, answer] : fixed) {
    if (v == query) {
      send_packet(answer);
      return false;
    }
  }
  send_packet("");
  return false;
}

}  // namespace tessera::iss
