// The bare-metal self-test harness: a table of named test functions run in order, one
// output line per check over semihosting, and an exit code (main's return value, which
// qemu returns) that is 0 only if every test passed.
//
// Adding a test: write `bool my_test()` that reports each of its checks with
// `selftest::check(ok) << ...` and returns whether all passed, then add
// {"name", &my_test} to the table in selftest_main.cpp.
//
// No heap, no stdio: a line is built in a fixed buffer and written with one semihosting
// SYS_WRITE0 call, so nothing of printf is linked into a tile image.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" {
// picolibc's semihost.h declares C functions without an extern "C" block of its own.
#include <semihost.h>
}

namespace tessera::selftest {

// One output line, written when the object dies: `line{} << "x = " << x;` prints at the
// end of the statement. Text past the capacity is cut, never written out of bounds.
class line {
 public:
  line() = default;
  explicit line(std::string_view start) { *this << start; }
  line(const line&) = delete;
  line& operator=(const line&) = delete;
  ~line() {
    buf_[n_] = '\n';
    buf_[n_ + 1] = '\0';
    sys_semihost_write0(buf_);
  }

  line& operator<<(std::string_view s) {
    for (char ch : s)
      put(ch);
    return *this;
  }
  line& operator<<(const char* s) { return *this << std::string_view{s}; }
  line& operator<<(char ch) {
    put(ch);
    return *this;
  }
  template <std::integral T>
  line& operator<<(T v) {
    if constexpr (std::signed_integral<T>) {
      if (v < 0) {
        put('-');
        return put_unsigned(static_cast<std::uint64_t>(-(static_cast<std::int64_t>(v) + 1)) + 1);
      }
    }
    return put_unsigned(static_cast<std::uint64_t>(v));
  }

 private:
  static constexpr std::size_t capacity = 200;  // characters, before '\n' and '\0'

  void put(char ch) {
    if (n_ < capacity) buf_[n_++] = ch;
  }
  line& put_unsigned(std::uint64_t v) {
    char digits[20];
    std::size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0)
      put(digits[--n]);
    return *this;
  }

  char buf_[capacity + 2]{};
  std::size_t n_{0};
};

// Checks counted over the whole run, for the summary line.
struct check_counts {
  std::uint32_t passed{0};
  std::uint32_t failed{0};
};
inline constinit check_counts checks{};

// Counts one check and starts its line: `check(ok) << "what was checked";`.
inline line check(bool ok) {
  ++(ok ? checks.passed : checks.failed);
  return line{ok ? "  ok   " : "  FAIL "};
}

struct test_case {
  std::string_view name;
  bool (*run)();
};

// Runs every test and returns the image's exit code. An empty table fails: an image
// that checks nothing must not pass.
inline int run_all(std::string_view image, std::span<const test_case> tests) {
  line{} << image << ": " << tests.size() << (tests.size() == 1 ? " test" : " tests");
  std::uint32_t failed = 0;
  for (const test_case& t : tests) {
    line{} << "[ RUN  ] " << t.name;
    const bool ok = t.run();
    line{} << (ok ? "[ PASS ] " : "[ FAIL ] ") << t.name;
    if (!ok) ++failed;
  }
  line{} << "checks: " << checks.passed << " passed, " << checks.failed << " failed";
  line{} << (tests.size() - failed) << " passed, " << failed << " failed";
  return tests.empty() || failed != 0 ? 1 : 0;
}

}  // namespace tessera::selftest
