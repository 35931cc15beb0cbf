#include "tessera/common/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <istream>
#include <streambuf>
#include <utility>

#include "tessera/common/errors.hpp"

namespace tessera {
namespace {

using json = nlohmann::json;

// A read-only stream over a file descriptor that stops at `limit` bytes and says so.
class bounded_buf : public std::streambuf {
 public:
  bounded_buf(int fd, std::uint64_t limit) : fd_{fd}, limit_{limit} {}

  [[nodiscard]] bool over_limit() const { return over_; }
  [[nodiscard]] int read_errno() const { return errno_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (over_ || errno_ != 0) return traits_type::eof();
    // One byte past the limit is read on purpose: it tells "exactly at the limit"
    // from "more than the limit".
    const std::uint64_t room = limit_ + 1 - total_;
    const std::size_t want = room < buf_.size() ? static_cast<std::size_t>(room) : buf_.size();
    ssize_t n = 0;
    do {
      n = ::read(fd_, buf_.data(), want);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
      errno_ = errno;
      return traits_type::eof();
    }
    if (n == 0) return traits_type::eof();
    total_ += static_cast<std::uint64_t>(n);
    std::size_t keep = static_cast<std::size_t>(n);
    if (total_ > limit_) {
      over_ = true;
      keep -= static_cast<std::size_t>(total_ - limit_);
      if (keep == 0) return traits_type::eof();
    }
    setg(buf_.data(), buf_.data(), buf_.data() + keep);
    return traits_type::to_int_type(*gptr());
  }

 private:
  int fd_;
  std::uint64_t limit_;
  std::uint64_t total_{0};
  bool over_{false};
  int errno_{0};
  std::array<char, 65536> buf_{};
};

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::uint64_t{1} << 20) && bytes % (std::uint64_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// An open file descriptor that is closed on every way out.
class input_fd {
 public:
  input_fd(const std::string& option, const std::string& path) : option_{option}, path_{path} {
    if (path.empty()) throw input_error(option + " needs a file name, not ''");
    do {
      fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) fail("cannot be opened", errno);
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw input_error(name() + " is a directory, not a file");
    }
  }
  input_fd(const input_fd&) = delete;
  input_fd& operator=(const input_fd&) = delete;
  ~input_fd() {
    if (fd_ >= 0) ::close(fd_);
  }

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] std::string name() const { return option_ + " '" + shown(path_, 160) + "'"; }

  [[noreturn]] void fail(const char* what, int err) const {
    throw input_error(name() + " " + what + ": " + std::strerror(err));
  }

  void check(const bounded_buf& b, std::uint64_t limit) const {
    if (b.read_errno() != 0) fail("cannot be read", b.read_errno());
    if (b.over_limit()) {
      throw input_error(name() + " is larger than " + size_text(limit) +
                        " (reading stopped there)");
    }
  }

 private:
  std::string option_;
  std::string path_;
  int fd_{-1};
};

// nlohmann's error text without its tag and without the "last read" token, which can
// be as long as the file. (Parse errors, and out_of_range for a number too large for
// a double, "1e999".)
std::string parse_error_text(const json::exception& e) {
  std::string s = e.what();
  if (const auto close = s.find("] "); s.rfind("[json.exception", 0) == 0 && close != s.npos)
    s = s.substr(close + 2);
  if (const auto last = s.find("; last read"); last != s.npos) s = s.substr(0, last);
  return shown(s, 160);
}

// Builds the document as nlohmann's own DOM parser does, and refuses deep nesting and
// documents of more than max_json_values values (objects and arrays count too) while
// they are parsed: a file of small values costs tens of bytes per value once parsed, so
// the count, not only the file's size, bounds the memory.
//
// Not json::parse with a callback: its parser, on the end of every object, searches the
// enclosing array from the start for discarded values, which makes a list of n objects
// cost n^2 (a schedule of 160,000 ops on one tile took 41 s to read).
class guarded_dom {
 public:
  guarded_dom(json& root, std::string what) : dom_{root}, what_{std::move(what)} {}

  bool null() { return count() && dom_.null(); }
  bool boolean(bool v) { return count() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return count() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return count() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    return count() && dom_.number_float(v, text);
  }
  bool string(json::string_t& v) { return count() && dom_.string(v); }
  bool binary(json::binary_t& v) { return count() && dom_.binary(v); }
  bool start_object(std::size_t n) { return open() && dom_.start_object(n); }
  bool key(json::string_t& k) { return dom_.key(k); }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return open() && dom_.start_array(n); }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t at, const std::string& token, const Exception& e) {
    return dom_.parse_error(at, token, e);  // throws e
  }

 private:
  bool count() {
    if (++values_ > max_json_values) {
      throw input_error(what_ + " holds more than " + std::to_string(max_json_values) +
                        " JSON values");
    }
    return true;
  }
  bool open() {
    if (depth_ >= max_json_depth) {
      throw input_error(what_ + " nests deeper than " + std::to_string(max_json_depth) + " levels");
    }
    ++depth_;
    return count();
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string what_;
  std::uint32_t depth_{0};
  std::uint64_t values_{0};
};

// Parses `input` (a stream or an iterator pair) through guarded_dom.
template <typename... Input>
json parse_guarded(const std::string& what, Input&&... input) {
  json j;
  guarded_dom sax{j, what};
  json::sax_parse(std::forward<Input>(input)..., &sax);
  return j;
}

}  // namespace

std::string shown(std::string_view text, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == max) return out + "... (" + std::to_string(text.size()) + " bytes)";
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x20 || u >= 0x7f) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string json_brief(const json& v) {
  switch (v.type()) {
    case json::value_t::array:
      return "an array of " + std::to_string(v.size());
    case json::value_t::object:
      return "an object of " + std::to_string(v.size()) + " fields";
    case json::value_t::string:
      return "\"" + shown(v.get_ref<const std::string&>()) + "\"";
    case json::value_t::binary:
      return "binary data";
    case json::value_t::discarded:
      return "nothing";
    default:
      return v.dump();  // null, booleans and numbers are short
  }
}

std::string read_input_file(const std::string& option, const std::string& path,
                            std::uint64_t limit) {
  input_fd f{option, path};
  bounded_buf buf{f.fd(), limit};
  std::string out;
  for (auto c = buf.sgetc(); c != std::streambuf::traits_type::eof(); c = buf.snextc())
    out.push_back(std::streambuf::traits_type::to_char_type(c));
  f.check(buf, limit);
  return out;
}

json read_json_file(const std::string& option, const std::string& path, std::uint64_t limit) {
  input_fd f{option, path};
  bounded_buf buf{f.fd(), limit};
  std::istream in{&buf};
  json j;
  try {
    j = parse_guarded(f.name(), in);
  } catch (const json::exception& e) {
    f.check(buf, limit);  // a file cut at the limit fails to parse: say why
    throw input_error(f.name() + " is not JSON: " + parse_error_text(e));
  }
  f.check(buf, limit);
  return j;
}

json parse_json_text(std::string_view text, const std::string& what) {
  try {
    return parse_guarded(what, text.begin(), text.end());
  } catch (const json::exception& e) {
    throw input_error(what + " is not JSON: " + parse_error_text(e));
  }
}

unsigned long long parse_count(const std::string& option, const std::string& text,
                               unsigned long long max, unsigned long long min) {
  const std::string kind = min > 0 ? "a positive integer" : "a non-negative integer";
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw input_error("--" + option + " '" + shown(text) + "' is not " + kind);
  }
  // Digits only: past max whatever its length, without overflowing on the way.
  const std::size_t lead = std::min(text.find_first_not_of('0'), text.size());
  const std::string digits = text.substr(lead);
  const std::string top = std::to_string(max);
  if (digits.size() > top.size() || (digits.size() == top.size() && digits > top)) {
    throw input_error("--" + option + " " + shown(text) + " is too large, at most " + top);
  }
  const unsigned long long v = digits.empty() ? 0 : std::stoull(digits);
  if (v < min) {
    throw input_error("--" + option + " " + text + " is too small, at least " +
                      std::to_string(min));
  }
  return v;
}

std::string escape_markup(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace tessera
