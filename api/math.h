// Ascend C's high-level math APIs (Ascend C API: Acosh, Erf, Log, Log2, Log10, Exp, Frac, Ceil,
// Floor, Trunc, Xor, ClampMax, ClampMin, Axpy, Fmod, CumSum, Power), each built from the vector
// instructions the hardware runs for it, so its numerics are those instructions' and its time the
// time they take.
//
// Most work element by element in fp32: an fp16 source is widened into the caller's
// sharedTmpBuffer, computed there and narrowed back (CAST_NONE), an fp32 one is computed in
// place with the temporaries it needs taken from the buffer. The buffer decides how many elements
// one pass holds, so a small buffer costs more instructions, as on the hardware. The overloads
// without a sharedTmpBuffer take the UB the kernel's TPipe left free (Ascend C's stack buffer).
// The sizes the host asks for (Get*MaxMinTmpSize, sdk/include/tiling/math_tiling_host.h) follow
// the temporaries counted here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/pad.h"  // detail::stack_buffer
#include "api/vector.h"
#include "api/vector_level0.h"

namespace AscendC {

namespace detail {
template <class T>
constexpr void require_half_or_float() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "this high-level math API takes half or float operands");
}

// fp32 temporaries per element of an element-wise math API: `scratch` for the computation, plus
// the widened source and the fp32 result when T is half.
template <class T>
constexpr uint32_t math_fp32_temps(uint32_t scratch) {
  return scratch + (std::is_same_v<T, half> ? 2 : 0);
}

// k fp32 temporaries of `stride` elements each, laid one after the other in a buffer.
struct Fp32Temps {
  LocalTensor<float> base;
  uint32_t stride;
  LocalTensor<float> operator[](uint32_t k) const { return base[k * stride]; }
};

template <class T>
void math_count_check(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      uint32_t calCount) {
  if (calCount > src.GetSize() || calCount > dst.GetSize())
    fault(std::string(api) + ": calCount " + std::to_string(calCount) + " exceeds src (" +
          std::to_string(src.GetSize()) + ") or dst (" + std::to_string(dst.GetSize()) + ")");
}

// Runs body(out, in, temps, n) over [0, calCount) in passes as large as `tmp` holds, with in/out
// the fp32 source and result of the pass and temps `scratch` fp32 temporaries of the pass size.
// A pass is a multiple of one 32-B block of T.
template <uint32_t scratch, class T, class Body>
void math_elementwise(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>& tmp, uint32_t calCount, Body body) {
  require_half_or_float<T>();
  math_count_check(api, dst, src, calCount);
  if (calCount == 0) return;
  constexpr uint32_t temps = math_fp32_temps<T>(scratch);
  if constexpr (temps == 0) {  // fp32 needing no temporary: one pass
    body(dst, src, Fp32Temps{}, calCount);
  } else {
    constexpr uint32_t per_block = 32 / sizeof(T);
    const uint32_t pass = tmp.GetSize() / 4 / temps / per_block * per_block;
    if (pass == 0)
      fault(std::string(api) + ": sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
            " B is below the " + std::to_string(temps * 4 * per_block) + " B of one pass");
    const Fp32Temps t{tmp.template ReinterpretCast<float>(), pass};
    for (uint32_t off = 0; off < calCount; off += pass) {
      const uint32_t n = std::min(pass, calCount - off);
      if constexpr (std::is_same_v<T, float>) {
        body(dst[off], src[off], t, n);
      } else {
        const LocalTensor<float> in = t[scratch], out = t[scratch + 1];
        Cast(in, src[off], RoundMode::CAST_NONE, n);
        body(out, in, t, n);
        Cast(dst[off], out, RoundMode::CAST_NONE, n);
      }
    }
  }
}
}  // namespace detail

// The four overloads of an element-wise math API: with or without sharedTmpBuffer, with or
// without calCount (then the whole of srcTensor).
#define ASCEND_SIM_MATH_UNARY_OVERLOADS(Name)                                                     \
  template <class T, bool isReuseSource = false>                                                  \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            const LocalTensor<uint8_t>& sharedTmpBuffer) {                                        \
    Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());           \
  }                                                                                               \
  template <class T, bool isReuseSource = false>                                                  \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                     \
            const uint32_t calCount) {                                                            \
    Name<T, isReuseSource>(dstTensor, srcTensor, detail::stack_buffer<uint8_t>(#Name), calCount); \
  }                                                                                               \
  template <class T, bool isReuseSource = false>                                                  \
  void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                   \
    Name<T, isReuseSource>(dstTensor, srcTensor, detail::stack_buffer<uint8_t>(#Name),            \
                           srcTensor.GetSize());                                                  \
  }

// acosh(x) = ln(x + sqrt(x^2 - 1)). One fp32 temporary. Ascend C API: Acosh.
template <class T, bool isReuseSource = false>
void Acosh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<1>("Acosh", dstTensor, srcTensor, sharedTmpBuffer, calCount,
                              [](const LocalTensor<float>& out, const LocalTensor<float>& x,
                                 const detail::Fp32Temps& t, uint32_t n) {
                                const LocalTensor<float> s = t[0];
                                Mul(s, x, x, n);
                                Adds(s, s, -1.0f, n);
                                Sqrt(s, s, n);
                                Add(s, x, s, n);
                                // s / s x s: the sum unchanged where finite and non-zero, NaN where
                                // it is 0 or inf (the hardware's sequence does this before the
                                // logarithm)
                                Div(out, s, s, n);
                                Mul(s, s, out, n);
                                Ln(out, s, n);
                              });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Acosh)

// erf by a rational approximation on x clamped to [-3.92, 3.92]:
// erf(x) ~ x P(x^2) / Q(x^2), P of degree 5, Q monic of degree 5 (the coefficients of the
// hardware's approximation). Three fp32 temporaries. Ascend C API: Erf.
namespace detail {
constexpr float kErfClamp = 3.92f;
constexpr float kErfP[6] = {0.29639384698e5f, 0.50637915060e4f, 0.13938061484e4f,
                            0.10162808918e3f, 0.75517016694e1f, 0.053443748819f};
constexpr float kErfQ[5] = {0.26267224157e5f, 0.13243365831e5f, 0.30231248150e4f, 0.39856963806e3f,
                            0.31212858877e2f};
}  // namespace detail
template <class T, bool isReuseSource = false>
void Erf(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<3>("Erf", dstTensor, srcTensor, sharedTmpBuffer, calCount,
                              [](const LocalTensor<float>& out, const LocalTensor<float>& x,
                                 const detail::Fp32Temps& t, uint32_t n) {
                                const LocalTensor<float> c = t[0], x2 = t[1], p = t[2];
                                Mins(c, x, detail::kErfClamp, n);
                                Maxs(c, c, -detail::kErfClamp, n);
                                Mul(x2, c, c, n);
                                Muls(p, x2, detail::kErfP[5], n);  // P by Horner's rule
                                for (int k = 4; k >= 1; --k) {
                                  Adds(p, p, detail::kErfP[k], n);
                                  Mul(p, p, x2, n);
                                }
                                Adds(p, p, detail::kErfP[0], n);
                                Mul(p, c, p, n);
                                Adds(out, x2, detail::kErfQ[4], n);  // Q, monic, by Horner's rule
                                for (int k = 3; k >= 0; --k) {
                                  Mul(out, out, x2, n);
                                  Adds(out, out, detail::kErfQ[k], n);
                                }
                                Div(out, p, out, n);
                              });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Erf)

// x - trunc(x), the fractional part with the sign of x. One fp32 temporary. Ascend C API: Frac.
template <class T, bool isReuseSource = false>
void Frac(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<1>("Frac", dstTensor, srcTensor, sharedTmpBuffer, calCount,
                              [](const LocalTensor<float>& out, const LocalTensor<float>& x,
                                 const detail::Fp32Temps& t, uint32_t n) {
                                Cast(t[0], x, RoundMode::CAST_TRUNC, n);
                                Sub(out, x, t[0], n);
                              });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Frac)

// The smallest integral value not below x (Ceil), the largest not above it (Floor): one
// rounding Cast in fp32 (Ascend C API: Ceil, Floor).
template <class T, bool isReuseSource = false>
void Ceil(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<0>(
      "Ceil", dstTensor, srcTensor, sharedTmpBuffer, calCount,
      [](const LocalTensor<float>& out, const LocalTensor<float>& x, const detail::Fp32Temps&,
         uint32_t n) { Cast(out, x, RoundMode::CAST_CEIL, n); });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Ceil)
template <class T, bool isReuseSource = false>
void Floor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<0>(
      "Floor", dstTensor, srcTensor, sharedTmpBuffer, calCount,
      [](const LocalTensor<float>& out, const LocalTensor<float>& x, const detail::Fp32Temps&,
         uint32_t n) { Cast(out, x, RoundMode::CAST_FLOOR, n); });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Floor)

// ln x (Log), log2 x and log10 x as ln x times 1/ln 2 or 1/ln 10, in T; no temporary.
// Ascend C API: Log, Log2, Log10.
template <class T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const uint32_t calCount) {
  detail::require_half_or_float<T>();
  detail::math_count_check("Log", dstTensor, srcTensor, calCount);
  Ln(dstTensor, srcTensor, calCount);
}
template <class T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const uint32_t calCount) {
  Log<T, isReuseSource>(dstTensor, srcTensor, calCount);
  Muls(dstTensor, dstTensor, static_cast<T>(1.4426950408889634f), calCount);
}
template <class T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const uint32_t calCount) {
  Log<T, isReuseSource>(dstTensor, srcTensor, calCount);
  Muls(dstTensor, dstTensor, static_cast<T>(0.4342944819032518f), calCount);
}

// exp(x) = exp(floor(x)) x exp(x - floor(x)), the second factor by its Taylor polynomial to the
// power taylorExpandLevel (0: the Exp instruction alone). Three fp32 temporaries: the fractional
// part, its running power, exp of the integral part. Ascend C API: Exp (the high-level form).
template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  if constexpr (taylorExpandLevel == 0) {
    detail::require_half_or_float<T>();
    detail::math_count_check("Exp", dstTensor, srcTensor, calCount);
    Exp(dstTensor, srcTensor, calCount);
  } else {
    detail::math_elementwise<3>("Exp", dstTensor, srcTensor, sharedTmpBuffer, calCount,
                                [](const LocalTensor<float>& out, const LocalTensor<float>& x,
                                   const detail::Fp32Temps& t, uint32_t n) {
                                  const LocalTensor<float> frac = t[0], power = t[1],
                                                           exp_int = t[2];
                                  Cast(exp_int, x, RoundMode::CAST_FLOOR, n);
                                  Sub(frac, x, exp_int, n);
                                  Exp(exp_int, exp_int, n);
                                  Adds(power, frac, 0.0f, n);  // frac^1 / 1!
                                  Adds(out, frac, 1.0f, n);
                                  for (uint32_t i = 2; i <= taylorExpandLevel; ++i) {
                                    Mul(power, frac, power, n);
                                    Muls(power, power, 1.0f / static_cast<float>(i), n);
                                    Add(out, out, power, n);
                                  }
                                  Mul(out, out, exp_int, n);
                                });
  }
}
template <class T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const uint32_t calCount) {
  Exp<T, taylorExpandLevel, isReuseSource>(dstTensor, srcTensor,
                                           detail::stack_buffer<uint8_t>("Exp"), calCount);
}

// Bitwise exclusive or of int16/uint16: (a | b) & ~(a & b) by the Or, And and Not instructions,
// one temporary of T per element. Ascend C API: Xor.
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                "Xor takes int16_t or uint16_t operands");
  if (calCount > src0Tensor.GetSize() || calCount > src1Tensor.GetSize() ||
      calCount > dstTensor.GetSize())
    detail::fault("Xor: calCount " + std::to_string(calCount) +
                  " exceeds a source or destination tensor");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t pass = sharedTmpBuffer.GetSize() / sizeof(T) / per_block * per_block;
  if (pass == 0)
    detail::fault("Xor: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below one 32-B block");
  const LocalTensor<T> either = sharedTmpBuffer.ReinterpretCast<T>();
  for (uint32_t off = 0; off < calCount; off += pass) {
    const uint32_t n = std::min(pass, calCount - off);
    Or(either, src0Tensor[off], src1Tensor[off], n);
    And(dstTensor[off], src0Tensor[off], src1Tensor[off], n);
    Not(dstTensor[off], dstTensor[off], n);
    And(dstTensor[off], either, dstTensor[off], n);
  }
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, detail::stack_buffer<uint8_t>("Xor"),
                        calCount);
}
template <class T, bool isReuseSource = false>
void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
         const LocalTensor<T>& src1Tensor) {
  Xor<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, detail::stack_buffer<uint8_t>("Xor"),
                        src0Tensor.GetSize());
}

// min(x, scalar) (ClampMax) and max(x, scalar) (ClampMin): one Mins or Maxs, the buffer unused.
// Ascend C API: ClampMax, ClampMin.
template <class T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T scalar,
              const uint32_t calCount) {
  detail::require_half_or_float<T>();
  detail::math_count_check("ClampMax", dstTensor, srcTensor, calCount);
  Mins(dstTensor, srcTensor, scalar, calCount);
}
template <class T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
              const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T scalar,
              const uint32_t calCount) {
  detail::require_half_or_float<T>();
  detail::math_count_check("ClampMin", dstTensor, srcTensor, calCount);
  Maxs(dstTensor, srcTensor, scalar, calCount);
}
template <class T, bool isReuseSource = false>
void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  ClampMax<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>{}, scalar, calCount);
}
template <class T, bool isReuseSource = false>
void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
              const uint32_t calCount) {
  ClampMin<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>{}, scalar, calCount);
}

// dst = src x scalar + dst. Same types: the Axpy instruction. fp32 dst with fp16 src: src
// widened into the buffer, scaled there (Muls in fp32) and added to dst, one fp32 temporary per
// element. Ascend C API: Axpy (the high-level form).
template <class T, class U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert((std::is_same_v<T, U> && (std::is_same_v<T, half> || std::is_same_v<T, float>)) ||
                    (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy takes half/half, float/float or float/half (dst/src)");
  if (calCount > srcTensor.GetSize() || calCount > dstTensor.GetSize())
    detail::fault("Axpy: calCount " + std::to_string(calCount) +
                  " exceeds the source or destination tensor");
  if constexpr (std::is_same_v<T, U>) {
    Axpy(dstTensor, srcTensor, scalarValue, calCount);
  } else {
    const uint32_t pass = sharedTmpBuffer.GetSize() / 4 / 16 * 16;  // 32-B blocks of half
    if (pass == 0)
      detail::fault("Axpy: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                    " B is below the 64 B of one pass");
    const LocalTensor<float> wide = sharedTmpBuffer.ReinterpretCast<float>();
    const float scale = to_double(scalarValue);
    for (uint32_t off = 0; off < calCount; off += pass) {
      const uint32_t n = std::min(pass, calCount - off);
      Cast(wide, srcTensor[off], RoundMode::CAST_NONE, n);
      Muls(wide, wide, scale, n);
      Add(dstTensor[off], wide, dstTensor[off], n);
    }
  }
}

// Rounding toward zero: one CAST_TRUNC in fp32 (Ascend C API: Trunc).
template <class T, bool isReuseSource = false>
void Trunc(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::math_elementwise<0>(
      "Trunc", dstTensor, srcTensor, sharedTmpBuffer, calCount,
      [](const LocalTensor<float>& out, const LocalTensor<float>& x, const detail::Fp32Temps&,
         uint32_t n) { Cast(out, x, RoundMode::CAST_TRUNC, n); });
}
ASCEND_SIM_MATH_UNARY_OVERLOADS(Trunc)

// fmod(a, b) = a - trunc(a / b) x b, with the sign of a (Ascend C API: Fmod; FmodConfig chooses
// an algorithm on the Ascend 950 only). In fp32 with one temporary for the quotient; fp16
// operands are widened into two more and the result narrowed from a third.
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo { NORMAL = 0, ITERATION_COMPENSATION = 1 };
struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
inline constexpr FmodConfig DEFAULT_FMOD_CONFIG{};
template <class T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const uint32_t calCount) {
  detail::require_half_or_float<T>();
  if (calCount > src0Tensor.GetSize() || calCount > src1Tensor.GetSize() ||
      calCount > dstTensor.GetSize())
    detail::fault("Fmod: calCount " + std::to_string(calCount) +
                  " exceeds a source or destination tensor");
  constexpr uint32_t temps = std::is_same_v<T, half> ? 4 : 1, per_block = 32 / sizeof(T);
  const uint32_t pass = sharedTmpBuffer.GetSize() / 4 / temps / per_block * per_block;
  if (pass == 0)
    detail::fault("Fmod: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below the " + std::to_string(temps * 4 * per_block) + " B of one pass");
  const detail::Fp32Temps t{sharedTmpBuffer.ReinterpretCast<float>(), pass};
  auto fmod = [](const LocalTensor<float>& out, const LocalTensor<float>& a,
                 const LocalTensor<float>& b, const LocalTensor<float>& q, uint32_t n) {
    Div(q, a, b, n);
    Cast(q, q, RoundMode::CAST_TRUNC, n);
    Mul(q, q, b, n);
    Sub(out, a, q, n);
  };
  for (uint32_t off = 0; off < calCount; off += pass) {
    const uint32_t n = std::min(pass, calCount - off);
    if constexpr (std::is_same_v<T, float>) {
      fmod(dstTensor[off], src0Tensor[off], src1Tensor[off], t[0], n);
    } else {
      Cast(t[1], src0Tensor[off], RoundMode::CAST_NONE, n);
      Cast(t[2], src1Tensor[off], RoundMode::CAST_NONE, n);
      fmod(t[3], t[1], t[2], t[0], n);
      Cast(dstTensor[off], t[3], RoundMode::CAST_NONE, n);
    }
  }
}
template <class T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                 src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor,
                                 detail::stack_buffer<uint8_t>("Fmod"), calCount);
}
template <class T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
          const LocalTensor<T>& src1Tensor) {
  Fmod<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor,
                                 detail::stack_buffer<uint8_t>("Fmod"), src0Tensor.GetSize());
}

// Cumulative sums of an outter x inner tensor (Ascend C API: CumSum). Along the first axis (each
// row the sum of the rows up to it) the hardware adds row by row: a copy of row 0, then one Add a
// row, in fp32 (fp16 operands widened into sharedTmpBuffer as a whole, outter x inner x 4 B);
// outputLastRow copies the last row into lastRowTensor. The last axis needs TransDataTo5HD
// transposes, which are not modelled. `algorithm` chooses on the Ascend 950 only.
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
inline constexpr CumSumConfig defaultCumSumConfig{};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};
template <class T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, LocalTensor<uint8_t>& sharedTmpBuffer,
            const CumSumInfo& cumSumInfo) {
  detail::require_half_or_float<T>();
  static_assert(!config.isLastAxis,
                "ascend-sim: AscendC::CumSum along the last axis is not modelled yet (it "
                "transposes by TransDataTo5HD)");
  const uint32_t rows = cumSumInfo.outter, inner = cumSumInfo.inner;
  const uint64_t total = uint64_t{rows} * inner;
  if (rows == 0 || inner == 0 || inner * sizeof(T) % 32 != 0)
    detail::fault("CumSum: outter " + std::to_string(rows) + " and inner " + std::to_string(inner) +
                  " (both above 0, inner a whole number of 32-B blocks)");
  if (total > srcTensor.GetSize() || total > dstTensor.GetSize())
    detail::fault("CumSum: " + std::to_string(rows) + " x " + std::to_string(inner) +
                  " exceeds srcTensor or dstTensor");
  if (config.outputLastRow && inner > lastRowTensor.GetSize())
    detail::fault("CumSum: a row of " + std::to_string(inner) + " exceeds lastRowTensor");
  const uint32_t n = static_cast<uint32_t>(total);
  if constexpr (std::is_same_v<T, float>) {
    Adds(dstTensor, srcTensor, 0.0f, inner);
    for (uint32_t r = 1; r < rows; ++r)
      Add(dstTensor[r * inner], dstTensor[(r - 1) * inner], srcTensor[r * inner], inner);
  } else {
    if (sharedTmpBuffer.GetSize() < total * 4)
      detail::fault("CumSum: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                    " B is below the " + std::to_string(total * 4) + " B of the widened tensor");
    const LocalTensor<float> wide = sharedTmpBuffer.ReinterpretCast<float>();
    Cast(wide, srcTensor, RoundMode::CAST_NONE, n);
    for (uint32_t r = 1; r < rows; ++r)
      Add(wide[r * inner], wide[(r - 1) * inner], wide[r * inner], inner);
    Cast(dstTensor, wide, RoundMode::CAST_NONE, n);
  }
  if constexpr (config.outputLastRow)
    Adds(lastRowTensor, dstTensor[(rows - 1) * inner], static_cast<T>(0.0f), inner);
}
template <class T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo) {
  LocalTensor<uint8_t> tmp = detail::stack_buffer<uint8_t>("CumSum");
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, tmp, cumSumInfo);
}

// x^y for fp32/fp16 (Ascend C API: Power; the integer forms are not modelled). The magnitude is
// exp(y ln|x|); a negative base takes the sign of (-1)^y where y is an integer and NaN where it
// is not, chosen by a Compares of the base with 0 and a Select, as the hardware's sequence does:
//   parity p = y - 2 floor(y / 2), sign s = 1 - 2p, plus sqrt(-|y - rint(y)|) (-0 for an integer
//   y, NaN otherwise).
// Per pass: five fp32 temporaries (base, exponent, magnitude, signed result, scratch) and the
// comparison's bit per element, a pass a whole number of 64-element repeats (Compares compares
// whole repeats). A scalar base or exponent is a Duplicate into its temporary.
enum class PowerAlgo : uint8_t { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
  PowerAlgo algo = PowerAlgo::INTRINSIC;  // the Ascend 950's choice; A2/A3 have the one below
};
inline constexpr PowerConfig kDefaultPowerConfig{};
namespace detail {
constexpr uint32_t kPowerFp32Temps = 5;
// Bytes of temporaries per element of a pass: the fp32 temporaries and one mask bit.
constexpr double kPowerBytesPerElement = 4.0 * kPowerFp32Temps + 1.0 / 8;
template <class T>
struct PowerOperand {  // a tensor, or a scalar when `tensor` is null
  const LocalTensor<T>* tensor;
  T scalar;
};
template <class T>
void power_impl(const LocalTensor<T>& dst, PowerOperand<T> base, PowerOperand<T> exponent,
                const LocalTensor<uint8_t>& tmp, uint32_t calCount) {
  require_half_or_float<T>();
  for (const PowerOperand<T>* o : {&base, &exponent})
    if (o->tensor && calCount > o->tensor->GetSize())
      fault("Power: calCount " + std::to_string(calCount) + " exceeds a source tensor");
  if (calCount > dst.GetSize()) fault("Power: calCount exceeds dstTensor");
  if (calCount == 0) return;
  const uint32_t pass = static_cast<uint32_t>(tmp.GetSize() / kPowerBytesPerElement) / 64 * 64;
  if (pass == 0)
    fault("Power: sharedTmpBuffer of " + std::to_string(tmp.GetSize()) + " B is below the " +
          std::to_string(static_cast<uint32_t>(64 * kPowerBytesPerElement)) +
          " B of one 64-element pass");
  const Fp32Temps t{tmp.template ReinterpretCast<float>(), pass};
  const LocalTensor<float> x = t[0], y = t[1], mag = t[2], sgn = t[3], f = t[4];
  const LocalTensor<uint8_t> negative = tmp[kPowerFp32Temps * 4 * pass];
  auto widen = [&](const LocalTensor<float>& to, const PowerOperand<T>& o, uint32_t off,
                   uint32_t n) {
    if (!o.tensor)
      Duplicate(to, static_cast<float>(to_double(o.scalar)), n);
    else if constexpr (std::is_same_v<T, half>)
      Cast(to, (*o.tensor)[off], RoundMode::CAST_NONE, n);
    else
      Adds(to, (*o.tensor)[off], 0.0f, n);
  };
  for (uint32_t off = 0; off < calCount; off += pass) {
    const uint32_t n = std::min(pass, calCount - off);
    widen(x, base, off, n);
    widen(y, exponent, off, n);
    Abs(mag, x, n);
    Ln(mag, mag, n);
    Mul(mag, y, mag, n);
    Exp(mag, mag, n);
    Muls(f, y, 0.5f, n);
    Cast(f, f, RoundMode::CAST_FLOOR, n);
    Muls(f, f, 2.0f, n);
    Sub(f, y, f, n);
    Muls(sgn, f, -2.0f, n);
    Adds(sgn, sgn, 1.0f, n);
    Cast(f, y, RoundMode::CAST_RINT, n);
    Sub(f, y, f, n);
    Abs(f, f, n);
    Muls(f, f, -1.0f, n);
    Sqrt(f, f, n);
    Add(sgn, sgn, f, n);
    Mul(sgn, mag, sgn, n);
    Compares(negative, x, 0.0f, CMPMODE::LT, (n + 63) / 64 * 64);
    if constexpr (std::is_same_v<T, float>) {
      Select(dst[off], negative, sgn, mag, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
    } else {
      Select(mag, negative, sgn, mag, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
      Cast(dst[off], mag, RoundMode::CAST_NONE, n);
    }
  }
}
}  // namespace detail
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
           const uint32_t calCount) {
  detail::power_impl<T>(dstTensor, {&src0Tensor, T{}}, {&src1Tensor, T{}}, sharedTmpBuffer,
                        calCount);
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::power_impl<T>(dstTensor, {&src0Tensor, T{}}, {nullptr, src1Scalar}, sharedTmpBuffer,
                        calCount);
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  detail::power_impl<T>(dstTensor, {nullptr, src0Scalar}, {&src1Tensor, T{}}, sharedTmpBuffer,
                        calCount);
}
// Without calCount: all of the tensor operand; without sharedTmpBuffer: the stack buffer.
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer,
                                  src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer,
                                  src0Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Power<T, isReuseSource, config>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer,
                                  src1Tensor.GetSize());
}
template <class T, bool isReuseSource = false, const PowerConfig& config = kDefaultPowerConfig>
void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
           const LocalTensor<T>& src1Tensor) {
  Power<T, isReuseSource, config>(dstTensor, src0Tensor, src1Tensor,
                                  detail::stack_buffer<uint8_t>("Power"), src0Tensor.GetSize());
}

#undef ASCEND_SIM_MATH_UNARY_OVERLOADS

}  // namespace AscendC
