// GM storage (models/global_memory.h): sparse pages found through an open-addressed table, and
// the regions that bound every access.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "models/global_memory.h"

namespace {

using ascend::model::GlobalMemory;

// Thousands of pages on many dies (the table grows several times, probes collide, pages fill
// several slabs): every byte reads back what was last written there, against a plain map, and
// unwritten bytes read zero. At 4 KiB pages and at the timing-only runs' 256 B, where most of the
// writes cross a page boundary.
class GlobalMemoryPages : public testing::TestWithParam<uint64_t> {};

TEST_P(GlobalMemoryPages, ScatteredPagesReadBackWhatWasWrittenAndZerosElsewhere) {
  const uint64_t page = GetParam();
  GlobalMemory gm(uint64_t{64} << 30, page);
  std::map<uint64_t, uint8_t> expected;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 6000; ++i) {
    // Every fourth write ends past its page's last byte.
    const uint64_t die = rng() % 300,
                   offset = rng() % (uint64_t{8} << 30) | (i % 4 == 0 ? 0xFF0 : 0);
    const uint64_t addr = die << GlobalMemory::kDieShift | offset;
    const auto value = static_cast<uint8_t>(rng() | 1);
    std::vector<uint8_t> bytes(1 + rng() % 200, value);
    gm.write(addr, bytes.data(), bytes.size());
    for (uint64_t b = 0; b < bytes.size(); ++b) expected[addr + b] = value;
  }
  std::map<uint64_t, bool> pages;
  for (const auto& [addr, value] : expected) {
    uint8_t got = 0;
    gm.read(addr, &got, 1);
    ASSERT_EQ(got, value) << std::hex << addr;
    pages[addr / page] = true;
  }
  EXPECT_EQ(gm.resident_bytes(), pages.size() * page);
  // A byte beside each written run that no write covered reads zero.
  int checked = 0;
  for (const auto& [addr, value] : expected) {
    if (expected.count(addr + 1) || checked > 2000) continue;
    uint8_t got = 0xFF;
    gm.read(addr + 1, &got, 1);
    EXPECT_EQ(got, 0) << std::hex << addr + 1;
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

INSTANTIATE_TEST_SUITE_P(PageSizes, GlobalMemoryPages, testing::Values(4096, 256));

TEST(GlobalMemory, RegionsAreFoundPerDieAndBoundTheirBytes) {
  GlobalMemory gm(uint64_t{1} << 30);
  const uint64_t a = *gm.allocate(3, "a", 1000), b = *gm.allocate(3, "b", 4096);
  const uint64_t c = *gm.allocate(0, "c", 64);
  ASSERT_NE(gm.region_of(a, 1000), nullptr);
  EXPECT_EQ(gm.region_of(a, 1000)->name, "a");
  EXPECT_EQ(gm.region_of(b + 4095, 1)->name, "b");
  EXPECT_EQ(gm.region_of(c, 64)->name, "c");
  EXPECT_EQ(gm.region_of(a, 1001), nullptr);  // past the end of a
  EXPECT_EQ(gm.region_of(b + 4096, 1), nullptr);
  EXPECT_EQ(gm.region_of(c - 1, 1), nullptr);  // before the first allocation of die 0
  EXPECT_EQ(gm.region_of(uint64_t{7} << GlobalMemory::kDieShift | 512, 1), nullptr);  // no die 7
  EXPECT_FALSE(gm.allocate(3, "too big", uint64_t{1} << 30).has_value());
}

}  // namespace
