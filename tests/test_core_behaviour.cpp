// What the core model must show a kernel engineer: a forgotten flag reads stale data, a flag
// nobody sets or a SyncAll a core skips is a reported deadlock, a poll that never succeeds is a
// reported hang, and UB overflow names the buffer and the sizes.
#include "api/kernel_operator.h"
#include "tests/harness.h"

using namespace AscendC;

namespace ascend::test {
namespace {

constexpr uint32_t kCount = 1024;

// DataCopy GM->UB then Muls in place and write back; with_flag orders the vector after the copy.
std::vector<float> copy_scale_store(bool with_flag) {
  Bench b;
  uint64_t x = b.alloc(kCount * 4), y = b.alloc(kCount * 4);
  std::vector<float> in(kCount, 1.5f), out(kCount, -1.0f);
  b.sim().write(x, in.data(), kCount * 4);
  b.run(1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kCount * 4);
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), kCount);
    yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kCount);
    LocalTensor<float> l = buf.Get<float>();
    DataCopy(l, xg, kCount);
    if (with_flag) {
      SetFlag<HardEvent::MTE2_V>(0);
      WaitFlag<HardEvent::MTE2_V>(0);
    }
    Muls(l, l, 2.0f, kCount);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yg, l, kCount);
  });
  b.sim().read(y, out.data(), kCount * 4);
  return out;
}

TEST(CoreBehaviour, WithTheFlagTheVectorSeesTheCopiedData) {
  std::vector<float> out = copy_scale_store(true);
  for (float v : out) ASSERT_EQ(v, 3.0f);
}

TEST(CoreBehaviour, AForgottenFlagReadsStaleData) {
  // The vector op runs while MTE2 is still in flight and scales the UB's old zeros; MTE3, ordered
  // only after the vector, reads the UB before the copy lands and stores those zeros.
  std::vector<float> out = copy_scale_store(false);
  for (float v : out) ASSERT_EQ(v, 0.0f);
}

TEST(CoreBehaviour, WaitFlagNobodySetsIsADeadlockWithAReport) {
  Bench b;
  SimError e = b.run_expecting_error(2, [&] {
    if (GetBlockIdx() == 1) {
      WaitFlag<HardEvent::MTE2_V>(3);  // issued into VECTOR; nothing sets it
      PipeBarrier<PIPE_ALL>();
    }
  });
  EXPECT_EQ(e.code, kExitDeadlock);
  std::string m = e.what();
  EXPECT_NE(m.find("deadlock"), std::string::npos) << m;
  EXPECT_NE(m.find("die 0 core 1"), std::string::npos) << m;
  EXPECT_NE(m.find("PipeBarrier<PIPE_ALL>"), std::string::npos) << m;
  EXPECT_NE(m.find("head WaitFlag<MTE2_V>(3)"), std::string::npos) << m;
  EXPECT_EQ(m.find("core 0:"), std::string::npos) << "core 0 finished and is not blocked: " << m;
}

TEST(CoreBehaviour, ScalarWaitFlagNobodySetsIsADeadlock) {
  Bench b;
  SimError e = b.run_expecting_error(1, [&] { WaitFlag<HardEvent::V_S>(0); });
  EXPECT_EQ(e.code, kExitDeadlock);
  EXPECT_NE(std::string(e.what()).find("scalar blocked in WaitFlag<V_S>(0) since"),
            std::string::npos)
      << e.what();
}

TEST(CoreBehaviour, ASyncAllOneCoreNeverReachesIsADeadlock) {
  Bench b;
  SimError e = b.run_expecting_error(3, [&] {
    if (GetBlockIdx() != 2) SyncAll();
  });
  EXPECT_EQ(e.code, kExitDeadlock);
  std::string m = e.what();
  EXPECT_NE(m.find("SyncAll (2 of 3 cores arrived)"), std::string::npos) << m;
}

TEST(CoreBehaviour, APollThatNeverSucceedsIsAHang) {
  Bench b({"sim.poll_timeout_us=20"});
  uint64_t flag = b.alloc(32);
  SimError e = b.run_expecting_error(1, [&] {
    GlobalTensor<int32_t> f;
    f.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flag), 8);
    while (f.GetValue(0) != 1) {
    }
  });
  EXPECT_EQ(e.code, kExitDeadlock);
  EXPECT_NE(std::string(e.what()).find("hang: kernel still running at 20000 ns"), std::string::npos)
      << e.what();
}

TEST(CoreBehaviour, UbOverflowNamesKernelBufferAndSizes) {
  Bench b({"ub.size_KiB=64"});
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> scratch;
    pipe.InitBuffer(scratch, 40000);
    pipe.InitBuffer(q, 2, 16384);
  });
  EXPECT_EQ(e.code, kExitKernelFault);
  std::string m = e.what();
  for (const char* part : {"kernel 'test'", "UB overflow", "2 x 16384 B",
                           "test_core_behaviour.cpp:", "needs 32768 B", "only 25536 of 65536 B"})
    EXPECT_NE(m.find(part), std::string::npos) << part << " missing from: " << m;
}

TEST(CoreBehaviour, TheScalarCannotReachAnotherDiesGm) {
  Bench b({}, 2);
  uint64_t remote = b.alloc(1024, 1);
  SimError e = b.run_expecting_error(1, [&] {
    if (detail::core().die() != 0) return;
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(remote), 256);
    g.GetValue(0);
  });
  EXPECT_EQ(e.code, kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("only reaches its own die's GM"), std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace ascend::test
