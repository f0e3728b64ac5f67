// The race check (run.racecheck / --racecheck): two pipes of one core touching the same UB (or
// GM) bytes with nothing ordering them end the run with exit 6 and a report naming both
// instructions; correctly synchronized kernels, double-buffered ones included, are clean; and
// the check never changes timing.
#include "api/kernel_operator.h"
#include "tests/harness.h"
#include "tests/kernel_helpers.h"

using namespace AscendC;

namespace ascend::test {
namespace {

const std::vector<std::string> kOn = {"run.racecheck=1"};

// The pattern of the dispatch bug a user found: the scalar fills a status block, MTE3 writes it
// out, then a poll's MTE2 reads into the same block. Without an MTE3->MTE2 flag the poll can
// overwrite the block before the write has read it.
void status_then_poll(bool ordered) {
  Bench b(kOn);
  uint64_t out = b.alloc(4096), in = b.alloc(4096);
  auto body = [&] {
    TPipe pipe;
    LocalTensor<int32_t> blk = ub_tensor<int32_t>(pipe, 8);
    blk.SetValue(0, 1);
    Order<HardEvent::S_MTE3>();
    DataCopy(global<int32_t>(out, 8), blk, 8);
    if (ordered) Order<HardEvent::MTE3_MTE2>();
    DataCopy(blk, global<int32_t>(in, 8), 8);
    Order<HardEvent::MTE2_S>();
    (void)blk.GetValue(0);
  };
  if (ordered) {
    b.run(1, body);
    EXPECT_EQ(b.cluster().die(0).cores[0]->race_checker()->hazards(), 0u);
    return;
  }
  SimError e = b.run_expecting_error(1, body);
  EXPECT_EQ(e.code, kExitRace) << e.what();
  std::string m = e.what();
  for (const char* n :
       {"write after read on UB bytes [0, +32) of die 0 core 0", "MTE2 DataCopy (instruction #",
        "MTE3 DataCopy (instruction #", "is not ordered after", "issued at"})
    EXPECT_NE(m.find(n), std::string::npos) << n << "\n" << m;
  EXPECT_LT(m.find("MTE2 DataCopy"), m.find("MTE3 DataCopy")) << "the later one is named first";
}

TEST(RaceCheck, TheDispatchStatusBugPatternIsCaught) {
  status_then_poll(false);
}

TEST(RaceCheck, TheDispatchStatusPatternWithItsMte3Mte2FlagIsClean) {
  status_then_poll(true);
}

TEST(RaceCheck, AVectorOpReadingALoadWithoutAFlagIsReadAfterWrite) {
  Bench b(kOn);
  uint64_t x = b.alloc(4096);
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<float> t = ub_tensor<float>(pipe, 256);
    DataCopy(t, global<float>(x, 256), 256);
    Muls(t, t, 2.0f, 256);
  });
  EXPECT_EQ(e.code, kExitRace);
  EXPECT_NE(std::string(e.what()).find("read after write on UB bytes [0, +32)"), std::string::npos)
      << e.what();
  EXPECT_NE(std::string(e.what()).find("VECTOR Muls"), std::string::npos) << e.what();
}

// With the compiler's automatic synchronisation off (as a kernel that syncs itself is built), the
// scalar's read races with the load; with it on, the inserted wait orders them
// (tests/test_api_samples.cpp).
TEST(RaceCheck, TheScalarReadingALoadWithoutWaitingIsCaught) {
  Bench b({"run.racecheck=1", "compiler.auto_sync=0"});
  uint64_t x = b.alloc(4096);
  SimError e = b.run_expecting_error(1, [&] {
    TPipe pipe;
    LocalTensor<int32_t> t = ub_tensor<int32_t>(pipe, 8);
    DataCopy(t, global<int32_t>(x, 8), 8);
    (void)t.GetValue(3);
  });
  EXPECT_EQ(e.code, kExitRace);
  EXPECT_NE(std::string(e.what()).find("SCALAR GetValue (UB)"), std::string::npos) << e.what();
}

TEST(RaceCheck, DisjointBytesOfTwoPipesAreNoRace) {
  Bench b(kOn);
  uint64_t x = b.alloc(4096);
  b.run(1, [&] {
    TPipe pipe;
    LocalTensor<float> a = ub_tensor<float>(pipe, 256), c = ub_tensor<float>(pipe, 256);
    DataCopy(a, global<float>(x, 256), 256);
    Duplicate(c, 1.0f, 256);  // another buffer: no order needed
  });
  EXPECT_EQ(b.cluster().die(0).cores[0]->race_checker()->hazards(), 0u);
}

// A false positive on a correctly synchronized double-buffered pipeline is a failure.
TEST(RaceCheck, ADoubleBufferedQueuePipelineIsClean) {
  for (int buffers : {1, 2}) {
    nlohmann::json r = in_child([buffers] {
      Bench b(kOn);
      constexpr uint32_t kTiles = 8, kTile = 256;
      uint64_t x = b.alloc(kTiles * kTile * 4), y = b.alloc(kTiles * kTile * 4);
      b.run(1, [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> qin;
        TQue<TPosition::VECOUT, 2> qout;
        pipe.InitBuffer(qin, buffers, kTile * sizeof(float));
        pipe.InitBuffer(qout, buffers, kTile * sizeof(float));
        GlobalTensor<float> xg = global<float>(x, kTiles * kTile),
                            yg = global<float>(y, kTiles * kTile);
        for (uint32_t i = 0; i < kTiles; ++i) {
          LocalTensor<float> a = qin.AllocTensor<float>();
          DataCopy(a, xg[i * kTile], kTile);
          qin.EnQue(a);
          LocalTensor<float> xin = qin.DeQue<float>();
          LocalTensor<float> o = qout.AllocTensor<float>();
          Muls(o, xin, 2.0f, kTile);
          qin.FreeTensor(xin);
          qout.EnQue(o);
          LocalTensor<float> z = qout.DeQue<float>();
          DataCopy(yg[i * kTile], z, kTile);
          qout.FreeTensor(z);
        }
      });
      return nlohmann::json{{"hazards", b.cluster().die(0).cores[0]->race_checker()->hazards()}};
    });
    EXPECT_EQ(r, (nlohmann::json{{"hazards", 0}})) << buffers << " buffer(s)";
  }
}

// A core's own GM: a load of bytes its pending store writes, and a scalar GetValue of them.
TEST(RaceCheck, GmHazardsOfOneCore) {
  nlohmann::json load = in_child([] {
    Bench b(kOn);
    uint64_t g = b.alloc(4096);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<float> a = ub_tensor<float>(pipe, 64), c = ub_tensor<float>(pipe, 64);
      Duplicate(a, 1.0f, 64);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<float>(g, 64), a, 64);
      DataCopy(c, global<float>(g, 64), 64);  // reads what the store may not have written yet
    });
    return nlohmann::json();
  });
  EXPECT_EQ(load["exit_code"], kExitRace) << load.dump();
  EXPECT_NE(load["message"].get<std::string>().find("read after write on GM bytes [die 0"),
            std::string::npos)
      << load.dump();
  nlohmann::json scalar = in_child([] {
    Bench b(kOn);
    uint64_t g = b.alloc(4096);
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<int32_t> a = ub_tensor<int32_t>(pipe, 8);
      Duplicate(a, 7, 8);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<int32_t>(g, 8), a, 8);
      (void)global<int32_t>(g, 8).GetValue(0);  // a word a pending DMA writes
    });
    return nlohmann::json();
  });
  EXPECT_EQ(scalar["exit_code"], kExitRace) << scalar.dump();
  EXPECT_NE(scalar["message"].get<std::string>().find("SCALAR GetValue (GM)"), std::string::npos)
      << scalar.dump();
  nlohmann::json ordered = in_child([] {
    Bench b(kOn);
    uint64_t g = b.alloc(4096);
    int32_t v = 0;
    b.run(1, [&] {
      TPipe pipe;
      LocalTensor<int32_t> a = ub_tensor<int32_t>(pipe, 8);
      Duplicate(a, 7, 8);
      Order<HardEvent::V_MTE3>();
      DataCopy(global<int32_t>(g, 8), a, 8);
      PipeBarrier<PIPE_ALL>();
      v = global<int32_t>(g, 8).GetValue(0);
    });
    return nlohmann::json{{"v", v},
                          {"hazards", b.cluster().die(0).cores[0]->race_checker()->hazards()}};
  });
  EXPECT_EQ(ordered, (nlohmann::json{{"v", 7}, {"hazards", 0}}));
}

// Every planted bug of syncbug is caught: the races by the check (exit 6, though the plain run of
// no_reuse_wait passes its check by timing luck), the missing set and SyncAll as deadlocks.
TEST(RaceCheck, EveryPlantedSyncbugIsCaught) {
  struct Want {
    const char* bug;
    int plain, checked;
  };
  for (Want w : {Want{"none", 0, 0}, Want{"missing_flag", 4, 6}, Want{"no_reuse_wait", 0, 6},
                 Want{"unset_flag", 3, 3}, Want{"skip_syncall", 3, 3}}) {
    std::vector<std::string> sets = {std::string("syncbug.bug=") + w.bug};
    EXPECT_EQ(run_scenario("syncbug", sets).exit_code, w.plain) << w.bug;
    sets.push_back("run.racecheck=1");
    Outcome o = run_scenario("syncbug", sets);
    EXPECT_EQ(o.exit_code, w.checked) << w.bug << ": " << o.message;
  }
}

// The check observes only: the same figures with it on as off.
TEST(RaceCheck, LeavesTimingIdentical) {
  for (const char* kernel : {"dispatch", "combine", "ffn_worker_batching", "pipeline"}) {
    std::vector<std::string> sets = {"ep.world_size=4", "dispatch.experts=8", "dispatch.bs=8",
                                     "dispatch.hidden=1024"};
    if (std::string(kernel) == "ffn_worker_batching")
      sets = {"ffn.attn_ranks=2", "ffn.bs=8", "ffn.hidden=1024"};
    if (std::string(kernel) == "pipeline") sets = {};
    Outcome off = run_scenario(kernel, sets);
    // A checked core runs every iteration of its polling loops (no sleeping polls): its events
    // are those of a run without them.
    Outcome awake = run_scenario(kernel, with(sets, "sim.sleeping_polls=0"));
    sets.push_back("run.racecheck=1");
    Outcome on = run_scenario(kernel, sets);
    ASSERT_EQ(off.exit_code, 0) << off.message;
    ASSERT_EQ(awake.exit_code, 0) << awake.message;
    ASSERT_EQ(on.exit_code, 0) << kernel << ": " << on.message;
    EXPECT_EQ(off.stats["kernels"], on.stats["kernels"]) << kernel;
    EXPECT_EQ(awake.stats["kernels"], on.stats["kernels"]) << kernel;
    EXPECT_EQ(awake.stats["simulator"]["scheduler_events"],
              on.stats["simulator"]["scheduler_events"]);
  }
}

}  // namespace
}  // namespace ascend::test
