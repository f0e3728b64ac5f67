// FfnWorkerBatching's multi-core sort/merge on its own (FfnSortMerge, ffn_sort_kernel.h): sorted
// runs in the workspace, merged four at a time round after round on several cores, give the
// global order and the count of valid proposals, whatever the number of cores.
#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>

#include "kernels/ffn_worker_batching/ffn_sort_kernel.h"
#include "tests/harness.h"

namespace ascend::test {
namespace {

struct Proposal {
  float key;
  uint32_t index;
};

// Runs of descending keys (ties in index order): ids as keys -id, masked entries (-kMaskId) and
// the padding (-INT_MAX) last, as the sort cores leave them.
std::vector<std::vector<Proposal>> make_runs(const ffn::Attrs& a, const ffn::SortPlan& p) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> id(0, 40), kind(0, 9);
  std::vector<std::vector<Proposal>> runs(p.runs);
  for (int64_t r = 0; r < p.runs; ++r) {
    const int64_t n = ffn::run_padded(a, p, r);
    for (int64_t j = 0; j < n; ++j) {
      int k = kind(rng);
      float key = k == 0   ? -static_cast<float>(ffn::kMaskId)
                  : k == 1 ? -static_cast<float>(ffn::kPadId)
                           : -static_cast<float>(id(rng));
      runs[r].push_back({key, static_cast<uint32_t>(r * 100000 + j)});
    }
    std::stable_sort(runs[r].begin(), runs[r].end(),
                     [](const Proposal& x, const Proposal& y) { return x.key > y.key; });
  }
  return runs;
}

TEST(FfnSortMerge, MergeRoundsOnAnyCoreCountGiveTheGlobalOrderAndTheValidCount) {
  ffn::Attrs a;  // A 8, BS 64, K' 9: Y = 4608
  a.recv = false;
  a.sort_max_elements = 512;
  const ffn::SortPlan p = ffn::sort_plan(a, 192 * 1024, 48);
  ASSERT_EQ(p.runs, 16);
  ASSERT_EQ(p.merge_rounds, 2);
  const auto runs = make_runs(a, p);
  // Expected: every proposal by descending key, ties in run order (the merge takes the lower
  // list first); the valid ones are those above the mask.
  std::vector<Proposal> want;
  for (const auto& r : runs) want.insert(want.end(), r.begin(), r.end());
  std::stable_sort(want.begin(), want.end(),
                   [](const Proposal& x, const Proposal& y) { return x.key > y.key; });
  const int64_t valid = std::count_if(want.begin(), want.end(), [](const Proposal& x) {
    return x.key > -static_cast<float>(ffn::kMaskId);
  });
  for (int cores : {1, 3, 4, 8}) {
    nlohmann::json got = in_child([&] {
      Bench b;
      const uint64_t ws = b.alloc(ffn::workspace_bytes(p));
      for (int64_t r = 0; r < p.runs; ++r)
        b.sim().write(ws + ffn::kWsCtrlBytes + static_cast<uint64_t>(r) * p.run_cap * 8,
                      runs[r].data(), runs[r].size() * 8);
      b.run(cores, [&] {
        ffn::FfnSortMerge m;
        m.Init(a, p, reinterpret_cast<GM_ADDR>(ws));
        m.MergeRounds();
      });
      std::vector<Proposal> out(want.size());
      const uint64_t area = ws + ffn::kWsCtrlBytes + (p.merge_rounds % 2) * p.ws_elements * 8;
      b.sim().read(area, out.data(), out.size() * 8);
      int32_t actual = 0;
      b.sim().read(ws + ffn::kWsActual * 4, &actual, 4);
      nlohmann::json j;
      j["actual"] = actual;
      for (const Proposal& x : out) j["order"].push_back(x.index);
      return j;
    });
    ASSERT_FALSE(got.contains("exit_code")) << cores << " cores: " << got.dump();
    EXPECT_EQ(got["actual"].get<int64_t>(), valid) << cores << " cores";
    ASSERT_EQ(got["order"].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(got["order"][i].get<uint32_t>(), want[i].index) << cores << " cores, row " << i;
  }
}

}  // namespace
}  // namespace ascend::test
