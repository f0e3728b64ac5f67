// Kernel misuse ends in a kernel fault that names the problem; it never corrupts the simulator,
// and one launch never leaks state into the next.
#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;

namespace ascend::test {
namespace {

void expect_kernel_fault(const std::string& what, const std::function<void()>& body,
                         const std::vector<std::string>& sets = {}) {
  Bench b(sets);
  SimError e = b.run_expecting_error(1, body);
  EXPECT_EQ(e.code, kExitKernelFault) << e.what();
  EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
}

TEST(Misuse, StridedDataCopyPastItsLocalTensorIsAFaultNotAHeapOverflow) {
  Bench b;
  uint64_t x = b.alloc(65536);
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    DataCopy(ub_tensor<uint8_t>(pipe, 1024), global<uint8_t>(x, 65536),
             DataCopyParams{1, 2048, 0, 0});
  });
  EXPECT_EQ(e.code, kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("allocated by InitBuffer"), std::string::npos) << e.what();
}

TEST(Misuse, DataCopyPadToGmFromATooSmallTensorIsAFault) {
  Bench b;
  uint64_t y = b.alloc(4096);
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> small, other;
    pipe.InitBuffer(small, 64);
    pipe.InitBuffer(other, 4096);
    GlobalTensor<uint8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(y), 4096);
    DataCopyPad(g, small.Get<uint8_t>(), DataCopyExtParams{1, 1000, 0, 0, 0});
  });
  EXPECT_EQ(e.code, kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("beyond a LocalTensor of 64 B"), std::string::npos)
      << e.what();
}

TEST(Misuse, AVectorOpOnAnUnallocatedTensorIsAFault) {
  expect_kernel_fault("never allocated", [] {
    LocalTensor<float> t;
    Duplicate(t, 1.0f, 64);
  });
}

TEST(Misuse, AVectorOperandOffTheBlockBoundaryIsAFault) {
  expect_kernel_fault("not 32-B aligned", [] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    Adds(t[3], t[3], 1.0f, 64);
  });
}

TEST(Misuse, AnOverflowingGlobalTensorSizeIsAFault) {
  Bench b;
  uint64_t x = b.alloc(64);
  SimError e = b.run_expecting_error(1, [&] {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), (uint64_t{1} << 62) + 16);
    g.SetValue(1000, 42.0f);
  });
  EXPECT_EQ(e.code, kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("overflow"), std::string::npos) << e.what();
}

TEST(Misuse, AQueueOnVeccalcIsAFaultNotAnInternalError) {
  expect_kernel_fault("VECCALC is for TBuf", [] { TQue<TPosition::VECCALC, 1> q; });
}

TEST(Misuse, FreeingATensorStillInTheQueueIsAFault) {
  expect_kernel_fault("still in the queue", [] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    q.FreeTensor(t);
  });
}

TEST(Misuse, ASecondTPipeIsAFault) {
  expect_kernel_fault("second TPipe", [] {
    TPipe a;
    TPipe b;
  });
}

TEST(Misuse, ZeroCostScalarInstructionsAreRejected) {
  EXPECT_EQ(run_scenario("pipeline", {"scalar.issue_cycles=0"}).exit_code, kExitBadInput);
  EXPECT_EQ(run_scenario("pipeline", {"scalar.gm_latency_cycles=0"}).exit_code, kExitBadInput);
}

TEST(Launches, AFlagLeftSetByOneKernelDoesNotReleaseTheNext) {
  Bench b;
  const uint32_t n = 4096;
  uint64_t x = b.alloc(n);
  std::vector<uint8_t> data(n, 0xAB);
  b.sim().write(x, data.data(), n);
  b.run(1, [] { SetFlag<HardEvent::MTE2_S>(0); });  // never waited for
  int seen = -1;
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint8_t> l = ub_tensor<uint8_t>(pipe, n);
    DataCopy(l, global<uint8_t>(x, n), n);
    Order<HardEvent::MTE2_S>();
    seen = l.GetValue(n - 1);
  });
  EXPECT_EQ(seen, 0xAB) << "the second kernel's WaitFlag was released by the first kernel's flag";
}

TEST(Launches, QueuesWorkAcrossManyLaunches) {
  Bench b;
  uint64_t x = b.alloc(256);
  std::vector<float> v(64, 3.0f);
  b.sim().write(x, v.data(), 256);
  for (int launch = 0; launch < 50; ++launch) {
    float got = 0;
    b.run(1, [&] {
      TPipe pipe;
      TQue<TPosition::VECIN, 1> q;
      pipe.InitBuffer(q, 2, 256);
      LocalTensor<float> t = q.AllocTensor<float>();
      DataCopy(t, global<float>(x, 64), 64);
      q.EnQue(t);
      t = q.DeQue<float>();
      Muls(t, t, 2.0f, 64);
      Order<HardEvent::V_S>();
      got = t.GetValue(63);
      q.FreeTensor(t);
    });
    ASSERT_EQ(got, 6.0f) << "launch " << launch;
  }
}

TEST(Launches, AnEmptyKernelTakesNoTime) {
  Bench b;
  KernelRecord& r = b.run(4, [] {});
  EXPECT_EQ(r.latency(), 0u);
}

}  // namespace
}  // namespace ascend::test
