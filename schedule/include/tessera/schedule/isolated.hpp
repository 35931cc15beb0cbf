// Runs a function in a forked child process and returns the text it produced and how
// the child ended. SystemC elaborates once per process, so a test, a reproduction or a
// crosscheck that wants several platform runs gives each its own child; the parent never
// touches SystemC. The text is bounded: a child that writes more than max_bytes is
// killed and the result says so.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>

namespace tessera {

struct isolated_result {
  std::string text;      // what the child returned (cut at max_bytes when too_long)
  bool exited{false};    // the child ended by _exit; exit_status is valid
  int exit_status{0};    // the child's exit status
  int signal{0};         // the signal that ended it, when !exited
  bool too_long{false};  // it wrote more than max_bytes and was killed
  std::string failure;   // set when the parent could not run or read the child
  // The child ran to the end and its text is whole.
  bool ok() const { return failure.empty() && !too_long && exited; }
};

// f() returns the text, or a std::pair<std::string, int> of the text and an exit
// status. An exception in f becomes the text "error: <what>" with exit status 70.
// With close_inherited, the child first closes every descriptor above 2 but its own
// pipe: children forked at once from several threads then hold no copy of another's
// pipe, and each parent thread sees its own child's end of output when that child ends.
template <typename F>
isolated_result run_isolated_process(F&& f, std::size_t max_bytes = std::size_t{1} << 30,
                                     bool close_inherited = false) {
  isolated_result r;
  std::array<int, 2> fds{};
  if (::pipe(fds.data()) != 0) {
    r.failure = "cannot create a pipe";
    return r;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    r.failure = "cannot start a child process";
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    if (close_inherited) {
      const auto own = static_cast<unsigned>(fds[1]);
      if (own > 3) ::close_range(3, own - 1, 0);
      ::close_range(own + 1, ~0U, 0);
    }
    std::string text;
    int status = 0;
    try {
      if constexpr (std::is_same_v<std::decay_t<decltype(f())>, std::string>) {
        text = f();
      } else {
        auto [t, s] = f();
        text = std::move(t);
        status = s;
      }
    } catch (const std::exception& e) {
      text = std::string("error: ") + e.what();
      status = 70;
    }
    std::size_t at = 0;
    while (at < text.size()) {
      const ssize_t n = ::write(fds[1], text.data() + at, text.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
    ::_exit(status);  // no destructors: SystemC's teardown is not needed
  }
  ::close(fds[1]);
  std::array<char, 65536> buf{};
  while (true) {
    const ssize_t n = ::read(fds[0], buf.data(), buf.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      r.failure = "reading the child's output failed";
      ::kill(pid, SIGKILL);
      break;
    }
    r.text.append(buf.data(), static_cast<std::size_t>(n));
    if (r.text.size() > max_bytes) {
      r.text.resize(max_bytes);
      r.too_long = true;
      ::kill(pid, SIGKILL);
      break;
    }
  }
  ::close(fds[0]);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR) {
      if (r.failure.empty()) r.failure = "waiting for the child failed";
      return r;
    }
  }
  if (WIFEXITED(wstatus)) {
    r.exited = true;
    r.exit_status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    r.signal = WTERMSIG(wstatus);
  }
  return r;
}

}  // namespace tessera
