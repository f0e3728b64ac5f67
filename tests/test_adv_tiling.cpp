// The tiling-data macros of register/tilingdata_base.h (host class and kernel struct agree byte
// for byte) and the high-level APIs of the tiling examples (ReduceMax AR/RA, Arange, Select with
// a byte mask, DropOut, AscendQuant, AscendDequant, Broadcast, SwiGLU without a temporary, SoftMax,
// SoftmaxGrad, TopK, Transpose NZ2ND_0213, LayerNorm and its gradients), each against a reference
// computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "api/kernel_operator.h"
#include "sdk/include/register/tilingdata_base.h"
#include "sdk/include/tiling/adv_tiling_host.h"
#include "sdk/include/tiling/layernorm_tiling_host.h"
#include "sdk/include/tiling/softmax_tiling_host.h"
#include "sdk/include/tiling/topk_tiling_host.h"
#include "sdk/include/tiling/transpose_tiling_host.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdvTilingTestData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_STRUCT(PadTiling, pad);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, dims);
TILING_DATA_FIELD_DEF(bool, largest);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AdvTilingTest, AdvTilingTestData)
}  // namespace optiling

namespace {

using namespace AscendC;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;
using ascend::test::uniform;

// The struct a kernel declares for the same fields.
struct KernelSide {
  uint32_t rows;
  float alpha;
  ::PadTiling pad;
  uint32_t dims[3];
  bool largest;
};

TEST(AdvTiling, TheHostClassSavesTheKernelStructsBytes) {
  optiling::AdvTilingTestData t;
  t.set_rows(17);
  t.set_alpha(0.25f);
  t.pad.set_srcWidth(48);
  t.pad.set_reserved(9);
  const uint32_t dims[3] = {4, 5, 6};
  t.set_dims(dims);
  t.set_largest(true);
  EXPECT_EQ(t.get_rows(), 17u);
  EXPECT_EQ(t.pad.get_srcWidth(), 48u);
  EXPECT_EQ(t.GetDataSize(), offsetof(KernelSide, largest) + sizeof(bool));
  EXPECT_GE(sizeof(t), sizeof(KernelSide));  // a program copies sizeof(the class) bytes
  std::vector<uint8_t> buf(sizeof(t), 0xAB);
  t.SaveToBuffer(buf.data(), buf.size());
  KernelSide k{};
  std::memcpy(&k, buf.data(), t.GetDataSize());
  EXPECT_EQ(k.rows, 17u);
  EXPECT_EQ(k.alpha, 0.25f);
  EXPECT_EQ(k.pad.srcWidth, 48u);
  EXPECT_EQ(k.pad.reserved, 9u);
  EXPECT_EQ(k.pad.srcHeight, 0u);
  EXPECT_EQ(k.dims[2], 6u);
  EXPECT_TRUE(k.largest);
}

TEST(AdvTilingDeathTest, SaveToBufferIntoTooSmallABufferEndsWithStatusTwo) {
  optiling::AdvTilingTestData t;
  std::vector<uint8_t> buf(8);
  EXPECT_EXIT(t.SaveToBuffer(buf.data(), buf.size()), ::testing::ExitedWithCode(2),
              "AdvTilingTestData::SaveToBuffer");
}

template <class T>
std::vector<T> run_unary(const std::vector<T>& in, uint32_t out_count,
                         const std::function<void(const LocalTensor<T>&, const LocalTensor<T>&,
                                                  const LocalTensor<uint8_t>&)>& body,
                         uint32_t tmp_bytes, double* busy = nullptr) {
  Bench b;
  const uint64_t xa = b.alloc(in.size() * sizeof(T)), ya = b.alloc(out_count * sizeof(T));
  b.sim().write(xa, in.data(), in.size() * sizeof(T));
  auto& rec = b.run(1, [&] {
    TPipe pipe;
    LocalTensor<T> x = ub_tensor<T>(pipe, static_cast<uint32_t>(in.size()));
    LocalTensor<T> y = ub_tensor<T>(pipe, out_count);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, std::max(tmp_bytes, 32u));
    DataCopy(x, global<T>(xa, static_cast<uint32_t>(in.size())), static_cast<uint32_t>(in.size()));
    Order<HardEvent::MTE2_V>();
    body(y, x, tmp);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<T>(ya, out_count), y, out_count);
  });
  if (busy) *busy = rec.pipe_busy_pct(0, 0, ascend::model::Lane::VECTOR);
  std::vector<T> out(out_count);
  b.sim().read(ya, out.data(), out.size() * sizeof(T));
  return out;
}

TEST(AdvReduce, ReduceMaxRaTakesEachColumnsMaximum) {
  constexpr uint32_t kRows = 13, kCols = 40;  // 13 rows: a fold of 5 onto 8, then halving
  const std::vector<float> x = uniform(kRows * kCols, -10, 10, 1);
  uint32_t maxTmp = 0, minTmp = 0;
  GetReduceMaxMaxMinTmpSize(ge::Shape({kRows, kCols}), ge::DT_FLOAT, ReducePattern::RA, true, false,
                            maxTmp, minTmp);
  EXPECT_EQ(minTmp, 8u * kCols * 4);
  double busy = 0;
  const auto y = run_unary<float>(
      x, kCols,
      [&](auto& dst, auto& src, auto& tmp) {
        const uint32_t shape[2] = {kRows, kCols};
        ReduceMax<float, Pattern::Reduce::RA>(dst, src, tmp, shape, true);
      },
      minTmp, &busy);
  for (uint32_t c = 0; c < kCols; ++c) {
    float m = x[c];
    for (uint32_t r = 1; r < kRows; ++r) m = std::max(m, x[r * kCols + c]);
    EXPECT_EQ(y[c], m) << "column " << c;
  }
  EXPECT_GT(busy, 0.0);
}

// ReduceMin AR over rows of `cols` (one Bench a test: SystemC elaborates once per process).
void check_reduce_min_ar(uint32_t cols) {
  constexpr uint32_t kRows = 5;
  const std::vector<float> x = uniform(kRows * cols, -10, 10, cols);
  uint32_t maxTmp = 0, minTmp = 0;
  GetReduceMinMaxMinTmpSize(ge::Shape({kRows, cols}), ge::DT_FLOAT, ReducePattern::AR, true, false,
                            maxTmp, minTmp);
  const auto y = run_unary<float>(
      x, 8,
      [&](auto& dst, auto& src, auto& tmp) {
        const uint32_t shape[2] = {kRows, cols};
        ReduceMin<float, Pattern::Reduce::AR>(dst, src, tmp, shape, true);
      },
      minTmp);
  for (uint32_t r = 0; r < kRows; ++r)
    EXPECT_EQ(y[r], *std::min_element(x.begin() + r * cols, x.begin() + (r + 1) * cols))
        << cols << " columns, row " << r;
}
TEST(AdvReduce, ReduceMinArReducesRowsWithinOneRepeat) {
  check_reduce_min_ar(24);
}
TEST(AdvReduce, ReduceMinArFoldsRowsOfThreeRepeats) {
  check_reduce_min_ar(200);
}
TEST(AdvReduce, ReduceMinArFoldsRowsWiderThanARepeatStrideOneByOne) {
  check_reduce_min_ar(2056);  // 257 blocks a row: beyond the 255 a repeat stride reaches
}

TEST(AdvArange, ArangeIsWithinFloatRoundingOfFirstPlusIDiff) {
  constexpr int32_t kCount = 200;  // a scalar block, blocks to a repeat, repeats, a tail
  const float first = 1.234f, diff = 5.678f;
  const auto y = run_unary<float>(
      std::vector<float>(8), 200,
      [&](auto& dst, auto&, auto&) { Arange<float>(dst, first, diff, kCount); }, 32);
  for (int32_t i = 0; i < kCount; ++i) {
    const double want = double{first} + double{diff} * i;
    EXPECT_NEAR(y[i], want, 1e-5 * std::abs(want) + 1e-6) << "element " << i;
  }
  EXPECT_EQ(y[0], first);
}

TEST(AdvSelect, SelectTakesTheScalarWhereTheByteMaskIsSet) {
  constexpr uint32_t kRows = 3, kCols = 96;  // 288 elements: chunks of 128 with a 32-element tail
  const std::vector<float> x = uniform(kRows * kCols, -4, 4, 7);
  std::vector<uint8_t> mask(kRows * kCols);
  std::mt19937 g(3);
  for (uint8_t& m : mask) m = static_cast<uint8_t>(g() % 3 == 0 ? 0 : g() % 5);
  uint32_t maxTmp = 0, minTmp = 0;
  GetSelectMaxMinTmpSize(ge::Shape({kRows, kCols}), ge::Shape({1}), 4, ge::Shape({kRows, kCols}), 1,
                         false, maxTmp, minTmp);
  Bench b;
  const uint64_t xa = b.alloc(x.size() * 4), ma = b.alloc(mask.size()), ya = b.alloc(x.size() * 4);
  b.sim().write(xa, x.data(), x.size() * 4);
  b.sim().write(ma, mask.data(), mask.size());
  b.run(1, [&] {
    TPipe pipe;
    const uint32_t n = kRows * kCols;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), ys = ub_tensor<float>(pipe, n);
    LocalTensor<uint8_t> ms = ub_tensor<uint8_t>(pipe, n), tmp = ub_tensor<uint8_t>(pipe, minTmp);
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(ms, global<uint8_t>(ma, n), n);
    Order<HardEvent::MTE2_V>();
    SelectWithBytesMaskShapeInfo info;
    info.firstAxis = kRows;
    info.srcLastAxis = kCols;
    info.maskLastAxis = kCols;
    Select(ys, xs, 1.5f, ms, tmp, info);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
  });
  std::vector<float> y(x.size());
  b.sim().read(ya, y.data(), y.size() * 4);
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(y[i], mask[i] == 0 ? x[i] : 1.5f) << "element " << i;
}

// round(half(half(half(x) * scale) + offset)) to nearest even, saturated to int8.
int8_t quant_reference(float x, float scale, float offset) {
  auto h = [](double v) { return to_double(cast_to<half>(v, RoundMode::CAST_RINT)); };
  const double v = h(h(h(x) * h(scale)) + h(offset));
  return static_cast<int8_t>(std::clamp(std::nearbyint(v), -128.0, 127.0));
}

TEST(AdvQuant, AscendQuantRoundsInHalfChunkByChunk) {
  constexpr uint32_t kCount = 1024;
  std::vector<float> x = uniform(kCount, -80, 80, 11);
  x[0] = 0.3f;  // 0.3 x 2 + 0.9 = 1.5 in half: even rounding gives 2
  uint32_t maxTmp = 0, minTmp = 0;
  GetAscendQuantMaxMinTmpSize(ge::Shape({kCount}), 4, maxTmp, minTmp);
  EXPECT_EQ(minTmp, 512u);
  Bench b;
  const uint64_t xa = b.alloc(kCount * 4), ya = b.alloc(kCount);
  b.sim().write(xa, x.data(), kCount * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, kCount);
    LocalTensor<int8_t> ys = ub_tensor<int8_t>(pipe, kCount);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, minTmp);  // four chunks of 256
    DataCopy(xs, global<float>(xa, kCount), kCount);
    Order<HardEvent::MTE2_V>();
    AscendQuant<float>(ys, xs, tmp, 2.0f, 0.9f, kCount);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<int8_t>(ya, kCount), ys, kCount);
  });
  std::vector<int8_t> y(kCount);
  b.sim().read(ya, y.data(), kCount);
  for (uint32_t i = 0; i < kCount; ++i)
    EXPECT_EQ(y[i], quant_reference(x[i], 2.0f, 0.9f)) << "element " << i << " of " << x[i];
  EXPECT_EQ(y[0], 2);
}

TEST(AdvQuant, AscendDequantMultipliesEachRowByTheScales) {
  constexpr uint32_t kRows = 6, kCols = 80, kCal = 72;  // 72 of 80: two Mul columns, one masked
  std::vector<int32_t> x(kRows * kCols);
  std::mt19937 g(5);
  for (int32_t& v : x) v = static_cast<int32_t>(g() % 2001) - 1000;
  const std::vector<float> scale = uniform(kCal, -100, 100, 9);
  Bench b;
  const uint64_t xa = b.alloc(x.size() * 4), sa = b.alloc(kCal * 4), ya = b.alloc(x.size() * 4);
  b.sim().write(xa, x.data(), x.size() * 4);
  b.sim().write(sa, scale.data(), kCal * 4);
  const std::vector<float> sentinel(x.size(), -7.0f);
  b.sim().write(ya, sentinel.data(), sentinel.size() * 4);
  b.run(1, [&] {
    TPipe pipe;
    const uint32_t n = kRows * kCols;
    LocalTensor<int32_t> xs = ub_tensor<int32_t>(pipe, n);
    LocalTensor<float> ss = ub_tensor<float>(pipe, kCal), ys = ub_tensor<float>(pipe, n);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 4 * kCols * 4);  // 4 rows a chunk
    DataCopy(xs, global<int32_t>(xa, n), n);
    DataCopy(ss, global<float>(sa, kCal), kCal);
    DataCopy(ys, global<float>(ya, n), n);
    Order<HardEvent::MTE2_V>();
    AscendDequant(ys, xs, ss, tmp, DequantParams{kRows, kCols, kCal});
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
  });
  std::vector<float> y(x.size());
  b.sim().read(ya, y.data(), y.size() * 4);
  for (uint32_t r = 0; r < kRows; ++r)
    for (uint32_t c = 0; c < kCols; ++c)
      EXPECT_EQ(y[r * kCols + c],
                c < kCal ? static_cast<float>(x[r * kCols + c]) * scale[c] : -7.0f)
          << "row " << r << " column " << c;
}

TEST(AdvBroadcast, BroadcastCopiesARowToEveryRow) {
  const std::vector<float> row = uniform(48, -10, 10, 21);
  const auto a = run_unary<float>(
      row, 20 * 48,
      [&](auto& dst, auto& src, auto&) {
        const uint32_t d[2] = {20, 48}, s[2] = {1, 48};
        Broadcast<float, 2, 0>(dst, src, d, s);
      },
      32);
  for (uint32_t i = 0; i < 20 * 48; ++i) EXPECT_EQ(a[i], row[i % 48]) << "axis 0, " << i;
}

TEST(AdvBroadcast, BroadcastCopiesAColumnAcrossEachRow) {
  const std::vector<float> col = uniform(24, -10, 10, 22);  // 13 rows used: a tail of 5
  const auto b = run_unary<float>(
      col, 13 * 32,
      [&](auto& dst, auto& src, auto& tmp) {
        const uint32_t d[2] = {13, 32}, s[2] = {13, 1};
        Broadcast<float, 2, 1>(dst, src, d, s, tmp);
      },
      2 * 256);
  for (uint32_t i = 0; i < 13 * 32; ++i) EXPECT_EQ(b[i], col[i / 32]) << "axis 1, " << i;
}

// BroadCast, the name kernels of the vendor's examples call, is Broadcast.
TEST(AdvBroadcast, BroadCastIsBroadcast) {
  const std::vector<float> col = uniform(8, -10, 10, 23);
  const auto b = run_unary<float>(
      col, 8 * 16,
      [&](auto& dst, auto& src, auto& tmp) {
        const uint32_t d[2] = {8, 16}, s[2] = {8, 1};
        BroadCast<float, 2, 1>(dst, src, d, s, tmp);
      },
      2 * 256);
  for (uint32_t i = 0; i < 8 * 16; ++i) EXPECT_EQ(b[i], col[i / 16]) << i;
}

TEST(AdvSwiGLU, TheOverloadWithoutATemporaryMatchesSrc0TimesSwish) {
  constexpr uint32_t kCount = 64;
  const std::vector<float> x0 = uniform(kCount, -4, 4, 31), x1 = uniform(kCount, -4, 4, 32);
  uint32_t maxTmp = 1, minTmp = 1;
  GetSwiGLUMaxMinTmpSize(ge::Shape({kCount}), 4, maxTmp, minTmp, false);
  EXPECT_EQ(minTmp, 0u);
  Bench b;
  const uint64_t a0 = b.alloc(kCount * 4), a1 = b.alloc(kCount * 4), ya = b.alloc(kCount * 4);
  b.sim().write(a0, x0.data(), kCount * 4);
  b.sim().write(a1, x1.data(), kCount * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> s0 = ub_tensor<float>(pipe, kCount), s1 = ub_tensor<float>(pipe, kCount),
                       ys = ub_tensor<float>(pipe, kCount);
    DataCopy(s0, global<float>(a0, kCount), kCount);
    DataCopy(s1, global<float>(a1, kCount), kCount);
    Order<HardEvent::MTE2_V>();
    SwiGLU<float>(ys, s0, s1, 1.0f);  // every element of src0, the UB left as the temporary
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, kCount), ys, kCount);
  });
  std::vector<float> y(kCount);
  b.sim().read(ya, y.data(), kCount * 4);
  for (uint32_t i = 0; i < kCount; ++i) {
    const double want = x0[i] * (x1[i] / (1.0 + std::exp(-double{x1[i]})));
    EXPECT_NEAR(y[i], want, 1e-5 * std::abs(want) + 1e-6) << "element " << i;
  }
}

TEST(AdvSoftMax, SoftMaxAndSoftmaxGradMatchARowByRowReference) {
  constexpr uint32_t kRows = 11, kCols = 96;  // passes of 8 rows and a tail of 3; a fold of 2
  const std::vector<float> x = uniform(kRows * kCols, -5, 5, 41);
  const std::vector<float> g = uniform(kRows * kCols, -1, 1, 42);
  const ge::Shape shape({kRows, kCols});
  const uint32_t tmpBytes = GetSoftMaxMinTmpSize(shape, 4, false);
  ::SoftMaxTiling tiling;
  SoftMaxTilingFunc(shape, 4, tmpBytes, tiling);
  EXPECT_EQ(tiling.splitM, 8u);
  const uint32_t gradBytes = GetSoftMaxGradMinTmpSize(shape, 4, false, false);
  ::SoftMaxTiling gradTiling;
  SoftMaxGradTilingFunc(shape, 4, gradBytes, gradTiling, false);
  Bench b;
  const uint32_t n = kRows * kCols;
  const uint64_t xa = b.alloc(n * 4), ga = b.alloc(n * 4), ya = b.alloc(n * 4),
                 ma = b.alloc(kRows * 32), sa = b.alloc(kRows * 32), da = b.alloc(n * 4);
  b.sim().write(xa, x.data(), n * 4);
  b.sim().write(ga, g.data(), n * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), gs = ub_tensor<float>(pipe, n),
                       ys = ub_tensor<float>(pipe, n), ms = ub_tensor<float>(pipe, kRows * 8),
                       ss = ub_tensor<float>(pipe, kRows * 8), ds = ub_tensor<float>(pipe, n);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, std::max(tmpBytes, gradBytes));
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(gs, global<float>(ga, n), n);
    Order<HardEvent::MTE2_V>();
    SoftMax<float>(ys, ss, ms, xs, tmp, tiling, SoftMaxShapeInfo{kRows, kCols, kRows, kCols});
    PipeBarrier<PIPE_V>();
    SoftmaxGrad<float>(ds, gs, ys, tmp, gradTiling, false, {kRows, kCols, kRows, kCols});
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
    DataCopy(global<float>(ma, kRows * 8), ms, kRows * 8);
    DataCopy(global<float>(sa, kRows * 8), ss, kRows * 8);
    DataCopy(global<float>(da, n), ds, n);
  });
  std::vector<float> y(n), mx(kRows * 8), sm(kRows * 8), d(n);
  b.sim().read(ya, y.data(), n * 4);
  b.sim().read(ma, mx.data(), kRows * 32);
  b.sim().read(sa, sm.data(), kRows * 32);
  b.sim().read(da, d.data(), n * 4);
  for (uint32_t r = 0; r < kRows; ++r) {
    double m = -1e30, s = 0, dot = 0;
    for (uint32_t c = 0; c < kCols; ++c) m = std::max(m, double{x[r * kCols + c]});
    for (uint32_t c = 0; c < kCols; ++c) s += std::exp(x[r * kCols + c] - m);
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(mx[r * 8 + j], static_cast<float>(m)) << "max of row " << r;
      EXPECT_NEAR(sm[r * 8 + j], s, 1e-5 * s) << "sum of row " << r;
    }
    for (uint32_t c = 0; c < kCols; ++c) {
      const double p = std::exp(x[r * kCols + c] - m) / s;
      EXPECT_NEAR(y[r * kCols + c], p, 1e-5 * p + 1e-7) << "row " << r << " column " << c;
      dot += double{g[r * kCols + c]} * y[r * kCols + c];
    }
    for (uint32_t c = 0; c < kCols; ++c) {
      const double want = (g[r * kCols + c] - dot) * y[r * kCols + c];
      EXPECT_NEAR(d[r * kCols + c], want, 1e-5 * std::abs(want) + 1e-6)
          << "grad row " << r << " column " << c;
    }
  }
}

TEST(AdvSort, TopKTakesTheSmallestWithTheirIndicesAndMarksFinishedRows) {
  constexpr int32_t kRows = 3, kInner = 64, kN = 60, kK = 5;
  std::vector<float> x = uniform(kRows * kInner, -100, 100, 51);
  for (int32_t r = 0; r < kRows; ++r)
    for (int32_t c = kN; c < kInner; ++c) x[r * kInner + c] = 1e30f;  // padding that never wins
  x[7] = x[3];  // a tie: the lower index first
  const uint8_t finish[32] = {0, 1, 0};
  uint32_t maxTmp = 0, minTmp = 0;
  platform_ascendc::PlatformAscendC& plat =
      *platform_ascendc::PlatformAscendCManager::GetInstance();
  GetTopKMaxMinTmpSize(plat, kInner, kRows, false, false, TopKMode::TOPK_NORMAL, false, 4, maxTmp,
                       minTmp);
  ::TopkTiling tiling;
  TopKTilingFunc(plat, kInner, kRows, kK, 4, false, TopKMode::TOPK_NORMAL, false, tiling);
  EXPECT_EQ(tiling.sortRepeat, 2u);
  Bench b;
  const uint64_t xa = b.alloc(x.size() * 4), fa = b.alloc(32), va = b.alloc(kRows * 32),
                 ia = b.alloc(kRows * 32);
  b.sim().write(xa, x.data(), x.size() * 4);
  b.sim().write(fa, finish, 32);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, kRows * kInner), vs = ub_tensor<float>(pipe, 24);
    LocalTensor<int32_t> is = ub_tensor<int32_t>(pipe, 24), none = ub_tensor<int32_t>(pipe, 8);
    LocalTensor<bool> fs = ub_tensor<bool>(pipe, 32);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, minTmp);
    DataCopy(xs, global<float>(xa, kRows * kInner), kRows * kInner);
    DataCopy(fs, global<bool>(fa, 32), 32);
    Order<HardEvent::MTE2_V>();
    TopKInfo info;
    info.outter = kRows;
    info.inner = kInner;
    info.n = kN;
    TopK<float, false, true>(vs, is, xs, none, fs, tmp, kK, tiling, info, false);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(va, 24), vs, 24);
    DataCopy(global<int32_t>(ia, 24), is, 24);
  });
  std::vector<float> v(24);
  std::vector<int32_t> ix(24);
  b.sim().read(va, v.data(), 96);
  b.sim().read(ia, ix.data(), 96);
  for (int32_t r = 0; r < kRows; ++r) {
    std::vector<int32_t> order(kN);
    for (int32_t i = 0; i < kN; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t c) { return x[r * kInner + a] < x[r * kInner + c]; });
    for (int32_t j = 0; j < kK; ++j) {
      EXPECT_EQ(v[r * 8 + j], x[r * kInner + order[j]]) << "row " << r << " rank " << j;
      EXPECT_EQ(ix[r * 8 + j], finish[r] ? kN : order[j]) << "row " << r << " rank " << j;
    }
  }
}

TEST(AdvTranspose, Nz2Nd0213SwapsTheSecondAndThirdAxes) {
  constexpr uint32_t kB = 2, kN = 3, kS = 16, kH = 32;  // [B, N, S, H/N] from its NZ fractals
  optiling::ConfusionTransposeTiling host;
  GetTransposeTilingInfo(ge::Shape({kB, kN, kS, kH}), 0, 2, 1, host);
  ::ConfusionTransposeTiling tiling;
  host.SaveToBuffer(&tiling, sizeof(tiling));
  const uint32_t total = kB * kN * kS * kH;
  std::vector<int16_t> nz(total);
  auto nd_value = [](uint32_t b, uint32_t n, uint32_t s, uint32_t h) {
    return static_cast<int16_t>(b * 4000 + n * 1000 + s * 40 + h);
  };
  for (uint32_t b = 0; b < kB; ++b)
    for (uint32_t n = 0; n < kN; ++n)
      for (uint32_t f = 0; f < kH / 16; ++f)
        for (uint32_t s = 0; s < kS; ++s)
          for (uint32_t e = 0; e < 16; ++e)
            nz[(((b * kN + n) * (kH / 16) + f) * kS + s) * 16 + e] = nd_value(b, n, s, f * 16 + e);
  std::vector<int16_t> in(nz);
  const auto y = run_unary<int16_t>(
      in, total,
      [&](auto& dst, auto& src, auto&) {
        Transpose(dst, src, TransposeType::TRANSPOSE_NZ2ND_0213, tiling);
      },
      32);
  for (uint32_t b = 0; b < kB; ++b)
    for (uint32_t s = 0; s < kS; ++s)
      for (uint32_t n = 0; n < kN; ++n)
        for (uint32_t h = 0; h < kH; ++h)
          EXPECT_EQ(y[((b * kS + s) * kN + n) * kH + h], nd_value(b, n, s, h))
              << b << " " << s << " " << n << " " << h;
}

TEST(AdvFilter, DropOutWithABitMaskKeepsTheSetBitsScaled) {
  constexpr uint32_t kRows = 2, kCols = 128;
  const std::vector<float> x = uniform(kRows * kCols, -100, 100, 61);
  std::vector<uint8_t> mask(kRows * kCols / 8);
  std::mt19937 g(62);
  for (uint8_t& m : mask) m = static_cast<uint8_t>(g());
  const float keep = 0.7f;
  Bench b;
  const uint32_t n = kRows * kCols;
  const uint64_t xa = b.alloc(n * 4), ma = b.alloc(64), ya = b.alloc(n * 4);
  b.sim().write(xa, x.data(), n * 4);
  b.sim().write(ma, mask.data(), mask.size());
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, n), ys = ub_tensor<float>(pipe, n);
    LocalTensor<uint8_t> ms = ub_tensor<uint8_t>(pipe, 64), tmp = ub_tensor<uint8_t>(pipe, 288);
    DataCopy(xs, global<float>(xa, n), n);
    DataCopy(ms, global<uint8_t>(ma, 64), 64);
    Order<HardEvent::MTE2_V>();
    DropOutShapeInfo info;
    info.firstAxis = kRows;
    info.srcLastAxis = kCols;
    info.maskLastAxis = kCols / 8;
    DropOut(ys, xs, ms, tmp, keep, info);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, n), ys, n);
  });
  std::vector<float> y(n);
  b.sim().read(ya, y.data(), n * 4);
  const float scale = 1.0f / keep;
  for (uint32_t i = 0; i < n; ++i) {
    const bool kept = (mask[i / 8] >> (i % 8)) & 1;
    EXPECT_EQ(y[i], kept ? x[i] * scale : 0.0f) << "element " << i;
  }
}

TEST(AdvLayerNorm, LayerNormAndItsGradientsMatchTheFormulas) {
  constexpr uint32_t kB = 2, kS = 5, kH = 80;  // 10 rows (a tail of 2 blocks), rows of 320 B
  constexpr uint32_t kM = kB * kS, kN = kM * kH;
  const float eps = 1e-4f;
  const std::vector<float> x = uniform(kN, -10, 10, 71), dy = uniform(kN, -10, 10, 72);
  const std::vector<float> gamma = uniform(kH, -2, 2, 73), beta = uniform(kH, -2, 2, 74);
  const ge::Shape shape({kB, kS, kH});
  uint32_t mx = 0, t1 = 0, t2 = 0, t3 = 0;
  GetLayerNormMaxMinTmpSize(shape, 4, false, mx, t1);
  GetLayerNormGradMaxMinTmpSize(shape, 4, false, mx, t2);
  GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, mx, t3);
  const uint32_t tmpBytes = std::max({t1, t2, t3});
  optiling::LayerNormTiling h1;
  optiling::LayerNormGradTiling h2;
  optiling::LayerNormGradBetaTiling h3;
  GetLayerNormNDTilingInfo(shape, tmpBytes, 4, false, h1);
  GetLayerNormGradNDTilingInfo(shape, tmpBytes, 4, false, h2);
  GetLayerNormGradBetaNDTilingInfo(shape, tmpBytes, 4, false, h3);
  ::LayerNormTiling k1;
  ::LayerNormGradTiling k2;
  ::LayerNormGradBetaTiling k3;
  h1.SaveToBuffer(&k1, sizeof(k1));
  h2.SaveToBuffer(&k2, sizeof(k2));
  h3.SaveToBuffer(&k3, sizeof(k3));
  Bench b;
  const uint64_t xa = b.alloc(kN * 4), da = b.alloc(kN * 4), ga = b.alloc(kH * 4),
                 ba = b.alloc(kH * 4), ya = b.alloc(kN * 4), pa = b.alloc(kN * 4), sa = b.alloc(64),
                 va = b.alloc(64), gg = b.alloc(kH * 4), bb = b.alloc(kH * 4);
  b.sim().write(xa, x.data(), kN * 4);
  b.sim().write(da, dy.data(), kN * 4);
  b.sim().write(ga, gamma.data(), kH * 4);
  b.sim().write(ba, beta.data(), kH * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xs = ub_tensor<float>(pipe, kN), ds = ub_tensor<float>(pipe, kN),
                       gs = ub_tensor<float>(pipe, kH), bs = ub_tensor<float>(pipe, kH),
                       ys = ub_tensor<float>(pipe, kN), ps = ub_tensor<float>(pipe, kN),
                       rg = ub_tensor<float>(pipe, kN), ms = ub_tensor<float>(pipe, 16),
                       vs = ub_tensor<float>(pipe, 16), pg = ub_tensor<float>(pipe, kH),
                       pb = ub_tensor<float>(pipe, kH);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, tmpBytes);
    DataCopy(xs, global<float>(xa, kN), kN);
    DataCopy(ds, global<float>(da, kN), kN);
    DataCopy(gs, global<float>(ga, kH), kH);
    DataCopy(bs, global<float>(ba, kH), kH);
    Order<HardEvent::MTE2_V>();
    LayerNorm<float>(ys, ms, vs, xs, gs, bs, tmp, eps, k1);
    PipeBarrier<PIPE_V>();
    LayerNormGrad<float>(ps, rg, ds, xs, vs, ms, gs, tmp, eps, k2);
    PipeBarrier<PIPE_V>();
    LayerNormGradBeta<float>(pg, pb, rg, ds, tmp, k3);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, kN), ys, kN);
    DataCopy(global<float>(pa, kN), ps, kN);
    DataCopy(global<float>(sa, 16), ms, 16);
    DataCopy(global<float>(va, 16), vs, 16);
    DataCopy(global<float>(gg, kH), pg, kH);
    DataCopy(global<float>(bb, kH), pb, kH);
  });
  std::vector<float> y(kN), pdx(kN), mean(16), var(16), pg(kH), pb(kH);
  b.sim().read(ya, y.data(), kN * 4);
  b.sim().read(pa, pdx.data(), kN * 4);
  b.sim().read(sa, mean.data(), 64);
  b.sim().read(va, var.data(), 64);
  b.sim().read(gg, pg.data(), kH * 4);
  b.sim().read(bb, pb.data(), kH * 4);
  std::vector<double> wantG(kH, 0.0), wantB(kH, 0.0);
  for (uint32_t r = 0; r < kM; ++r) {
    const float* xr = &x[r * kH];
    const float* dr = &dy[r * kH];
    double mu = 0, v = 0;
    for (uint32_t c = 0; c < kH; ++c) mu += xr[c];
    mu /= kH;
    for (uint32_t c = 0; c < kH; ++c) v += (xr[c] - mu) * (xr[c] - mu);
    v /= kH;
    EXPECT_NEAR(mean[r], mu, 1e-5 * std::abs(mu) + 1e-5) << "mean of row " << r;
    EXPECT_NEAR(var[r], v, 1e-5 * v) << "variance of row " << r;
    const double rs = 1.0 / std::sqrt(v + eps);
    double sumA = 0, sumB = 0, sumC = 0;
    for (uint32_t c = 0; c < kH; ++c) {
      const double pdxl = double{dr[c]} * gamma[c];
      sumA += pdxl * (xr[c] - mu);
      sumB += -pdxl * rs;
      sumC += -2.0 * (xr[c] - mu);
    }
    const double pdVar = -0.5 * sumA * rs * rs * rs;
    const double pdMean = sumB + pdVar / kH * sumC;
    for (uint32_t c = 0; c < kH; ++c) {
      const double res = (xr[c] - mu) * rs;
      const double want = gamma[c] * res + beta[c];
      EXPECT_NEAR(y[r * kH + c], want, 1e-4 * std::abs(want) + 1e-4) << "y " << r << " " << c;
      const double wantPd =
          pdMean / kH + pdVar * 2.0 / kH * (xr[c] - mu) + double{dr[c]} * gamma[c] * rs;
      EXPECT_NEAR(pdx[r * kH + c], wantPd, 1e-4 * std::abs(wantPd) + 1e-4)
          << "pdX " << r << " " << c;
      wantG[c] += dr[c] * res;
      wantB[c] += dr[c];
    }
  }
  for (uint32_t c = 0; c < kH; ++c) {
    EXPECT_NEAR(pg[c], wantG[c], 1e-4 * std::abs(wantG[c]) + 1e-4) << "pdGamma " << c;
    EXPECT_NEAR(pb[c], wantB[c], 1e-5 * std::abs(wantB[c]) + 1e-4) << "pdBeta " << c;
  }
}

}  // namespace
