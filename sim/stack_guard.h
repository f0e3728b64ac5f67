// A kernel that overflows its thread's stack (sim.thread_stack_KiB) runs into the guard page below
// it. Without a handler that is a bare "Segmentation fault"; with this one the run ends with a
// kernel fault (exit status 5) naming the core and the parameter to raise.
#pragma once

#include <cstdint>

namespace ascend {

// Installs the SIGSEGV handler once per process (on a stack of its own, since the faulting one is
// full); `stack_bytes` is the size the message names. A fault is taken for a stack overflow when a
// kernel core is running and the faulting address lies within reach of its stack pointer; any
// other SIGSEGV goes to the handler installed before (by default: the process dies of it).
// Sanitizer builds keep the sanitizer's own handler, which reports overflows itself. A SIGFPE while
// a kernel core runs (an integer division by zero in kernel code) is reported as a kernel fault too.
void install_stack_overflow_report(uint64_t stack_bytes);

}  // namespace ascend
