// The high-level Transpose with a ConfusionTransposeTiling (Ascend C API: Transpose, the
// TransposeType forms). Modelled: TRANSPOSE_NZ2ND_0213 of 16-bit elements, a source of
// [B, N, H/N / 16, S, 16] (NZ fractals) to [B, S, N, H/N] (ND, axes 1 and 2 swapped): for each
// (b, n, fractal column) one Copy moves its S rows of 32 B to their ND rows (a destination block
// stride of one ND row, eight rows a repeat). The other transpose types fault naming themselves.
#pragma once

#include <cstdint>
#include <string>

#include "api/vector_level0.h"
#if __has_include("kernel_tiling/confusion_transpose_tiling_data.h")
#include "kernel_tiling/confusion_transpose_tiling_data.h"  // the SDK's include root
#else
#include "api/tiling/confusion_transpose_tiling_data.h"  // the source tree's
#endif

namespace AscendC {

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
  TRANSPOSE_ND2ND_021,
};

namespace detail {
template <class T>
void confusion_transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType type,
                         const ConfusionTransposeTiling& t) {
  static_assert(sizeof(T) == 2,
                "ascend-sim: Transpose (TransposeType) is modelled for 16-bit "
                "elements");
  if (type != TransposeType::TRANSPOSE_NZ2ND_0213)
    fault("Transpose: TransposeType " + std::to_string(static_cast<int>(type)) +
          " is not modelled (TRANSPOSE_NZ2ND_0213 is)");
  const uint32_t b = t.param0, n = t.param1, s = t.param2, hn = t.param3;
  if (b == 0 || n == 0 || s == 0 || hn == 0)
    fault("Transpose: an empty ConfusionTransposeTiling (fill it with GetTransposeTilingInfo)");
  if (s % 8 != 0 || hn % 16 != 0)
    fault("Transpose: S " + std::to_string(s) + " and H/N " + std::to_string(hn) +
          " should be multiples of 8 and 16");
  const uint64_t total = uint64_t{b} * n * s * hn;
  if (total > src.GetSize() || total > dst.GetSize())
    fault("Transpose: [" + std::to_string(b) + ", " + std::to_string(n) + ", " + std::to_string(s) +
          ", " + std::to_string(hn) + "] exceeds the source or destination");
  const uint32_t row_blocks = n * hn / 16;  // blocks of one ND row
  if (uint64_t{row_blocks} * 8 > UINT16_MAX) fault("Transpose: ND rows beyond a repeat stride");
  const CopyRepeatParams p(static_cast<uint16_t>(row_blocks), 1,
                           static_cast<uint16_t>(8 * row_blocks), 8);
  const uint32_t fractals = hn / 16;
  for (uint32_t bi = 0; bi < b; ++bi)
    for (uint32_t ni = 0; ni < n; ++ni)
      for (uint32_t f = 0; f < fractals; ++f) {
        const uint64_t from = ((uint64_t{bi} * n + ni) * fractals + f) * s * 16;
        const uint64_t to = uint64_t{bi} * s * n * hn + uint64_t{ni} * hn + f * 16;
        for (uint32_t r0 = 0; r0 < s / 8; r0 += 255)
          Copy(dst[static_cast<uint32_t>(to + uint64_t{r0} * 8 * n * hn)],
               src[static_cast<uint32_t>(from + uint64_t{r0} * 8 * 16)], uint64_t{128},
               static_cast<uint8_t>(std::min<uint32_t>(255, s / 8 - r0)), p);
      }
}
}  // namespace detail

template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer: NZ2ND_0213 needs none*/,
               TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  detail::confusion_transpose(dst, src, transposeType, tiling);
}
template <class T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               ConfusionTransposeTiling& tiling) {
  detail::confusion_transpose(dst, src, transposeType, tiling);
}

}  // namespace AscendC
