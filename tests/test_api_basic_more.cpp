// Basic APIs the vendor's examples use beyond the samples' set: SetPadValue, SetAtomicMax/Min and
// DisableDmaAtomic, the sliced DataCopy, TPipe::Destroy, the GM-word synchronisation
// (IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier) and the SyncAll that waits for its
// caller's pipes. Every expected value comes from the API reference's definitions, computed here.
#include <gtest/gtest.h>

#include <vector>

#include "sim/api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using namespace AscendC;
using ascend::SimError;
using ascend::test::Bench;
using ascend::test::global;
using ascend::test::Order;
using ascend::test::ub_tensor;

// DataCopyPad pads with SetPadValue's value when isPad is false, with paddingValue when it is true.
TEST(ApiBasicMore, SetPadValueFillsThePaddingOfDataCopyPadWithoutIsPad) {
  Bench b;
  std::vector<float> x(20);
  for (int i = 0; i < 20; ++i) x[i] = static_cast<float>(i + 1);
  uint64_t xa = b.alloc(80), ya = b.alloc(2 * 128);
  b.sim().write(xa, x.data(), 80);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, 64);
    DataCopyExtParams cp{1, 20 * 4, 0, 0, 0};
    DataCopyPadExtParams<float> pad;
    pad.rightPadding = 4;  // 20 + 4 floats: 96 B, no dummy beyond
    SetPadValue(7.5f);
    DataCopyPad(l, global<float>(xa, 20), cp, pad);
    pad.isPad = true;
    pad.paddingValue = -1.0f;
    DataCopyPad(l[32], global<float>(xa, 20), cp, pad);
    Order<HardEvent::MTE2_MTE3>();
    DataCopy(global<float>(ya, 64), l, 64);
  });
  std::vector<float> y(64);
  b.sim().read(ya, y.data(), 256);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(y[i], x[i]);
    EXPECT_EQ(y[32 + i], x[i]);
  }
  for (int i = 20; i < 24; ++i) {
    EXPECT_EQ(y[i], 7.5f) << i;
    EXPECT_EQ(y[32 + i], -1.0f) << i;
  }
}

// DataCopyPad out of the UB with DataCopyParams: blockLen bytes per block, as with the Ext form.
TEST(ApiBasicMore, DataCopyPadOutWithDataCopyParamsWritesBlockLenBytes) {
  Bench b;
  std::vector<float> x(16), init(32, -1.0f);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  uint64_t xa = b.alloc(64), ya = b.alloc(128);
  b.sim().write(xa, x.data(), 64);
  b.sim().write(ya, init.data(), 128);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, 16);
    DataCopy(l, global<float>(xa, 16), 16);
    Order<HardEvent::MTE2_MTE3>();
    DataCopyParams p{2, 12, 0, 4};  // two blocks of 3 floats; UB blocks 32 B apart, GM 16 B
    DataCopyPad(global<float>(ya, 32), l, p);
    PipeBarrier<PIPE_ALL>();
  });
  std::vector<float> y(32);
  b.sim().read(ya, y.data(), 128);
  const std::vector<float> want = {0, 1, 2, -1, 8, 9, 10, -1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[i], want[i]) << i;
}

TEST(ApiBasicMore, AtomicMaxAndMinKeepTheLargerAndSmallerUntilDisableDmaAtomic) {
  Bench b;
  std::vector<half> g0(16), s(16);
  for (int i = 0; i < 16; ++i) {
    g0[i] = half(static_cast<float>(i - 8));
    s[i] = half(static_cast<float>(7 - i) * 0.5f);
  }
  uint64_t gmax = b.alloc(32), gmin = b.alloc(32), gnone = b.alloc(32), sa = b.alloc(32);
  for (uint64_t a : {gmax, gmin, gnone}) b.sim().write(a, g0.data(), 32);
  b.sim().write(sa, s.data(), 32);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<half> l = ub_tensor<half>(pipe, 16);
    DataCopy(l, global<half>(sa, 16), 16);
    Order<HardEvent::MTE2_MTE3>();
    SetAtomicMax<half>();
    DataCopy(global<half>(gmax, 16), l, 16);
    SetAtomicMin<half>();
    DataCopy(global<half>(gmin, 16), l, 16);
    DisableDmaAtomic();
    DataCopy(global<half>(gnone, 16), l, 16);
    PipeBarrier<PIPE_ALL>();
  });
  std::vector<half> mx(16), mn(16), no(16);
  b.sim().read(gmax, mx.data(), 32);
  b.sim().read(gmin, mn.data(), 32);
  b.sim().read(gnone, no.data(), 32);
  for (int i = 0; i < 16; ++i) {
    const float a = static_cast<float>(g0[i]), c = static_cast<float>(s[i]);
    EXPECT_EQ(static_cast<float>(mx[i]), a > c ? a : c) << i;
    EXPECT_EQ(static_cast<float>(mn[i]), a < c ? a : c) << i;
    EXPECT_EQ(static_cast<float>(no[i]), c) << i;
  }
}

// The API reference's example: from a 3 x 87 float matrix, rows 0 and 2, elements 16..39 and
// 47..70 of each, into a 2 x 48 one; then back out to GM as it is.
TEST(ApiBasicMore, SlicedDataCopyTakesThePiecesTheSliceInfoNames) {
  Bench b;
  std::vector<float> x(3 * 87);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  uint64_t xa = b.alloc(x.size() * 4), ya = b.alloc(96 * 4);
  b.sim().write(xa, x.data(), x.size() * 4);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, 96);
    SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    DataCopy(l, global<float>(xa, x.size()), dst, src, 2);
    Order<HardEvent::MTE2_MTE3>();
    DataCopy(global<float>(ya, 96), l, dst, dst, 2);
  });
  std::vector<float> y(96);
  b.sim().read(ya, y.data(), 96 * 4);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 48; ++c) {
      const int col = c < 24 ? 16 + c : 47 + (c - 24);
      EXPECT_EQ(y[r * 48 + c], x[(r * 2) * 87 + col]) << r << "," << c;
    }
}

TEST(ApiBasicMore, ASliceThatBreaksItsRuleIsAKernelFault) {
  Bench b;
  uint64_t xa = b.alloc(4096);
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<float> l = ub_tensor<float>(pipe, 96);
    SliceInfo src[] = {{16, 71, 7, 3, 87}};  // 56 elements: no whole number of 24 + 7
    SliceInfo dst[] = {{0, 47, 0, 3, 48}};
    DataCopy(l, global<float>(xa, 1024), dst, src, 1);
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("SliceInfo"), std::string::npos) << e.what();
}

TEST(ApiBasicMore, ASecondTPipeMayFollowADestroyedOne) {
  Bench b;
  uint32_t used = 1;
  b.run(1, [&] {
    TPipe first;
    ub_tensor<float>(first, 1024);
    first.Destroy();
    TPipe second;
    used = second.used_bytes();
    ub_tensor<float>(second, 64);
  });
  EXPECT_EQ(used, 0u);
}

TEST(ApiBasicMore, WithoutDestroyASecondTPipeIsAKernelFault) {
  Bench b;
  SimError e = b.run_expecting_error(1, [&] {
    TPipe first;
    TPipe second;
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
}

// Core 1 reads what core 0 wrote only after IBWait; its word is back at 0 after the pair.
TEST(ApiBasicMore, IbWaitReleasesAfterTheMatchingIbSet) {
  Bench b;
  uint64_t sync = b.alloc(2 * 32), data = b.alloc(32);
  int32_t seen = 0;
  std::vector<int32_t> words(16, -1);
  b.run(2, [&] {
    TPipe pipe;
    LocalTensor<int32_t> ub = ub_tensor<int32_t>(pipe, 8);
    GlobalTensor<int32_t> ws = global<int32_t>(sync, 16), d = global<int32_t>(data, 8);
    if (GetBlockIdx() == 0) {
      SimStall(5000);  // long after core 1 started polling
      d.SetValue(0, 42);
      IBSet(ws, ub, 0, 0);
    } else {
      IBWait(ws, ub, 0, 0);
      seen = d.GetValue(0);
    }
  });
  b.sim().read(sync, words.data(), 64);
  EXPECT_EQ(seen, 42);
  EXPECT_EQ(words[0], 0);
}

// Four cores add to one GM word in block order, round after round: each round's order shows in
// the sequence of values core c reads before its add.
TEST(ApiBasicMore, WaitPreBlockAndNotifyNextBlockRunTheCoresInBlockOrder) {
  Bench b;
  const int cores = 4, rounds = 3;
  uint64_t ws = b.alloc(cores * 32), acc = b.alloc(32);
  std::vector<std::vector<int32_t>> before(cores);
  b.run(cores, [&] {
    TPipe pipe;
    LocalTensor<int32_t> ub = ub_tensor<int32_t>(pipe, cores * 8 + 8);
    GlobalTensor<int32_t> w = global<int32_t>(ws, cores * 8), a = global<int32_t>(acc, 8);
    InitDetermineComputeWorkspace(w, ub);
    SyncAll();
    for (int r = 0; r < rounds; ++r) {
      WaitPreBlock(w, ub);
      const int32_t v = a.GetValue(0);
      before[GetBlockIdx()].push_back(v);
      a.SetValue(0, v + 1);
      NotifyNextBlock(w, ub);
    }
  });
  for (int c = 0; c < cores; ++c)
    for (int r = 0; r < rounds; ++r) EXPECT_EQ(before[c][r], r * cores + c) << c << " " << r;
}

// Two arrivers, three waiters: no waiter leaves before the last arrival has landed, in each of
// two rounds.
TEST(ApiBasicMore, GroupBarrierReleasesTheWaitersAfterEveryArrival) {
  Bench b;
  const uint32_t arrive = 2, wait = 3;
  uint64_t ws = b.alloc(3 * 512);
  std::vector<uint64_t> arrived(2 * arrive), left(2 * wait);
  b.run(arrive + wait, [&] {
    TPipe pipe;
    GroupBarrier<PipeMode::MTE3_MODE> bar(reinterpret_cast<GM_ADDR>(ws), arrive, wait);
    const auto id = static_cast<uint32_t>(GetBlockIdx());
    for (int round = 0; round < 2; ++round) {
      if (id < arrive) {
        SimStall(1000 * (id + 1) * (round + 1));
        PipeBarrier<PIPE_ALL>();
        arrived[round * arrive + id] = SimNowPs();
        bar.Arrive(id);
      } else {
        bar.Wait(id - arrive);
        left[round * wait + id - arrive] = SimNowPs();
      }
    }
  });
  for (int round = 0; round < 2; ++round)
    for (uint32_t w = 0; w < wait; ++w)
      for (uint32_t a = 0; a < arrive; ++a)
        EXPECT_GT(left[round * wait + w], arrived[round * arrive + a]) << round << " " << w;
  std::vector<int32_t> counts(3 * 128);
  b.sim().read(ws, counts.data(), 3 * 512);
  for (int line = 0; line < 3; ++line) {
    EXPECT_EQ(counts[line * 128], 2 * static_cast<int>(arrive)) << line;
    EXPECT_EQ(counts[line * 128 + 16], 2 * static_cast<int>(wait)) << line;
  }
}

// A user's program (allocation bounds) may bind a GlobalTensor to a pointer that is no GM and never
// use it; the first copy from it is the fault.
TEST(ApiBasicMore, AnUnboundGlobalTensorFaultsWhereItIsUsed) {
  Bench b;
  AscendC::detail::set_gm_bounds(AscendC::detail::GmBounds::Allocation);
  uint64_t x = b.alloc(256);
  bool bound = false;
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    GlobalTensor<float> unused, used = global<float>(x, 64);
    unused.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(uintptr_t{0x10}));
    bound = true;
    LocalTensor<float> l = ub_tensor<float>(pipe, 64);
    DataCopy(l, used, 64);
    DataCopy(l, unused, 64);
  });
  AscendC::detail::set_gm_bounds(AscendC::detail::GmBounds::Tensor);
  EXPECT_TRUE(bound);
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("outside its GM allocation"), std::string::npos) << e.what();
}

}  // namespace
