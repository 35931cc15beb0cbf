// Shared types and helpers for Tessera RTL. Every tsr_* module imports from here so a
// width or an index rule is defined once.
package tsr_pkg;

  // Width of an index into Count entries. One entry still gets a 1-bit index because a
  // zero-width vector is not legal SystemVerilog.
  function automatic int unsigned idx_width(int unsigned count);
    return (count > 1) ? $clog2(count) : 1;
  endfunction

  // Width of a counter that must hold every value from 0 to Count inclusive; never zero,
  // so that a bad Count reaches the module's own parameter check instead of a width error.
  function automatic int unsigned cnt_width(int unsigned count);
    return (count > 0) ? $clog2(count + 1) : 1;
  endfunction

endpackage
