#include "sim/stack_guard.h"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>

#include "models/core.h"
#include "models/errors.h"

// Sanitizer builds keep the sanitizer's own handler (GCC says so by a macro, clang by a feature).
#if defined(__SANITIZE_ADDRESS__)
#define ASCEND_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASCEND_ASAN 1
#endif
#endif

namespace ascend {

#if !defined(ASCEND_ASAN)
namespace {

struct sigaction previous;
uint64_t stack_kib = 0;
bool installed = false;
alignas(16) char handler_stack[64 * 1024];

// Async-signal-safe formatting: no allocation, no stdio.
void append(char*& p, const char* s) {
  while (*s) *p++ = *s++;
}
void append(char*& p, uint64_t v) {
  char digits[24];
  int n = 0;
  do digits[n++] = static_cast<char>('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0) *p++ = digits[--n];
}

// "ascend-sim: kernel fault: kernel 'NAME' die D core|AIC I: " for the core whose thread faulted.
void append_fault_prefix(char*& p, const model::Core& core) {
  append(p, "ascend-sim: kernel fault: kernel '");
  const char* name = core.kernel_name().c_str();
  if (std::strlen(name) < 128) append(p, name);
  append(p, "' die ");
  append(p, static_cast<uint64_t>(core.die()));
  append(p, core.core_kind() == model::CoreKind::Aiv ? " core " : " AIC ");
  append(p, static_cast<uint64_t>(core.index()));
  append(p, ": ");
}

void on_segv(int sig, siginfo_t* info, void* context) {
  const model::Core* core = model::Core::running();
#if defined(__x86_64__)
  const auto sp =
      static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  const auto sp = static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.sp);
#else
  const uintptr_t sp = 0;
#endif
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  // A push, a call or a probe of a new frame (-fstack-clash-protection) faults a few bytes below
  // the stack pointer; a frame's own store, somewhat above it.
  constexpr uintptr_t kReach = 64 * 1024;
  if (core && sp != 0 && addr + kReach > sp && addr < sp + kReach) {
    char msg[512];
    char* p = msg;
    append_fault_prefix(p, *core);
    append(p, "the kernel overflowed its stack (sim.thread_stack_KiB = ");
    append(p, stack_kib);
    append(p,
           "): a deep recursion or a large local array; raise sim.thread_stack_KiB or keep large "
           "data in GM or UB\n");
    ssize_t ignored = write(STDERR_FILENO, msg, static_cast<size_t>(p - msg));
    (void)ignored;
    _exit(kExitKernelFault);
  }
  // Not ours: the previous disposition, and the fault happens again when this returns.
  sigaction(sig, &previous, nullptr);
}

// An integer division by zero (or INT_MIN / -1) in a kernel's own code: a kernel fault naming the
// core, as a bare "Floating point exception" would name nothing.
struct sigaction previous_fpe;
void on_fpe(int sig, siginfo_t*, void*) {
  const model::Core* core = model::Core::running();
  if (core) {
    char msg[512];
    char* p = msg;
    append_fault_prefix(p, *core);
    append(p,
           "an arithmetic exception in the kernel's code (an integer division by zero: a "
           "tiling field the kernel divides by is 0?)\n");
    ssize_t ignored = write(STDERR_FILENO, msg, static_cast<size_t>(p - msg));
    (void)ignored;
    _exit(kExitKernelFault);
  }
  sigaction(sig, &previous_fpe, nullptr);
}

}  // namespace

void install_stack_overflow_report(uint64_t stack_bytes) {
  stack_kib = stack_bytes / 1024;
  if (installed) return;
  installed = true;
  stack_t alt{};
  alt.ss_sp = handler_stack;
  alt.ss_size = sizeof handler_stack;
  sigaltstack(&alt, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous);
  struct sigaction fpe {};
  fpe.sa_sigaction = on_fpe;
  fpe.sa_flags = SA_SIGINFO;
  sigemptyset(&fpe.sa_mask);
  sigaction(SIGFPE, &fpe, &previous_fpe);
}
#else
void install_stack_overflow_report(uint64_t) {}
#endif

}  // namespace ascend
