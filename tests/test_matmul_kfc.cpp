// The Matmul API driven from the AIVs (Ascend C's default mix mode): the AIC serves its AIVs'
// messages. Results bit-exact against a sequential fp32 sum through each path (IterateAll into GM,
// Iterate/GetTensorC into UB, the asynchronous Iterate into a workspace); a message's cost is the
// mechanism's (GM write, cross-core flag, GM read), checked by moving each parameter; misuse is a
// fault or a deadlock naming it. And the host's multi-core tiling and its serialized form.
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

constexpr int M = 64, N = 64, K = 64;  // C is four 32 x 32 blocks (baseM = baseN = 32)
constexpr int kBlocksPerAiv = 2;       // each AIV's half: 32 rows, two blocks along N

std::vector<half> random_halves(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-8, 8);
  std::vector<half> v(n);
  for (half& x : v) x = half(static_cast<float>(d(rng)) / 4.0f);
  return v;
}

std::vector<float> reference(const std::vector<half>& a, const std::vector<half>& b) {
  std::vector<float> c(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += static_cast<float>(a[size_t(i) * K + k]) * static_cast<float>(b[size_t(k) * N + j]);
      c[size_t(i) * N + j] = acc;
    }
  return c;
}

TCubeTiling tiling(int single_m) {
  matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
  api.SetShape(single_m, N, K);
  api.SetOrgShape(M, N, K);
  api.SetFixSplit(32, 32, -1);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0) << api.error();
  return t;
}

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

enum class Path { IterateAll, IterateSync, IterateAsync };

// A mixed launch of one AI Core: each AIV drives the AIC for its half of C's rows, by `path`.
nlohmann::json run(Path path, const std::vector<std::string>& sets = {}) {
  return ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b(sets, 1, o);
    auto a = random_halves(size_t(M) * K, 1), w = random_halves(size_t(K) * N, 2);
    const uint64_t ga = b.alloc(a.size() * 2), gb = b.alloc(w.size() * 2),
                   gc = b.alloc(size_t(M) * N * 4), gws = b.alloc(size_t(M) * N * 4 * 2);
    b.sim().write(ga, a.data(), a.size() * 2);
    b.sim().write(gb, w.data(), w.size() * 2);
    const TCubeTiling t = tiling(M / 2);
    ascend::KernelRecord& r = b.run(LaunchShape::mixed(1, 2), [&] {
      TPipe pipe;
      Matmul<AT, AT, CT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      const uint64_t row0 = uint64_t(GetSubBlockIdx()) * (M / 2);
      GlobalTensor<float> c = global<float>(gc, size_t(M) * N);
      mm.SetTensorA(global<half>(ga, a.size())[row0 * K]);
      mm.SetTensorB(global<half>(gb, w.size()));
      if (path == Path::IterateAll) {
        mm.IterateAll(c[row0 * N]);
        mm.End();
        return;
      }
      // Blocks of 32 x 32 through UB, then into C at their place (along N: one block of M).
      // GM -> UB (MTE2) -> GM (MTE3): the queue orders the two.
      TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
      pipe.InitBuffer(q, 1, 32 * 32 * 4);
      if (path == Path::IterateAsync) {
        // Each AIV's blocks, one after another, in a workspace of its own.
        mm.SetWorkspace(global<float>(
            gws, size_t(M) * N * 2)[uint64_t(GetSubBlockIdx()) * kBlocksPerAiv * 32 * 32]);
        mm.template Iterate<false>();
      }
      for (int blk = 0; blk < kBlocksPerAiv; ++blk) {
        if (path == Path::IterateSync && !mm.Iterate()) ADD_FAILURE() << "Iterate ended early";
        LocalTensor<float> x = q.AllocTensor<float>();
        if (path == Path::IterateSync) {
          mm.GetTensorC(x);
        } else {
          mm.template GetTensorC<false>(x);
        }
        q.EnQue(x);
        x = q.DeQue<float>();
        DataCopyParams p;
        p.blockCount = 32;
        p.blockLen = 32 * 4 / 32;
        p.dstStride = (N - 32) * 4 / 32;
        const uint64_t at = row0 * N + uint64_t(blk) * 32;
        DataCopy(c[at], x, p);
        q.FreeTensor(x);
      }
      if (path == Path::IterateSync && mm.Iterate()) ADD_FAILURE() << "a third block";
      mm.End();
    });
    std::vector<float> out(size_t(M) * N);
    b.sim().read(gc, out.data(), out.size() * 4);
    const std::vector<float> want = reference(a, w);
    int wrong = 0;
    for (size_t i = 0; i < out.size(); ++i) wrong += std::memcmp(&out[i], &want[i], 4) != 0;
    return nlohmann::json{
        {"wrong", wrong}, {"latency_ps", r.latency()}, {"cycle_ps", b.timing().clock.cycles(1)}};
  });
}

TEST(MatmulKfc, EachPathFromTheAivsIsBitExact) {
  for (Path p : {Path::IterateAll, Path::IterateSync, Path::IterateAsync}) {
    nlohmann::json r = run(p);
    EXPECT_EQ(r["wrong"], 0) << "path " << static_cast<int>(p);
    EXPECT_GT(r["latency_ps"].get<int64_t>(), 0);
  }
}

// With one AIV busy (AIV 1 quits at once), the path through the messages is: IterateAll sent
// (GM write, flag), read by the AIC (GM read), answered (GM write, flag), read by the AIV (GM
// read); then End and the AIV's quit, each written, flagged and read by the AIC, which ends last.
// So the kernel's latency grows by 7 GM accesses per cycle of scalar.gm_latency_cycles and
// by 3 flags per cycle of crosscore.flag_cycles, and by nothing else.
TEST(MatmulKfc, AMessageCostsAGmWriteAFlagAndAGmRead) {
  auto single = [](const std::vector<std::string>& sets) {
    return ascend::test::in_child([&] {
      RunOptions o;
      o.aic = true;
      Bench b(sets, 1, o);
      const uint64_t ga = b.alloc(size_t(M) * K * 2), gb = b.alloc(size_t(K) * N * 2),
                     gc = b.alloc(size_t(M) * N * 4);
      const TCubeTiling t = tiling(M);
      ascend::KernelRecord& r = b.run(LaunchShape::mixed(1, 2), [&] {
        TPipe pipe;
        Matmul<AT, AT, CT> mm;
        REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
        if (GetSubBlockIdx() != 0) return;
        mm.SetTensorA(global<half>(ga, size_t(M) * K));
        mm.SetTensorB(global<half>(gb, size_t(K) * N));
        mm.IterateAll(global<float>(gc, size_t(M) * N));
        mm.End();
      });
      return nlohmann::json{
          {"latency_ps", r.latency()},
          {"gm_step_ps", b.timing().clock.cycles(341) - b.timing().clock.cycles(241)},
          {"flag_step_ps", b.timing().clock.cycles(200) - b.timing().clock.cycles(100)}};
    });
  };
  const nlohmann::json base = single({});
  const nlohmann::json gm = single({"scalar.gm_latency_cycles=341"});
  const nlohmann::json flag = single({"crosscore.flag_cycles=200"});
  EXPECT_EQ(gm["latency_ps"].get<double>() - base["latency_ps"].get<double>(),
            7 * base["gm_step_ps"].get<double>());
  EXPECT_EQ(flag["latency_ps"].get<double>() - base["latency_ps"].get<double>(),
            3 * base["flag_step_ps"].get<double>());
}

// The asynchronous Iterate overlaps the AIC's next block with the AIVs' copies out: it ends
// sooner than the synchronous one, which waits for each block's round trip.
TEST(MatmulKfc, TheAsynchronousIterateEndsBeforeTheSynchronousOne) {
  const int64_t sync = run(Path::IterateSync)["latency_ps"].get<int64_t>();
  const int64_t async = run(Path::IterateAsync)["latency_ps"].get<int64_t>();
  EXPECT_LT(async, sync);
}

// Each AIV calls Init again after the registration (as the vendor's IBShare example does) and
// computes half of K into all of C, added by the atomic IterateAll: C is the whole product.
TEST(MatmulKfc, TheAivsAddTheirPartsOfKIntoCAfterTheirOwnInit) {
  nlohmann::json r = ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b({}, 1, o);
    auto a = random_halves(size_t(M) * K, 3), w = random_halves(size_t(K) * N, 4);
    const uint64_t ga = b.alloc(a.size() * 2), gb = b.alloc(w.size() * 2),
                   gc = b.alloc(size_t(M) * N * 4);
    b.sim().write(ga, a.data(), a.size() * 2);
    b.sim().write(gb, w.data(), w.size() * 2);
    const std::vector<float> zeros(size_t(M) * N, 0.0f);
    b.sim().write(gc, zeros.data(), zeros.size() * 4);
    matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
    api.SetShape(M, N, K / 2);
    api.SetOrgShape(M, N, K);
    TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), 0) << api.error();
    using Shared = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, true>;
    b.run(LaunchShape::mixed(1, 2), [&] {
      TPipe pipe;
      Matmul<Shared, Shared, CT> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      mm.Init(&t);
      const uint64_t k0 = uint64_t(GetSubBlockIdx()) * (K / 2);
      mm.SetTensorA(global<half>(ga, a.size())[k0]);
      mm.SetTensorB(global<half>(gb, w.size())[k0 * N]);
      mm.IterateAll(global<float>(gc, size_t(M) * N), 1);
      mm.End();
    });
    std::vector<float> out(size_t(M) * N);
    b.sim().read(gc, out.data(), out.size() * 4);
    const std::vector<float> want = reference(a, w);
    int wrong = 0;
    for (size_t i = 0; i < out.size(); ++i) wrong += std::memcmp(&out[i], &want[i], 4) != 0;
    return nlohmann::json{{"wrong", wrong}};
  });
  EXPECT_EQ(r["wrong"], 0);
}

// Partial output: each Iterate one baseK step of one block, which GetTensorC writes from the
// AIC's L0C into GM (here one after another, enSequentialWrite); each AIV its half of C's rows.
constexpr MatmulConfig kPartial = [] {
  MatmulConfig c = CFG_MDL;
  c.isPartialOutput = true;
  return c;
}();
TEST(MatmulKfc, PartialOutputHandsEachBaseKStepsProductToGetTensorC) {
  constexpr int kSteps = K / 32, kParts = kBlocksPerAiv * kSteps;  // per AIV
  nlohmann::json r = ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b({}, 1, o);
    auto a = random_halves(size_t(M) * K, 5), w = random_halves(size_t(K) * N, 6);
    const uint64_t ga = b.alloc(a.size() * 2), gb = b.alloc(w.size() * 2),
                   gws = b.alloc(size_t(2) * kParts * 32 * 32 * 4);
    b.sim().write(ga, a.data(), a.size() * 2);
    b.sim().write(gb, w.data(), w.size() * 2);
    matmul_tiling::MatmulApiTiling api = ascend::test::fp16_matmul_tiling();
    api.SetShape(M / 2, N, K);
    api.SetOrgShape(M, N, K);
    api.SetFixSplit(32, 32, 32);
    TCubeTiling t;
    EXPECT_EQ(api.GetTiling(t), 0) << api.error();
    int parts[2] = {0, 0};
    b.run(LaunchShape::mixed(1, 2), [&] {
      TPipe pipe;
      Matmul<AT, AT, CT, MatmulType<TPosition::GM, CubeFormat::ND, float>, kPartial> mm;
      REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
      const int sub = GetSubBlockIdx();
      mm.SetTensorA(global<half>(ga, a.size())[uint64_t(sub) * (M / 2) * K]);
      mm.SetTensorB(global<half>(gb, w.size()));
      GlobalTensor<float> ws =
          global<float>(gws, size_t(2) * kParts * 32 * 32)[uint64_t(sub) * kParts * 32 * 32];
      while (mm.Iterate()) {
        mm.GetTensorC(ws[uint64_t(parts[sub]) * 32 * 32], 0, true);
        ++parts[sub];
      }
      mm.End();
    });
    std::vector<float> out(size_t(2) * kParts * 32 * 32);
    b.sim().read(gws, out.data(), out.size() * 4);
    // AIV s, part p: block p / kSteps along N (one block along M), K step p % kSteps.
    int wrong = 0;
    for (int sub = 0; sub < 2; ++sub)
      for (int p = 0; p < kParts; ++p)
        for (int i = 0; i < 32; ++i)
          for (int j = 0; j < 32; ++j) {
            float acc = 0;
            for (int k = (p % kSteps) * 32; k < (p % kSteps + 1) * 32; ++k)
              acc += static_cast<float>(a[size_t(sub * 32 + i) * K + k]) *
                     static_cast<float>(w[size_t(k) * N + (p / kSteps) * 32 + j]);
            const float got = out[(size_t(sub) * kParts + p) * 1024 + size_t(i) * 32 + j];
            wrong += std::memcmp(&got, &acc, 4) != 0;
          }
    return nlohmann::json{{"wrong", wrong}, {"parts0", parts[0]}, {"parts1", parts[1]}};
  });
  EXPECT_EQ(r["wrong"], 0);
  EXPECT_EQ(r["parts0"], kParts);
  EXPECT_EQ(r["parts1"], kParts);
}

// The error a mixed launch of `shape` ends with: its exit status and message.
nlohmann::json error_of(const LaunchShape& shape,
                        const std::function<void(uint64_t ga, uint64_t gb)>& body) {
  return ascend::test::in_child([&] {
    RunOptions o;
    o.aic = true;
    Bench b({}, 1, o);
    const uint64_t ga = b.alloc(size_t(M) * K * 2), gb = b.alloc(size_t(K) * N * 2);
    ascend::SimError e = b.run_expecting_error(shape, [&] { body(ga, gb); });
    return nlohmann::json{{"code", e.code}, {"message", e.what()}};
  });
}

void expect_error(const nlohmann::json& r, int code, const std::string& named) {
  EXPECT_EQ(r["code"].get<int>(), code) << r["message"];
  EXPECT_NE(r["message"].get<std::string>().find(named), std::string::npos) << r["message"];
}

TEST(MatmulKfc, MisuseIsAFaultOrADeadlockNamingIt) {
  const TCubeTiling t = tiling(M);
  // Iterate on the AIC of a cube-only launch: the Iterate/GetTensorC pair is the AIVs'.
  expect_error(error_of(LaunchShape::mixed(1, 0),
                        [&](uint64_t ga, uint64_t gb) {
                          TPipe pipe;
                          Matmul<AT, AT, CT> mm;
                          REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
                          mm.SetTensorA(global<half>(ga, M * K));
                          mm.SetTensorB(global<half>(gb, K * N));
                          mm.Iterate();
                        }),
               ascend::kExitKernelFault,
               "Iterate/GetTensorC are modelled for an AIV driving its AIC");
  // GetTensorC before any Iterate.
  expect_error(error_of(LaunchShape::mixed(1, 2),
                        [&](uint64_t, uint64_t) {
                          TPipe pipe;
                          Matmul<AT, AT, CT> mm;
                          REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
                          TQue<TPosition::VECIN, 1> q;
                          pipe.InitBuffer(q, 1, 32 * 32 * 4);
                          LocalTensor<float> x = q.AllocTensor<float>();
                          mm.GetTensorC(x);
                        }),
               ascend::kExitKernelFault, "GetTensorC without a block from Iterate");
  // An AIV that leaves before registering: its AIC waits for it forever.
  expect_error(error_of(LaunchShape::mixed(1, 2),
                        [&](uint64_t, uint64_t) {
                          if (!IsAic() && GetSubBlockIdx() == 1) return;
                          TPipe pipe;
                          Matmul<AT, AT, CT> mm;
                          REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &t);
                        }),
               ascend::kExitDeadlock, "Matmul server: waiting for its AIVs' calls");
}

// An AIC queue in the UB is no buffer in a mixed kernel: declaring it is allowed (both kinds run
// the kernel's Init), using it is the fault.
TEST(MatmulKfc, AnAicUbQueueOfAMixedKernelFaultsWhenUsed) {
  expect_error(error_of(LaunchShape::mixed(1, 2),
                        [](uint64_t, uint64_t) {
                          TPipe pipe;
                          TQue<TPosition::VECOUT, 1> q;
                          pipe.InitBuffer(q, 1, 1024);
                          if (IsAic()) q.AllocTensor<float>();
                        }),
               ascend::kExitKernelFault, "initialised on an AIC, which has no UB");
}

matmul_tiling::MultiCoreMatmulTiling multi(int m, int n, int k, int dim, int base_m, int base_n) {
  matmul_tiling::MultiCoreMatmulTiling api;
  api.SetDim(dim);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.SetFixSplit(base_m, base_n, -1);
  return api;
}

TEST(MatmulTiling, MultiCoreSplitsIntoEvenBlocksOfWholeUnits) {
  TCubeTiling t;
  // 1024 x 640 over 2 cores with 256 x 128 blocks: two 512-row halves (640 columns do not halve
  // into whole blocks).
  auto a = multi(1024, 640, 256, 2, 256, 128);
  ASSERT_EQ(a.GetTiling(t), 0) << a.error();
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(t.singleCoreM, 512);
  EXPECT_EQ(t.singleCoreN, 640);
  EXPECT_EQ(t.M, 1024);
  EXPECT_EQ(t.N, 640);
  EXPECT_EQ(t.Ka, 256);
  // A fixed baseM of 256 leaves baseK to half of L0A: 64 (256 x 64 x 2 B x 2 = 64 KiB).
  EXPECT_EQ(t.baseM, 256);
  EXPECT_EQ(t.baseK, 64);
  // 512 x 1024 over 2 with 128 x 256 base blocks: equal halves either way, and each loads 3072
  // rows and columns (256 x 1024: 4 x 256 + 2 x 1024; 512 x 512: 2 x 512 + 4 x 512). The two
  // M halves span 2 x 128 + 256 base rows and columns, the N halves 128 + 2 x 256: M wins.
  auto b = multi(512, 1024, 512, 2, 128, 256);
  ASSERT_EQ(b.GetTiling(t), 0) << b.error();
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 1024);
  // 640 x 1024 over 48 cores (16-row units): 40 units of M and 64 of N. 80 x 176 blocks would
  // be smaller but not even (the last column of blocks 144 wide); 5 x 8 blocks of 128 x 128 are
  // the smallest even split, tied in area with 10 x 4 of 64 x 256, which loads more per block
  // (with the default 128 x 256 base: 64 + 256 against 128 + 128).
  auto d = multi(640, 1024, 512, 48, -1, -1);
  ASSERT_EQ(d.GetTiling(t), 0) << d.error();
  EXPECT_EQ(t.usedCoreNum, 40);
  EXPECT_EQ(t.singleCoreM, 128);
  EXPECT_EQ(t.singleCoreN, 128);
  // 64 x 64 over 8 cores with 64 x 64 blocks: one core is all it takes.
  auto c = multi(64, 64, 64, 8, 64, 64);
  ASSERT_EQ(c.GetTiling(t), 0) << c.error();
  EXPECT_EQ(t.usedCoreNum, 1);
  EXPECT_EQ(t.singleCoreM, 64);
}

TEST(MatmulTiling, OptilingSerializesTheKernelStructWordForWord) {
  optiling::TCubeTiling host;
  auto api = multi(512, 1024, 512, 2, 128, 256);
  ASSERT_EQ(api.GetTiling(host), 0) << api.error();
  host.set_stepM(3);
  EXPECT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  TCubeTiling kernel;
  std::memcpy(&kernel, buf.data(), sizeof kernel);
  EXPECT_EQ(kernel.stepM, 3);
  EXPECT_EQ(kernel.singleCoreM, host.get_singleCoreM());
  EXPECT_EQ(kernel.baseN, 256);
  // Ascend C's order: usedCoreNum first, then M, N, Ka, Kb ...; mxTypePara last.
  EXPECT_EQ(reinterpret_cast<int32_t*>(buf.data())[0], host.get_usedCoreNum());
  EXPECT_EQ(reinterpret_cast<int32_t*>(buf.data())[1], 512);
  EXPECT_EQ(sizeof(TCubeTiling), 50 * sizeof(int32_t));
}

}  // namespace
