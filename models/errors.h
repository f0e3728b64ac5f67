// Exit statuses and the errors that carry them. Bad input, deadlocks and kernel faults each end
// a run with their own status and a message naming what was wrong.
#pragma once

#include <stdexcept>
#include <string>

namespace ascend {

enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,     // a bug in the simulator
  kExitBadInput = 2,     // unknown key or flag, value out of range, attribute outside limits
  kExitDeadlock = 3,     // simulated deadlock or hang
  kExitCheckFailed = 4,  // outputs differ from the golden reference
  kExitKernelFault = 5,  // UB overflow, out-of-bounds GM access, misuse of the kernel API
  kExitRace = 6,         // --racecheck found pipes touching the same bytes with no ordering
};

struct SimError : std::runtime_error {
  SimError(ExitCode c, const std::string& msg) : std::runtime_error(msg), code(c) {}
  ExitCode code;
};

// Thrown inside a kernel's thread to unwind it after its fault was recorded (Scheduler::fault).
struct KernelAbort {};

}  // namespace ascend
