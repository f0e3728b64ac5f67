// What every fuzz harness shares: the oracle (an input is refused as bad input, exit 2, or
// accepted; anything else is a finding) and, for the harnesses that touch files, a scratch
// directory as the working directory.
//
// The harnesses are built two ways: with clang's libFuzzer (ASCEND_FUZZ=ON, tests/fuzz/run.sh)
// and, in the normal build, with replay.cpp as main, which runs each seed and each regression
// input once (ctest -R fuzz.replay).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "models/errors.h"

namespace ascend::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Runs f: true when it completed, false when it refused its input as bad input (exit 2). Any
// other status, a foreign exception or anything thrown that is not an exception is a finding.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const SimError& e) {
    if (e.code == kExitBadInput) return false;
    finding("SimError with exit status " + std::to_string(e.code) + ": " + e.what());
  } catch (const std::exception& e) {
    finding(std::string("an exception that is not a SimError: ") + e.what());
  } catch (...) {
    finding("something thrown that is not an exception");
  }
}

// Makes a fresh directory under $TMPDIR (or /tmp) the working directory, for good: whatever an
// input creates by a relative path lands there. Returns its path.
std::string enter_scratch_dir();
// Removes what the last input created in the scratch directory (keeping `keep`, a fixture).
void clean_scratch_dir(const std::string& dir, const std::string& keep = "");

}  // namespace ascend::fuzz
