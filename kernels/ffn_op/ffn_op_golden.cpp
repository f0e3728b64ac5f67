#include "kernels/ffn_op/ffn_op_golden.h"

#include <cmath>
#include <cstring>

#include "api/kernel_operator.h"

namespace ascend::ffn_op {

namespace {

using AscendC::RoundMode;
namespace d = AscendC::detail;

template <class C>
C constant(double v) {
  return AscendC::cast_to<C>(v, RoundMode::CAST_RINT);
}

// The kernel's Activate (ffn_op_kernel.h), element by element.
template <class C>
C activate(Activation a, C x) {
  C t{};
  switch (a) {
    case Activation::Relu:
      return AscendC::to_double(x) > 0 ? x : C{};
    case Activation::Gelu:
      t = d::mul(x, x);
      t = d::mul(t, x);
      t = d::mul(t, constant<C>(0.044715));
      t = d::add(t, x);
      t = d::mul(t, constant<C>(-1.5957691216057308));
      break;
    case Activation::FastGelu:
      t = d::mul(x, constant<C>(-1.702));
      break;
    case Activation::Silu:
      t = d::mul(x, constant<C>(-1.0));
      break;
    case Activation::Swiglu:  // the GLU ones: glu() below
    case Activation::Geglu:
    case Activation::Reglu:
      return x;
  }
  t = d::round_to<C>(std::exp(AscendC::to_double(t)));
  t = d::add(t, constant<C>(1.0));
  return d::div(x, t);
}

// The GLU APIs on fp16 element by element (api/activation.h): left x act(right), each step
// an fp32 vector operation rounded to fp32, then fp16 by RINT (ReGlu's Cast of fp16 too).
AscendC::half glu(Activation a, AscendC::half left, AscendC::half right) {
  const float x0 = AscendC::to_float(left), x1 = AscendC::to_float(right);
  float g;
  if (a == Activation::Reglu) {
    g = x1 >= 0.0f ? x1 : 0.0f;
  } else if (a == Activation::Geglu) {
    g = d::mul(x1, x1);
    g = d::add(g, 22.363860002236f);
    g = d::mul(g, x1);
    g = d::mul(g, -0.0713548162726f);
    g = d::round_to<float>(std::exp(static_cast<double>(g)));
    g = d::add(g, 1.0f);
    g = d::div(x1, g);
  } else {  // SwiGLU, beta 1
    g = d::mul(x1, -1.0f);
    g = d::round_to<float>(std::exp(static_cast<double>(g)));
    g = d::add(g, 1.0f);
    g = d::div(x1, g);
  }
  return AscendC::cast_to<AscendC::half>(static_cast<double>(d::mul(x0, g)), RoundMode::CAST_RINT);
}

// out[rows, n] (pitch n) = a[rows, k] x w[k, n] (+ bias), in fp32, ascending k per element:
// acc + float(a) * float(b) as the model's Mmad (the operands converted once).
template <class T>
void matmul(const T* a, int64_t rows, int64_t k, const T* w, int64_t n, const float* bias,
            std::vector<float>& out) {
  std::vector<float> wf(static_cast<size_t>(k * n));
  for (size_t i = 0; i < wf.size(); ++i) wf[i] = static_cast<float>(AscendC::to_double(w[i]));
  out.assign(static_cast<size_t>(rows * n), 0.0f);
  for (int64_t i = 0; i < rows; ++i) {
    float* o = &out[static_cast<size_t>(i * n)];
    if (bias) std::memcpy(o, bias, static_cast<size_t>(n) * 4);
    for (int64_t kk = 0; kk < k; ++kk) {
      const float av = static_cast<float>(AscendC::to_double(a[i * k + kk]));
      const float* wr = &wf[static_cast<size_t>(kk * n)];
      for (int64_t j = 0; j < n; ++j) o[j] = d::mac_op(o[j], av, wr[j]);
    }
  }
}

template <class T, class Mid>
std::vector<uint16_t> run(const Tiling& t, const GoldenInputs& in) {
  const T* x = static_cast<const T*>(in.x);
  const T* w1 = static_cast<const T*>(in.w1);
  const T* w2 = static_cast<const T*>(in.w2);
  std::vector<uint16_t> y(static_cast<size_t>(t.tokens * t.n2), 0);
  std::vector<float> h, o;
  std::vector<T> act;
  int64_t row = 0;
  for (int32_t e = 0; e < t.experts; ++e) {
    const int64_t m = (*in.expert_tokens)[static_cast<size_t>(e)];
    if (m == 0) continue;
    matmul(x + row * t.k1, m, t.k1, w1 + int64_t{e} * t.k1 * t.n1, t.n1,
           in.b1 ? in.b1 + int64_t{e} * t.n1 : nullptr, h);
    act.assign(static_cast<size_t>(m * t.k2), T{});
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < t.k2; ++j) {
        const Mid v =
            AscendC::cast_to<Mid>(h[static_cast<size_t>(i * t.n1 + j)], RoundMode::CAST_RINT);
        T& out = act[static_cast<size_t>(i * t.k2 + j)];
        if constexpr (std::is_same_v<Mid, AscendC::half>) {
          if (is_glu(t.activation)) {  // the left half gated by the activation of the right
            const Mid right = AscendC::cast_to<Mid>(h[static_cast<size_t>(i * t.n1 + t.k2 + j)],
                                                    RoundMode::CAST_RINT);
            out = glu(t.activation, v, right);
            continue;
          }
        }
        // High precision: the fp32 result to the dtype by CAST_ROUND (half away from zero), as
        // the operator's Cast; exact in high performance (Mid is T).
        out = AscendC::cast_to<T>(AscendC::to_double(activate(t.activation, v)),
                                  RoundMode::CAST_ROUND);
      }
    matmul(act.data(), m, t.k2, w2 + int64_t{e} * t.k2 * t.n2, t.n2,
           in.b2 ? in.b2 + int64_t{e} * t.n2 : nullptr, o);
    for (int64_t i = 0; i < m * t.n2; ++i) {
      const T v = AscendC::cast_to<T>(o[static_cast<size_t>(i)], RoundMode::CAST_RINT);
      std::memcpy(&y[static_cast<size_t>(row * t.n2 + i)], &v, 2);
    }
    row += m;
  }
  return y;
}

// out[rows, n] = a[rows, k] x w[k, n] (+ bias) in int32, wrapping as L0C does.
void matmul_int8(const int8_t* a, int64_t rows, int64_t k, const int8_t* w, int64_t n,
                 const int32_t* bias, std::vector<int32_t>& out) {
  out.assign(static_cast<size_t>(rows * n), 0);
  for (int64_t i = 0; i < rows; ++i) {
    int32_t* o = &out[static_cast<size_t>(i * n)];
    if (bias) std::memcpy(o, bias, static_cast<size_t>(n) * 4);
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t av = a[i * k + kk];
      const int8_t* wr = w + kk * n;
      for (int64_t j = 0; j < n; ++j) o[j] = d::mac_op(o[j], av, int32_t{wr[j]});
    }
  }
}

// The FIXPIPE's dequantization as modelled (cube.h fix_convert): fp32(acc) x the scale with its
// low 13 bits cleared, in fp32, then fp16 by nearest even.
AscendC::half dequant(int32_t acc, float scale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  bits &= 0xFFFFE000u;
  std::memcpy(&scale, &bits, 4);
  return AscendC::cast_to<AscendC::half>(static_cast<double>(static_cast<float>(acc) * scale),
                                         RoundMode::CAST_RINT);
}

}  // namespace

// The quant template's experts in order: mm1 in int32, each element of its first K2 columns
// requantized to int8 (`requant(e, j, acc, deq_scale1[j])`), mm2 in int32, each element of y by
// `out(acc, deq_scale2[j])` (bits).
template <class Requant, class Out>
std::vector<uint16_t> quant_experts(const Tiling& t, const QuantGoldenInputs& in, Requant requant,
                                    Out out) {
  std::vector<uint16_t> y(static_cast<size_t>(t.tokens * t.n2), 0);
  std::vector<int32_t> acc;
  std::vector<int8_t> q;
  int64_t row = 0;
  for (int32_t e = 0; e < t.experts; ++e) {
    const int64_t m = (*in.expert_tokens)[static_cast<size_t>(e)];
    if (m == 0) continue;
    matmul_int8(in.x + row * t.k1, m, t.k1, in.w1 + int64_t{e} * t.k1 * t.n1, t.n1,
                in.b1 ? in.b1 + int64_t{e} * t.n1 : nullptr, acc);
    const float* deq1 = in.deq_scale1 + int64_t{e} * t.n1;
    q.assign(static_cast<size_t>(m * t.k2), 0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < t.k2; ++j)
        q[static_cast<size_t>(i * t.k2 + j)] =
            requant(e, j, acc[static_cast<size_t>(i * t.n1 + j)], deq1[j]);
    matmul_int8(q.data(), m, t.k2, in.w2 + int64_t{e} * t.k2 * t.n2, t.n2,
                in.b2 ? in.b2 + int64_t{e} * t.n2 : nullptr, acc);
    const float* deq2 = in.deq_scale2 + int64_t{e} * t.n2;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < t.n2; ++j)
        y[static_cast<size_t>((row + i) * t.n2 + j)] =
            out(acc[static_cast<size_t>(i * t.n2 + j)], deq2[j]);
    row += m;
  }
  return y;
}

std::vector<uint16_t> quant_golden(const Tiling& t, const QuantGoldenInputs& in) {
  using AscendC::bfloat16_t;
  using AscendC::half;
  const RoundMode round = static_cast<RoundMode>(t.quant_round);
  auto scale_of = [&](int32_t e, int64_t j) {
    return t.quant_per_channel ? in.scale[int64_t{e} * t.k2 + j] : in.scale[e];
  };
  if (t.quant_bf16) {
    // bf16 y (key 11): mm1 and mm2 leave int32; the AIVs dequantize in fp32 (fp32(acc) x fp32
    // scale), the activation and the requant run in fp32 (Muls/Mul, Adds), then fp16 by
    // CAST_ODD and int8 by the round mode; y = bf16(fp32(acc) x scale) by nearest even.
    auto fp32 = [](int32_t v) { return AscendC::cast_to<float>(v, RoundMode::CAST_NONE); };
    return quant_experts(
        t, in,
        [&](int32_t e, int64_t j, int32_t acc, float deq) {
          const float x = d::mul(fp32(acc), deq);
          const float v = d::add(d::mul(activate(t.activation, x), scale_of(e, j)), in.offset[e]);
          const half h = AscendC::cast_to<half>(v, RoundMode::CAST_ODD);
          return AscendC::cast_to<int8_t>(AscendC::to_double(h), round);
        },
        [&](int32_t acc, float deq) {
          return AscendC::cast_to<bfloat16_t>(d::mul(fp32(acc), deq), RoundMode::CAST_RINT).bits;
        });
  }
  // fp16 y: the FIXPIPE dequantizes mm1 and mm2 to fp16; the activation and the requant run in
  // fp16 (the scale and the offset rounded to fp16), then int8 by the round mode.
  return quant_experts(
      t, in,
      [&](int32_t e, int64_t j, int32_t acc, float deq) {
        const half offset = AscendC::cast_to<half>(in.offset[e], RoundMode::CAST_RINT);
        const half s = AscendC::cast_to<half>(scale_of(e, j), RoundMode::CAST_RINT);
        const half v = d::add(d::mul(activate(t.activation, dequant(acc, deq)), s), offset);
        return AscendC::cast_to<int8_t>(AscendC::to_double(v), round);
      },
      [](int32_t acc, float deq) { return dequant(acc, deq).bits; });
}

std::vector<uint16_t> golden(const Tiling& t, bool bf16, const GoldenInputs& in) {
  if (bf16) return run<AscendC::bfloat16_t, float>(t, in);
  if (t.high_performance) return run<AscendC::half, AscendC::half>(t, in);
  return run<AscendC::half, float>(t, in);
}

}  // namespace ascend::ffn_op
