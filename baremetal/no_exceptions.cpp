// What libstdc++ calls instead of throwing, on a tile: say why on the semihosting console
// and stop with exit code 134 (as abort() would on a host).
//
// Headers such as <string_view> and <array> call std::__throw_out_of_range_fmt and
// friends on a failed bounds check. The picolibc build of libstdc++ was compiled with
// exceptions, so its versions (functexcept.o) allocate an exception object with malloc,
// which the no-heap rule refuses at link time. Defining every function of functexcept.o
// here keeps that object out of the link; if a newer libstdc++ adds a function to it and
// a tile uses that one, the link reports multiple definitions and the new function
// belongs in this file.
#include <cstdlib>

extern "C" {
// picolibc's semihost.h declares C functions without an extern "C" block of its own.
#include <semihost.h>
}

namespace {

[[noreturn]] void stop(const char* what, const char* detail) {
  sys_semihost_write0("tessera: libstdc++ would throw ");
  sys_semihost_write0(what);
  if (detail != nullptr) {
    sys_semihost_write0(": ");
    sys_semihost_write0(detail);
  }
  sys_semihost_write0("\n");
  std::_Exit(134);
}

}  // namespace

namespace std {

void __throw_bad_exception() {
  stop("bad_exception", nullptr);
}
void __throw_bad_alloc() {
  stop("bad_alloc", nullptr);
}
void __throw_bad_array_new_length() {
  stop("bad_array_new_length", nullptr);
}
void __throw_bad_cast() {
  stop("bad_cast", nullptr);
}
void __throw_bad_typeid() {
  stop("bad_typeid", nullptr);
}
void __throw_logic_error(const char* s) {
  stop("logic_error", s);
}
void __throw_domain_error(const char* s) {
  stop("domain_error", s);
}
void __throw_invalid_argument(const char* s) {
  stop("invalid_argument", s);
}
void __throw_length_error(const char* s) {
  stop("length_error", s);
}
void __throw_out_of_range(const char* s) {
  stop("out_of_range", s);
}
// The format's arguments are not printed: a tile has no printf.
void __throw_out_of_range_fmt(const char* fmt, ...) {
  stop("out_of_range", fmt);
}
void __throw_runtime_error(const char* s) {
  stop("runtime_error", s);
}
void __throw_range_error(const char* s) {
  stop("range_error", s);
}
void __throw_overflow_error(const char* s) {
  stop("overflow_error", s);
}
void __throw_underflow_error(const char* s) {
  stop("underflow_error", s);
}

}  // namespace std
