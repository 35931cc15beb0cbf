// The Python module's native half (docs/python.md): one `tessera` command line run in a
// forked child process, as the CLI runs it. SystemC elaborates once per process, so no
// call runs a model in the Python process itself: each forks (tessera/common/isolated.hpp),
// the child runs tessera::cli::run with string streams and hands back its stdout, stderr
// and exit status, and the parent, which never touches SystemC, can call again. The
// package's Python half (tessera/__init__.py) turns keywords into the command line and
// the three results into a dictionary or an exception.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <csignal>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "tessera/common/isolated.hpp"

namespace py = pybind11;

namespace {

// What the child writes to its pipe: stdout's length in decimal and a newline, then
// stdout, then stderr (the rest).
std::string frame(const std::string& out, const std::string& err) {
  return std::to_string(out.size()) + '\n' + out + err;
}

struct unframed {
  std::string out;
  std::string err;
  bool ok{false};
};

unframed unframe(const std::string& text) {
  unframed u;
  const std::size_t nl = text.find('\n');
  if (nl == std::string::npos || nl == 0 || nl > 20) return u;
  std::size_t length = 0;
  for (std::size_t i = 0; i < nl; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return u;
    length = length * 10 + static_cast<std::size_t>(c - '0');
  }
  if (length > text.size() - nl - 1) return u;
  u.out = text.substr(nl + 1, length);
  u.err = text.substr(nl + 1 + length);
  u.ok = true;
  return u;
}

// In the child: the command with its output in strings. SystemC's reports go to
// std::cerr (platform/tlm's report handler) and join the command's stderr. Python's own
// SIGINT handler only sets a flag the child never reads: the default ends the child on
// Ctrl-C, as the CLI ends.
std::pair<std::string, int> child_run(const std::vector<std::string>& argv) {
  std::signal(SIGINT, SIG_DFL);
  std::ostringstream out;
  std::ostringstream err;
  std::cout.rdbuf(out.rdbuf());
  std::cerr.rdbuf(err.rdbuf());
  std::clog.rdbuf(err.rdbuf());
  const int status = tessera::cli::run(argv, out, err);
  return {frame(out.str(), err.str()), status};
}

// The words after `tessera`, run in a child: (exit status, stdout, stderr, failure), the
// failure empty unless the child did not end normally with framed output (then the rest
// is what it left).
py::tuple call(const std::vector<std::string>& argv) {
  tessera::isolated_result r;
  {
    py::gil_scoped_release unlocked;
    r = tessera::run_isolated_process([&argv] { return child_run(argv); });
  }
  // An interrupt while the child ran: KeyboardInterrupt, not a report of the child's end.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  std::string failure;
  unframed u;
  if (!r.failure.empty()) {
    failure = r.failure;
  } else if (r.too_long) {
    failure = "the command's output passed 1 GiB and it was stopped";
  } else if (!r.exited) {
    failure = "the command ended by signal " + std::to_string(r.signal) + " (" +
              (strsignal(r.signal) != nullptr ? strsignal(r.signal) : "unknown") + ")";
  } else {
    u = unframe(r.text);
    if (!u.ok) {
      failure = "the command's child process ended with status " + std::to_string(r.exit_status) +
                " without the command's output" +
                (r.text.empty() ? std::string() : ": " + r.text.substr(0, 300));
    }
  }
  return py::make_tuple(r.exit_status, py::bytes(u.out), py::bytes(u.err), failure);
}

}  // namespace

PYBIND11_MODULE(_tessera, m) {
  m.doc() =
      "The native half of the tessera package: call() runs one tessera command line in a "
      "forked child process. Use the functions of the tessera package instead.";
  m.attr("version") = TESSERA_VERSION;
  m.def("call", &call, py::arg("argv"),
        "call(argv) -> (exit_status, stdout, stderr, failure): the words after `tessera` run "
        "as the CLI runs them, in a child process; failure is empty unless the child did not "
        "end normally (a signal, output not read).");
  m.def("commands", &tessera::cli::command_names, "The commands `tessera` takes, in its order.");
}
