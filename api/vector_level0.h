// The vector unit's mask register and the level-0 ("high-dimensional split") forms of the
// element-wise instructions: `repeatTimes` repeats of 8 blocks of 32 B, the elements of a repeat
// chosen by a mask, block and repeat strides in 32-B blocks (UnaryRepeatParams,
// BinaryRepeatParams). Also compare and select (Compare, Compares, Select, GetCmpMask/SetCmpMask)
// and the bitwise instructions (And, Or, Not).
//
// The mask of a level-0 call, as on Atlas A2/A3:
//  - isSetMask = true (the default): the call sets the mask register from its mask argument, a
//    count of leading elements per repeat (uint64_t mask, 1 to 256 / sizeof(T)) or a bit mask
//    (uint64_t mask[2]: mask[0] elements 0-63 of a repeat, mask[1] 64-127, LSB first);
//  - isSetMask = false: the argument (MASK_PLACEHOLDER) is ignored and the register that
//    SetVectorMask set is used;
//  - in counter mode (SetMaskCount), the mask is the number of elements of the whole
//    instruction: repeatTimes is ignored, repeats = ceil(count / (256 / sizeof(T))), the last
//    one partial.
// Elements a mask leaves out keep their value in dst. An instruction is timed by the repeats it
// executes (issue_vector), as every vector instruction of the facade.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "api/not_modelled.h"
#include "api/tensor.h"
#include "api/vector.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
// The mask argument of a level-0 call with isSetMask = false: ignored.
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

namespace detail {
// The mask of the first n elements of a repeat: {elements 0-63, elements 64-127}.
inline std::array<uint64_t, 2> leading_bits(uint64_t n) {
  const uint64_t lo = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  const uint64_t hi = n <= 64 ? 0 : n >= 128 ? ~uint64_t{0} : (uint64_t{1} << (n - 64)) - 1;
  return {lo, hi};
}
}  // namespace detail

// Normal mode (the default): the mask register is a per-repeat mask. Counter mode: it counts
// the elements of a whole instruction.
inline void SetMaskCount() {
  detail::state().mask_counter = true;
}
inline void SetMaskNorm() {
  detail::state().mask_counter = false;
}
// The bit form (counter mode: maskLow is the count, maskHigh 0).
template <class T = uint16_t, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
  detail::state().vector_mask = {maskLow, maskHigh};
}
// The count form: the first len elements of every repeat (normal mode), or len elements of the
// instruction (counter mode).
template <class T = uint16_t, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  detail::CoreState& s = detail::state();
  if (mode == MaskMode::COUNTER || s.mask_counter) {
    s.vector_mask = {static_cast<uint64_t>(static_cast<uint32_t>(len)), 0};
    return;
  }
  if (len < 0 || len > 128) detail::fault("SetVectorMask(" + std::to_string(len) + "): 0 to 128");
  s.vector_mask = detail::leading_bits(static_cast<uint64_t>(len));
}
// Every element of every repeat.
inline void ResetMask() {
  detail::state().vector_mask = {~uint64_t{0}, ~uint64_t{0}};
}

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep,
                     uint8_t src0Rep, uint8_t src1Rep)
      : dstBlkStride(dstBlk),
        src0BlkStride(src0Blk),
        src1BlkStride(src1Blk),
        dstRepStride(dstRep),
        src0RepStride(src0Rep),
        src1RepStride(src1Rep) {}
  uint32_t blockNumber = 8;  // reserved
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
};

namespace detail {
// Which elements of which repeats a level-0 instruction computes.
struct RepeatPlan {
  uint32_t per_repeat = 0;  // elements of a 256-B repeat
  uint32_t repeats = 0;
  bool counter = false;
  uint64_t count = 0;       // counter mode: elements of the instruction
  uint64_t lo = 0, hi = 0;  // normal mode: the per-repeat mask
  bool selected(uint32_t r, uint32_t e) const {
    if (counter) return uint64_t{r} * per_repeat + e < count;
    return ((e < 64 ? lo : hi) >> (e % 64)) & 1;
  }
  // The last element repeat r computes.
  uint32_t last(uint32_t r) const {
    if (counter)
      return static_cast<uint32_t>(
          std::min<uint64_t>(count - uint64_t{r} * per_repeat, per_repeat) - 1);
    return hi ? 127 - static_cast<uint32_t>(__builtin_clzll(hi))
              : 63 - static_cast<uint32_t>(__builtin_clzll(lo));
  }
};
// The plan of a call whose mask is m0 (a count) or {m0, m1} (bits).
template <class T>
RepeatPlan plan_level0(const char* name, bool isSetMask, bool bits, uint64_t m0, uint64_t m1,
                       uint32_t repeatTimes) {
  static_assert(sizeof(T) >= 2,
                "ascend-sim: the level-0 (mask, repeat) forms take 16- or 32-bit elements");
  CoreState& s = state();
  RepeatPlan p;
  p.per_repeat = 256 / sizeof(T);
  if (isSetMask) {  // the call sets
                    // the register
    if (s.mask_counter)
      s.vector_mask = {m0, 0};
    else if (!bits) {
      if (m0 == 0 || m0 > p.per_repeat)
        fault(std::string(name) + ": mask " + std::to_string(m0) + " outside [1, " +
              std::to_string(p.per_repeat) + "]");
      s.vector_mask = leading_bits(m0);
    } else {
      s.vector_mask = {m0, m1};
    }
  }
  if (s.mask_counter) {
    p.counter = true;
    p.count = s.vector_mask[0];
    p.repeats = static_cast<uint32_t>((p.count + p.per_repeat - 1) / p.per_repeat);
    return p;
  }
  p.lo = s.vector_mask[0];
  p.hi = p.per_repeat > 64 ? s.vector_mask[1] : 0;
  if (p.per_repeat < 64) p.lo &= (uint64_t{1} << p.per_repeat) - 1;
  p.repeats = (p.lo | p.hi) ? repeatTimes : 0;
  return p;
}
// Byte offset of element e of repeat
// r in an operand with these strides
// (in 32-B blocks).
template <class T>
uint64_t elem_at(uint32_t r, uint32_t e, uint32_t blk, uint32_t rep) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  return (uint64_t{r} * rep + uint64_t{e / per_block} * blk) * 32 + (e % per_block) * sizeof(T);
}
// Bytes from an operand's start to
// the end of the last element the
// plan touches.
template <class T>
uint64_t span_of(const RepeatPlan& p, uint32_t blk, uint32_t rep) {
  if (p.repeats == 0) return 0;
  uint64_t end = elem_at<T>(p.repeats - 1, p.last(p.repeats - 1), blk, rep) + sizeof(T);
  if (p.repeats > 1)
    end = std::max(end, elem_at<T>(p.repeats - 2, p.last(p.repeats - 2), blk, rep) + sizeof(T));
  return end;
}
template <class T>
T load_at(const uint8_t* base, uint64_t off) {
  T v;
  std::memcpy(&v, base + off, sizeof(T));
  return v;
}
template <class T>
void store_at(uint8_t* base, uint64_t off, T v) {
  std::memcpy(base + off, &v, sizeof(T));
}

// dst = f(src) over the plan's
// elements. Block and repeat strides
// of a one-source instruction, in
// 32-B blocks.
struct Strides {
  uint32_t dstBlkStride, srcBlkStride, dstRepStride, srcRepStride;
  Strides(const UnaryRepeatParams& p)  // NOLINT: a view
                                       // of the params
      : dstBlkStride(p.dstBlkStride),
        srcBlkStride(p.srcBlkStride),
        dstRepStride(p.dstRepStride),
        srcRepStride(p.srcRepStride) {}
  Strides(uint32_t db, uint32_t sb, uint32_t dr, uint32_t sr)
      : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};
template <class T, class F>
void unary_plan(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const RepeatPlan& p, const Strides& rp, F f) {
  if (p.repeats == 0) return;
  check_operand(dst, span_of<T>(p, rp.dstBlkStride, rp.dstRepStride), name, kWrite);
  check_operand(src, span_of<T>(p, rp.srcBlkStride, rp.srcRepStride), name, kRead);
  issue_vector(name, p.repeats, [dst, src, p, rp, f] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t e = 0; e <= p.last(r); ++e)
        if (p.selected(r, e))
          store_at<T>(d, elem_at<T>(r, e, rp.dstBlkStride, rp.dstRepStride),
                      f(load_at<T>(s, elem_at<T>(r, e, rp.srcBlkStride, rp.srcRepStride))));
  });
}
// dst = f(src0, src1) over the
// plan's elements.
template <class T, class F>
void binary_plan(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& a,
                 const LocalTensor<T>& b, const RepeatPlan& p, const BinaryRepeatParams& rp, F f) {
  if (p.repeats == 0) return;
  check_operand(dst, span_of<T>(p, rp.dstBlkStride, rp.dstRepStride), name, kWrite);
  check_operand(a, span_of<T>(p, rp.src0BlkStride, rp.src0RepStride), name, kRead);
  check_operand(b, span_of<T>(p, rp.src1BlkStride, rp.src1RepStride), name, kRead);
  issue_vector(name, p.repeats, [dst, a, b, p, rp, f] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* x = reinterpret_cast<const uint8_t*>(a.ptr());
    const uint8_t* y = reinterpret_cast<const uint8_t*>(b.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t e = 0; e <= p.last(r); ++e)
        if (p.selected(r, e))
          store_at<T>(d, elem_at<T>(r, e, rp.dstBlkStride, rp.dstRepStride),
                      f(load_at<T>(x, elem_at<T>(r, e, rp.src0BlkStride, rp.src0RepStride)),
                        load_at<T>(y, elem_at<T>(r, e, rp.src1BlkStride, rp.src1RepStride))));
  });
}
template <class T>
T relu(T x) {
  return to_double(x) > 0 ? x : T{};
}
template <class T>
constexpr void require_bitwise() {
  static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>,
                "ascend-sim: And/Or/Not take uint16_t or int16_t on Atlas A2/A3");
}
}  // namespace detail

namespace detail {
// A level-0 operand's element e of repeat r, for any element type: int4b_t packs 64 elements in a
// 32-B block (nibble index from the operand's start), the others as elem_at.
template <class T>
uint64_t nibble_at(uint32_t r, uint32_t e, uint32_t blk, uint32_t rep) {
  return (uint64_t{r} * rep + uint64_t{e / 64} * blk) * 64 + e % 64;
}
template <class T>
T load_elem(const uint8_t* base, uint32_t r, uint32_t e, uint32_t blk, uint32_t rep) {
  if constexpr (is_int4<T>)
    return T(int4_at(base, nibble_at<T>(r, e, blk, rep)));
  else
    return load_at<T>(base, elem_at<T>(r, e, blk, rep));
}
template <class T>
void store_elem(uint8_t* base, uint32_t r, uint32_t e, uint32_t blk, uint32_t rep, T v) {
  if constexpr (is_int4<T>)
    int4_put(base, nibble_at<T>(r, e, blk, rep), int32_t{v});
  else
    store_at<T>(base, elem_at<T>(r, e, blk, rep), v);
}
// span_of for any element type.
template <class T>
uint64_t span_elems(const RepeatPlan& p, uint32_t blk, uint32_t rep) {
  if constexpr (!is_int4<T>) {
    return span_of<T>(p, blk, rep);
  } else {
    if (p.repeats == 0) return 0;
    uint64_t end = nibble_at<T>(p.repeats - 1, p.last(p.repeats - 1), blk, rep) / 2 + 1;
    if (p.repeats > 1)
      end = std::max(end, nibble_at<T>(p.repeats - 2, p.last(p.repeats - 2), blk, rep) / 2 + 1);
    return end;
  }
}
// A level-0 Cast: a repeat holds 256 B of the wider type's elements; each operand's blocks and
// repeats step by its own strides in 32-B blocks (a narrower operand's repeat spans fewer blocks).
template <class D, class S, RoundMode M>
void cast_plan(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RepeatPlan& p,
               const Strides& rp) {
  if (p.repeats == 0) return;
  check_operand(dst, span_elems<D>(p, rp.dstBlkStride, rp.dstRepStride), "Cast", kWrite);
  check_operand(src, span_elems<S>(p, rp.srcBlkStride, rp.srcRepStride), "Cast", kRead);
  issue_vector("Cast", p.repeats, [dst, src, p, rp] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t e = 0; e <= p.last(r); ++e)
        if (p.selected(r, e))
          store_elem<D>(
              d, r, e, rp.dstBlkStride, rp.dstRepStride,
              cast_value<D, S, M>(load_elem<S>(s, r, e, rp.srcBlkStride, rp.srcRepStride)));
  });
}
// The wider of a Cast's two element types (its repeat's element count).
template <class D, class S>
using WiderOf = std::conditional_t<(sizeof(D) >= sizeof(S)), D, S>;
}  // namespace detail

// Level-0 Cast (Ascend C API: Cast with mask, repeatTimes and UnaryRepeatParams).
template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode,
          const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {
  const detail::RepeatPlan p = detail::plan_level0<detail::WiderOf<D, S>>(
      "Cast", isSetMask, true, mask[0], mask[1], repeatTimes);
  with_round_mode(mode, [&](auto m) {
    detail::cast_plan<D, S, decltype(m)::value>(dst, src, p, repeatParams);
  });
}
template <class D, class S, bool isSetMask = true>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, uint64_t mask,
          uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {
  const detail::RepeatPlan p =
      detail::plan_level0<detail::WiderOf<D, S>>("Cast", isSetMask, false, mask, 0, repeatTimes);
  with_round_mode(mode, [&](auto m) {
    detail::cast_plan<D, S, decltype(m)::value>(dst, src, p, repeatParams);
  });
}

// ------------------------------------------------------------------
// level-0 forms Each name gets the
// bit-mask form (const uint64_t
// mask[]) and the count-mask form
// (uint64_t).

#define ASCEND_SIM_LEVEL0_UNARY(Name, Expr, Check)                                            \
  template <class T, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],      \
            uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                     \
    Check;                                                                                    \
    detail::unary_plan(                                                                       \
        #Name, dst, src,                                                                      \
        detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1], repeatTimes),        \
        repeatParams, [](T x) { return Expr; });                                              \
  }                                                                                           \
  template <class T, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,              \
            uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                     \
    Check;                                                                                    \
    detail::unary_plan(#Name, dst, src,                                                       \
                       detail::plan_level0<T>(#Name, isSetMask, false, mask, 0, repeatTimes), \
                       repeatParams, [](T x) { return Expr; });                               \
  }

ASCEND_SIM_LEVEL0_UNARY(Exp, detail::round_to<T>(std::exp(to_double(x))),
                        detail::require_float<T>("Exp"))
ASCEND_SIM_LEVEL0_UNARY(Ln, detail::round_to<T>(std::log(to_double(x))),
                        detail::require_float<T>("Ln"))
ASCEND_SIM_LEVEL0_UNARY(Sqrt, detail::round_to<T>(std::sqrt(to_double(x))),
                        detail::require_float<T>("Sqrt"))
ASCEND_SIM_LEVEL0_UNARY(Reciprocal, detail::round_to<T>(1.0 / to_double(x)),
                        detail::require_float<T>("Reciprocal"))
ASCEND_SIM_LEVEL0_UNARY(Abs, detail::abs(x), (void)0)
ASCEND_SIM_LEVEL0_UNARY(Relu, to_double(x) > 0 ? x : T{}, (void)0)
ASCEND_SIM_LEVEL0_UNARY(Not, static_cast<T>(~x), detail::require_bitwise<T>())
#undef ASCEND_SIM_LEVEL0_UNARY

// Tensor-scalar forms: dst = f(src,
// scalar).
#define ASCEND_SIM_LEVEL0_SCALAR(Name, Expr, Check)                                           \
  template <class T, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, const uint64_t mask[], \
            uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                     \
    Check;                                                                                    \
    detail::unary_plan(                                                                       \
        #Name, dst, src,                                                                      \
        detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1], repeatTimes),        \
        repeatParams, [s](T x) { return Expr; });                                             \
  }                                                                                           \
  template <class T, bool isSetMask = true>                                                   \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, T s, uint64_t mask,         \
            uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                     \
    Check;                                                                                    \
    detail::unary_plan(#Name, dst, src,                                                       \
                       detail::plan_level0<T>(#Name, isSetMask, false, mask, 0, repeatTimes), \
                       repeatParams, [s](T x) { return Expr; });                              \
  }

ASCEND_SIM_LEVEL0_SCALAR(Adds, detail::add(x, s), (void)0)
ASCEND_SIM_LEVEL0_SCALAR(Muls, detail::mul(x, s), (void)0)
ASCEND_SIM_LEVEL0_SCALAR(Maxs, to_double(x) >= to_double(s) ? x : s, (void)0)
ASCEND_SIM_LEVEL0_SCALAR(Mins, to_double(x) <= to_double(s) ? x : s, (void)0)
ASCEND_SIM_LEVEL0_SCALAR(LeakyRelu, to_double(x) >= 0 ? x : detail::mul(x, s),
                         detail::require_float<T>("LeakyRelu"))
#undef ASCEND_SIM_LEVEL0_SCALAR

#define ASCEND_SIM_LEVEL0_BINARY(Name, Expr, Check)                                               \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,    \
            const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& repeatParams) { \
    Check;                                                                                        \
    detail::binary_plan(                                                                          \
        #Name, dst, src0, src1,                                                                   \
        detail::plan_level0<T>(#Name, isSetMask, true, mask[0], mask[1], repeatTimes),            \
        repeatParams, [](T x, T y) { return Expr; });                                             \
  }                                                                                               \
  template <class T, bool isSetMask = true>                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,    \
            uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& repeatParams) {         \
    Check;                                                                                        \
    detail::binary_plan(#Name, dst, src0, src1,                                                   \
                        detail::plan_level0<T>(#Name, isSetMask, false, mask, 0, repeatTimes),    \
                        repeatParams, [](T x, T y) { return Expr; });                             \
  }

ASCEND_SIM_LEVEL0_BINARY(Add, detail::add(x, y), (void)0)
ASCEND_SIM_LEVEL0_BINARY(Sub, detail::sub(x, y), (void)0)
ASCEND_SIM_LEVEL0_BINARY(Mul, detail::mul(x, y), (void)0)
ASCEND_SIM_LEVEL0_BINARY(Div, detail::div(x, y), (void)0)
ASCEND_SIM_LEVEL0_BINARY(Max, to_double(x) >= to_double(y) ? x : y, (void)0)
ASCEND_SIM_LEVEL0_BINARY(Min, to_double(x) <= to_double(y) ? x : y, (void)0)
ASCEND_SIM_LEVEL0_BINARY(AddRelu, detail::relu(detail::add(x, y)), (void)0)
ASCEND_SIM_LEVEL0_BINARY(SubRelu, detail::relu(detail::sub(x, y)), (void)0)
ASCEND_SIM_LEVEL0_BINARY(And, static_cast<T>(x& y), detail::require_bitwise<T>())
ASCEND_SIM_LEVEL0_BINARY(Or, static_cast<T>(x | y), detail::require_bitwise<T>())
#undef ASCEND_SIM_LEVEL0_BINARY

// relu(src0 + src1), relu(src0 -
// src1): the sum or difference
// rounded in T, then clamped at 0.
template <class T>
void AddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             uint32_t count) {
  detail::binary("AddRelu", dst, src0, src1, count,
                 [](T x, T y) { return detail::relu(detail::add(x, y)); });
}
template <class T>
void SubRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             uint32_t count) {
  detail::binary("SubRelu", dst, src0, src1, count,
                 [](T x, T y) { return detail::relu(detail::sub(x, y)); });
}
// Axpy: dst = src x scalar + dst (T
// = U: the product rounded in T,
// then the sum; T float with U half:
// src widened to float first).
template <class T, class U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, U scalar, uint32_t count) {
  static_assert((std::is_same_v<T, U> && (std::is_same_v<T, float> || std::is_same_v<T, half>)) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "ascend-sim: Axpy takes half/half, float/float or float/half (dst/src)");
  detail::check_operand(dst, uint64_t{count} * sizeof(T), "Axpy", detail::kWrite);
  detail::check_operand(src, uint64_t{count} * sizeof(U), "Axpy", detail::kRead);
  detail::issue_vector("Axpy", detail::repeats_for(count, sizeof(T)), [dst, src, scalar, count] {
    T* d = dst.ptr();
    const U* s = src.ptr();
    const T a = cast_to<T>(to_double(scalar), RoundMode::CAST_RINT);
    for (uint32_t i = 0; i < count; ++i)
      d[i] = detail::add(detail::mul(cast_to<T>(to_double(s[i]), RoundMode::CAST_RINT), a), d[i]);
  });
}

// Level-0 Duplicate: value into the
// elements of the plan's repeats of
// dst (8 blocks each, dstBlockStride
// blocks apart, repeats
// dstRepeatStride blocks apart); the
// other elements keep their value.
namespace detail {
template <class T>
void duplicate_plan(const LocalTensor<T>& dst, T value, const RepeatPlan& p, uint16_t blk,
                    uint8_t rep) {
  if (p.repeats == 0) return;
  check_operand(dst, span_of<T>(p, blk, rep), "Duplicate", kWrite);
  issue_vector("Duplicate", p.repeats, [dst, value, p, blk, rep] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t e = 0; e <= p.last(r); ++e)
        if (p.selected(r, e)) store_at<T>(d, elem_at<T>(r, e, blk, rep), value);
  });
}
}  // namespace detail
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& value, const uint64_t mask[],
               uint8_t repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  detail::duplicate_plan(
      dst, value,
      detail::plan_level0<T>("Duplicate", isSetMask, true, mask[0], mask[1], repeatTimes),
      dstBlockStride, dstRepeatStride);
}
template <class T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const T& value, uint64_t mask, uint8_t repeatTimes,
               uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  detail::duplicate_plan(
      dst, value, detail::plan_level0<T>("Duplicate", isSetMask, false, mask, 0, repeatTimes),
      dstBlockStride, dstRepeatStride);
}

// The count forms of the bitwise
// instructions (uint16_t/int16_t).
template <class T>
void And(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
         uint32_t count) {
  detail::require_bitwise<T>();
  detail::binary("And", dst, src0, src1, count, [](T x, T y) { return static_cast<T>(x & y); });
}
template <class T>
void Or(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
        uint32_t count) {
  detail::require_bitwise<T>();
  detail::binary("Or", dst, src0, src1, count, [](T x, T y) { return static_cast<T>(x | y); });
}
template <class T>
void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::require_bitwise<T>();
  detail::unary("Not", dst, src, count, [](T x) { return static_cast<T>(~x); });
}

// ------------------------------------------------------------------
// compare and select

// src0 <op> src1.
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE
};

namespace detail {
template <class T>
bool compare(CMPMODE m, T a, T b) {
  const double x = to_double(a), y = to_double(b);
  switch (m) {
    case CMPMODE::LT:
      return x < y;
    case CMPMODE::GT:
      return x > y;
    case CMPMODE::EQ:
      return x == y;
    case CMPMODE::LE:
      return x <= y;
    case CMPMODE::GE:
      return x >= y;
    default:
      return x != y;
  }
}
template <class T>
void require_compare(const char* name, CMPMODE m) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, int32_t>,
                "ascend-sim: Compare/Compares take float, half or int32_t on Atlas A2/A3");
  if (std::is_same_v<T, int32_t> && m != CMPMODE::EQ)
    fault(std::string(name) + ": int32_t compares only with CMPMODE::EQ on Atlas A2/A3");
}
template <class U>
constexpr void require_bits_type() {
  static_assert(std::is_same_v<U, uint8_t> || std::is_same_v<U, int8_t>,
                "ascend-sim: Compare/Compares write their bits to an int8_t or uint8_t tensor");
}
// Compares `repeats` whole repeats
// (256 B each): repeat r's results
// are bits r x per_repeat ... of
// dst, LSB first (the kit's count
// form packs them, which its default
// strides give). `get1` gives
// element e of repeat r of the
// second operand.
template <class T, class U, class G>
void compare_repeats(const char* name, const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     uint32_t blk0, uint32_t rep0, uint32_t repeats, CMPMODE m, G get1) {
  constexpr uint32_t per_repeat = 256 / sizeof(T);
  check_operand(dst, uint64_t{repeats} * per_repeat / 8, name, kWrite);
  RepeatPlan full;
  full.per_repeat = per_repeat;
  full.repeats = repeats;
  full.lo = ~uint64_t{0};
  full.hi = per_repeat > 64 ? ~uint64_t{0} : 0;
  check_operand(src0, span_of<T>(full, blk0, rep0), name, kRead);
  issue_vector(name, repeats, [=] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src0.ptr());
    for (uint32_t r = 0; r < repeats; ++r)
      for (uint32_t e = 0; e < per_repeat; e += 8) {
        uint8_t byte = 0;
        for (uint32_t k = 0; k < 8; ++k)
          if (compare(m, load_at<T>(x, elem_at<T>(r, e + k, blk0, rep0)), get1(r, e + k)))
            byte = static_cast<uint8_t>(byte | (1u << k));
        d[(uint64_t{r} * per_repeat + e) / 8] = byte;
      }
  });
}
template <class T, class U>
void compare_tensors(const char* name, const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     const LocalTensor<T>& src1, CMPMODE m, uint32_t repeats,
                     const BinaryRepeatParams& rp) {
  require_compare<T>(name, m);
  require_bits_type<U>();
  if (repeats == 0) return;
  RepeatPlan full;
  full.per_repeat = 256 / sizeof(T);
  full.repeats = repeats;
  full.lo = ~uint64_t{0};
  full.hi = full.per_repeat > 64 ? ~uint64_t{0} : 0;
  check_operand(src1, span_of<T>(full, rp.src1BlkStride, rp.src1RepStride), name, kRead);
  compare_repeats(name, dst, src0, rp.src0BlkStride, rp.src0RepStride, repeats, m,
                  [src1, rp](uint32_t r, uint32_t e) {
                    return load_at<T>(reinterpret_cast<const uint8_t*>(src1.ptr()),
                                      elem_at<T>(r, e, rp.src1BlkStride, rp.src1RepStride));
                  });
}
template <class T>
uint32_t whole_repeats(const char* name, uint32_t count) {
  constexpr uint32_t per_repeat = 256 / sizeof(T);
  if (count % per_repeat)
    fault(std::string(name) + ": count " + std::to_string(count) + " is not a whole number of " +
          std::to_string(per_repeat) + "-element (256-B) repeats");
  return count / per_repeat;
}
}  // namespace detail

// dst's bits, LSB first: src0[i]
// <cmpMode> src1[i] for the first
// count elements (a whole number of
// 256-B repeats).
template <class T, class U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count) {
  detail::compare_tensors("Compare", dst, src0, src1, cmpMode,
                          detail::whole_repeats<T>("Compare", count), BinaryRepeatParams{});
}
// The level-0 forms. On Atlas A2/A3
// the mask is a reserved argument
// (the API reference): every element
// of each of the repeatTimes repeats
// is compared; the source strides
// apply, the results of repeat r are
// bits r x 256 / sizeof(T) ... of
// dst.
template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams) {
  (void)mask;
  detail::compare_tensors("Compare", dst, src0, src1, cmpMode, repeatTimes, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams) {
  (void)mask;
  detail::compare_tensors("Compare", dst, src0, src1, cmpMode, repeatTimes, repeatParams);
}

// Compare into the 128-bit CMPMASK
// register: one repeat; the elements
// the mask leaves out give 0 bits.
namespace detail {
template <class T>
void compare_to_register(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE m,
                         const RepeatPlan& p, const BinaryRepeatParams& rp) {
  require_compare<T>("Compare", m);
  if (p.repeats == 0) return;
  check_operand(src0, span_of<T>(p, rp.src0BlkStride, rp.src0RepStride), "Compare", kRead);
  check_operand(src1, span_of<T>(p, rp.src1BlkStride, rp.src1RepStride), "Compare", kRead);
  CoreState* s = &state();
  issue_vector("Compare", 1, [=] {
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src0.ptr());
    const uint8_t* y = reinterpret_cast<const uint8_t*>(src1.ptr());
    std::array<uint64_t, 2> bits{};
    for (uint32_t e = 0; e <= p.last(0); ++e)
      if (p.selected(0, e) &&
          compare(m, load_at<T>(x, elem_at<T>(0, e, rp.src0BlkStride, rp.src0RepStride)),
                  load_at<T>(y, elem_at<T>(0, e, rp.src1BlkStride, rp.src1RepStride))))
        bits[e / 64] |= uint64_t{1} << (e % 64);
    s->cmp_mask = bits;
  });
}
}  // namespace detail
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
             const uint64_t mask[], const BinaryRepeatParams& repeatParams) {
  detail::compare_to_register(
      src0, src1, cmpMode, detail::plan_level0<T>("Compare", isSetMask, true, mask[0], mask[1], 1),
      repeatParams);
}
template <class T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, uint64_t mask,
             const BinaryRepeatParams& repeatParams) {
  detail::compare_to_register(src0, src1, cmpMode,
                              detail::plan_level0<T>("Compare", isSetMask, false, mask, 0, 1),
                              repeatParams);
}
// CMPMASK -> 16 B of dst (LSB
// first), and 16 B of src ->
// CMPMASK.
template <class T>
void GetCmpMask(const LocalTensor<T>& dst) {
  detail::check_operand(dst, 16, "GetCmpMask", detail::kWrite);
  detail::CoreState* s = &detail::state();
  detail::issue_vector("GetCmpMask", 1,
                       [dst, s] { std::memcpy(dst.ptr(), s->cmp_mask.data(), 16); });
}
template <class T>
void SetCmpMask(const LocalTensor<T>& src) {
  detail::check_operand(src, 16, "SetCmpMask", detail::kRead);
  detail::CoreState* s = &detail::state();
  detail::issue_vector("SetCmpMask", 1,
                       [src, s] { std::memcpy(s->cmp_mask.data(), src.ptr(), 16); });
}

// Compares: src0[i] <cmpMode> a
// scalar.
template <class T, class U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
              uint32_t count) {
  detail::require_compare<T>("Compares", cmpMode);
  detail::require_bits_type<U>();
  const uint32_t repeats = detail::whole_repeats<T>("Compares", count);
  if (repeats == 0) return;
  detail::compare_repeats("Compares", dst, src0, 1, 8, repeats, cmpMode,
                          [src1](uint32_t, uint32_t) { return src1; });
}
template <class T, class U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
              uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {
  (void)mask;  // reserved on Atlas
               // A2/A3, as Compare's
  detail::require_compare<T>("Compares", cmpMode);
  detail::require_bits_type<U>();
  if (repeatTimes == 0) return;
  detail::compare_repeats("Compares", dst, src0, repeatParams.srcBlkStride,
                          repeatParams.srcRepStride, repeatTimes, cmpMode,
                          [src1](uint32_t, uint32_t) { return src1; });
}
template <class T, class U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
              const uint64_t mask[], uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {
  Compares<T, U, isSetMask>(dst, src0, src1, cmpMode, mask[0], repeatTimes, repeatParams);
}

// Select: dst[i] = bit i of the
// selection mask ? src0[i] : src1[i]
// (src1 a scalar in mode 1). Modes 1
// and 2 read the bits of selMask
// consecutively across repeats (256
// / sizeof(T) per repeat); mode 0
// uses the same first 256 /
// sizeof(T) bits in every repeat (as
// the CMPMASK register holds them).
// The level-0 forms write only the
// elements their mask selects.
namespace detail {
template <class T, class U, class G>
void select_plan(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                 const LocalTensor<T>& src0, SELMODE mode, const RepeatPlan& p,
                 const BinaryRepeatParams& rp, bool from_register, G get1) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "ascend-sim: Select takes float or half on Atlas A2/A3");
  if (p.repeats == 0) return;
  const uint32_t per_repeat = p.per_repeat;
  check_operand(dst, span_of<T>(p, rp.dstBlkStride, rp.dstRepStride), "Select", kWrite);
  check_operand(src0, span_of<T>(p, rp.src0BlkStride, rp.src0RepStride), "Select", kRead);
  const bool same_bits = mode == SELMODE::VSEL_CMPMASK_SPR;
  if (!from_register)
    check_operand(selMask, same_bits ? per_repeat / 8 : (uint64_t{p.repeats} * per_repeat + 7) / 8,
                  "Select", kRead);
  CoreState* s = &state();
  issue_vector("Select", p.repeats, [=] {
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint8_t* x = reinterpret_cast<const uint8_t*>(src0.ptr());
    const uint8_t* bits = from_register ? reinterpret_cast<const uint8_t*>(s->cmp_mask.data())
                                        : reinterpret_cast<const uint8_t*>(selMask.ptr());
    for (uint32_t r = 0; r < p.repeats; ++r)
      for (uint32_t e = 0; e <= p.last(r); ++e) {
        if (!p.selected(r, e)) continue;
        const uint64_t bit = same_bits ? e : uint64_t{r} * per_repeat + e;
        const bool pick0 = (bits[bit / 8] >> (bit % 8)) & 1;
        store_at<T>(d, elem_at<T>(r, e, rp.dstBlkStride, rp.dstRepStride),
                    pick0 ? load_at<T>(x, elem_at<T>(r, e, rp.src0BlkStride, rp.src0RepStride))
                          : get1(r, e));
      }
  });
}
template <class T>
RepeatPlan count_plan(uint32_t count) {
  RepeatPlan p;
  p.per_repeat = 256 / sizeof(T);
  p.counter = true;
  p.count = count;
  p.repeats = static_cast<uint32_t>((uint64_t{count} + p.per_repeat - 1) / p.per_repeat);
  return p;
}
template <class T>
auto tensor_operand(const LocalTensor<T>& src1, const BinaryRepeatParams& rp, const char* name,
                    const RepeatPlan& p) {
  check_operand(src1, span_of<T>(p, rp.src1BlkStride, rp.src1RepStride), name, kRead);
  return [src1, rp](uint32_t r, uint32_t e) {
    return load_at<T>(reinterpret_cast<const uint8_t*>(src1.ptr()),
                      elem_at<T>(r, e, rp.src1BlkStride, rp.src1RepStride));
  };
}
inline void require_select_mode(SELMODE m, bool scalar) {
  if (scalar != (m == SELMODE::VSEL_TENSOR_SCALAR_MODE))
    fault(scalar ? "Select with a scalar src1 takes SELMODE::VSEL_TENSOR_SCALAR_MODE"
                 : "Select with a tensor src1 takes SELMODE::VSEL_CMPMASK_SPR or "
                   "VSEL_TENSOR_TENSOR_MODE");
}
}  // namespace detail

template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  detail::require_select_mode(selMode, false);
  const detail::RepeatPlan p = detail::count_plan<T>(count);
  const BinaryRepeatParams rp;
  detail::select_plan(dst, selMask, src0, selMode, p, rp, false,
                      detail::tensor_operand(src1, rp, "Select", p));
}
template <class T, class U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint32_t count) {
  detail::require_select_mode(selMode, true);
  detail::select_plan(dst, selMask, src0, selMode, detail::count_plan<T>(count),
                      BinaryRepeatParams{}, false, [src1](uint32_t, uint32_t) { return src1; });
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::require_select_mode(selMode, false);
  const detail::RepeatPlan p =
      detail::plan_level0<T>("Select", isSetMask, false, mask, 0, repeatTime);
  detail::select_plan(dst, selMask, src0, selMode, p, repeatParams, false,
                      detail::tensor_operand(src1, repeatParams, "Select", p));
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::require_select_mode(selMode, false);
  const detail::RepeatPlan p =
      detail::plan_level0<T>("Select", isSetMask, true, mask[0], mask[1], repeatTime);
  detail::select_plan(dst, selMask, src0, selMode, p, repeatParams, false,
                      detail::tensor_operand(src1, repeatParams, "Select", p));
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::require_select_mode(selMode, true);
  detail::select_plan(dst, selMask, src0, selMode,
                      detail::plan_level0<T>("Select", isSetMask, false, mask, 0, repeatTime),
                      repeatParams, false, [src1](uint32_t, uint32_t) { return src1; });
}
template <class T, class U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams) {
  detail::require_select_mode(selMode, true);
  detail::select_plan(
      dst, selMask, src0, selMode,
      detail::plan_level0<T>("Select", isSetMask, true, mask[0], mask[1], repeatTime), repeatParams,
      false, [src1](uint32_t, uint32_t) { return src1; });
}
// Mode 0 without a selMask argument:
// the CMPMASK register (Compare into
// it, or SetCmpMask) selects, the
// mask register (SetVectorMask)
// filters.
template <class T, SELMODE selMode = SELMODE::VSEL_CMPMASK_SPR>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  const detail::RepeatPlan p =
      detail::plan_level0<T>("Select", false, false, MASK_PLACEHOLDER, 0, repeatTime);
  detail::select_plan(dst, LocalTensor<uint8_t>{}, src0, SELMODE::VSEL_CMPMASK_SPR, p, repeatParams,
                      true, detail::tensor_operand(src1, repeatParams, "Select", p));
}

// ------------------------------------------------------------------
// Copy, Transpose

// Copy inside UB (level 0): blocks
// dstStride / srcStride apart,
// repeats dstRepeatSize /
// srcRepeatSize blocks apart (16- or
// 32-bit elements).
struct CopyRepeatParams {
  CopyRepeatParams() = default;
  CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = 1;
  uint16_t srcStride = 1;
  uint16_t dstRepeatSize = 8;
  uint16_t srcRepeatSize = 8;
};
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          uint8_t repeatTime, const CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ascend-sim: Copy takes 16- or 32-bit elements");
  detail::unary_plan("Copy", dst, src,
                     detail::plan_level0<T>("Copy", isSetMask, true, mask[0], mask[1], repeatTime),
                     detail::Strides(p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize),
                     [](T x) { return x; });
}
template <class T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, uint8_t repeatTime,
          const CopyRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ascend-sim: Copy takes 16- or 32-bit elements");
  detail::unary_plan("Copy", dst, src,
                     detail::plan_level0<T>("Copy", isSetMask, false, mask, 0, repeatTime),
                     detail::Strides(p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize),
                     [](T x) { return x; });
}

// DataCopy inside UB (the vector
// pipe, as Copy): the first count
// elements, a whole number of 32-B
// blocks.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  if (dst.owner() && dst.owner()->core_kind() == ascend::model::CoreKind::Aic)
    detail::fault("DataCopy(LocalTensor, LocalTensor, count): a copy inside an AIV's UB");
  if (uint64_t{count} * sizeof(T) % 32)
    detail::fault("DataCopy UB->UB of " + std::to_string(count) +
                  " elements: not a whole number of 32-B blocks");
  detail::unary("DataCopy", dst, src, count, [](T x) { return x; });
}

// Transpose of one 16 x 16 matrix of
// 16-bit elements (512 B, two
// repeats).
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "ascend-sim: Transpose(dst, src) takes 16-bit elements (16 x 16)");
  detail::check_operand(src, 512, "Transpose", detail::kRead);
  detail::check_operand(dst, 512, "Transpose", detail::kWrite);
  detail::issue_vector("Transpose", detail::repeats_for(256, sizeof(T)), [dst, src] {
    T tmp[256];
    std::memcpy(tmp, src.ptr(), sizeof(tmp));
    T* d = dst.ptr();
    for (uint32_t i = 0; i < 16; ++i)
      for (uint32_t j = 0; j < 16; ++j) d[j * 16 + i] = tmp[i * 16 + j];
  });
}
// CompareScalar: the older name of
// Compares.
template <class T, class U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
                   uint32_t count) {
  Compares(dst, src0, src1, cmpMode, count);
}
template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
                   uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {
  Compares<T, U, isSetMask>(dst, src0, src1, cmpMode, mask, repeatTimes, repeatParams);
}
template <class T, class U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T src1, CMPMODE cmpMode,
                   const uint64_t mask[], uint8_t repeatTimes,
                   const UnaryRepeatParams& repeatParams) {
  Compares<T, U, isSetMask>(dst, src0, src1, cmpMode, mask[0], repeatTimes, repeatParams);
}

}  // namespace AscendC
