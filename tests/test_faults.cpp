// Faults injected at run time (fault.* of sim/hardware_params.cpp, injected in the API
// and the models): each with what the user sees. A stalled rank and a wrong window flip are a
// hang report naming the fault (exit 3); a corrupted record and flags landing twice are a failed
// check naming the tensor and the fault (exit 4); a degraded link is a plausibly slower run.
// With the faults off, timing is untouched: every golden timing scenario (ctest -R golden) holds.
#include "tests/harness.h"

namespace ascend::test {
namespace {

// A small dispatch on 4 ranks, checked.
std::vector<std::string> small(std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"ep.world_size=4", "dispatch.experts=16", "dispatch.bs=16",
                                   "dispatch.hidden=1024", "sim.poll_timeout_us=300"};
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Fault, AStalledRankIsAHangReportThatNamesItFirst) {
  Outcome o = run_scenario("dispatch", small({"fault.stall_rank=2", "fault.stall_at_us=5"}));
  ASSERT_EQ(o.exit_code, kExitDeadlock) << o.message;
  EXPECT_TRUE(has(o.message, "hang: kernel still running")) << o.message;
  EXPECT_TRUE(has(o.message, "injected fault(s): fault.stall_at_us = 5, fault.stall_rank = 2"))
      << o.message;
  // The stalled rank's cores come first, each blocked in the stall from after 5 us.
  const size_t first = o.message.find("\n  die ");
  ASSERT_NE(first, std::string::npos);
  const std::string stalled = "\n  die 2 core 0: scalar blocked in a stall injected";
  EXPECT_EQ(o.message.substr(first, stalled.size()), stalled);
  // Survivors wait for what rank 2 never sends.
  EXPECT_TRUE(has(o.message, "die 0 core 1: scalar blocked")) << o.message;
}

TEST(Fault, AStallAfterTheKernelEndsChangesNothing) {
  Outcome healthy = run_scenario("dispatch", small());
  Outcome late = run_scenario("dispatch", small({"fault.stall_rank=2", "fault.stall_at_us=1e6"}));
  ASSERT_EQ(healthy.exit_code, 0) << healthy.message;
  ASSERT_EQ(late.exit_code, 0) << late.message;
  EXPECT_EQ(late.latency_ns(), healthy.latency_ns());
}

// ub_write from die 0 to die 1 crosses die 0's die-to-die link, bandwidth-bound (48 MiB).
TEST(Fault, ADegradedPortSlowsWhatCrossesItAndNothingElse) {
  auto run = [](const std::string& port, const std::string& factor) {
    Outcome o = run_scenario(
        "ub_write", {"ub_write.cores=48", "ub_write.bytes=50331648", "fault.degraded_port=" + port,
                     "fault.degraded_factor=" + factor});
    EXPECT_EQ(o.exit_code, 0) << o.message;
    return o.exit_code == 0 ? o.latency_ns() : 0.0;
  };
  const double healthy = run("", "1");
  ASSERT_GT(healthy, 0);
  EXPECT_EQ(run("die0.d2d_out", "1"), healthy);     // factor 1: exactly the healthy timing
  EXPECT_EQ(run("die1.d2d_out", "0.25"), healthy);  // the other direction carries nothing
  const double half = run("die0.d2d_out", "0.5");   // half the rate: about twice the time
  EXPECT_GT(half / healthy, 1.8);
  EXPECT_LT(half / healthy, 2.05);
  const double quarter = run("die0.d2d_out", "0.25");
  EXPECT_GT(quarter / healthy, 3.6);
  EXPECT_LT(quarter / healthy, 4.1);
  Outcome bad = run_scenario("ub_write", {"fault.degraded_port=die7.d2d_out"});
  EXPECT_EQ(bad.exit_code, kExitBadInput);
  EXPECT_TRUE(has(bad.message, "fault.degraded_port = 'die7.d2d_out' names no fabric port"))
      << bad.message;
}

TEST(Fault, ACorruptedRecordInAWindowFailsTheCheckNamingTheTensor) {
  Outcome o = run_scenario("dispatch", small({"fault.corrupt_rank=1"}));
  ASSERT_EQ(o.exit_code, kExitCheckFailed) << o.message;
  EXPECT_TRUE(has(o.message, "dispatch: tensor expand_x, call 0, rank 1")) << o.message;
  EXPECT_TRUE(has(o.message, "injected fault(s): fault.corrupt_rank = 1")) << o.message;
  // A timing-only run moves no bytes to corrupt: refused rather than silently fault-free.
  Outcome t = run_scenario("dispatch", small({"fault.corrupt_rank=1", "sim.payload=0"}));
  EXPECT_EQ(t.exit_code, kExitBadInput);
  EXPECT_TRUE(has(t.message, "timing-only")) << t.message;
}

TEST(Fault, FlagsWrittenTwiceFailTheCheckOfTheCallThatReadsAStaleOne) {
  // Three calls: the duplicates of call 0's flags land after the receivers cleared them, in the
  // half call 2 uses again; call 2 takes a stale count.
  Outcome o = run_scenario("dispatch", small({"fault.double_flag_rank=1", "dispatch.calls=3"}));
  ASSERT_EQ(o.exit_code, kExitCheckFailed) << o.message;
  EXPECT_TRUE(has(o.message, "dispatch: tensor ep_recv_counts, call 2")) << o.message;
  EXPECT_TRUE(has(o.message, "injected fault(s): fault.double_flag_rank = 1")) << o.message;
  // One call: the duplicates land after every flag was consumed and nothing reads them again;
  // the outputs are right and the check says so.
  Outcome one = run_scenario("dispatch", small({"fault.double_flag_rank=1"}));
  EXPECT_EQ(one.exit_code, 0) << one.message;
}

TEST(Fault, AWindowFlipForcedWrongIsAHangReportThatNamesIt) {
  for (const char* kernel : {"dispatch", "combine"}) {
    Outcome o = run_scenario(kernel, small({"fault.flip_rank=1"}));
    ASSERT_EQ(o.exit_code, kExitDeadlock) << kernel << ": " << o.message;
    EXPECT_TRUE(has(o.message, "injected fault(s): fault.flip_rank = 1")) << o.message;
  }
}

TEST(Fault, AFaultOnARankOutsideTheRunIsBadInput) {
  for (const char* key :
       {"fault.stall_rank", "fault.corrupt_rank", "fault.double_flag_rank", "fault.flip_rank"}) {
    Outcome o = run_scenario("dispatch", small({std::string(key) + "=4"}));
    EXPECT_EQ(o.exit_code, kExitBadInput) << key;
    EXPECT_TRUE(has(o.message, std::string(key) + " = 4 is not a rank of this run (0-3)"))
        << o.message;
  }
}

TEST(Fault, ARunTimeFaultWithTheHealthyComparisonIsBadInput) {
  const std::vector<std::string> scaled = {
      "ep.world_size=8",    "dispatch.experts=16", "dispatch.bs=16",         "dispatch.hidden=1024",
      "fault.dead_ranks=5", "fault.scale_down=1",  "sim.poll_timeout_us=300"};
  std::vector<std::string> sets = scaled;
  sets.push_back("fault.flip_rank=1");
  Outcome o = run_scenario("dispatch", sets);
  EXPECT_EQ(o.exit_code, kExitBadInput);
  EXPECT_TRUE(has(o.message, "the healthy comparison would be faulted too")) << o.message;
  sets.push_back("fault.compare_healthy=0");  // without it: the faulted run alone
  EXPECT_EQ(run_scenario("dispatch", sets).exit_code, kExitDeadlock);
}

}  // namespace
}  // namespace ascend::test
