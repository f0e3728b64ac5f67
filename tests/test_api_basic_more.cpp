// Basic APIs the vendor's examples use beyond the samples' set: SetPadValue, SetAtomicMax/Min and
// DisableDmaAtomic, the sliced DataCopy, TPipe::Destroy, the GM-word synchronisation
// (IBSet/IBWait, WaitPreBlock/NotifyNextBlock, GroupBarrier) and the SyncAll that waits for its
// caller's pipes. Every expected value comes from the API reference's definitions, computed here.
#include <gtest/gtest.h>

#include <vector>

#include "api/kernel_operator.h"
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

// Two TBufPools on one region, one after the other: each carves its queue from the region, and
// Reset lets the second fill what the first used. Carving past a pool is a kernel fault.
TEST(ApiBasicMore, TBufPoolsShareARegionAfterReset) {
  Bench b;
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
  uint64_t xa = b.alloc(256), ya = b.alloc(512);
  b.sim().write(xa, x.data(), 256);
  b.run(1, [&] {
    TPipe pipe;
    TBufPool<TPosition::VECCALC> first, second;
    TQue<TPosition::VECIN, 1> in1, in2;
    TQue<TPosition::VECOUT, 1> out1, out2;
    pipe.InitBufPool(first, 512);
    pipe.InitBufPool(second, 512, first);
    first.InitBuffer(in1, 1, 256);
    first.InitBuffer(out1, 1, 256);
    for (int round = 0; round < 2; ++round) {
      TQue<TPosition::VECIN, 1>& in = round ? in2 : in1;
      TQue<TPosition::VECOUT, 1>& out = round ? out2 : out1;
      if (round) {
        second.InitBuffer(in2, 1, 256);
        second.InitBuffer(out2, 1, 256);
      }
      LocalTensor<float> l = in.AllocTensor<float>();
      DataCopy(l, global<float>(xa, 64), 64);
      in.EnQue(l);
      l = in.DeQue<float>();
      LocalTensor<float> o = out.AllocTensor<float>();
      Adds(o, l, static_cast<float>(100 * (round + 1)), 64);
      in.FreeTensor(l);
      out.EnQue(o);
      o = out.DeQue<float>();
      DataCopy(global<float>(ya + round * 256, 64), o, 64);
      out.FreeTensor(o);
      if (!round) first.Reset();
    }
  });
  std::vector<float> y(128);
  b.sim().read(ya, y.data(), 512);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(y[i], x[i] + 100) << i;
    EXPECT_EQ(y[64 + i], x[i] + 200) << i;
  }
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBufPool(pool, 256);
    pool.InitBuffer(q, 2, 256);
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("of the pool's 256 B are left"), std::string::npos)
      << e.what();
}

// A user's pool (EXTERN_IMPL_BUFPOOL) places a queue's buffers where it chooses in its region.
class TwoSlotPool {
 public:
  TwoSlotPool() { Init(); }
  template <class Q>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
    TBufHandle h = GetBufHandle(GetCurBufSize());
    que.InitStartBufHandle(h, num, len);
    for (uint32_t i = 0; i < num; ++i)  // every other slot of len bytes
      que.InitBufHandle(this, i, h, GetCurAddr() + 2 * i * len, len);
    SetCurAddr(GetCurAddr() + 2 * num * len);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + num));
    return true;
  }
  EXTERN_IMPL_BUFPOOL(TwoSlotPool, TPosition::VECCALC, 4);
};

TEST(ApiBasicMore, ACustomTBufPoolPlacesItsQueuesBuffers) {
  Bench b;
  std::vector<float> x(64, 3.0f);
  uint64_t xa = b.alloc(256), ya = b.alloc(256);
  b.sim().write(xa, x.data(), 256);
  b.run(1, [&] {
    TPipe pipe;
    TwoSlotPool pool;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    pipe.InitBufPool(pool, 1024);
    pool.InitBuffer(q, 2, 256);
    LocalTensor<float> l = q.AllocTensor<float>();
    LocalTensor<float> m = q.AllocTensor<float>();
    EXPECT_EQ(m.ub_offset() - l.ub_offset(), 512u);  // the pool's own placement
    DataCopy(l, global<float>(xa, 64), 64);
    q.EnQue(l);
    l = q.DeQue<float>();
    DataCopy(global<float>(ya, 64), l, 64);
    q.FreeTensor(l);
    q.FreeTensor(m);
  });
  std::vector<float> y(64);
  b.sim().read(ya, y.data(), 256);
  EXPECT_EQ(y, x);
}

// TBuf::GetWithOffset views the buffer from a byte offset; an unaligned offset is a fault.
// TPosition::LCM is VECCALC.
TEST(ApiBasicMore, TBufGetWithOffsetViewsFromTheOffset) {
  static_assert(TPosition::LCM == TPosition::VECCALC);
  Bench b;
  uint64_t ya = b.alloc(64);
  b.run(1, [&] {
    TPipe pipe;
    TBuf<TPosition::LCM> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> tail = buf.GetWithOffset<float>(16, 128);
    EXPECT_EQ(tail.ub_offset(), all.ub_offset() + 128);
    Duplicate(all, 1.0f, 64);
    Duplicate(tail, 2.0f, 16);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(ya, 16), all[32], 16);
  });
  std::vector<float> y(16);
  b.sim().read(ya, y.data(), 64);
  EXPECT_EQ(y, std::vector<float>(16, 2.0f));
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 256);
    buf.GetWithOffset<float>(8, 16);
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("GetWithOffset"), std::string::npos) << e.what();
}

// TransDataTo5HD, 16-bit: over two repeats (the source one block on, the destination sixteen),
// destination block j of repeat r holds element j of each source block of that repeat.
TEST(ApiBasicMore, TransDataTo5HdTransposesSixteenBlocksPerRepeat) {
  Bench b;
  std::vector<uint16_t> x(16 * 32);  // 16 rows of 32 elements: 2 blocks per row
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i * 7 + 3);
  uint64_t xa = b.alloc(x.size() * 2), ya = b.alloc(x.size() * 2);
  b.sim().write(xa, x.data(), x.size() * 2);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint16_t> src = ub_tensor<uint16_t>(pipe, 512);
    LocalTensor<uint16_t> dst = ub_tensor<uint16_t>(pipe, 512);
    DataCopy(src, global<uint16_t>(xa, 512), 512);
    Order<HardEvent::MTE2_V>();
    uint64_t dl[16], sl[16];
    for (int i = 0; i < 16; ++i) {
      sl[i] = reinterpret_cast<uint64_t>(src[i * 32].GetPhyAddr());  // row i's first block
      dl[i] = reinterpret_cast<uint64_t>(dst[i * 16].GetPhyAddr());  // consecutive blocks
    }
    TransDataTo5HDParams p(false, false, 2, 16, 1);
    TransDataTo5HD<uint16_t>(dl, sl, p);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<uint16_t>(ya, 512), dst, 512);
  });
  std::vector<uint16_t> y(512);
  b.sim().read(ya, y.data(), 1024);
  int bad = 0;
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i) bad += y[r * 256 + j * 16 + i] != x[i * 32 + r * 16 + j];
  EXPECT_EQ(bad, 0);
}

// TransDataTo5HD, 8-bit: the low (srcHighHalf false) or high half of each source block's 32
// elements goes into the low or high (dstHighHalf) half of the destination blocks.
TEST(ApiBasicMore, TransDataTo5HdOfBytesMovesHalfBlocks) {
  Bench b;
  std::vector<uint8_t> x(512);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 13 + 1);
  uint64_t xa = b.alloc(512), ya = b.alloc(512);
  b.sim().write(xa, x.data(), 512);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint8_t> src = ub_tensor<uint8_t>(pipe, 512);
    LocalTensor<uint8_t> dst = ub_tensor<uint8_t>(pipe, 512);
    DataCopy(src, global<uint8_t>(xa, 512), 512);
    Duplicate(dst.ReinterpretCast<uint16_t>(), uint16_t{0}, 256);
    Order<HardEvent::MTE2_V>();
    LocalTensor<uint8_t> dl[16], sl[16];
    for (int i = 0; i < 16; ++i) {
      sl[i] = src[i * 32];
      dl[i] = dst[i * 32];
    }
    TransDataTo5HD<uint8_t>(dl, sl, TransDataTo5HDParams(true, false, 1, 0, 0));
    Order<HardEvent::V_MTE3>();
    DataCopy(global<uint8_t>(ya, 512), dst, 512);
  });
  std::vector<uint8_t> y(512);
  b.sim().read(ya, y.data(), 512);
  int bad = 0;
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) {
      bad += y[j * 32 + i] != 0;                   // the low half stays as it was
      bad += y[j * 32 + 16 + i] != x[i * 32 + j];  // the high half: element j of block i
    }
  EXPECT_EQ(bad, 0);
}

// The enhanced Transpose moves [N,C,H,W] to [N,H,W,C] and back, with C not a multiple of 16.
TEST(ApiBasicMore, EnhancedTransposeSwapsNchwAndNhwc) {
  Bench b;
  const int N = 2, C = 3, HW = 16;
  std::vector<uint16_t> x(N * C * HW);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint16_t>(i + 100);
  uint64_t xa = b.alloc(x.size() * 2), ya = b.alloc(x.size() * 2), za = b.alloc(x.size() * 2);
  b.sim().write(xa, x.data(), x.size() * 2);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint16_t> s = ub_tensor<uint16_t>(pipe, 96);
    LocalTensor<uint16_t> d = ub_tensor<uint16_t>(pipe, 96);
    LocalTensor<uint16_t> back = ub_tensor<uint16_t>(pipe, 96);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, (2 * C + 1) * 512);
    DataCopy(s, global<uint16_t>(xa, 96), 96);
    Order<HardEvent::MTE2_V>();
    Transpose(d, s, tmp, TransposeParamsExt(N, C, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC));
    Transpose(back, d, tmp, TransposeParamsExt(N, C, 4, 4, TransposeType::TRANSPOSE_NHWC2NCHW));
    Order<HardEvent::V_MTE3>();
    DataCopy(global<uint16_t>(ya, 96), d, 96);
    DataCopy(global<uint16_t>(za, 96), back, 96);
  });
  std::vector<uint16_t> y(x.size()), z(x.size());
  b.sim().read(ya, y.data(), y.size() * 2);
  b.sim().read(za, z.data(), z.size() * 2);
  int bad = 0;
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < HW; ++p) bad += y[(n * HW + p) * C + c] != x[(n * C + c) * HW + p];
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(z, x);
}

// A shared buffer below what Ascend C states is a kernel fault naming the size.
TEST(ApiBasicMore, EnhancedTransposeWithTooSmallABufferIsAKernelFault) {
  Bench b;
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<uint16_t> s = ub_tensor<uint16_t>(pipe, 256);
    LocalTensor<uint16_t> d = ub_tensor<uint16_t>(pipe, 256);
    LocalTensor<uint8_t> tmp = ub_tensor<uint8_t>(pipe, 512);
    Transpose(d, s, tmp, TransposeParamsExt(1, 16, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC));
  });
  EXPECT_EQ(e.code, ascend::kExitKernelFault);
  EXPECT_NE(std::string(e.what()).find("shared buffer"), std::string::npos) << e.what();
}

}  // namespace
