// Reductions (ReduceMax, ReduceSum), per-block reductions and broadcasts (BlockReduceMax, Brcb).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "sim/api/tensor.h"

namespace AscendC {

// Reductions write the result to dst[0] (and with calIndex the index of the first maximum to
// dst[1], as the raw bits of an unsigned integer of T's size). The sum accumulates left to right
// in T's precision; the hardware reduces as a tree, so the last bits of a long fp sum can differ.
template <class T>
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count, bool calIndex = false) {
  (void)work;
  if (count == 0) detail::fault("ReduceMax of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceMax", detail::kRead);
  detail::check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), "ReduceMax", detail::kWrite);
  detail::issue_vector(
      "ReduceMax", detail::repeats_for(count, sizeof(T)), [dst, src, count, calIndex] {
        const T* s = src.ptr();
        uint32_t best = 0;
        for (uint32_t i = 1; i < count; ++i)
          if (to_double(s[i]) > to_double(s[best])) best = i;
        T* d = dst.ptr();
        d[0] = s[best];
        if (calIndex) {
          using I = std::conditional_t<sizeof(T) == 4, uint32_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
          I idx = static_cast<I>(best);
          std::memcpy(&d[1], &idx, sizeof(T));
        }
      });
}
template <class T>
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count, bool calIndex = false) {
  (void)work;
  if (count == 0) detail::fault("ReduceMin of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceMin", detail::kRead);
  detail::check_operand(dst, (calIndex ? 2 : 1) * sizeof(T), "ReduceMin", detail::kWrite);
  detail::issue_vector(
      "ReduceMin", detail::repeats_for(count, sizeof(T)), [dst, src, count, calIndex] {
        const T* s = src.ptr();
        uint32_t best = 0;
        for (uint32_t i = 1; i < count; ++i)
          if (to_double(s[i]) < to_double(s[best])) best = i;
        T* d = dst.ptr();
        d[0] = s[best];
        if (calIndex) {
          using I = std::conditional_t<sizeof(T) == 4, uint32_t,
                                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>;
          I idx = static_cast<I>(best);
          std::memcpy(&d[1], &idx, sizeof(T));
        }
      });
}
template <class T>
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               uint32_t count) {
  (void)work;
  if (count == 0) detail::fault("ReduceSum of 0 elements");
  detail::check_operand(src, uint64_t{count} * sizeof(T), "ReduceSum", detail::kRead);
  detail::check_operand(dst, sizeof(T), "ReduceSum", detail::kWrite);
  detail::issue_vector("ReduceSum", detail::repeats_for(count, sizeof(T)), [dst, src, count] {
    const T* s = src.ptr();
    T acc = s[0];
    for (uint32_t i = 1; i < count; ++i) acc = detail::add(acc, s[i]);
    dst.ptr()[0] = acc;
  });
}

// WholeReduceSum: each of `repeatTimes` repeats sums the first `mask` elements of its 8 blocks
// (srcBlkStride / srcRepStride in 32-B blocks) left to right in T's precision and writes the
// sum to dst[r x dstRepStride].
template <class T>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask,
                    int32_t repeatTimes, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  constexpr int32_t per_block = 32 / sizeof(T);
  if (mask < 1 || mask > 8 * per_block || repeatTimes < 0 || repeatTimes > 255)
    detail::fault("WholeReduceSum: mask " + std::to_string(mask) + " (1 to " +
                  std::to_string(8 * per_block) + ") or repeatTimes " +
                  std::to_string(repeatTimes) + " (0 to 255) out of range");
  if (repeatTimes == 0) return;
  int32_t blocks = (mask + per_block - 1) / per_block;
  detail::check_operand(
      src,
      (uint64_t(repeatTimes - 1) * srcRepStride + uint64_t(blocks - 1) * srcBlkStride) * 32 +
          uint64_t((mask - 1) % per_block + 1) * sizeof(T),
      "WholeReduceSum", detail::kRead);
  detail::check_operand(dst, (uint64_t(repeatTimes - 1) * dstRepStride + 1) * sizeof(T),
                        "WholeReduceSum", detail::kWrite);
  detail::issue_vector("WholeReduceSum", static_cast<uint64_t>(repeatTimes), [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    for (int32_t r = 0; r < repeatTimes; ++r) {
      T acc{};
      for (int32_t e = 0; e < mask; ++e) {
        T x;
        std::memcpy(&x,
                    s + (uint64_t(r) * srcRepStride + uint64_t(e / per_block) * srcBlkStride) * 32 +
                        uint64_t(e % per_block) * sizeof(T),
                    sizeof(T));
        acc = e == 0 ? x : detail::add(acc, x);
      }
      d[uint64_t(r) * dstRepStride] = acc;
    }
  });
}

// Per-block reductions and broadcasts (the communication quantization of combine uses them).
// BlockReduceMax: each repeat reads up to 8 blocks of 32 B from src (`mask` elements of the
// repeat, srcBlkStride / srcRepStride in blocks) and writes one maximum per block, 8 results per
// repeat; dstRepStride is in units of one repeat's results (8 elements), so 1 packs them.
template <class T>
void BlockReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat,
                    int32_t mask, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  constexpr int32_t per_block = 32 / sizeof(T);
  if (mask < 1 || mask > 8 * per_block || repeat < 0 || repeat > 255)
    detail::fault("BlockReduceMax: mask " + std::to_string(mask) + " or repeat " +
                  std::to_string(repeat) + " out of range");
  int32_t blocks = (mask + per_block - 1) / per_block;
  if (repeat == 0) return;
  detail::check_operand(
      src,
      (uint64_t(repeat - 1) * srcRepStride + uint64_t(blocks - 1) * srcBlkStride) * 32 +
          uint64_t((mask - 1) % per_block + 1) * sizeof(T),
      "BlockReduceMax", detail::kRead);
  detail::check_operand(dst, (uint64_t(repeat - 1) * dstRepStride * 8 + blocks) * sizeof(T),
                        "BlockReduceMax", detail::kWrite);
  detail::issue_vector("BlockReduceMax", static_cast<uint64_t>(repeat), [=] {
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr());
    T* d = dst.ptr();
    for (int32_t r = 0; r < repeat; ++r)
      for (int32_t b = 0; b < blocks; ++b) {
        int32_t n = std::min(per_block, mask - b * per_block);
        const uint8_t* blk = s + (uint64_t(r) * srcRepStride + uint64_t(b) * srcBlkStride) * 32;
        T best;
        std::memcpy(&best, blk, sizeof(T));
        for (int32_t i = 1; i < n; ++i) {
          T x;
          std::memcpy(&x, blk + i * sizeof(T), sizeof(T));
          if (to_double(x) > to_double(best)) best = x;
        }
        d[uint64_t(r) * dstRepStride * 8 + b] = best;
      }
  });
}
// Brcb: each repeat reads 8 consecutive elements of src and fills one 32-B block of dst with
// each (block j of repeat r at (r x dstRepStride + j x dstBlkStride) x 32 B).
struct BrcbRepeatParams {
  uint16_t dstBlkStride = 1;
  uint16_t dstRepStride = 8;
};
template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint8_t repeatTimes,
          const BrcbRepeatParams& p) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  if (repeatTimes == 0) return;
  detail::check_operand(src, uint64_t{repeatTimes} * 8 * sizeof(T), "Brcb", detail::kRead);
  detail::check_operand(
      dst, (uint64_t{repeatTimes - 1u} * p.dstRepStride + 7ull * p.dstBlkStride + 1) * 32, "Brcb",
      detail::kWrite);
  detail::issue_vector("Brcb", repeatTimes, [=] {
    const T* s = src.ptr();
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r)
      for (uint32_t j = 0; j < 8; ++j) {
        T v = s[r * 8 + j];
        uint8_t* blk = d + (uint64_t{r} * p.dstRepStride + uint64_t{j} * p.dstBlkStride) * 32;
        for (uint32_t i = 0; i < per_block; ++i) std::memcpy(blk + i * sizeof(T), &v, sizeof(T));
      }
  });
}

}  // namespace AscendC
