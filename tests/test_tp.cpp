// TP = 2 ([OLD]): dispatch's AllGatherV and combine's
// ReduceScatterV (2.4) between the two dies of a chip. A hand-computed worked example, the check
// across EP sizes (odd ones included) and features, timing-only runs, the documented limits.
#include <algorithm>
#include <cstring>

#include "api/numeric.h"
#include "kernels/combine/combine_golden.h"
#include "kernels/combine/combine_host.h"
#include "kernels/dispatch/dispatch_golden.h"
#include "kernels/dispatch/dispatch_host.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace ascend::test {
namespace {

using AscendC::RoundMode;
using dispatch::Attrs;

// W 2, E 2 (L 1, as tp = 2 needs), BS 3, K 1, no quantization, 4 dies: die g is EP rank g / 2
// of EP group g % 2, its TP peer is g ^ 1. Token t of die g has every element's bits
// g x 4096 + t x 1024 + i, so a row's first element names its die and token.
Attrs tp_attrs() {
  Attrs a;
  a.ep = 2;
  a.tp = 2;
  a.experts = 2;
  a.bs = 3;
  a.topk = 1;
  a.hidden = 1024;
  a.quant = false;
  a.cores = 48;
  return a;
}
std::vector<dispatch::RankInputs> tp_inputs() {
  std::vector<dispatch::RankInputs> in(4);
  in[0].ids = {0, 1, 0};  // EP group 0, EP rank 0
  in[1].ids = {1, 0, 1};  // EP group 1, EP rank 0
  in[2].ids = {1, 1, 0};  // EP group 0, EP rank 1
  in[3].ids = {0, 0, 0};  // EP group 1, EP rank 1
  for (int g = 0; g < 4; ++g) {
    in[g].x.resize(3 * 1024);
    for (int t = 0; t < 3; ++t)
      for (int i = 0; i < 1024; ++i)
        in[g].x[t * 1024 + i] = static_cast<uint16_t>(g * 4096 + t * 1024 + i);
  }
  return in;
}

// By hand. EP group 0 (dies 0 and 2): die 0 (expert 0) receives die 0's tokens 0 and 2 and die
// 2's token 2 (epRecvCounts [2, 3]); die 2 (expert 1) receives die 0's token 1 and die 2's
// tokens 0 and 1 ([1, 3]). EP group 1 (dies 1 and 3): die 1 (expert 0) receives die 1's token 1
// and die 3's tokens 0, 1, 2 ([1, 4]); die 3 (expert 1) receives die 1's tokens 0 and 2 ([2,
// 2]). After the AllGatherV each die's rows continue with its peer's, epRecvCounts with the
// peer's counts, tpRecvCounts is {TP rank 0's total, TP rank 1's} and expertTokenNums counts
// both; the triples (srcEpRank, token, k) stay the own rows'.
struct Expected {
  std::vector<int> first;  // the first element of each expandX row
  std::vector<int32_t> triples, ep_recv, tp_recv;
  int64_t token_nums;
};
const Expected kExpected[4] = {
    {{0, 2048, 10240, 5120, 12288, 13312, 14336},
     {0, 0, 0, 0, 2, 0, 1, 2, 0},
     {2, 3, 1, 4},
     {3, 4},
     7},
    {{5120, 12288, 13312, 14336, 0, 2048, 10240},
     {0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 2, 0},
     {1, 4, 2, 3},
     {3, 4},
     7},
    {{1024, 8192, 9216, 4096, 6144}, {0, 1, 0, 1, 0, 0, 1, 1, 0}, {1, 3, 2, 2}, {3, 2}, 5},
    {{4096, 6144, 1024, 8192, 9216}, {0, 0, 0, 0, 2, 0}, {2, 2, 1, 3}, {3, 2}, 5},
};

TEST(TpWorkedExample, TheGoldenAppendsThePeersRowsAndCounts) {
  auto want = dispatch::golden(tp_attrs(), true, tp_inputs());
  ASSERT_EQ(want.size(), 4u);
  for (int g = 0; g < 4; ++g) {
    const Expected& e = kExpected[g];
    EXPECT_EQ(want[g].rows + want[g].peer_rows, static_cast<int>(e.first.size())) << g;
    for (size_t r = 0; r < e.first.size(); ++r) {
      uint16_t v;
      std::memcpy(&v, &want[g].expand_x[r * 2048], 2);
      EXPECT_EQ(v, e.first[r]) << "die " << g << " row " << r;
    }
    EXPECT_EQ(want[g].assist_info, e.triples) << g;
    EXPECT_EQ(want[g].ep_recv_counts, e.ep_recv) << g;
    EXPECT_EQ(want[g].tp_recv_counts, e.tp_recv) << g;
    EXPECT_EQ(want[g].expert_token_nums, std::vector<int64_t>{e.token_nums}) << g;
  }
}

TEST(TpWorkedExample, TheKernelGivesTheHandComputedOutputs) {
  Bench b({}, 4);
  Attrs a = tp_attrs();
  auto in = tp_inputs();
  dispatch::Execution ex = dispatch::execute(b.sim(), a, true, {in}, {});
  for (int g = 0; g < 4; ++g) {
    const Expected& e = kExpected[g];
    const dispatch::RankBuffers& buf = ex.bufs[0][g];
    std::vector<uint16_t> rows(e.first.size() * 1024);
    b.sim().read(buf.expand_x, rows.data(), rows.size() * 2);
    for (size_t r = 0; r < e.first.size(); ++r)
      EXPECT_EQ(rows[r * 1024], e.first[r]) << "die " << g << " row " << r;
    std::vector<int32_t> triples(e.triples.size()), recv(4), tp(2);
    int64_t nums = 0;
    b.sim().read(buf.assist, triples.data(), triples.size() * 4);
    b.sim().read(buf.recv_counts, recv.data(), 16);
    b.sim().read(buf.tp_recv_counts, tp.data(), 8);
    b.sim().read(buf.token_nums, &nums, 8);
    EXPECT_EQ(triples, e.triples) << g;
    EXPECT_EQ(recv, e.ep_recv) << g;
    EXPECT_EQ(tp, e.tp_recv) << g;
    EXPECT_EQ(nums, e.token_nums) << g;
  }
  auto want = dispatch::golden(a, true, in);
  for (int g = 0; g < 4; ++g)
    EXPECT_EQ(dispatch::compare(a, want[g], b.sim(), ex.bufs[0][g], g, 0), "");
}

// Combine ([OLD]) with W 2, E 2 (L 1), BS 1, K 2: every token picks experts 0 and 1
// with weights (1, 0.5). Dispatch laid the rows out as: die 0 (EP rank 0 of group 0) holds
// (0, 0, 0) and (1, 0, 0), die 2 (EP rank 1) holds (0, 0, 1) and (1, 0, 1); dies 1 and 3 the same
// in group 1; each die's rows 2 and 3 are its partial results for its TP peer's rows 0 and 1.
// Expert outputs are constants per row: die 0 (1, 2 | 3, 4), die 1 (10, 20 | 30, 40), die 2
// (5, 6 | 7, 8), die 3 (50, 60 | 70, 80).
combine::Attrs tp_combine_attrs() {
  combine::Attrs a;
  a.d = tp_attrs();
  a.d.bs = 1;
  a.d.topk = 2;
  return a;
}
std::vector<combine::RankInputs> tp_combine_inputs() {
  const float rows[4][4] = {{1, 2, 3, 4}, {10, 20, 30, 40}, {5, 6, 7, 8}, {50, 60, 70, 80}};
  std::vector<combine::RankInputs> in(4);
  for (int g = 0; g < 4; ++g) {
    in[g].ids = {0, 1};
    in[g].expert_scales = {1.0f, 0.5f};
    const int k = g / 2;  // the EP rank holds expert k: the token's slot k
    in[g].assist = {0, 0, k, 1, 0, k};
    in[g].ep_send_counts = {1, 2, 1, 2};
    in[g].tp_send_counts = {2, 2};
    for (float v : rows[g]) in[g].expand_x.insert(in[g].expand_x.end(), 1024, to_bf(v));
  }
  return in;
}

// By hand: the ReduceScatterV makes die 0's rows 1 + 30 = 31 and 2 + 40 = 42, die 1's 10 + 3 = 13
// and 20 + 4 = 24, die 2's 5 + 70 = 75 and 6 + 80 = 86, die 3's 50 + 7 = 57 and 60 + 8 = 68.
// Die 0's token gets 31 (its slot 0, from die 0) x 1 + 75 (slot 1, from die 2) x 0.5 = 68.5; die
// 1: 13 + 57 / 2 = 41.5; die 2: 42 + 86 / 2 = 85; die 3: 24 + 68 / 2 = 58 (all exact in bf16).
const float kCombined[4] = {68.5f, 41.5f, 85.0f, 58.0f};

TEST(TpWorkedExample, TheCombineGoldenAddsThePeersPartialRowsBeforeTheEpReturn) {
  auto out = combine::golden(tp_combine_attrs(), true, tp_combine_inputs());
  ASSERT_EQ(out.size(), 4u);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(bf(out[g][0]), kCombined[g]) << g;
    EXPECT_EQ(bf(out[g][1023]), kCombined[g]) << g;
  }
}

TEST(TpWorkedExample, TheCombineKernelGivesTheHandComputedOutputs) {
  Bench b({}, 4);
  combine::Attrs a = tp_combine_attrs();
  auto in = tp_combine_inputs();
  combine::Execution ex = combine::execute(b.sim(), a, true, {in}, {});
  for (int g = 0; g < 4; ++g) {
    std::vector<uint16_t> x(1024);
    b.sim().read(ex.bufs[0][g].x_out, x.data(), 2048);
    EXPECT_EQ(bf(x[0]), kCombined[g]) << g;
    EXPECT_EQ(bf(x[1023]), kCombined[g]) << g;
  }
  EXPECT_EQ(combine::check(a, true, {in}, b.sim(), ex), "");
}

// CustomAdd: bf16 adds in fp32 and rounds (RINT) to bf16, fp16 adds natively. 1 + 2^-8 is a tie
// on the bf16 grid (8 significant bits): even, 1; fp16 holds it (11 bits). 1 + 3 x 2^-8 rounds up.
TEST(TpWorkedExample, ThePartialSumsRoundAsTheKernelsCustomAdd) {
  EXPECT_EQ(bf(combine::tp_add(to_bf(1.0f), to_bf(1.0f / 256), true)), 1.0f);
  EXPECT_EQ(bf(combine::tp_add(to_bf(1.0f), to_bf(3.0f / 256), true)), 1.0f + 1.0f / 64);
  const uint16_t one = AscendC::to_half(1.0f, RoundMode::CAST_RINT).bits;
  const uint16_t tiny = AscendC::to_half(1.0f / 256, RoundMode::CAST_RINT).bits;
  EXPECT_EQ(AscendC::to_float(AscendC::half::from_bits(combine::tp_add(one, tiny, false))),
            1.0f + 1.0f / 256);
}

TEST(TpWorkedExample, CombineRefusesTpSendCountsThatDisagreeWithThePeersRows) {
  auto in = tp_combine_inputs();
  in[1].tp_send_counts = {2, 1};
  try {
    combine::locate(tp_combine_attrs(), in);
    ADD_FAILURE() << "inconsistent tp_send_counts accepted";
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput);
    EXPECT_NE(std::string(e.what()).find("tp_send_counts"), std::string::npos) << e.what();
  }
}

// --check across EP sizes and features (each run in its own process). L = 1: E = W - S.
std::vector<std::string> tp2(int ep, int experts, std::vector<std::string> more) {
  std::vector<std::string> v = {"ep.world_size=" + std::to_string(ep),
                                "dispatch.experts=" + std::to_string(experts),
                                "dispatch.tp=2",
                                "dispatch.bs=12",
                                "dispatch.hidden=1024",
                                "dispatch.topk=3"};
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

TEST(TpCheck, DispatchAtSeveralEpSizesAndFeatures) {
  expect_check("dispatch", tp2(2, 2, {"dispatch.topk=2"}));
  expect_check("dispatch", tp2(3, 3, {}));
  expect_check("dispatch", tp2(4, 4, {"dispatch.quant=none", "dispatch.dtype=fp16"}));
  expect_check("dispatch", tp2(5, 4,
                               {"dispatch.shared_experts=1", "dispatch.shared_expert_ranks=1",
                                "dispatch.token_nums_type=0"}));
  expect_check("dispatch", tp2(7, 7, {"dispatch.routing=zipf:1.2", "dispatch.active_tokens=5"}));
  expect_check("dispatch", tp2(6, 4,
                               {"dispatch.shared_experts=2", "dispatch.shared_expert_ranks=2",
                                "dispatch.calls=2"}));
  expect_check("dispatch", tp2(5, 5,
                               {"dispatch.mask=2d", "dispatch.masked_tokens=3",
                                "dispatch.zero_experts=1", "dispatch.copy_experts=1",
                                "dispatch.expert_scales=1", "dispatch.smooth_scales=1"}));
  expect_check("dispatch", tp2(3, 3, {"dispatch.send_split=token", "dispatch.buffer_num=1"}));
  expect_check("dispatch", tp2(3, 3, {"dispatch.quant_before_send=0", "die.aiv_count=5"}));
}

// Timing-only runs move no hidden state, and time exactly as the payload runs do.
void expect_timing_only_identical(const std::string& kernel, std::vector<std::string> sets) {
  sets.push_back("run.check=0");
  Outcome full = run_scenario(kernel, sets);
  sets.push_back("sim.payload=0");
  Outcome timing = run_scenario(kernel, sets);
  ASSERT_EQ(full.exit_code, 0) << full.message;
  ASSERT_EQ(timing.exit_code, 0) << timing.message;
  ASSERT_EQ(full.stats["kernels"].size(), timing.stats["kernels"].size());
  for (size_t i = 0; i < full.stats["kernels"].size(); ++i)
    for (const char* key : {"latency_ns", "rank_latency_ns", "ports"})
      EXPECT_EQ(full.stats["kernels"][i][key], timing.stats["kernels"][i][key])
          << kernel << " launch " << i << " " << key;
}

TEST(TpCheck, CombineAndTheMoeRoundTripAtSeveralEpSizesAndFeatures) {
  for (const char* kernel : {"combine", "moe"}) {
    expect_check(kernel, tp2(2, 2, {"dispatch.topk=2"}));
    expect_check(kernel, tp2(3, 3, {}));
    expect_check(kernel, tp2(4, 4, {"dispatch.dtype=fp16", "dispatch.quant=none"}));
    expect_check(kernel, tp2(5, 4,
                             {"dispatch.shared_experts=1", "dispatch.shared_expert_ranks=1",
                              "combine.receiver=ready_first", "combine.rows_per_barrier=2"}));
    expect_check(kernel, tp2(7, 7,
                             {"dispatch.mask=2d", "dispatch.masked_tokens=2",
                              "dispatch.zero_experts=1", "dispatch.copy_experts=1",
                              "dispatch.const_experts=1", "dispatch.special_weight=2"}));
    expect_check(kernel, tp2(3, 3, {"combine.shared_expert_x=1", "combine.buffer_num=1"}));
  }
  expect_check("moe", tp2(5, 5,
                          {"moe.layers=2", "dispatch.expert_scales=1", "dispatch.smooth_scales=1",
                           "dispatch.active_tokens=7"}));
  expect_check("moe", tp2(3, 3, {"moe.expert_transform=identity", "dispatch.dtype=fp16"}));
}

TEST(TpTimingOnly, DispatchTimesExactlyAsThePayloadRun) {
  expect_timing_only_identical(
      "dispatch",
      tp2(5, 4,
          {"dispatch.shared_experts=1", "dispatch.shared_expert_ranks=1", "dispatch.mask=2d",
           "dispatch.expert_scales=1", "dispatch.smooth_scales=1"}));
}

// The TP peer's rows cross the die-to-die link, and they cost time: the same EP group with
// tp = 2 takes longer than with tp = 1, and the d2d link carries the records.
TEST(TpTiming, TheAllGatherVCrossesTheDieToDieLinkAndCostsTime) {
  const std::vector<std::string> w = {"ep.world_size=4", "dispatch.experts=4", "dispatch.bs=12",
                                      "dispatch.hidden=1024", "dispatch.topk=3"};
  Outcome one = run_scenario("dispatch", w);
  auto with_tp = w;
  with_tp.push_back("dispatch.tp=2");
  Outcome two = run_scenario("dispatch", with_tp);
  ASSERT_EQ(one.exit_code, 0) << one.message;
  ASSERT_EQ(two.exit_code, 0) << two.message;
  EXPECT_GT(two.latency_ns(), one.latency_ns());
  EXPECT_EQ(two.kernel()["rank_latency_ns"].size(), 8u);
  EXPECT_GT(two.kernel()["link_class_bytes"]["d2d"].get<double>(),
            one.kernel()["link_class_bytes"].value("d2d", 0.0));
}

// K = E = W: every token goes to every expert, so every receive block holds BS rows on every die
// and both runs below receive the same rows. With L = 1 the W blocks go to W cores, one each.
const std::vector<std::string> kEveryTokenEverywhere = {
    "ep.world_size=4", "dispatch.experts=4",   "dispatch.topk=4",
    "dispatch.bs=12",  "dispatch.hidden=1024", "run.check=0"};

// AllgatherProcessOut copies the peer core's own rows, each once (the reference hands its peer
// core gatherCount_, the rows of its own blocks): a die's MTE2 reads with tp = 2 exceed those of
// the same EP group with tp = 1 by the peer's A records, plus the handshake's few words, far less
// than one more block. Handing over the rows of every later core as well made core c copy the
// blocks of cores c..W-1: 1 + 2 + 3 + 4 = 10 blocks instead of 4 here.
TEST(TpAllGatherV, EachOfThePeersRowsIsCopiedOnceByOneCore) {
  Outcome one = run_scenario("dispatch", kEveryTokenEverywhere);
  Outcome two = run_scenario("dispatch", with(kEveryTokenEverywhere, "dispatch.tp=2"));
  ASSERT_EQ(one.exit_code, 0) << one.message;
  ASSERT_EQ(two.exit_code, 0) << two.message;
  const double rec = two.kernel()["record_bytes"].get<double>();
  const double block = 12 * rec, peer_rows = 4 * block;
  ASSERT_EQ(two.kernel()["ranks"].size(), 8u);
  for (int g = 0; g < 8; ++g) {  // die g is EP rank g / 2 of its group
    const double extra = two.kernel()["ranks"][g]["mte2_bytes"].get<double>() -
                         one.kernel()["ranks"][g / 2]["mte2_bytes"].get<double>();
    EXPECT_GE(extra, peer_rows) << "die " << g;
    EXPECT_LT(extra, peer_rows + block) << "die " << g;
  }
}

// What sets the AllGatherV's time: each of a core's rows goes to the peer's window with one
// remote write across the die-to-die link, and the next row's writes wait behind the queue's
// FreeTensor (SetFlag<MTE3_MTE2>), which waits for that write to complete: its acknowledgement
// back (fabric.write_response_ratio x the path's fixed latency) and the completion
// (fabric.write_completion_ns). A write complete on landing takes that much off each of the core's
// remote writes, which follow one another: here its 12 rows, then the staged counts (behind the
// last row's FreeTensor) and the flag (waited for before the poll), so the local copy phase
// shrinks by about 14 x (1.3 + 1.5) us.
TEST(TpAllGatherV, EachRowOfACoreWaitsOneRemoteWriteRoundTrip) {
  auto local_copy = [](const Outcome& o) {
    double m = 0;
    for (const auto& v : o.kernel()["phase_max_over_cores"]["local_copy_ns"])
      m = std::max(m, v.get<double>());
    return m;
  };
  const auto tp = with(kEveryTokenEverywhere, "dispatch.tp=2");
  Outcome acked = run_scenario("dispatch", tp);
  Outcome landed = run_scenario(
      "dispatch", with(tp, {"fabric.write_response_ratio=0", "fabric.write_completion_ns=0"}));
  ASSERT_EQ(acked.exit_code, 0) << acked.message;
  ASSERT_EQ(landed.exit_code, 0) << landed.message;
  const double saved = local_copy(acked) - local_copy(landed);
  const double per_row = 1300 + 1500;  // the d2d write latency (one way), the completion
  EXPECT_GT(saved, 13 * per_row);
  EXPECT_LT(saved, 15 * per_row);
  EXPECT_GT(local_copy(acked), 12 * (2 * 1300 + 1500));
}

int limit_code(const std::string& kernel, const std::vector<std::string>& sets,
               std::string* message) {
  Outcome o = run_scenario(kernel, sets);
  *message = o.message;
  return o.exit_code;
}

TEST(TpLimits, EachIsRefusedWithExit2NamingIt) {
  std::string msg;
  EXPECT_EQ(limit_code("dispatch", tp2(4, 8, {}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("tp = 2 needs one MoE expert per MoE rank (L = 1"), std::string::npos) << msg;
  EXPECT_EQ(limit_code("dispatch", tp2(4, 4, {"fault.dead_ranks=1", "fault.scale_down=1"}), &msg),
            kExitBadInput);
  EXPECT_NE(msg.find("elastic scale-down is tp = 1 only"), std::string::npos) << msg;
  EXPECT_EQ(limit_code("dispatch", tp2(4, 4, {"fault.dead_ranks=1"}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("dead ranks are modelled with tp = 1 only"), std::string::npos) << msg;
  EXPECT_EQ(limit_code("combine", tp2(4, 4, {"combine.comm_quant=int8"}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("tp < 2 only"), std::string::npos) << msg;
  EXPECT_EQ(limit_code("moe", tp2(4, 4, {"moe.dispatch=alltoallv"}), &msg), kExitBadInput);
  EXPECT_EQ(limit_code("alltoallv_dispatch", tp2(4, 4, {}), &msg), kExitBadInput);
  EXPECT_NE(msg.find("tp = 2"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ascend::test
