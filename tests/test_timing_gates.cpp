// Timing gates are tight: each test computes from the documented formula (models/core.h)
// when an instruction completes, then shows its effect is absent 1 ps earlier and present at that
// time. The scalar observes completion through a SetFlag<X_S>/WaitFlag<X_S> pair, which releases
// in the same instant as the completion.
#include <algorithm>
#include <cmath>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;
using ascend::model::now;
using ascend::model::ns_to_ps;
using ascend::model::Tick;
using ascend::model::transfer_ps;

namespace ascend::test {
namespace {

Tick issue(const model::CoreTiming& t) {
  return t.clock.cycles(t.issue_cycles);
}

Tick dma_hold(const model::CoreTiming& t, uint64_t bytes, double bytes_per_cycle) {
  return t.clock.cycles(
      t.dma_setup_cycles +
      static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / bytes_per_cycle - 1e-9)));
}

constexpr double kReadLatencyNs = 130, kWriteLatencyNs = 72;  // hbm.*_latency_ns defaults

// A lone local DMA issued into an idle core: the engine and the HBM stream it, the path latency
// follows, and the engine's outstanding window bounds it at window / latency
// (CostModel::outstanding_bound).
Tick lone_dma_done(const model::CoreTiming& t, uint64_t bytes, bool write) {
  double rate = write ? t.mte3_bytes_per_cycle : t.mte2_bytes_per_cycle;
  Tick latency = ns_to_ps(write ? kWriteLatencyNs : kReadLatencyNs);
  uint32_t window = write ? t.mte3_outstanding_bytes : t.mte2_outstanding_bytes;
  Tick streamed = std::max(dma_hold(t, bytes, rate), transfer_ps(bytes, 1600)) + latency;
  Tick bound = window ? static_cast<Tick>(std::ceil(static_cast<double>(bytes) *
                                                    static_cast<double>(latency) / window))
                      : 0;
  return issue(t) + std::max(streamed, bound);
}

TEST(TimingGate, LoneDataCopyInLandsExactlyAfterIssueTransferAndLatency) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 4096;
  uint64_t x = b.alloc(n);
  std::vector<uint8_t> data(n, 0xAB);
  b.sim().write(x, data.data(), n);
  Tick done = lone_dma_done(t, n, false);
  model::Core& core = *b.cluster().die(0).cores[0];
  int before = -1, after = -1;
  Tick resumed = 0;
  b.at(done - 1, [&] { before = core.ub()[n - 1]; });
  b.run(1, [&] {
    TPipe pipe;
    DataCopy(ub_tensor<uint8_t>(pipe, n), global<uint8_t>(x, n), n);
    Order<HardEvent::MTE2_S>();
    resumed = SimNowPs();
    after = core.ub()[n - 1];
  });
  EXPECT_EQ(before, 0) << "bytes visible before the transfer completed";
  EXPECT_EQ(resumed, done);
  EXPECT_EQ(after, 0xAB);
}

TEST(TimingGate, LoneDataCopyOutIsVisibleInGmExactlyAtCompletion) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 8192;
  uint64_t y = b.alloc(n);
  // The UB holds zeros; pre-fill GM with 0x11 so the write is observable.
  std::vector<uint8_t> ones(n, 0x11);
  b.sim().write(y, ones.data(), n);
  Tick done = lone_dma_done(t, n, true);
  uint8_t before = 0, after = 0;
  Tick resumed = 0;
  b.at(done - 1, [&] { b.sim().read(y + n - 1, &before, 1); });
  b.run(1, [&] {
    TPipe pipe;
    DataCopy(global<uint8_t>(y, n), ub_tensor<uint8_t>(pipe, n), n);
    Order<HardEvent::MTE3_S>();
    resumed = SimNowPs();
    b.sim().read(y + n - 1, &after, 1);
  });
  EXPECT_EQ(before, 0x11);
  EXPECT_EQ(resumed, done);
  EXPECT_EQ(after, 0);
}

TEST(TimingGate, UnalignedGmAddressSlowsTheEngineByTheEfficiencyFactor) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t x = b.alloc(n + 512) + 32;  // 32-B but not 512-B aligned
  Tick hold = dma_hold(t, n, t.mte2_bytes_per_cycle * t.dma_unaligned_efficiency);
  ASSERT_GT(hold, dma_hold(t, n, t.mte2_bytes_per_cycle));
  Tick resumed = 0;
  b.run(1, [&] {
    TPipe pipe;
    DataCopy(ub_tensor<uint8_t>(pipe, n), global<uint8_t>(x, n), n);
    Order<HardEvent::MTE2_S>();
    resumed = SimNowPs();
  });
  EXPECT_EQ(resumed, issue(t) + hold + ns_to_ps(kReadLatencyNs));
}

TEST(TimingGate, VectorResultAppearsAfterOverheadPlusRepeats) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t count = 1000;  // 4000 B -> 16 repeats of 256 B
  Tick done = issue(t) + t.clock.cycles(t.vector_overhead_cycles + 16);
  model::Core& core = *b.cluster().die(0).cores[0];
  float before = -1, after = -1;
  Tick resumed = 0;
  b.at(done - 1, [&] { std::memcpy(&before, core.ub() + (count - 1) * 4, 4); });
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, count);
    Duplicate(l, 2.5f, count);
    Order<HardEvent::V_S>();
    resumed = SimNowPs();
    after = l.GetValue(count - 1);
  });
  EXPECT_EQ(before, 0.0f);
  EXPECT_EQ(resumed, done);
  EXPECT_EQ(after, 2.5f);
}

TEST(TimingGate, WaitFlagReleasesExactlyAtTheSetsCompletion) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t count = 2048;  // 8 KiB of fp32
  uint64_t x = b.alloc(count * 4);
  std::vector<float> data(count, 3.0f);
  b.sim().write(x, data.data(), count * 4);
  Tick dma_done = lone_dma_done(t, count * 4, false);
  Tick vec_done = dma_done + t.clock.cycles(t.vector_overhead_cycles + 32);
  model::Core& core = *b.cluster().die(0).cores[0];
  float before = -1;
  Tick resumed = 0;
  float after = 0;
  b.at(vec_done - 1, [&] { std::memcpy(&before, core.ub(), 4); });
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, count);
    DataCopy(l, global<float>(x, count), count);
    Order<HardEvent::MTE2_V>();
    Muls(l, l, 2.0f, count);
    Order<HardEvent::V_S>();
    resumed = SimNowPs();
    after = l.GetValue(0);
  });
  EXPECT_EQ(before, 3.0f) << "the vector result landed early";
  EXPECT_EQ(resumed, vec_done);
  EXPECT_EQ(after, 6.0f);
}

TEST(TimingGate, BackToBackTransfersOverlapInFlightButNotOnTheEngine) {
  Bench b({"mte2.outstanding_bytes=0"});  // the engine alone: no window bound
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t x = b.alloc(2 * n);
  Tick hold = dma_hold(t, n, t.mte2_bytes_per_cycle);
  Tick resumed = 0;
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint8_t> l = ub_tensor<uint8_t>(pipe, 2 * n);
    GlobalTensor<uint8_t> g = global<uint8_t>(x, 2 * n);
    DataCopy(l, g, n);
    DataCopy(l[n], g[n], n);
    Order<HardEvent::MTE2_S>();
    resumed = SimNowPs();
  });
  // The second transfer starts when the engine is free (after `hold`), not when the first lands.
  EXPECT_EQ(resumed, issue(t) + hold + hold + ns_to_ps(kReadLatencyNs));
}

// With the window, back-to-back reads share one bound: the second cannot start streaming before
// the first has drained it, so both land at 2 x bytes x latency / window, not before.
TEST(TimingGate, OutstandingWindowBoundsBackToBackReads) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t x = b.alloc(2 * n);
  std::vector<uint8_t> data(2 * n, 0x5A);
  b.sim().write(x, data.data(), 2 * n);
  Tick bound = static_cast<Tick>(
      std::ceil(n * static_cast<double>(ns_to_ps(kReadLatencyNs)) / t.mte2_outstanding_bytes));
  Tick streamed = issue(t) + 2 * dma_hold(t, n, t.mte2_bytes_per_cycle) + ns_to_ps(kReadLatencyNs);
  Tick done = issue(t) + 2 * bound;
  ASSERT_GT(done, streamed) << "the window must be what binds here";
  model::Core& core = *b.cluster().die(0).cores[0];
  int before = -1;
  Tick resumed = 0;
  b.at(done - 1, [&] { before = core.ub()[2 * n - 1]; });
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint8_t> l = ub_tensor<uint8_t>(pipe, 2 * n);
    GlobalTensor<uint8_t> g = global<uint8_t>(x, 2 * n);
    DataCopy(l, g, n);
    DataCopy(l[n], g[n], n);
    Order<HardEvent::MTE2_S>();
    resumed = SimNowPs();
  });
  EXPECT_EQ(before, 0) << "the second read landed before the window let it";
  EXPECT_EQ(resumed, done);
}

TEST(TimingGate, HbmIsSharedFifoWhenItIsTheBottleneck) {
  Bench b({"hbm.bandwidth_GBps=100", "mte2.bytes_per_cycle=4096"});
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t x = b.alloc(2 * n);
  Tick occ = transfer_ps(n, 100);
  ASSERT_GT(occ, dma_hold(t, n, 4096));
  Tick resumed[2] = {0, 0};
  b.run(2, [&] {
    TPipe pipe;
    DataCopy(ub_tensor<uint8_t>(pipe, n), global<uint8_t>(x + GetBlockIdx() * n, n), n);
    Order<HardEvent::MTE2_S>();
    resumed[GetBlockIdx()] = SimNowPs();
  });
  Tick first = issue(t) + occ + ns_to_ps(kReadLatencyNs);
  EXPECT_EQ(std::min(resumed[0], resumed[1]), first);
  EXPECT_EQ(std::max(resumed[0], resumed[1]), first + occ);
}

TEST(TimingGate, ScalarStallsWhileThePipeQueueIsFull) {
  Bench b({"pipe.queue_depth=2"});
  const auto& t = b.timing();
  const uint32_t count = 64 * 100;  // 100 repeats each
  Tick vec = t.clock.cycles(t.vector_overhead_cycles + 100);
  Tick after_issue = 0;
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, count);
    for (int i = 0; i < 4; ++i) Duplicate(l, 1.0f, count);
    after_issue = SimNowPs();
  });
  // #1 starts at issue (leaves the queue), #2 and #3 wait in it, #4 finds it full until #1 ends.
  ASSERT_GT(vec, 3 * issue(t));
  EXPECT_EQ(after_issue, issue(t) + vec);
}

TEST(TimingGate, SyncAllReleasesEveryCoreAfterTheLastArrival) {
  Bench b;
  const auto& t = b.timing();
  Tick left[4] = {};
  b.run(4, [&] {
    model::Core& c = detail::core();
    c.scalar_work(static_cast<uint64_t>(GetBlockIdx()) * 1000);
    SyncAll();
    left[GetBlockIdx()] = SimNowPs();
  });
  Tick release = t.clock.cycles(3000) + issue(t) + t.clock.cycles(t.syncall_cycles);
  for (Tick l : left) EXPECT_EQ(l, release);
}

// SyncAll starts with PipeBarrier<PIPE_ALL>: core 0's copy-out lands before any core leaves, so
// core 1 reads it right after the barrier.
TEST(TimingGate, SyncAllWaitsForTheCallersCopyOut) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t y = b.alloc(n);
  std::vector<uint8_t> ones(n, 0x11);  // the UB holds zeros
  b.sim().write(y, ones.data(), n);
  Tick release = lone_dma_done(t, n, true) + t.clock.cycles(t.syncall_cycles);
  Tick left[2] = {};
  uint8_t seen = 0x11;
  b.run(2, [&] {
    TPipe pipe;
    if (GetBlockIdx() == 0) DataCopy(global<uint8_t>(y, n), ub_tensor<uint8_t>(pipe, n), n);
    SyncAll();
    left[GetBlockIdx()] = SimNowPs();
    if (GetBlockIdx() == 1) b.sim().read(y + n - 1, &seen, 1);
  });
  EXPECT_EQ(seen, 0) << "core 1 left SyncAll before core 0's copy-out landed";
  EXPECT_EQ(left[0], release);
  EXPECT_EQ(left[1], release);
}

TEST(TimingGate, PipeBarrierAllWaitsForEveryPipe) {
  Bench b;
  const auto& t = b.timing();
  const uint32_t n = 16384;
  uint64_t y = b.alloc(n);
  Tick resumed = 0;
  b.run(1, [&] {
    TPipe pipe;
    DataCopy(global<uint8_t>(y, n), ub_tensor<uint8_t>(pipe, n), n);
    PipeBarrier<PIPE_ALL>();
    resumed = SimNowPs();
  });
  Tick done = lone_dma_done(t, n, true);
  EXPECT_EQ(resumed, done);
}

}  // namespace
}  // namespace ascend::test
