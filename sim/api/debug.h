// Ascend C's debugging output from a kernel: printf (and PRINTF) and DumpTensor print to stdout
// as the CPU twin prints them, and take no simulated time. DumpTensor shows the bytes as they are
// at the calling core's scalar time: an instruction still in flight has not written them yet
// (order it first, as on the device).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "sim/api/sync.h"
#include "sim/api/tensor.h"

namespace AscendC {

template <class... Args>
void printf(const char* fmt, Args... args) {
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

// ASCENDC_ASSERT and KERNEL_LOG are in sim/api/types.h.
