// The hardware as a SystemC module tree: the names of the units, a TLM-2.0 target bound in place
// of a die's HBM, another cost model and another arbitration plugged in.
#include <tlm_utils/simple_target_socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <systemc>

#include "api/kernel_operator.h"
#include "models/bandwidth_server.h"
#include "models/calendar_arbitration.h"
#include "models/cost_model.h"
#include "models/pipe_timeline.h"
#include "sim/hardware_params.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;
using ascend::model::now;
using ascend::model::ns_to_ps;
using ascend::model::Tick;

namespace ascend::test {
namespace {

Tick issue(const model::CoreTiming& t) {
  return t.clock.cycles(t.issue_cycles);
}

TEST(Modules, TreeMirrorsTheHardware) {
  Bench b({}, 2);
  for (const char* name :
       {"cluster", "cluster.scheduler", "cluster.die1", "cluster.die1.aiv47",
        "cluster.die1.aiv47.ub", "cluster.die1.aiv47.vector", "cluster.die1.aiv47.mte2",
        "cluster.die1.aiv47.mte3", "cluster.die1.hbm", "cluster.die1.hccl_window",
        "cluster.die1.noc", "cluster.fabric", "cluster.fabric.die1.ub_egress",
        "cluster.fabric.die1.ub_ingress", "cluster.fabric.die1.d2d_out",
        "cluster.fabric.node0.uplink", "cluster.fabric.node0.downlink"})
    EXPECT_NE(dynamic_cast<sc_core::sc_module*>(sc_core::sc_find_object(name)), nullptr) << name;
  EXPECT_EQ(b.cluster().die(1).hccl_window.data.base, b.sim().window(1));
  EXPECT_EQ(b.cluster().die(1).hccl_window.status.base, b.sim().status_window(1));
  // A port's stats name is its path under cluster.fabric.
  EXPECT_EQ(b.cluster().fabric().ports().front()->name(), "die0.ub_egress");
}

// The HCCL window is a TLM target in front of the die's memory: it counts what goes into and
// out of the windows, and nothing else, and adds no time.
TEST(Modules, TheHcclWindowCountsWindowTrafficOnly) {
  Bench b({}, 2);
  uint64_t local = b.alloc(4096, 1);
  const uint64_t bytes = 2048;
  b.run(1, [&] {
    if (GetRankId() != 0) return;
    TPipe pipe;
    LocalTensor<uint8_t> t = ub_tensor<uint8_t>(pipe, bytes);
    GlobalTensor<uint8_t> win, other;
    win.SetGlobalBuffer(GetWindAddrByRankId(1), bytes);
    other.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(local), bytes);
    DataCopy(win, t, bytes);    // into die 1's window
    DataCopy(other, t, bytes);  // into die 1's GM outside the windows
    DataCopy(t, win, 512);      // out of the window
  });
  const model::HcclWindow& w = b.cluster().die(1).hccl_window;
  EXPECT_EQ(w.bytes_written(), bytes);
  EXPECT_EQ(w.bytes_read(), 512u);
  EXPECT_EQ(b.cluster().die(0).hccl_window.bytes_written(), 0u);
}

// A DRAM model with a fixed access time and no bandwidth limit, as a user would bind one.
class FixedLatencyDram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<FixedLatencyDram> socket;
  FixedLatencyDram(const sc_core::sc_module_name& name, Tick latency)
      : sc_core::sc_module(name), socket("socket"), latency_(latency) {
    socket.register_b_transport(this, &FixedLatencyDram::b_transport);
  }
  uint64_t transfers = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    delay += sc_core::sc_time::from_value(latency_);
    ++transfers;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  Tick latency_;
};

// The die's noc adds the local path latency after the later of the engine and the target.
TEST(Modules, AnotherTlmTargetInPlaceOfTheHbmTimesTheTransfers) {
  const Tick dram = ns_to_ps(2000);
  std::unique_ptr<FixedLatencyDram> target;
  RunOptions opts;
  opts.elaborate = [&](model::Cluster& c) {
    target = std::make_unique<FixedLatencyDram>("dram", dram);
    c.die(0).bind_memory(target->socket);
  };
  Bench b({}, 1, opts);
  const auto& t = b.timing();
  const uint32_t n = 4096;
  uint64_t x = b.alloc(n), y = b.alloc(n);
  std::vector<uint8_t> data(n, 0x5A);
  b.sim().write(x, data.data(), n);
  Tick resumed = 0;
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<uint8_t> l = ub_tensor<uint8_t>(pipe, n);
    DataCopy(l, global<uint8_t>(x, n), n);
    Order<HardEvent::MTE2_S>();
    resumed = SimNowPs();
    DataCopy(global<uint8_t>(y, n), l, n);
  });
  EXPECT_EQ(target->transfers, 2u);
  EXPECT_EQ(b.cluster().die(0).hbm.server().transfers(), 0u) << "the HBM is bypassed";
  EXPECT_EQ(resumed, issue(t) + dram + ns_to_ps(130));
  std::vector<uint8_t> out(n);
  b.sim().read(y, out.data(), n);
  EXPECT_EQ(out, data);
}

TEST(Modules, ASlowerMemoryModelSlowsAWholeRunThatStillChecks) {
  std::vector<std::string> sets = {"stream.cores=8", "stream.mode=copy"};
  Outcome hbm = run_scenario("stream", sets);
  RunOptions opts;
  opts.elaborate = [](model::Cluster& c) {
    static FixedLatencyDram dram("dram", ns_to_ps(3000));
    c.die(0).bind_memory(dram.socket);
  };
  Outcome slow = run_scenario("stream", sets, opts);
  ASSERT_EQ(hbm.exit_code, 0) << hbm.message;
  ASSERT_EQ(slow.exit_code, 0) << slow.message;  // the outputs still match the golden reference
  EXPECT_GT(slow.latency_ns(), hbm.latency_ns() * 1.5);
}

// A calibrated variant is a subclass: here every vector instruction takes 1 us.
class SlowVector : public model::DefaultCostModel {
 public:
  using DefaultCostModel::DefaultCostModel;
  Tick vector(uint64_t) const override { return ns_to_ps(1000); }
};

TEST(Modules, AnotherCostModelChangesTheVectorTime) {
  model::ClusterConfig cfg = cluster_config(make_params(), 1);
  RunOptions opts;
  opts.cost_model = std::make_shared<SlowVector>(cfg.core, cfg.hbm);
  Bench b({}, 1, opts);
  Tick resumed = 0;
  b.run(1, [&] {
    TPipe pipe;
    Duplicate(ub_tensor<float>(pipe, 1000), 2.5f, 1000);
    Order<HardEvent::V_S>();
    resumed = SimNowPs();
  });
  EXPECT_EQ(resumed, issue(b.timing()) + ns_to_ps(1000));
}

// An arbitration policy is a subclass too: this one lets transfers overlap (no contention).
class NoContention : public model::ArbitrationPolicy {
 public:
  Tick grant(Tick ready, Tick) override { return ready; }
};

TEST(Modules, ArbitrationPolicyDecidesWhenAHoldStarts) {
  model::BandwidthServer fifo("fifo", 1), free("free", 1, -1, std::make_unique<NoContention>());
  for (model::BandwidthServer* s : {&fifo, &free}) {
    EXPECT_EQ(s->reserve(0, 100, 100).end, 100u);
    EXPECT_EQ(s->reserve(10, 100, 100).start, s == &fifo ? 100u : 10u);
    EXPECT_EQ(s->busy_ps(), 200u);
  }
}

// Booked in order of ready time, the calendar grants what a FIFO does, transfer by transfer
// (zero occupancies and idle gaps included), and counts no inversion.
TEST(Modules, TheCalendarIsAFifoWhenRequestsComeInTimeOrder) {
  model::FifoArbitration fifo;
  model::CalendarArbitration calendar;
  std::mt19937_64 rng(7);
  Tick ready = 0;
  for (int i = 0; i < 20000; ++i) {
    ready += rng() % 4 == 0 ? rng() % 500 : 0;  // bursts at one time, and gaps
    const Tick occupancy = rng() % 8 == 0 ? 0 : 1 + rng() % 200;
    ASSERT_EQ(calendar.grant(ready, occupancy), fifo.grant(ready, occupancy)) << "request " << i;
  }
  EXPECT_EQ(calendar.inversions(), 0u);
}

// A request booked after others that are ready later takes the first gap that holds it; the
// replay in order of ready time counts each grant it would have given otherwise.
TEST(Modules, TheCalendarGivesALateRequestTheFirstGapThatFits) {
  model::CalendarArbitration c;
  EXPECT_EQ(c.grant(0, 100), 0u);
  EXPECT_EQ(c.grant(300, 100), 300u);  // idle from 100 to 300
  EXPECT_EQ(c.grant(50, 100), 100u);   // into that gap, not behind 300
  EXPECT_EQ(c.grant(150, 150), 400u);  // 200..300 is too short
  EXPECT_EQ(c.grant(120, 0), 200u);    // nothing to hold: the first free instant after ready
  EXPECT_EQ(c.reservations(), 2u) << "0..200 and 300..550: touching grants merge";
  // In ready order a FIFO gives 0, 100, 200 (the zero-occupancy one), 200 (ready 150, where the
  // calendar gave 400) and 350 (ready 300, given 300): two inversions, 200 + 50 ps apart.
  EXPECT_EQ(c.inversions(), 2u);
  EXPECT_EQ(c.inversion_ps(), 250u);
  EXPECT_EQ(c.inversion_max_ps(), 200u);
  EXPECT_EQ(c.counters()["inversion_max_ps"], 200u);
  EXPECT_EQ(c.counters()["booking_inversions"], 2u);
  // Never two transfers at once: the holds are disjoint.
  model::CalendarArbitration d;
  std::vector<std::pair<Tick, Tick>> holds;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    Tick r = rng() % 100000, o = 1 + rng() % 300;
    Tick s = d.grant(r, o);
    ASSERT_GE(s, r);
    holds.push_back({s, s + o});
  }
  std::sort(holds.begin(), holds.end());
  for (size_t i = 1; i < holds.size(); ++i) ASSERT_LE(holds[i - 1].second, holds[i].first);
}

// The model books every shared resource at the transfer's start, in time order, so the calendar
// changes nothing: the same figures to the picosecond, and no inversion anywhere.
TEST(Modules, TheCalendarChangesNothingInTheModelsOwnTimeOrder) {
  struct Run {
    const char* kernel;
    std::vector<std::string> sets;
  };
  const std::vector<Run> runs = {{"dispatch", {"ep.world_size=8", "dispatch.experts=32"}},
                                 {"combine", {"ep.world_size=8", "dispatch.experts=32"}},
                                 {"moe", {"ep.world_size=16", "dispatch.experts=32"}},
                                 {"ffn", {"ffn_op.experts=4", "ffn_op.expert_tokens=3,90,0,20"}},
                                 {"stream", {}}};
  for (const Run& r : runs) {
    nlohmann::json kernels[2];
    for (int calendar = 0; calendar <= 1; ++calendar) {
      std::vector<std::string> sets = r.sets;
      sets.insert(sets.end(), {"stats.modules=1", "sim.payload=0", "run.check=0"});
      sets.push_back(std::string("sim.arbitration=") + (calendar ? "calendar" : "fifo"));
      Outcome o = run_scenario(r.kernel, sets);
      ASSERT_EQ(o.exit_code, 0) << r.kernel << ": " << o.message;
      kernels[calendar] = o.stats["kernels"];
    }
    uint64_t counted = 0;
    for (auto& k : kernels[1]) {
      for (const auto& m : k["modules"])
        if (m["counters"].contains("booking_inversions")) {
          ++counted;
          EXPECT_EQ(m["counters"]["booking_inversions"], 0) << r.kernel << ": " << m["path"];
        }
      k.erase("modules");
    }
    EXPECT_GT(counted, 0u) << r.kernel << ": no resource arbitrated by the calendar";
    for (auto& k : kernels[0]) k.erase("modules");
    EXPECT_EQ(kernels[0], kernels[1]) << r.kernel;
  }
}

// The issue-time recurrences on a hand-worked pipe: work waits for its engine, a WaitFlag for the
// set it takes (the k-th wait the k-th set), a SetFlag for every earlier completion.
TEST(Modules, PipeTimelineRecurrences) {
  using model::HardEvent;
  using model::PipeId;
  model::PipeTimeline tl;
  EXPECT_EQ(tl.work_start(PipeId::MTE2, 10, 50), 50u) << "engine busy until 50";
  tl.work_started(PipeId::MTE2, 400);
  tl.left(PipeId::MTE2, 50);
  EXPECT_EQ(tl.work_start(PipeId::MTE2, 20, 0), 50u) << "in order: not before the previous";
  tl.work_started(PipeId::MTE2, 300);  // completes before the first
  tl.left(PipeId::MTE2, 50);
  EXPECT_EQ(tl.after_all(PipeId::MTE2, 60), 400u) << "a SetFlag waits for every completion";
  EXPECT_EQ(tl.wait_pass(PipeId::V, 0, HardEvent::MTE2_V, 0), model::kNever) << "nothing set";
  tl.flag_set(HardEvent::MTE2_V, 0, 400);
  tl.flag_set(HardEvent::MTE2_V, 0, 900);
  tl.flag_set(HardEvent::MTE2_V, 1, 100);  // another id: not taken by id 0's waits
  EXPECT_EQ(tl.wait_pass(PipeId::V, 500, HardEvent::MTE2_V, 0), 500u);
  tl.waited(HardEvent::MTE2_V, 0);
  tl.left(PipeId::V, 500);
  EXPECT_EQ(tl.wait_pass(PipeId::V, 0, HardEvent::MTE2_V, 0), 900u) << "the second set";
  // The scalar: a full queue of depth 2, a WaitFlag<V_S>, PipeBarrier<PIPE_ALL>.
  model::PipeTimeline s;
  s.set_queue_depth(2);
  EXPECT_EQ(s.room_at(PipeId::V, 10), 10u) << "an empty queue has room";
  s.handed(PipeId::V);
  s.handed(PipeId::V);
  s.left(PipeId::V, 700);  // the first
  EXPECT_EQ(s.room_at(PipeId::V, 650), 700u) << "the third waits for the first to leave";
  s.handed(PipeId::V);
  s.left(PipeId::V, 800);  // the second
  EXPECT_EQ(s.room_at(PipeId::V, 650), 800u) << "the fourth for the second";
  EXPECT_EQ(s.room_at(PipeId::V, 900), 900u);
  s.work_started(PipeId::MTE3, 1500);
  s.flag_set(HardEvent::V_S, 3, 1000);
  EXPECT_EQ(s.scalar_wait(950, HardEvent::V_S, 3), 1000u);
  EXPECT_EQ(s.scalar_wait(1200, HardEvent::V_S, 3), 1200u);
  EXPECT_EQ(s.scalar_wait(0, HardEvent::V_S, 4), model::kNever);
  EXPECT_EQ(s.all_done(100), 1500u) << "the latest leave or completion of any pipe";
  EXPECT_EQ(s.all_done(2000), 2000u);
  tl.launch();
  EXPECT_EQ(tl.wait_pass(PipeId::V, 0, HardEvent::MTE2_V, 0), model::kNever)
      << "a launch starts with no flag set";
}

// With sim.check_issue_timing=1 every instruction that leaves a pipe's queue is checked against
// those recurrences (the golden test golden.issue_timing_and_calendar runs every golden so);
// checking changes nothing.
TEST(Modules, TheIssueTimeCheckCoversEveryPipeInstructionAndChangesNothing) {
  for (const char* kernel : {"pipeline", "moe", "ffn"}) {
    nlohmann::json kernels[2];
    uint64_t checked = 0;
    for (int check = 0; check <= 1; ++check) {
      Outcome o = run_scenario(kernel, {"sim.payload=0", "run.check=0",
                                        "sim.check_issue_timing=" + std::to_string(check)});
      ASSERT_EQ(o.exit_code, 0) << kernel << ": " << o.message;
      kernels[check] = o.stats["kernels"];
      if (check) checked = o.stats["simulator"]["issue_timing_checked"].get<uint64_t>();
    }
    EXPECT_GT(checked, 1000u) << kernel;
    EXPECT_EQ(kernels[0], kernels[1]) << kernel;
  }
}

TEST(Modules, ScopePatternsMatchAModuleAndEverythingUnderIt) {
  ModuleScope s("cluster.die3.aiv*.mte2,cluster.fabric.node?");
  EXPECT_TRUE(s.covers("cluster.die3.aiv17.mte2"));
  EXPECT_FALSE(s.covers("cluster.die3.aiv17.mte3"));
  EXPECT_FALSE(s.covers("cluster.die3.aiv17")) << "a unit does not cover its core";
  EXPECT_FALSE(s.covers("cluster.die13.aiv1.mte2"));
  EXPECT_TRUE(s.covers("cluster.fabric.node1.uplink"));
  EXPECT_FALSE(s.covers("cluster.fabric.node12.uplink")) << "'?' is one character";
  EXPECT_TRUE(ModuleScope("cluster.*").covers("cluster.die1.aiv0")) << "and everything under it";
  EXPECT_TRUE(ModuleScope("").empty());
}

// trace.scope replaces trace.ranks/trace.cores: one unit's lane of a core outside them, and the
// node ports.
TEST(Modules, TraceScopeRecordsTheChosenModulesOnly) {
  RunOptions ro;
  ro.out_dir = "/tmp/ascend-modscope-" + std::to_string(getpid());
  ro.trace = ro.vcd = true;
  Outcome o = run_scenario(
      "flag_ring", {"ep.world_size=32", "trace.scope=cluster.die17.aiv0.mte3,cluster.fabric.node*"},
      ro);
  ASSERT_EQ(o.exit_code, 0) << o.message;
  std::ifstream f(ro.out_dir + "/trace.json");
  nlohmann::json t = nlohmann::json::parse(f);
  std::set<std::string> lanes;
  for (const auto& e : t["traceEvents"])
    if (e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
  EXPECT_TRUE(lanes.count("cluster.die17.aiv0 MTE3"));
  EXPECT_TRUE(lanes.count("cluster.fabric.node1.downlink"));
  EXPECT_FALSE(lanes.count("cluster.die17.aiv0 SCALAR"));
  EXPECT_FALSE(lanes.count("cluster.fabric.die17.ub_ingress"));
  EXPECT_FALSE(lanes.count("cluster.die0.aiv0 MTE3")) << "trace.ranks is not used";
  std::filesystem::remove_all(ro.out_dir);
  Outcome none = run_scenario("flag_ring", {"ep.world_size=2", "trace.scope=cluster.die9"}, ro);
  EXPECT_EQ(none.exit_code, kExitBadInput);
  EXPECT_NE(none.message.find("selects no module"), std::string::npos) << none.message;
  std::filesystem::remove_all(ro.out_dir);
}

}  // namespace
}  // namespace ascend::test
