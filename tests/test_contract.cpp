// The staged kernel contract: the plan stage rejects bad attributes with no SystemC object built,
// and the strategies (send split, receiver order, moe's dispatch) are named host-side functions
// whose plans are tested here without a simulation.
#include <chrono>
#include <map>
#include <systemc>

#include "kernels/combine/combine_tiling.h"
#include "kernels/dispatch/dispatch_tiling.h"
#include "kernels/kernel.h"
#include "kernels/moe/moe_host.h"
#include "tests/harness.h"

namespace ascend::test {
namespace {

SimError plan_error(const std::string& kernel, const std::vector<std::string>& sets) {
  Params p = make_params(sets);
  p.set("run.kernel", kernel, "test");
  const KernelDef& k = find_kernel(kernel);
  try {
    (void)k.plan(p, k.dies(p));
  } catch (const SimError& e) {
    return e;
  }
  ADD_FAILURE() << kernel << ": the plan accepted the attributes";
  return SimError(kExitInternal, "");
}

TEST(KernelContract, AnInvalidAttributeAtEp768FailsInThePlanBeforeAnythingIsBuilt) {
  auto t0 = std::chrono::steady_clock::now();
  for (const char* kernel : {"dispatch", "combine", "moe", "alltoallv_dispatch"}) {
    SimError e = plan_error(kernel, {"ep.world_size=768", "dispatch.experts=7"});
    EXPECT_EQ(e.code, kExitBadInput) << kernel;
    EXPECT_NE(std::string(e.what()).find("experts"), std::string::npos) << e.what();
  }
  // Limits the plan checks besides the parameter ranges: the window, a knob's rank.
  EXPECT_EQ(plan_error("dispatch", {"ep.world_size=768", "hccl.buffsize_MB=1"}).code,
            kExitBadInput);
  EXPECT_EQ(plan_error("dispatch", {"ep.world_size=768", "dispatch.experts=768",
                                    "dispatch.delay_rank=767", "dispatch.routing=zipf:x"})
                .code,
            kExitBadInput);
  EXPECT_EQ(plan_error("ub_write", {"ub_write.dst=2"}).code, kExitBadInput);
  EXPECT_EQ(plan_error("ffn_worker_batching", {"ffn.late_rank=8"}).code, kExitBadInput);
  // No Simulation was made: no cluster, no SystemC object, and it took milliseconds.
  EXPECT_TRUE(sc_core::sc_get_top_level_objects().empty());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
}

TEST(KernelContract, EveryShorthandOfAKernelSetsAParameterItReads) {
  Params all = declare_all_params();
  for (const KernelDef& k : all_kernels())
    for (const Shorthand& s : k.shorthands) {
      EXPECT_TRUE(all.has(s.key)) << k.name << " --" << s.flag;
      EXPECT_TRUE(k.reads(s.key)) << k.name << " --" << s.flag << " sets " << s.key;
    }
}

// Each (token, k) entry of `tokens` tokens is sent by exactly one core, and in the order of the
// entries on that core (the slot of an entry counts the earlier ones with the same expert).
std::map<int64_t, int> owners(const dispatch::Attrs& a, int tokens, int cores) {
  std::map<int64_t, int> owner;
  std::vector<dispatch::SendShare> plan = dispatch::send_plan(a, tokens, cores);
  const int moe_l = a.experts / a.ep;
  for (int c = 0; c < cores; ++c) {
    const dispatch::SendShare& s = plan[c];
    for (int64_t i = s.begin; i < s.end; ++i) {
      int dst = static_cast<int>(i % a.experts) / moe_l;  // stand-in ids: entry i -> expert i % E
      if (s.rank_stride && dst % s.rank_stride != s.rank_pick) continue;
      EXPECT_EQ(owner.count(i), 0u) << a.split << ": entry " << i << " sent twice";
      owner[i] = c;
    }
  }
  EXPECT_EQ(owner.size(), static_cast<size_t>(tokens) * a.topk) << a.split;
  return owner;
}

TEST(SendSplits, EachPlanSendsEveryEntryOnce) {
  dispatch::Attrs a;  // EP 16, 256 experts, K 8
  EXPECT_EQ(dispatch::send_splits().names(), (std::vector<std::string>{"entry", "rank", "token"}));
  for (const char* split : {"entry", "rank", "token"}) {
    a.split = split;
    for (int tokens : {0, 1, 7, 128}) owners(a, tokens, 48);
  }
}

TEST(SendSplits, TokenGivesEachCoreWholeTokensAndEntryCutsThem) {
  dispatch::Attrs a;
  a.topk = 8;
  a.split = "token";
  std::vector<dispatch::SendShare> plan = dispatch::send_plan(a, 100, 48);
  for (const dispatch::SendShare& s : plan) {
    EXPECT_TRUE(s.whole_tokens);
    EXPECT_EQ(s.begin % a.topk, 0);
    EXPECT_EQ(s.end % a.topk, 0);
  }
  EXPECT_EQ(plan[0].end - plan[0].begin, 3 * 8);  // 100 tokens over 48: the first 4 take 3
  EXPECT_EQ(plan[47].end - plan[47].begin, 2 * 8);
  a.split = "entry";
  plan = dispatch::send_plan(a, 100, 48);
  EXPECT_EQ(plan[0].end, 17);  // 800 entries over 48: cores cut tokens
  EXPECT_FALSE(plan[0].whole_tokens);
  EXPECT_GT(dispatch::ub_plan({}).total({}, 2), 0u);
  a.split = "token";
  EXPECT_EQ(dispatch::ub_plan(a).triples, 2u * 32 * 8);  // K triples per buffer
  a.split = "entry";
  EXPECT_EQ(dispatch::ub_plan(a).triples, 0u);
}

TEST(SendSplits, TheSharedExpertCoresGetNoMoeShare) {
  dispatch::Attrs a;
  a.shared_experts = 1;
  a.shared_expert_ranks = 1;
  a.experts = 255;
  a.split = "token";
  std::vector<dispatch::SendShare> plan = dispatch::send_plan(a, 10, 48);
  const int shared = dispatch::shared_send_cores(a);
  ASSERT_GT(shared, 0);
  for (int c = 48 - shared; c < 48; ++c) EXPECT_EQ(plan[c].end, plan[c].begin);
}

TEST(SendSplits, AnUnknownNameIsBadInputNamingTheChoices) {
  try {
    dispatch::send_splits().find("tokens");
    FAIL();
  } catch (const SimError& e) {
    EXPECT_EQ(e.code, kExitBadInput);
    EXPECT_STREQ(e.what(), "dispatch.send_split = 'tokens': one of entry, rank, token");
  }
}

// A receiver against a scripted readiness: token t is ready from its ready_at-th poll on.
std::vector<int> receive(const std::string& name, const std::vector<int>& ready_at, int* polls) {
  std::vector<int> seen(ready_at.size(), 0), order;
  *polls = 0;
  combine::ReceiveOps ops;
  ops.ready = [&](int t) { return ++*polls, ++seen[t] > ready_at[t]; };
  ops.wait = [&](int t) {
    while (!ops.ready(t)) {
    }
  };
  ops.combine = [&](int t) { order.push_back(t); };
  combine::receivers().find(name)(0, static_cast<int64_t>(ready_at.size()), ops);
  return order;
}

TEST(Receivers, InOrderWaitsForEachTokenAndReadyFirstTakesWhateverIsReady) {
  EXPECT_EQ(combine::receivers().names(), (std::vector<std::string>{"in_order", "ready_first"}));
  int polls = 0;
  EXPECT_EQ(receive("in_order", {3, 0, 0}, &polls), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(polls, 6);  // 4 on token 0, one each on 1 and 2
  EXPECT_EQ(receive("ready_first", {3, 0, 0}, &polls), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(polls, 6);  // 3 in round 1, then token 0 alone three more times
}

TEST(MoeDispatchSteps, FusedAndAlltoallvAreRegistered) {
  EXPECT_EQ(moe::dispatch_steps().names(), (std::vector<std::string>{"fused", "alltoallv"}));
  EXPECT_THROW(moe::dispatch_steps().find("fuse"), SimError);
}

}  // namespace
}  // namespace ascend::test
