// MoeDistributeCombine, the moe round trip and the alltoallv baseline: tiling, the golden
// reference on a hand-computed case, communication quantization's error, the check across
// configurations, the round trip's identity property, and timing properties.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "api/numeric.h"
#include "kernels/combine/combine_golden.h"
#include "kernels/combine/combine_tiling.h"
#include "sim/npy.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace ascend::test {
namespace {

using AscendC::RoundMode;

TEST(CombineTiling, SlotAndWireBytesFollowTheDocumentedLayout) {
  combine::Attrs a;  // H 7168
  EXPECT_EQ(combine::slot_bytes(a), 14336u);
  EXPECT_EQ(combine::wire_bytes(a), 14336u);
  a.comm_quant = true;  // Align32(H) int8 + 2 x Align16(H) / 8 scale bytes
  EXPECT_EQ(combine::wire_bytes(a), 7168u + 1792);
  a.d.hidden = 1030;
  EXPECT_EQ(combine::wire_bytes(a), 1056u + 260);
  a.d.shared_experts = 1;  // a local shared expert (S = 0) has no window slot
  EXPECT_EQ(combine::slots_per_token(a.d), a.d.topk);
  a.d.shared_expert_ranks = 2;
  EXPECT_EQ(combine::slots_per_token(a.d), a.d.topk + 1);
}

TEST(CombineTiling, OptionsOutsideTheirLimitsAreBadInput) {
  auto code = [](std::function<void(combine::Attrs&)> f) {
    combine::Attrs a;
    f(a);
    try {
      combine::validate(a);
    } catch (const SimError& e) {
      return static_cast<int>(e.code);
    }
    return 0;
  };
  EXPECT_EQ(code([](combine::Attrs&) {}), 0);
  EXPECT_EQ(code([](combine::Attrs& a) { a.receiver = "fastest"; }), kExitBadInput);
  EXPECT_EQ(code([](combine::Attrs& a) { a.rows_per_barrier = 0; }), kExitBadInput);
  EXPECT_EQ(code([](combine::Attrs& a) {
              a.shared_expert_x = true;
              a.d.shared_experts = 1;
              a.d.shared_expert_ranks = 2;
              a.d.experts = 252;
            }),
            kExitBadInput);  // sharedExpertX only without shared-expert ranks
  EXPECT_EQ(code([](combine::Attrs& a) { a.d.topk = 17; }), kExitBadInput);  // dispatch's limits
}

// The dispatch worked example ([OLD]) on the way back: W = 2, E = 4, BS = 2, K = 2.
// Every expert output row is a constant, so x_out is a hand-computed weighted sum.
TEST(CombineGolden, TheWorkedExampleSumsTheWeightedExpertOutputs) {
  combine::Attrs a;
  a.d.ep = 2;
  a.d.experts = 4;
  a.d.bs = 2;
  a.d.topk = 2;
  a.d.hidden = 16;
  std::vector<combine::RankInputs> in(2);
  in[0].ids = {0, 2, 1, 2};
  in[1].ids = {3, 0, 0, 1};
  in[0].assist = {0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1};  // rank 0's five rows
  in[0].ep_send_counts = {1, 3, 4, 5};
  in[1].assist = {0, 0, 1, 0, 1, 1, 1, 0, 0};  // rank 1's three rows
  in[1].ep_send_counts = {2, 2, 2, 3};
  for (int r = 0; r < 2; ++r) {
    int rows = in[r].rows_to_send();
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < 16; ++j) in[r].expand_x.push_back(to_bf(10.0f * r + i + 1));
  }
  in[0].expert_scales = {0.75f, 0.25f, 0.5f, 0.5f};
  in[1].expert_scales = {1.0f, 2.0f, 0.25f, 4.0f};
  auto out = combine::golden(a, true, in);
  // Rank 0 token 0: (0,0,0) is rank 0 row 0 (1), (0,0,1) is rank 1 row 0 (11).
  EXPECT_EQ(bf(out[0][0]), 0.75f * 1 + 0.25f * 11);
  // Rank 0 token 1: (0,1,0) is rank 0 row 3 (4), (0,1,1) is rank 1 row 1 (12).
  EXPECT_EQ(bf(out[0][16]), 0.5f * 4 + 0.5f * 12);
  // Rank 1 token 0: (1,0,0) is rank 1 row 2 (13), (1,0,1) is rank 0 row 1 (2).
  EXPECT_EQ(bf(out[1][0]), 1.0f * 13 + 2.0f * 2);
  // Rank 1 token 1: (1,1,0) is rank 0 row 2 (3), (1,1,1) is rank 0 row 4 (5).
  EXPECT_EQ(bf(out[1][31]), 0.25f * 3 + 4.0f * 5);
}

TEST(CombineGolden, TriplesThatMissOrRepeatASlotAreBadInput) {
  combine::Attrs a;
  a.d.ep = 2;
  a.d.experts = 2;
  a.d.bs = 1;
  a.d.topk = 1;
  a.d.hidden = 16;
  std::vector<combine::RankInputs> in(2);
  for (auto& r : in) {
    r.ids = {0};
    r.expert_scales = {1.0f};
  }
  in[0].assist = {0, 0, 0, 1, 0, 0};
  in[0].ep_send_counts = {1, 2};
  in[1].ep_send_counts = {0, 0};
  EXPECT_NO_THROW(combine::locate(a, in));
  in[0].assist = {0, 0, 0, 0, 0, 0};  // rank 0's token twice, rank 1's never
  try {
    combine::locate(a, in);
    ADD_FAILURE() << "duplicate triple accepted";
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput);
    EXPECT_NE(std::string(e.what()).find("duplicates"), std::string::npos) << e.what();
  }
  in[0].assist = {0, 0, 0, 1, 0, 0};
  in[0].ep_send_counts = {1, 1};  // rank 1's token is never sent back
  EXPECT_THROW(combine::locate(a, in), SimError);
}

// Communication quantization: each element comes back within 0.8 of its block's scale step
// (half a step for the int8 rounding, up to 127 x 2^-9 steps for the scale rounded to bf16, and
// the fp16 rounding of x / s) plus half a bf16 ulp; the scale is rounded for dequantization only.
TEST(CombineGolden, CommQuantErrorStaysWithinTheBlockScale) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  const int h = 1030;
  std::vector<uint16_t> x(h), back(h), scales(1040 / 8);
  for (auto& v : x) v = to_bf(dist(rng) * (dist(rng) > 2.5f ? 40.0f : 1.0f));
  std::fill(x.begin() + 16, x.begin() + 24, to_bf(0.0f));  // an all-zero block stays zero
  std::vector<int8_t> q(1040);
  combine::comm_quantize(x.data(), h, true, q.data(), scales.data());
  combine::comm_dequantize(q.data(), scales.data(), h, true, back.data());
  int inexact = 0;
  for (int i = 0; i < h; ++i) {
    float m = 0;
    for (int j = i / 8 * 8; j < std::min(h, i / 8 * 8 + 8); ++j)
      m = std::max(m, std::fabs(bf(x[j])));
    float step = m / 127.0f, err = std::fabs(bf(back[i]) - bf(x[i]));
    EXPECT_LE(err, 0.8f * step + std::fabs(bf(x[i])) / 256.0f) << "element " << i;
    EXPECT_LE(std::abs(static_cast<int>(q[i])), 127);
    inexact += err > 0;
  }
  for (int i = 16; i < 24; ++i) EXPECT_EQ(bf(back[i]), 0.0f);
  EXPECT_GT(inexact, h / 4);  // it is a lossy path, not a copy
}

// --check across configurations (each in its own process: expect_check).
const std::vector<std::string> kSmall = {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=16",
                                         "dispatch.hidden=1024"};

TEST(CombineCheck, ShapesTopKAndDtypes) {
  expect_check("combine", {"ep.world_size=2", "dispatch.experts=2", "dispatch.bs=1",
                           "dispatch.topk=1", "dispatch.hidden=1024"});
  expect_check("combine", {"ep.world_size=2", "dispatch.experts=48", "dispatch.bs=7",
                           "dispatch.topk=16", "dispatch.hidden=1024"});
  expect_check("combine", {"ep.world_size=4", "dispatch.experts=24", "dispatch.bs=7",
                           "dispatch.topk=6", "dispatch.hidden=4096", "dispatch.dtype=fp16"});
  expect_check("combine", {"ep.world_size=8", "dispatch.experts=64", "dispatch.bs=32",
                           "dispatch.hidden=7168"});
}

TEST(CombineCheck, CommunicationQuantization) {
  expect_check("combine", with(kSmall, {"combine.comm_quant=int8"}));
  expect_check("combine", with(kSmall, {"combine.comm_quant=int8", "dispatch.dtype=fp16",
                                        "dispatch.hidden=1030"}));
  expect_check("combine", with(kSmall, {"combine.comm_quant=int8", "dispatch.hidden=8192"}));
}

TEST(CombineCheck, SharedExpertsMasksAndSkew) {
  expect_check("combine", {"ep.world_size=8", "dispatch.shared_experts=2",
                           "dispatch.shared_expert_ranks=4", "dispatch.experts=8", "dispatch.bs=9",
                           "dispatch.hidden=1024", "combine.comm_quant=int8"});
  expect_check("combine", with(kSmall, {"dispatch.shared_experts=1", "combine.shared_expert_x=1"}));
  expect_check("combine", with(kSmall, {"dispatch.active_tokens=5"}));
  expect_check("combine", with(kSmall, {"dispatch.active_tokens=0"}));
  expect_check("combine", with(kSmall, {"dispatch.routing=zipf:3", "dispatch.bs=64"}));
}

TEST(CombineCheck, ReceiverStrategyBarrierRowsAndBuffers) {
  expect_check("combine", with(kSmall, {"combine.receiver=ready_first"}));
  expect_check("combine", with(kSmall, {"combine.rows_per_barrier=4"}));
  expect_check("combine", with(kSmall, {"combine.buffer_num=1", "combine.comm_quant=int8"}));
}

TEST(MoeCheck, RoundTripsWithBothDispatchesQuantizationsAndLayers) {
  expect_check("moe", kSmall);
  expect_check("moe", with(kSmall, {"combine.comm_quant=int8", "dispatch.dtype=fp16"}));
  expect_check("moe", with(kSmall, {"moe.layers=3", "dispatch.active_tokens=9"}));
  expect_check("moe", {"ep.world_size=8", "dispatch.shared_experts=1",
                       "dispatch.shared_expert_ranks=2", "dispatch.experts=24", "dispatch.bs=16",
                       "dispatch.hidden=1024", "dispatch.quant=none"});
  expect_check("moe", with(kSmall, {"moe.dispatch=alltoallv", "dispatch.routing=zipf:2"}));
  expect_check("alltoallv_dispatch", with(kSmall, {"dispatch.quant=none", "dispatch.dtype=fp16",
                                                   "dispatch.hidden=1030"}));
}

// The round trip with the identity expert and weights 1/K: x_out against x, read back from
// --dump. Unquantized with K = 1 it is bit-exact; through int8 every K slot carries the same
// dequantized row, so x_out differs from x by that row's error: at most max|x_t| / 254 (half an
// int8 step) plus half a bf16 ulp of the rounded row.
struct RoundTrip {
  std::vector<float> x, out, token_max;
};
RoundTrip round_trip(const std::vector<std::string>& sets) {
  static int runs = 0;
  std::string dir = std::filesystem::temp_directory_path() /
                    ("ascend_moe_" + std::to_string(::getpid()) + "_" + std::to_string(runs++));
  Outcome o = run_scenario("moe", with(sets, {"run.dump_dir=" + dir}));
  EXPECT_EQ(o.exit_code, 0) << o.message;
  RoundTrip rt;
  for (int r = 0; r < 4; ++r) {
    npy::Array x = npy::read(dir + "/dispatch/rank" + std::to_string(r) + "/x.npy");
    npy::Array y = npy::read(dir + "/combine/rank" + std::to_string(r) + "/x_out.npy");
    EXPECT_EQ(x.bytes.size(), y.bytes.size());
    size_t h = x.shape[1];
    for (size_t i = 0; i < x.bytes.size() / 2; ++i) {
      uint16_t a, b;
      std::memcpy(&a, &x.bytes[2 * i], 2);
      std::memcpy(&b, &y.bytes[2 * i], 2);
      rt.x.push_back(bf(a));
      rt.out.push_back(bf(b));
      if (i % h == 0) rt.token_max.push_back(0);
      rt.token_max.back() = std::max(rt.token_max.back(), std::fabs(bf(a)));
    }
  }
  std::filesystem::remove_all(dir);
  return rt;
}

TEST(MoeRoundTrip, IdentityExpertsGiveTheTokenBackBitExactlyUnquantizedWithTopOne) {
  RoundTrip rt =
      round_trip(with(kSmall, {"moe.expert_transform=identity", "combine.expert_scales=uniform",
                               "dispatch.quant=none", "dispatch.topk=1"}));
  ASSERT_FALSE(rt.x.empty());
  for (size_t i = 0; i < rt.x.size(); ++i) ASSERT_EQ(rt.out[i], rt.x[i]) << "element " << i;
}

TEST(MoeRoundTrip, IdentityExpertsThroughInt8StayWithinTheQuantizationBound) {
  RoundTrip rt =
      round_trip(with(kSmall, {"moe.expert_transform=identity", "combine.expert_scales=uniform",
                               "dispatch.quant=int8", "dispatch.topk=8"}));
  ASSERT_FALSE(rt.x.empty());
  size_t h = rt.x.size() / rt.token_max.size();
  double worst = 0;
  int inexact = 0;
  for (size_t i = 0; i < rt.x.size(); ++i) {
    float bound = rt.token_max[i / h] / 254.0f * 1.001f + std::fabs(rt.x[i]) / 256.0f;
    float err = std::fabs(rt.out[i] - rt.x[i]);
    ASSERT_LE(err, bound) << "element " << i;
    worst = std::max<double>(worst, err / rt.token_max[i / h]);
    inexact += err > 0;
  }
  EXPECT_GT(inexact, 0);        // the int8 path is lossy...
  EXPECT_LT(worst, 1.0 / 127);  // ...by less than one int8 step of the token
}

TEST(MoeRoundTrip, TheExpertTransformDiffersPerExpertSoTheCheckSeesMisrouting) {
  RoundTrip id = round_trip(with(kSmall, {"moe.expert_transform=identity", "dispatch.topk=1",
                                          "dispatch.quant=none", "combine.expert_scales=uniform"}));
  RoundTrip per =
      round_trip(with(kSmall, {"moe.expert_transform=per_expert", "dispatch.topk=1",
                               "dispatch.quant=none", "combine.expert_scales=uniform"}));
  ASSERT_EQ(id.x, per.x);
  int differ = 0;
  for (size_t i = 0; i < id.out.size(); ++i) differ += id.out[i] != per.out[i];
  EXPECT_GT(differ, static_cast<int>(id.out.size() / 2));
}

double latency_of(const std::string& kernel, const std::vector<std::string>& sets) {
  Outcome o = run_scenario(kernel, sets);
  EXPECT_EQ(o.exit_code, 0) << o.message;
  return o.exit_code == 0 ? o.latency_ns() : 0;
}
const std::vector<std::string> kTiming = {"ep.world_size=8", "dispatch.experts=64",
                                          "dispatch.hidden=4096", "dispatch.bs=32", "run.check=0"};

TEST(CombineTiming, CombiningWhicheverTokenIsReadyIsNeverSlowerThanWaitingInOrder) {
  for (const std::vector<std::string>& extra :
       std::vector<std::vector<std::string>>{{},
                                             {"dispatch.routing=zipf:2"},
                                             {"combine.delay_rank=3", "combine.delay_us=10"},
                                             {"combine.comm_quant=int8", "dispatch.bs=64"}}) {
    double in_order =
        latency_of("combine", with(kTiming, with(extra, {"combine.receiver=in_order"})));
    double ready =
        latency_of("combine", with(kTiming, with(extra, {"combine.receiver=ready_first"})));
    EXPECT_LE(ready, in_order) << (extra.empty() ? "" : extra[0]);
  }
}

// K = 1 and one expert per rank, balanced routing: token t of rank r goes to rank (16 r + t) mod
// 4, and with 16 tokens on 16 cores each core combines exactly one token. When rank 2 starts
// sending 20 us late, only the cores whose token went to rank 2 wait for it.
TEST(CombineTiming, ADelayedRankDelaysOnlyTheTokensThatDependOnIt) {
  Outcome o = run_scenario(
      "combine", {"ep.world_size=4", "dispatch.experts=4", "dispatch.topk=1", "dispatch.bs=16",
                  "dispatch.hidden=1024", "dispatch.routing=balanced", "die.aiv_count=16",
                  "combine.delay_rank=2", "combine.delay_us=20"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  const nlohmann::json& wait = o.kernel()["core_wait_ns"];
  for (int r : {0, 1, 3})
    for (int c = 0; c < 16; ++c) {
      bool depends = (16 * r + c) % 4 == 2;
      double w = wait[r][c].get<double>();
      if (depends) {
        EXPECT_GT(w, 15000.0) << "rank " << r << " core " << c;
      } else {
        EXPECT_LT(w, 10000.0) << "rank " << r << " core " << c;  // a few round trips at most
      }
    }
}

TEST(CombineTiming, CommQuantizationHalvesTheBytesOnTheLinks) {
  auto remote = [](const Outcome& o) {
    uint64_t sum = 0;
    for (const auto& [cls, bytes] : o.kernel()["link_class_bytes"].items())
      if (cls != "local") sum += bytes.get<uint64_t>();
    return sum;
  };
  Outcome none = run_scenario("combine", kTiming);
  Outcome q = run_scenario("combine", with(kTiming, {"combine.comm_quant=int8"}));
  ASSERT_EQ(none.exit_code, 0);
  ASSERT_EQ(q.exit_code, 0);
  EXPECT_LT(remote(q) * 1.5, remote(none));  // 4096 + 1024 vs 8192 B per row, plus flags
  EXPECT_GT(remote(q) * 2, remote(none));
}

TEST(CombineTimingOnly, GivesExactlyTheTimingOfTheFullRun) {
  Outcome full = run_scenario("combine", with(kTiming, {"combine.comm_quant=int8"}));
  Outcome timing =
      run_scenario("combine", with(kTiming, {"combine.comm_quant=int8", "sim.payload=0"}));
  ASSERT_EQ(full.exit_code, 0) << full.message;
  ASSERT_EQ(timing.exit_code, 0) << timing.message;
  for (const char* key : {"latency_ns", "rank_latency_ns", "phase_max_over_cores", "ports"})
    EXPECT_EQ(full.kernel()[key], timing.kernel()[key]) << key;
}

}  // namespace
}  // namespace ascend::test

#include "kernels/combine/combine_host.h"

namespace ascend::test {
namespace {

TEST(CombineCheckReport, NamesTensorRankRowAndColumnAndCatchesWritesToInactiveRows) {
  Bench b;
  combine::Attrs a;
  a.d.bs = 2;
  a.d.hidden = 16;
  combine::RankBuffers bufs{};
  bufs.x_out = b.alloc(64);
  std::vector<uint16_t> want(32, 0);
  want[19] = 0x3f80;  // row 1, column 3
  EXPECT_EQ(combine::compare(a, want, b.sim(), bufs, 0, 0, 2),
            "tensor x_out, call 0, rank 0, row 1, column 3: bits 0x0000, golden 0x3f80");
  uint16_t one = 0x3f80;
  b.sim().write(bufs.x_out + 2 * 19, &one, 2);
  EXPECT_EQ(combine::compare(a, want, b.sim(), bufs, 0, 0, 2), "");
  EXPECT_NE(combine::compare(a, want, b.sim(), bufs, 0, 0, 1).find("an inactive token's row"),
            std::string::npos);  // token 1 is inactive: its row must stay untouched
}

}  // namespace
}  // namespace ascend::test
