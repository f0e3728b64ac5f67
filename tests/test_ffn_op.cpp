// The FFN fused operator (kernels/ffn_op, [FFN-NOTE]): the check matrix over templates, dtypes,
// activations, expert counts and core splits; the schedule and the UB split against the seed;
// its timing properties; its limits.
#include <gtest/gtest.h>

#include <filesystem>

#include "api/numeric.h"
#include "kernels/ffn_op/ffn_op_tiling.h"
#include "sim/npy.h"
#include "tests/harness.h"

namespace {

using ascend::test::Outcome;
using ascend::test::run_scenario;
namespace f = ascend::ffn_op;

std::vector<std::string> small(std::vector<std::string> extra) {
  std::vector<std::string> s = {"ffn_op.hidden=272", "ffn_op.intermediate=400", "ffn_op.cores=6"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

void expect_checked(const std::vector<std::string>& sets) {
  Outcome o = run_scenario("ffn", sets);
  std::string what;
  for (const auto& s : sets) what += s + " ";
  ASSERT_EQ(o.exit_code, 0) << what << o.message;
}

TEST(FfnOp, CheckPassesForEveryTemplateDtypeAndActivation) {
  const std::vector<std::vector<std::string>> templates = {
      {"ffn_op.dtype=fp16", "ffn_op.inner_precise=1"},
      {"ffn_op.dtype=fp16", "ffn_op.inner_precise=0"},
      {"ffn_op.dtype=bf16", "ffn_op.inner_precise=0"}};
  for (const auto& t : templates)
    for (const char* act : {"relu", "gelu", "fastgelu", "silu"}) {
      std::vector<std::string> s = t;
      s.push_back(std::string("ffn_op.activation=") + act);
      s.push_back("ffn_op.experts=3");
      s.push_back("ffn_op.expert_tokens=5,0,37");
      s.push_back("ffn_op.bias=1");
      expect_checked(small(s));
    }
  // The GLU ones: one expert, fp16 (the operator's GLU limits); N1 = 2 K2. swiglu and reglu take
  // either inner_precise (the GLU template runs fp16 throughout); geglu high performance only.
  for (const char* act : {"swiglu", "geglu", "reglu"})
    for (const char* precise : {"1", "0"}) {
      if (std::string(act) == "geglu" && std::string(precise) == "0") continue;
      expect_checked(small({std::string("ffn_op.activation=") + act,
                            std::string("ffn_op.inner_precise=") + precise, "ffn_op.experts=1",
                            "ffn_op.tokens=45", "ffn_op.intermediate=800"}));
    }
}

// Runs one fp16 expert on hand-written inputs (x [M, K1], weight1 [K1, N1], weight2 [K2, N2]
// as floats, each exactly an fp16) and returns y [M, N2] as floats. The run also checks the
// kernel against the golden.
std::vector<float> run_by_hand(std::vector<std::string> sets, int64_t m, int64_t k1, int64_t n1,
                               int64_t k2, const std::vector<float>& x,
                               const std::vector<float>& w1, const std::vector<float>& w2,
                               const std::string& name) {
  namespace npy = ascend::npy;
  const std::string dir = ::testing::TempDir() + "/" + name, out = dir + "_out";
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(out);
  auto halves = [](const std::vector<float>& v) {
    std::vector<uint16_t> h;
    for (float f : v) h.push_back(AscendC::to_half(f, AscendC::RoundMode::CAST_RINT).bits);
    return h;
  };
  const uint64_t um = static_cast<uint64_t>(m), uk1 = static_cast<uint64_t>(k1),
                 un1 = static_cast<uint64_t>(n1), uk2 = static_cast<uint64_t>(k2);
  npy::write(dir + "/x.npy", "<f2", {um, uk1}, halves(x).data());
  npy::write(dir + "/weight1.npy", "<f2", {1, uk1, un1}, halves(w1).data());
  npy::write(dir + "/weight2.npy", "<f2", {1, uk2, uk1}, halves(w2).data());
  const int64_t tokens = m;
  npy::write(dir + "/expert_tokens.npy", "<i8", {1}, &tokens);
  sets.insert(sets.end(),
              {"ffn_op.dtype=fp16", "ffn_op.experts=1", "ffn_op.tokens=" + std::to_string(m),
               "ffn_op.hidden=" + std::to_string(k1), "ffn_op.intermediate=" + std::to_string(n1),
               "ffn_op.cores=1", "ffn_op.expert_parallelism=1", "run.input_dir=" + dir,
               "run.dump_dir=" + out});
  Outcome o = run_scenario("ffn", sets);
  EXPECT_EQ(o.exit_code, 0) << o.message;
  std::vector<float> y;
  if (o.exit_code != 0) return y;
  npy::Array a = npy::read_expect(out + "/y.npy", "<f2", {um, uk1});
  for (uint64_t i = 0; i < um * uk1; ++i) {
    uint16_t b;
    std::memcpy(&b, a.bytes.data() + 2 * i, 2);
    y.push_back(AscendC::to_float(AscendC::half::from_bits(b)));
  }
  return y;
}

// The GLU template gates the LEFT half of mm1 with the activation of the RIGHT half, as the
// operator's FFNGlu calls SwiGLU(dst, left, right, beta) and the API computes
// src0 x Swish(src1). One token, K1 = N2 = 16, N1 = 32 (K2 = 16): x = e0 makes mm1 row 0 of
// weight1 (left_j = column j, right_j = column 16 + j), weight2 = I copies the activation to y.
// Hand-worked (fp16 results):
//   SwiGLU(1, 2) = 1 x 2 / (1 + e^-2) = 1.76159 -> 1.76171875 (gating the wrong half: 1.4619)
//   ReGlu(3, -1) = 3 x max(-1, 0) = 0 (the wrong half: -3); ReGlu(-1, 3) = -3
//   GeGLU(1, 2) = 1 x 2 / (1 + exp(-0.0713548 x 2 x (4 + 22.36386))) = 1.95460 -> 1.955078125
TEST(FfnOpGlu, TheLeftHalfIsGatedByTheActivationOfTheRightHalf) {
  const int64_t k1 = 16, n1 = 32, k2 = 16;
  std::vector<float> x(k1, 0.0f), w1(k1 * n1, 0.0f), w2(k2 * k1, 0.0f);
  x[0] = 1.0f;
  for (int64_t i = 0; i < k2; ++i) w2[i * k1 + i] = 1.0f;
  auto set = [&](int64_t j, float left, float right) {
    w1[j] = left;
    w1[k2 + j] = right;
  };
  set(0, 1.0f, 2.0f);
  set(1, 3.0f, -1.0f);
  set(2, -1.0f, 3.0f);
  std::vector<float> y = run_by_hand({"ffn_op.activation=swiglu", "ffn_op.inner_precise=1"}, 1, k1,
                                     n1, k2, x, w1, w2, "glu_swiglu");
  ASSERT_EQ(y.size(), 16u);
  EXPECT_EQ(y[0], 1.76171875f);
  y = run_by_hand({"ffn_op.activation=reglu", "ffn_op.inner_precise=0"}, 1, k1, n1, k2, x, w1, w2,
                  "glu_reglu");
  ASSERT_EQ(y.size(), 16u);
  EXPECT_EQ(y[0], 2.0f);  // 1 x relu(2)
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], -3.0f);
  y = run_by_hand({"ffn_op.activation=geglu", "ffn_op.inner_precise=1"}, 1, k1, n1, k2, x, w1, w2,
                  "glu_geglu");
  ASSERT_EQ(y.size(), 16u);
  EXPECT_EQ(y[0], 1.955078125f);
}

// The high-precision template casts the fp32 activation to fp16 with CAST_ROUND (half away
// from zero), as the operator's Elewise1ComputeHighPrecision. x = (1, 2^-11, 0, ...) and
// weight1 column 0 = (1, 1, 0, ...) make mm1 exactly 1 + 2^-11 in fp32, a tie halfway between
// the fp16 values 1 and 1 + 2^-10: relu keeps it, CAST_ROUND gives 1 + 2^-10 (RINT would give 1),
// and weight2 = I carries it to y.
TEST(FfnOpHighPrecision, TheActivationIsCastWithRoundHalfAwayFromZero) {
  const int64_t k1 = 16, n1 = 16, k2 = 16;
  std::vector<float> x(k1, 0.0f), w1(k1 * n1, 0.0f), w2(k2 * k1, 0.0f);
  x[0] = 1.0f;
  x[1] = 1.0f / 2048;
  w1[0] = 1.0f;
  w1[n1] = 1.0f;
  x[2] = -1.0f;  // column 1: -(1 + 2^-11) -> relu 0
  w1[2 * n1 + 1] = 1.0f;
  w1[1 * n1 + 1] = -1.0f;
  for (int64_t i = 0; i < k2; ++i) w2[i * k1 + i] = 1.0f;
  std::vector<float> y = run_by_hand({"ffn_op.activation=relu", "ffn_op.inner_precise=0"}, 1, k1,
                                     n1, k2, x, w1, w2, "hp_round");
  ASSERT_EQ(y.size(), 16u);
  EXPECT_EQ(y[0], 1.0f + 1.0f / 1024);
  EXPECT_EQ(y[1], 0.0f);
}

TEST(FfnOp, CheckPassesFor1To16ExpertsWithSkewedAndEmptyExpertsInEverySplit) {
  const std::vector<std::string> counts = {"19",
                                           "0,33",
                                           "200,1,0",
                                           "16,16,16,16,16",
                                           "0,0,7,150,3,0,64,2",
                                           "9,0,1,40,2,2,0,0,130,5,16,17,1,0,3,8"};
  for (const std::string& c : counts)
    for (const char* split : {"plain", "expert_parallel", "mixed"}) {
      const int experts = static_cast<int>(std::count(c.begin(), c.end(), ',')) + 1;
      expect_checked(small({"ffn_op.experts=" + std::to_string(experts),
                            "ffn_op.expert_tokens=" + c, std::string("ffn_op.split=") + split,
                            "ffn_op.inner_precise=1", "ffn_op.activation=gelu"}));
    }
}

// The pseudo-quant template: int8 weights cast on the AIVs ((W8 + offset) * scale in the x
// dtype) into the weight workspaces, with and without the CV overlap, every template.
TEST(FfnOp, PseudoQuantChecksInEveryTemplateWithAndWithoutOverlap) {
  const std::vector<std::vector<std::string>> templates = {
      {"ffn_op.dtype=fp16", "ffn_op.inner_precise=1"},
      {"ffn_op.dtype=fp16", "ffn_op.inner_precise=0"},
      {"ffn_op.dtype=bf16", "ffn_op.inner_precise=0"}};
  for (const auto& t : templates)
    for (const char* overlap : {"1", "0"})
      for (const char* split : {"plain", "mixed"}) {
        std::vector<std::string> s = t;
        s.insert(s.end(), {"ffn_op.antiquant=1", std::string("ffn_op.antiquant_overlap=") + overlap,
                           std::string("ffn_op.split=") + split, "ffn_op.experts=4",
                           "ffn_op.expert_tokens=5,0,37,12", "ffn_op.activation=silu",
                           "ffn_op.hidden=288", "ffn_op.intermediate=416", "ffn_op.cores=6"});
        expect_checked(s);
      }
}

// The quant template ([FFN-NOTE] 2.2): int8 x and weights, int32 accumulation, deq_scale1 on the
// FIXPIPE, the activation in fp16 and its requant to int8 on the AIVs, mm2 int8, deq_scale2: y
// bit for bit against the golden, for every activation, both requant scales (per tensor, per
// channel), both deq_scale dtypes (fp32 converted on the AIVs by the gather, uint64 as given),
// with and without the int32 bias.
std::vector<std::string> quant(std::vector<std::string> extra) {
  std::vector<std::string> s = {"ffn_op.quant=1", "ffn_op.hidden=288", "ffn_op.intermediate=416",
                                "ffn_op.cores=6"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

TEST(FfnOpQuant, CheckPassesForEveryActivationScaleAndDeqScaleDtype) {
  for (const char* act : {"relu", "gelu", "fastgelu", "silu"})
    for (const char* scale : {"per_tensor", "per_channel"})
      for (const char* deq : {"fp32", "uint64"})
        expect_checked(quant({std::string("ffn_op.activation=") + act,
                              std::string("ffn_op.quant_scale=") + scale,
                              std::string("ffn_op.deq_scale_dtype=") + deq, "ffn_op.experts=3",
                              "ffn_op.expert_tokens=5,0,37",
                              std::string("ffn_op.bias=") + (deq[0] == 'f' ? "1" : "0")}));
}

// bf16 y (the operator's key 11, deq scales in bf16): mm1 and mm2 leave int32, the AIVs
// dequantize in fp32 before the activation (fp32, with the requant) and after mm2 into y.
TEST(FfnOpQuant, Bf16OutputChecksForEveryActivationAndScale) {
  for (const char* act : {"relu", "gelu", "fastgelu", "silu"})
    for (const char* scale : {"per_tensor", "per_channel"})
      expect_checked(quant({"ffn_op.dtype=bf16", "ffn_op.deq_scale_dtype=bf16",
                            std::string("ffn_op.activation=") + act,
                            std::string("ffn_op.quant_scale=") + scale, "ffn_op.experts=3",
                            "ffn_op.expert_tokens=5,0,150", "ffn_op.bias=1"}));
  for (const char* split : {"plain", "expert_parallel"})
    expect_checked(quant({"ffn_op.dtype=bf16", "ffn_op.deq_scale_dtype=bf16",
                          std::string("ffn_op.split=") + split, "ffn_op.experts=8",
                          "ffn_op.expert_tokens=0,0,7,150,3,0,64,2", "ffn_op.quant_round=floor"}));
}

TEST(FfnOpQuant, CheckPassesFor1To16ExpertsWithEmptyExpertsInEverySplitAndRoundMode) {
  const std::vector<std::string> counts = {"19", "0,33", "200,1,0", "0,0,7,150,3,0,64,2",
                                           "9,0,1,40,2,2,0,0,130,5,16,17,1,0,3,8"};
  for (const std::string& c : counts)
    for (const char* split : {"plain", "expert_parallel", "mixed"}) {
      const int experts = static_cast<int>(std::count(c.begin(), c.end(), ',')) + 1;
      expect_checked(
          quant({"ffn_op.experts=" + std::to_string(experts), "ffn_op.expert_tokens=" + c,
                 std::string("ffn_op.split=") + split, "ffn_op.activation=gelu", "ffn_op.bias=1"}));
    }
  for (const char* round : {"round", "floor", "ceil", "trunc"})
    expect_checked(quant({std::string("ffn_op.quant_round=") + round, "ffn_op.experts=2",
                          "ffn_op.expert_tokens=30,3", "ffn_op.quant_scale=per_channel"}));
}

TEST(FfnOpQuant, TimingOnlyRunsTakeExactlyThePayloadRunsLatency) {
  std::vector<std::string> s = quant({"ffn_op.experts=4", "ffn_op.expert_tokens=3,90,0,20",
                                      "ffn_op.bias=1", "ffn_op.quant_scale=per_channel"});
  Outcome with = run_scenario("ffn", s);
  s.push_back("sim.payload=0");
  Outcome without = run_scenario("ffn", s);
  ASSERT_EQ(with.exit_code, 0) << with.message;
  ASSERT_EQ(without.exit_code, 0) << without.message;
  EXPECT_EQ(with.latency_ns(), without.latency_ns());
}

TEST(FfnOp, TimingOnlyRunsTakeExactlyThePayloadRunsLatency) {
  for (const char* split : {"plain", "mixed"}) {
    std::vector<std::string> s = small({"ffn_op.experts=4", "ffn_op.expert_tokens=3,90,0,20",
                                        "ffn_op.bias=1", std::string("ffn_op.split=") + split});
    Outcome with = run_scenario("ffn", s);
    s.push_back("sim.payload=0");
    Outcome without = run_scenario("ffn", s);
    ASSERT_EQ(with.exit_code, 0) << with.message;
    ASSERT_EQ(without.exit_code, 0) << without.message;
    EXPECT_EQ(with.latency_ns(), without.latency_ns()) << split;
  }
}

// Seed 004 section 3.2's table: divideBlk = (in + out) x double buffer + temp + API temp (+ the
// antiquant scale), and the fp16 vector tiles it gives on a 192 KB UB.
TEST(FfnOp, TheUbSplitIsTheSeedsTable) {
  std::map<std::string, int> want = {
      {"high precision", 18},
      {"high performance", 8},
      {"quant, fp16 output", 9},
      {"quant, bf16 output", 20},
      {"antiquant, fp16", 13},
      {"antiquant, bf16", 23},
      {"glu", 14}};  // the operator's GLU tiling: UB / 7 per fp16 tile
  for (const f::UbShares& s : f::ub_share_table()) EXPECT_EQ(s.divide_blk(), want.at(s.scenario));
  EXPECT_EQ(f::ub_calc_elems(192 * 1024, f::ub_shares(true, f::Activation::Gelu), 128), 64u * 256);
  EXPECT_EQ(f::ub_calc_elems(192 * 1024, f::ub_shares(false, f::Activation::Gelu), 128), 32u * 256);
  // The seed's total occupancy column: 8 x 16 KB = 128 KB and 18 x 8 KB = 144 KB.
  EXPECT_EQ(8u * f::ub_calc_elems(192 * 1024, f::ub_shares(true, f::Activation::Relu), 128),
            128u * 1024);
  EXPECT_EQ(18u * f::ub_calc_elems(192 * 1024, f::ub_shares(false, f::Activation::Relu), 128),
            144u * 1024);
}

f::Tiling seed_tiling(f::Split split, const std::vector<int64_t>& tokens, int parallelism = 0) {
  return f::make_tiling(static_cast<int32_t>(tokens.size()), tokens, 5120, 2560, 20,
                        f::Activation::FastGelu, true, false, false, split, parallelism, 256,
                        f::Limits{});
}

// Seed 004 section 3.1's example: 20 AICs, x [128, 5120], W1 [8, 5120, 2560], 16 tokens per
// expert. mm1 splits N into 10 x 256 (10 cores); expert parallelism puts the next expert on the
// idle 10; mm2 (N = 5120) fills the 20 cores alone.
TEST(FfnOp, TheScheduleFollowsTheSeedsExample) {
  const std::vector<int64_t> tokens(8, 16);
  f::Tiling t = seed_tiling(f::Split::Mixed, tokens);
  EXPECT_EQ(t.mm1.baseM, 16);  // few tokens: baseM 16
  EXPECT_EQ(t.mm1.baseN, 256);
  EXPECT_EQ(t.mm1.baseK, 64);
  EXPECT_EQ(t.parallelism, 2);  // min(10, 20 / 10)
  auto rounds = f::schedule(tokens, t);
  ASSERT_EQ(rounds.size(), 4u);
  for (const f::Round& r : rounds) {
    ASSERT_EQ(r.jobs.size(), 2u);
    EXPECT_EQ(r.jobs[0].split.first, 0);
    EXPECT_EQ(r.jobs[1].split.first, 10);
    for (const f::Mm1Job& j : r.jobs) {
      EXPECT_EQ(j.split.n_loops, 10);
      EXPECT_EQ(j.split.single_n, 256);
      EXPECT_EQ(j.split.m_loops, 1);
    }
  }
  const f::CoreSplit mm2 = f::split_mn(16, 5120, 0, 20, 256);
  EXPECT_EQ(mm2.used(), 20);
  // plain: one expert per round on 10 of the 20 cores.
  rounds = f::schedule(tokens, seed_tiling(f::Split::Plain, tokens));
  ASSERT_EQ(rounds.size(), 8u);
  EXPECT_EQ(rounds[0].jobs[0].split.used(), 10);
  // mixed: an expert above baseM runs alone (its m fills the cores); what is left in the token
  // cache at the end runs alone with singleN 128 (20 cores).
  const std::vector<int64_t> skew = {16, 300, 16, 16};
  t = seed_tiling(f::Split::Mixed, skew);
  EXPECT_EQ(t.mm1.baseM, 128);
  rounds = f::schedule(skew, t);
  ASSERT_EQ(rounds.size(), 3u);  // {1}, {0, 2}, {3}
  EXPECT_EQ(rounds[0].jobs[0].expert, 1);
  EXPECT_EQ(rounds[0].jobs[0].split.m_loops, 2);
  EXPECT_EQ(rounds[1].jobs.size(), 2u);
  EXPECT_EQ(rounds[2].jobs[0].split.single_n, 128);
  EXPECT_EQ(rounds[2].jobs[0].split.used(), 20);
}

double latency(const std::vector<std::string>& sets) {
  Outcome o = run_scenario("ffn", sets);
  EXPECT_EQ(o.exit_code, 0) << o.message;
  return o.exit_code == 0 ? o.latency_ns() : 0;
}

std::vector<std::string> seed_example(std::vector<std::string> extra) {
  std::vector<std::string> s = {"ffn_op.cores=20", "ffn_op.inner_precise=1", "sim.payload=0",
                                "run.check=0"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

// The seed names MTE2 as the FFN's bottleneck at few tokens per expert: every AIC streams its
// weight columns and the cube waits.
TEST(FfnOp, FewTokensPerExpertAreMte2Bound) {
  Outcome o = run_scenario("ffn", seed_example({}));
  ASSERT_EQ(o.exit_code, 0) << o.message;
  EXPECT_EQ(o.kernel()["bound"], "MTE2");
  EXPECT_GT(o.kernel()["aic_mte2_busy_pct"].get<double>(),
            5 * o.kernel()["aic_cube_busy_pct"].get<double>());
}

// Weights are read once, so they miss the L2 and stream at each AIC's DDR rate
// (cube.mte2_miss_bytes_per_cycle): the seed's reasoning holds. In the plain split mm1 runs on
// 10 of 20 cores and takes twice mm2's time (equal weight bytes, K1 N1 = K2 N2), 3 units per
// expert; two experts side by side take 1 unit each for mm1 and mm2, 2 units per expert: a ratio
// of 1.5. Where the die's HBM binds instead (a slow HBM), either split streams every weight once
// at the HBM's rate and the split gains little.
TEST(FfnOp, ExpertParallelBeatsPlainByTheSeedsRatioWhenEachCoresMte2Binds) {
  const double plain = latency(seed_example({"ffn_op.split=plain"}));
  const double ep = latency(seed_example({"ffn_op.split=expert_parallel"}));
  EXPECT_NEAR(plain / ep, 1.5, 0.1);
  const double plain_hbm = latency(seed_example({"ffn_op.split=plain", "hbm.bandwidth_GBps=400"}));
  const double ep_hbm =
      latency(seed_example({"ffn_op.split=expert_parallel", "hbm.bandwidth_GBps=400"}));
  EXPECT_LE(ep_hbm, plain_hbm);
  EXPECT_LT(plain_hbm / ep_hbm, 1.1);
}

// Many tokens per expert: each m block re-reads its B columns, which the L2 now holds, at the L2
// rate; the cube binds. Without the L2 (l2.capacity_MiB = 0) the same GEMM is MTE2-bound.
TEST(FfnOp, ManyTokensPerExpertAreCubeBoundThroughTheL2) {
  Outcome o = run_scenario(
      "ffn", seed_example({"ffn_op.experts=1", "ffn_op.tokens=4096", "ffn_op.cores=24"}));
  ASSERT_EQ(o.exit_code, 0) << o.message;
  EXPECT_EQ(o.kernel()["bound"], "CUBE");
  EXPECT_GT(o.kernel()["aic_cube_busy_pct"].get<double>(), 50);
  Outcome no_l2 = run_scenario("ffn", seed_example({"ffn_op.experts=1", "ffn_op.tokens=4096",
                                                    "ffn_op.cores=24", "l2.capacity_MiB=0"}));
  ASSERT_EQ(no_l2.exit_code, 0) << no_l2.message;
  EXPECT_EQ(no_l2.kernel()["bound"], "MTE2");
  EXPECT_GT(no_l2.latency_ns(), 1.5 * o.latency_ns());
}

// int8 halves the bytes of every weight: at the seed's example (few tokens per expert, each AIC's
// MTE2 binds) the AICs' MTE2 moves half the bytes of fp16 (the deq scales add 8 B per column of
// a block) and the run takes less than half the time: besides the bytes, each AIC's 256-B int8
// rows of B share their 512-B L2 lines with the next AIC's, which then hits the L2. With many
// tokens the cube binds: an int8 fractal step covers 32 of k (cube.mmad_int8_k0) against 16 for
// fp16, so the cube's busy time is half of fp16's for the same shape.
TEST(FfnOpQuant, Int8HalvesTheMte2BytesAndTheCubeTime) {
  Outcome fp16 = run_scenario("ffn", seed_example({"ffn_op.split=expert_parallel"}));
  Outcome int8 =
      run_scenario("ffn", seed_example({"ffn_op.split=expert_parallel", "ffn_op.quant=1"}));
  ASSERT_EQ(fp16.exit_code, 0) << fp16.message;
  ASSERT_EQ(int8.exit_code, 0) << int8.message;
  auto mte2_bytes = [](const Outcome& o) {
    return o.kernel()["ranks"][0]["aic"]["mte2_bytes"].get<double>();
  };
  EXPECT_NEAR(mte2_bytes(int8) / mte2_bytes(fp16), 0.5, 0.01);
  EXPECT_EQ(int8.kernel()["bound"], "MTE2");
  EXPECT_GT(int8.latency_ns() / fp16.latency_ns(), 0.35);
  EXPECT_LT(int8.latency_ns() / fp16.latency_ns(), 0.5);
  auto cube_time = [](const std::vector<std::string>& s) {
    Outcome o = run_scenario("ffn", s);
    EXPECT_EQ(o.exit_code, 0) << o.message;
    return o.exit_code ? 0.0 : o.kernel()["aic_cube_busy_pct"].get<double>() * o.latency_ns() / 100;
  };
  const std::vector<std::string> big = {"ffn_op.experts=1", "ffn_op.tokens=2048",
                                        "ffn_op.cores=24"};
  std::vector<std::string> q = big;
  q.push_back("ffn_op.quant=1");
  const double cube16 = cube_time(seed_example(big)), cube8 = cube_time(seed_example(q));
  EXPECT_NEAR(cube8 / cube16, 0.5, 0.03);
  // The rate is the parameter: with cube.mmad_int8_k0 = 16, int8 runs at the fp16 rate.
  q.push_back("cube.mmad_int8_k0=16");
  EXPECT_NEAR(cube_time(seed_example(q)) / cube16, 1.0, 0.03);
}

// Seed 004 4.2: the weight casts on the AIVs overlap the Matmuls on the AICs (CastWeight2 beside
// mm1, the next CastWeight1 beside mm2); serialized, each waits for the other.
TEST(FfnOp, PseudoQuantWithItsCvOverlapBeatsTheSameWorkSerialized) {
  const double overlap = latency(seed_example({"ffn_op.antiquant=1"}));
  const double serial = latency(seed_example({"ffn_op.antiquant=1", "ffn_op.antiquant_overlap=0"}));
  EXPECT_LT(overlap, 0.95 * serial);
}

TEST(FfnOp, AttributesOutsideTheLimitsAreExit2NamingTheLimit) {
  struct Bad {
    std::vector<std::string> sets;
    std::string says;
  };
  for (const Bad& b : std::vector<Bad>{
           {{"ffn_op.activation=swiglu", "ffn_op.experts=2", "ffn_op.inner_precise=1"},
            "swiglu supports only one expert"},
           {{"ffn_op.activation=reglu", "ffn_op.experts=1", "ffn_op.dtype=bf16"},
            "reglu supports only one expert (no expert_tokens) and fp16"},
           {{"ffn_op.activation=geglu", "ffn_op.experts=1", "ffn_op.inner_precise=0"},
            "geglu supports only high performance"},
           {{"ffn_op.dtype=bf16", "ffn_op.inner_precise=1"}, "high-precision template only"},
           {{"ffn_op.hidden=100"}, "multiple of 16"},
           {{"ffn_op.experts=3", "ffn_op.expert_tokens=1,2"}, "has 2 entries"},
           {{"ffn_op.experts=2", "ffn_op.expert_tokens=0,0"}, "sums to 0"},
           {{"ffn_op.expert_tokens=1,x,3,4,5,6,7,8"}, "is not a token count"},
           {{"ffn_op.cores=30"}, "exceeds die.aic_count"},
           {{"ffn_op.cores=4", "ffn_op.expert_parallelism=8"}, "exceeds the 4 AICs"},
           {{"ffn_op.antiquant=1", "ffn_op.intermediate=400"}, "multiples of 32"},
           {{"ffn_op.quant=1", "ffn_op.dtype=bf16"}, "bf16 y with bf16 ones"},
           {{"ffn_op.quant=1", "ffn_op.deq_scale_dtype=bf16"}, "fp16 y with uint64 or fp32"},
           {{"ffn_op.quant=1", "ffn_op.antiquant=1"}, "two templates"},
           {{"ffn_op.quant=1", "ffn_op.intermediate=400"}, "multiples of 32"},
           {{"ffn_op.quant=1", "ffn_op.activation=swiglu", "ffn_op.experts=1",
             "ffn_op.inner_precise=1"},
            "quant with swiglu"}}) {
    Outcome o = run_scenario("ffn", b.sets);
    EXPECT_EQ(o.exit_code, ascend::kExitBadInput) << b.says;
    EXPECT_NE(o.message.find(b.says), std::string::npos) << o.message;
  }
}

}  // namespace

namespace {

std::vector<std::string> moe_ffn(int ep, std::vector<std::string> extra) {
  std::vector<std::string> s = {"ep.world_size=" + std::to_string(ep),
                                "dispatch.quant=none",
                                "dispatch.hidden=1024",
                                "dispatch.bs=16",
                                "dispatch.topk=4",
                                "moe.experts=ffn",
                                "moe.ffn_intermediate=256"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

// dispatch -> the FFN on every rank's AICs and AIVs -> combine, checked end to end against the
// golden chain (golden dispatch -> the FFN's golden with the same weights -> golden combine).
TEST(FfnOpMoe, TheLayerWithFfnExpertsIsCheckedEndToEndAtEp4And8) {
  for (const auto& s : {moe_ffn(4, {"dispatch.experts=16"}),
                        moe_ffn(8, {"dispatch.experts=14", "dispatch.shared_experts=1",
                                    "dispatch.shared_expert_ranks=1", "dispatch.dtype=fp16",
                                    "moe.layers=2", "moe.ffn_activation=gelu"}),
                        moe_ffn(8, {"dispatch.experts=32", "dispatch.dtype=fp16",
                                    "moe.ffn_inner_precise=1", "moe.ffn_split=plain"})}) {
    Outcome o = run_scenario("moe", s);
    ASSERT_EQ(o.exit_code, 0) << o.message;
    bool ffn = false;
    for (const auto& k : o.stats["kernels"]) ffn = ffn || k["name"] == "ffn";
    EXPECT_TRUE(ffn);
    // The layer's split: dispatch, FFN and combine each with their time.
    const auto& trip = o.kernel()["round_trip"]["layers"][0];
    EXPECT_GT(trip["experts_ns"].get<double>(), 0);
    EXPECT_GT(trip["dispatch_ns"].get<double>(), 0);
  }
}

TEST(FfnOpMoe, TimingOnlyLayerTakesThePayloadLayersLatency) {
  auto s = moe_ffn(4, {"dispatch.experts=8"});
  Outcome with = run_scenario("moe", s);
  s.push_back("sim.payload=0");
  Outcome without = run_scenario("moe", s);
  ASSERT_EQ(with.exit_code, 0) << with.message;
  ASSERT_EQ(without.exit_code, 0) << without.message;
  EXPECT_EQ(with.kernel()["round_trip"]["total_ns"], without.kernel()["round_trip"]["total_ns"]);
}

// int8 dispatch quantizes per token (dynamic scales); the FFN's quant template takes static
// requant scales and per-channel dequant scales, so the two do not chain.
TEST(FfnOpMoe, Int8DispatchIsRefusedNamingWhyTheQuantTemplateDoesNotTakeIt) {
  Outcome o = run_scenario("moe", {"ep.world_size=4", "moe.experts=ffn"});
  EXPECT_EQ(o.exit_code, ascend::kExitBadInput);
  EXPECT_NE(o.message.find("dynamic scales"), std::string::npos) << o.message;
}

}  // namespace

namespace {

// --dump writes the operator's tensors as .npy; --input replays them and the check holds again.
TEST(FfnOpIo, DumpedTensorsReplayWithInput) {
  const std::string dir = ::testing::TempDir() + "/ffn_dump";
  std::filesystem::remove_all(dir);
  std::vector<std::string> s = {
      "ffn_op.hidden=256",  "ffn_op.intermediate=384",     "ffn_op.cores=4",
      "ffn_op.experts=3",   "ffn_op.expert_tokens=7,0,20", "ffn_op.bias=1",
      "run.dump_dir=" + dir};
  Outcome first = run_scenario("ffn", s);
  ASSERT_EQ(first.exit_code, 0) << first.message;
  for (const char* f : {"x.npy", "weight1.npy", "weight2.npy", "bias1.npy", "bias2.npy",
                        "expert_tokens.npy", "y.npy"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  s.back() = "run.input_dir=" + dir;
  s.push_back("sim.seed=99");  // the inputs come from the files, not the generator
  Outcome replay = run_scenario("ffn", s);
  ASSERT_EQ(replay.exit_code, 0) << replay.message;
  EXPECT_EQ(first.latency_ns(), replay.latency_ns());
  s.push_back("ffn_op.expert_tokens=7,1,19");  // counts that disagree with the file
  Outcome bad = run_scenario("ffn", s);
  EXPECT_EQ(bad.exit_code, ascend::kExitBadInput);
  EXPECT_NE(bad.message.find("expert_tokens.npy differs"), std::string::npos) << bad.message;
}

}  // namespace

namespace {

// The quant template's tensors round-trip through --dump / --input (int8 x and weights, int32
// biases, the deq scales in the dtype given, scale and offset in fp32); a missing scale file is
// bad input naming it.
TEST(FfnOpIo, QuantTensorsReplayWithInputAndAMissingScaleIsExit2) {
  for (const char* deq : {"fp32", "uint64", "bf16"}) {
    const std::string dir = ::testing::TempDir() + "/ffn_quant_dump_" + deq;
    const std::string y = deq[0] == 'b' ? "bf16" : "fp16";
    std::filesystem::remove_all(dir);
    std::vector<std::string> s = {"ffn_op.quant=1",
                                  "ffn_op.hidden=256",
                                  "ffn_op.intermediate=384",
                                  "ffn_op.cores=4",
                                  "ffn_op.experts=3",
                                  "ffn_op.expert_tokens=7,0,20",
                                  "ffn_op.bias=1",
                                  "ffn_op.quant_scale=per_channel",
                                  std::string("ffn_op.deq_scale_dtype=") + deq,
                                  "ffn_op.dtype=" + y,
                                  "run.dump_dir=" + dir};
    Outcome first = run_scenario("ffn", s);
    ASSERT_EQ(first.exit_code, 0) << first.message;
    for (const char* f :
         {"x.npy", "weight1.npy", "weight2.npy", "bias1.npy", "bias2.npy", "deq_scale1.npy",
          "deq_scale2.npy", "scale.npy", "offset.npy", "expert_tokens.npy", "y.npy"})
      EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
    s.back() = "run.input_dir=" + dir;
    s.push_back("sim.seed=99");
    Outcome replay = run_scenario("ffn", s);
    ASSERT_EQ(replay.exit_code, 0) << replay.message;
    EXPECT_EQ(first.latency_ns(), replay.latency_ns());
    std::filesystem::remove(dir + "/scale.npy");
    Outcome missing = run_scenario("ffn", s);
    EXPECT_EQ(missing.exit_code, ascend::kExitBadInput);
    EXPECT_NE(missing.message.find("scale.npy"), std::string::npos) << missing.message;
    // A file of the wrong dtype (fp32 deq scales where uint64 ones are declared, or back; bf16 y
    // with fp16's).
    s.push_back(std::string("ffn_op.deq_scale_dtype=") + (deq[0] == 'f' ? "uint64" : "fp32"));
    if (y == "bf16") s.push_back("ffn_op.dtype=fp16");
    Outcome wrong = run_scenario("ffn", s);
    EXPECT_EQ(wrong.exit_code, ascend::kExitBadInput);
  }
}

}  // namespace
