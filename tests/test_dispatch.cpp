// MoeDistributeDispatch: the tiling's pure functions, the reference's worked example (through the
// golden reference and through the kernel), the check across configurations, and timing
// properties.
#include "api/numeric.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/dispatch/dispatch_tiling.h"
#include "tests/harness.h"

namespace ascend::test {
namespace {

using dispatch::Attrs;

TEST(DispatchTiling, SplitToCoreGivesTheFirstCoresOneMore) {
  std::vector<std::pair<int64_t, int64_t>> got;
  for (int c = 0; c < 4; ++c) got.push_back(dispatch::split_to_core(10, 4, c));
  EXPECT_EQ(got, (std::vector<std::pair<int64_t, int64_t>>{{0, 3}, {3, 6}, {6, 8}, {8, 10}}));
  EXPECT_EQ(dispatch::split_to_core(3, 48, 47), (std::pair<int64_t, int64_t>{3, 3}));
}

TEST(DispatchTiling, SharedSendCoresFollowTheRealRuleOrTheOverride) {
  Attrs a;
  a.shared_experts = 1;
  a.shared_expert_ranks = 2;
  a.topk = 8;
  EXPECT_EQ(dispatch::shared_send_cores(a), 5);  // max(1, 48 * 1 / 9)
  a.shared_expert_ranks = 0;                     // a local shared expert is never sent
  EXPECT_EQ(dispatch::shared_send_cores(a), 0);
  a.shared_expert_ranks = 2;
  a.cores = 4;
  EXPECT_EQ(dispatch::shared_send_cores(a), 1);
  a.shared_send_cores = 3;
  EXPECT_EQ(dispatch::shared_send_cores(a), 3);
}

TEST(DispatchTiling, RecordSlotAndWindowFollowTheDocumentedLayout) {
  Attrs a;  // H 7168, int8, K 8, BS 128, EP 16, 256 experts
  EXPECT_EQ(dispatch::record_bytes(a), 7168u + 32 + 12);
  EXPECT_EQ(dispatch::slot_bytes(a), 7680u);
  EXPECT_EQ(dispatch::window_needed(a), 1002438656u);
  a.quant = false;
  EXPECT_EQ(dispatch::record_bytes(a), 14336u + 44);
  EXPECT_EQ(dispatch::capacity_rows(a, 3), 128 * 16 * 8);
}

TEST(DispatchTiling, BufferNumFallsBackToOneWhenUbIsShort) {
  Attrs a;
  a.hidden = 8192;
  a.bs = 512;
  a.topk = 16;
  a.experts = 512;
  EXPECT_GT(dispatch::ub_plan(a).total(a, 2), dispatch::kMaxUbBytes);
  EXPECT_EQ(dispatch::effective_buffer_num(a, 192 * 1024), 1);
  Attrs small;
  small.hidden = 1024;
  EXPECT_EQ(dispatch::effective_buffer_num(small, 192 * 1024), 2);
}

TEST(DispatchTiling, AttributesOutsideTheA3LimitsAreBadInput) {
  auto code = [](std::function<void(Attrs&)> f) {
    Attrs a;
    f(a);
    try {
      dispatch::validate(a);
    } catch (const SimError& e) {
      return static_cast<int>(e.code);
    }
    return 0;
  };
  EXPECT_EQ(code([](Attrs&) {}), 0);
  EXPECT_EQ(code([](Attrs& a) { a.hidden = 1023; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.hidden = 8193; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.bs = 513; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.topk = 17; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.ep = 769; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.experts = 250; }), kExitBadInput);  // not a multiple of 16
  EXPECT_EQ(code([](Attrs& a) {
              a.shared_experts = 5;
              a.shared_expert_ranks = 5;
            }),
            kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) {
              a.shared_experts = 2;
              a.shared_expert_ranks = 3;
            }),
            kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.shared_experts = 2; }), kExitBadInput);  // S = 0 allows 0 or 1
  EXPECT_EQ(code([](Attrs& a) { a.shared_experts = 1; }), 0);
  EXPECT_EQ(code([](Attrs& a) { a.shared_expert_ranks = 2; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) {
              a.shared_experts = 1;
              a.shared_expert_ranks = 2;
              a.experts = 252;
              a.ep = 16;
              a.cores = 1;
            }),
            kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.active_tokens = 129; }), kExitBadInput);
}

// [OLD] (docs/sources.md): W=2, E=4 (L=2), BS=2, K=2.
Attrs worked_example_attrs() {
  Attrs a;
  a.ep = 2;
  a.experts = 4;
  a.bs = 2;
  a.topk = 2;
  a.hidden = 1024;
  a.quant = false;
  return a;
}
std::vector<dispatch::RankInputs> worked_example_inputs() {
  std::vector<dispatch::RankInputs> in(2);
  in[0].ids = {0, 2, 1, 2};
  in[1].ids = {3, 0, 0, 1};
  for (int r = 0; r < 2; ++r) {
    in[r].x.resize(2 * 1024);
    for (size_t i = 0; i < in[r].x.size(); ++i) in[r].x[i] = static_cast<uint16_t>(r * 4096 + i);
  }
  return in;
}

void expect_worked_example(const std::vector<std::vector<int32_t>>& triples,
                           const std::vector<std::vector<int32_t>>& recv,
                           const std::vector<std::vector<int64_t>>& nums) {
  EXPECT_EQ(triples[0], (std::vector<int32_t>{0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1}));
  EXPECT_EQ(recv[0], (std::vector<int32_t>{1, 3, 4, 5}));
  EXPECT_EQ(nums[0], (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(triples[1], (std::vector<int32_t>{0, 0, 1, 0, 1, 1, 1, 0, 0}));
  EXPECT_EQ(recv[1], (std::vector<int32_t>{2, 2, 2, 3}));
  EXPECT_EQ(nums[1], (std::vector<int64_t>{2, 1}));
}

TEST(DispatchWorkedExample, TheGoldenReferenceGivesTheDocumentedOutputs) {
  auto want = dispatch::golden(worked_example_attrs(), true, worked_example_inputs());
  expect_worked_example({want[0].assist_info, want[1].assist_info},
                        {want[0].ep_recv_counts, want[1].ep_recv_counts},
                        {want[0].expert_token_nums, want[1].expert_token_nums});
  Attrs cumulative = worked_example_attrs();
  cumulative.token_nums_type = 0;
  EXPECT_EQ(dispatch::golden(cumulative, true, worked_example_inputs())[0].expert_token_nums,
            (std::vector<int64_t>{3, 5}));
  // Row 0 of rank 0 is token 0 of rank 0; row 1 is token 0 of rank 1.
  EXPECT_EQ(want[0].expand_x[0], 0);
  EXPECT_EQ(want[0].expand_x[2048] | (want[0].expand_x[2049] << 8), 4096);
}

TEST(DispatchWorkedExample, TheKernelGivesTheDocumentedOutputs) {
  Bench b({}, 2);
  Attrs a = worked_example_attrs();
  a.cores = 48;
  auto in = worked_example_inputs();
  dispatch::Execution ex = dispatch::execute(b.sim(), a, true, {in}, {});
  std::vector<std::vector<int32_t>> triples, recv;
  std::vector<std::vector<int64_t>> nums;
  std::vector<int> rows = {5, 3};
  for (int r = 0; r < 2; ++r) {
    const auto& buf = ex.bufs[0][r];
    std::vector<int32_t> t(3 * rows[r]), c(4);
    std::vector<int64_t> n(2);
    b.sim().read(buf.assist, t.data(), t.size() * 4);
    b.sim().read(buf.recv_counts, c.data(), 16);
    b.sim().read(buf.token_nums, n.data(), 16);
    triples.push_back(t);
    recv.push_back(c);
    nums.push_back(n);
  }
  expect_worked_example(triples, recv, nums);
  auto want = dispatch::golden(a, true, in);
  for (int r = 0; r < 2; ++r)
    EXPECT_EQ(dispatch::compare(a, want[r], b.sim(), ex.bufs[0][r], r, 0), "");
}

TEST(DispatchCheck, SmallShapesAndTopK) {
  expect_check("dispatch", {"ep.world_size=2", "dispatch.experts=2", "dispatch.bs=1",
                            "dispatch.topk=1", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=2", "dispatch.experts=48", "dispatch.bs=7",
                            "dispatch.topk=16", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=24", "dispatch.bs=7",
                            "dispatch.topk=6", "dispatch.hidden=4096", "dispatch.dtype=fp16"});
}

TEST(DispatchCheck, EightRanksInt8AndBf16) {
  expect_check("dispatch", {"ep.world_size=8", "dispatch.experts=64", "dispatch.bs=32",
                            "dispatch.hidden=7168"});
  expect_check("dispatch", {"ep.world_size=8", "dispatch.experts=8", "dispatch.bs=32",
                            "dispatch.hidden=1024", "dispatch.quant=none"});
}

TEST(DispatchCheck, SharedExpertsAndTheirRanks) {
  expect_check("dispatch",
               {"ep.world_size=8", "dispatch.shared_experts=1", "dispatch.shared_expert_ranks=2",
                "dispatch.experts=24", "dispatch.bs=16", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=8", "dispatch.shared_experts=2",
                            "dispatch.shared_expert_ranks=4", "dispatch.experts=4", "dispatch.bs=9",
                            "dispatch.topk=1", "dispatch.hidden=1024", "dispatch.quant=none"});
}

TEST(DispatchCheck, MasksCountsSkewSplitsAndBuffers) {
  expect_check("dispatch",
               {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=16",
                "dispatch.active_tokens=5", "dispatch.token_nums_type=0", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=64",
                            "dispatch.routing=zipf:3", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=32",
                            "dispatch.send_split=rank", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=32",
                            "dispatch.buffer_num=1", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=32",
                            "dispatch.send_split=token", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=32",
                            "dispatch.calls=3", "dispatch.hidden=1024"});
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=8",
                            "dispatch.active_tokens=0", "dispatch.hidden=1024"});
}

// The token split (fullmesh_v2): whole tokens per core, each quantized once and sent K times;
// the outputs are the same bits in every mode of the record.
TEST(DispatchCheck, TheTokenSplitInEveryRecordMode) {
  const std::vector<std::string> base = {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=13",
                                         "dispatch.hidden=1024", "dispatch.send_split=token"};
  for (std::vector<std::string> extra :
       std::vector<std::vector<std::string>>{{},
                                             {"dispatch.quant=none"},
                                             {"dispatch.dtype=fp16"},
                                             {"dispatch.quant_before_send=0"},
                                             {"dispatch.buffer_num=1", "dispatch.calls=2"},
                                             {"dispatch.active_tokens=5", "dispatch.topk=3"}}) {
    extra.insert(extra.begin(), base.begin(), base.end());
    expect_check("dispatch", extra);
  }
  expect_check("dispatch", {"ep.world_size=4", "dispatch.experts=12", "dispatch.shared_experts=1",
                            "dispatch.shared_expert_ranks=1", "dispatch.bs=16",
                            "dispatch.hidden=1024", "dispatch.send_split=token"});
}

TEST(DispatchTiming, TheTokenSplitQuantizesEachTokenOnceAndIsFasterThanEntry) {
  const std::vector<std::string> w = {"ep.world_size=4", "dispatch.experts=16",
                                      "dispatch.bs=32",  "dispatch.hidden=4096",
                                      "sim.payload=0",   "run.check=0"};
  auto with = [&](const char* split) {
    std::vector<std::string> s = w;
    s.push_back(std::string("dispatch.send_split=") + split);
    return run_scenario("dispatch", s);
  };
  Outcome entry = with("entry"), token = with("token");
  ASSERT_EQ(entry.exit_code, 0) << entry.message;
  ASSERT_EQ(token.exit_code, 0) << token.message;
  EXPECT_LT(token.latency_ns(), entry.latency_ns());
  // Vector work: one quantization per token instead of one per (token, k) entry.
  auto vector_busy = [](const Outcome& o) {
    double sum = 0;
    for (const auto& r : o.kernel()["ranks"])
      for (const auto& v : r["pipe_busy_pct"]["VECTOR"]) sum += v.get<double>();
    return sum;
  };
  EXPECT_LT(vector_busy(token), vector_busy(entry) / 4);
}

TEST(DispatchWindowFlip, WithoutTheFlipADelayedRanksDataIsOverwrittenAndCheckCatchesIt) {
  std::vector<std::string> sets = {"ep.world_size=4",  "dispatch.experts=16",
                                   "dispatch.bs=32",   "dispatch.hidden=1024",
                                   "dispatch.calls=2", "dispatch.delay_rank=2"};
  Outcome with = run_scenario("dispatch", sets);
  EXPECT_EQ(with.exit_code, 0) << with.message;
  sets.push_back("dispatch.window_flip=0");
  Outcome without = run_scenario("dispatch", sets);
  EXPECT_EQ(without.exit_code, kExitCheckFailed);
  EXPECT_NE(without.message.find("call 0, rank 2"), std::string::npos) << without.message;
}

double latency_of(const std::vector<std::string>& sets) {
  Outcome o = run_scenario("dispatch", sets);
  EXPECT_EQ(o.exit_code, 0) << o.message;
  return o.exit_code == 0 ? o.latency_ns() : 0;
}

const std::vector<std::string> kBase = {"ep.world_size=8", "dispatch.experts=64",
                                        "dispatch.hidden=4096", "run.check=0"};
TEST(DispatchTiming, LatencyGrowsWithTokensPerRank) {
  EXPECT_LT(latency_of(with(kBase, "dispatch.bs=16")), latency_of(with(kBase, "dispatch.bs=64")));
}

TEST(DispatchTiming, LatencyGrowsWithSkew) {
  auto base = with(kBase, "dispatch.bs=64");
  EXPECT_LT(latency_of(with(base, "dispatch.routing=balanced")) * 1.3,
            latency_of(with(base, "dispatch.routing=zipf:2")));
}

TEST(DispatchTiming, Int8SendsFewerBytesThanBf16) {
  auto base = with(kBase, "dispatch.bs=32");
  Outcome q = run_scenario("dispatch", with(base, "dispatch.quant=int8"));
  Outcome b = run_scenario("dispatch", with(base, "dispatch.quant=none"));
  ASSERT_EQ(q.exit_code, 0);
  ASSERT_EQ(b.exit_code, 0);
  auto remote = [](const Outcome& o) {
    uint64_t sum = 0;
    for (const auto& [cls, bytes] : o.kernel()["link_class_bytes"].items())
      if (cls != "local") sum += bytes.get<uint64_t>();
    return sum;
  };
  EXPECT_LT(remote(q) * 1.8, remote(b));  // 4096 + 44 vs 8192 + 44 B per record
  EXPECT_EQ(q.kernel()["record_bytes"], 4096 + 44);
}

TEST(DispatchTiming, HalvingTheLinkBandwidthSlowsABandwidthBoundDispatch) {
  // 16-KiB bf16 records: the UB egress, not the cores' round trips, bounds the send.
  auto base =
      with(with(with(kBase, "dispatch.bs=128"), "dispatch.quant=none"), "dispatch.hidden=8192");
  double full = latency_of(base);
  double half = latency_of(with(with(base, "fabric.port_GBps=98"), "fabric.d2d_GBps=135"));
  EXPECT_GT(half, 1.3 * full) << full << " vs " << half;
  EXPECT_LT(half, 2.1 * full) << full << " vs " << half;
}

TEST(DispatchTiming, DoubleBufferingIsNotSlower) {
  auto base = with(kBase, "dispatch.bs=32");
  EXPECT_LE(latency_of(with(base, "dispatch.buffer_num=2")),
            latency_of(with(base, "dispatch.buffer_num=1")));
}

}  // namespace
}  // namespace ascend::test

namespace ascend::test {
namespace {

TEST(DispatchTimingOnly, GivesExactlyTheTimingOfTheFullRun) {
  for (const char* quant : {"dispatch.quant=int8", "dispatch.quant=none"}) {
    std::vector<std::string> sets = {"ep.world_size=8", "dispatch.experts=64", "dispatch.bs=32",
                                     "dispatch.hidden=4096", quant};
    Outcome full = run_scenario("dispatch", sets);
    Outcome timing = run_scenario("dispatch", with(sets, "sim.payload=0"));
    ASSERT_EQ(full.exit_code, 0) << full.message;
    ASSERT_EQ(timing.exit_code, 0) << timing.message;  // ids, counts and triples still checked
    for (const char* key :
         {"latency_ns", "rank_latency_ns", "phase_max_over_cores", "ports", "ranks"})
      EXPECT_EQ(full.kernel()[key], timing.kernel()[key]) << quant << " " << key;
    EXPECT_LT(timing.stats["simulator"]["gm_resident_MiB"].get<double>(),
              full.stats["simulator"]["gm_resident_MiB"].get<double>());
  }
}

}  // namespace
}  // namespace ascend::test

namespace ascend::test {
namespace {

TEST(DispatchWhatIf, QuantizingAfterReceivingGivesTheSameOutputsButSendsTwiceTheBytes) {
  std::vector<std::string> sets = {"ep.world_size=8", "dispatch.experts=64", "dispatch.bs=32",
                                   "dispatch.hidden=4096"};
  Outcome before = run_scenario("dispatch", sets);
  Outcome after = run_scenario("dispatch", with(sets, "dispatch.quant_before_send=0"));
  ASSERT_EQ(before.exit_code, 0) << before.message;
  ASSERT_EQ(after.exit_code, 0) << after.message;  // checked against the same golden outputs
  EXPECT_EQ(before.kernel()["record_bytes"], 4096 + 44);
  EXPECT_EQ(after.kernel()["record_bytes"], 8192 + 44);
  EXPECT_LT(before.latency_ns(), after.latency_ns());
}

}  // namespace
}  // namespace ascend::test

namespace ascend::test {
namespace {

// A user's report: at EP 16 every AIV count from 8 to 31 hung, because WaitDispatch's first poll
// overwrote status blocks that SetStatus's queued MTE3 writes had not read yet.
TEST(DispatchCoreCounts, TheDefaultWorkloadFinishesWithFewerCores) {
  for (int cores : {8, 24, 31}) {
    Outcome o = run_scenario("dispatch", {"sim.payload=0", "die.aiv_count=" + std::to_string(cores),
                                          "sim.poll_timeout_us=1000"});
    ASSERT_EQ(o.exit_code, 0) << cores << " cores: " << o.message;
    EXPECT_EQ(o.kernel()["cores_per_rank"], cores);
  }
}

}  // namespace
}  // namespace ascend::test
