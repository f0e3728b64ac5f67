// More high-level vector APIs (LogSoftMax, Pad of unaligned rows, AscendAntiQuant, RmsNorm,
// WelfordUpdate/Finalize, SoftmaxFlashV2) with their host tiling, each against a reference computed
// here in double, with a shape that has a tail and a call that must end in a kernel fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "api/kernel_operator.h"
#include "models/errors.h"
#include "sdk/include/tiling/adv_tiling_host.h"
#include "sdk/include/tiling/layernorm_tiling_host.h"
#include "sdk/include/tiling/pad_tiling_host.h"
#include "sdk/include/tiling/softmax_tiling_host.h"
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

void expect_fault(Bench& b, const std::string& words, const std::function<void()>& kernel) {
  SimError e = b.run_expecting_error(1, kernel);
  EXPECT_EQ(e.code, ascend::kExitKernelFault) << e.what();
  EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
}

// ---------------------------------------------------------------------------------------------
// LogSoftMax

// One LogSoftMax run against log10 of the softmax; emptyTiling leaves the tiling as the example
// does (the passes then follow the temporary's size).
void check_log_softmax(bool emptyTiling) {
  constexpr uint32_t kRows = 13, kCols = 72;  // passes of 8 rows and a tail of 5; a fold
  const uint32_t n = kRows * kCols;
  const std::vector<float> x = uniform(n, -8, 8, 7);
  const ge::Shape shape({kRows, kCols});
  const uint32_t tmpBytes = GetLogSoftMaxMinTmpSize(shape, 4, false);
  EXPECT_LE(tmpBytes, GetLogSoftMaxMaxTmpSize(shape, 4, false));
  ::LogSoftMaxTiling tiling;
  LogSoftMaxTilingFunc(shape, 4, tmpBytes, tiling);
  EXPECT_EQ(tiling.splitM, 8u);
  {
    Bench b;
    const uint64_t xa = b.alloc(n * 4), ya = b.alloc(n * 4), ma = b.alloc(kRows * 32),
                   sa = b.alloc(kRows * 32);
    b.sim().write(xa, x.data(), n * 4);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> xs = ub_tensor<float>(pipe, n), ys = ub_tensor<float>(pipe, n),
                         ms = ub_tensor<float>(pipe, kRows * 8),
                         ss = ub_tensor<float>(pipe, kRows * 8);
      LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
      DataCopy(xs, global<float>(xa, n), n);
      Order<HardEvent::MTE2_V>();
      // The example leaves the tiling empty: the passes then follow the temporary's size.
      LogSoftMax<float>(ys, ss, ms, xs, tmp, emptyTiling ? ::LogSoftMaxTiling{} : tiling,
                        SoftMaxShapeInfo{kRows, kCols, kRows, kCols});
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(ya, n), ys, n);
      DataCopy(global<float>(ma, kRows * 8), ms, kRows * 8);
      DataCopy(global<float>(sa, kRows * 8), ss, kRows * 8);
    });
    std::vector<float> y(n), mx(kRows * 8), sm(kRows * 8);
    b.sim().read(ya, y.data(), n * 4);
    b.sim().read(ma, mx.data(), kRows * 32);
    b.sim().read(sa, sm.data(), kRows * 32);
    for (uint32_t r = 0; r < kRows; ++r) {
      double m = -1e30, s = 0;
      for (uint32_t c = 0; c < kCols; ++c) m = std::max(m, double{x[r * kCols + c]});
      for (uint32_t c = 0; c < kCols; ++c) s += std::exp(x[r * kCols + c] - m);
      for (uint32_t j = 0; j < 8; ++j) {
        EXPECT_EQ(mx[r * 8 + j], static_cast<float>(m)) << "max of row " << r;
        EXPECT_NEAR(sm[r * 8 + j], s, 1e-5 * s) << "sum of row " << r;
      }
      for (uint32_t c = 0; c < kCols; ++c) {
        const double want = std::log10(std::exp(x[r * kCols + c] - m) / s);
        EXPECT_NEAR(y[r * kCols + c], want, 2e-5 * std::abs(want) + 2e-6)
            << "row " << r << " column " << c;
      }
    }
  }
}

TEST(AdvLogSoftMax, IsLog10OfTheSoftmaxWithMaxAndSumBlocks) {
  check_log_softmax(false);
}
TEST(AdvLogSoftMax, AnEmptyTilingTakesItsPassesFromTheTemporary) {
  check_log_softmax(true);
}

TEST(AdvLogSoftMax, ATemporaryBelowOneRowIsAKernelFault) {
  Bench b;
  expect_fault(b, "SoftMax: sharedTmpBuffer", [] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 8 * 128), y = ub_tensor<float>(pipe, 8 * 128),
                       m = ub_tensor<float>(pipe, 64), s = ub_tensor<float>(pipe, 64);
    LogSoftMax<float>(y, s, m, x, ub_tensor<uint8_t>(pipe, 32), ::LogSoftMaxTiling{},
                      SoftMaxShapeInfo{8, 128, 8, 128});
  });
}

// ---------------------------------------------------------------------------------------------
// Pad of rows that are not a 32-B multiple

template <class T>
std::vector<T> run_pad(const std::vector<T>& in, uint32_t height, uint32_t width, PadParams pp,
                       uint32_t tmpBytes) {
  constexpr uint32_t perBlock = 32 / sizeof(T);
  const uint32_t wout = (width + perBlock - 1) / perBlock * perBlock;
  const uint32_t inElems = static_cast<uint32_t>(in.size()), outElems = height * wout;
  ::PadTiling pt;
  PadTilingFunc(ge::Shape({height, width}), ge::Shape({height, width}), tmpBytes, sizeof(T), pt);
  Bench b;
  const uint64_t xa = b.alloc(inElems * sizeof(T)), ya = b.alloc(outElems * sizeof(T));
  b.sim().write(xa, in.data(), inElems * sizeof(T));
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<T> xs = ub_tensor<T>(pipe, inElems), ys = ub_tensor<T>(pipe, outElems);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
    DataCopy(xs, global<T>(xa, inElems), inElems);
    Order<HardEvent::MTE2_V>();
    Pad(ys, xs, pp, tmp, pt);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<T>(ya, outElems), ys, outElems);
  });
  std::vector<T> out(outElems);
  b.sim().read(ya, out.data(), outElems * sizeof(T));
  return out;
}

TEST(AdvPad, UnalignedFloatRowsGetTheirRightPadInPasses) {
  constexpr uint32_t kH = 19, kW = 29;  // 19 x 116-B rows: 551 elements, padded to 552
  std::vector<float> x(552);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f;
  // 5 rows of offsets a pass: 4 passes, the last of 4 rows.
  const std::vector<float> y = run_pad<float>(x, kH, kW, PadParams(0, 3, -7), 5 * 32 * 4);
  for (uint32_t r = 0; r < kH; ++r)
    for (uint32_t c = 0; c < kW + 3; ++c) {
      const float want = c < kW ? x[r * kW + c] : -7.0f;
      EXPECT_EQ(y[r * 32 + c], want) << "row " << r << " column " << c;
    }
}

TEST(AdvPad, UnalignedHalfRowsGetLeftAndRightPad) {
  constexpr uint32_t kH = 6, kW = 21;  // rows of 42 B into rows of 32 halves: 1 left, 2 right
  std::vector<half> x(128);
  for (uint32_t i = 0; i < x.size(); ++i) x[i] = cast_to<half>(i, RoundMode::CAST_RINT);
  const std::vector<half> y = run_pad<half>(x, kH, kW, PadParams(1, 2, 9), 1024);
  for (uint32_t r = 0; r < kH; ++r)
    for (uint32_t c = 0; c < 1 + kW + 2; ++c) {  // the columns past them are unspecified
      const double want = (c == 0 || c > kW) ? 9.0 : static_cast<double>(r * kW + c - 1);
      EXPECT_EQ(to_double(y[r * 32 + c]), want) << "row " << r << " column " << c;
    }
}

TEST(AdvPad, APadBeyondTheAlignedWidthIsAKernelFault) {
  ::PadTiling pt;
  PadTilingFunc(ge::Shape({4, 20}), ge::Shape({4, 20}), 1024, sizeof(half), pt);
  Bench b;
  expect_fault(b, "exceeds the 32-B aligned width 32", [&] {
    TPipe pipe;
    LocalTensor<half> x = ub_tensor<half>(pipe, 128), p = ub_tensor<half>(pipe, 128);
    PadParams pp(0, 13, 3);
    Pad(p, x, pp, ub_tensor<uint8_t>(pipe, 1024), pt);
  });
}

// ---------------------------------------------------------------------------------------------
// AscendAntiQuant

// Runs AscendAntiQuant<int8_t, half, false> on src [k, n] with offset and scale [rows, n], the
// offset's shape set with SetShapeInfo (as the example does) unless `byParam`.
std::vector<half> run_anti_quant(const std::vector<int8_t>& src, const std::vector<half>& off,
                                 const std::vector<half>& sc, uint32_t k, uint32_t n,
                                 bool byParam) {
  const uint32_t count = k * n, vn = static_cast<uint32_t>(off.size());
  Bench b;
  const uint64_t sa = b.alloc(count), oa = b.alloc(vn * 2), ca = b.alloc(vn * 2),
                 da = b.alloc(count * 2);
  b.sim().write(sa, src.data(), count);
  b.sim().write(oa, off.data(), vn * 2);
  b.sim().write(ca, sc.data(), vn * 2);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<int8_t> s = ub_tensor<int8_t>(pipe, count);
    LocalTensor<half> o = ub_tensor<half>(pipe, vn), c = ub_tensor<half>(pipe, vn),
                      d = ub_tensor<half>(pipe, count);
    DataCopy(s, global<int8_t>(sa, count), count);
    DataCopy(o, global<half>(oa, vn), vn);
    DataCopy(c, global<half>(ca, vn), vn);
    Order<HardEvent::MTE2_V>();
    const uint32_t shape[] = {vn / n, n};
    AntiQuantShapeInfo info;
    if (byParam)
      info = {vn / n, n, vn / n, n};
    else
      o.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    AscendAntiQuant<int8_t, half, false>(d, s, o, c, ub_tensor<uint8_t>(pipe, 32), k, info);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<half>(da, count), d, count);
  });
  std::vector<half> out(count);
  b.sim().read(da, out.data(), count * 2);
  return out;
}

void check_anti_quant(bool byParam) {
  uint32_t maxV = 1, minV = 1;
  GetAscendAntiQuantMaxMinTmpSize(ge::Shape({12, 48}), ge::Shape({3, 48}), false, ge::DT_INT8,
                                  ge::DT_FLOAT16, maxV, minV);
  EXPECT_EQ(maxV, 0u);
  EXPECT_EQ(minV, 0u);
  {
    constexpr uint32_t kK = 12, kN = 144, kRows = 3;  // groups of 4 rows; a 16-half column tail
    std::mt19937 gen(5);
    std::uniform_int_distribution<int> di(-128, 127);
    std::uniform_real_distribution<float> df(-4, 4);
    std::vector<int8_t> src(kK * kN);
    for (int8_t& v : src) v = static_cast<int8_t>(di(gen));
    std::vector<half> off(kRows * kN), sc(kRows * kN);
    for (half& v : off) v = cast_to<half>(df(gen), RoundMode::CAST_RINT);
    for (half& v : sc) v = cast_to<half>(df(gen), RoundMode::CAST_RINT);
    const std::vector<half> y = run_anti_quant(src, off, sc, kK, kN, byParam);
    for (uint32_t i = 0; i < kK; ++i)
      for (uint32_t j = 0; j < kN; ++j) {
        const uint32_t g = i / (kK / kRows);
        // The sum and the product each rounded to half, as the Add and the Mul in half are.
        const double sum = to_double(
            cast_to<half>(src[i * kN + j] + to_double(off[g * kN + j]), RoundMode::CAST_RINT));
        const double want =
            to_double(cast_to<half>(sum * to_double(sc[g * kN + j]), RoundMode::CAST_RINT));
        EXPECT_EQ(to_double(y[i * kN + j]), want) << "row " << i << " column " << j;
      }
  }
}

TEST(AdvAntiQuant, EachRowGroupTakesItsOffsetAndScaleRoundedToHalf) {
  check_anti_quant(false);  // the offset's shape from SetShapeInfo
}
TEST(AdvAntiQuant, TheShapesMayComeFromAntiQuantShapeInfo) {
  check_anti_quant(true);
}

TEST(AdvAntiQuant, AnOffsetWithoutAShapeIsAKernelFault) {
  Bench b;
  expect_fault(b, "AscendAntiQuant: no [K, N] source", [] {
    TPipe pipe;
    LocalTensor<int8_t> s = ub_tensor<int8_t>(pipe, 256);
    LocalTensor<half> o = ub_tensor<half>(pipe, 32), d = ub_tensor<half>(pipe, 256);
    AscendAntiQuant<int8_t, half, false>(d, s, o, o, ub_tensor<uint8_t>(pipe, 32), 8u);
  });
}

// ---------------------------------------------------------------------------------------------
// RmsNorm

TEST(AdvRmsNorm, ScalesEachRowByItsRootMeanSquareAndGammaInPasses) {
  constexpr uint32_t kB = 3, kS = 7, kH = 136;  // 21 rows of 544 B: a partial 256-B chunk
  const uint32_t m = kB * kS, n = m * kH;
  const std::vector<float> x = uniform(n, -2, 2, 21), g = uniform(kH, -1, 1, 22);
  const float eps = 1e-4f;
  uint32_t maxV = 0, minV = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({kB, kS, kH}), 4, maxV, minV));
  EXPECT_EQ(minV, (kH + 8) * 4);
  const uint32_t tmpBytes = (8 * kH + 8) * 4;  // passes of 8 rows: 8, 8 and a tail of 5
  ::RmsNormTiling tiling;
  ASSERT_TRUE(
      GetRmsNormTilingInfo(ge::Shape({kB, kS, kH}), ge::Shape({kB, kS, kH}), tmpBytes, 4, tiling));
  EXPECT_EQ(tiling.mainBsLength, 8u);
  EXPECT_EQ(tiling.tailBsLength, 5u);
  Bench b;
  const uint64_t xa = b.alloc(n * 4), ga = b.alloc(kH * 4), ya = b.alloc(n * 4);
  b.sim().write(xa, x.data(), n * 4);
  b.sim().write(ga, g.data(), kH * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), gs = ub_tensor<float>(pipe, kH),
                       ys = ub_tensor<float>(pipe, n);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(gs, global<float>(ga, kH), kH);
    Order<HardEvent::MTE2_V>();
    RmsNorm<float>(ys, xs, gs, tmp, eps, tiling);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
  });
  std::vector<float> y(n);
  b.sim().read(ya, y.data(), n * 4);
  for (uint32_t r = 0; r < m; ++r) {
    double ss = 0;
    for (uint32_t c = 0; c < kH; ++c) ss += double{x[r * kH + c]} * x[r * kH + c];
    const double rstd = 1.0 / std::sqrt(ss / kH + eps);
    for (uint32_t c = 0; c < kH; ++c) {
      const double want = x[r * kH + c] * rstd * g[c];
      EXPECT_NEAR(y[r * kH + c], want, 1e-5 * std::abs(want) + 1e-6) << "row " << r << " col " << c;
    }
  }
}

TEST(AdvRmsNorm, ATemporaryBelowAPassIsAKernelFault) {
  ::RmsNormTiling tiling;
  tiling.bLength = 1, tiling.sLength = 8, tiling.hLength = 64, tiling.mainBsLength = 8;
  Bench b;
  expect_fault(b, "RmsNorm: sharedTmpBuffer", [&] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 512), g = ub_tensor<float>(pipe, 64),
                       y = ub_tensor<float>(pipe, 512);
    RmsNorm<float>(y, x, g, ub_tensor<uint8_t>(pipe, 1024), 1e-5f, tiling);
  });
}

// ---------------------------------------------------------------------------------------------
// WelfordUpdate, WelfordFinalize

TEST(AdvWelford, UpdatesThenFinalizesToTheMeanAndVarianceOfAllSamples) {
  // 72 columns, 3 updates of one sample each, the last computing 45 columns only (the others
  // keep the inputs: isInplace); then the 72 partial results finalized with their counts.
  constexpr uint32_t kAb = 72, kSteps = 3, kLast = 45;
  const std::vector<float> xs = uniform(kAb * kSteps, -3, 5, 31);
  uint32_t maxV = 0, minV = 0;
  GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, kAb}), 4, 4, false, true, maxV, minV);
  uint32_t fMax = 0, fMin = 0;
  GetWelfordFinalizeMaxMinTmpSize(ge::Shape({kAb}), 4, false, fMax, fMin);
  Bench b;
  const uint64_t xa = b.alloc(kAb * kSteps * 4), ma = b.alloc(kAb * 4), va = b.alloc(kAb * 4),
                 fa = b.alloc(64), ga = b.alloc(64);
  b.sim().write(xa, xs.data(), kAb * kSteps * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, kAb * kSteps), mean = ub_tensor<float>(pipe, kAb),
                       var = ub_tensor<float>(pipe, kAb), fm = ub_tensor<float>(pipe, 8),
                       fv = ub_tensor<float>(pipe, 8);
    LocalTensor<int32_t> counts = ub_tensor<int32_t>(pipe, kAb);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, std::max(minV, fMin));
    DataCopy(x, global<float>(xa, kAb * kSteps), kAb * kSteps);
    Duplicate(mean, 0.0f, kAb);
    Duplicate(var, 0.0f, kAb);
    Duplicate(counts, int32_t{kSteps}, kLast);
    Duplicate(counts[40], int32_t{kSteps - 1}, kAb - 40);
    PipeBarrier<PIPE_V>();
    Duplicate(counts[40], int32_t{kSteps}, kLast - 40);  // [0, 45) saw 3 samples, the rest 2
    Order<HardEvent::MTE2_V>();
    static constexpr WelfordUpdateConfig kInplace = {true};
    for (uint32_t i = 0; i < kSteps; ++i) {
      const WelfordUpdateParam p{1, kAb, i + 1 == kSteps ? kLast : kAb, 1.0f / (i + 1)};
      WelfordUpdate<float, float, false, kInplace>(mean, var, mean, var, x[i * kAb], tmp, p);
    }
    PipeBarrier<PIPE_V>();
    WelfordFinalizePara fp{1, kAb, 0, kAb, 0, 0, 1.0f / kAb, 1.0f / (kAb * kSteps - 27)};
    WelfordFinalize<false>(fm, fv, mean, var, counts, tmp, fp);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ma, kAb), mean, kAb);
    DataCopy(global<float>(va, kAb), var, kAb);
    DataCopy(global<float>(fa, 8), fm, 8);
    DataCopy(global<float>(ga, 8), fv, 8);
  });
  std::vector<float> mean(kAb), var(kAb), fm(8), fv(8);
  b.sim().read(ma, mean.data(), kAb * 4);
  b.sim().read(va, var.data(), kAb * 4);
  b.sim().read(fa, fm.data(), 32);
  b.sim().read(ga, fv.data(), 32);
  double all = 0, n = 0;
  std::vector<double> cm(kAb), cnt(kAb);
  for (uint32_t c = 0; c < kAb; ++c) {
    const uint32_t k = c < kLast ? kSteps : kSteps - 1;
    double s = 0, q = 0;
    for (uint32_t i = 0; i < k; ++i) s += xs[i * kAb + c];
    const double m = s / k;
    for (uint32_t i = 0; i < k; ++i) q += (xs[i * kAb + c] - m) * (xs[i * kAb + c] - m);
    EXPECT_NEAR(mean[c], m, 1e-5 * std::abs(m) + 1e-6) << "column " << c;
    EXPECT_NEAR(var[c], q, 1e-5 * q + 1e-5) << "column " << c;  // M: the sum of squares
    all += s, n += k;
    cm[c] = m, cnt[c] = k;
  }
  const double gm = all / n;
  double gq = 0;
  for (uint32_t c = 0; c < kAb; ++c)
    for (uint32_t i = 0; i < cnt[c]; ++i) gq += (xs[i * kAb + c] - gm) * (xs[i * kAb + c] - gm);
  EXPECT_NEAR(fm[0], gm, 1e-5);
  EXPECT_NEAR(fv[0], gq / n, 1e-4 * gq / n);
}

TEST(AdvWelford, AComputeLengthBeyondTheRowIsAKernelFault) {
  Bench b;
  expect_fault(b, "WelfordUpdate: rnLength 1, abLength 64, abComputeLength 65", [] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 64);
    WelfordUpdate<float, float>(x, x, x, x, x, ub_tensor<uint8_t>(pipe, 1024),
                                WelfordUpdateParam{1, 64, 65, 1.0f});
  });
}

// ---------------------------------------------------------------------------------------------
// SoftmaxFlashV2

TEST(AdvSoftmaxFlashV2, TwoColumnChunksUpdatedInPlaceGiveTheWholeRowsMaxAndSum) {
  constexpr uint32_t kRows = 11, kCols = 72;  // passes of 8 rows and a tail of 3; a fold
  const uint32_t n = kRows * kCols;
  const std::vector<float> x = uniform(2 * n, -6, 6, 51);  // chunk c of row r: x[c * n + r * kCols]
  const ge::Shape shape({kRows, kCols});
  const uint32_t tmpBytes = GetSoftMaxFlashV2MinTmpSize(shape, 4, 4, true);
  EXPECT_LE(tmpBytes, GetSoftMaxFlashV2MaxTmpSize(shape, 4, 4, true));
  ::SoftMaxTiling tiling;
  SoftMaxFlashV2TilingFunc(shape, 4, 4, tmpBytes, tiling, true);
  EXPECT_EQ(tiling.splitM, 8u);
  Bench b;
  const uint64_t xa = b.alloc(2 * n * 4), ya = b.alloc(2 * n * 4), ma = b.alloc(kRows * 32),
                 sa = b.alloc(kRows * 32), ea = b.alloc(kRows * 32);
  b.sim().write(xa, x.data(), 2 * n * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, 2 * n), ms = ub_tensor<float>(pipe, kRows * 8),
                       ss = ub_tensor<float>(pipe, kRows * 8),
                       es = ub_tensor<float>(pipe, kRows * 8);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
    DataCopy(xs, global<float>(xa, 2 * n), 2 * n);
    Order<HardEvent::MTE2_V>();
    const SoftMaxShapeInfo info{kRows, kCols, kRows, kCols};
    SoftmaxFlashV2<float, false>(xs, ss, ms, xs, es, ss, ms, tmp, tiling, info);
    PipeBarrier<PIPE_V>();
    SoftmaxFlashV2<float, true>(xs[n], ss, ms, xs[n], es, ss, ms, tmp, tiling, info);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, 2 * n), xs, 2 * n);
    DataCopy(global<float>(ma, kRows * 8), ms, kRows * 8);
    DataCopy(global<float>(sa, kRows * 8), ss, kRows * 8);
    DataCopy(global<float>(ea, kRows * 8), es, kRows * 8);
  });
  std::vector<float> y(2 * n), mx(kRows * 8), sm(kRows * 8), em(kRows * 8);
  b.sim().read(ya, y.data(), 2 * n * 4);
  b.sim().read(ma, mx.data(), kRows * 32);
  b.sim().read(sa, sm.data(), kRows * 32);
  b.sim().read(ea, em.data(), kRows * 32);
  for (uint32_t r = 0; r < kRows; ++r) {
    double m0 = -1e30, m1 = -1e30, s = 0;
    for (uint32_t c = 0; c < kCols; ++c) {
      m0 = std::max(m0, double{x[r * kCols + c]});
      m1 = std::max(m1, double{x[n + r * kCols + c]});
    }
    const double m = std::max(m0, m1);
    for (uint32_t h = 0; h < 2; ++h)
      for (uint32_t c = 0; c < kCols; ++c) s += std::exp(x[h * n + r * kCols + c] - m);
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(mx[r * 8 + j], static_cast<float>(m)) << "max of row " << r;
      EXPECT_NEAR(sm[r * 8 + j], s, 1e-5 * s) << "sum of row " << r;
      EXPECT_NEAR(em[r * 8 + j], std::exp(m0 - m), 1e-6) << "expMax of row " << r;
    }
    for (uint32_t c = 0; c < kCols; ++c) {  // the first chunk against its own max
      const double want0 = std::exp(x[r * kCols + c] - m0);
      const double want1 = std::exp(x[n + r * kCols + c] - m);
      EXPECT_NEAR(y[r * kCols + c], want0, 1e-6 * want0 + 1e-7) << "row " << r << " col " << c;
      EXPECT_NEAR(y[n + r * kCols + c], want1, 1e-6 * want1 + 1e-7) << "row " << r << " col " << c;
    }
  }
}

TEST(AdvSoftmaxFlashV2, ATemporaryBelowOneRowIsAKernelFault) {
  Bench b;
  expect_fault(b, "SoftmaxFlashV2: sharedTmpBuffer of 64 B is below one row's 320 B", [] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 8 * 128), s = ub_tensor<float>(pipe, 64);
    SoftmaxFlashV2<float, true>(x, s, s, x, s, s, s, ub_tensor<uint8_t>(pipe, 64),
                                ::SoftMaxTiling{}, SoftMaxShapeInfo{8, 128, 8, 128});
  });
}

// ---------------------------------------------------------------------------------------------
// DeepNorm

TEST(AdvDeepNorm, IsLayerNormOfAlphaXPlusGx) {
  constexpr uint32_t kB = 2, kS = 5, kH = 80;  // rows of 320 B: a fold with a partial repeat
  const uint32_t m = kB * kS, n = m * kH;
  const std::vector<float> x = uniform(n, -3, 3, 61), gx = uniform(n, -1, 1, 62),
                           gamma = uniform(kH, 0.5f, 1.5f, 63), beta = uniform(kH, -1, 1, 64);
  const float alpha = 1.75f, eps = 1e-5f;
  uint32_t maxV = 0, minV = 0;
  ASSERT_TRUE(GetDeepNormMaxMinTmpSize(ge::Shape({kB, kS, kH}), 4, false, false, maxV, minV));
  ::DeepNormTiling tiling;
  ASSERT_TRUE(GetDeepNormTilingInfo(ge::Shape({kB, kS, kH}), ge::Shape({kB, kS, kH}), minV, 4,
                                    false, false, tiling));
  EXPECT_EQ(tiling.hLength, kH);
  Bench b;
  const uint64_t xa = b.alloc(n * 4), ga = b.alloc(n * 4), gma = b.alloc(kH * 4),
                 ba = b.alloc(kH * 4), ya = b.alloc(n * 4), ma = b.alloc(64), va = b.alloc(64);
  b.sim().write(xa, x.data(), n * 4);
  b.sim().write(ga, gx.data(), n * 4);
  b.sim().write(gma, gamma.data(), kH * 4);
  b.sim().write(ba, beta.data(), kH * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), gs = ub_tensor<float>(pipe, n),
                       gms = ub_tensor<float>(pipe, kH), bs = ub_tensor<float>(pipe, kH),
                       ys = ub_tensor<float>(pipe, n), ms = ub_tensor<float>(pipe, 16),
                       vs = ub_tensor<float>(pipe, 16);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, minV);
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(gs, global<float>(ga, n), n);
    DataCopy(gms, global<float>(gma, kH), kH);
    DataCopy(bs, global<float>(ba, kH), kH);
    Order<HardEvent::MTE2_V>();
    DeepNorm<float>(ys, ms, vs, xs, gs, bs, gms, tmp, alpha, eps, tiling);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
    DataCopy(global<float>(ma, 16), ms, 16);
    DataCopy(global<float>(va, 16), vs, 16);
  });
  std::vector<float> y(n), mean(16), var(16);
  b.sim().read(ya, y.data(), n * 4);
  b.sim().read(ma, mean.data(), 64);
  b.sim().read(va, var.data(), 64);
  for (uint32_t r = 0; r < m; ++r) {
    std::vector<double> v(kH);
    double mu = 0, q = 0;
    for (uint32_t c = 0; c < kH; ++c) mu += v[c] = double{alpha} * x[r * kH + c] + gx[r * kH + c];
    mu /= kH;
    for (uint32_t c = 0; c < kH; ++c) q += (v[c] - mu) * (v[c] - mu);
    q /= kH;
    EXPECT_NEAR(mean[r], mu, 1e-5 * std::abs(mu) + 1e-5) << "row " << r;
    EXPECT_NEAR(var[r], q, 1e-5 * q) << "row " << r;
    for (uint32_t c = 0; c < kH; ++c) {
      const double want = gamma[c] * (v[c] - mu) / std::sqrt(q + eps) + beta[c];
      EXPECT_NEAR(y[r * kH + c], want, 1e-5 * std::abs(want) + 1e-5) << "row " << r << " col " << c;
    }
  }
}

TEST(AdvDeepNorm, AGxSmallerThanTheShapeIsAKernelFault) {
  ::DeepNormTiling tiling;
  tiling.bLength = 1, tiling.sLength = 8, tiling.hLength = 64;
  Bench b;
  expect_fault(b, "DeepNorm: [1, 8, 64] exceeds the source, gx or the destination", [&] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 512), gx = ub_tensor<float>(pipe, 256),
                       v = ub_tensor<float>(pipe, 64);
    DeepNorm<float>(x, v, v, x, gx, v, v, ub_tensor<uint8_t>(pipe, 4096), 1.0f, 1e-5f, tiling);
  });
}

// ---------------------------------------------------------------------------------------------
// LayerNorm's separate form (rstd) and Normalize

TEST(AdvLayerNormSeparate, OutputsMeanAndRstdAndNormalizeRepeatsItFromTheVariance) {
  constexpr uint32_t kA = 13, kR = 104;  // rows of 416 B: a fold with a partial repeat
  const uint32_t n = kA * kR;
  const std::vector<float> x = uniform(n, -4, 4, 71), gamma = uniform(kR, 0.5f, 2, 72),
                           beta = uniform(kR, -1, 1, 73);
  const float eps = 1e-4f;
  uint32_t maxV = 0, minV = 0, nMax = 0, nMin = 0;
  GetLayerNormMaxMinTmpSize(ge::Shape({kA, kR}), 4, false, true, false, maxV, minV);
  GetNormalizeMaxMinTmpSize(ge::Shape({kA, kR}), 4, 4, false, true, false, nMax, nMin);
  ::LayerNormSeparateTiling tiling;
  GetLayerNormNDTilingInfo(ge::Shape({kA, kR}), minV, 4, false, true, tiling);
  EXPECT_EQ(tiling.aLength, kA);
  // The variance Normalize takes, computed here in double and rounded to float.
  std::vector<double> mu(kA), var(kA);
  std::vector<float> meanIn(16), varIn(16);
  for (uint32_t r = 0; r < kA; ++r) {
    for (uint32_t c = 0; c < kR; ++c) mu[r] += x[r * kR + c];
    mu[r] /= kR;
    for (uint32_t c = 0; c < kR; ++c) var[r] += (x[r * kR + c] - mu[r]) * (x[r * kR + c] - mu[r]);
    var[r] /= kR;
    meanIn[r] = static_cast<float>(mu[r]), varIn[r] = static_cast<float>(var[r]);
  }
  Bench b;
  const uint64_t xa = b.alloc(n * 4), gma = b.alloc(kR * 4), ba = b.alloc(kR * 4),
                 mia = b.alloc(64), via = b.alloc(64), ya = b.alloc(n * 4), za = b.alloc(n * 4),
                 ma = b.alloc(64), ra = b.alloc(64), rza = b.alloc(64);
  b.sim().write(xa, x.data(), n * 4);
  b.sim().write(gma, gamma.data(), kR * 4);
  b.sim().write(ba, beta.data(), kR * 4);
  b.sim().write(mia, meanIn.data(), 64);
  b.sim().write(via, varIn.data(), 64);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), gms = ub_tensor<float>(pipe, kR),
                       bs = ub_tensor<float>(pipe, kR), mis = ub_tensor<float>(pipe, 16),
                       vis = ub_tensor<float>(pipe, 16), ys = ub_tensor<float>(pipe, n),
                       zs = ub_tensor<float>(pipe, n), ms = ub_tensor<float>(pipe, 16),
                       rs = ub_tensor<float>(pipe, 16), rzs = ub_tensor<float>(pipe, 16);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, std::max(minV, nMin));
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(gms, global<float>(gma, kR), kR);
    DataCopy(bs, global<float>(ba, kR), kR);
    DataCopy(mis, global<float>(mia, 16), 16);
    DataCopy(vis, global<float>(via, 16), 16);
    Order<HardEvent::MTE2_V>();
    static constexpr LayerNormConfig kCfg = {false, false, false, true};
    LayerNorm<float, float, false, kCfg>(ys, ms, rs, xs, gms, bs, eps, tmp,
                                         LayerNormPara{kA, kR, kR}, tiling);
    PipeBarrier<PIPE_V>();
    Normalize<float, float>(zs, rzs, mis, vis, xs, gms, bs, tmp, eps, NormalizePara{kA, kR, kR});
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
    DataCopy(global<float>(za, n), zs, n);
    DataCopy(global<float>(ma, 16), ms, 16);
    DataCopy(global<float>(ra, 16), rs, 16);
    DataCopy(global<float>(rza, 16), rzs, 16);
  });
  std::vector<float> y(n), z(n), mean(16), rstd(16), rstdZ(16);
  b.sim().read(ya, y.data(), n * 4);
  b.sim().read(za, z.data(), n * 4);
  b.sim().read(ma, mean.data(), 64);
  b.sim().read(ra, rstd.data(), 64);
  b.sim().read(rza, rstdZ.data(), 64);
  for (uint32_t r = 0; r < kA; ++r) {
    const double rs = 1.0 / std::sqrt(var[r] + eps);
    EXPECT_NEAR(mean[r], mu[r], 1e-5 * std::abs(mu[r]) + 1e-6) << "row " << r;
    EXPECT_NEAR(rstd[r], rs, 1e-5 * rs) << "row " << r;
    EXPECT_NEAR(rstdZ[r], rs, 1e-5 * rs) << "row " << r;
    for (uint32_t c = 0; c < kR; ++c) {
      const double want = gamma[c] * (x[r * kR + c] - mu[r]) * rs + beta[c];
      EXPECT_NEAR(y[r * kR + c], want, 1e-5 * std::abs(want) + 1e-5) << "row " << r << " col " << c;
      EXPECT_NEAR(z[r * kR + c], want, 1e-5 * std::abs(want) + 1e-5) << "row " << r << " col " << c;
    }
  }
}

TEST(AdvLayerNormSeparate, PaddingColumnsAreAKernelFault) {
  Bench b;
  expect_fault(b, "Normalize: rLength 30 below rLengthWithPadding 32", [] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 256), v = ub_tensor<float>(pipe, 32);
    Normalize<float, float>(x, v, v, v, x, v, v, ub_tensor<uint8_t>(pipe, 4096), 1e-5f,
                            NormalizePara{8, 30, 32});
  });
}

// ---------------------------------------------------------------------------------------------
// SoftmaxFlashV3

// The documented formulas of one SoftmaxFlashV3 step on a row, in double.
struct FlashV3Row {
  std::vector<double> dst;
  double mean = 0, max = 0, sum = 0, expMax = 0;
};
FlashV3Row flash_v3_row(const std::vector<double>& x, bool update, double alpha, double cnt,
                        double inMean, double inMax, double inSum) {
  const size_t k = x.size(), baseK = k / 8;
  const double s = alpha / (1 - alpha);
  double part[64] = {};
  for (size_t j = 0; j < 64; ++j) {
    for (size_t e = 0; e < 8; ++e) part[j] += x[8 * j + e];
    for (size_t c = 512; c < k; c += 64) part[j] += x[c + j];
  }
  double loc[8] = {}, g = 0;
  for (size_t J = 0; J < 8; ++J) {
    for (size_t e = 0; e < 8; ++e) loc[J] += part[8 * J + e];
    loc[J] /= baseK;
    g += loc[J] / 8;
  }
  std::vector<double> xs(k);
  double rowMax = -1e300;
  for (size_t i = 0; i < k; ++i) {
    xs[i] = x[i] - (g - loc[i / baseK]) * s;
    rowMax = std::max(rowMax, xs[i]);
  }
  FlashV3Row out;
  double shift = 0;
  if (update) {
    out.mean = (g + inMean * (cnt - 1)) / cnt;
    shift = (g - out.mean) * s;
    const double prev = (inMean - out.mean) * s;
    out.max = std::max(rowMax + shift, inMax + prev);
    out.expMax = std::exp(inMax - out.max + prev);
  } else {
    out.mean = g;
    out.max = rowMax;
  }
  out.dst.resize(k);
  for (size_t i = 0; i < k; ++i) out.sum += out.dst[i] = std::exp(xs[i] - (out.max - shift));
  if (update) out.sum += out.expMax * inSum;
  return out;
}

// Two steps over kRows rows of kCols, in passes of two rows (the temporary holds two).
void check_flash_v3(const uint32_t kRows, const uint32_t kCols) {
  const uint32_t n = kRows * kCols;
  const std::vector<float> xf = uniform(2 * n, 0, 6, 81);
  std::vector<half> x(2 * n);
  for (uint32_t i = 0; i < 2 * n; ++i) x[i] = cast_to<half>(xf[i], RoundMode::CAST_RINT);
  const ge::Shape shape({kRows, kCols});
  uint32_t maxV = 0, minV = 0;
  GetSoftMaxFlashV3MaxMinTmpSize(shape, 2, 4, maxV, minV, true);
  const uint32_t tmpBytes = 2 * minV;  // at least two rows a pass (a row's size grows less)
  ::SoftMaxTiling tiling;
  SoftMaxFlashV3TilingFunc(shape, 2, 4, tmpBytes, tiling, true);
  EXPECT_EQ(tiling.splitM, 2u);
  const float alpha = 0.9375f;
  Bench b;
  const uint64_t xa = b.alloc(2 * n * 2), ya = b.alloc(2 * n * 2), sa = b.alloc(3 * kRows * 32),
                 ea = b.alloc(kRows * 32);
  b.sim().write(xa, x.data(), 2 * n * 2);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<half> xs = ub_tensor<half>(pipe, 2 * n), ys = ub_tensor<half>(pipe, 2 * n),
                      es = ub_tensor<half>(pipe, kRows * 16);
    LocalTensor<float> st = ub_tensor<float>(pipe, 3 * kRows * 8);
    LocalTensor<float> mean = st, sum = st[kRows * 8], max = st[2 * kRows * 8];
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
    DataCopy(xs, global<half>(xa, 2 * n), 2 * n);
    Order<HardEvent::MTE2_V>();
    SoftMaxParams p{kRows, kCols, kRows, kCols, 1, 8, alpha};
    SoftmaxFlashV3<half, float, false>(ys, mean, sum, max, xs, es, mean, sum, max, tmp, tiling, p);
    PipeBarrier<PIPE_V>();
    p.loopCnt = 2;
    SoftmaxFlashV3<half, float, true>(ys[n], mean, sum, max, xs[n], es, mean, sum, max, tmp, tiling,
                                      p);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<half>(ya, 2 * n), ys, 2 * n);
    DataCopy(global<float>(sa, 3 * kRows * 8), st, 3 * kRows * 8);
    DataCopy(global<half>(ea, kRows * 16), es, kRows * 16);
  });
  std::vector<half> y(2 * n), em(kRows * 16);
  std::vector<float> st(3 * kRows * 8);
  b.sim().read(ya, y.data(), 2 * n * 2);
  b.sim().read(sa, st.data(), 3 * kRows * 32);
  b.sim().read(ea, em.data(), kRows * 32);
  for (uint32_t r = 0; r < kRows; ++r) {
    std::vector<double> x0(kCols), x1(kCols);
    for (uint32_t c = 0; c < kCols; ++c) {
      x0[c] = to_double(x[r * kCols + c]);
      x1[c] = to_double(x[n + r * kCols + c]);
    }
    const FlashV3Row a = flash_v3_row(x0, false, alpha, 1, 0, 0, 0);
    const FlashV3Row c = flash_v3_row(x1, true, alpha, 2, a.mean, a.max, a.sum);
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_NEAR(st[r * 8 + j], c.mean, 1e-5 * std::abs(c.mean)) << "mean of row " << r;
      EXPECT_NEAR(st[kRows * 8 + r * 8 + j], c.sum, 1e-4 * c.sum) << "sum of row " << r;
      EXPECT_NEAR(st[2 * kRows * 8 + r * 8 + j], c.max, 1e-4 * std::abs(c.max) + 1e-4)
          << "max of row " << r;
    }
    for (uint32_t j = 0; j < 16; ++j)
      EXPECT_NEAR(to_double(em[r * 16 + j]), c.expMax, 1e-3 * c.expMax + 1e-6)
          << "expMax of row " << r;
    for (uint32_t i = 0; i < kCols; ++i) {
      EXPECT_NEAR(to_double(y[r * kCols + i]), a.dst[i], 2e-3 * a.dst[i] + 1e-4)
          << "first step, row " << r << " col " << i;
      EXPECT_NEAR(to_double(y[n + r * kCols + i]), c.dst[i], 2e-3 * c.dst[i] + 1e-4)
          << "second step, row " << r << " col " << i;
    }
  }
}

TEST(AdvSoftmaxFlashV3, TwoStepsMatchTheDocumentedFormulasWithStatisticsInPlace) {
  check_flash_v3(5, 1024);  // passes of 2 rows and a tail of 1
}
TEST(AdvSoftmaxFlashV3, RowsWiderThanARepeatStrideGoOneInstructionARow) {
  check_flash_v3(3, 2048);  // 256 blocks a row: one beyond what a repeat stride reaches
}

TEST(AdvSoftmaxFlashV3, ARowNotAMultipleOf512IsAKernelFault) {
  Bench b;
  expect_fault(b, "SoftmaxFlashV3: srcK 256 is not a multiple of 512", [] {
    TPipe pipe;
    LocalTensor<half> x = ub_tensor<half>(pipe, 8 * 256), e = ub_tensor<half>(pipe, 128);
    LocalTensor<float> st = ub_tensor<float>(pipe, 64);
    SoftmaxFlashV3<half, float, true>(x, st, st, st, x, e, st, st, st,
                                      ub_tensor<uint8_t>(pipe, 32768), ::SoftMaxTiling{},
                                      SoftMaxParams{8, 256, 8, 256, 2, 8, 0.9375f});
  });
}

// ---------------------------------------------------------------------------------------------
// AscendCUtils::SetOverflow (layernorm_v2 sets inf/nan mode around its work)

TEST(AdvOverflowMode, AVectorInstructionInTheSaturatedModeIsAKernelFault) {
  Bench b;
  expect_fault(b, "Adds: the saturated overflow mode (AscendCUtils::SetOverflow(0))", [] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, 64);
    AscendCUtils::SetOverflow(1);  // inf/nan: what the vector unit computes in
    Duplicate(x, 1.0f, 64);
    AscendCUtils::SetOverflow(0);
    Adds(x, x, 1.0f, 64);
  });
}

// ---------------------------------------------------------------------------------------------
// TransData: NCDHW (H x W planes padded to 16) to and from NDC1HWC0 and FRACTAL_Z_3D, with C and
// N tails, against the layouts indexed here.

constexpr TransDataConfig kToFz = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFz = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kTo5hd = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFrom5hd = {DataFormat::NDC1HWC0, DataFormat::NCDHW};

template <bool kFz>
void check_transdata() {
  constexpr uint32_t n = 20, c = 18, d = 2, h = 3, w = 5, hw = h * w, hwp = 16;
  constexpr uint32_t c1 = 2, n1 = 2;
  constexpr uint32_t plain = n * c * d * hwp;
  constexpr uint32_t packed = kFz ? d * c1 * hw * n1 * 256 : n * d * c1 * hw * 16;
  std::vector<int16_t> x(plain);
  for (uint32_t i = 0; i < plain; ++i) x[i] = static_cast<int16_t>(i % hwp < hw ? i + 1 : -7);
  Bench b;
  const uint64_t xa = b.alloc(plain * 2), pa = b.alloc(packed * 2), ba = b.alloc(plain * 2);
  b.sim().write(xa, x.data(), plain * 2);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<int16_t> xs = ub_tensor<int16_t>(pipe, plain),
                         ps = ub_tensor<int16_t>(pipe, packed),
                         bs = ub_tensor<int16_t>(pipe, plain);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 1024);
    DataCopy(xs, global<int16_t>(xa, plain), plain);
    Order<HardEvent::MTE2_V>();
    auto ncdhw = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
    if constexpr (kFz) {
      auto fz = MakeLayout(MakeShape(d, c1, h, w, n1, 16u, 16u), MakeStride());
      TransData<kToFz>(ps, xs, tmp, TransDataParams<decltype(ncdhw), decltype(fz)>{ncdhw, fz});
      TransData<kFromFz>(bs, ps, tmp, TransDataParams<decltype(fz), decltype(ncdhw)>{fz, ncdhw});
    } else {
      auto hd = MakeLayout(MakeShape(n, d, c1, h, w, 16u), MakeStride());
      TransData<kTo5hd>(ps, xs, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
      TransData<kFrom5hd>(bs, ps, TransDataParams<decltype(hd), decltype(ncdhw)>{hd, ncdhw});
    }
    Order<HardEvent::V_MTE3>();
    DataCopy(global<int16_t>(pa, packed), ps, packed);
    DataCopy(global<int16_t>(ba, plain), bs, plain);
  });
  std::vector<int16_t> p(packed), back(plain);
  b.sim().read(pa, p.data(), packed * 2);
  b.sim().read(ba, back.data(), plain * 2);
  uint32_t checked = 0;
  for (uint32_t ni = 0; ni < n1 * 16; ++ni)
    for (uint32_t ci = 0; ci < c1 * 16; ++ci)
      for (uint32_t di = 0; di < d; ++di)
        for (uint32_t hi = 0; hi < h; ++hi)
          for (uint32_t wi = 0; wi < w; ++wi) {
            if (!kFz && ni >= n) continue;
            const uint32_t x_at = ((ni * c + ci) * d + di) * hwp + hi * w + wi;
            // FRACTAL_Z_3D [D, C1, H, W, N1, N0, C0]; NDC1HWC0 [N, D, C1, H, W, C0].
            const uint32_t at =
                kFz ? (((((di * c1 + ci / 16) * h + hi) * w + wi) * n1 + ni / 16) * 16 + ni % 16) *
                              16 +
                          ci % 16
                    : ((((ni * d + di) * c1 + ci / 16) * h + hi) * w + wi) * 16 + ci % 16;
            const int16_t want = ni < n && ci < c ? x[x_at] : 0;
            ASSERT_EQ(p[at], want)
                << "n " << ni << " c " << ci << " d " << di << " h " << hi << " w " << wi;
            if (ni < n && ci < c) {
              ASSERT_EQ(back[x_at], x[x_at]) << "back: n " << ni << " c " << ci;
              ++checked;
            }
          }
  EXPECT_EQ(checked, n * c * d * hw);
  for (uint32_t row = 0; row < n * c * d; ++row) EXPECT_EQ(back[row * hwp + hw], 0) << row;
}

TEST(AdvTransData, NcdhwToFractalZ3dAndBackPadsNAndCWithZeros) {
  check_transdata<true>();
}
TEST(AdvTransData, NcdhwToNdc1hwc0AndBackPadsCWithZeros) {
  check_transdata<false>();
}

TEST(AdvTransData, ALayoutThatDoesNotFollowFromNcdhwIsAKernelFault) {
  Bench b;
  expect_fault(b, "layout's shape does not follow from NCDHW [16, 16, 1, 4, 4]", [] {
    TPipe pipe;
    LocalTensor<half> x = ub_tensor<half>(pipe, 256), y = ub_tensor<half>(pipe, 512);
    auto ncdhw = MakeLayout(MakeShape(16, 16, 1, 4, 4), MakeStride());
    auto hd = MakeLayout(MakeShape(16, 1, 2, 4, 4, 16), MakeStride());  // C1 should be 1
    TransData<kTo5hd>(y, x, TransDataParams<decltype(ncdhw), decltype(hd)>{ncdhw, hd});
  });
}

}  // namespace
