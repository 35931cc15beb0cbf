#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include "commands.hpp"

namespace {

// stdout as std::cout writes it, through a buffer of its own that remembers why a write
// failed: cli::run checks the stream after every command, and a flush that fails sets
// errno to the first failure's reason (a full disk, a closed descriptor), however long
// before it happened.
class stdout_buffer : public std::streambuf {
 public:
  stdout_buffer() { setp(buf_.data(), buf_.data() + buf_.size()); }
  stdout_buffer(const stdout_buffer&) = delete;
  stdout_buffer& operator=(const stdout_buffer&) = delete;
  ~stdout_buffer() override { sync(); }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

  int sync() override {
    if (error_ == 0) {
      const char* at = pbase();
      while (at < pptr()) {
        const ssize_t n = ::write(STDOUT_FILENO, at, static_cast<std::size_t>(pptr() - at));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          error_ = n < 0 ? errno : EIO;
          break;
        }
        at += n;
      }
      setp(buf_.data(), buf_.data() + buf_.size());
    }
    if (error_ == 0) return 0;
    errno = error_;
    return -1;
  }

 private:
  std::array<char, 1 << 16> buf_{};
  int error_{0};
};

}  // namespace

int main(int argc, char** argv) {
  // A standard descriptor the caller closed (`tessera run ... >&-`) is taken by
  // /dev/null, read-only: a file the command opens never gets its number (its output
  // would land in that file), and a write to it still fails, so cli::run reports it.
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
  stdout_buffer out;
  std::streambuf* const was = std::cout.rdbuf(&out);
  const std::vector<std::string> args(argv + 1, argv + argc);
  const int status = tessera::cli::run(args, std::cout, std::cerr);
  std::cout.rdbuf(was);
  return status;
}
