// FfnWorkerBatching: the ScheduleContext layout and tiling, the Sort/MrgSort facade ops (results
// and cost), the check across modes and dtypes, stability on a case built for it, and timing
// properties (each whole run in its own child process).
#include <algorithm>
#include <cstring>

#include "api/kernel_operator.h"
#include "kernels/ffn_worker_batching/ffn_host.h"
#include "kernels/ffn_worker_batching/ffn_kernel.h"
#include "kernels/ffn_worker_batching/ffn_tiling.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace ascend::test {
namespace {

using ffn::Attrs;

TEST(FfnTiling, ScheduleContextOffsetsFollowTheDocument) {
  // CommonArea: 8 x 4 B then 96 B of padding = 128; ControlArea 128; AttentionArea 128; FfnArea.
  EXPECT_EQ(ffn::ctx::kScheduleMode, 28u);
  EXPECT_EQ(ffn::ctx::kRunFlag, 128u);
  EXPECT_EQ(ffn::ctx::kAttnArea, 256u);
  EXPECT_EQ(ffn::ctx::kTokenInfoBuf, 384u);
  EXPECT_EQ(ffn::ctx::kPollingIndex, 416u);
  EXPECT_EQ(ffn::ctx::kLayerIdsBuf, 512u);  // 416 + 8 + 88 reserve3
  EXPECT_EQ(ffn::ctx::kExpertIdsBuf, 560u);
  EXPECT_EQ(ffn::ctx::kOutNum, 576u);
  EXPECT_EQ(ffn::ctx::kOutNum + 4 + 60 + 384, ffn::ctx::kBytes);  // reserve4, reserve6
}

TEST(FfnTiling, BufferSizesAndSortPlan) {
  Attrs a;                               // A 8, BS 64, K' 9, H 7168 int8
  EXPECT_EQ(ffn::token_size(a), 7680u);  // Align512(7168 + 4)
  EXPECT_EQ(ffn::info_words(a), 2 + 64 * 9);
  EXPECT_EQ(ffn::max_rows(a), 8 * 64 * 9);
  EXPECT_EQ(ffn::expert_num(a), 65);
  EXPECT_EQ(ffn::launch_cores(a, 48), 32);  // RECV with Y <= 200000
  a.recv = false;
  EXPECT_EQ(ffn::launch_cores(a, 48), 48);
  ffn::SortPlan one = ffn::sort_plan(a, 192 * 1024, 48);
  EXPECT_EQ(one.runs, 1);
  EXPECT_EQ(one.merge_rounds, 0);
  a.sort_max_elements = 512;
  ffn::SortPlan many = ffn::sort_plan(a, 192 * 1024, 48);
  EXPECT_EQ(many.runs, 16);  // a power of 4
  EXPECT_EQ(many.merge_rounds, 2);
  EXPECT_LE(many.run_cap, 512);
  for (int64_t r = 0; r < many.runs; ++r) EXPECT_LE(ffn::run_padded(a, many, r), many.run_cap);
}

TEST(FfnTiling, DocumentLimitsAreBadInput) {
  auto code = [](std::function<void(Attrs&)> f) {
    Attrs a;
    f(a);
    try {
      ffn::validate(a, 768);
    } catch (const SimError& e) {
      return static_cast<int>(e.code);
    }
    return 0;
  };
  EXPECT_EQ(code([](Attrs&) {}), 0);
  EXPECT_EQ(code([](Attrs& a) { a.attn = 1025; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.attn = 768; }), kExitBadInput);  // A + F > 768 dies
  EXPECT_EQ(code([](Attrs& a) { a.micro_batches = 65; }), kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.topk = 64; }), kExitBadInput);  // K + 1 = 65
  EXPECT_EQ(code([](Attrs& a) {
              a.experts = 63;
              a.ffn = 2;
            }),
            kExitBadInput);
  EXPECT_EQ(code([](Attrs& a) { a.out_num = 9; }), kExitBadInput);
}

// ---- the sorting facade ops
TEST(FfnSortApi, SortIsDescendingStableAndCostsSort32PlusMergePasses) {
  Bench b;
  std::vector<float> keys(128);
  for (int i = 0; i < 128; ++i) keys[i] = static_cast<float>(-(i * 7 % 5));  // many ties
  std::vector<uint8_t> got(128 * 8);
  model::Tick start = 0, end = 0;
  uint64_t out = b.alloc(128 * 8), in = b.alloc(128 * 4);
  b.sim().write(in, keys.data(), 512);
  b.run(1, [&] {
    AscendC::TPipe pipe;
    auto k = ub_tensor<float>(pipe, 128);
    auto idx = ub_tensor<int32_t>(pipe, 128);
    auto dst = ub_tensor<float>(pipe, 256);
    auto tmp = ub_tensor<float>(pipe, 256);
    AscendC::DataCopy(k, global<float>(in, 128), 128);
    AscendC::CreateVecIndex(idx, 0, 128);
    Order<AscendC::HardEvent::MTE2_V>();
    AscendC::PipeBarrier<AscendC::PIPE_ALL>();
    start = AscendC::SimNowPs();
    AscendC::Sort<float, true>(dst, k, idx.ReinterpretCast<uint32_t>(), tmp, 4);
    AscendC::PipeBarrier<AscendC::PIPE_ALL>();
    end = AscendC::SimNowPs();
    AscendC::DataCopy(global<float>(out, 256), dst, 256);
  });
  b.sim().read(out, got.data(), got.size());
  std::vector<std::pair<float, uint32_t>> want;
  for (uint32_t i = 0; i < 128; ++i) want.push_back({keys[i], i});
  std::stable_sort(want.begin(), want.end(), [](auto& x, auto& y) { return x.first > y.first; });
  for (int i = 0; i < 128; ++i) {
    float f;
    uint32_t ix;
    std::memcpy(&f, &got[8 * i], 4);
    std::memcpy(&ix, &got[8 * i + 4], 4);
    ASSERT_EQ(f, want[i].first) << i;
    ASSERT_EQ(ix, want[i].second) << i;
  }
  // 4 x 32 cycles (Sort32) + 1 merge pass of 128 / 2 cycles + 16 overhead, at 1.85 GHz; the
  // barrier adds the issue cost of the instruction.
  double cycles = 4 * 32 + 64 + 16;
  double ns = static_cast<double>(end - start) / 1000.0;
  EXPECT_GE(ns, cycles / 1.85);
  EXPECT_LE(ns, cycles / 1.85 + 10.0);
}

TEST(FfnSortApi, MrgSortMergesFourListsAndSuspendsWhenOneIsExhausted) {
  Bench b;
  // list i holds 8 proposals with keys 10 - j (ties across lists), indices 100 i + j
  uint64_t in = b.alloc(4 * 8 * 8), out = b.alloc(32 * 8);
  std::vector<uint8_t> src(4 * 64);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j) {
      float k = static_cast<float>(10 - j - (i == 3 ? 20 : 0));  // list 3 is all smaller
      uint32_t ix = 100 * i + j;
      std::memcpy(&src[i * 64 + 8 * j], &k, 4);
      std::memcpy(&src[i * 64 + 8 * j + 4], &ix, 4);
    }
  b.sim().write(in, src.data(), src.size());
  uint16_t used[4] = {0, 0, 0, 0};
  b.run(1, [&] {
    AscendC::TPipe pipe;
    AscendC::LocalTensor<float> l[4];
    for (auto& t : l) t = ub_tensor<float>(pipe, 16);
    auto dst = ub_tensor<float>(pipe, 64);
    for (int i = 0; i < 4; ++i) AscendC::DataCopy(l[i], global<float>(in + 64 * i, 16), 16);
    Order<AscendC::HardEvent::MTE2_V>();
    uint16_t counts[4] = {8, 8, 8, 8};
    AscendC::MrgSort<float, true>(dst, {l[0], l[1], l[2], l[3]}, counts, 0b1111);
    Order<AscendC::HardEvent::V_S>();
    AscendC::GetMrgSortResult(used[0], used[1], used[2], used[3]);
    Order<AscendC::HardEvent::V_MTE3>();
    AscendC::DataCopy(global<float>(out, 64), dst, 64);
  });
  // lists 0-2 tie on every key: they interleave 0, 1, 2 per key until list 0..2 are used up
  // (list 0 empties first: the merge stops there, suspended), list 3 never comes out.
  EXPECT_EQ(used[0], 8);
  EXPECT_EQ(used[1], 7);
  EXPECT_EQ(used[2], 7);
  EXPECT_EQ(used[3], 0);
  std::vector<uint8_t> got(22 * 8);
  b.sim().read(out, got.data(), got.size());
  for (int n = 0; n < 22; ++n) {
    uint32_t ix;
    std::memcpy(&ix, &got[8 * n + 4], 4);
    EXPECT_EQ(ix, 100u * (n % 3) + n / 3) << n;
  }
}

// ---- whole runs
Outcome ffn_run(std::vector<std::string> sets) {
  return run_scenario("ffn_worker_batching", sets);
}
const nlohmann::json& call0(const Outcome& o) {
  return o.kernel()["calls"][0];
}

TEST(Ffn, CheckPassesAcrossModesAndDtypes) {
  for (const char* mode : {"0", "1"})
    for (const char* dt : {"fp16", "bf16", "int8"}) {
      Outcome o =
          ffn_run({"ffn.need_schedule=" + std::string(mode), "ffn.token_dtype=" + std::string(dt),
                   "ffn.attn_ranks=4", "ffn.micro_batches=2", "ffn.bs=8", "ffn.topk=8",
                   "ffn.hidden=96", "ffn.mask_rate=0.3"});
      EXPECT_EQ(o.exit_code, 0) << mode << " " << dt << ": " << o.message;
    }
}

TEST(Ffn, EverythingMaskedGivesZeroTokensAndZeroGroupList) {
  Outcome o = ffn_run({"ffn.mask_rate=1", "ffn.hidden=64", "ffn.attn_ranks=4", "ffn.bs=8"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  EXPECT_EQ(call0(o)["actual_token_num"], 0);
}

TEST(Ffn, MultiCoreSortMergesAndChecksOnSeveralFfnRanksAndLayers) {
  Outcome o = ffn_run({"ffn.sort_max_elements=256", "ffn.attn_ranks=16", "ffn.bs=16", "ffn.topk=16",
                       "ffn.hidden=64", "ffn.ffn_ranks=2", "ffn.layers=2", "ffn.experts=32",
                       "ffn.routing=zipf:1.2"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  EXPECT_GE(o.kernel()["sort_runs"].get<int>(), 16);
  EXPECT_EQ(o.kernel()["calls"].size(), 2u * 2 * 2);  // F x layers x M
}

// Every entry chooses the same expert: the output order must be the flat entry order
// (session, token, slot) exactly, through the one-core sort and through the merges.
TEST(Ffn, EqualExpertIdsKeepTheirOriginalOrder) {
  for (int max_elements : {0, 64}) {
    nlohmann::json r = in_child([&] {
      Attrs a;
      a.attn = 4;
      a.micro_batches = 1;
      a.bs = 8;
      a.topk = 3;
      a.experts = 8;
      a.hidden = 32;
      a.sort_max_elements = max_elements;
      Bench b({"ffn.attn_ranks=4"}, a.attn + a.ffn);
      ffn::Inputs in = ffn::generate(a, "uniform", 1, true);
      for (auto& ids : in.ids)
        for (size_t j = 0; j < ids.size(); ++j) ids[j] = (j % 4 == 1) ? ffn::kMaskId : 5;
      ffn::Execution ex = ffn::execute(b.sim(), a, in, {});
      const int64_t n = ffn::call_rows(a) * 3 / 4;
      std::vector<int32_t> s(n), t(n), k(n);
      b.sim().read(ex.out[0][0].session_ids, s.data(), n * 4);
      b.sim().read(ex.out[0][0].token_ids, t.data(), n * 4);
      b.sim().read(ex.out[0][0].expert_offsets, k.data(), n * 4);
      std::vector<int64_t> flat;
      for (int64_t i = 0; i < n; ++i) flat.push_back((s[i] * a.bs + t[i]) * 4 + k[i]);
      int64_t actual = 0;
      b.sim().read(ex.out[0][0].actual, &actual, 8);
      std::string diff = ffn::compare(a, ffn::golden(a, in, 0, 0, 0), b.sim(), ex.out[0][0], true);
      return nlohmann::json{
          {"flat", flat}, {"actual", actual}, {"diff", diff}, {"runs", ex.plan.runs}};
    });
    ASSERT_FALSE(r.contains("exit_code")) << r.dump();
    EXPECT_EQ(r["diff"], "");
    EXPECT_EQ(r["actual"], 4 * 8 * 3);
    std::vector<int64_t> flat = r["flat"].get<std::vector<int64_t>>();
    EXPECT_TRUE(std::is_sorted(flat.begin(), flat.end())) << r["flat"].dump();
    EXPECT_EQ(std::adjacent_find(flat.begin(), flat.end()), flat.end());
    if (max_elements) {
      EXPECT_GE(r["runs"].get<int>(), 4);
    }
  }
}

TEST(FfnProperty, MoreValidTokensTakeLonger) {
  std::vector<std::string> base = {"ffn.attn_ranks=8", "ffn.bs=32", "ffn.hidden=256",
                                   "ffn.micro_batches=1"};
  auto with = [&](std::string s) {
    auto v = base;
    v.push_back(s);
    return v;
  };
  Outcome all = ffn_run(with("ffn.mask_rate=0"));
  Outcome half = ffn_run(with("ffn.mask_rate=0.5"));
  ASSERT_EQ(all.exit_code, 0) << all.message;
  ASSERT_EQ(half.exit_code, 0) << half.message;
  EXPECT_GT(call0(all)["actual_token_num"].get<int>(), call0(half)["actual_token_num"].get<int>());
  EXPECT_GT(call0(all)["batching_ns"].get<double>(),
            1.3 * call0(half)["batching_ns"].get<double>());
}

TEST(FfnProperty, MultiCoreSortIsUsedAndFasterWhenOneUbCannotHoldTheKeys) {
  std::vector<std::string> base = {"ffn.attn_ranks=16",   "ffn.bs=256",
                                   "ffn.topk=16",         "ffn.hidden=32",
                                   "ffn.micro_batches=1", "ffn.token_dtype=fp16"};
  auto one = base, many = base;
  one.push_back("ffn.sort_cores=1");
  Outcome o1 = ffn_run(one), om = ffn_run(many);
  ASSERT_EQ(o1.exit_code, 0) << o1.message;
  ASSERT_EQ(om.exit_code, 0) << om.message;
  EXPECT_GT(om.kernel()["Y"].get<int>(), om.kernel()["sort_max_elements"].get<int>());
  EXPECT_GE(om.kernel()["sort_cores"].get<int>(), 4);
  EXPECT_EQ(o1.kernel()["sort_cores"].get<int>(), 1);
  EXPECT_LT(call0(om)["sort_ns"].get<double>(), 0.6 * call0(o1)["sort_ns"].get<double>());
}

TEST(FfnProperty, ALateAttentionRankDelaysBatchingByItsDelayInRecvMode) {
  std::vector<std::string> base = {"ffn.attn_ranks=4", "ffn.bs=8", "ffn.hidden=256",
                                   "ffn.micro_batches=1"};
  auto late = base;
  late.push_back("ffn.late_rank=2");
  late.push_back("ffn.late_us=50");
  Outcome on = ffn_run(base), ol = ffn_run(late);
  ASSERT_EQ(on.exit_code, 0) << on.message;
  ASSERT_EQ(ol.exit_code, 0) << ol.message;
  double shift =
      call0(ol)["batching_start_ns"].get<double>() - call0(on)["batching_start_ns"].get<double>();
  EXPECT_GT(shift, 45000);  // its own send time overlaps part of the delay
  EXPECT_LE(shift, 50000);
  // once the data is there, batching takes the same time
  EXPECT_NEAR(call0(ol)["batching_ns"].get<double>(), call0(on)["batching_ns"].get<double>(), 1);
}

TEST(Ffn, AMissingFlagIsAHangNotASpin) {
  Outcome o = ffn_run({"ffn.attn_ranks=4", "ffn.bs=8", "ffn.hidden=64", "ffn.drop_rank=1",
                       "sim.poll_timeout_us=100"});
  EXPECT_EQ(o.exit_code, kExitDeadlock) << o.message;
  EXPECT_NE(o.message.find("die 4 core 0"), std::string::npos) << o.message;
}

TEST(Ffn, TimingOnlyRunHasTheSameTiming) {
  std::vector<std::string> base = {"ffn.attn_ranks=4", "ffn.bs=16", "ffn.hidden=512"};
  auto t = base;
  t.push_back("sim.payload=0");
  Outcome full = ffn_run(base), timing = ffn_run(t);
  ASSERT_EQ(full.exit_code, 0) << full.message;
  ASSERT_EQ(timing.exit_code, 0) << timing.message;
  EXPECT_EQ(full.latency_ns(), timing.latency_ns());
}

}  // namespace
}  // namespace ascend::test
