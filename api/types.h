// The basic types of the Ascend C facade: GM addresses, pipes, buffer positions, hardware events.
#pragma once

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "models/events.h"

#define __aicore__
#define __gm__
#define __global__
// The device compiler's address-space qualifiers: UB, L1, L0A/L0B/L0C, the fixpipe buffer. One
// host address space here, so they qualify nothing.
#ifndef __ubuf__
#define __ubuf__
#define __kfc_workspace__  // marks the workspace argument of a kernel that uses the Matmul API
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
using GM_ADDR = uint8_t*;  // a simulated GM address carried in a pointer; never dereferenced

namespace AscendC::detail {
[[noreturn]] void assert_failed(const char* expr, const char* file, int line);
}
// Ascend C's kernel-side assertion: a failed one is a kernel fault (exit status 5) naming the
// expression and where it is.
#ifndef ASSERT
#define ASSERT(expr) \
  ((expr) ? static_cast<void>(0) : ::AscendC::detail::assert_failed(#expr, __FILE__, __LINE__))
#endif

// The newer examples' kernel-side assertion (ascendc_assert(cond && "message")): as ASSERT.
#ifndef ascendc_assert
#define ascendc_assert(...) ASSERT((__VA_ARGS__))
#endif

// Ascend C's assertion with a logging action, ASCENDC_ASSERT(cond, { KERNEL_LOG(KERNEL_ERROR,
// fmt, ...); }): when cond is false the action runs (KERNEL_LOG prints to stderr), then as ASSERT.
namespace AscendC::detail {
template <class... Args>
void kernel_log(const char* level, const char* fmt, Args... args) {
  std::fprintf(stderr, "[%s] ", level);
  if constexpr (sizeof...(Args) == 0)
    std::fputs(fmt, stderr);
  else
    std::fprintf(stderr, fmt, args...);
  std::fputc('\n', stderr);
}
}  // namespace AscendC::detail
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, ...) ::AscendC::detail::kernel_log(#level, __VA_ARGS__)
#endif
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, ...)                                  \
  do {                                                             \
    if (!(cond)) {                                                 \
      __VA_ARGS__;                                                 \
      ::AscendC::detail::assert_failed(#cond, __FILE__, __LINE__); \
    }                                                              \
  } while (0)
#endif

// The device compiler's event ids, a global name in Ascend C: what SetFlag/WaitFlag take and
// TPipe::FetchEventID returns as a TEventID (static_cast<event_t>(pipe.FetchEventID(...))).
enum event_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};

namespace AscendC {

using HardEvent = ascend::model::HardEvent;
using TEventID = int8_t;
enum pipe_t { PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE1, PIPE_M, PIPE_FIX };
// Where a tensor lives: GM; an AIV's UB (VECIN, VECOUT, VECCALC); an AIC's L1 (A1, B1, C1), L0A
// (A2), L0B (B2), L0C (CO1) or BiasTable (C2). CO2 is GM on A2/A3.
// C2PIPE2GM: the fixpipe buffer (FB); as a TQueBind destination, L1 data the FIX pipe reads (a
// VDEQF16 Fixpipe's scales, which it moves L1 -> FB itself). MAX: none named (a default).
enum class TPosition {
  GM,
  VECIN,
  VECOUT,
  VECCALC,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  C2PIPE2GM,
  MAX,
  LCM = VECCALC,  // Ascend C's other name for VECCALC (after MAX, which stays the count)
};
using QuePosition = TPosition;
// A GlobalTensor's L2 hint (GlobalTensor::SetL2CacheHint) and which accesses it covers.
enum class CacheMode {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4
};
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
// The memory a DataSyncBarrier waits for.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// Ascend C's type comparison (IsSameType<T, U>::value), as std::is_same.
template <class T, class U>
struct IsSameType {
  static constexpr bool value = false;
};
template <class T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};

// Ascend C's compile-time type choice (Conditional<b, T, U>::type), as std::conditional.
template <bool B, class T, class U>
struct Conditional {
  using type = T;
};
template <class T, class U>
struct Conditional<false, T, U> {
  using type = U;
};
// a / b rounded up (b > 0).
template <class T, class U>
constexpr auto DivCeil(T a, U b) {
  return (a + b - 1) / b;
}
template <class T, class U>
constexpr auto CeilDivision(T a, U b) {
  return (a + b - 1) / b;
}

// Ascend C's packed signed 4-bit integer: one object is one element (sizeof 1, as in Ascend C),
// but in memory two share a byte, element 2i in the low nibble of byte i and 2i + 1 in the high
// one. Tensors of it count elements, so their byte sizes and offsets are half those counts
// (detail::bytes_of).
struct int4b_t {
  uint8_t storage = 0;  // the low 4 bits
  int4b_t() = default;
  int4b_t(int32_t v) : storage(static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFu)) {}
  int4b_t(uint32_t v) : storage(static_cast<uint8_t>(v & 0xFu)) {}
  operator int32_t() const { return (storage & 0x8u) ? int32_t{storage} - 16 : int32_t{storage}; }
};

namespace detail {
template <class T>
constexpr bool is_int4 = std::is_same_v<T, int4b_t>;
// The bytes n elements of T take in memory (int4b_t: two a byte, rounded up).
template <class T>
constexpr uint64_t bytes_of(uint64_t n) {
  if constexpr (is_int4<T>)
    return (n + 1) / 2;
  else
    return n * sizeof(T);
}
// The elements of T that `bytes` hold.
template <class T>
constexpr uint64_t elems_of(uint64_t bytes) {
  if constexpr (is_int4<T>)
    return bytes * 2;
  else
    return bytes / sizeof(T);
}
// The int4b_t element i of packed bytes p, and its store.
inline int32_t int4_at(const void* p, uint64_t i) {
  const uint8_t b = static_cast<const uint8_t*>(p)[i / 2];
  return int32_t{int4b_t(static_cast<uint32_t>(i % 2 ? b >> 4 : b))};
}
inline void int4_put(void* p, uint64_t i, int32_t v) {
  uint8_t& b = static_cast<uint8_t*>(p)[i / 2];
  const uint8_t n = static_cast<uint8_t>(static_cast<uint32_t>(v) & 0xFu);
  b = static_cast<uint8_t>(i % 2 ? (b & 0x0Fu) | (n << 4) : (b & 0xF0u) | n);
}
}  // namespace detail

template <class T>
class LocalTensor;
template <class T>
class GlobalTensor;

}  // namespace AscendC
