// SystemC elaborates once per process, but a test case or a reproduction often
// wants several platform runs. run_isolated runs a function in a forked child and
// returns the text it produced; the parent never touches SystemC. A child that dies
// yields "error: ...". (In tests the child must not use Catch2.)
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace tessera::tlm_models {

template <typename F>
std::string run_isolated(F&& f) {
  int fd[2];
  if (pipe(fd) != 0) return "error: pipe failed";
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return "error: fork failed";
  if (pid == 0) {
    close(fd[0]);
    std::string text;
    try {
      text = f();
    } catch (const std::exception& e) {
      text = std::string("error: ") + e.what();
    }
    std::size_t at = 0;
    while (at < text.size()) {
      const ssize_t n = write(fd[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    close(fd[1]);
    _exit(0);  // no destructors: SystemC's teardown is not needed
  }
  close(fd[1]);
  std::string out;
  char buf[4096];
  while (true) {
    const ssize_t n = read(fd[0], buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "error: the child died";
  return out;
}

}  // namespace tessera::tlm_models
