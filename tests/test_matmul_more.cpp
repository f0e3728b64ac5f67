// More of the Matmul API, as the vendor's examples use it: the user's copies (MatmulCallBackFunc)
// with their tiling and data pointers, the triangular policies, a tiling fixed at compile time
// (GetMatmulApiTiling), and the host's fixed single-core split (SetSingleShape). Every result
// against a plain fp32 product of small exact values (any summation order gives the same bits),
// in shapes with tails; the combinations that are not modelled fail naming themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::LaunchShape;
using ascend::RunOptions;
using ascend::test::Bench;
using ascend::test::global;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

std::vector<half> exact_halves(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-8, 8);
  std::vector<half> v(n);
  for (half& x : v) x = half(static_cast<float>(d(rng)) / 4.0f);
  return v;
}

std::vector<float> product(const std::vector<half>& a, const std::vector<half>& b, int m, int n,
                           int k) {
  std::vector<float> c(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int x = 0; x < k; ++x)
        acc += static_cast<double>(static_cast<float>(a[size_t(i) * k + x])) *
               static_cast<double>(static_cast<float>(b[size_t(x) * n + j]));
      c[size_t(i) * n + j] = static_cast<float>(acc);
    }
  return c;
}

TCubeTiling tiling_of(int m, int n, int k, int base_m, int base_n, int base_k) {
  matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
  api.SetShape(m, n, k);
  api.SetFixSplit(base_m, base_n, base_k);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0) << api.error();
  return t;
}

// Runs `body(ga, gb, gc)` on one AIC with A (m x k), B (k x n) and C (m x n, filled with -7)
// in GM; returns C, or the run's error.
struct Outcome {
  std::vector<float> c;
  int code = 0;
  std::string message;
  nlohmann::json extra;
};
// An extra fp32 input in GM for the next run_on_aic (its address in g_extra_gm while it runs).
std::vector<float> g_extra;
uint64_t g_extra_gm = 0;
template <class Body>
Outcome run_on_aic(const std::vector<half>& a, const std::vector<half>& b, int m, int n,
                   const Body& body, const std::function<nlohmann::json()>& after = nullptr) {
  nlohmann::json r = ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench bench({}, 1, o);
    const uint64_t ga = bench.alloc(a.size() * 2), gb = bench.alloc(b.size() * 2),
                   gc = bench.alloc(size_t(m) * n * 4);
    bench.sim().write(ga, a.data(), a.size() * 2);
    bench.sim().write(gb, b.data(), b.size() * 2);
    std::vector<float> c(size_t(m) * n, -7.0f);
    bench.sim().write(gc, c.data(), c.size() * 4);
    if (!g_extra.empty()) {
      g_extra_gm = bench.alloc(g_extra.size() * 4);
      bench.sim().write(g_extra_gm, g_extra.data(), g_extra.size() * 4);
    }
    try {
      bench.run(LaunchShape::mixed(1, 0), [&] { body(ga, gb, gc); });
    } catch (const ascend::SimError& e) {
      return nlohmann::json{{"code", e.code}, {"message", e.what()}};
    }
    bench.sim().read(gc, c.data(), c.size() * 4);
    return nlohmann::json{{"c", c}, {"extra", after ? after() : nlohmann::json()}};
  });
  Outcome out;
  if (r.contains("code")) {
    out.code = r["code"].get<int>();
    out.message = r["message"].get<std::string>();
  } else {
    out.c = r["c"].get<std::vector<float>>();
    out.extra = r["extra"];
  }
  return out;
}

int mismatches(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return -1;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += std::memcmp(&got[i], &want[i], 4) != 0;
  return bad;
}

// ---- MatmulCallBackFunc ----

using Blocks = std::set<std::pair<int, int>>;

// The callbacks read A and B not from SetTensorA/B's GM but from the buffer at dataPtr (A, then
// B), rows of tilingPtr (K) and N elements; and record the blocks they were asked for.
constexpr int CM = 80, CN = 48, CK = 200;  // tails in M, N and K (base 32/32/32, chunks of K)
std::vector<std::pair<int, int>> g_a_blocks, g_b_blocks;

void copy_a(const LocalTensor<int8_t>& l1, const __gm__ void*, int row, int col, int use_m,
            int use_k, const uint64_t tiling_ptr, const uint64_t data_ptr) {
  g_a_blocks.emplace_back(row, col);
  const int k = static_cast<int>(tiling_ptr);
  GlobalTensor<half> a;
  a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(data_ptr), size_t(CM) * k);
  Nd2NzParams p;
  p.nValue = static_cast<uint16_t>(use_m);
  p.dValue = static_cast<uint16_t>(use_k);
  p.srcDValue = static_cast<uint16_t>(k);
  p.dstNzC0Stride = static_cast<uint16_t>((use_m + 15) / 16 * 16);
  DataCopy(l1.ReinterpretCast<half>(), a[size_t(row) * 32 * k + size_t(col) * 64], p);
}

void copy_b(const LocalTensor<int8_t>& l1, const __gm__ void*, int row, int col, int use_k,
            int use_n, const uint64_t tiling_ptr, const uint64_t data_ptr) {
  g_b_blocks.emplace_back(row, col);
  GlobalTensor<half> b;
  b.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(data_ptr + size_t(CM) * tiling_ptr * 2),
                    size_t(CK) * CN);
  Nd2NzParams p;
  p.nValue = static_cast<uint16_t>(use_k);
  p.dValue = static_cast<uint16_t>(use_n);
  p.srcDValue = CN;
  p.dstNzC0Stride = static_cast<uint16_t>((use_k + 15) / 16 * 16);
  DataCopy(l1.ReinterpretCast<half>(), b[size_t(row) * 64 * CN + size_t(col) * 32], p);
}

using CallbackMM = Matmul<AT, AT, CT, BiasT, CFG_NORM, MatmulCallBackFunc<nullptr, copy_a, copy_b>>;

TEST(MatmulCallback, TheUsersCopiesFillL1FromWhereTheyChoose) {
  const std::vector<half> a = exact_halves(size_t(CM) * CK, 1),
                          b = exact_halves(size_t(CK) * CN, 2);
  std::vector<half> ab = a;  // A then B, where the callbacks read them
  ab.insert(ab.end(), b.begin(), b.end());
  TCubeTiling t = tiling_of(CM, CN, CK, 32, 32, 32);
  t.stepKa = t.stepKb = 2;  // K chunks of 64: four per block, the last one a tail of 8
  Outcome r = run_on_aic(
      ab, std::vector<half>(size_t(CM) * CK), CM, CN,
      [&](uint64_t gab, uint64_t gzero, uint64_t gc) {
        TPipe pipe;
        CallbackMM mm;
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        mm.SetUserDefInfo(CK);
        mm.SetSelfDefineData(gab);
        // SetTensorA/B name zeros: only the callbacks' copies give the product.
        mm.SetTensorA(global<half>(gzero, size_t(CM) * CK));
        mm.SetTensorB(global<half>(gzero, size_t(CM) * CK));
        mm.SetOrgShape(CM, CN, CK);
        mm.IterateAll(global<float>(gc, size_t(CM) * CN));
        mm.End();
      },
      [] {
        Blocks sa(g_a_blocks.begin(), g_a_blocks.end()), sb(g_b_blocks.begin(), g_b_blocks.end());
        return nlohmann::json{{"a", sa}, {"b", sb}};
      });
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(mismatches(r.c, product(a, b, CM, CN, CK)), 0);
  // A: 3 blocks along M x 4 chunks of K; B: 4 chunks of K x 2 blocks along N.
  Blocks want_a, want_b;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) want_a.emplace(i, j);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) want_b.emplace(i, j);
  EXPECT_EQ(r.extra["a"].get<Blocks>(), want_a) << r.extra.dump();
  EXPECT_EQ(r.extra["b"].get<Blocks>(), want_b) << r.extra.dump();
}

TEST(MatmulCallback, CopiesWithStepMAboveOneFail) {
  TCubeTiling t = tiling_of(CM, CN, CK, 32, 32, 32);
  t.stepM = 2;
  Outcome r = run_on_aic(exact_halves(size_t(CM) * CK, 1), exact_halves(size_t(CK) * CN, 2), CM, CN,
                         [&](uint64_t, uint64_t, uint64_t) {
                           TPipe pipe;
                           CallbackMM mm;
                           REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
                         });
  EXPECT_EQ(r.code, ascend::kExitKernelFault) << r.message;
  EXPECT_NE(r.message.find("stepM or stepN above 1"), std::string::npos) << r.message;
}

// ---- the triangular policies ----

template <template <const auto&, class...> class Policy>
Outcome triangle_run(const std::vector<half>& a, const std::vector<half>& b, int m, int n, int k) {
  const TCubeTiling t = tiling_of(m, n, k, 32, 32, 32);
  return run_on_aic(a, b, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
    TPipe pipe;
    Matmul<AT, AT, CT, BiasT, CFG_NORM, MatmulCallBackFunc<>, Policy> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    mm.SetTensorA(global<half>(ga, a.size()));
    mm.SetTensorB(global<half>(gb, b.size()));
    mm.IterateAll(global<float>(gc, size_t(m) * n));
    mm.End();
  });
}

TEST(MatmulPolicy, TriangularPoliciesWriteOnlyTheirBlocks) {
  constexpr int m = 100, n = 70, k = 40;  // 4 x 3 blocks of 32, tails in each
  const std::vector<half> a = exact_halves(size_t(m) * k, 3), b = exact_halves(size_t(k) * n, 4);
  const std::vector<float> full = product(a, b, m, n, k);
  for (bool upper : {true, false}) {
    SCOPED_TRACE(upper ? "upper" : "lower");
    Outcome r = upper ? triangle_run<Impl::Detail::TrianUpperMatmulPolicy>(a, b, m, n, k)
                      : triangle_run<Impl::Detail::TrianLowerMatmulPolicy>(a, b, m, n, k);
    ASSERT_EQ(r.code, 0) << r.message;
    std::vector<float> want = full;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        if (upper ? i / 32 > j / 32 : i / 32 < j / 32) want[size_t(i) * n + j] = -7.0f;
    EXPECT_EQ(mismatches(r.c, want), 0);
  }
  // NBuffer33 is a schedule: the whole product.
  Outcome r = triangle_run<Impl::Detail::NBuffer33MatmulPolicy>(a, b, m, n, k);
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(mismatches(r.c, full), 0);
}

// ---- a tiling fixed at compile time ----

constexpr MatmulConfig kFullCfg =
    GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{1000, 1000, 1000, 32, 64, 32});
constexpr MatmulApiStaticTiling kFull = GetMatmulApiTiling<AT, AT, CT, BiasT>(kFullCfg);
static_assert(kFull.baseM == 32 && kFull.baseN == 64 && kFull.baseK == 32);
static_assert(kFull.singleCoreM == 1000 && kFull.stepKa == 4 && kFull.stepKb == 4);
static_assert(kFull.cfg.doMultiDataLoad && kFull.isBias == 1 && kFull.dbL0C == 1);
constexpr MatmulConfig kBaseOnlyCfg =
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 32, 32, 64});
constexpr MatmulApiStaticTiling kBaseOnly = GetMatmulApiTiling<AT, AT, CT, BiasT>(kBaseOnlyCfg);
static_assert(kBaseOnly.singleCoreM == -1 && kBaseOnly.baseK == 64);

TEST(MatmulStaticTiling, AFullyFixedTilingNeedsNoRuntimeTiling) {
  constexpr int m = 90, n = 100, k = 150;
  const std::vector<half> a = exact_halves(size_t(m) * k, 5), b = exact_halves(size_t(k) * n, 6);
  Outcome r = run_on_aic(a, b, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
    TPipe pipe;
    Matmul<AT, AT, CT, BiasT, kFull> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, (TCubeTiling*)nullptr);
    mm.SetOrgShape(m, n, k);
    mm.SetTail(m, n, k);
    mm.SetTensorA(global<half>(ga, a.size()));
    mm.SetTensorB(global<half>(gb, b.size()));
    mm.IterateAll(global<float>(gc, size_t(m) * n));
    mm.End();
  });
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(mismatches(r.c, product(a, b, m, n, k)), 0);
}

TEST(MatmulStaticTiling, FixedBaseShapesOverrideTheRuntimeTiling) {
  constexpr int m = 70, n = 40, k = 300;
  const std::vector<half> a = exact_halves(size_t(m) * k, 7), b = exact_halves(size_t(k) * n, 8);
  // The runtime tiling's base is 16/16/16; the static one's 32/32/64 runs (and fits its buffers).
  const TCubeTiling t = tiling_of(m, n, k, 16, 16, 16);
  Outcome r = run_on_aic(a, b, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
    TPipe pipe;
    Matmul<AT, AT, CT, BiasT, kBaseOnly> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    mm.SetTensorA(global<half>(ga, a.size()));
    mm.SetTensorB(global<half>(gb, b.size()));
    mm.IterateAll(global<float>(gc, size_t(m) * n));
    mm.End();
  });
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(mismatches(r.c, product(a, b, m, n, k)), 0);
  // Without a runtime tiling, base shapes alone do not say the single-core shape.
  Outcome none = run_on_aic(a, b, m, n, [&](uint64_t, uint64_t, uint64_t) {
    TPipe pipe;
    Matmul<AT, AT, CT, BiasT, kBaseOnly> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, (TCubeTiling*)nullptr);
  });
  EXPECT_EQ(none.code, ascend::kExitKernelFault) << none.message;
  EXPECT_NE(none.message.find("without a tiling needs a MatmulApiStaticTiling"), std::string::npos)
      << none.message;
}

// ---- formats ----

TEST(MatmulFormat, NdAlignPadsCsRowsTo32BytesAndVectorIsOneRow) {
  constexpr int m = 20, n = 37, k = 50, pitch = 40;  // float rows of 37 padded to 40
  const std::vector<half> a = exact_halves(size_t(m) * k, 9), b = exact_halves(size_t(k) * n, 10);
  const TCubeTiling t = tiling_of(m, n, k, 16, 16, 16);
  using CAlign = MatmulType<TPosition::GM, CubeFormat::ND_ALIGN, float>;
  Outcome r = run_on_aic(a, b, m, pitch, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
    TPipe pipe;
    Matmul<AT, AT, CAlign, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    mm.SetOrgShape(m, n, k);
    mm.SetTensorA(global<half>(ga, a.size()));
    mm.SetTensorB(global<half>(gb, b.size()));
    mm.IterateAll(global<float>(gc, size_t(m) * pitch));
    mm.End();
  });
  ASSERT_EQ(r.code, 0) << r.message;
  const std::vector<float> full = product(a, b, m, n, k);
  std::vector<float> want(size_t(m) * pitch, -7.0f);  // the padding is left as it was
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) want[size_t(i) * pitch + j] = full[size_t(i) * n + j];
  EXPECT_EQ(mismatches(r.c, want), 0);

  // A VECTOR A: one row.
  using AVec = MatmulType<TPosition::GM, CubeFormat::VECTOR, half>;
  const TCubeTiling t1 = tiling_of(1, n, k, 16, 16, 16);
  for (int rows : {1, 2}) {
    Outcome v = run_on_aic(a, b, rows, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
      TPipe pipe;
      Matmul<AVec, AT, CT, BiasT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t1);
      mm.SetTail(rows, n, k);
      mm.SetTensorA(global<half>(ga, a.size()));
      mm.SetTensorB(global<half>(gb, b.size()));
      mm.IterateAll(global<float>(gc, size_t(rows) * n));
      mm.End();
    });
    if (rows == 1) {
      ASSERT_EQ(v.code, 0) << v.message;
      EXPECT_EQ(mismatches(v.c, std::vector<float>(full.begin(), full.begin() + n)), 0);
    } else {
      EXPECT_EQ(v.code, ascend::kExitKernelFault) << v.message;
      EXPECT_NE(v.message.find("VECTOR format has one row"), std::string::npos) << v.message;
    }
  }
}

// A bias of N not a whole number of 32-B blocks, in an allocation of exactly its bytes: the tail
// block's copy stays inside it.
TEST(MatmulBias, AnUnalignedBiasTailIsReadWithinItsAllocation) {
  constexpr int m = 20, n = 37, k = 40;
  const std::vector<half> a = exact_halves(size_t(m) * k, 18), b = exact_halves(size_t(k) * n, 19),
                          bh = exact_halves(n, 20);
  const std::vector<float> bias(bh.begin(), bh.end());
  const TCubeTiling t = [&] {
    matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
    api.SetShape(m, n, k);
    api.EnableBias(true);
    api.SetFixSplit(16, 16, 16);
    TCubeTiling tt;
    EXPECT_EQ(api.GetTiling(tt), 0) << api.error();
    return tt;
  }();
  nlohmann::json r = ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench bench({}, 1, o);
    const uint64_t ga = bench.alloc(a.size() * 2), gb = bench.alloc(b.size() * 2),
                   gbias = bench.alloc(bias.size() * 4), gc = bench.alloc(size_t(m) * n * 4);
    bench.sim().write(ga, a.data(), a.size() * 2);
    bench.sim().write(gb, b.data(), b.size() * 2);
    bench.sim().write(gbias, bias.data(), bias.size() * 4);
    try {
      bench.run(LaunchShape::mixed(1, 0), [&] {
        TPipe pipe;
        Matmul<AT, AT, CT, BiasT> mm;
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        mm.SetTensorA(global<half>(ga, a.size()));
        mm.SetTensorB(global<half>(gb, b.size()));
        mm.SetBias(global<float>(gbias, bias.size()));
        mm.IterateAll(global<float>(gc, size_t(m) * n));
        mm.End();
      });
    } catch (const ascend::SimError& e) {
      return nlohmann::json{{"message", e.what()}};
    }
    std::vector<float> c(size_t(m) * n);
    bench.sim().read(gc, c.data(), c.size() * 4);
    return nlohmann::json{{"c", c}};
  });
  ASSERT_TRUE(r.contains("c")) << r.dump();
  std::vector<float> want = product(a, b, m, n, k);
  for (int i = 0; i < m * n; ++i) want[i] += bias[i % n];
  EXPECT_EQ(mismatches(r["c"].get<std::vector<float>>(), want), 0);
}

// ---- transposed A and B ----

TEST(MatmulTranspose, TransposedAAndBGiveTheProduct) {
  constexpr int m = 50, n = 40, k = 100;  // base 32: tails in m, n; K chunks of 64 and 36
  const std::vector<half> a = exact_halves(size_t(m) * k, 11), b = exact_halves(size_t(k) * n, 12);
  std::vector<half> at(a.size()), bt(b.size());  // K x M and N x K
  for (int i = 0; i < m; ++i)
    for (int x = 0; x < k; ++x) at[size_t(x) * m + i] = a[size_t(i) * k + x];
  for (int x = 0; x < k; ++x)
    for (int j = 0; j < n; ++j) bt[size_t(j) * k + x] = b[size_t(x) * n + j];
  const std::vector<float> want = product(a, b, m, n, k);
  TCubeTiling t = tiling_of(m, n, k, 32, 32, 32);
  t.stepKa = t.stepKb = 2;
  for (int mode = 0; mode < 4; ++mode) {  // A^T, B^T, both; neither with stepKa != stepKb
    SCOPED_TRACE(mode);
    const bool ta = mode == 0 || mode == 2, tb = mode == 1 || mode == 2;
    if (mode == 3) t.stepKb = 3;
    Outcome r =
        run_on_aic(ta ? at : a, tb ? bt : b, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
          TPipe pipe;
          Matmul<AT, AT, CT, BiasT> mm;
          REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
          mm.SetTensorA(global<half>(ga, a.size()), ta);
          mm.SetTensorB(global<half>(gb, b.size()), tb);
          mm.IterateAll(global<float>(gc, size_t(m) * n));
          mm.End();
        });
    ASSERT_EQ(r.code, 0) << r.message;
    EXPECT_EQ(mismatches(r.c, want), 0);
  }
}

// B in NZ format in GM (column blocks of 16, each of K padded to 16 rows, the last block's
// columns past N zero), as weights are stored: the same product as B in ND.
TEST(MatmulFormat, BInNzGivesTheProductOfBInNd) {
  constexpr int m = 50, n = 40, k = 100, kp = 112, blocks = 3;
  const std::vector<half> a = exact_halves(size_t(m) * k, 13), b = exact_halves(size_t(k) * n, 14);
  std::vector<half> bnz(size_t(blocks) * kp * 16, half(0));
  for (int x = 0; x < k; ++x)
    for (int j = 0; j < n; ++j) bnz[(size_t(j / 16) * kp + x) * 16 + j % 16] = b[size_t(x) * n + j];
  TCubeTiling t = tiling_of(m, n, k, 32, 32, 32);
  t.stepKa = t.stepKb = 2;
  using BNz = MatmulType<TPosition::GM, CubeFormat::NZ, half>;
  // B's GlobalTensor of `b_elems` elements.
  auto run = [&](size_t b_elems) {
    return run_on_aic(a, bnz, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
      TPipe pipe;
      Matmul<AT, BNz, CT, BiasT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      mm.SetTensorA(global<half>(ga, a.size()));
      mm.SetTensorB(global<half>(gb, b_elems));
      mm.IterateAll(global<float>(gc, size_t(m) * n));
      mm.End();
    });
  };
  Outcome r = run(bnz.size());
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(mismatches(r.c, product(a, b, m, n, k)), 0);
  // Its last column block's rows must be in the tensor.
  Outcome short_b = run(size_t(2) * kp * 16 + 99 * 16);
  EXPECT_EQ(short_b.code, ascend::kExitKernelFault);
  EXPECT_NE(short_b.message.find("B (NZ)"), std::string::npos) << short_b.message;
}

// ---- batches ----

constexpr MatmulConfig kSharedBias = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});
constexpr MatmulConfig kNBatch = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1, true});
using ANorm = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
using CNorm = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;

// IterateBatch(C, ba, bb) of `MM` on one AIC with A's, B's and a bias in GM; C's `c_elems`
// (filled with -7 first) or the error. With kLoops, IterateNBatch(kLoops, ba, bb) into C as the
// workspace.
template <class MM, int kLoops = 0>
nlohmann::json batch_run(const std::vector<half>& a, const std::vector<half>& b,
                         const std::vector<float>& bias, size_t c_elems, int ba, int bb,
                         const TCubeTiling& t, bool trans_b = false) {
  return ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench bench({}, 1, o);
    const uint64_t ga = bench.alloc(a.size() * 2), gb = bench.alloc(b.size() * 2),
                   gbias = bench.alloc(bias.size() * 4 + 64), gc = bench.alloc(c_elems * 4);
    bench.sim().write(ga, a.data(), a.size() * 2);
    bench.sim().write(gb, b.data(), b.size() * 2);
    bench.sim().write(gbias, bias.data(), bias.size() * 4);
    std::vector<float> c(c_elems, -7.0f);
    bench.sim().write(gc, c.data(), c.size() * 4);
    try {
      bench.run(LaunchShape::mixed(1, 0), [&] {
        TPipe pipe;
        MM mm;
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        mm.SetTensorA(global<half>(ga, a.size()));
        mm.SetTensorB(global<half>(gb, b.size()), trans_b);
        if (!bias.empty()) mm.SetBias(global<float>(gbias, bias.size()));
        if constexpr (kLoops > 0) {
          mm.SetWorkspace(global<float>(gc, c_elems));
          mm.IterateNBatch(kLoops, ba, bb, false);
        } else {
          mm.IterateBatch(global<float>(gc, c_elems), ba, bb, false);
        }
        mm.End();
      });
    } catch (const ascend::SimError& e) {
      return nlohmann::json{{"code", e.code}, {"message", e.what()}};
    }
    bench.sim().read(gc, c.data(), c.size() * 4);
    return nlohmann::json{{"c", c}};
  });
}

TCubeTiling batch_tiling(int m, int n, int k, bool bias, bool trans_b = false) {
  matmul_tiling::BatchMatmulTiling api;
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16, trans_b);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.EnableBias(bias);
  api.SetFixSplit(16, 16, 16);
  return [&] {
    TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), 0) << api.error();
    return t;
  }();
}

TEST(MatmulBatch, NormalLayoutBroadcastsTheFewerAndSharesOrSplitsTheBias) {
  constexpr int m = 20, n = 40, k = 36, ba = 2, bb = 4;  // each A serves two B's
  const std::vector<half> a = exact_halves(size_t(ba) * m * k, 13),
                          b = exact_halves(size_t(bb) * k * n, 14), bh = exact_halves(bb * n, 15);
  const std::vector<float> bias(bh.begin(), bh.end());
  TCubeTiling t = batch_tiling(m, n, k, true);
  matmul_tiling::BatchMatmulTiling api;
  api.SetBatchInfoForNormal(ba, bb, m, n, k);
  api.SetBatchNum(bb);
  api.SetShape(m, n, k);
  TCubeTiling layouts;
  ASSERT_EQ(api.GetTiling(layouts), 0) << api.error();
  EXPECT_EQ(layouts.ALayoutInfoB, ba);
  EXPECT_EQ(layouts.CLayoutInfoB, bb);
  EXPECT_EQ(layouts.CLayoutInfoS2, n);
  EXPECT_EQ(layouts.BatchNum, bb);
  for (int run = 0; run < 3; ++run) {
    const bool shared = run == 1;
    SCOPED_TRACE(run == 0 ? "bias per matrix" : run == 1 ? "shared bias" : "IterateNBatch");
    // IterateNBatch: two batches of one A and two B's, each after the last in every layout:
    // the same matrices as one batch of two A's and four B's.
    nlohmann::json r = run == 0 ? batch_run<Matmul<ANorm, ANorm, CNorm, BiasT>>(
                                      a, b, bias, size_t(bb) * m * n, ba, bb, t)
                       : run == 1 ? batch_run<Matmul<ANorm, ANorm, CNorm, BiasT, kSharedBias>>(
                                        a, b, bias, size_t(bb) * m * n, ba, bb, t)
                                  : batch_run<Matmul<ANorm, ANorm, CNorm, BiasT, kNBatch>, 2>(
                                        a, b, bias, size_t(bb) * m * n, ba / 2, bb / 2, t);
    ASSERT_TRUE(r.contains("c")) << r.dump();
    std::vector<float> want;
    for (int i = 0; i < bb; ++i) {
      const std::vector<half> ai(a.begin() + size_t(i / 2) * m * k,
                                 a.begin() + size_t(i / 2 + 1) * m * k),
          bi(b.begin() + size_t(i) * k * n, b.begin() + size_t(i + 1) * k * n);
      std::vector<float> ci = product(ai, bi, m, n, k);
      for (int x = 0; x < m * n; ++x) ci[x] += bias[size_t(shared ? 0 : i) * n + x % n];
      want.insert(want.end(), ci.begin(), ci.end());
    }
    EXPECT_EQ(mismatches(r["c"].get<std::vector<float>>(), want), 0);
  }
  // A Matmul whose types have no batched layout cannot IterateBatch.
  nlohmann::json none = batch_run<Matmul<AT, AT, CT, BiasT>>(a, b, {}, size_t(bb) * m * n, ba, bb,
                                                             batch_tiling(m, n, k, false));
  EXPECT_EQ(none.value("code", 0), ascend::kExitKernelFault) << none.dump();
  EXPECT_NE(none.value("message", std::string()).find("batched layout"), std::string::npos);
}

TEST(MatmulBatch, BsngdLayoutInterleavesTheMatricesRows) {
  // A [B=2, S=20, N=1, G=3, D=36], B^T [2, S=40, 1, 3, 36], C [2, 20, 1, 3, 40]: six matrices.
  constexpr int B = 2, G = 3, m = 20, n = 40, k = 36;
  const std::vector<half> a = exact_halves(size_t(B) * m * G * k, 16),
                          bt = exact_halves(size_t(B) * n * G * k, 17);
  TCubeTiling t = batch_tiling(m, n, k, false, true);
  t.ALayoutInfoB = B, t.ALayoutInfoS = m, t.ALayoutInfoN = 1, t.ALayoutInfoG = G;
  t.ALayoutInfoD = k;
  t.BLayoutInfoB = B, t.BLayoutInfoS = n, t.BLayoutInfoN = 1, t.BLayoutInfoG = G;
  t.BLayoutInfoD = k;
  t.CLayoutInfoB = B, t.CLayoutInfoS1 = m, t.CLayoutInfoN = 1, t.CLayoutInfoG = G;
  t.CLayoutInfoS2 = n;
  using AB = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>;
  using BB = MatmulType<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>;
  using CB = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>;
  nlohmann::json r =
      batch_run<Matmul<AB, BB, CB, BiasT>>(a, bt, {}, size_t(B) * m * G * n, B * G, B * G, t, true);
  ASSERT_TRUE(r.contains("c")) << r.dump();
  const std::vector<float> c = r["c"].get<std::vector<float>>();
  int bad = 0;
  for (int bi = 0; bi < B; ++bi)
    for (int g = 0; g < G; ++g) {
      std::vector<half> am(size_t(m) * k), bm(size_t(k) * n);
      for (int i = 0; i < m; ++i)
        for (int x = 0; x < k; ++x)
          am[size_t(i) * k + x] = a[((size_t(bi) * m + i) * G + g) * k + x];
      for (int j = 0; j < n; ++j)
        for (int x = 0; x < k; ++x)
          bm[size_t(x) * n + j] = bt[((size_t(bi) * n + j) * G + g) * k + x];
      const std::vector<float> want = product(am, bm, m, n, k);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
          bad += std::memcmp(&c[((size_t(bi) * m + i) * G + g) * n + j], &want[size_t(i) * n + j],
                             4) != 0;
    }
  EXPECT_EQ(bad, 0);
}

// ---- the host's fixed split ----

matmul_tiling::MultiCoreMatmulTiling multi(int dim) {
  matmul_tiling::MultiCoreMatmulTiling api;
  api.SetDim(dim);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  return api;
}

TEST(MatmulTiling, SetSingleShapeFixesTheSplit) {
  matmul_tiling::MultiCoreMatmulTiling api = multi(20);
  api.SetOrgShape(2560, 128, 512);
  api.SetShape(2560, 128, 512);
  api.SetSingleShape(128, 128, 512);
  api.SetMatmulConfigParams(1, false, matmul_tiling::ScheduleType::N_BUFFER_33,
                            matmul_tiling::MatrixTraverse::FIRSTN);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  EXPECT_EQ(t.usedCoreNum, 20);
  EXPECT_EQ(t.singleCoreM, 128);
  EXPECT_EQ(t.singleCoreN, 128);
  EXPECT_EQ(t.M, 2560);
  EXPECT_EQ(t.iterateOrder, 1);
  int32_t sm = 0, sn = 0, sk = 0;
  api.GetSingleShape(sm, sn, sk);
  EXPECT_EQ(sm, 128);
  EXPECT_EQ(sk, 512);
  // A split needing more cores than SetDim's, and a split of K, are refused with the reason.
  api.SetSingleShape(100, 128, 512);
  EXPECT_EQ(api.GetTiling(t), -1);
  EXPECT_NE(api.error().find("26 blocks"), std::string::npos) << api.error();
  api.SetSingleShape(128, 128, 256);
  EXPECT_EQ(api.GetTiling(t), -1);
  EXPECT_NE(api.error().find("singleK below K"), std::string::npos) << api.error();
}

TEST(MatmulTiling, ShapeOfMinusOneIsTheOrgShape) {
  matmul_tiling::MultiCoreMatmulTiling api = multi(1);
  api.SetOrgShape(128, 640, 64);
  api.SetShape(-1, -1, 64);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  int32_t sm = 0, sn = 0, sk = 0;
  api.GetSingleShape(sm, sn, sk);
  EXPECT_EQ(sm, 128);
  EXPECT_EQ(sn, 640);
  EXPECT_EQ(sk, 64);
  EXPECT_EQ(t.usedCoreNum, 1);
}

// ---- C in NZ format, with and without channel split; C left in the user's L0C ----

constexpr MatmulConfig kSplitCfg = [] {
  MatmulConfig c = CFG_NORM;
  c.isEnableChannelSplit = true;
  return c;
}();
using CNz = MatmulType<TPosition::GM, CubeFormat::NZ, float>;

// C (m x n) in NZ: column blocks of c0 columns, each of `rows` rows (rows beyond m untouched).
std::vector<float> to_nz(const std::vector<float>& c, int m, int n, int rows, int c0, int cols) {
  std::vector<float> out(size_t(rows) * cols, -7.0f);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      out[size_t(j / c0) * rows * c0 + size_t(i) * c0 + j % c0] = c[size_t(i) * n + j];
  return out;
}

TEST(MatmulFormat, NzCWritesColumnBlocksOf16OrOf8WithChannelSplit) {
  constexpr int m = 40, k = 100;
  for (const bool split : {false, true}) {
    // Channel split: blocks of 8 columns of 48 rows (M rounded up to 16); N need only be a
    // multiple of 8. Without it: blocks of 16 columns of orgM (40) rows.
    const int n = split ? 72 : 80, rows = split ? 48 : 40;
    const std::vector<half> a = exact_halves(size_t(m) * k, 21),
                            b = exact_halves(size_t(k) * n, 22);
    const TCubeTiling t = tiling_of(m, n, k, 32, 32, 32);
    Outcome r = run_on_aic(a, b, rows, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
      TPipe pipe;
      auto body = [&](auto& mm) {
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        mm.SetTensorA(global<half>(ga, a.size()));
        mm.SetTensorB(global<half>(gb, b.size()));
        mm.IterateAll(global<float>(gc, size_t(rows) * n));
        mm.End();
      };
      if (split) {
        Matmul<AT, AT, CNz, BiasT, kSplitCfg> mm;
        body(mm);
      } else {
        Matmul<AT, AT, CNz, BiasT> mm;
        body(mm);
      }
    });
    ASSERT_EQ(r.code, 0) << r.message;
    EXPECT_EQ(mismatches(r.c, to_nz(product(a, b, m, n, k), m, n, rows, split ? 8 : 16, n)), 0)
        << (split ? "channel split" : "NZ");
  }
}

constexpr MatmulConfig kNoUnitFlag =
    GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true, IterateOrder::UNDEF,
                    ScheduleType::INNER_PRODUCT, false);

TEST(MatmulCo1, IterateFillsTheUsersL0cForTheirFixpipe) {
  // One row of blocks (baseM = M): the blocks of C side by side in the user's L0C, the bias
  // added, then one Fixpipe of the whole row to GM, as the vendor's CO1-output example does.
  constexpr int m = 32, n = 80, k = 100;
  const std::vector<half> a = exact_halves(size_t(m) * k, 23), b = exact_halves(size_t(k) * n, 24);
  std::vector<float> bias(n);
  for (int j = 0; j < n; ++j) bias[j] = static_cast<float>(j % 7) - 3.0f;
  TCubeTiling t = tiling_of(m, n, k, 32, 32, 32);
  t.isBias = 1;
  g_extra = bias;
  int blocks = -1;
  Outcome r = run_on_aic(
      a, b, m, n,
      [&](uint64_t ga, uint64_t gb, uint64_t gc) {
        TPipe pipe;
        using L0cT = GetMmDstType<half>::Type;
        Matmul<AT, AT, MatmulType<TPosition::CO1, CubeFormat::NZ, L0cT>, BiasT, kNoUnitFlag> mm;
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        mm.SetTensorA(global<half>(ga, a.size()));
        mm.SetTensorB(global<half>(gb, b.size()));
        mm.SetBias(global<float>(g_extra_gm, n));
        TQue<TPosition::CO1, Impl::QUEUE_DEPTH> co1;
        pipe.InitBuffer(co1, 1, m * n * sizeof(L0cT));
        LocalTensor<L0cT> l0c = co1.AllocTensor<L0cT>();
        blocks = 0;
        // The call after the last block returns false (given a tensor still within the buffer).
        while (mm.Iterate(false, l0c[std::min(blocks, 2) * 32 * 32])) ++blocks;
        co1.EnQue(l0c);
        l0c = co1.DeQue<L0cT>();
        FixpipeParamsV220 f;
        f.mSize = m;
        f.nSize = n;
        f.srcStride = m;
        f.dstStride = n;
        Fixpipe<float, L0cT, CFG_ROW_MAJOR>(global<float>(gc, size_t(m) * n), l0c, f);
        co1.FreeTensor(l0c);
        co1.FreeAllEvent();
        mm.End();
      },
      [&] { return nlohmann::json(blocks); });
  g_extra.clear();
  ASSERT_EQ(r.code, 0) << r.message;
  EXPECT_EQ(r.extra.get<int>(), 3);  // three blocks along N: 32, 32 and a tail of 16
  std::vector<float> want = product(a, b, m, n, k);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) want[size_t(i) * n + j] += bias[j];
  EXPECT_EQ(mismatches(r.c, want), 0);
}

// ---- K split over cores: the host's split and the atomic IterateAll ----

TEST(MatmulSplitK, TheIdleCoresTakeEqualPartsOfK) {
  matmul_tiling::MultiCoreMatmulTiling api = multi(24);
  api.SetOrgShape(16, 16, 1024);
  api.SetShape(16, 16, 1024);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  EXPECT_EQ(t.usedCoreNum, 1);  // without split K: one core, all of K
  EXPECT_EQ(t.singleCoreK, 1024);
  api.EnableMultiCoreSplitK(true);
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  EXPECT_EQ(t.usedCoreNum, 16);  // 1024 in 16 parts of 64 (24 parts would not divide K)
  EXPECT_EQ(t.singleCoreK, 64);
  EXPECT_EQ(t.Ka, 1024);
  EXPECT_EQ(t.singleCoreM, 16);
  // A fixed split of K: the blocks along K count as cores.
  api.SetSingleShape(16, 16, 256);
  ASSERT_EQ(api.GetTiling(t), 0) << api.error();
  EXPECT_EQ(t.usedCoreNum, 4);
  EXPECT_EQ(t.singleCoreK, 256);
}

TEST(MatmulSplitK, AtomicIterateAllAddsEachPartOfKIntoC) {
  // Two parts of K on one core, each IterateAll added into C (which starts at -7 everywhere).
  constexpr int m = 40, n = 48, k = 192;
  const std::vector<half> a = exact_halves(size_t(m) * k, 25), b = exact_halves(size_t(k) * n, 26);
  const TCubeTiling t = tiling_of(m, n, k / 2, 32, 32, 32);
  Outcome r = run_on_aic(a, b, m, n, [&](uint64_t ga, uint64_t gb, uint64_t gc) {
    TPipe pipe;
    Matmul<AT, AT, CT, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
    mm.SetOrgShape(m, n, k);
    for (int part = 0; part < 2; ++part) {
      mm.SetTensorA(global<half>(ga, a.size())[part * (k / 2)]);
      mm.SetTensorB(global<half>(gb, b.size())[size_t(part) * (k / 2) * n]);
      mm.IterateAll(global<float>(gc, size_t(m) * n), 1);
    }
    mm.End();
  });
  ASSERT_EQ(r.code, 0) << r.message;
  std::vector<float> want = product(a, b, m, n, k);
  for (float& x : want) x -= 7.0f;
  EXPECT_EQ(mismatches(r.c, want), 0);
}

// ---- Coord and Layout (the L2-cache example's offsets) ----

TEST(Layout, ACoordinateMapsToTheSumOfItsStridedParts) {
  const auto row_major = MakeLayout(MakeShape(30, 40), MakeStride(40, 1));
  const Coord<int64_t, int64_t> at = MakeCoord(int64_t{7}, int64_t{9});
  EXPECT_EQ(row_major(at), 7 * 40 + 9);
  static_assert(std::is_same_v<decltype(row_major(at)), int64_t>);
  const auto three = MakeLayout(MakeShape(10, 20, 30), MakeStride(1, 100, 200));
  EXPECT_EQ(Std::get<1>(three.GetShape()), 20);
  EXPECT_EQ(Std::get<2>(three.GetStride()), 200);
  EXPECT_EQ(Crd2Idx(MakeCoord(3, 4, 5), three), 3 + 400 + 1000);
  EXPECT_EQ(Crd2Idx(MakeCoord(3, 4), MakeShape(8, 8), MakeStride(1, 8)), 3 + 32);
  constexpr auto fixed = MakeLayout(MakeShape(4, 2), MakeStride(4, 1));
  static_assert(fixed(MakeCoord(3, 1)) == 13);
  static_assert(is_layout<std::decay_t<decltype(fixed)>>::value && !is_layout<int>::value);
}

}  // namespace
