// The debugging APIs a kernel calls: GetSystemCycle (the system counter at the scalar's time),
// printf/PRINTF and DumpTensor (printed, no simulated time).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::test::Bench;
using ascend::test::ub_tensor;

// The counter runs at core.system_counter_MHz (50 on A2/A3): a stall of 1 us between two reads
// is 50 counts.
int64_t counts_over_one_us(const std::vector<std::string>& sets) {
  Bench b(sets);
  int64_t delta = -1;
  b.run(1, [&] {
    const int64_t before = GetSystemCycle();
    SimStall(SimCyclesIn(1000000));
    delta = GetSystemCycle() - before;
  });
  return delta;
}
TEST(ApiDebug, GetSystemCycleCounts50PerMicrosecondOnA3) {
  EXPECT_NEAR(static_cast<double>(counts_over_one_us({})), 50.0, 1.0);
}
TEST(ApiDebug, GetSystemCycleFollowsTheCountersRate) {
  EXPECT_NEAR(static_cast<double>(counts_over_one_us({"core.system_counter_MHz=100"})), 100.0, 1.0);
}

// printf and DumpTensor print and leave the kernel's timing as it is: the same program with and
// without them takes the same time.
TEST(ApiDebug, PrintfAndDumpTensorPrintWithoutTakingTime) {
  Bench b;
  uint64_t took[2] = {0, 0};
  std::string out;
  for (int print = 0; print < 2; ++print) {
    testing::internal::CaptureStdout();
    b.run(1, [&] {
      const uint64_t start = SimNowPs();
      TPipe pipe;
      LocalTensor<float> t = ub_tensor<float>(pipe, 64);
      Duplicate(t, 1.5f, 64);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      if (print) {
        PRINTF("block %d of %d\n", static_cast<int>(GetBlockIdx()),
               static_cast<int>(GetBlockNum()));
        DumpTensor(t, 7, 4);
      }
      Adds(t, t, 1.0f, 64);
      SetFlag<HardEvent::V_S>(0);
      WaitFlag<HardEvent::V_S>(0);
      took[print] = SimNowPs() - start;
    });
    out = testing::internal::GetCapturedStdout();
  }
  // The device's prefix: the core's kind, block index and block count.
  EXPECT_NE(out.find("[AIV Block 0/1] block 0 of 1\n"), std::string::npos) << out;
  EXPECT_NE(out.find("desc 7"), std::string::npos) << out;
  EXPECT_NE(out.find("1.5 1.5 1.5 1.5"), std::string::npos) << out;
  EXPECT_GT(took[0], 0u);
  EXPECT_EQ(took[0], took[1]);
}

// Outside a kernel (the host code of a program) printf prints the format alone.
TEST(ApiDebug, PrintfOutsideAKernelHasNoPrefix) {
  testing::internal::CaptureStdout();
  AscendC::printf("host %d\n", 7);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "host 7\n");
}

}  // namespace
