// The GLU family of Ascend C's high-level activation APIs: SwiGLU, GeGLU and ReGlu. Each gates
// srcTensor0 with the activation of srcTensor1, dst = src0 x act(src1), element by element, as
// the API reference defines them (Ascend C API: SwiGLU, GeGLU, ReGlu). fp16 operands are widened
// to fp32 in the caller's sharedTmpBuffer, computed there and cast back (RINT); fp32 operands are
// computed in place. A call is the vector instructions it is made of, chunk by chunk: the
// temporary buffer decides how many elements one chunk holds, so a small buffer costs more
// instructions, as on the hardware.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "api/stack_buffer.h"
#include "api/vector.h"

namespace AscendC {

namespace detail {
// Elements per chunk for a temporary of `tmp_bytes` holding `floats_per_element` fp32 values per
// element: aligned down to a 32-B block of T, at least one block.
template <class T>
uint32_t glu_chunk(uint32_t tmp_bytes, uint32_t floats_per_element) {
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t n = tmp_bytes / 4 / floats_per_element / per_block * per_block;
  return std::max(n, per_block);
}
// Runs f(offset, count) over [0, calCount) in chunks of `chunk`.
template <class F>
void glu_chunks(uint32_t calCount, uint32_t chunk, F f) {
  for (uint32_t off = 0; off < calCount; off += chunk) f(off, std::min(chunk, calCount - off));
}
template <class T>
void glu_check(const char* name, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
               const LocalTensor<T>& src1, uint32_t calCount) {
  if (calCount > src0.GetSize() || calCount > src1.GetSize() || calCount > dst.GetSize())
    detail::fault(std::string(name) + ": calCount " + std::to_string(calCount) +
                  " exceeds a source or destination tensor");
}
template <class T>
void glu_tmp_check(const char* name, const LocalTensor<uint8_t>& tmp, uint32_t least) {
  if (tmp.GetSize() < least)
    detail::fault(std::string(name) + ": sharedTmpBuffer of " + std::to_string(tmp.GetSize()) +
                  " B is below the " + std::to_string(least) + " B one chunk needs");
}
}  // namespace detail

// Swish(x) = x / (1 + exp(-beta x)); dst = src0 x Swish(src1).
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            const float& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "SwiGLU takes fp16 or fp32 operands on A2/A3");
  detail::glu_check("SwiGLU", dst, src0, src1, calCount);
  const float neg_beta = -1.0f * beta;
  auto swish = [&](const LocalTensor<float>& out, const LocalTensor<float>& x, uint32_t n) {
    Muls(out, x, neg_beta, n);
    Exp(out, out, n);
    Adds(out, out, 1.0f, n);
    Div(out, x, out, n);
  };
  if constexpr (std::is_same_v<T, float>) {
    swish(dst, src1, calCount);
    Mul(dst, src0, dst, calCount);
  } else {  // three fp32 temporaries per element: src1, Swish(src1), src0
    const uint32_t chunk = detail::glu_chunk<T>(sharedTmpBuffer.GetSize(), 3);
    detail::glu_tmp_check<T>("SwiGLU", sharedTmpBuffer, 3 * 4 * std::min(chunk, calCount));
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    detail::glu_chunks(calCount, chunk, [&](uint32_t off, uint32_t n) {
      const LocalTensor<float> x1 = tmp, sw = tmp[chunk], x0 = tmp[2 * chunk];
      Cast(x1, src1[off], RoundMode::CAST_NONE, n);
      swish(sw, x1, n);
      Cast(x0, src0[off], RoundMode::CAST_NONE, n);
      Mul(sw, x0, sw, n);
      Cast(dst[off], sw, RoundMode::CAST_NONE, n);
    });
  }
}

// The other SwiGLU overloads (Ascend C API: SwiGLU): without calCount every element of src0 takes
// part; without sharedTmpBuffer the API takes the UB the TPipe left (its stack buffer).
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            const float& beta, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  SwiGLU<T, isReuseSource>(dst, src0, src1, beta, sharedTmpBuffer, src0.GetSize());
}
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            const float& beta, uint32_t calCount) {
  SwiGLU<T, isReuseSource>(dst, src0, src1, beta, detail::stack_buffer<uint8_t>("SwiGLU"),
                           calCount);
}
template <class T, bool isReuseSource = false>
void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            const float& beta) {
  SwiGLU<T, isReuseSource>(dst, src0, src1, beta, src0.GetSize());
}

// GELU by its tanh approximation, as the API reference writes it:
// Gelu(x) = x / (1 + exp(a x (x^2 + b))), a = -0.0713548162726, b = 22.363860002236;
// dst = src0 x Gelu(src1).
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GeGLU takes fp16 or fp32 operands");
  detail::glu_check("GeGLU", dst, src0, src1, calCount);
  constexpr float a = -0.0713548162726f, b = 22.363860002236f;
  // out = x0 x Gelu(x1), with t a temporary of n; x1 is read throughout, x0 only at the end.
  auto gelu_gate = [&](const LocalTensor<float>& out, const LocalTensor<float>& x0,
                       const LocalTensor<float>& x1, uint32_t n) {
    Mul(out, x1, x1, n);
    Adds(out, out, b, n);
    Mul(out, out, x1, n);
    Muls(out, out, a, n);
    Exp(out, out, n);
    Adds(out, out, 1.0f, n);
    Div(out, x1, out, n);
    Mul(out, x0, out, n);
  };
  if constexpr (std::is_same_v<T, float>) {
    gelu_gate(dst, src0, src1, calCount);
  } else {  // two fp32 temporaries per element: src1 (then src0) and the result
    const uint32_t chunk = detail::glu_chunk<T>(sharedTmpBuffer.GetSize(), 2);
    detail::glu_tmp_check<T>("GeGLU", sharedTmpBuffer, 2 * 4 * std::min(chunk, calCount));
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    detail::glu_chunks(calCount, chunk, [&](uint32_t off, uint32_t n) {
      const LocalTensor<float> x = tmp, g = tmp[chunk];
      Cast(x, src1[off], RoundMode::CAST_NONE, n);
      Mul(g, x, x, n);
      Adds(g, g, b, n);
      Mul(g, g, x, n);
      Muls(g, g, a, n);
      Exp(g, g, n);
      Adds(g, g, 1.0f, n);
      Div(g, x, g, n);
      Cast(x, src0[off], RoundMode::CAST_NONE, n);
      Mul(g, x, g, n);
      Cast(dst[off], g, RoundMode::CAST_NONE, n);
    });
  }
}

// dst = src0 x Relu(src1), Relu(x) = max(x, 0).
template <class T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount) {
  static_assert(
      std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>,
      "ReGlu takes fp16, bf16 or fp32 operands");
  detail::glu_check("ReGlu", dst, src0, src1, calCount);
  if constexpr (std::is_same_v<T, float>) {
    Maxs(dst, src1, 0.0f, calCount);
    Mul(dst, src0, dst, calCount);
  } else {  // three fp32 temporaries per element: src0, src1, the result
    const uint32_t chunk = detail::glu_chunk<T>(sharedTmpBuffer.GetSize(), 3);
    detail::glu_tmp_check<T>("ReGlu", sharedTmpBuffer, 3 * 4 * std::min(chunk, calCount));
    const LocalTensor<float> tmp = sharedTmpBuffer.ReinterpretCast<float>();
    detail::glu_chunks(calCount, chunk, [&](uint32_t off, uint32_t n) {
      const LocalTensor<float> x0 = tmp, x1 = tmp[chunk], y = tmp[2 * chunk];
      Cast(x0, src0[off], RoundMode::CAST_NONE, n);
      Cast(x1, src1[off], RoundMode::CAST_NONE, n);
      Maxs(y, x1, 0.0f, n);
      Mul(y, x0, y, n);
      Cast(dst[off], y, RoundMode::CAST_RINT, n);
    });
  }
}

// GeGLU without a sharedTmpBuffer (the stack buffer) or without calCount (all of srcTensor0).
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  GeGLU<T, isReuseSource>(dst, src0, src1, sharedTmpBuffer, src0.GetSize());
}
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
           uint32_t calCount) {
  GeGLU<T, isReuseSource>(dst, src0, src1, detail::stack_buffer<uint8_t>("GeGLU"), calCount);
}
template <class T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
  GeGLU<T, isReuseSource>(dst, src0, src1, detail::stack_buffer<uint8_t>("GeGLU"), src0.GetSize());
}

// Single-operand activations: Gelu, Sigmoid, Silu, Swish.

// GELU by its tanh approximation, Gelu(x) = x sigmoid(y), y = 2 sqrt(2/pi) (x + 0.044715 x^3),
// in the form that cannot overflow: x / (1 + exp(-|y|)) x exp(min(y, 0)). Computed in T with two
// temporaries of T per element, in passes as large as sharedTmpBuffer holds; highPerformance
// divides by a Reciprocal and a Mul. highPrecision (fp16 widened to fp32 on the hardware) is not
// modelled for fp16. Ascend C API: Gelu.
template <class T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Gelu takes fp16 or fp32 operands");
  static_assert(!highPrecision || std::is_same_v<T, float>,
                "ascend-sim: AscendC::Gelu with highPrecision on fp16 is not modelled yet");
  if (dataSize > srcLocal.GetSize() || dataSize > dstLocal.GetSize())
    detail::fault("Gelu: dataSize " + std::to_string(dataSize) + " exceeds src or dst");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t pass = sharedTmpBuffer.GetSize() / sizeof(T) / 2 / per_block * per_block;
  if (pass == 0)
    detail::fault("Gelu: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below the 64 B of one pass");
  const LocalTensor<T> tmp = sharedTmpBuffer.ReinterpretCast<T>();
  const T cube_coef = static_cast<T>(0.044715f), y_coef = static_cast<T>(1.5957691216057308f);
  detail::glu_chunks(dataSize, pass, [&](uint32_t off, uint32_t n) {
    const LocalTensor<T> a = tmp, b = tmp[pass], x = srcLocal[off];
    Mul(a, x, x, n);  // y = 1.5957691 (x + 0.044715 x^3)
    Mul(b, x, a, n);
    Muls(a, b, cube_coef, n);
    Add(b, x, a, n);
    Muls(a, b, y_coef, n);
    Mins(b, a, static_cast<T>(0.0f), n);  // exp(min(y, 0))
    Exp(b, b, n);
    Abs(a, a, n);  // x / (1 + exp(-|y|))
    Muls(a, a, static_cast<T>(-1.0f), n);
    Exp(a, a, n);
    Adds(a, a, static_cast<T>(1.0f), n);
    if constexpr (highPerformance) {
      Reciprocal(a, a, n);
      Mul(a, x, a, n);
    } else {
      Div(a, x, a, n);
    }
    Mul(dstLocal[off], a, b, n);
  });
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize) {
  Gelu<T, highPrecision, highPerformance>(dstLocal, srcLocal, detail::stack_buffer<uint8_t>("Gelu"),
                                          dataSize);
}

// FasterGelu(x) = x / (1 + exp(-1.702 x)) (FastGelu, x / (1 + exp(-1.702 |x|)) x
// exp(0.851 (x - |x|)), simplified): Muls, Exp, Adds, then a Div (highPerformance: a Reciprocal
// and a Mul), in T with one temporary of T per element, in passes as large as sharedTmpBuffer
// holds. highPrecision (fp16 widened to fp32) is not modelled for fp16. Ascend C API: FasterGelu.
template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "FasterGelu takes fp16 or fp32 operands");
  static_assert(!highPrecision || std::is_same_v<T, float>,
                "ascend-sim: AscendC::FasterGelu with highPrecision on fp16 is not modelled yet");
  if (dataSize > srcLocal.GetSize() || dataSize > dstLocal.GetSize())
    detail::fault("FasterGelu: dataSize " + std::to_string(dataSize) + " exceeds src or dst");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t pass = sharedTmpBuffer.GetSize() / sizeof(T) / per_block * per_block;
  if (pass == 0)
    detail::fault("FasterGelu: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below the 32 B of one pass");
  const LocalTensor<T> a = sharedTmpBuffer.ReinterpretCast<T>();
  detail::glu_chunks(dataSize, pass, [&](uint32_t off, uint32_t n) {
    const LocalTensor<T> x = srcLocal[off];
    Muls(a, x, static_cast<T>(-1.702f), n);
    Exp(a, a, n);
    Adds(a, a, static_cast<T>(1.0f), n);
    if constexpr (highPerformance) {
      Reciprocal(a, a, n);
      Mul(dstLocal[off], x, a, n);
    } else {
      Div(dstLocal[off], x, a, n);
    }
  });
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const uint32_t dataSize) {
  FasterGelu<T, highPrecision, highPerformance>(
      dstLocal, srcLocal, detail::stack_buffer<uint8_t>("FasterGelu"), dataSize);
}

// Sigmoid(x) = 1 / (1 + exp(-x)) in T: Muls, Exp, Adds, then a Div of a Duplicate of ones, the
// ones one temporary of T per element of a pass. Ascend C API: Sigmoid.
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Sigmoid takes fp16 or fp32 operands");
  if (calCount > srcTensor.GetSize() || calCount > dstTensor.GetSize())
    detail::fault("Sigmoid: calCount " + std::to_string(calCount) + " exceeds src or dst");
  constexpr uint32_t per_block = 32 / sizeof(T);
  const uint32_t pass = sharedTmpBuffer.GetSize() / sizeof(T) / per_block * per_block;
  if (pass == 0)
    detail::fault("Sigmoid: sharedTmpBuffer of " + std::to_string(sharedTmpBuffer.GetSize()) +
                  " B is below one 32-B block");
  const LocalTensor<T> ones = sharedTmpBuffer.ReinterpretCast<T>();
  detail::glu_chunks(calCount, pass, [&](uint32_t off, uint32_t n) {
    const LocalTensor<T> y = dstTensor[off];
    Muls(y, srcTensor[off], static_cast<T>(-1.0f), n);
    Exp(y, y, n);
    Adds(y, y, static_cast<T>(1.0f), n);
    Duplicate(ones, static_cast<T>(1.0f), n);
    Div(y, ones, y, n);
  });
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const uint32_t calCount) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, detail::stack_buffer<uint8_t>("Sigmoid"),
                            calCount);
}
template <class T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, detail::stack_buffer<uint8_t>("Sigmoid"),
                            srcTensor.GetSize());
}

// Swish(x) = x / (1 + exp(-beta x)) in T, no temporary: Muls, Exp, Adds, Div into dst.
// Silu is Swish with beta = 1. Ascend C API: Swish, Silu.
template <class T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
           const T scalarValue) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Swish takes fp16 or fp32 operands");
  if (dataSize > srcLocal.GetSize() || dataSize > dstLocal.GetSize())
    detail::fault("Swish: dataSize " + std::to_string(dataSize) + " exceeds src or dst");
  const T neg_beta = static_cast<T>(-1.0f * static_cast<float>(to_double(scalarValue)));
  Muls(dstLocal, srcLocal, neg_beta, dataSize);
  Exp(dstLocal, dstLocal, dataSize);
  Adds(dstLocal, dstLocal, static_cast<T>(1.0f), dataSize);
  Div(dstLocal, srcLocal, dstLocal, dataSize);
}
template <class T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  if (dataSize > srcLocal.GetSize() || dataSize > dstLocal.GetSize())
    detail::fault("Silu: dataSize " + std::to_string(dataSize) + " exceeds src or dst");
  Swish<T, isReuseSource>(dstLocal, srcLocal, dataSize, static_cast<T>(1.0f));
}

}  // namespace AscendC
