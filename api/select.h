// Select with a byte mask (Ascend C API: Select, the SelectWithBytesMask form): dst[i] is the
// tensor's element where mask[i] is 0 and the scalar elsewhere, or, with the scalar first, the
// scalar where mask[i] is 0 and the tensor's element elsewhere. mask has one element (1, 2 or
// 4 B) a value, and the same firstAxis as the source.
//
// The A2/A3 sequence, chunk by chunk of the caller's sharedTmpBuffer: Cast of the mask to half,
// CompareScalar with 0 (EQ, or NE when the scalar comes first) into a bit mask, then Select in
// tensor-scalar mode. A chunk is a multiple of 128 elements (one half repeat of the compare),
// taking 2 B of half mask and 1 bit an element. A mask whose rows are longer than the source's
// (Ascend C compacts it with GatherMask first) is not modelled: a kernel fault says so.
//
// DropOut (Ascend C API: DropOut): dst = src where the mask keeps it, else 0, then Muls by
// 1 / keepProb (rounded to float first, as the hardware's scalar is). A mask of one bit an element
// (maskLastAxis x 8 = srcLastAxis) is one Select over the bits; a mask of one byte an element
// (maskLastAxis = srcLastAxis) is the byte-mask Select above. Other mask widths are not modelled.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/stack_buffer.h"
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace detail {
constexpr uint32_t kSelectBucketUnit = 128;  // halves a compare repeat
// The bytes a chunk of `bucket` elements takes: its bits (32-B aligned), then its halves.
inline uint32_t select_bucket_bytes(uint32_t bucket) {
  return (bucket / 8 + 31) / 32 * 32 + bucket * 2;
}

template <bool reverse, class T, class U>
void select_bytes_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar,
                       const LocalTensor<U>& mask, const LocalTensor<uint8_t>& tmp,
                       const SelectWithBytesMaskShapeInfo& info) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Select (bytes mask) takes half or float on A2/A3");
  static_assert(sizeof(U) == 1 || sizeof(U) == 2 || sizeof(U) == 4,
                "Select (bytes mask): a mask of 1-, 2- or 4-byte elements");
  if (info.srcLastAxis != info.maskLastAxis)
    fault("Select: a mask row of " + std::to_string(info.maskLastAxis) +
          " elements for source rows of " + std::to_string(info.srcLastAxis) +
          ": compacting the mask (GatherMask) is not modelled; pass rows of one length");
  if (info.maskLastAxis * sizeof(U) % 32 != 0 || info.maskLastAxis % 16 != 0)
    fault("Select: mask rows of " + std::to_string(info.maskLastAxis) +
          " elements, not 32-B aligned and a multiple of 16");
  const uint64_t total = uint64_t{info.firstAxis} * info.srcLastAxis;
  if (total == 0) return;
  if (total > src.GetSize() || total > dst.GetSize() || total > mask.GetSize())
    fault("Select: firstAxis x srcLastAxis = " + std::to_string(total) +
          " exceeds the source, destination or mask tensor");
  uint32_t bucket = kSelectBucketUnit;
  while (select_bucket_bytes(bucket + kSelectBucketUnit) <= tmp.GetSize() && bucket < total)
    bucket += kSelectBucketUnit;
  if (select_bucket_bytes(bucket) > tmp.GetSize())
    fault("Select: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) + " B is below the " +
          std::to_string(select_bucket_bytes(kSelectBucketUnit)) + " B of one chunk");
  const uint32_t bits_bytes = (bucket / 8 + 31) / 32 * 32;
  const LocalTensor<uint8_t> bits = tmp;
  const LocalTensor<half> halves = tmp[bits_bytes].template ReinterpretCast<half>();
  using Raw = std::conditional_t<sizeof(U) == 1, uint8_t,
                                 std::conditional_t<sizeof(U) == 2, int16_t, float>>;
  const LocalTensor<Raw> raw = mask.template ReinterpretCast<Raw>();
  const UnaryRepeatParams cmp;
  for (uint64_t off = 0; off < total; off += bucket) {
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(bucket, total - off));
    Cast(halves, raw[off], sizeof(U) == 4 ? RoundMode::CAST_ODD : RoundMode::CAST_NONE, n);
    PipeBarrier<PIPE_V>();
    const uint8_t repeats = static_cast<uint8_t>((n + kSelectBucketUnit - 1) / kSelectBucketUnit);
    CompareScalar(bits, halves, static_cast<half>(0.0f), reverse ? CMPMODE::NE : CMPMODE::EQ,
                  uint64_t{kSelectBucketUnit}, repeats, cmp);
    PipeBarrier<PIPE_V>();
    Select(dst[off], bits, src[off], scalar, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    PipeBarrier<PIPE_V>();
  }
}
}  // namespace detail

template <class T, class U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info) {
  detail::select_bytes_mask<false>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <class T, class U, bool isReuseMask = true>
void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
            const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
            const SelectWithBytesMaskShapeInfo& info) {
  detail::select_bytes_mask<true>(dst, src1, src0, mask, sharedTmpBuffer, info);
}

struct DropOutShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace detail {
template <class T>
void dropout_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>& mask, const LocalTensor<uint8_t>& tmp, float keepProb,
                  const DropOutShapeInfo& info) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "DropOut takes half or float on A2/A3");
  if (!(keepProb > 0.0f && keepProb < 1.0f) && keepProb != 1.0f)
    fault("DropOut: keepProb " + std::to_string(keepProb) + " is outside (0, 1]");
  const uint64_t total = uint64_t{info.firstAxis} * info.srcLastAxis;
  if (total == 0) return;
  if (total > src.GetSize() || total > dst.GetSize())
    fault("DropOut: firstAxis x srcLastAxis = " + std::to_string(total) +
          " exceeds the source or destination tensor");
  if (uint64_t{info.maskLastAxis} * 8 == info.srcLastAxis) {  // a bit an element
    if (total / 8 > mask.GetSize())
      fault("DropOut: " + std::to_string(total) + " mask bits exceed the mask tensor");
    Select(dst, mask, src, static_cast<T>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE,
           static_cast<uint32_t>(total));
  } else if (info.maskLastAxis == info.srcLastAxis) {  // a byte an element
    SelectWithBytesMaskShapeInfo s;
    s.firstAxis = info.firstAxis;
    s.srcLastAxis = info.srcLastAxis;
    s.maskLastAxis = info.maskLastAxis;
    select_bytes_mask<true>(dst, src, static_cast<T>(0.0f), mask, tmp, s);
  } else {
    fault("DropOut: mask rows of " + std::to_string(info.maskLastAxis) +
          " bytes for source rows of " + std::to_string(info.srcLastAxis) +
          ": only a bit or a byte an element is modelled (not a mask to compact)");
  }
  PipeBarrier<PIPE_V>();
  Muls(dst, dst, static_cast<T>(1.0f / keepProb), static_cast<uint32_t>(total));
}
}  // namespace detail

template <class T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
             const float keepProb, const DropOutShapeInfo& info) {
  detail::dropout_impl(dstLocal, srcLocal, maskLocal, sharedTmpBuffer, keepProb, info);
}
template <class T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const float keepProb,
             const DropOutShapeInfo& info) {
  detail::dropout_impl(dstLocal, srcLocal, maskLocal, detail::stack_buffer<uint8_t>("DropOut"),
                       keepProb, info);
}

}  // namespace AscendC
