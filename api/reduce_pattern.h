// The high-level ReduceMax and ReduceMin over a 2-D shape (Ascend C API: ReduceMax, ReduceMin,
// the Pattern::Reduce::AR / RA forms): srcShape = {rows, cols}, each row padded to 32 B
// (srcInnerPad must be true on A2/A3); AR reduces every row to one value, RA every column.
//
// They are the vector instructions the A2/A3 implementation issues:
//   RA: rows are contiguous, so the k rows past the largest power of two k < rows fold onto the
//       first k with one Max over k x cols elements (into sharedTmpBuffer, or into src itself
//       with isReuseSource), then halving Max until one row is left, which goes to dst.
//   AR: a row within one repeat (256 B) is one WholeReduceMax repeat, a repeat a row; a longer row
//       first folds its repeats into a 256-B row of sharedTmpBuffer (level-0 Max, a repeat a
//       row), which WholeReduceMax then reduces.
// Max and Min are exact whatever the order, so only the timing depends on this sequence.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/reduce.h"
#include "api/stack_buffer.h"
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

namespace Pattern::Reduce {
struct AR {};
struct RA {};
}  // namespace Pattern::Reduce

namespace detail {
// The largest power of two below n (n > 1), or 1.
inline uint32_t fold_rows(uint32_t n) {
  uint32_t k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// The binary step of a reduction: Max, Min or Add (count form and level-0 form).
template <class T, ReduceType op>
void reduce_pattern_binary(const LocalTensor<T>& dst, const LocalTensor<T>& a,
                           const LocalTensor<T>& b, uint32_t count) {
  if constexpr (op == ReduceType::MAX)
    Max(dst, a, b, count);
  else if constexpr (op == ReduceType::MIN)
    Min(dst, a, b, count);
  else
    Add(dst, a, b, count);
}
template <class T, ReduceType op>
void reduce_pattern_binary(const LocalTensor<T>& dst, const LocalTensor<T>& a,
                           const LocalTensor<T>& b, uint64_t mask, uint8_t repeats,
                           const BinaryRepeatParams& p) {
  if constexpr (op == ReduceType::MAX)
    Max(dst, a, b, mask, repeats, p);
  else if constexpr (op == ReduceType::MIN)
    Min(dst, a, b, mask, repeats, p);
  else
    Add(dst, a, b, mask, repeats, p);
}
template <class T, ReduceType op>
void reduce_pattern_whole(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t mask,
                          int32_t repeats, int32_t srcRepStride) {
  if constexpr (op == ReduceType::MAX)
    WholeReduceMax(dst, src, mask, repeats, 1, 1, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
  else if constexpr (op == ReduceType::MIN)
    WholeReduceMin(dst, src, mask, repeats, 1, 1, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE);
  else
    WholeReduceSum(dst, src, mask, repeats, 1, 1, srcRepStride);
}

template <class T, class pattern, bool isReuseSource, ReduceType op>
void reduce_pattern(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const LocalTensor<uint8_t>& tmpBytes, const uint32_t srcShape[],
                    bool srcInnerPad) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half>,
                "ReduceMax/ReduceMin (Pattern::Reduce) take half or float on A2/A3");
  static_assert(
      std::is_same_v<pattern, Pattern::Reduce::AR> || std::is_same_v<pattern, Pattern::Reduce::RA>,
      "ReduceMax/ReduceMin: the pattern is Pattern::Reduce::AR or RA");
  constexpr uint32_t per_block = 32 / sizeof(T), per_repeat = 256 / sizeof(T);
  if (!srcInnerPad)
    fault(std::string(name) + ": srcInnerPad false is not supported on A2/A3 (pad the rows)");
  const uint32_t rows = srcShape[0], cols = srcShape[1];
  if (rows == 0 || cols == 0)
    fault(std::string(name) + ": an empty srcShape {" + std::to_string(rows) + ", " +
          std::to_string(cols) + "}");
  const uint32_t stride = (cols + per_block - 1) / per_block * per_block;
  if (uint64_t{rows} * stride > src.GetSize())
    fault(std::string(name) + ": srcShape {" + std::to_string(rows) + ", " + std::to_string(cols) +
          "} (rows padded to " + std::to_string(stride) + ") exceeds the source tensor of " +
          std::to_string(src.GetSize()));
  const LocalTensor<T> tmp = tmpBytes.template ReinterpretCast<T>();
  if constexpr (std::is_same_v<pattern, Pattern::Reduce::RA>) {
    if (cols > dst.GetSize())
      fault(std::string(name) + ": " + std::to_string(cols) + " results for a dst of " +
            std::to_string(dst.GetSize()));
    if (rows == 1) {
      Copy(dst, src, cols);
      return;
    }
    const uint32_t k = fold_rows(rows);
    const LocalTensor<T> work = isReuseSource ? src : tmp;
    if (!isReuseSource && uint64_t{k} * stride > tmp.GetSize())
      fault(std::string(name) + ": sharedTmpBuffer of " + std::to_string(tmpBytes.GetSize()) +
            " B is below the " + std::to_string(uint64_t{k} * stride * sizeof(T)) +
            " B the RA fold needs");
    // Rows [k, rows) onto rows [0, rows - k); rows [rows - k, k) carried over as they are.
    const uint32_t extra = rows - k;
    if (k == 1) {
      reduce_pattern_binary<T, op>(dst, src, src[stride], cols);
      return;
    }
    reduce_pattern_binary<T, op>(work, src, src[k * stride], extra * stride);
    if (!isReuseSource && extra < k)
      Copy(work[extra * stride], src[extra * stride], (k - extra) * stride);
    PipeBarrier<PIPE_V>();
    for (uint32_t h = k / 2; h >= 1; h /= 2) {
      if (h == 1)
        reduce_pattern_binary<T, op>(dst, work, work[stride], cols);
      else
        reduce_pattern_binary<T, op>(work, work, work[h * stride], h * stride);
      PipeBarrier<PIPE_V>();
    }
  } else {
    if (rows > dst.GetSize())
      fault(std::string(name) + ": " + std::to_string(rows) + " results for a dst of " +
            std::to_string(dst.GetSize()));
    const uint32_t row_blocks = stride / per_block;
    // Rows wider than a repeat stride can reach (255 blocks) are folded one instruction a row.
    const bool wide = row_blocks > 255;
    const uint8_t rep_stride = wide ? 0 : static_cast<uint8_t>(row_blocks);
    LocalTensor<T> in = src;
    int32_t in_rep = static_cast<int32_t>(row_blocks);
    uint32_t width = cols;
    if (cols > per_repeat) {  // fold each row's repeats into one repeat of tmp
      if (uint64_t{rows} * per_repeat > tmp.GetSize())
        fault(std::string(name) + ": sharedTmpBuffer of " + std::to_string(tmpBytes.GetSize()) +
              " B is below the " + std::to_string(uint64_t{rows} * 256) + " B the AR fold needs");
      const CopyRepeatParams first(1, 1, 8, rep_stride);
      const BinaryRepeatParams next(1, 1, 1, 8, 8, rep_stride);
      if (wide) {  // each step one instruction a row, then one barrier
        for (uint32_t r = 0; r < rows; ++r)
          Copy(tmp[r * per_repeat], src[r * stride], uint64_t{per_repeat}, 1, first);
        PipeBarrier<PIPE_V>();
        for (uint32_t c = per_repeat; c < cols; c += per_repeat) {
          const uint64_t m = std::min(per_repeat, cols - c);
          for (uint32_t r = 0; r < rows; ++r)
            reduce_pattern_binary<T, op>(tmp[r * per_repeat], tmp[r * per_repeat],
                                         src[r * stride + c], m, 1, next);
          PipeBarrier<PIPE_V>();
        }
      }
      for (uint32_t r0 = 0; r0 < rows && !wide; r0 += 255) {
        const uint8_t n = static_cast<uint8_t>(std::min(255u, rows - r0));
        Copy(tmp[r0 * per_repeat], src[r0 * stride], uint64_t{per_repeat}, n, first);
        PipeBarrier<PIPE_V>();
        for (uint32_t c = per_repeat; c < cols; c += per_repeat) {
          const uint64_t m = std::min(per_repeat, cols - c);
          reduce_pattern_binary<T, op>(tmp[r0 * per_repeat], tmp[r0 * per_repeat],
                                       src[r0 * stride + c], m, n, next);
          PipeBarrier<PIPE_V>();
        }
      }
      in = tmp;
      in_rep = 8;
      width = per_repeat;
    }
    for (uint32_t r0 = 0; r0 < rows; r0 += 255) {
      const int32_t n = static_cast<int32_t>(std::min(255u, rows - r0));
      const LocalTensor<T> from = in[r0 * static_cast<uint32_t>(in_rep) * per_block];
      reduce_pattern_whole<T, op>(dst[r0], from, static_cast<int32_t>(width), n, in_rep);
    }
  }
}
}  // namespace detail

template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
               bool srcInnerPad) {
  detail::reduce_pattern<T, pattern, isReuseSource, ReduceType::MAX>(
      "ReduceMax", dstTensor, srcTensor, sharedTmpBuffer, srcShape, srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
void ReduceMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const uint32_t srcShape[], bool srcInnerPad) {
  detail::reduce_pattern<T, pattern, isReuseSource, ReduceType::MAX>(
      "ReduceMax", dstTensor, srcTensor, detail::stack_buffer<uint8_t>("ReduceMax"), srcShape,
      srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
void ReduceMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],
               bool srcInnerPad) {
  detail::reduce_pattern<T, pattern, isReuseSource, ReduceType::MIN>(
      "ReduceMin", dstTensor, srcTensor, sharedTmpBuffer, srcShape, srcInnerPad);
}
template <class T, class pattern, bool isReuseSource = false>
void ReduceMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const uint32_t srcShape[], bool srcInnerPad) {
  detail::reduce_pattern<T, pattern, isReuseSource, ReduceType::MIN>(
      "ReduceMin", dstTensor, srcTensor, detail::stack_buffer<uint8_t>("ReduceMin"), srcShape,
      srcInnerPad);
}

}  // namespace AscendC
