// The host's temporary-buffer queries of the high-level math, activation and Sum APIs
// (Ascend C API: GetAcoshMaxMinTmpSize, GetErfMaxMinTmpSize, ..., GetSumMaxMinTmpSize).
//
// The sizes are those of this facade's implementations (api/math.h, activation.h, reduce.h):
// an API needing b bytes of temporaries per element asks for
//   min = b x the elements of one 256-B repeat of the operand type (one pass of a repeat),
//   max = b x the elements of the shape, at least min,
// and 0 for both when it needs none. A bad argument (an empty shape, a type size other than 2 or
// 4) ends the program with exit status 2 and a message naming the function.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../graph/tensor.h"  // relative: the source tree and the package alike

namespace AscendC {

namespace math_tiling_detail {
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "ascend-sim: bad input: %s\n", what.c_str());
  std::fflush(stdout);
  std::exit(2);
}
inline uint64_t elements(const char* api, const ge::Shape& shape, uint32_t typeSize) {
  if (typeSize != 2 && typeSize != 4)
    fail(std::string(api) + ": typeSize " + std::to_string(typeSize) + " (2 or 4)");
  const int64_t n = shape.GetShapeSize();
  if (n <= 0) fail(std::string(api) + ": a shape of no elements");
  return static_cast<uint64_t>(n);
}
// min/max for `bytes_per_element` bytes of temporaries per element (the rule above).
inline void sizes(uint64_t count, uint32_t typeSize, uint32_t bytes_per_element, uint32_t& maxValue,
                  uint32_t& minValue) {
  const uint64_t per_repeat = 256 / typeSize;
  minValue = static_cast<uint32_t>(bytes_per_element * per_repeat);
  maxValue = static_cast<uint32_t>(std::max<uint64_t>(bytes_per_element * count, minValue));
}
// fp32 temporaries of an element-wise math API computed in fp32 (api/math.h): `scratch`,
// plus the widened source and the result for fp16 operands.
inline uint32_t fp32_bytes(uint32_t typeSize, uint32_t scratch) {
  return 4 * (scratch + (typeSize == 2 ? 2 : 0));
}
}  // namespace math_tiling_detail

#define ASCEND_SIM_MATH_TMP_SIZE(Name, bytes_per_element)                                  \
  inline void Name(const ge::Shape& srcShape, const uint32_t typeSize,                     \
                   const bool /*isReuseSource*/, uint32_t& maxValue, uint32_t& minValue) { \
    const uint64_t n = math_tiling_detail::elements(#Name, srcShape, typeSize);            \
    math_tiling_detail::sizes(n, typeSize, (bytes_per_element), maxValue, minValue);       \
  }

// Element-wise in fp32 with the stated scratch temporaries (api/math.h).
ASCEND_SIM_MATH_TMP_SIZE(GetAcoshMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 1))
ASCEND_SIM_MATH_TMP_SIZE(GetErfMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 3))
ASCEND_SIM_MATH_TMP_SIZE(GetFracMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 1))
ASCEND_SIM_MATH_TMP_SIZE(GetCeilMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 0))
ASCEND_SIM_MATH_TMP_SIZE(GetFloorMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 0))
ASCEND_SIM_MATH_TMP_SIZE(GetExpMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 3))
ASCEND_SIM_MATH_TMP_SIZE(GetTruncMaxMinTmpSize, math_tiling_detail::fp32_bytes(typeSize, 0))
// Fmod: the quotient, plus both widened sources and the result for fp16 operands.
ASCEND_SIM_MATH_TMP_SIZE(GetFmodMaxMinTmpSize, typeSize == 2 ? 16u : 4u)
// Xor: one temporary of T (a | b); ClampMax/ClampMin: none; Axpy with fp16 sources: the widened
// source (fp16 into fp32 is the only mixed pair, and typeSize is the source's).
ASCEND_SIM_MATH_TMP_SIZE(GetXorMaxMinTmpSize, typeSize)
ASCEND_SIM_MATH_TMP_SIZE(GetClampMaxMinTmpSize, 0u)
ASCEND_SIM_MATH_TMP_SIZE(GetAxpyMaxMinTmpSize, typeSize == 2 ? 4u : 0u)
// Activations (api/activation.h): Sigmoid one temporary of T (the ones it divides),
// Silu/Swish none, GeGLU two fp32 per element for fp16 and none for fp32.
ASCEND_SIM_MATH_TMP_SIZE(GetSigmoidMaxMinTmpSize, typeSize)
ASCEND_SIM_MATH_TMP_SIZE(GetSiluTmpSize, 0u)
ASCEND_SIM_MATH_TMP_SIZE(GetSwishTmpSize, 0u)
ASCEND_SIM_MATH_TMP_SIZE(GetGeGLUMaxMinTmpSize, typeSize == 2 ? 8u : 0u)

#undef ASCEND_SIM_MATH_TMP_SIZE

// Gelu: two temporaries of T per element (api/activation.h).
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  const uint64_t n = math_tiling_detail::elements("GetGeluMaxTmpSize", srcShape, typeSize);
  math_tiling_detail::sizes(n, typeSize, 2 * typeSize, maxValue, minValue);
  return maxValue;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  const uint64_t n = math_tiling_detail::elements("GetGeluMinTmpSize", srcShape, typeSize);
  math_tiling_detail::sizes(n, typeSize, 2 * typeSize, maxValue, minValue);
  return minValue;
}

// Power (api/math.h): five fp32 temporaries and a mask bit per element, in passes of whole
// 64-element repeats; the integer forms are not modelled.
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2,
                                  const bool typeIsInt, const uint32_t typeSize,
                                  const bool /*isReuseSource*/, uint32_t& maxValue,
                                  uint32_t& minValue) {
  if (typeIsInt) math_tiling_detail::fail("GetPowerMaxMinTmpSize: integer Power is not modelled");
  const uint64_t n = std::max(srcShape1.GetShapeSize(), srcShape2.GetShapeSize());
  if (n == 0) math_tiling_detail::fail("GetPowerMaxMinTmpSize: shapes of no elements");
  if (typeSize != 2 && typeSize != 4)
    math_tiling_detail::fail("GetPowerMaxMinTmpSize: typeSize " + std::to_string(typeSize) +
                             " (2 or 4)");
  constexpr uint32_t per_pass = 64 * 4 * 5 + 64 / 8;  // bytes of one 64-element pass
  minValue = per_pass;
  maxValue = static_cast<uint32_t>((n + 63) / 64 * per_pass);
}

// CumSum (api/math.h): none for fp32; for fp16 the whole tensor widened, 4 B an element
// (min = max). Only the first axis is modelled; a last-axis query gets the same sizes.
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                   const bool /*isLastAxis*/, const bool /*isReuseSource*/,
                                   uint32_t& maxValue, uint32_t& minValue) {
  const uint64_t n = math_tiling_detail::elements("GetCumSumMaxMinTmpSize", srcShape, typeSize);
  minValue = maxValue = typeSize == 2 ? static_cast<uint32_t>(4 * n) : 0;
}

// Sum of rows of n elements (api/reduce.h): the first WholeReduceSum pass leaves one partial
// sum per 256-B repeat in the buffer, rounded up to a 32-B block; a row of one repeat needs none.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize,
                                const bool /*isReuseSource*/, uint32_t& maxValue,
                                uint32_t& minValue) {
  if (typeSize != 2 && typeSize != 4)
    math_tiling_detail::fail("GetSumMaxMinTmpSize: typeSize " + std::to_string(typeSize) +
                             " (2 or 4)");
  if (n == 0) math_tiling_detail::fail("GetSumMaxMinTmpSize: n of 0");
  const uint32_t per_repeat = 256 / typeSize, per_block = 32 / typeSize;
  const uint32_t partials = (n + per_repeat - 1) / per_repeat;
  minValue = maxValue =
      partials <= 1 ? 0 : (partials + per_block - 1) / per_block * per_block * typeSize;
}

}  // namespace AscendC
