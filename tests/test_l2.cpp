// The die's L2 as the AICs see it (models/l2_cache.h): residency per line, LRU eviction, rows,
// and what an AIC MTE2 read costs on a hit and on a miss.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "api/kernel_operator.h"
#include "models/l2_cache.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

namespace {

using ascend::model::GmSpan;
using ascend::model::L2Cache;

// Residency per 512-B line; recency and eviction per page of 8 lines.
TEST(L2, ReadsCountResidentBytesAndEvictTheLeastRecentPage) {
  L2Cache l2("l2_lru", 8 * 512, 512);            // eight lines
  EXPECT_EQ(l2.read({0, 1, 1024, 1024}), 0u);    // lines 0, 1 (page 0) miss, become resident
  EXPECT_EQ(l2.read({256, 1, 512, 512}), 512u);  // half of line 0 and half of line 1
  l2.write({8 * 512, 1, 3 * 512, 3 * 512});      // lines 8-10 (page 1): 5 lines resident
  EXPECT_EQ(l2.read({0, 1, 512, 512}), 512u);    // page 0 is now the most recent
  l2.write({16 * 512, 1, 4 * 512, 4 * 512});     // lines 16-19 (page 2): 9 > 8, page 1 goes
  EXPECT_EQ(l2.read({8 * 512, 1, 512, 512}), 0u);
  EXPECT_EQ(l2.read({512, 1, 512, 512}), 512u);
  // Rows: two rows of 100 B at a pitch of 4096 B touch lines 0 and 8.
  L2Cache rows("l2_rows", 1 << 20, 512);
  EXPECT_EQ(rows.read({0, 2, 100, 4096}), 0u);
  EXPECT_EQ(rows.read({4096 + 200, 1, 300, 300}), 300u);
  EXPECT_EQ(rows.read({1024, 1, 512, 512}), 0u);  // line 2 was never touched
  EXPECT_EQ(rows.counters().find("hit_bytes")->value, 300u);
  L2Cache off("l2_off", 0, 512);
  off.write({0, 1, 512, 512});
  EXPECT_EQ(off.read({0, 1, 512, 512}), 0u);
}

// The page table under load: thousands of pages through a small capacity, with many pages on the
// same hash slots, against a plain reference (a list of pages in recency order, evicting from its
// back while more lines are resident than fit), read by read.
TEST(L2, ManyEvictionsKeepExactlyTheLeastRecentOrder) {
  constexpr uint64_t kLine = 512, kLines = 96;  // 12 pages' worth of lines
  L2Cache l2("l2_churn", kLines * kLine, kLine);
  struct RefPage {
    uint64_t index;
    uint8_t lines;
  };
  std::vector<RefPage> ref;  // most recent first
  uint64_t resident = 0;
  auto ref_read = [&](uint64_t line) {
    const uint64_t page = line / 8;
    const uint8_t bit = static_cast<uint8_t>(1u << (line % 8));
    auto it =
        std::find_if(ref.begin(), ref.end(), [&](const RefPage& p) { return p.index == page; });
    RefPage p{page, 0};
    if (it != ref.end()) {
      p = *it;
      ref.erase(it);
    }
    const bool hit = p.lines & bit;
    p.lines |= bit;
    ref.insert(ref.begin(), p);
    if (!hit) ++resident;
    while (resident > kLines && ref.size() > 1) {
      resident -= static_cast<uint64_t>(__builtin_popcount(ref.back().lines));
      ref.pop_back();
    }
    return hit ? kLine : 0;
  };
  uint64_t seed = 12345, hits = 0;
  for (int i = 0; i < 200000; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    // Pages 0..4095 in strides of 1024 pages (the same low bits) and a hot set of 16 pages.
    const uint64_t r = seed >> 33;
    const uint64_t page = (r & 1) ? (r >> 1) % 16 : ((r >> 1) % 4) * 1024 + (r >> 3) % 64;
    const uint64_t line = page * 8 + (r >> 9) % 8;
    const uint64_t want = ref_read(line);
    ASSERT_EQ(l2.read({line * kLine, 1, kLine, kLine}), want) << "read " << i << ", line " << line;
    hits += want;
  }
  EXPECT_GT(hits, 0u);
  EXPECT_LT(hits, 200000u * kLine);
}

// One AIC reads 64 KiB twice: the first read misses (cube.mte2_miss_bytes_per_cycle), the second
// hits (cube.mte2_bytes_per_cycle); the engine's busy time is exactly the two holds.
TEST(L2, AnAicReadOfResidentBytesStreamsAtTheL2Rate) {
  using namespace AscendC;
  ascend::RunOptions o;
  o.aic = true;
  ascend::test::Bench b({}, 1, o);
  const uint64_t n = 32 * 1024;  // halves
  const uint64_t gm = b.alloc(n * 2);
  auto& rec = b.run(ascend::LaunchShape::mixed(1, 0), [&] {
    TPipe pipe;
    TBuf<TPosition::A1> buf;
    pipe.InitBuffer(buf, n * 2);
    LocalTensor<half> l1 = buf.Get<half>();
    Nd2NzParams p;
    p.nValue = 128;
    p.dValue = 256;
    p.srcDValue = 256;
    p.dstNzC0Stride = 128;
    DataCopy(l1, ascend::test::global<half>(gm, n), p);
    PipeBarrier<PIPE_MTE2>();
    DataCopy(l1, ascend::test::global<half>(gm, n), p);
  });
  const auto& t = b.timing();
  const auto& aic = rec.ranks[0].aics[0];
  const uint64_t bytes = n * 2;
  const uint64_t miss = t.cube.mte2_setup_cycles +
                        static_cast<uint64_t>(std::ceil(bytes / t.cube.mte2_miss_bytes_per_cycle));
  const uint64_t hit = t.cube.mte2_setup_cycles +
                       static_cast<uint64_t>(std::ceil(bytes / t.cube.mte2_bytes_per_cycle));
  EXPECT_EQ(aic["mte2.busy_ps"], t.clock.cycles(miss) + t.clock.cycles(hit));
}

}  // namespace
