// The Ascend C names the official vector samples use beyond the basic set: the
// transcendental and activation functions, ReduceMin, WholeReduceSum, Copy, Sort32, GatherMask,
// the atomic add of MTE3 writes, GetTPipePtr and ASSERT. Every expected value is computed here
// from the definitions, independently of the facade.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::SimError;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;

using Body = std::function<void(const LocalTensor<float>& y, const LocalTensor<float>& x)>;

// One kernel on one core (one Bench per test process): x (n floats) in UB, each body fills its
// own y (m floats, preset to -7); the ys come back.
std::vector<std::vector<float>> run_f32(const std::vector<float>& x, size_t m,
                                        const std::vector<Body>& bodies) {
  Bench b;
  uint64_t xa = b.alloc(x.size() * 4);
  std::vector<uint64_t> ya;
  std::vector<float> init(m, -7.0f);
  for (size_t k = 0; k < bodies.size(); ++k) {
    ya.push_back(b.alloc(m * 4));
    b.sim().write(ya.back(), init.data(), m * 4);
  }
  b.sim().write(xa, x.data(), x.size() * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xl = ub_tensor<float>(pipe, static_cast<uint32_t>(x.size()));
    DataCopy(xl, global<float>(xa, x.size()), static_cast<uint32_t>(x.size()));
    std::vector<LocalTensor<float>> yl;
    for (uint64_t a : ya) {
      yl.push_back(ub_tensor<float>(pipe, static_cast<uint32_t>(m)));
      DataCopy(yl.back(), global<float>(a, m), static_cast<uint32_t>(m));
    }
    Order<HardEvent::MTE2_V>();
    for (size_t k = 0; k < bodies.size(); ++k) bodies[k](yl[k], xl);
    Order<HardEvent::V_MTE3>();
    for (size_t k = 0; k < bodies.size(); ++k)
      DataCopy(global<float>(ya[k], m), yl[k], static_cast<uint32_t>(m));
  });
  std::vector<std::vector<float>> ys;
  for (uint64_t a : ya) {
    ys.emplace_back(m);
    b.sim().read(a, ys.back().data(), m * 4);
  }
  return ys;
}

std::vector<float> values(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = 0.25f * static_cast<float>(i) - 3.0f;
  return x;
}

TEST(ApiSamples, ExpLnSqrtReciprocalRoundTheExactResult) {
  std::vector<float> x = values(64);
  for (float& v : x) v = std::fabs(v) + 0.5f;  // Ln and Sqrt need positive operands
  struct Case {
    const char* name;
    void (*op)(const LocalTensor<float>&, const LocalTensor<float>&, uint32_t);
    double (*host)(double);
  };
  const Case cases[] = {
      {"Exp", [](auto& d, auto& s, uint32_t n) { Exp(d, s, n); },
       [](double v) { return std::exp(v); }},
      {"Ln", [](auto& d, auto& s, uint32_t n) { Ln(d, s, n); },
       [](double v) { return std::log(v); }},
      {"Sqrt", [](auto& d, auto& s, uint32_t n) { Sqrt(d, s, n); },
       [](double v) { return std::sqrt(v); }},
      {"Reciprocal", [](auto& d, auto& s, uint32_t n) { Reciprocal(d, s, n); },
       [](double v) { return 1.0 / v; }},
  };
  std::vector<Body> bodies;
  for (const Case& c : cases)
    bodies.push_back([op = c.op](const auto& d, const auto& s) { op(d, s, 64); });
  auto ys = run_f32(x, 64, bodies);
  for (size_t k = 0; k < ys.size(); ++k)
    for (size_t i = 0; i < x.size(); ++i)
      EXPECT_EQ(ys[k][i], static_cast<float>(cases[k].host(static_cast<double>(x[i]))))
          << cases[k].name << " " << i;
}

TEST(ApiSamples, ReluLeakyReluAndCopy) {
  std::vector<float> x = values(64);
  auto ys = run_f32(x, 64,
                    {[](const auto& d, const auto& s) { Relu(d, s, 64); },
                     [](const auto& d, const auto& s) { LeakyRelu(d, s, 0.1f, 64); },
                     [](const auto& d, const auto& s) { Copy(d, s, 40); }});
  const std::vector<float>&relu = ys[0], &leaky = ys[1], &copy = ys[2];
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(relu[i], x[i] > 0 ? x[i] : 0.0f) << i;
    EXPECT_EQ(leaky[i], x[i] >= 0 ? x[i] : x[i] * 0.1f) << i;
    EXPECT_EQ(copy[i], i < 40 ? x[i] : -7.0f) << "Copy touches only its count: " << i;
  }
}

TEST(ApiSamples, ReduceMinWithIndexAndWholeReduceSumPerRepeat) {
  std::vector<float> x = values(128);
  x[77] = -50.0f;
  x[90] = -50.0f;  // a tie: the first minimum's index
  // WholeReduceSum: two repeats of 64 floats, mask 20 (the first 20 of each), results 3 apart.
  auto ys = run_f32(x, 8,
                    {[](const auto& d, const auto& s) { ReduceMin(d, s, s, 128, true); },
                     [](const auto& d, const auto& s) { WholeReduceSum(d, s, 20, 2, 3, 1, 8); }});
  const std::vector<float>&min = ys[0], &sums = ys[1];
  EXPECT_EQ(min[0], -50.0f);
  uint32_t idx;
  std::memcpy(&idx, &min[1], 4);
  EXPECT_EQ(idx, 77u);
  for (int r = 0; r < 2; ++r) {
    float acc = x[64 * r];
    for (int e = 1; e < 20; ++e) acc += x[64 * r + e];  // left to right, fp32
    EXPECT_EQ(sums[3 * r], acc) << "repeat " << r;
  }
  EXPECT_EQ(sums[1], -7.0f) << "only every third element is written";
}

TEST(ApiSamples, Sort32SortsEachGroupOf32Descending) {
  Bench b;
  const int n = 64;
  std::vector<float> score(n);
  std::vector<uint32_t> index(n);
  for (int i = 0; i < n; ++i) {
    score[i] = static_cast<float>((i * 37) % 23);  // ties within each group
    index[i] = static_cast<uint32_t>(1000 + i);
  }
  uint64_t sa = b.alloc(n * 4), ia = b.alloc(n * 4), da = b.alloc(n * 8);
  b.sim().write(sa, score.data(), n * 4);
  b.sim().write(ia, index.data(), n * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> s = ub_tensor<float>(pipe, n), d = ub_tensor<float>(pipe, 2 * n);
    LocalTensor<uint32_t> ix = ub_tensor<uint32_t>(pipe, n);
    DataCopy(s, global<float>(sa, n), n);
    DataCopy(ix, global<uint32_t>(ia, n), n);
    Order<HardEvent::MTE2_V>();
    Sort32(d, s, ix, 2);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(da, 2 * n), d, 2 * n);
  });
  std::vector<uint8_t> out(n * 8);
  b.sim().read(da, out.data(), n * 8);
  for (int g = 0; g < 2; ++g) {
    std::vector<int> order(32);
    std::iota(order.begin(), order.end(), 32 * g);
    std::stable_sort(order.begin(), order.end(), [&](int a, int c) { return score[a] > score[c]; });
    for (int i = 0; i < 32; ++i) {
      float s;
      uint32_t ix;
      std::memcpy(&s, &out[8 * (32 * g + i)], 4);
      std::memcpy(&ix, &out[8 * (32 * g + i) + 4], 4);
      EXPECT_EQ(s, score[order[i]]) << "group " << g << " rank " << i;
      EXPECT_EQ(ix, index[order[i]]) << "group " << g << " rank " << i;
    }
  }
}

TEST(ApiSamples, GatherMaskBuiltInPatternsAndABitMask) {
  std::vector<float> x = values(64);
  uint64_t even = 0, fourth = 0;
  auto ys =
      run_f32(x, 64,
              {[&](const auto& d, const auto& s) {
                 GatherMask(d, s, static_cast<uint8_t>(1), true, 40, GatherMaskParams{}, even);
               },
               [&](const auto& d, const auto& s) {
                 GatherMaskParams p;
                 p.repeatTimes = 1;
                 GatherMask(d, s, static_cast<uint8_t>(5), false, 0, p, fourth);  // 2 of 4
               }});
  const std::vector<float>&y1 = ys[0], &y2 = ys[1];
  EXPECT_EQ(even, 20u);
  EXPECT_EQ(fourth, 16u);
  for (uint64_t i = 0; i < 20; ++i) EXPECT_EQ(y1[i], x[2 * i]) << i;
  EXPECT_EQ(y1[20], -7.0f) << "nothing past the selected elements";
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(y2[i], x[4 * i + 2]) << i;
}

TEST(ApiSamples, GatherMaskWithABitMaskInUb) {
  std::vector<float> x = values(64);
  uint64_t masked = 0;
  // Bits 0, 3, 9 and 33 of the first 40 elements (counter mode).
  Bench b;
  uint64_t xa = b.alloc(64 * 4), ya = b.alloc(64 * 4), ma = b.alloc(32);
  b.sim().write(xa, x.data(), 64 * 4);
  uint32_t bits[8] = {(1u << 0) | (1u << 3) | (1u << 9), 1u << 1, 0, 0, 0, 0, 0, 0};
  b.sim().write(ma, bits, 32);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xl = ub_tensor<float>(pipe, 64), yl = ub_tensor<float>(pipe, 64);
    LocalTensor<uint32_t> ml = ub_tensor<uint32_t>(pipe, 8);
    DataCopy(xl, global<float>(xa, 64), 64);
    DataCopy(ml, global<uint32_t>(ma, 8), 8);
    Order<HardEvent::MTE2_V>();
    Order<HardEvent::MTE2_S>();
    GatherMask(yl, xl, ml, true, 40, GatherMaskParams{}, masked);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, 64), yl, 64);
  });
  std::vector<float> y3(64);
  b.sim().read(ya, y3.data(), 64 * 4);
  EXPECT_EQ(masked, 4u);
  EXPECT_EQ(y3[0], x[0]);
  EXPECT_EQ(y3[1], x[3]);
  EXPECT_EQ(y3[2], x[9]);
  EXPECT_EQ(y3[3], x[33]);
}

TEST(ApiSamples, SetAtomicAddAccumulatesMte3WritesUntilSetAtomicNone) {
  Bench b;
  std::vector<float> g0 = {1.5f, 2.0f, -1.0f, 0.0f, 10.0f, 1e-8f, 3.0f, 4.0f};
  uint64_t ga = b.alloc(32);
  b.sim().write(ga, g0.data(), 32);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 8);
    Duplicate(t, 0.5f, 8);
    Order<HardEvent::V_MTE3>();
    SetAtomicAdd<float>();
    DataCopy(global<float>(ga, 8), t, 8);  // += 0.5
    DataCopy(global<float>(ga, 8), t, 8);  // += 0.5 again
    SetAtomicNone();
    PipeBarrier<PIPE_ALL>();
  });
  std::vector<float> g(8);
  b.sim().read(ga, g.data(), 32);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(g[i], (g0[i] + 0.5f) + 0.5f) << i;
}

TEST(ApiSamples, GetTPipePtrFetchesEventIds) {
  Bench b;
  int id = -1;
  b.run(1, [&] {
    TPipe pipe;
    TEventID e = GetTPipePtr()->FetchEventID(HardEvent::V_S);
    id = e;
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
    ASSERT(e >= 0);
  });
  EXPECT_GE(id, 0);
  EXPECT_LT(id, 8);
}

TEST(ApiSamples, AssertFaultsWithItsExpression) {
  Bench f;
  SimError e = f.run_expecting_error(1, [&] {
    int tiles = 3;
    ASSERT(tiles % 2 == 0);
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("ASSERT(tiles % 2 == 0) failed at"), std::string::npos)
      << e.what();
}

}  // namespace

namespace {

// A sample that reads a vector result with GetValue right after the instruction, with no V->S
// flag: the compiler's automatic synchronisation (compiler.auto_sync = 1) makes the scalar wait
// for it, and the race check sees the pair ordered; with it off the scalar reads the bytes as they
// are (the old value) and the race check reports the pair.
struct AutoSync {
  float read;
  uint64_t waits, hazards;
  int code;
};
AutoSync get_value_after_duplicate(bool auto_sync) {
  Bench b({"run.racecheck=1", std::string("compiler.auto_sync=") + (auto_sync ? "1" : "0")});
  AutoSync r{0, 0, 0, 0};
  auto body = [&] {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 4096);
    Duplicate(t, 2.5f, 4096);
    r.read = t.GetValue(100);
  };
  if (auto_sync) {
    b.run(1, body);
  } else {
    r.code = b.run_expecting_error(1, body).code;
  }
  const auto& core = *b.cluster().die(0).cores[0];
  r.hazards = core.race_checker()->hazards();
  const ascend::model::CounterSet counters = core.counters();
  for (const auto& c : counters.list())
    if (std::string(c.name()) == "SCALAR.auto_syncs") r.waits = static_cast<uint64_t>(c.value);
  return r;
}

TEST(ApiSamples, GetValueRightAfterAVectorOpWaitsForItUnderTheCompilersAutoSync) {
  AutoSync on = get_value_after_duplicate(true);
  EXPECT_EQ(on.read, 2.5f);
  EXPECT_EQ(on.waits, 1u);
  EXPECT_EQ(on.hazards, 0u) << "the inserted sync orders the read after the vector write";
}

TEST(ApiSamples, WithoutAutoSyncTheReadIsStaleAndTheRaceCheckSeesIt) {
  AutoSync off = get_value_after_duplicate(false);
  EXPECT_EQ(off.read, 0.0f) << "UB still holds its old (zero) bytes when the scalar reads";
  EXPECT_EQ(off.code, ascend::kExitRace);
  EXPECT_GT(off.hazards, 0u);
}

}  // namespace

namespace {

// Seed 004 2.2's conversion of fp32 dequant scales into the uint64 the FIXPIPE reads, written
// with the instructions it names: CreateVecIndex 0..2n-1, ShiftRight by 1 (as uint32: 0, 0, 1,
// 1, ...), times 4 (byte offsets), Duplicate 0, then Gather with the mask 0x5555... (the even
// uint32 of each 64). Every uint64 holds its fp32's bits in the low half and 0 in the high half;
// n = 40 leaves a tail in the last repeat, which the copy out skips. Also: the level-2 Gather
// an arithmetic ShiftRight of int32 and a ShiftLeft of uint32 that drops the top bits.
TEST(ApiSamples, ShiftRightAndGatherTurnFp32ScalesIntoUint64) {
  const uint32_t n = 40, pairs = 2 * n;
  std::vector<float> x(64);
  for (uint32_t i = 0; i < 64; ++i) x[i] = 0.001f * static_cast<float>(i + 1) - 0.01f;
  Bench b;
  uint64_t xa = b.alloc(64 * 4), ya = b.alloc(128 * 4), ga = b.alloc(64 * 4), sa = b.alloc(64 * 4);
  b.sim().write(xa, x.data(), 64 * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> xl = ub_tensor<float>(pipe, 64);
    LocalTensor<int32_t> idx = ub_tensor<int32_t>(pipe, 128);
    LocalTensor<uint32_t> out = ub_tensor<uint32_t>(pipe, 128), g = ub_tensor<uint32_t>(pipe, 64);
    LocalTensor<int32_t> sh = ub_tensor<int32_t>(pipe, 64);
    DataCopy(xl, global<float>(xa, 64), 64);
    CreateVecIndex(idx, 0, 128);
    LocalTensor<uint32_t> off = idx.ReinterpretCast<uint32_t>();
    ShiftRight(off, off, 1u, 128);
    Muls(idx, idx, 4, 128);
    Duplicate(out, 0xFFFFFFFFu, 128);  // beyond the 2n pairs: untouched
    Duplicate(out, 0u, pairs);
    Order<HardEvent::MTE2_V>();
    const uint64_t mask[2] = {0x5555555555555555ull, 0};
    Gather(out, xl.ReinterpretCast<uint32_t>(), off, 0, mask, static_cast<uint8_t>(pairs / 64 + 1),
           8);
    // Level 2: element i from byte offset 4 * (63 - i), i.e. reversed; base 0.
    CreateVecIndex(sh, 0, 64);
    Muls(sh, sh, -4, 64);
    Adds(sh, sh, 252, 64);
    Gather(g, xl.ReinterpretCast<uint32_t>(), sh.ReinterpretCast<uint32_t>(), 0, 64);
    // ShiftRight of int32 keeps the sign.
    CreateVecIndex(sh, -32, 64);
    ShiftRight(sh, sh, 2, 64);
    LocalTensor<uint32_t> up = g[32];  // the upper half of g, after the gather above
    Duplicate(up, 0x80000003u, 32);
    ShiftLeft(up, up, 1u, 32);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<uint32_t>(ya, 128), out, 128);
    DataCopy(global<uint32_t>(ga, 64), g, 64);
    DataCopy(global<int32_t>(sa, 64), sh, 64);
  });
  std::vector<uint32_t> y(128), gv(64);
  std::vector<int32_t> sv(64);
  b.sim().read(ya, y.data(), 128 * 4);
  b.sim().read(ga, gv.data(), 64 * 4);
  b.sim().read(sa, sv.data(), 64 * 4);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t u;
    std::memcpy(&u, &y[2 * i], 8);
    uint32_t bits;
    std::memcpy(&bits, &x[i], 4);
    EXPECT_EQ(u, uint64_t{bits}) << i;
  }
  // The last repeat's even elements past the pairs: the gather wrote x[40..63]'s bits there, the
  // odd ones kept 0xFFFFFFFF (the seed skips this tail when it copies out).
  for (uint32_t i = pairs; i < 128; i += 2) {
    uint32_t bits;
    std::memcpy(&bits, &x[i / 2], 4);
    EXPECT_EQ(y[i], bits) << i;
    EXPECT_EQ(y[i + 1], 0xFFFFFFFFu) << i;
  }
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &x[63 - i], 4);
    // The upper half: 0x80000003 << 1, the top bit gone.
    EXPECT_EQ(gv[i], i < 32 ? bits : 6u) << i;
    EXPECT_EQ(sv[i], (static_cast<int32_t>(i) - 32) >> 2) << i;  // arithmetic: -32 >> 2 = -8
  }
}

}  // namespace

namespace {

// Gather reads its offsets when it runs, after the vector instruction that wrote them: an offset
// past its src is a kernel fault naming it, found then (the offsets were in range at issue).
TEST(ApiSamples, GatherWithAnOffsetPastItsSourceFaultsWhenItRuns) {
  Bench f;
  SimError e = f.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<float> src = ub_tensor<float>(pipe, 64), dst = ub_tensor<float>(pipe, 64);
    LocalTensor<int32_t> off = ub_tensor<int32_t>(pipe, 64);
    Duplicate(off, 0, 64);
    Order<HardEvent::V_S>();
    Duplicate(off, 256, 64);  // byte 256: one element past the 64 floats
    Gather(dst, src, off.ReinterpretCast<uint32_t>(), 0, 64);
    Order<HardEvent::V_S>();
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("srcOffset[0] + srcBaseAddr = 256 B"), std::string::npos)
      << e.what();
}

}  // namespace
