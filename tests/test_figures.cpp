// Models own their figures: each unit lists its counters (name, unit, value), a launch's record
// holds the difference of every counter over that launch, and every kernel figure in stats.json
// has a unit.
#include <map>
#include <set>
#include <string>

#include "api/kernel_operator.h"
#include "kernels/kernel.h"
#include "models/counters.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;

namespace ascend::test {
namespace {

TEST(Counters, DifferenceIsByNameAndCountsANewCounterFromZero) {
  static constexpr model::CounterSpec kBytes{"bytes", "B", "bytes"}, kBusy{"busy_ps", "ps", "busy"};
  static constexpr model::CounterSpec kBytesAgain{"bytes", "B", "another spec of the same name"};
  model::CounterSet before, after;
  before.add(kBytes, 100);
  before.add(kBusy, 7);
  after.add(kBytesAgain, 160);
  after.add(kBusy, 10);
  after.add(model::link_class_spec("d2d"), 5);  // appeared between the snapshots
  model::CounterSet d = after - before;
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d["bytes"], 60u);
  EXPECT_EQ(d["busy_ps"], 3u);
  EXPECT_EQ(d["d2d"], 5u);
  EXPECT_STREQ(d.find("busy_ps")->unit(), "ps");
  EXPECT_STREQ(d.find("d2d")->description(), "bytes moved on d2d paths");
  EXPECT_THROW(d["transfers"], std::out_of_range);
}

// Every unit that counts says what it counts and in which unit.
TEST(Counters, EveryModelCounterHasAUnitAndAMeaning) {
  Bench b({}, 2);
  std::vector<model::CounterSet> sets = {b.cluster().die(0).cores[0]->counters(),
                                         b.cluster().die(0).hbm.counters(),
                                         b.cluster().fabric().ports().front()->counters()};
  for (const model::CounterSet& s : sets) {
    EXPECT_FALSE(s.empty());
    for (const model::Counter& c : s) EXPECT_STRNE(c.unit(), "") << c.name();
    for (const model::Counter& c : s) EXPECT_STRNE(c.description(), "") << c.name();
  }
  const model::CounterSet& core = sets[0];
  for (const char* name :
       {"SCALAR.busy_ps", "SCALAR.stall_ps", "VECTOR.busy_ps", "VECTOR.instrs", "MTE2.busy_ps",
        "MTE3.instrs", "mte2.bytes", "mte3.bytes", "mte2.transfers", "vector.busy_ps"})
    EXPECT_TRUE(core.contains(name)) << name;
}

// Two identical launches in one simulation: the second record holds only its own work, not the
// run's totals, for every counter (cores, HBM, link classes).
TEST(Counters, EachLaunchRecordsOnlyItsOwnWork) {
  Bench b;
  const uint32_t n = 4096;
  uint64_t in = b.alloc(n * sizeof(float)), out = b.alloc(n * sizeof(float));
  auto body = [&] {
    TPipe pipe;
    LocalTensor<float> x = ub_tensor<float>(pipe, n);
    DataCopy(x, global<float>(in, n), n);
    Order<HardEvent::MTE2_V>();
    Adds(x, x, 1.0f, n);
    Order<HardEvent::V_MTE3>();
    DataCopy(global<float>(out, n), x, n);
  };
  const KernelRecord& first = b.run(2, body);
  const KernelRecord& second = b.run(2, body);
  ASSERT_EQ(first.ranks.size(), 1u);
  ASSERT_EQ(second.ranks.size(), 1u);
  EXPECT_EQ(first.latency(), second.latency());
  for (int c = 0; c < 2; ++c) {
    const model::CounterSet& a = first.ranks[0].cores[c];
    const model::CounterSet& s = second.ranks[0].cores[c];
    EXPECT_EQ(a["mte2.bytes"], n * sizeof(float));
    EXPECT_EQ(a["mte3.bytes"], n * sizeof(float));
    EXPECT_GT(a["VECTOR.busy_ps"], 0u);
    ASSERT_EQ(a.size(), s.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(a.list()[i].value, s.list()[i].value) << "core " << c << " " << a.list()[i].name();
    // The model itself keeps counting: its totals are both launches'.
    EXPECT_EQ(b.cluster().die(0).cores[c]->counters()["mte2.bytes"], 2 * a["mte2.bytes"]);
  }
  EXPECT_EQ(first.ranks[0].hbm["bytes"], 4u * n * sizeof(float));
  EXPECT_EQ(second.ranks[0].hbm["bytes"], first.ranks[0].hbm["bytes"]);
  EXPECT_EQ(second.link_classes["local"], first.link_classes["local"]);
  EXPECT_EQ(b.cluster().die(0).hbm.counters()["bytes"], 2 * first.ranks[0].hbm["bytes"]);
  EXPECT_EQ(first.ranks_json(), second.ranks_json());
}

// The kernel thread's resumptions are counted by the cause of the wait it resumed from, and the
// windows of simulated time in which it resumed nest: a longer window holds the shorter ones.
TEST(Counters, KernelThreadResumptionsAreCountedByCause) {
  Bench b;
  const uint32_t n = 4096;
  uint64_t in = b.alloc(n * sizeof(float));
  auto waits = [&](int flags) {
    return [&, flags] {
      TPipe pipe;
      LocalTensor<float> x = ub_tensor<float>(pipe, n);
      for (int i = 0; i < flags; ++i) {
        DataCopy(x, global<float>(in, n), n);
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);  // the thread waits for the copy
      }
    };
  };
  for (int flags : {1, 3}) {
    const model::CounterSet& c = b.run(1, waits(flags)).ranks[0].cores[0];
    EXPECT_EQ(c["SCALAR.resumes_flag"], static_cast<uint64_t>(flags));
    EXPECT_EQ(c["SCALAR.resumes_queue_full"], 0u);
    EXPECT_EQ(c["SCALAR.resumes_auto_sync"], 0u);
    EXPECT_EQ(c["SCALAR.resumes_poll"], 0u);
    EXPECT_GE(c["SCALAR.active_windows_1us"], c["SCALAR.active_windows_2us"]);
    EXPECT_GE(c["SCALAR.active_windows_2us"], c["SCALAR.active_windows_5us"]);
    EXPECT_GE(c["SCALAR.active_windows_5us"], c["SCALAR.active_windows_10us"]);
    EXPECT_GE(c["SCALAR.active_windows_10us"], 1u);
  }
  // More copies than a queue holds: the scalar waits for room.
  const model::CounterSet& full = b.run(1,
                                        [&] {
                                          TPipe pipe;
                                          LocalTensor<float> x = ub_tensor<float>(pipe, n);
                                          for (int i = 0; i < 64; ++i)
                                            DataCopy(x, global<float>(in, n), n);
                                        })
                                      .ranks[0]
                                      .cores[0];
  EXPECT_GT(full["SCALAR.resumes_queue_full"], 0u);
  EXPECT_EQ(full["SCALAR.resumes_flag"], 0u);
}

// Every key of a kernel's entry in stats.json beyond the common ones is one of the kernel's
// figures, and `units` gives each a unit.
TEST(Figures, EveryKernelFigureInStatsHasAUnit) {
  static const std::vector<std::string> ep = {"ep.world_size=4", "dispatch.experts=8",
                                              "dispatch.bs=8", "dispatch.hidden=1024"};
  const std::map<std::string, std::vector<std::string>> sets = {
      {"dispatch", ep},
      {"combine", ep},
      {"moe", ep},
      {"alltoallv_dispatch", ep},
      {"ffn_worker_batching", {"ffn.attn_ranks=2", "ffn.bs=8", "ffn.hidden=1024"}},
      {"stream", {"stream.cores=4"}},
      {"ub_write", {"ub_write.cores=4"}},
      {"flag_ring", {"ep.world_size=4", "flag_ring.cores=4"}},
  };
  const std::set<std::string> common = {"name",       "cores_per_rank",  "start_ns",
                                        "latency_ns", "rank_latency_ns", "link_class_bytes",
                                        "ports",      "ranks",           "units"};
  for (const KernelDef& k : all_kernels()) {
    auto it = sets.find(k.name);
    Outcome o = run_scenario(k.name, it == sets.end() ? std::vector<std::string>{} : it->second);
    ASSERT_EQ(o.exit_code, 0) << k.name << ": " << o.message;
    size_t figures = 0;
    for (const auto& entry : o.stats["kernels"]) {
      ASSERT_TRUE(entry.contains("units")) << k.name;
      const nlohmann::json& units = entry["units"];
      for (const auto& [key, value] : entry.items()) {
        if (common.count(key)) continue;
        ++figures;
        ASSERT_TRUE(units.contains(key)) << k.name << ": figure " << key << " has no unit";
        EXPECT_FALSE(units[key].get<std::string>().empty()) << k.name << ": " << key;
      }
      for (const auto& [key, unit] : units.items())
        EXPECT_TRUE(entry.contains(key)) << k.name << ": unit of a missing figure " << key;
    }
    if (k.name != "syncbug" && k.name != "flag_ring") {
      EXPECT_GT(figures, 0u) << k.name << " reports no figure of its own";
    }
  }
}

}  // namespace
}  // namespace ascend::test
