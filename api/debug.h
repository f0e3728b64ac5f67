// Ascend C's debugging output from a kernel: printf (and PRINTF) and DumpTensor print to stdout
// and take no simulated time. printf prints as the device does, each line after the core's
// "[AIV Block i/n] " (or "[AIC Block i/n] "), except in a CPU-debug build (ASCENDC_CPU_DEBUG),
// which prints the kernel's format only, as the CPU twin does; outside a kernel it prints
// plainly. DumpTensor shows the bytes as they are at the calling core's scalar time: an
// instruction still in flight has not written them yet (order it first, as on the device).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "api/sync.h"
#include "api/tensor.h"

namespace AscendC {

namespace detail {
// Prints the device printf's "[AIV Block i/n] " on a running kernel's core; nothing elsewhere.
void print_block_prefix();
}  // namespace detail

template <class... Args>
void printf(const char* fmt, Args... args) {
#ifndef ASCENDC_CPU_DEBUG
  detail::print_block_prefix();
#endif
  if constexpr (sizeof...(Args) == 0)
    std::fputs(fmt, stdout);
  else
    std::printf(fmt, args...);  // NOLINT: the kernel's own format, as on the device
}

namespace detail {
template <class T>
void dump_values(const char* where, uint32_t desc, const T* v, uint32_t n) {
  std::printf("DumpTensor: core %lld, desc %u, %s, %u elements:",
              static_cast<long long>(GetBlockIdx()), desc, where, n);
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 16 == 0) std::printf("\n ");
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                  std::is_same_v<T, bfloat16_t>)
      std::printf(" %g", to_double(v[i]));
    else if constexpr (std::is_signed_v<T>)
      std::printf(" %lld", static_cast<long long>(v[i]));
    else
      std::printf(" %llu", static_cast<unsigned long long>(v[i]));
  }
  std::printf("\n");
}
}  // namespace detail

template <class T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  const uint32_t n = dumpSize < tensor.GetSize() ? dumpSize : tensor.GetSize();
  detail::dump_values(("UB +" + std::to_string(tensor.ub_offset())).c_str(), desc, tensor.ptr(), n);
}

template <class T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  const uint64_t n = dumpSize < tensor.GetSize() ? dumpSize : tensor.GetSize();
  std::basic_string<char> bytes(n * sizeof(T), '\0');
  detail::memory().read(tensor.address(), bytes.data(), bytes.size());
  detail::dump_values(detail::describe_gm(tensor.address()).c_str(), desc,
                      reinterpret_cast<const T*>(bytes.data()), static_cast<uint32_t>(n));
}

}  // namespace AscendC

#ifndef PRINTF
#define PRINTF AscendC::printf
#endif

// ASCENDC_ASSERT and KERNEL_LOG are in api/types.h.
