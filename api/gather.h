// Gather: dst element i = the element of src at byte offset srcBaseAddr + srcOffset[i] (uint32
// byte offsets, multiples of the element size, inside src). Level 2: the first `count` elements.
// Level 0: repeatTimes repeats of 256 B of dst (dstRepStride 32-B blocks apart), element e of
// repeat r taking offset r * (256 / sizeof(T)) + e, written only where its bit of `mask` is set
// (mask[0] bits 0-63, mask[1] 64-127, LSB first; other elements of dst keep their value). The
// random UB reads of the hardware's gather are not published; one vector instruction, costed as
// every element-wise one per 256 B of dst. The offsets are read when it runs: an offset outside
// src (or not a multiple of the element size) is a kernel fault then.
//
// GatherMask: copies the elements of src0 that a pattern selects, in order, to the front of dst,
// and returns their number in rsvdCnt. The pattern is one of the built-in ones (src1Pattern 1: even
// elements, 2: odd, 3-6: element 0, 1, 2 or 3 of every 4, 7: all) or a bit mask in a tensor (bit i
// of the mask, LSB first in each element of U, selects element i). reduceMode false: repeatTimes
// repeats of 256 B each (src0 blocks src0BlockStride apart, repeats src0RepeatStride blocks apart;
// a tensor mask advances src1RepeatStride blocks per repeat); true (counter mode, as A2/A3 have
// it): `mask` elements in each of repeatTimes repeats (0 counts as 1), laid out by the same
// strides, the pattern applying to each element's place in its repeat.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "api/tensor.h"

namespace AscendC {

struct GatherMaskParams {
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = 0;
  uint8_t src1RepeatStride = 0;
};

namespace detail {
// Which elements of src0 take part, in order: their byte offsets, and their positions in the
// pattern (i: element i of its repeat for a built-in pattern, of the whole mask for a tensor).
struct GatherPlan {
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> bit;  // the mask bit of each, counted over the mask tensor
  uint64_t span = 0;          // bytes of src0 touched
  uint64_t repeats = 0;
};
template <class T>
GatherPlan gather_plan(bool reduce_mode, uint32_t mask, const GatherMaskParams& p) {
  constexpr uint64_t per_repeat = 256 / sizeof(T), per_block = 32 / sizeof(T);
  GatherPlan g;
  if (reduce_mode) {
    // A2/A3's counter mode: `mask` elements in each of repeatTimes repeats (0 counts as 1),
    // src0BlockStride blocks apart within one, src0RepeatStride blocks between them; a tensor
    // pattern is consumed in order within a repeat and advances src1RepeatStride blocks per repeat.
    if (mask == 0) fault("GatherMask: counter mode with mask 0");
    const uint64_t reps = std::max<uint64_t>(1, p.repeatTimes);
    for (uint64_t r = 0; r < reps; ++r)
      for (uint64_t e = 0; e < mask; ++e) {
        uint64_t off = (r * p.src0RepeatStride + (e / per_block) * p.src0BlockStride) * 32 +
                       (e % per_block) * sizeof(T);
        g.offsets.push_back(off);
        g.bit.push_back(r * p.src1RepeatStride * 256 + e);
        g.span = std::max(g.span, off + sizeof(T));
      }
    g.repeats = reps * ((mask + per_repeat - 1) / per_repeat);
    return g;
  }
  if (p.repeatTimes == 0) fault("GatherMask: repeatTimes 0");
  for (uint64_t r = 0; r < p.repeatTimes; ++r)
    for (uint64_t e = 0; e < per_repeat; ++e) {
      uint64_t off = (r * p.src0RepeatStride + (e / per_block) * p.src0BlockStride) * 32 +
                     (e % per_block) * sizeof(T);
      g.offsets.push_back(off);
      g.bit.push_back(r * p.src1RepeatStride * 256 + e);  // 32 B of mask bits per block stride
      g.span = std::max(g.span, off + sizeof(T));
    }
  g.repeats = p.repeatTimes;
  return g;
}
inline bool builtin_selects(uint8_t pattern, uint64_t element) {
  switch (pattern) {
    case 1:
      return element % 2 == 0;
    case 2:
      return element % 2 == 1;
    case 3:
    case 4:
    case 5:
    case 6:
      return element % 4 == uint64_t{pattern} - 3u;
    case 7:
      return true;
    default:
      return false;
  }
}
}  // namespace detail

namespace detail {
template <class T>
void gather(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& offsets, uint32_t base, std::vector<uint64_t> from,
            std::vector<uint64_t> to, uint64_t repeats) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather: 16- or 32-bit elements");
  uint64_t src_bytes = uint64_t{src.GetSize()} * sizeof(T), dst_end = 0, off_end = 0;
  for (size_t i = 0; i < from.size(); ++i) {
    dst_end = std::max(dst_end, (to[i] + 1) * sizeof(T));
    off_end = std::max(off_end, (from[i] + 1) * 4);
  }
  check_operand(offsets, off_end, name, kRead);
  check_operand(src, src_bytes, name, kRead);
  check_operand(dst, dst_end, name, kWrite);
  // The offsets are read when the instruction runs (an earlier vector instruction may write
  // them): one outside src is a kernel fault then, and nothing is written.
  struct Plan {
    std::vector<uint64_t> from, to;
    uint64_t src_bytes;
    uint32_t base;
    const char* name;
  };
  auto plan =
      std::make_shared<const Plan>(Plan{std::move(from), std::move(to), src_bytes, base, name});
  issue_vector(name, repeats, [dst, src, offsets, plan] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    const uint32_t* o = offsets.ptr();
    const Plan& g = *plan;
    for (size_t i = 0; i < g.from.size(); ++i) {
      const uint64_t at = uint64_t{g.base} + o[g.from[i]];
      if (at % sizeof(T) || at + sizeof(T) > g.src_bytes)
        return effect_fault(dst.owner(), std::string(g.name) + ": srcOffset[" +
                                             std::to_string(g.from[i]) +
                                             "] + srcBaseAddr = " + std::to_string(at) +
                                             " B is not an element of its src LocalTensor of " +
                                             std::to_string(g.src_bytes) + " B");
    }
    for (size_t i = 0; i < g.from.size(); ++i)
      std::memcpy(&d[g.to[i]], s + uint64_t{g.base} + o[g.from[i]], sizeof(T));
  });
}
}  // namespace detail

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, uint32_t count) {
  if (count == 0) detail::fault("Gather of 0 elements");
  std::vector<uint64_t> idx(count);
  for (uint32_t i = 0; i < count; ++i) idx[i] = i;
  detail::gather("Gather", dst, src, srcOffset, srcBaseAddr, idx, idx,
                 detail::repeats_for(count, sizeof(T)));
}

template <class T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, const uint64_t mask[2],
            uint8_t repeatTimes, uint16_t dstRepStride) {
  if (repeatTimes == 0) detail::fault("Gather: repeatTimes 0");
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  std::vector<uint64_t> from, to;
  for (uint64_t r = 0; r < repeatTimes; ++r)
    for (uint64_t e = 0; e < per_repeat; ++e)
      if ((mask[e / 64] >> (e % 64)) & 1) {
        from.push_back(r * per_repeat + e);
        to.push_back(r * dstRepStride * (32 / sizeof(T)) + e);
      }
  if (from.empty()) detail::fault("Gather: a mask that selects no element");
  detail::gather("Gather", dst, src, srcOffset, srcBaseAddr, from, to, repeatTimes);
}

template <class T>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, uint8_t src1Pattern,
                bool reduceMode, uint32_t mask, const GatherMaskParams& params, uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7)
    detail::fault("GatherMask: built-in pattern " + std::to_string(src1Pattern) +
                  " outside [1, 7]");
  detail::GatherPlan g = detail::gather_plan<T>(reduceMode, mask, params);
  constexpr uint64_t per_repeat = 256 / sizeof(T);
  uint64_t n = 0;
  for (size_t i = 0; i < g.offsets.size(); ++i)
    n += detail::builtin_selects(src1Pattern, reduceMode ? g.bit[i] : i % per_repeat);
  detail::check_operand(src0, g.span, "GatherMask", detail::kRead);
  detail::check_operand(dst, std::max<uint64_t>(n, 1) * sizeof(T), "GatherMask", detail::kWrite);
  rsvdCnt = n;  // known at issue: the pattern does not depend on the data
  detail::issue_vector("GatherMask", g.repeats, [dst, src0, src1Pattern, reduceMode, g] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src0.ptr());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    uint64_t out = 0;
    for (size_t i = 0; i < g.offsets.size(); ++i)
      if (detail::builtin_selects(src1Pattern, reduceMode ? g.bit[i] : i % per_repeat))
        std::memcpy(d + sizeof(T) * out++, s + g.offsets[i], sizeof(T));
  });
}

// The same with a bit mask in src1 (U: uint16_t for 2-byte elements, uint32_t for 4-byte ones).
// The count of selected elements depends on the mask's bits, which the scalar reads when the
// instruction is issued: the mask must already be in UB (as the hardware's own rsvdCnt needs a
// V_S wait, this model reads it at issue; a mask still being written is a race the check sees).
template <class T, class U>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, bool reduceMode, uint32_t mask,
                const GatherMaskParams& params, uint64_t& rsvdCnt) {
  static_assert(sizeof(U) == sizeof(T) || sizeof(U) == 4,
                "GatherMask: the mask's element type has the size of T (or 4 bytes)");
  detail::GatherPlan g = detail::gather_plan<T>(reduceMode, mask, params);
  uint64_t bits = 0;
  for (uint64_t b : g.bit) bits = std::max(bits, b + 1);
  uint64_t mask_bytes = (bits + 8 * sizeof(U) - 1) / (8 * sizeof(U)) * sizeof(U);
  detail::check_operand(src0, g.span, "GatherMask", detail::kRead);
  detail::check_operand(src1Pattern, mask_bytes, "GatherMask", detail::kRead);
  const uint8_t* m = reinterpret_cast<const uint8_t*>(src1Pattern.ptr());
  auto selected = [m](uint64_t bit) { return (m[bit / 8] >> (bit % 8)) & 1; };
  uint64_t n = 0;
  for (uint64_t b : g.bit) n += selected(b);
  detail::check_operand(dst, std::max<uint64_t>(n, 1) * sizeof(T), "GatherMask", detail::kWrite);
  rsvdCnt = n;
  detail::issue_vector("GatherMask", g.repeats, [dst, src0, src1Pattern, g] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src0.ptr());
    const uint8_t* bits = reinterpret_cast<const uint8_t*>(src1Pattern.ptr());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    uint64_t out = 0;
    for (size_t i = 0; i < g.offsets.size(); ++i)
      if ((bits[g.bit[i] / 8] >> (g.bit[i] % 8)) & 1)
        std::memcpy(d + sizeof(T) * out++, s + g.offsets[i], sizeof(T));
  });
}

// Gatherb: repeatTime repeats of 8 blocks of 32 B; block j of repeat r is copied from src at
// byte offset[r x 8 + j] (uint32_t, a 32-B multiple) to dst block r x dstRepStride +
// j x dstBlkStride (a dstBlkStride of 0 counts as 1).
struct GatherRepeatParams {
  GatherRepeatParams() = default;
  GatherRepeatParams(uint8_t dstBlk, uint8_t dstRep) : dstBlkStride(dstBlk), dstRepStride(dstRep) {}
  uint32_t blockNumber = 8;  // reserved
  uint8_t dstBlkStride = 1;
  uint8_t dstRepStride = 8;
};
template <class T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, uint8_t repeatTime, const GatherRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gatherb: 16- or 32-bit elements");
  if (repeatTime == 0) return;
  const uint32_t blk = p.dstBlkStride ? p.dstBlkStride : 1, rep = p.dstRepStride;
  detail::check_operand(offset, uint64_t{repeatTime} * 8 * 4, "Gatherb", detail::kRead);
  const uint64_t src_bytes = uint64_t{src.GetSize()} * sizeof(T);
  detail::check_operand(src, src_bytes, "Gatherb", detail::kRead);
  detail::check_operand(dst, ((uint64_t{repeatTime} - 1) * rep + 7ull * blk + 1) * 32, "Gatherb",
                        detail::kWrite);
  detail::issue_vector("Gatherb", repeatTime, [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    const uint32_t* o = offset.ptr();
    for (uint32_t i = 0; i < uint32_t{repeatTime} * 8; ++i)
      if (o[i] % 32 || o[i] + 32ull > src_bytes)
        return detail::effect_fault(dst.owner(), "Gatherb: offset[" + std::to_string(i) +
                                                     "] = " + std::to_string(o[i]) +
                                                     " B is not a 32-B block of its src of " +
                                                     std::to_string(src_bytes) + " B");
    for (uint32_t r = 0; r < repeatTime; ++r)
      for (uint32_t j = 0; j < 8; ++j)
        std::memcpy(d + (uint64_t{r} * rep + uint64_t{j} * blk) * 32, s + o[r * 8 + j], 32);
  });
}

}  // namespace AscendC
