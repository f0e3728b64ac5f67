// MoeDistributeDispatchV3 and CombineV3: worked examples with hand-computed values for
// each V3 input (special experts, 2-D masks, expert scales, smooth scales, elasticInfo), the
// check across the V3 matrix at several EP sizes, dead ranks with and without scale-down, the
// documented limits, and timing-only runs with every feature on.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "api/numeric.h"
#include "kernels/combine/combine_golden.h"
#include "kernels/dispatch/dispatch_golden.h"
#include "kernels/dispatch/dispatch_host.h"
#include "sim/npy.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace ascend::test {
namespace {

using AscendC::RoundMode;
using dispatch::Attrs;

// The worked example of [OLD] (W 2, E 4, BS 2, K 2) with V3 inputs: id 4 is a zero
// expert; rank 0's (0, 1) and rank 1's whole token 0 are masked out.
Attrs v3_attrs() {
  Attrs a;
  a.ep = 2;
  a.experts = 4;
  a.bs = 2;
  a.topk = 2;
  a.hidden = 1024;
  a.quant = false;
  a.zero_experts = 1;
  a.mask_2d = true;
  a.expert_scales = true;
  return a;
}
std::vector<dispatch::RankInputs> v3_inputs() {
  std::vector<dispatch::RankInputs> in(2);
  in[0].ids = {0, 2, 1, 4};
  in[0].mask2d = {1, 0, 1, 1};
  in[0].expert_scales = {0.5f, 0.25f, 0.125f, 2.0f};
  in[1].ids = {3, 0, 0, 1};
  in[1].mask2d = {0, 0, 1, 1};
  in[1].expert_scales = {1.0f, 3.0f, 0.75f, 1.5f};
  for (int r = 0; r < 2; ++r) {
    in[r].x.resize(2 * 1024);
    for (size_t i = 0; i < in[r].x.size(); ++i) in[r].x[i] = static_cast<uint16_t>(r * 4096 + i);
  }
  return in;
}

// Sent: rank 0's (0, 0) -> e0 and (1, 0) -> e1 ((0, 1) masked, (1, 1) the zero expert); rank 1's
// (1, 0) -> e0 and (1, 1) -> e1. Rank 0 holds e0 and e1: blocks (e0, r0), (e0, r1), (e1, r0),
// (e1, r1) get one row each; rank 1 (e2, e3) receives nothing.
TEST(V3WorkedExample, SpecialExpertsAndA2DMaskAreNeverSentAndExpertScalesFollowTheRows) {
  auto want = dispatch::golden(v3_attrs(), true, v3_inputs());
  EXPECT_EQ(want[0].assist_info, (std::vector<int32_t>{0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1}));
  EXPECT_EQ(want[0].ep_recv_counts, (std::vector<int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(want[0].expert_token_nums, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(want[0].expand_scales, (std::vector<float>{0.5f, 0.75f, 0.125f, 1.5f}));
  EXPECT_EQ(want[1].rows, 0);
  EXPECT_EQ(want[1].ep_recv_counts, (std::vector<int32_t>{0, 0, 0, 0}));
  // Row 1 is rank 1's token 1.
  EXPECT_EQ(want[0].expand_x[2048] | (want[0].expand_x[2049] << 8), 4096 + 1024);
}

TEST(V3WorkedExample, TheKernelGivesTheHandComputedOutputs) {
  Bench b({}, 2);
  Attrs a = v3_attrs();
  a.cores = 48;
  auto in = v3_inputs();
  dispatch::Execution ex = dispatch::execute(b.sim(), a, true, {in}, {});
  std::vector<int32_t> triples(12), counts(4);
  std::vector<float> scales(4);
  b.sim().read(ex.bufs[0][0].assist, triples.data(), 48);
  b.sim().read(ex.bufs[0][0].recv_counts, counts.data(), 16);
  b.sim().read(ex.bufs[0][0].expand_scales, scales.data(), 16);
  EXPECT_EQ(triples, (std::vector<int32_t>{0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1}));
  EXPECT_EQ(counts, (std::vector<int32_t>{1, 2, 3, 4}));
  EXPECT_EQ(scales, (std::vector<float>{0.5f, 0.75f, 0.125f, 1.5f}));
  auto want = dispatch::golden(a, true, in);
  for (int r = 0; r < 2; ++r)
    EXPECT_EQ(dispatch::compare(a, want[r], b.sim(), ex.bufs[0][r], r, 0), "");
}

// [OLD]: x = (1, -2, 4, 0.5) times the smooth scales (2, 1, 0.5, 4) is (2, -2, 2, 2):
// max 2, d = 127 / 2, q = (127, -127, 127, 127), scale 2 / 127. Without them: max 4, d = 31.75,
// x d = (31.75, -63.5, 127, 15.875) -> RINT (32, -64, 127, 16).
TEST(V3WorkedExample, SmoothScalesMultiplyTheTokenBeforeItsMaximumIsTaken) {
  std::vector<uint16_t> x = {to_bf(1), to_bf(-2), to_bf(4), to_bf(0.5f)};
  std::vector<float> smooth = {2, 1, 0.5f, 4};
  int8_t q[4];
  float scale = 0;
  dispatch::quantize_row(x.data(), 4, true, q, &scale, smooth.data());
  EXPECT_EQ(std::vector<int>(q, q + 4), (std::vector<int>{127, -127, 127, 127}));
  EXPECT_EQ(scale, 1.0f / (127.0f / 2.0f));
  dispatch::quantize_row(x.data(), 4, true, q, &scale);
  EXPECT_EQ(std::vector<int>(q, q + 4), (std::vector<int>{32, -64, 127, 16}));
  EXPECT_EQ(scale, 1.0f / 31.75f);
}

// Combine ([OLD]) with W 2, E 2 (L 1), BS 1, K 3, a zero expert (2), a copy expert (3)
// and a const expert (4: alpha1 0.5, alpha2 0.25, v 4). Expert output rows are constants: rank 0
// row 0 = 1 ((0, 0, 0)), row 1 = 2 ((1, 0, 2)); rank 1 row 0 = 11 ((1, 0, 0)). oriX is 2 on rank
// 0 and 3 on rank 1.
struct CombineExample {
  combine::Attrs a;
  std::vector<combine::RankInputs> in;
};
CombineExample combine_example() {
  CombineExample c;
  combine::Attrs& a = c.a;
  a.d.ep = 2;
  a.d.experts = 2;
  a.d.bs = 1;
  a.d.topk = 3;
  a.d.hidden = 16;
  a.d.zero_experts = a.d.copy_experts = a.d.const_experts = 1;
  auto consts = std::make_shared<combine::ConstExperts>();
  consts->alpha1 = {to_bf(0.5f)};
  consts->alpha2 = {to_bf(0.25f)};
  consts->v.assign(16, to_bf(4));
  c.in.resize(2);
  c.in[0].ids = {0, 2, 4};
  c.in[0].expert_scales = {0.5f, 0.25f, 0.125f};
  c.in[0].assist = {0, 0, 0, 1, 0, 2};
  c.in[0].ep_send_counts = {1, 2};
  c.in[0].expand_x.assign(16, to_bf(1));
  c.in[0].expand_x.resize(32, to_bf(2));
  c.in[0].ori_x.assign(16, to_bf(2));
  c.in[1].ids = {1, 3, 0};
  c.in[1].expert_scales = {1.0f, 0.5f, 0.25f};
  c.in[1].assist = {1, 0, 0};
  c.in[1].ep_send_counts = {0, 1};
  c.in[1].expand_x.assign(16, to_bf(11));
  c.in[1].ori_x.assign(16, to_bf(3));
  for (auto& r : c.in) r.consts = consts;
  return c;
}

TEST(V3WorkedExample, CombineComputesZeroCopyAndConstExpertsFromOriX) {
  CombineExample c = combine_example();
  auto out = combine::golden(c.a, true, c.in);
  // Rank 0: 1 x 0.5 + (zero) + (0.5 x 2 + 0.25 x 4) x 0.125 = 0.75.
  EXPECT_EQ(bf(out[0][0]), 0.75f);
  // Rank 1: 11 x 1 + 3 (copy) x 0.5 + 2 x 0.25 = 13.
  EXPECT_EQ(bf(out[1][15]), 13.0f);
  // A 2-D mask drops rank 1's copy expert: 11.5; with every flag off the row is not written.
  c.a.d.mask_2d = true;
  c.in[0].mask2d = {1, 1, 1};
  c.in[1].mask2d = {1, 0, 1};
  EXPECT_EQ(bf(combine::golden(c.a, true, c.in)[1][0]), 11.5f);
  c.in[0].mask2d = {0, 0, 0};
  c.in[0].assist = {1, 0, 2};  // rank 0's (0, 0, 0) is never sent now
  c.in[0].ep_send_counts = {1, 1};
  c.in[0].expand_x.resize(16, to_bf(2));
  std::fill(c.in[0].expand_x.begin(), c.in[0].expand_x.end(), to_bf(2));
  auto masked = combine::golden(c.a, true, c.in);
  EXPECT_EQ(bf(masked[0][0]), 0.0f);
  EXPECT_EQ(bf(masked[1][0]), 11.5f);
}

// The const expert's row stays fp32 into the weighted sum (the operator's ProcessConstantExpert
// never rounds it to the dtype). bf16, rank 0: MoE row 2^-8 (weight 1) and const expert alpha1 1,
// alpha2 2^-9, v 1, oriX 1 (weight 1): the row is 1 + 2^-9 and the sum 1 + 3 x 2^-9, which
// rounds to 1 + 2^-7. Rounding the row to bf16 first (1) would leave 1 + 2^-8, a tie that rounds
// to even: 1.
TEST(V3WorkedExample, TheConstExpertRowIsWeightedInFp32WithoutRounding) {
  CombineExample c = combine_example();
  auto consts = std::make_shared<combine::ConstExperts>(*c.in[0].consts);
  consts->alpha1 = {to_bf(1.0f)};
  consts->alpha2 = {to_bf(1.0f / 512)};
  consts->v.assign(16, to_bf(1));
  for (auto& r : c.in) r.consts = consts;
  c.in[0].expert_scales = {1.0f, 1.0f, 1.0f};
  std::fill(c.in[0].expand_x.begin(), c.in[0].expand_x.begin() + 16, to_bf(1.0f / 256));
  c.in[0].ori_x.assign(16, to_bf(1));
  const std::vector<float> row = combine::const_expert(*consts, 0, c.in[0].ori_x.data(), 16, true);
  EXPECT_EQ(row[0], 1.0f + 1.0f / 512);
  auto out = combine::golden(c.a, true, c.in);
  EXPECT_EQ(bf(out[0][0]), 1.0f + 1.0f / 128);
}

// [NEW] softmax-gated const expert ([V3-API]): gate1 = 1/16 everywhere and gate2 = 0 give
// a1 = <gate1, oriX = 2> = 2 and a2 = 0; (p1, p2) = softmax(2, 0) = (1 / (1 + e^-2), e^-2 /
// (1 + e^-2)); c = p1 x 2 + p2 x 4 in fp32; rank 0's x_out = RINT_bf16(1 x 0.5 + c x 0.125).
TEST(V3WorkedExample, TheNewConstExpertGatesOriXAndVWithASoftmax) {
  CombineExample c = combine_example();
  auto consts = std::make_shared<combine::ConstExperts>(*c.in[0].consts);
  consts->alpha1.clear();
  consts->alpha2.clear();
  consts->gate1.assign(16, to_bf(1.0f / 16));
  consts->gate2.assign(16, to_bf(0));
  for (auto& r : c.in) r.consts = consts;
  c.a.const_softmax = true;
  const float e = std::exp(-2.0f), p1 = 1.0f / (1.0f + e), p2 = e / (1.0f + e);
  const float a1 = p1 * 2.0f, a2 = p2 * 4.0f, konst = a1 + a2;
  EXPECT_NEAR(konst, 2.2384f, 1e-4f);
  auto out = combine::golden(c.a, true, c.in);
  const float term = konst * 0.125f;
  EXPECT_EQ(bf(out[0][0]), bf(to_bf(1.0f * 0.5f + term)));
  EXPECT_EQ(bf(out[1][0]), 13.0f);  // rank 1 has no const expert
}

// After a scale-down combine numbers the special experts from E0, its tiling's moeExpertNum,
// not from the new group's E (the operator's MoeDistributeCombineV2 compares the ids with the
// tiling's moeExpertNum). The worked example with E 2 scaled down from E0 4: zero expert 4, copy
// 5, const 6; rank 0 picks (0, zero, const), rank 1 (1, copy, 0): the same sums as before, 0.75
// and 13. Numbered from E (zero 2, copy 3, const 4), id 4 would be the const expert and 6 none.
TEST(V3WorkedExample, AfterAScaleDownCombineNumbersTheSpecialExpertsFromE0) {
  CombineExample c = combine_example();
  c.a.d.experts0 = 4;
  c.in[0].ids = {0, 4, 6};
  c.in[1].ids = {1, 5, 0};
  EXPECT_FALSE(dispatch::valid_expert_id(c.a.d, 2));  // [E, E0): neither sent nor special
  EXPECT_FALSE(dispatch::valid_expert_id(c.a.d, 7));
  EXPECT_TRUE(dispatch::valid_expert_id(c.a.d, 6));
  auto out = combine::golden(c.a, true, c.in);
  EXPECT_EQ(bf(out[0][0]), 0.75f);
  EXPECT_EQ(bf(out[1][15]), 13.0f);
}

// The routing a scaled-down run generates: MoE ids of the new group [0, E') and special ids
// [E0, E0 + special), never [E', E0). EP 8, E 16, dead ranks 2 and 5 (L 2): E' 12.
TEST(V3WorkedExample, ScaledDownRoutingKeepsTheSpecialIdsAfterE0) {
  Params p = make_params({"fault.dead_ranks=2,5", "fault.scale_down=1"});
  Attrs a;
  a.ep = 8;
  a.experts = 16;
  a.bs = 64;
  a.topk = 4;
  a.zero_experts = a.copy_experts = 1;
  dispatch::plan_elastic(p, a);
  EXPECT_EQ(a.experts, 12);
  EXPECT_EQ(dispatch::experts0(a), 16);
  std::mt19937 rng(7);
  std::vector<int32_t> ids = dispatch::route(a, "uniform", 0, rng, 1e3);
  int special = 0;
  for (int32_t e : ids) {
    EXPECT_TRUE(e < 12 || e == 16 || e == 17) << e;
    special += e >= 16;
  }
  EXPECT_GT(special, 0);
}

TEST(V3WorkedExample, CombineRefusesTriplesOfMaskedOrSpecialSlots) {
  CombineExample c = combine_example();
  c.in[0].assist = {0, 0, 0, 1, 0, 1};  // (1, 0, 1) is rank 1's copy expert: never sent
  try {
    combine::locate(c.a, c.in);
    ADD_FAILURE() << "a special expert's slot accepted";
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput);
    EXPECT_NE(std::string(e.what()).find("masked or a special expert"), std::string::npos);
  }
}

// Dead ranks 1 and 6 of W 8 with S 2 (one shared expert) and E 18 (L 3): W 6, S 1, E 15.
TEST(V3WorkedExample, ScaleDownBuildsTheTablesOfElasticInfo) {
  Params p = make_params({"fault.dead_ranks=1,6", "fault.scale_down=1"});
  Attrs a;
  a.ep = 8;
  a.shared_experts = 1;
  a.shared_expert_ranks = 2;
  a.experts = 18;
  common::Elastic el = dispatch::plan_elastic(p, a);
  EXPECT_EQ(el.info(), (std::vector<int32_t>{1,  6, 1, 15, 0, -1, 1, 2, 3,  4,
                                             -1, 5, 0, 2,  3, 4,  5, 7, -1, -1}));
  EXPECT_EQ(a.ep, 6);
  EXPECT_EQ(a.shared_expert_ranks, 1);
  EXPECT_EQ(a.experts, 15);
  EXPECT_EQ(dispatch::local_experts(a, 1), 3);  // L unchanged
  EXPECT_EQ(a.elastic_world, 8);
  EXPECT_EQ(el.physical(5), 7);
}

int limit_code(const std::vector<std::string>& sets, std::string* message = nullptr) {
  try {
    Params p = make_params(sets);
    Attrs a = dispatch::attrs_of(p, static_cast<int>(p.integer("ep.world_size")), 48);
    dispatch::validate(a);
    dispatch::plan_elastic(p, a);
  } catch (const SimError& e) {
    if (message) *message = e.what();
    return e.code;
  }
  return 0;
}

TEST(V3Limits, EachIsRefusedWithExit2NamingIt) {
  const std::vector<std::string> w8 = {"ep.world_size=8", "dispatch.experts=16"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), w8.begin(), w8.end());
    return more;
  };
  std::string msg;
  EXPECT_EQ(limit_code(with({"fault.dead_ranks=2", "fault.scale_down=1"})), 0);
  EXPECT_EQ(limit_code(with({"fault.scale_down=1"}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("needs dead ranks"), std::string::npos) << msg;
  EXPECT_EQ(limit_code(with({"fault.dead_ranks=8"}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("not a rank"), std::string::npos) << msg;
  EXPECT_EQ(limit_code(with({"fault.dead_ranks=0-7", "fault.scale_down=1"}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("no MoE expert rank"), std::string::npos) << msg;
  EXPECT_EQ(
      limit_code({"ep.world_size=8", "dispatch.experts=12", "dispatch.shared_experts=1",
                  "dispatch.shared_expert_ranks=2", "fault.dead_ranks=0,1", "fault.scale_down=1"},
                 &msg),
      kExitBadInput);
  EXPECT_NE(msg.find("shared-expert ranks left"), std::string::npos) << msg;
  EXPECT_EQ(limit_code(with({"dispatch.mask=2d", "dispatch.active_tokens=3"})), kExitBadInput);
  EXPECT_EQ(limit_code(with({"dispatch.mask=2d", "dispatch.send_split=token"}), &msg),
            kExitBadInput);
  EXPECT_NE(msg.find("fullmesh_v2"), std::string::npos) << msg;
  EXPECT_EQ(limit_code(with({"dispatch.smooth_scales=1", "dispatch.quant=none"})), kExitBadInput);
  EXPECT_EQ(limit_code(with({"dispatch.smooth_scales=1", "dispatch.quant_before_send=0"})),
            kExitBadInput);
  EXPECT_EQ(limit_code(with({"dispatch.zero_experts=1025"})), kExitBadInput);
  EXPECT_EQ(limit_code(with({"dispatch.tp=2"}), &msg), kExitBadInput);  // L = 2 here
  EXPECT_NE(msg.find("tp = 2 needs one MoE expert per MoE rank"), std::string::npos) << msg;
  EXPECT_EQ(run_scenario("alltoallv_dispatch", with({"dispatch.copy_experts=1"})).exit_code,
            kExitBadInput);
  EXPECT_EQ(run_scenario(
                "moe", with({"moe.dispatch=alltoallv", "fault.dead_ranks=1", "fault.scale_down=1"}))
                .exit_code,
            kExitBadInput);
}

// --check across the V3 matrix (each run in its own process: expect_check).
std::vector<std::string> small(int ep, int experts, std::vector<std::string> more) {
  std::vector<std::string> v = {"ep.world_size=" + std::to_string(ep),
                                "dispatch.experts=" + std::to_string(experts), "dispatch.bs=12",
                                "dispatch.hidden=1024", "dispatch.topk=4"};
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

TEST(V3Check, EverySpecialExpertMixIncludingAllSpecialTokens) {
  for (const char* kernel : {"dispatch", "combine"}) {
    expect_check(kernel, small(3, 6, {"dispatch.zero_experts=2"}));
    expect_check(kernel, small(5, 10, {"dispatch.copy_experts=1", "dispatch.topk=4"}));
    expect_check(kernel, small(4, 8, {"dispatch.const_experts=3", "dispatch.dtype=fp16"}));
    expect_check(kernel, small(3, 6,
                               {"dispatch.const_experts=2", "dispatch.special_weight=4",
                                "combine.const_alpha=softmax"}));
    // Every token picks special experts only (K = 4 of 8 specials, weight 1e9).
    expect_check(kernel, small(7, 14,
                               {"dispatch.zero_experts=3", "dispatch.copy_experts=2",
                                "dispatch.const_experts=3", "dispatch.topk=4",
                                "dispatch.special_weight=1e9"}));
  }
  expect_check("moe", small(5, 10,
                            {"dispatch.zero_experts=1", "dispatch.copy_experts=1",
                             "dispatch.const_experts=1", "dispatch.special_weight=3",
                             "combine.comm_quant=int8"}));
}

TEST(V3Check, TwoDMasksFromAFewEntriesToWholeTokens) {
  for (const char* kernel : {"dispatch", "combine"}) {
    expect_check(kernel, small(3, 6, {"dispatch.mask=2d", "dispatch.mask_rate=0.05"}));
    expect_check(kernel, small(5, 10,
                               {"dispatch.mask=2d", "dispatch.mask_rate=0.5",
                                "dispatch.masked_tokens=4", "dispatch.zero_experts=1"}));
    expect_check(kernel, small(4, 8, {"dispatch.mask=2d", "dispatch.masked_tokens=12"}));
    expect_check(kernel, small(6, 16,
                               {"dispatch.mask=2d", "dispatch.masked_tokens=3",
                                "dispatch.shared_experts=1", "dispatch.shared_expert_ranks=2"}));
  }
  expect_check("moe", small(5, 10,
                            {"dispatch.mask=2d", "dispatch.masked_tokens=2", "moe.layers=2",
                             "dispatch.copy_experts=1"}));
}

TEST(V3Check, ExpertScalesAndSmoothScales) {
  expect_check("dispatch", small(3, 6, {"dispatch.expert_scales=1"}));
  expect_check("dispatch", small(5, 10, {"dispatch.expert_scales=1", "dispatch.send_split=token"}));
  expect_check("dispatch", small(4, 8,
                                 {"dispatch.smooth_scales=1", "dispatch.shared_experts=1",
                                  "dispatch.shared_expert_ranks=1", "dispatch.experts=9"}));
  expect_check("dispatch", small(7, 14,
                                 {"dispatch.smooth_scales=1", "dispatch.expert_scales=1",
                                  "dispatch.mask=2d", "dispatch.send_split=rank"}));
  expect_check("moe", small(5, 10, {"dispatch.smooth_scales=1", "dispatch.expert_scales=1"}));
}

TEST(V3Check, ScaleDownWithSpecialExpertsNumberedFromE0) {
  for (const char* kernel : {"dispatch", "combine", "moe"})
    expect_check(kernel, small(8, 16,
                               {"fault.dead_ranks=2,5", "fault.scale_down=1",
                                "dispatch.zero_experts=1", "dispatch.copy_experts=1",
                                "dispatch.const_experts=1", "dispatch.special_weight=3"}));
}

// Const alphas in the token dtype, as the operator takes them, replay through --input; fp32 ones
// are taken when the dtype holds them exactly, and refused naming the entry when it does not.
TEST(V3Io, ConstAlphasInTheDtypeReplayAndFp32OnesMustBeExact) {
  const std::string dir = ::testing::TempDir() + "/v3_alphas";
  std::filesystem::remove_all(dir);
  std::vector<std::string> s = small(4, 8,
                                     {"dispatch.const_experts=2", "dispatch.dtype=fp16",
                                      "dispatch.special_weight=3", "run.dump_dir=" + dir});
  Outcome first = run_scenario("combine", s);
  ASSERT_EQ(first.exit_code, 0) << first.message;
  npy::Array a1 = npy::read(dir + "/rank0/const_expert_alpha1.npy");
  EXPECT_EQ(a1.dtype, "<f2");
  EXPECT_EQ(a1.shape, std::vector<uint64_t>{2});
  s.back() = "run.input_dir=" + dir;
  Outcome replay = run_scenario("combine", s);
  ASSERT_EQ(replay.exit_code, 0) << replay.message;
  EXPECT_EQ(first.latency_ns(), replay.latency_ns());
  // The same values as fp32: accepted.
  for (int r = 0; r < 4; ++r)
    for (const char* f : {"const_expert_alpha1", "const_expert_alpha2"}) {
      const std::string path = dir + "/rank" + std::to_string(r) + "/" + f + ".npy";
      npy::Array h = npy::read(path);
      std::vector<float> v;
      for (size_t i = 0; i < 2; ++i) {
        uint16_t b;
        std::memcpy(&b, h.bytes.data() + 2 * i, 2);
        v.push_back(AscendC::to_float(AscendC::half::from_bits(b)));
      }
      if (r == 1 && std::string(f) == "const_expert_alpha2") v[1] = 0.1f;  // not an fp16
      npy::write(path, "<f4", {2}, v.data());
    }
  Outcome bad = run_scenario("combine", s);
  EXPECT_EQ(bad.exit_code, kExitBadInput);
  EXPECT_NE(bad.message.find("is not a value of fp16"), std::string::npos) << bad.message;
  const std::string fixed = dir + "/rank1/const_expert_alpha2.npy";
  npy::Array f = npy::read(fixed);
  float v[2];
  std::memcpy(v, f.bytes.data(), 8);
  v[1] = 0.125f;
  npy::write(fixed, "<f4", {2}, v);
  Outcome fp32 = run_scenario("combine", s);
  EXPECT_EQ(fp32.exit_code, 0) << fp32.message;
}

// Under a scale-down the smooth scales keep their (sharedExpertNum + E0, H) shape: a dump writes
// it and --input takes it.
TEST(V3Io, ScaledDownSmoothScalesKeepTheirE0Shape) {
  const std::string dir = ::testing::TempDir() + "/v3_smooth_scaled";
  std::filesystem::remove_all(dir);
  std::vector<std::string> s = small(5, 10,
                                     {"fault.dead_ranks=3", "fault.scale_down=1",
                                      "dispatch.smooth_scales=1", "run.dump_dir=" + dir});
  Outcome first = run_scenario("dispatch", s);
  ASSERT_EQ(first.exit_code, 0) << first.message;
  npy::Array sc = npy::read(dir + "/rank0/scales.npy");
  EXPECT_EQ(sc.shape, (std::vector<uint64_t>{10, 1024}));
  s.back() = "run.input_dir=" + dir;
  Outcome replay = run_scenario("dispatch", s);
  EXPECT_EQ(replay.exit_code, 0) << replay.message;
}

TEST(V3Check, ScaleDownByOneAndBySeveralRanksIncludingASharedExpertRank) {
  for (const char* kernel : {"dispatch", "combine", "moe"}) {
    expect_check(kernel, small(5, 10, {"fault.dead_ranks=3", "fault.scale_down=1"}));
    expect_check(kernel, small(8, 18,
                               {"dispatch.shared_experts=1", "dispatch.shared_expert_ranks=2",
                                "fault.dead_ranks=1,4-5", "fault.scale_down=1",
                                "dispatch.const_experts=1", "dispatch.mask=2d"}));
  }
}

TEST(V3DeadRank, WithoutScaleDownTheRunHangsWithAReportNamingTheDeadRank) {
  for (const char* kernel : {"dispatch", "combine", "moe"}) {
    Outcome o =
        run_scenario(kernel, small(5, 10, {"fault.dead_ranks=3", "sim.poll_timeout_us=200"}));
    EXPECT_EQ(o.exit_code, kExitDeadlock) << kernel;
    EXPECT_NE(o.message.find("dead ranks 3 (fault.dead_ranks)"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("rank 0 waits for"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("from rank 3"), std::string::npos) << o.message;
  }
}

TEST(V3DeadRank, ScaledDownTheStatsShowTheNewGroupAndTheHealthyLatency) {
  Outcome o =
      run_scenario("dispatch", small(5, 10, {"fault.dead_ranks=1,3", "fault.scale_down=1"}));
  ASSERT_EQ(o.exit_code, 0) << o.message;
  ASSERT_EQ(o.stats["kernels"].size(), 2u);
  EXPECT_EQ(o.stats["kernels"][0]["name"], "healthy:dispatch");
  const nlohmann::json& el = o.kernel()["elastic"];
  EXPECT_EQ(el["world_size"], 3);
  EXPECT_EQ(el["world_size_before"], 5);
  EXPECT_EQ(el["table2"], (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(el["healthy_latency_ns"], o.stats["kernels"][0]["latency_ns"]);
  EXPECT_EQ(el["latency_ns"], o.kernel()["latency_ns"]);
  // The dead dies ran nothing.
  EXPECT_EQ(o.kernel()["rank_latency_ns"][1], 0.0);
  EXPECT_EQ(o.kernel()["rank_latency_ns"][3], 0.0);
  EXPECT_GT(o.kernel()["rank_latency_ns"][4], 0.0);
}

TEST(V3TimingOnly, EveryFeatureOnGivesExactlyTheTimingOfThePayloadRun) {
  const std::vector<std::string> all = {"dispatch.zero_experts=1",  "dispatch.copy_experts=1",
                                        "dispatch.const_experts=1", "dispatch.mask=2d",
                                        "dispatch.masked_tokens=2", "dispatch.expert_scales=1",
                                        "dispatch.smooth_scales=1"};
  for (const char* kernel : {"dispatch", "combine", "moe"}) {
    auto sets = small(6, 15, all);
    sets.insert(sets.end(), {"dispatch.shared_experts=1", "dispatch.shared_expert_ranks=1",
                             "fault.dead_ranks=2", "fault.scale_down=1", "run.check=0"});
    Outcome full = run_scenario(kernel, sets);
    sets.push_back("sim.payload=0");
    Outcome timing = run_scenario(kernel, sets);
    ASSERT_EQ(full.exit_code, 0) << full.message;
    ASSERT_EQ(timing.exit_code, 0) << timing.message;
    for (size_t i = 0; i < full.stats["kernels"].size(); ++i)
      for (const char* key : {"latency_ns", "rank_latency_ns", "ports"})
        EXPECT_EQ(full.stats["kernels"][i][key], timing.stats["kernels"][i][key])
            << kernel << " launch " << i << " " << key;
  }
}

}  // namespace
}  // namespace ascend::test
