// Runs functions in forked child processes and returns the text each produced and how
// it ended. SystemC elaborates once per process, so a test, a reproduction, a sweep or a
// crosscheck that wants several platform runs gives each its own child; the parent never
// touches SystemC. The text is bounded: a child that writes more than max_bytes is
// killed and the result says so.
//
// Children are forked from one thread only. A child of a process with other threads
// inherits whatever lock those threads held at the fork (the allocator's, a static's
// guard) with nobody left to release it, and can hang on its first allocation: the
// sanitizer allocator does not reset its locks across fork. So several children at once
// run as a pool (run_isolated_pool) that one thread drives with poll(), never as threads
// that fork.
#pragma once

#include <poll.h>
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
#include <vector>

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

namespace isolated_detail {

// A started child: its pid, the read end of its pipe, and what it wrote so far.
struct child {
  pid_t pid{-1};
  int fd{-1};
  std::size_t index{0};
  isolated_result r;
};

// In the child: run f, hand its text to the pipe, end without destructors (SystemC's
// teardown is not needed). An exception in f becomes "error: <what>" with status 70.
template <typename F>
[[noreturn]] void child_main(F& f, int fd) {
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
    const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += static_cast<std::size_t>(n);
  }
  ::close(fd);
  ::_exit(status);
}

// Forks a child running f. With close_inherited the child first closes every
// descriptor above 2 but its own pipe, so it holds no copy of a sibling's pipe.
template <typename F>
child start(F& f, bool close_inherited) {
  child c;
  std::array<int, 2> fds{};
  if (::pipe(fds.data()) != 0) {
    c.r.failure = "cannot create a pipe";
    return c;
  }
  std::fflush(nullptr);
  c.pid = ::fork();
  if (c.pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    c.r.failure = "cannot start a child process";
    return c;
  }
  if (c.pid == 0) {
    ::close(fds[0]);
    if (close_inherited) {
      const auto own = static_cast<unsigned>(fds[1]);
      if (own > 3) ::close_range(3, own - 1, 0);
      ::close_range(own + 1, ~0U, 0);
    }
    child_main(f, fds[1]);
  }
  ::close(fds[1]);
  c.fd = fds[0];
  return c;
}

// Reads what the child has written. False once its output ended (or cannot be read,
// or passed max_bytes and the child was killed).
inline bool read_some(child& c, std::size_t max_bytes) {
  std::array<char, 65536> buf{};
  while (true) {
    const ssize_t n = ::read(c.fd, buf.data(), buf.size());
    if (n == 0) return false;
    if (n < 0) {
      if (errno == EINTR) continue;
      c.r.failure = "reading the child's output failed";
      ::kill(c.pid, SIGKILL);
      return false;
    }
    c.r.text.append(buf.data(), static_cast<std::size_t>(n));
    if (c.r.text.size() > max_bytes) {
      c.r.text.resize(max_bytes);
      c.r.too_long = true;
      ::kill(c.pid, SIGKILL);
      return false;
    }
    return true;
  }
}

// Closes the pipe and reaps the child: how it ended goes into its result.
inline void finish(child& c) {
  ::close(c.fd);
  c.fd = -1;
  int wstatus = 0;
  while (::waitpid(c.pid, &wstatus, 0) < 0) {
    if (errno != EINTR) {
      if (c.r.failure.empty()) c.r.failure = "waiting for the child failed";
      return;
    }
  }
  if (WIFEXITED(wstatus)) {
    c.r.exited = true;
    c.r.exit_status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    c.r.signal = WTERMSIG(wstatus);
  }
}

}  // namespace isolated_detail

// f() returns the text, or a std::pair<std::string, int> of the text and an exit
// status. Call it from a process with one thread (see the top of this file).
template <typename F>
isolated_result run_isolated_process(F&& f, std::size_t max_bytes = std::size_t{1} << 30) {
  isolated_detail::child c = isolated_detail::start(f, false);
  if (c.pid < 0) return std::move(c.r);
  while (isolated_detail::read_some(c, max_bytes)) {
  }
  isolated_detail::finish(c);
  return std::move(c.r);
}

// Runs task(0) .. task(count - 1), each in a child of its own, at most `jobs` at once,
// all forked from the calling thread. task(i) runs in the child and returns what f
// returns above; done(i, result) runs in the parent as each child ends, in the order
// they end.
template <typename Task, typename Done>
void run_isolated_pool(std::size_t count, unsigned jobs, Task&& task, Done&& done,
                       std::size_t max_bytes = std::size_t{1} << 30) {
  using isolated_detail::child;
  std::vector<child> running;
  std::size_t next = 0;
  const std::size_t width = jobs == 0 ? 1 : jobs;
  while (next < count || !running.empty()) {
    while (next < count && running.size() < width) {
      const std::size_t i = next++;
      auto f = [&task, i]() { return task(i); };
      child c = isolated_detail::start(f, true);
      c.index = i;
      if (c.pid < 0) {
        done(i, std::move(c.r));
        continue;
      }
      running.push_back(std::move(c));
    }
    if (running.empty()) continue;
    std::vector<pollfd> fds;
    for (const child& c : running)
      fds.push_back(pollfd{c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      for (child& c : running) {  // no way to wait for output: end them all as failed
        ::kill(c.pid, SIGKILL);
        c.r.failure = "waiting for the children's output failed";
      }
    }
    for (std::size_t k = running.size(); k-- > 0;) {
      child& c = running[k];
      const bool failed = !c.r.failure.empty();
      if (!failed && fds[k].revents == 0) continue;
      if (!failed && isolated_detail::read_some(c, max_bytes)) continue;
      isolated_detail::finish(c);
      const std::size_t i = c.index;
      isolated_result r = std::move(c.r);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
      done(i, std::move(r));
    }
  }
}

}  // namespace tessera
