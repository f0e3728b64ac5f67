// Tests of the high-level math, activation and Sum APIs (api/math.h, activation.h, reduce.h)
// and their host size queries (sdk/include/tiling/math_tiling_host.h). Each expected value is
// computed here without the facade: either the documented instruction sequence replayed in host
// fp32 arithmetic (each step rounded to nearest even, as the instructions round), so the result
// must match bit for bit, or the exact function in double with the tolerance the approximation
// allows. One Bench and one kernel run per test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "api/kernel_operator.h"
#include "models/errors.h"
#include "sdk/include/tiling/math_tiling_host.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {
using namespace AscendC;
using ascend::SimError;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;
using ascend::test::uniform;

uint32_t bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
// fp32 of the double v, rounded to nearest even (what one instruction's exact result becomes).
float f32(double v) {
  return static_cast<float>(v);
}

// Runs op(dst, src, tmp) on one core with src = `in` in UB, a tmp buffer of `tmp_bytes` and dst
// of in.size() elements (a whole number of 32-B blocks); returns dst and the kernel's latency in
// ticks. In a forked child, so that a test may run several (SystemC elaborates once a process).
template <class D, class S>
std::pair<std::vector<D>, uint64_t> run_op(
    const std::vector<S>& in, uint32_t tmp_bytes,
    const std::function<void(const LocalTensor<D>&, const LocalTensor<S>&,
                             const LocalTensor<uint8_t>&)>& op,
    const std::vector<D>& dst_init = {}) {
  const uint32_t n = static_cast<uint32_t>(in.size());
  const nlohmann::json j = ascend::test::in_child([&] {
    Bench b;
    const uint64_t src_gm = b.alloc(n * sizeof(S)), dst_gm = b.alloc(n * sizeof(D));
    b.sim().write(src_gm, in.data(), n * sizeof(S));
    std::vector<D> init = dst_init.empty() ? std::vector<D>(n) : dst_init;
    b.sim().write(dst_gm, init.data(), n * sizeof(D));
    auto& rec = b.run(1, [&] {
      TPipe pipe;
      LocalTensor<S> src = ub_tensor<S>(pipe, n);
      LocalTensor<D> dst = ub_tensor<D>(pipe, n);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmp_bytes);
      DataCopy(src, global<S>(src_gm, n), n);
      DataCopy(dst, global<D>(dst_gm, n), n);
      Order<HardEvent::MTE2_V>();
      op(dst, src, tmp);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<D>(dst_gm, n), dst, n);
    });
    std::vector<uint8_t> bytes(n * sizeof(D));
    b.sim().read(dst_gm, bytes.data(), bytes.size());
    return nlohmann::json{{"bytes", bytes}, {"latency", rec.latency()}};
  });
  if (!j.contains("bytes")) {
    ADD_FAILURE() << j.dump();
    return {std::vector<D>(n), 0};
  }
  const std::vector<uint8_t> bytes = j["bytes"].get<std::vector<uint8_t>>();
  std::vector<D> out(n);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return {out, j["latency"].get<uint64_t>()};
}

template <class T>
using Unary =
    std::function<void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<uint8_t>&)>;

void expect_same_bits(const std::vector<float>& got, const std::vector<float>& want,
                      const std::vector<float>& in) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i]) && std::isnan(want[i])) continue;
    EXPECT_EQ(bits(got[i]), bits(want[i]))
        << "x = " << in[i] << ": got " << got[i] << ", want " << want[i];
  }
}

TEST(MathApi, CeilFloorFracAreTheRoundingCastsBitForBit) {
  std::vector<float> x = uniform(256, -1000.0f, 1000.0f, 1);
  x[0] = -0.5f, x[1] = 0.5f, x[2] = -3.0f, x[3] = 2.5f, x[4] = -2.5f, x[5] = 16777217.0f;
  const auto ceil = run_op<float, float>(
      x, 1024, [](auto& d, auto& s, auto& t) { Ceil<float, false>(d, s, t, 256); });
  const auto floor = run_op<float, float>(
      x, 1024, [](auto& d, auto& s, auto& t) { Floor<float, false>(d, s, t, 256); });
  const auto frac = run_op<float, float>(
      x, 1024, [](auto& d, auto& s, auto& t) { Frac<float, false>(d, s, t, 256); });
  std::vector<float> want_ceil, want_floor, want_frac;
  for (float v : x) {
    want_ceil.push_back(std::ceil(v));
    want_floor.push_back(std::floor(v));
    want_frac.push_back(v - std::trunc(v));  // exact in fp32
  }
  expect_same_bits(ceil.first, want_ceil, x);
  expect_same_bits(floor.first, want_floor, x);
  expect_same_bits(frac.first, want_frac, x);
  EXPECT_EQ(bits(ceil.first[0]), bits(-0.0f));  // ceil(-0.5) keeps the sign
}

TEST(MathApi, AcoshIsItsInstructionSequenceAndCloseToAcosh) {
  std::vector<float> x = uniform(304, 1.0f, 1000.0f, 2);
  x[0] = 1.0f;
  const auto got = run_op<float, float>(
      x, 512, [](auto& d, auto& s, auto& t) { Acosh<float, false>(d, s, t, 304); });
  std::vector<float> want;
  for (float v : x) {  // Mul, Adds, Sqrt, Add, Div, Mul, Ln, each rounded in fp32
    float s = v * v;
    s = s + -1.0f;
    s = f32(std::sqrt(static_cast<double>(s)));
    s = v + s;
    const float one = s / s;
    s = s * one;
    want.push_back(f32(std::log(static_cast<double>(s))));
  }
  expect_same_bits(got.first, want, x);
  for (size_t i = 1; i < x.size(); ++i)
    EXPECT_NEAR(got.first[i], std::acosh(static_cast<double>(x[i])), 2e-6 * got.first[i] + 1e-3)
        << x[i];
}

TEST(MathApi, AcoshInFp16WidensComputesAndNarrows) {
  std::vector<float> xf = uniform(64, 1.0f, 50.0f, 3);
  std::vector<half> x;
  for (float v : xf) x.push_back(half(v));
  const auto got = run_op<half, half>(
      x, 64 * 12, [](auto& d, auto& s, auto& t) { Acosh<half, false>(d, s, t, 64); });
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::acosh(to_double(x[i]));
    EXPECT_NEAR(to_double(got.first[i]), want, want * 1e-3 + 1e-3) << to_double(x[i]);
  }
}

TEST(MathApi, ErfMatchesTheRationalApproximationAndErf) {
  std::vector<float> x = uniform(200, -5.0f, 5.0f, 4);
  x[0] = 0.0f, x[1] = 4.5f, x[2] = -4.5f;
  const auto got = run_op<float, float>(
      x, 3 * 4 * 64, [](auto& d, auto& s, auto& t) { Erf<float, false>(d, s, t, 200); });
  const float P[6] = {0.29639384698e5f, 0.50637915060e4f, 0.13938061484e4f,
                      0.10162808918e3f, 0.75517016694e1f, 0.053443748819f};
  const float Q[5] = {0.26267224157e5f, 0.13243365831e5f, 0.30231248150e4f, 0.39856963806e3f,
                      0.31212858877e2f};
  std::vector<float> want;
  for (float v : x) {
    const float c = std::max(std::min(v, 3.92f), -3.92f), x2 = c * c;
    float p = x2 * P[5];
    for (int k = 4; k >= 1; --k) p = (p + P[k]) * x2;
    p = (p + P[0]) * c;
    float q = x2 + Q[4];
    for (int k = 3; k >= 0; --k) q = q * x2 + Q[k];
    want.push_back(p / q);
  }
  expect_same_bits(got.first, want, x);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(got.first[i], std::erf(static_cast<double>(x[i])), 1e-6) << x[i];
}

TEST(MathApi, ExpByTaylorExpansionIsCloseToExpAndLevelZeroIsTheInstruction) {
  std::vector<float> x = uniform(128, -10.0f, 10.0f, 5);
  const auto taylor = run_op<float, float>(
      x, 3 * 4 * 128, [](auto& d, auto& s, auto& t) { Exp<float, 10, false>(d, s, t, 128); });
  const auto plain = run_op<float, float>(
      x, 32, [](auto& d, auto& s, auto& t) { Exp<float, 0, false>(d, s, t, 128); });
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::exp(static_cast<double>(x[i]));
    EXPECT_NEAR(taylor.first[i], want, want * 2e-6) << x[i];
    EXPECT_EQ(bits(plain.first[i]), bits(f32(want))) << x[i];
  }
}

TEST(MathApi, XorOfInt16IsBitwiseExclusiveOr) {
  std::vector<int16_t> a(160), c(160);
  std::mt19937 gen(6);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<int16_t>(gen());
    c[i] = static_cast<int16_t>(gen());
  }
  std::vector<int16_t> got(160);
  {
    Bench b;
    const uint64_t ga = b.alloc(320), gc = b.alloc(320), gd = b.alloc(320);
    b.sim().write(ga, a.data(), 320);
    b.sim().write(gc, c.data(), 320);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<int16_t> x = ub_tensor<int16_t>(pipe, 160), y = ub_tensor<int16_t>(pipe, 160),
                           d = ub_tensor<int16_t>(pipe, 160);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 64);  // several passes
      DataCopy(x, global<int16_t>(ga, 160), 160);
      DataCopy(y, global<int16_t>(gc, 160), 160);
      Order<HardEvent::MTE2_V>();
      Xor<int16_t, false>(d, x, y, tmp, 160);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<int16_t>(gd, 160), d, 160);
    });
    b.sim().read(gd, got.data(), 320);
  }
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(got[i], static_cast<int16_t>(a[i] ^ c[i])) << i;
}

TEST(MathApi, AxpyOfFp16IntoFp32AddsTheScaledWidenedSource) {
  std::vector<float> xf = uniform(96, 1.0f, 100.0f, 7);
  std::vector<half> x;
  for (float v : xf) x.push_back(half(v));
  const std::vector<float> init = uniform(96, -5.0f, 5.0f, 8);
  const auto got = run_op<float, half>(
      x, 64, [](auto& d, auto& s, auto& t) { Axpy(d, s, half(2.5f), t, 96); }, init);
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = static_cast<float>(to_double(x[i])) * 2.5f + init[i];
    EXPECT_EQ(bits(got.first[i]), bits(want)) << i;
  }
}

TEST(ActivationApi, SigmoidGeluSiluSwishAreTheirFormulas) {
  const std::vector<float> x = uniform(128, -6.0f, 6.0f, 9);
  const auto sig = run_op<float, float>(
      x, 128, [](auto& d, auto& s, auto& t) { Sigmoid<float, false>(d, s, t, 128); });
  const auto gelu =
      run_op<float, float>(x, 256, [](auto& d, auto& s, auto& t) { Gelu(d, s, t, 128); });
  const auto silu =
      run_op<float, float>(x, 32, [](auto& d, auto& s, auto&) { Silu<float, false>(d, s, 128); });
  const auto swish =
      run_op<float, float>(x, 32, [](auto& d, auto& s, auto&) { Swish(d, s, 128, 1.5f); });
  const double k = std::sqrt(2.0 / M_PI);
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    EXPECT_NEAR(sig.first[i], 1.0 / (1.0 + std::exp(-v)), 1e-6) << v;
    EXPECT_NEAR(gelu.first[i], 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v))), 1e-5)
        << v;
    EXPECT_NEAR(silu.first[i], v / (1.0 + std::exp(-v)), 1e-5) << v;
    EXPECT_NEAR(swish.first[i], v / (1.0 + std::exp(-1.5 * v)), 1e-5) << v;
  }
  // Gelu in fp32 is x / (1 + exp(-|y|)) x exp(min(y, 0)), each step rounded in fp32
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = x[i], y = (v + (v * (v * v)) * 0.044715f) * 1.5957691216057308f;
    const float e = f32(std::exp(static_cast<double>(std::min(y, 0.0f))));
    const float d = f32(std::exp(static_cast<double>(std::fabs(y) * -1.0f))) + 1.0f;
    EXPECT_EQ(bits(gelu.first[i]), bits((v / d) * e)) << v;
  }
  // Sigmoid in fp32 is Muls, Exp, Adds, Div of ones: bit for bit in host fp32
  for (size_t i = 0; i < x.size(); ++i) {
    const float e = f32(std::exp(static_cast<double>(x[i] * -1.0f)));
    EXPECT_EQ(bits(sig.first[i]), bits(1.0f / (e + 1.0f))) << x[i];
  }
}

// FasterGelu(x) = x / (1 + exp(-1.702 x)): Muls, Exp, Adds and a Div in fp32, bit for bit in host
// fp32, over passes of the 32 floats its 128-B buffer holds; highPerformance divides by a
// Reciprocal and a Mul. Both are FastGelu within fp32 rounding.
TEST(ActivationApi, FasterGeluIsItsFormulaInPassesOfItsBuffer) {
  const std::vector<float> x = uniform(128, -8.0f, 8.0f, 12);
  const auto got = run_op<float, float>(
      x, 128, [](auto& d, auto& s, auto& t) { FasterGelu<float>(d, s, t, 128); });
  const auto fast = run_op<float, float>(
      x, 128, [](auto& d, auto& s, auto& t) { FasterGelu<float, false, true>(d, s, t, 128); });
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = x[i];
    const float d = f32(std::exp(static_cast<double>(v * -1.702f))) + 1.0f;
    EXPECT_EQ(bits(got.first[i]), bits(v / d)) << v;
    const double want =
        v / (1.0 + std::exp(-1.702 * std::fabs(v))) * std::exp(0.851 * (v - std::fabs(v)));
    EXPECT_NEAR(fast.first[i], want, 1e-5 * (1.0 + std::fabs(want))) << v;
  }
}

TEST(ReduceApi, SumOfRowsAcrossSeveralRepeats) {
  const uint32_t rows = 3, inner = 1000, n = 997;
  const std::vector<float> x = uniform(rows * inner, -1.0f, 1.0f, 10);
  std::vector<float> got(8);
  {
    Bench b;
    const uint64_t gs = b.alloc(x.size() * 4), gd = b.alloc(32);
    b.sim().write(gs, x.data(), x.size() * 4);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> s = ub_tensor<float>(pipe, rows * inner), d = ub_tensor<float>(pipe, 8);
      uint32_t max_tmp = 0, min_tmp = 0;
      GetSumMaxMinTmpSize(n, 4, false, max_tmp, min_tmp);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, min_tmp);
      DataCopy(s, global<float>(gs, rows * inner), rows * inner);
      Duplicate(d, 0.0f, 8);
      Order<HardEvent::MTE2_V>();
      SumParams p;
      p.outter = rows, p.inner = inner, p.n = n;
      Sum(d, s, tmp, p);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(gd, 8), d, 8);
    });
    b.sim().read(gd, got.data(), 32);
  }
  for (uint32_t r = 0; r < rows; ++r) {
    double want = 0;
    for (uint32_t i = 0; i < n; ++i) want += x[r * inner + i];
    EXPECT_NEAR(got[r], want, 1e-4) << "row " << r;
  }
}

TEST(MathApi, PowerIsExpOfYLnXWithTheSignOfANegativeBase) {
  std::vector<float> base = uniform(104, 0.1f, 10.0f, 12), expo = uniform(104, -5.0f, 5.0f, 13);
  base[0] = -2.0f, expo[0] = 3.0f;   // odd integer: negative
  base[1] = -2.0f, expo[1] = 2.0f;   // even integer: positive
  base[2] = -2.0f, expo[2] = 0.5f;   // not an integer: NaN
  base[3] = -3.0f, expo[3] = -1.0f;  // odd negative integer
  std::vector<float> got(104);
  {
    Bench b;
    const uint64_t gb = b.alloc(416), ge = b.alloc(416), gd = b.alloc(416);
    b.sim().write(gb, base.data(), 416);
    b.sim().write(ge, expo.data(), 416);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> x = ub_tensor<float>(pipe, 104), y = ub_tensor<float>(pipe, 104),
                         d = ub_tensor<float>(pipe, 104);
      uint32_t max_tmp = 0, min_tmp = 0;
      GetPowerMaxMinTmpSize(ge::Shape({100}), ge::Shape({100}), false, 4, false, max_tmp, min_tmp);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, min_tmp);  // two passes
      DataCopy(x, global<float>(gb, 104), 104);
      DataCopy(y, global<float>(ge, 104), 104);
      Order<HardEvent::MTE2_V>();
      Power<float, false>(d, x, y, tmp, 100);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(gd, 104), d, 104);
    });
    b.sim().read(gd, got.data(), 416);
  }
  EXPECT_NEAR(got[0], -8.0, 1e-5);
  EXPECT_NEAR(got[1], 4.0, 1e-5);
  EXPECT_TRUE(std::isnan(got[2])) << got[2];
  EXPECT_NEAR(got[3], -1.0 / 3, 1e-6);
  for (size_t i = 4; i < 100; ++i) {  // the last 4 are beyond calCount
    const double want = std::pow(static_cast<double>(base[i]), static_cast<double>(expo[i]));
    EXPECT_NEAR(got[i], want, std::fabs(want) * 2e-6) << base[i] << " ^ " << expo[i];
  }
}

TEST(MathApi, FmodAndTruncRoundTowardZero) {
  std::vector<float> a = uniform(128, -100.0f, 100.0f, 14), c = uniform(128, 0.5f, 7.0f, 15);
  for (size_t i = 0; i < c.size(); i += 2) c[i] = -c[i];
  std::vector<float> got(128), trunc(128);
  {
    Bench b;
    const uint64_t ga = b.alloc(512), gc = b.alloc(512), gd = b.alloc(512), gt = b.alloc(512);
    b.sim().write(ga, a.data(), 512);
    b.sim().write(gc, c.data(), 512);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> x = ub_tensor<float>(pipe, 128), y = ub_tensor<float>(pipe, 128),
                         d = ub_tensor<float>(pipe, 128), t = ub_tensor<float>(pipe, 128);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 256);
      DataCopy(x, global<float>(ga, 128), 128);
      DataCopy(y, global<float>(gc, 128), 128);
      Order<HardEvent::MTE2_V>();
      Fmod<float, false>(d, x, y, tmp, 128);
      Trunc<float, false>(t, x, tmp, 128);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(gd, 128), d, 128);
      DataCopy(global<float>(gt, 128), t, 128);
    });
    b.sim().read(gd, got.data(), 512);
    b.sim().read(gt, trunc.data(), 512);
  }
  for (size_t i = 0; i < a.size(); ++i) {
    const float q = std::trunc(a[i] / c[i]);  // Div, Cast TRUNC, Mul, Sub in fp32
    EXPECT_EQ(bits(got[i]), bits(a[i] - q * c[i])) << a[i] << " fmod " << c[i];
    EXPECT_NEAR(got[i], std::fmod(a[i], c[i]), 1e-4) << a[i] << " fmod " << c[i];
    EXPECT_EQ(bits(trunc[i]), bits(std::trunc(a[i]))) << a[i];
  }
}

TEST(MathApi, CumSumAlongTheFirstAxisAddsRowByRow) {
  static constexpr CumSumConfig kFirstAxisLastRow = {false, false, true,
                                                     CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  const uint32_t rows = 5, inner = 24;
  const std::vector<float> x = uniform(rows * inner, -10.0f, 10.0f, 16);
  std::vector<float> got(rows * inner), last(inner);
  {
    Bench b;
    const uint64_t gs = b.alloc(x.size() * 4), gd = b.alloc(x.size() * 4), gl = b.alloc(inner * 4);
    b.sim().write(gs, x.data(), x.size() * 4);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> s = ub_tensor<float>(pipe, rows * inner),
                         d = ub_tensor<float>(pipe, rows * inner),
                         l = ub_tensor<float>(pipe, inner);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 32);
      DataCopy(s, global<float>(gs, rows * inner), rows * inner);
      Order<HardEvent::MTE2_V>();
      CumSum<float, kFirstAxisLastRow>(d, l, s, tmp, CumSumInfo{rows, inner});
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(gd, rows * inner), d, rows * inner);
      DataCopy(global<float>(gl, inner), l, inner);
    });
    b.sim().read(gd, got.data(), x.size() * 4);
    b.sim().read(gl, last.data(), inner * 4);
  }
  std::vector<float> want(x.begin(), x.begin() + inner);  // fp32 running sums, row by row
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < inner; ++j) {
      if (r > 0) want[j] = want[j] + x[r * inner + j];
      EXPECT_EQ(bits(got[r * inner + j]), bits(want[j])) << "row " << r << " col " << j;
    }
  }
  for (uint32_t j = 0; j < inner; ++j) EXPECT_EQ(bits(last[j]), bits(want[j])) << j;
}

TEST(MathApi, ASmallerBufferTakesMorePassesAndLonger) {
  const std::vector<float> x = uniform(4096, 1.0f, 10.0f, 11);
  const Unary<float> op = [](auto& d, auto& s, auto& t) { Acosh<float, false>(d, s, t, 4096); };
  const auto big = run_op<float, float>(x, 4096 * 4, op);
  const auto small = run_op<float, float>(x, 256, op);
  EXPECT_EQ(big.first, small.first);
  EXPECT_GT(small.second, big.second);
}

TEST(MathApi, ABufferBelowOnePassIsAKernelFault) {
  Bench b;
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<float> s = ub_tensor<float>(pipe, 64), d = ub_tensor<float>(pipe, 64);
    Erf<float, false>(d, s, ub_tensor<uint8_t>(pipe, 32), 64);  // 3 fp32 x 8 = 96 B needed
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault) << e.what();
  EXPECT_NE(std::string(e.what()).find("Erf"), std::string::npos) << e.what();
}

TEST(MathTiling, SizesFollowTheTemporariesPerElement) {
  uint32_t max_v = 0, min_v = 0;
  GetAcoshMaxMinTmpSize(ge::Shape({1024}), 4, false, max_v, min_v);
  EXPECT_EQ(min_v, 4u * 64);  // one fp32 temporary, one repeat of 64 fp32
  EXPECT_EQ(max_v, 4u * 1024);
  GetAcoshMaxMinTmpSize(ge::Shape({1024}), 2, false, max_v, min_v);
  EXPECT_EQ(min_v, 12u * 128);  // widened source, result, one temporary; 128 fp16 a repeat
  EXPECT_EQ(max_v, 12u * 1024);
  GetErfMaxMinTmpSize(ge::Shape({16}), 4, false, max_v, min_v);
  EXPECT_EQ(min_v, 12u * 64);
  EXPECT_EQ(max_v, min_v);  // never below one repeat
  GetClampMaxMinTmpSize(ge::Shape({16}), 4, false, max_v, min_v);
  EXPECT_EQ(max_v + min_v, 0u);
  EXPECT_EQ(GetGeluMinTmpSize(ge::Shape({32}), 4), 8u * 64);
  GetSumMaxMinTmpSize(64, 4, false, max_v, min_v);
  EXPECT_EQ(max_v, 0u);  // one repeat: straight into dst
  GetSumMaxMinTmpSize(997, 4, false, max_v, min_v);
  EXPECT_EQ(min_v, 64u);  // 16 partial sums, two 32-B blocks
}

}  // namespace
