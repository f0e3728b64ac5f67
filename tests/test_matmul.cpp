// The high-level Matmul API on the AIC: a matrix of M/N/K (multiples of the base and not, K
// chunks that fit L1 and do not), bias, fp16/bf16/fp32 outputs, a split over cores; every output
// bit-exact against a sequential fp32 sum. The host tiling respects the L0 limits of
// [FFN-NOTE] 3.1.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
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

template <class T>
std::vector<T> random_values(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) x = cast_to<T>(d(rng), RoundMode::CAST_RINT);
  return v;
}

template <class In, class Out>
std::vector<Out> reference(const std::vector<In>& a, const std::vector<In>& b,
                           const std::vector<float>* bias, int M, int K, int N) {
  std::vector<Out> c(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = bias ? (*bias)[j] : 0.0f;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(to_double(a[size_t(i) * K + k])) *
               static_cast<float>(to_double(b[size_t(k) * N + j]));
      c[size_t(i) * N + j] = cast_to<Out>(acc, RoundMode::CAST_RINT);
    }
  return c;
}

struct Case {
  int m, n, k;
  bool bias;
  int cores;       // N split over this many AICs
  int fix_k = -1;  // a fixed baseK (to force several K chunks)
};

// Runs C = A x B (+ bias) with the Matmul API on `cores` AICs (each a slice of N) and returns the
// number of output elements that differ from the reference, and the tiling used.
template <class In, class Out, const MatmulConfig& CFG = CFG_NORM>
nlohmann::json run_case(const Case& c) {
  return ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b({}, 1, o);
    auto a = random_values<In>(size_t(c.m) * c.k, 1), w = random_values<In>(size_t(c.k) * c.n, 2);
    std::vector<float> bias = random_values<float>(c.n, 3);
    uint64_t ga = b.alloc(a.size() * sizeof(In)), gb = b.alloc(w.size() * sizeof(In)),
             gbias = b.alloc(bias.size() * 4 + 64), gc = b.alloc(size_t(c.m) * c.n * sizeof(Out));
    b.sim().write(ga, a.data(), a.size() * sizeof(In));
    b.sim().write(gb, w.data(), w.size() * sizeof(In));
    b.sim().write(gbias, bias.data(), bias.size() * 4);
    const int per = (c.n + c.cores - 1) / c.cores;
    matmul_tiling::MatmulApiTiling tiling;
    auto dt = std::is_same_v<In, half> ? matmul_tiling::DataType::DT_FLOAT16
                                       : matmul_tiling::DataType::DT_BF16;
    tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    tiling.SetShape(c.m, per, c.k);
    tiling.SetOrgShape(c.m, c.n, c.k);
    tiling.EnableBias(c.bias);
    if (c.fix_k > 0) tiling.SetFixSplit(-1, -1, c.fix_k);
    TCubeTiling t;
    if (tiling.GetTiling(t) != 0) return nlohmann::json{{"error", tiling.error()}};
    const ascend::KernelRecord& run = b.run(LaunchShape::mixed(c.cores, 0), [&] {
      TPipe pipe;
      using AT = MatmulType<TPosition::GM, CubeFormat::ND, In>;
      using CT = MatmulType<TPosition::GM, CubeFormat::ND, Out>;
      using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
      Matmul<AT, AT, CT, BiasT, CFG> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      const int n0 = static_cast<int>(GetBlockIdx()) * per;
      const int cur = std::min(per, c.n - n0);
      if (cur <= 0) return;
      mm.SetTensorA(global<In>(ga, a.size()));
      mm.SetTensorB(global<In>(gb, w.size())[n0]);
      if (c.bias) mm.SetBias(global<float>(gbias, bias.size() + 16)[n0]);
      mm.SetTail(c.m, cur, c.k);
      mm.IterateAll(global<Out>(gc, size_t(c.m) * c.n)[n0]);
      mm.End();
    });
    std::vector<Out> got(size_t(c.m) * c.n);
    b.sim().read(gc, got.data(), got.size() * sizeof(Out));
    auto want = reference<In, Out>(a, w, c.bias ? &bias : nullptr, c.m, c.k, c.n);
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += std::memcmp(&got[i], &want[i], sizeof(Out)) != 0;
    return nlohmann::json{{"bad", bad},       {"latency_ps", run.latency()},
                          {"baseM", t.baseM}, {"baseN", t.baseN},
                          {"baseK", t.baseK}, {"stepK", t.stepKa}};
  });
}

// Ascend C's config builders give its templates' fields (Ascend C API: GetMMConfig).
static_assert(CFG_MDL.doMultiDataLoad && !CFG_MDL.doNorm && CFG_NORM.doNorm);
static_assert(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{128, 256, 64, 64, 128,
                                                                          32})
                  .basicN == 128);
constexpr MatmulConfig kOrderN = GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1,
                                                 true, IterateOrder::ORDER_N);

// A config that picks another of Ascend C's schedules runs the model's one schedule: the same
// bits, the same time; a config's iterateOrder changes the order of the blocks, not the result.
TEST(Matmul, TheMdlConfigAndAnIterateOrderGiveTheSameBits) {
  const Case c{96, 160, 64, true, 1};
  nlohmann::json norm = run_case<half, half>(c), mdl = run_case<half, half, CFG_MDL>(c),
                 by_n = run_case<half, half, kOrderN>(c);
  EXPECT_EQ(norm["bad"], 0) << norm.dump();
  EXPECT_EQ(mdl["bad"], 0) << mdl.dump();
  EXPECT_EQ(by_n["bad"], 0) << by_n.dump();
  EXPECT_EQ(mdl["latency_ps"], norm["latency_ps"]);
}

TEST(Matmul, MatrixOfShapesIsBitExactInFp16) {
  for (Case c :
       {Case{128, 256, 64, false, 1}, Case{1, 16, 16, false, 1}, Case{17, 33, 70, false, 1},
        Case{200, 300, 500, false, 1}, Case{130, 260, 1100, false, 1},  // K in several L1 chunks
        Case{64, 512, 300, false, 1, 32},  // baseK 32: chunks of 4 x 32
        Case{48, 96, 128, true, 1}, Case{150, 280, 90, true, 1}}) {
    SCOPED_TRACE(testing::Message() << c.m << "x" << c.n << "x" << c.k << (c.bias ? " bias" : ""));
    nlohmann::json r = run_case<half, half>(c);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["bad"], 0) << r.dump();
  }
}

TEST(Matmul, Bf16InFp32AndBf16OutAreBitExact) {
  nlohmann::json r = run_case<bfloat16_t, float>(Case{40, 72, 200, true, 1});
  EXPECT_EQ(r["bad"], 0) << r.dump();
  r = run_case<bfloat16_t, bfloat16_t>(Case{40, 72, 200, false, 1});
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

TEST(Matmul, SplitOverCoresIsBitExact) {
  nlohmann::json r = run_case<half, half>(Case{96, 1000, 256, true, 4});
  EXPECT_EQ(r["bad"], 0) << r.dump();
}

// int8 A and B, int32 accumulation in L0C (from an int32 bias), C int32 (NoQuant) or fp16
// dequantized on the FIXPIPE by one scale (DEQF16) or one per column (VDEQF16, uint64 in GM).
enum class Deq { None, Scalar, Vector };
struct Int8Case {
  int m, n, k;
  bool bias;
  Deq deq;
  int cores = 1;
  int fix_k = -1;
};

template <class Out>
nlohmann::json run_int8(const Int8Case& c) {
  return ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b({}, 1, o);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> d8(-128, 127), db(-40000, 40000);
    std::uniform_real_distribution<double> ds(0.5e-4, 2e-4);
    std::vector<int8_t> a(size_t(c.m) * c.k), w(size_t(c.k) * c.n);
    for (int8_t& x : a) x = static_cast<int8_t>(d8(rng));
    for (int8_t& x : w) x = static_cast<int8_t>(d8(rng));
    std::vector<int32_t> bias(c.n);
    for (int32_t& x : bias) x = db(rng);
    std::vector<float> scale(c.n);
    for (float& x : scale) x = static_cast<float>(ds(rng));
    std::vector<uint64_t> scale64(c.n + 4);  // the fp32 scale in the low 32 bits
    for (int j = 0; j < c.n; ++j) {
      uint32_t bits;
      std::memcpy(&bits, &scale[j], 4);
      scale64[j] = bits;
    }
    uint64_t scalar;
    {
      uint32_t bits;
      std::memcpy(&bits, &scale[0], 4);
      scalar = bits;
    }
    uint64_t ga = b.alloc(a.size()), gb = b.alloc(w.size()), gbias = b.alloc(bias.size() * 4 + 64),
             gs = b.alloc(scale64.size() * 8), gc = b.alloc(size_t(c.m) * c.n * sizeof(Out));
    b.sim().write(ga, a.data(), a.size());
    b.sim().write(gb, w.data(), w.size());
    b.sim().write(gbias, bias.data(), bias.size() * 4);
    b.sim().write(gs, scale64.data(), scale64.size() * 8);
    const int per = ((c.n + c.cores - 1) / c.cores + 31) / 32 * 32;  // N split in 32s
    matmul_tiling::MatmulApiTiling tiling;
    using DT = matmul_tiling::DataType;
    tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
    tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
    tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                    std::is_same_v<Out, half> ? DT::DT_FLOAT16 : DT::DT_INT32);
    tiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT32);
    tiling.SetShape(c.m, std::min(per, c.n), c.k);
    tiling.SetOrgShape(c.m, c.n, c.k);
    tiling.EnableBias(c.bias);
    if (c.fix_k > 0) tiling.SetFixSplit(-1, -1, c.fix_k);
    TCubeTiling t;
    if (tiling.GetTiling(t) != 0) return nlohmann::json{{"error", tiling.error()}};
    b.run(LaunchShape::mixed(c.cores, 0), [&] {
      TPipe pipe;
      using AT = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
      using CT = MatmulType<TPosition::GM, CubeFormat::ND, Out>;
      using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
      Matmul<AT, AT, CT, BiasT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      const int n0 = static_cast<int>(GetBlockIdx()) * per;
      const int cur = std::min(per, c.n - n0);
      if (cur <= 0) return;
      mm.SetTensorA(global<int8_t>(ga, a.size()));
      mm.SetTensorB(global<int8_t>(gb, w.size())[n0]);
      if (c.bias) mm.SetBias(global<int32_t>(gbias, bias.size() + 16)[n0]);
      if (c.deq == Deq::Scalar) mm.SetQuantScalar(scalar);
      if (c.deq == Deq::Vector) mm.SetQuantVector(global<uint64_t>(gs, scale64.size())[n0]);
      mm.SetTail(c.m, cur, c.k);
      mm.IterateAll(global<Out>(gc, size_t(c.m) * c.n)[n0]);
      mm.End();
    });
    std::vector<Out> got(size_t(c.m) * c.n);
    b.sim().read(gc, got.data(), got.size() * sizeof(Out));
    int bad = 0;
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        int64_t acc = c.bias ? bias[j] : 0;  // exact: no int32 overflow at these sizes
        for (int k = 0; k < c.k; ++k)
          acc += int32_t{a[size_t(i) * c.k + k]} * w[size_t(k) * c.n + j];
        Out want;
        if constexpr (std::is_same_v<Out, half>) {
          // The FIX pipe reads the scale's top 19 bits (the low 13 of its fp32 cleared).
          float s = c.deq == Deq::Scalar ? scale[0] : scale[j];
          uint32_t sb;
          std::memcpy(&sb, &s, 4);
          sb &= 0xFFFFE000u;
          std::memcpy(&s, &sb, 4);
          want = cast_to<half>(static_cast<float>(acc) * s, RoundMode::CAST_RINT);
        } else {
          want = static_cast<int32_t>(acc);
        }
        bad += std::memcmp(&got[size_t(i) * c.n + j], &want, sizeof(Out)) != 0;
      }
    return nlohmann::json{{"bad", bad},
                          {"baseM", t.baseM},
                          {"baseN", t.baseN},
                          {"baseK", t.baseK},
                          {"stepK", t.stepKa}};
  });
}

TEST(MatmulInt8, MatrixOfShapesIsExactInInt32) {
  for (Int8Case c :
       {Int8Case{128, 256, 128, false, Deq::None}, Int8Case{1, 32, 32, false, Deq::None},
        Int8Case{17, 48, 70, true, Deq::None},  // n 48: a half square in L0B
        Int8Case{200, 300, 500, true, Deq::None},
        Int8Case{130, 260, 1100, false, Deq::None},         // K in several L1 chunks
        Int8Case{64, 512, 300, true, Deq::None, 1, 64}}) {  // baseK 64
    SCOPED_TRACE(testing::Message() << c.m << "x" << c.n << "x" << c.k << (c.bias ? " bias" : ""));
    nlohmann::json r = run_int8<int32_t>(c);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["bad"], 0) << r.dump();
  }
}

TEST(MatmulInt8, DequantToFp16OnTheFixpipeIsBitExact) {
  for (Int8Case c :
       {Int8Case{40, 96, 200, true, Deq::Scalar}, Int8Case{40, 96, 200, true, Deq::Vector},
        Int8Case{150, 280, 90, false, Deq::Vector},
        Int8Case{96, 1000, 256, true, Deq::Vector, 4}}) {  // split over 4 AICs
    SCOPED_TRACE(testing::Message() << c.m << "x" << c.n << "x" << c.k);
    nlohmann::json r = run_int8<half>(c);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["bad"], 0) << r.dump();
  }
}

// int8: the fractal is 32 deep in k, so the same L0B holds twice the K: 128 / 128 / 256.
TEST(MatmulTiling, Int8GivesBaseK128) {
  matmul_tiling::MatmulApiTiling tiling;
  using DT = matmul_tiling::DataType;
  tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
  tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8);
  tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
  tiling.SetShape(1024, 2560, 5120);
  TCubeTiling t;
  ASSERT_EQ(tiling.GetTiling(t), 0) << tiling.error();
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseK, 128);
  EXPECT_EQ(t.baseN, 256);
  tiling.EnableBias(true);  // an fp32 bias with int8 operands
  EXPECT_EQ(tiling.GetTiling(t), -1);
  EXPECT_NE(tiling.error().find("bias is int32"), std::string::npos) << tiling.error();
}

// Seed 004 section 3.1: fp16 gives 128 / 64 / 256, L0A and L0B double-buffered, L0C full.
TEST(MatmulTiling, Fp16GivesTheSeedsBaseBlockWithinTheL0Limits) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetShape(1024, 2560, 5120);
  TCubeTiling t;
  ASSERT_EQ(tiling.GetTiling(t), 0) << tiling.error();
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseK, 64);
  EXPECT_EQ(t.baseN, 256);
  EXPECT_LE(t.baseM * t.baseK * 2 * t.dbL0A, 64 * 1024);
  EXPECT_LE(t.baseK * t.baseN * 2 * t.dbL0B, 64 * 1024);
  EXPECT_LE(t.baseM * t.baseN * 4, 128 * 1024);
  EXPECT_LE(2 * (t.baseM + t.baseN) * t.baseK * 2 * t.stepKa, 512 * 1024);
  // Small M: baseM shrinks to the shape (seed: 16 tokens per expert).
  tiling.SetShape(16, 2560, 5120);
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.baseM, 16);
}

TEST(MatmulTiling, AFixedSplitBeyondL0IsRefusedWithTheReason) {
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetShape(1024, 1024, 1024);
  tiling.SetFixSplit(256, 128, 128);
  TCubeTiling t;
  EXPECT_EQ(tiling.GetTiling(t), -1);
  EXPECT_NE(tiling.error().find("exceeds L0A"), std::string::npos) << tiling.error();
  tiling.SetFixSplit(128, 512, 32);
  EXPECT_EQ(tiling.GetTiling(t), -1);
  EXPECT_NE(tiling.error().find("exceeds L0C"), std::string::npos) << tiling.error();
}

}  // namespace
