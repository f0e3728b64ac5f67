// TopK (Ascend C API: TopK), the NORMAL mode for float: the k largest (or smallest) of each of
// topKInfo.outter rows of inner elements (n of them valid, the rest padding that does not win),
// with their indices, into rows of k_pad values and kpad_index indices (only the first k
// written). Per row, the vector instructions: for the smallest, Muls by -1 (so the largest of
// the negation win); CreateVecIndex of 0 .. inner-1 unless isInitIndex passes the indices; the
// full Sort of the row into (score, index) proposals; Extract; Copy of the first k values (Muls
// by -1 back for the smallest) and indices. With isHasfinish, a row whose finishLocal is true
// gets the index n k times (the scalar unit reads the flag, a Duplicate writes them).
// Ties keep the lower index first (the model's Sort is stable).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/sort.h"
#include "api/stack_buffer.h"
#include "api/sync.h"
#include "api/tpipe.h"
#include "api/vector.h"
#if __has_include("kernel_tiling/topk_tiling_data.h")
#include "kernel_tiling/topk_tiling_data.h"  // the SDK's include root (a kernel, the package)
#else
#include "api/tiling/topk_tiling_data.h"  // the source tree's (the tests)
#endif

namespace AscendC {

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner = 32;
  int32_t n = 32;
};

namespace detail {
template <class T, bool isInitIndex, bool isHasfinish, TopKMode topkMode>
void topk_impl(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex,
               const LocalTensor<T>& src, const LocalTensor<int32_t>& srcIndex,
               const LocalTensor<bool>& finish, const LocalTensor<uint8_t>& tmp, int32_t k,
               const TopKInfo& info, bool isLargest) {
  static_assert(std::is_same_v<T, float>, "ascend-sim: TopK is modelled for float only");
  if (topkMode != TopKMode::TOPK_NORMAL)
    fault("TopK: the TOPK_NSMALL mode is not modelled (TOPK_NORMAL is)");
  const int32_t outter = info.outter, inner = info.inner, n = info.n;
  if (inner <= 0 || inner % 32 != 0 || inner > 4096 || outter <= 0 || n < 1 || n > inner)
    fault("TopK: topKInfo {outter " + std::to_string(outter) + ", inner " + std::to_string(inner) +
          ", n " + std::to_string(n) + "}: inner a multiple of 32 up to 4096, 1 <= n <= inner");
  if (k < 1 || k > n) fault("TopK: k " + std::to_string(k) + " outside [1, n]");
  const uint32_t rows = static_cast<uint32_t>(outter), len = static_cast<uint32_t>(inner),
                 kk = static_cast<uint32_t>(k);
  const uint32_t kpad = (kk + 7) / 8 * 8;
  if (uint64_t{rows} * len > src.GetSize() || uint64_t{rows} * kpad > dstValue.GetSize() ||
      uint64_t{rows} * kpad > dstIndex.GetSize())
    fault("TopK: " + std::to_string(rows) + " rows exceed the source or a destination");
  if (uint64_t{len} * 32 > tmp.GetSize())
    fault("TopK: a temporary of " + std::to_string(tmp.GetSize()) + " B is below the " +
          std::to_string(len * 32) + " B a row takes");
  const LocalTensor<float> scores = tmp.template ReinterpretCast<float>();
  const LocalTensor<uint32_t> index = tmp[len * 4].template ReinterpretCast<uint32_t>();
  const LocalTensor<float> sorted = tmp[len * 8].template ReinterpretCast<float>();
  const LocalTensor<float> scratch = tmp[len * 16].template ReinterpretCast<float>();
  const LocalTensor<float> vals = tmp[len * 24].template ReinterpretCast<float>();
  const LocalTensor<uint32_t> idxs = tmp[len * 28].template ReinterpretCast<uint32_t>();
  if constexpr (isInitIndex)
    Copy(index.template ReinterpretCast<int32_t>(), srcIndex, len);
  else
    CreateVecIndex(index.template ReinterpretCast<int32_t>(), 0, len);
  const int32_t repeats = inner / 32;
  for (uint32_t r = 0; r < rows; ++r) {
    PipeBarrier<PIPE_V>();
    if (isLargest)
      Copy(scores, src[r * len], len);
    else
      Muls(scores, src[r * len], -1.0f, len);
    PipeBarrier<PIPE_V>();
    Sort<float, true>(sorted, scores, index, scratch, repeats);
    PipeBarrier<PIPE_V>();
    Extract(vals, idxs, sorted, repeats);
    PipeBarrier<PIPE_V>();
    if (isLargest)
      Copy(dstValue[r * kpad], vals, kk);
    else
      Muls(dstValue[r * kpad], vals, -1.0f, kk);
    Copy(dstIndex[r * kpad], idxs.template ReinterpretCast<int32_t>(), kk);
  }
  if constexpr (isHasfinish) {
    const TEventID vs = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    bool any = false;
    for (uint32_t r = 0; r < rows; ++r) {
      if (!finish.GetValue(r)) continue;
      if (!any) {
        const TEventID sv = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
      }
      any = true;
      Duplicate(dstIndex[r * kpad], n, kk);
    }
  }
}
}  // namespace detail

template <class T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
          const int32_t k, const TopkTiling& /*tiling: the shape is topKInfo's*/,
          const TopKInfo& topKInfo, const bool isLargest = true) {
  detail::topk_impl<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal,
                                                           srcIndexLocal, finishLocal, tmpLocal, k,
                                                           topKInfo, isLargest);
}
template <class T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL>
void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
          const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
          const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tiling,
          const TopKInfo& topKInfo, const bool isLargest = true) {
  TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(
      dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal, finishLocal,
      detail::stack_buffer<uint8_t>("TopK"), k, tiling, topKInfo, isLargest);
}

}  // namespace AscendC
