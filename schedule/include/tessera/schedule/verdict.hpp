// The verdict on a schedule or a run: one rule for `analyze` (the symbolic check) and
// for every run (collective, schedule, pattern), docs/schedule-format.md "Checker
// semantics".
//
// "Verified" means every byte arrived exactly once and intact, so it needs bytes: a
// check or run that passed but had no data byte to compare (every message 0 bytes, a
// schedule of barriers and idles) is not verified. Nothing went wrong either, and timing empty
// messages is a real measurement (Bokhari91 §2.2 times messages from 0 bytes up), so it
// has a verdict of its own with exit status 0, reported as such, never as verified.
#pragma once

#include <cstdint>
#include <string_view>

namespace tessera {

enum class verdict : std::uint8_t { verified, nothing_checked, failed };

// passed: nothing lost, duplicated, corrupted or mis-sized, no deadlock, no timeout.
// bytes_checked: the data bytes compared with what they should be.
constexpr verdict verdict_of(bool passed, std::uint64_t bytes_checked) {
  if (!passed) return verdict::failed;
  return bytes_checked > 0 ? verdict::verified : verdict::nothing_checked;
}

// The contract's exit status: 1 for a failed check, 0 otherwise.
constexpr int exit_status(verdict v) {
  return v == verdict::failed ? 1 : 0;
}

// What the reports say of a run or schedule with nothing to check (a note on stderr, the
// report's verification line).
inline constexpr std::string_view nothing_checked_text =
    "nothing to check: no message carries a data byte, so nothing is verified";

}  // namespace tessera
