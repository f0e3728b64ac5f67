// The bounds-checked copies of the securec library that Ascend C host code calls (memcpy_s,
// memset_s), with its return codes. tikicpulib.h includes it, as the CPU-debug headers bring it
// to a sample's main.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#define ASCEND_SIM_SECUREC_EINVAL 22
#define ASCEND_SIM_SECUREC_ERANGE 34
#define ASCEND_SIM_SECUREC_EINVAL_AND_RESET 150
#define ASCEND_SIM_SECUREC_ERANGE_AND_RESET 162
#define ASCEND_SIM_SECUREC_EOVERLAP_AND_RESET 182

using errno_t = int;

// Copies count bytes to dest of destMax bytes. A null dest or a destMax of 0 (or beyond
// SECUREC_MEM_MAX_LEN) copies nothing; a null src, a count beyond destMax or overlapping ranges
// clear dest and copy nothing. Returns EOK or the securec error code.
inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
    return ASCEND_SIM_SECUREC_ERANGE;
  if (count == 0) return EOK;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return ASCEND_SIM_SECUREC_EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ASCEND_SIM_SECUREC_ERANGE_AND_RESET;
  }
  const auto d = reinterpret_cast<uintptr_t>(dest), s = reinterpret_cast<uintptr_t>(src);
  if ((d < s && d + count > s) || (s < d && s + count > d)) {
    std::memset(dest, 0, destMax);
    return ASCEND_SIM_SECUREC_EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

// Sets count bytes of dest (of destMax bytes) to c; a count beyond destMax sets destMax bytes
// and reports ERANGE_AND_RESET.
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN)
    return ASCEND_SIM_SECUREC_ERANGE;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ASCEND_SIM_SECUREC_ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}
