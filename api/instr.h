// How the facade turns a call into work for a core: checks of UB operands, the DMA descriptor every
// DataCopy form fills, vector instructions, flags and barriers, the scalar's own accesses, and the
// element arithmetic the vector instructions compute with. Every call is issued by the calling
// core's scalar unit into the pipe that executes it (models/core.h has the timing rules); what
// an instruction does to the data is real and happens when it completes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

#include "api/numeric.h"
#include "api/runtime.h"
#include "api/types.h"

namespace AscendC {
namespace detail {

// Whether an instruction reads or writes an operand (for the race check).
enum Access : bool { kRead = false, kWrite = true };

// A UB range must lie inside what this kernel's TPipe allocated (and so inside the UB).
void check_ub(const m::Core* c, uint64_t offset, uint64_t bytes, const char* instr);
// The offset of a LocalTensor(pos, addr, tileSize) made on a core that has no buffer of pos: a
// mixed kernel's code run by both kinds of core makes one before it branches on ASCEND_IS_AIC, as
// on the device, where the object is only an address. Any use of it is a kernel fault.
constexpr uint32_t kOtherKindsTensor = ~0u;
// What a LocalTensor without a core is, at `offset`: never allocated, or kOtherKindsTensor.
std::string unusable_tensor(uint64_t offset);
void check_ub_aligned(uint64_t offset, const char* instr);
// Checks a vector operand (an allocated tensor starting on an `align` boundary, 32 B but where an
// instruction documents less; `bytes` inside it) and, under the race check, notes the UB range
// the next issued instruction reads or writes.
template <class T>
void check_operand(const LocalTensor<T>& t, uint64_t bytes, const char* instr, Access access,
                   uint32_t align = 32);
void note_ub(uint64_t offset, uint64_t bytes, Access access);

// One DMA between GM and UB, possibly strided: blocks of `block_bytes`, GM blocks `gm_stride`
// bytes apart, UB blocks `ub_stride` bytes apart (32-B aligned). GM ranges are checked against
// [gm_lo, gm_hi), the bounds of the GlobalTensor used.
struct DmaDesc {
  bool to_gm = false;
  uint64_t gm = 0, gm_lo = 0, gm_hi = 0, gm_stride = 0;
  const m::Core* ub_core = nullptr;           // owner of the LocalTensor (null: not allocated)
  uint64_t ub = 0, ub_hi = 0, ub_stride = 0;  // UB side, bounded by the LocalTensor's end
  uint32_t block_count = 1, block_bytes = 0;
  // GM->UB padding: pad_left/pad_right bytes around each block filled with pad_value bytes
  uint32_t pad_left = 0, pad_right = 0;
  bool pad = false;
  uint8_t pad_value[8] = {};
  uint32_t pad_elem = 1;
  const char* name = "DataCopy";
  // To GM under SetAtomicAdd<T>: adds the elements to GM's (nullptr: overwrites).
  void (*atomic_op)(uint8_t* gm, const uint8_t* src, uint64_t bytes) = nullptr;
  bool l2_bypass = false;  // the GlobalTensor's L2 hint is CACHE_MODE_DISABLE
};
void issue_dma(const DmaDesc& d);

// A vector instruction of `repeats` repeats whose effect runs at completion (skipped for payload
// in a timing-only run).
void issue_vector(const char* name, uint64_t repeats, m::Effect effect);
inline uint64_t repeats_for(uint64_t count, size_t elem_bytes) {
  return std::max<uint64_t>(1, (count * elem_bytes + 255) / 256);
}

m::PipeId pipe_of(pipe_t p);  // PIPE_S for PIPE_ALL
void set_flag(HardEvent e, int id);
void wait_flag(HardEvent e, int id);
// Without the check of user event ids (queues use ids from m::kQueueEventBase).
void raw_set_flag(HardEvent e, uint32_t id);
void raw_wait_flag(HardEvent e, uint32_t id);
void pipe_barrier(pipe_t p);

// Scalar access to GM (GetValue/SetValue on a GlobalTensor): the scalar stalls for the latency.
void scalar_gm_read(uint64_t addr, void* dst, size_t bytes);
void scalar_gm_write(uint64_t addr, const void* src, size_t bytes);
void scalar_ub_access(uint64_t offset, uint64_t bytes, bool write);

// Element arithmetic in T's own precision: floating types round the exact result to nearest
// even; integer types compute in 64 bits and keep the low bits (wrap-around, as the hardware).
template <class T>
T wrap(uint64_t v) {
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(v));
}
template <class T>
uint64_t bits64(T v) {
  return static_cast<uint64_t>(static_cast<int64_t>(v));
}
template <class T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) + bits64(b));
  else
    return cast_to<T>(to_double(a) + to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T sub(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) - bits64(b));
  else
    return cast_to<T>(to_double(a) - to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return wrap<T>(bits64(a) * bits64(b));
  else
    return cast_to<T>(to_double(a) * to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T div(T a, T b) {
  static_assert(!std::is_integral_v<T>, "Div is a floating-point instruction");
  return cast_to<T>(to_double(a) / to_double(b), RoundMode::CAST_RINT);
}
template <class T>
T abs(T a) {
  if constexpr (std::is_integral_v<T>)
    return a < 0 ? wrap<T>(uint64_t{0} - bits64(a)) : a;
  else
    return cast_to<T>(std::fabs(to_double(a)), RoundMode::CAST_RINT);
}

}  // namespace detail
}  // namespace AscendC
