// The Utils API's printf, which a kernel calls unqualified: under ascend-sim the facade's printf
// (api/debug.h: printed, no simulated time, after the device's "[AIV Block i/n] " prefix).
//
// On the device the compiler gives a kernel's `printf` the device printf. A C++ compiler sees the C
// library's printf first (a non-template beats the facade's template for a format alone), so this
// header names `printf` ascend_sim_printf in the file that includes it: in a kernel it is the
// device printf, elsewhere (the host code of a single-source .asc file) it prints plainly. A
// CPU-debug build (ASCENDC_CPU_DEBUG) keeps the C library's printf, as the CPU twin does.
#pragma once

#include <cstdio>

#include "kernel_operator.h"

#ifndef ASCENDC_CPU_DEBUG
template <class... Args>
int ascend_sim_printf(const char* fmt, Args... args) {
  AscendC::printf(fmt, args...);
  return 0;
}
namespace std {
using ::ascend_sim_printf;  // so that std::printf in a later header still names a printf
}
#define printf ascend_sim_printf
#endif
