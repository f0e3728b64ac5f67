// The host side of LayerNorm, LayerNormGrad and LayerNormGradBeta (Ascend C API: LayerNorm-Tiling,
// LayerNormGrad-Tiling, LayerNormGradBeta-Tiling): the optiling classes (the fields of
// kernel_tiling/layernorm_tiling_data.h with set_/get_, GetDataSize, SaveToBuffer), the temporary
// sizes and the ND tiling functions, for api/layernorm.h, which takes the whole [B, S, H] (or
// [B, S, H, original H], the two H equal) in one pass: its temporaries
// (ascend_sim_layernorm_tmp_bytes) are the minimum and the maximum.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "../graph/tensor.h"
#include "../kernel_tiling/layernorm_tiling_data.h"
#include "pad_tiling_host.h"  // optiling::detail::tiling_fail, AscendC::TensorShape

namespace optiling {
#define ASCEND_SIM_TILING_ACCESSORS(type, name) \
  void set_##name(type v) {                     \
    data_.name = v;                             \
  }                                             \
  type get_##name() const {                     \
    return data_.name;                          \
  }
#define ASCEND_SIM_LAYERNORM_CLASS(Class, FIELDS)                                              \
  class Class {                                                                                \
   public:                                                                                     \
    FIELDS(ASCEND_SIM_TILING_ACCESSORS)                                                        \
    size_t GetDataSize() const { return sizeof(data_); }                                       \
    void SaveToBuffer(void* buffer, size_t capacity) const {                                   \
      if (buffer == nullptr || capacity < sizeof(data_))                                       \
        detail::tiling_fail(#Class "::SaveToBuffer: a buffer of " + std::to_string(capacity) + \
                            " B for " + std::to_string(sizeof(data_)) + " B of tiling");       \
      std::memcpy(buffer, &data_, sizeof(data_));                                              \
    }                                                                                          \
    const ::Class& data() const { return data_; }                                              \
                                                                                               \
   private:                                                                                    \
    ::Class data_;                                                                             \
  };
ASCEND_SIM_LAYERNORM_CLASS(LayerNormTiling, ASCEND_SIM_LAYERNORM_TILING_FIELDS)
ASCEND_SIM_LAYERNORM_CLASS(LayerNormGradTiling, ASCEND_SIM_LAYERNORM_GRAD_TILING_FIELDS)
ASCEND_SIM_LAYERNORM_CLASS(LayerNormGradBetaTiling, ASCEND_SIM_LAYERNORM_GRAD_BETA_TILING_FIELDS)
ASCEND_SIM_LAYERNORM_CLASS(RmsNormTiling, ASCEND_SIM_RMSNORM_TILING_FIELDS)
ASCEND_SIM_LAYERNORM_CLASS(DeepNormTiling, ASCEND_SIM_LAYERNORM_TILING_FIELDS)
ASCEND_SIM_LAYERNORM_CLASS(LayerNormSeparateTiling, ASCEND_SIM_LAYERNORM_SEPARATE_TILING_FIELDS)
#undef ASCEND_SIM_LAYERNORM_CLASS
#undef ASCEND_SIM_TILING_ACCESSORS
}  // namespace optiling

namespace AscendC {
namespace layernorm_tiling_detail {
enum class Kind { Forward, Grad, GradBeta };
inline void shape_of(const char* fn, const TensorShape& shape, uint32_t typeSize, uint32_t& m,
                     uint32_t& h) {
  if (typeSize != 4)
    optiling::detail::tiling_fail(std::string(fn) + ": typeSize " + std::to_string(typeSize) +
                                  ", only 4 (float) is modelled");
  if ((shape.GetDimNum() != 3 && shape.GetDimNum() != 4) || shape.GetShapeSize() <= 0)
    optiling::detail::tiling_fail(std::string(fn) +
                                  ": srcShape should be [B, S, H] or [B, S, H, original H]");
  if (shape.GetDimNum() == 4 && shape.GetDim(3) != shape.GetDim(2))
    optiling::detail::tiling_fail(std::string(fn) +
                                  ": an original H below H (padding columns) "
                                  "is not modelled");
  h = static_cast<uint32_t>(shape.GetDim(2));
  m = static_cast<uint32_t>(shape.GetDim(0) * shape.GetDim(1));
}
}  // namespace layernorm_tiling_detail

// The bytes of api/layernorm.h's temporaries for m rows of h.
inline uint32_t ascend_sim_layernorm_tmp_bytes(layernorm_tiling_detail::Kind kind, uint32_t m,
                                               uint32_t h) {
  const uint32_t a8 = (m + 7) / 8 * 8;
  const uint32_t fold = h * 4 > 256 ? m * 256 : 0;
  switch (kind) {
    case layernorm_tiling_detail::Kind::Forward:
      return (m * h + a8 + 8 * m) * 4 + fold;
    case layernorm_tiling_detail::Kind::Grad:
      return (3 * m * h + 16 * m + 8 * a8) * 4 + fold;
    default:
      return 2 * m * h * 4;
  }
}

#define ASCEND_SIM_LAYERNORM_TMP(Name, KIND)                                               \
  inline void Name(const TensorShape& srcShape, const uint32_t typeSize,                   \
                   const bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) { \
    uint32_t m = 0, h = 0;                                                                 \
    layernorm_tiling_detail::shape_of(#Name, srcShape, typeSize, m, h);                    \
    maxValue = minValue =                                                                  \
        ascend_sim_layernorm_tmp_bytes(layernorm_tiling_detail::Kind::KIND, m, h);         \
  }
ASCEND_SIM_LAYERNORM_TMP(GetLayerNormMaxMinTmpSize, Forward)
ASCEND_SIM_LAYERNORM_TMP(GetLayerNormGradMaxMinTmpSize, Grad)
ASCEND_SIM_LAYERNORM_TMP(GetLayerNormGradBetaMaxMinTmpSize, GradBeta)
#undef ASCEND_SIM_LAYERNORM_TMP

inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool /*isReuseSource*/,
                                     optiling::LayerNormTiling& tiling) {
  uint32_t m = 0, h = 0;
  layernorm_tiling_detail::shape_of("GetLayerNormNDTilingInfo", srcShape, typeSize, m, h);
  tiling.set_bLength(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_sLength(static_cast<uint32_t>(srcShape.GetDim(1)));
  tiling.set_hLength(h);
  tiling.set_originalHLength(h);
  tiling.set_inputXSize(m * h);
  tiling.set_meanVarSize(m);
  tiling.set_tmpBufSize(stackBufferSize);
  tiling.set_loopRound(1);
  tiling.set_bshCurLength(m * h);
  tiling.set_bsCurLength(m);
  tiling.set_lastDimValueBack(1.0f / static_cast<float>(h));
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool /*isReuseSource*/,
                                         optiling::LayerNormGradTiling& tiling) {
  uint32_t m = 0, h = 0;
  layernorm_tiling_detail::shape_of("GetLayerNormGradNDTilingInfo", srcShape, typeSize, m, h);
  tiling.set_stackBufferSize(stackBufferSize);
  tiling.set_bLength(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_sLength(static_cast<uint32_t>(srcShape.GetDim(1)));
  tiling.set_hLength(h);
  tiling.set_originalHLength(h);
  tiling.set_oneCalSize(m * h);
  tiling.set_nohCalSize(m);
  tiling.set_loopNum(1);
  const float back = 1.0f / static_cast<float>(h), back2 = 2.0f / static_cast<float>(h);
  uint32_t bits = 0;
  std::memcpy(&bits, &back, 4);
  tiling.set_lastDimValueBack(bits);  // a float's bits, as Ascend C keeps it
  std::memcpy(&bits, &back2, 4);
  tiling.set_lastDimValueBackMulTwo(bits);
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool /*isReuseSource*/,
                                             optiling::LayerNormGradBetaTiling& tiling) {
  uint32_t m = 0, h = 0;
  layernorm_tiling_detail::shape_of("GetLayerNormGradBetaNDTilingInfo", srcShape, typeSize, m, h);
  tiling.set_stackBufferSize(stackBufferSize);
  tiling.set_bLength(static_cast<uint32_t>(srcShape.GetDim(0)));
  tiling.set_sLength(static_cast<uint32_t>(srcShape.GetDim(1)));
  tiling.set_hLength(h);
  tiling.set_originalHLength(h);
  tiling.set_bshLength(m * h);
  tiling.set_bsLength(m);
  tiling.set_oneCalSize(m * h);
  tiling.set_loopRound(1);
  tiling.set_bshCurLength(m * h);
  tiling.set_bsCurLength(m);
}

// RmsNorm (Ascend C API: RmsNorm-Tiling) on [B, S, H] floats: a pass of n rows takes n x H floats
// of squares and n sums rounded up to 8 floats; the minimum is one row (8 sums), the maximum all.
namespace layernorm_tiling_detail {
inline bool rms_shape(const TensorShape& shape, uint32_t typeSize, uint32_t& m, uint32_t& h) {
  if (typeSize != 4 || shape.GetDimNum() != 3 || shape.GetShapeSize() <= 0) return false;
  h = static_cast<uint32_t>(shape.GetDim(2));
  m = static_cast<uint32_t>(shape.GetDim(0) * shape.GetDim(1));
  return h % 8 == 0;
}
}  // namespace layernorm_tiling_detail
inline bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool /*isBasicBlock*/ = false) {
  uint32_t m = 0, h = 0;
  if (!layernorm_tiling_detail::rms_shape(srcShape, typeSize, m, h)) return false;
  maxValue = (m * h + (m + 7) / 8 * 8) * 4;
  minValue = (h + 8) * 4;
  return true;
}
template <class Tiling>
bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          Tiling& tiling, const bool /*isBasicBlock*/ = false) {
  uint32_t m = 0, h = 0;
  if (!layernorm_tiling_detail::rms_shape(srcShape, typeSize, m, h)) return false;
  uint32_t n = std::min(m, stackBufferByteSize / 4 / (h + 1));
  while (n > 0 && (n * h + (n + 7) / 8 * 8) * 4 > stackBufferByteSize) --n;
  if (n == 0) return false;
  const uint32_t oriH =
      originSrcShape.GetDimNum() == 3 ? static_cast<uint32_t>(originSrcShape.GetDim(2)) : h;
  auto put = [&](auto& t) {
    t.bLength = static_cast<uint32_t>(srcShape.GetDim(0));
    t.sLength = static_cast<uint32_t>(srcShape.GetDim(1));
    t.hLength = h;
    t.originalHLength = oriH;
    t.reciprocalOfHLength = 1.0f / static_cast<float>(oriH);
    t.mainBshLength = n * h;
    t.mainBsLength = n;
    t.mainBsLengthAlign = (n + 7) / 8 * 8;
    t.loopRound = m / n;
    t.inputTailPos = m / n * n * h;
    t.tailBshLength = m % n * h;
    t.tailBsLength = m % n;
  };
  if constexpr (std::is_same_v<Tiling, ::RmsNormTiling>) {
    put(tiling);
  } else {
    ::RmsNormTiling t;
    put(t);
#define ASCEND_SIM_RMS_SET(type, name) tiling.set_##name(t.name);
    ASCEND_SIM_RMSNORM_TILING_FIELDS(ASCEND_SIM_RMS_SET)
#undef ASCEND_SIM_RMS_SET
  }
  return true;
}

// WelfordUpdate / WelfordFinalize (Ascend C API: WelfordUpdate-Tiling, WelfordFinalize-Tiling):
// api/welford.h's temporaries, the same at the minimum and the maximum: WelfordUpdate two
// vectors of abLength floats (three for a half inputX), WelfordFinalize two and two 32-B blocks.
inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool /*isReuseSource*/,
                                          const bool /*isInplace*/, uint32_t& maxValue,
                                          uint32_t& minValue) {
  if (srcShape.GetDimNum() != 2 || srcShape.GetShapeSize() <= 0)
    optiling::detail::tiling_fail(
        "GetWelfordUpdateMaxMinTmpSize: srcShape should be [rnLength, "
        "abLength]");
  if ((typeSizeT != 2 && typeSizeT != 4) || typeSizeU != 4)
    optiling::detail::tiling_fail("GetWelfordUpdateMaxMinTmpSize: typeSizeT 2 or 4, typeSizeU 4");
  const uint32_t a8 = (static_cast<uint32_t>(srcShape.GetDim(1)) + 7) / 8 * 8;
  maxValue = minValue = (typeSizeT == 2 ? 3 : 2) * a8 * 4;
}
inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                            const bool /*isReuseSource*/, uint32_t& maxValue,
                                            uint32_t& minValue) {
  if (srcShape.GetDimNum() < 1 || srcShape.GetShapeSize() <= 0 || typeSize != 4)
    optiling::detail::tiling_fail(
        "GetWelfordFinalizeMaxMinTmpSize: srcShape should be [abLength] of floats");
  const uint32_t a8 = (static_cast<uint32_t>(srcShape.GetShapeSize()) + 7) / 8 * 8;
  maxValue = minValue = (2 * a8 + 16) * 4;
}

// DeepNorm (Ascend C API: DeepNorm-Tiling): LayerNorm's temporary and tiling fields for the sum
// it normalizes; false for a shape that is not [B, S, H] floats.
inline bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                     const bool isReuseSource, const bool /*isBasicBlock*/,
                                     uint32_t& maxValue, uint32_t& minValue) {
  if (typeSize != 4 || srcShape.GetDimNum() != 3) return false;
  GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
  return true;
}
template <class Tiling>
bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize,
                           const bool isReuseSource, const bool /*isBasicBlock*/, Tiling& tiling) {
  if (typeSize != 4 || srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3 ||
      originSrcShape.GetDim(2) != srcShape.GetDim(2))
    return false;
  optiling::LayerNormTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
  if constexpr (std::is_same_v<Tiling, ::DeepNormTiling>) {
#define ASCEND_SIM_DEEPNORM_SET(type, name) tiling.name = t.get_##name();
    ASCEND_SIM_LAYERNORM_TILING_FIELDS(ASCEND_SIM_DEEPNORM_SET)
#undef ASCEND_SIM_DEEPNORM_SET
  } else {
#define ASCEND_SIM_DEEPNORM_SET(type, name) tiling.set_##name(t.get_##name());
    ASCEND_SIM_LAYERNORM_TILING_FIELDS(ASCEND_SIM_DEEPNORM_SET)
#undef ASCEND_SIM_DEEPNORM_SET
  }
  return true;
}

// LayerNorm's separate form over [A, R] and Normalize (Ascend C API: LayerNorm-Tiling,
// Normalize-Tiling), float: api/layernorm.h's temporaries for A rows of R, the same at the
// minimum and the maximum (LayerNorm: the centred rows, the row values, a block a row and the
// fold rows; Normalize the same without the fold rows).
namespace layernorm_tiling_detail {
inline void ar_shape(const char* fn, const TensorShape& shape, uint32_t typeSize, uint32_t& a,
                     uint32_t& r) {
  if (typeSize != 4)
    optiling::detail::tiling_fail(std::string(fn) + ": only float (4) is modelled");
  if (shape.GetDimNum() != 2 || shape.GetShapeSize() <= 0)
    optiling::detail::tiling_fail(std::string(fn) + ": srcShape should be [A, R]");
  a = static_cast<uint32_t>(shape.GetDim(0));
  r = static_cast<uint32_t>(shape.GetDim(1));
}
}  // namespace layernorm_tiling_detail
inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                      const bool /*isReuseSource*/, const bool /*isComputeRstd*/,
                                      const bool /*isOnlyOutput*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  uint32_t a = 0, r = 0;
  layernorm_tiling_detail::ar_shape("GetLayerNormMaxMinTmpSize", srcShape, typeSize, a, r);
  maxValue = minValue =
      ascend_sim_layernorm_tmp_bytes(layernorm_tiling_detail::Kind::Forward, a, r);
}
template <class Tiling>
void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool /*isReuseSource*/,
                              const bool /*isComputeRstd*/, Tiling& tiling) {
  uint32_t a = 0, r = 0;
  layernorm_tiling_detail::ar_shape("GetLayerNormNDTilingInfo", srcShape, typeSize, a, r);
  ::LayerNormSeparateTiling t;
  t.aLength = a;
  t.rLength = r;
  t.inputXSize = a * r;
  t.meanVarSize = a;
  t.tmpBufSize = stackBufferSize;
  t.loopRound = 1;
  t.arCurLength = a * r;
  t.aCurLength = a;
  t.rValueBack = 1.0f / static_cast<float>(r);
  if constexpr (std::is_same_v<Tiling, ::LayerNormSeparateTiling>) {
    tiling = t;
  } else {
#define ASCEND_SIM_LN_SEPARATE_SET(type, name) tiling.set_##name(t.name);
    ASCEND_SIM_LAYERNORM_SEPARATE_TILING_FIELDS(ASCEND_SIM_LN_SEPARATE_SET)
#undef ASCEND_SIM_LN_SEPARATE_SET
  }
}
inline void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeU,
                                      const uint32_t typeSizeT, const bool /*isReuseSource*/,
                                      const bool /*isComputeRstd*/, const bool /*isOnlyOutput*/,
                                      uint32_t& maxValue, uint32_t& minValue) {
  uint32_t a = 0, r = 0;
  layernorm_tiling_detail::ar_shape("GetNormalizeMaxMinTmpSize", srcShape, typeSizeT, a, r);
  if (typeSizeU != 4)
    optiling::detail::tiling_fail("GetNormalizeMaxMinTmpSize: only float gamma and beta (4)");
  maxValue = minValue = (a * r + (a + 7) / 8 * 8 + 8 * a) * 4;
}

}  // namespace AscendC
