// Sleeping polls (SimPollUntil, Core::poll_sleep): while a polling loop's reads find the same
// words, the core replays its iterations and the kernel's thread sleeps. Nothing a user can see
// may change but the simulator's own effort: every figure of every polling kernel is the same to
// the picosecond with the mechanism on and off, whoever ends the wait (a DMA of the same die, one
// from another die, a scalar SetValue) and whenever it lands.
#include <algorithm>

#include "api/kernel_operator.h"
#include "tests/harness.h"

using namespace AscendC;

namespace ascend::test {
namespace {

uint64_t events(const Outcome& o) {
  return o.stats["simulator"]["scheduler_events"].get<uint64_t>();
}

// Every kernel that polls, on workloads where the waits are long.
TEST(SleepingPolls, OnAndOffGiveIdenticalFiguresForEveryPollingKernel) {
  const std::vector<std::string> moe = {"ep.world_size=8", "dispatch.experts=16", "dispatch.bs=16",
                                        "dispatch.hidden=1024"};
  struct Case {
    const char* kernel;
    std::vector<std::string> sets;
  };
  const std::vector<Case> cases = {
      {"dispatch", moe},
      {"combine", moe},
      {"combine", with(with(moe, "combine.delay_rank=3"), "combine.delay_us=10")},
      {"combine", with(with(moe, "combine.receiver=ready_first"), "combine.rows_per_barrier=2")},
      {"combine", with(moe, "combine.comm_quant=int8")},
      {"moe", moe},
      {"moe", with(with(moe, "sim.payload=0"), "run.check=0")},
      {"moe", with(moe, "fault.double_flag_rank=2")},
      {"alltoallv_dispatch", moe},
      {"dispatch", with(moe, {"dispatch.tp=2", "dispatch.experts=8"})},  // the TP handshake
      {"combine", with(moe, {"dispatch.tp=2", "dispatch.experts=8"})},
      {"flag_ring", {"ep.world_size=16"}},
      // ScheduleContext flags: one strided read of every session's flag per poll.
      {"ffn_worker_batching", {"ffn.attn_ranks=4", "ffn.bs=8", "ffn.hidden=256"}},
      {"ffn_worker_batching",
       {"ffn.need_schedule=1", "ffn.attn_ranks=4", "ffn.micro_batches=2", "ffn.bs=8"}},
  };
  uint64_t saved = 0;
  for (const Case& c : cases) {
    Outcome out[2];
    for (int on = 0; on <= 1; ++on) {
      out[on] = run_scenario(c.kernel, with(c.sets, "sim.sleeping_polls=" + std::to_string(on)));
      ASSERT_EQ(out[on].exit_code, 0) << c.kernel << ": " << out[on].message;
    }
    EXPECT_EQ(out[0].stats["kernels"], out[1].stats["kernels"]) << c.kernel;
    EXPECT_LE(events(out[1]), events(out[0])) << c.kernel;
    saved += events(out[0]) - events(out[1]);
  }
  EXPECT_GT(saved, 0u) << "no iteration was replayed";
}

// What each test kernel sets up: a 256-B UB buffer and `count` elements of GM at `flag`.
template <class T>
struct PollSetup {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  GlobalTensor<T> f;
  PollSetup(uint64_t flag, uint32_t count) {
    pipe.InitBuffer(buf, 256);
    f.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(flag), count);
  }
};

// One iteration of the vector-summed poll of the kernels: 8 flags read, summed, compared.
bool FlagsSet(const LocalTensor<float>& words, const LocalTensor<float>& sum,
              const GlobalTensor<float>& flags) {
  DataCopy(words, flags, 8);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  ReduceSum(sum, words, words, 8);
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  return sum.GetValue(0) > 0.5f;
}

// One die: core 0 polls a 32-B flag block until its sum is positive; the writer (core 1 by DMA
// or by SetValue, or core 0 of die 1 by a remote DMA) sets it after `delay_cycles`. Returns when
// the poller left the loop and the scheduler's events.
struct PollRun {
  uint64_t left_at = 0, waited = 0, events = 0;
};
enum class Writer { SameDieDma, RemoteDma, ScalarSetValue };

// Each run forks: SystemC allows one simulation per process.
PollRun poll_once(bool sleeping, Writer writer, uint64_t delay_cycles) {
  nlohmann::json j = in_child([&] {
    const int dies = writer == Writer::RemoteDma ? 2 : 1;
    Bench b({"sim.sleeping_polls=" + std::to_string(sleeping ? 1 : 0)}, dies);
    const uint64_t flag = b.alloc(32, 0);
    PollRun r;
    b.run(2, [&] {
      PollSetup<float> k(flag, 8);
      auto& buf = k.buf;
      auto& f = k.f;
      const int die = static_cast<int>(GetRankId());
      const int core = static_cast<int>(GetBlockIdx());
      const bool poller = die == 0 && core == 0;
      const bool setter =
          writer == Writer::RemoteDma ? die == 1 && core == 0 : die == 0 && core == 1;
      if (poller) {
        LocalTensor<float> words = buf.Get<float>(), sum = buf.Get<float>()[32];
        r.waited = SimPollUntil([&] { return FlagsSet(words, sum, f); });
        r.left_at = SimNowPs();
      } else if (setter) {
        SimStall(delay_cycles);
        if (writer == Writer::ScalarSetValue) {
          f.SetValue(3, 1.0f);
        } else {
          LocalTensor<float> one = buf.Get<float>();
          Duplicate(one, 1.0f, 8);
          SetFlag<HardEvent::V_MTE3>(0);
          WaitFlag<HardEvent::V_MTE3>(0);
          DataCopy(f, one, 8);
        }
      }
    });
    r.events = b.sim().simulator_figures(0).scheduler_events;
    return nlohmann::json{{"left_at", r.left_at}, {"waited", r.waited}, {"events", r.events}};
  });
  EXPECT_FALSE(j.contains("exit_code")) << j.dump();
  PollRun r;
  r.left_at = j.value("left_at", uint64_t{0});
  r.waited = j.value("waited", uint64_t{0});
  r.events = j.value("events", uint64_t{0});
  return r;
}

// Whatever writes the flag and whenever its write lands relative to the poller's iterations
// (delays a few cycles apart sweep every phase of an iteration), the poller leaves the loop at
// the same picosecond, having waited as long, with the mechanism on and off; and it sleeps.
TEST(SleepingPolls, AReplayedPollEndsWhenTheRealOneWouldWhoeverWritesAndWhenever) {
  for (Writer w : {Writer::SameDieDma, Writer::RemoteDma, Writer::ScalarSetValue}) {
    int slept = 0;
    for (uint64_t delay = 4000; delay < 4000 + 1200; delay += 37) {
      PollRun off = poll_once(false, w, delay), on = poll_once(true, w, delay);
      ASSERT_EQ(on.left_at, off.left_at) << "writer " << static_cast<int>(w) << " delay " << delay;
      ASSERT_EQ(on.waited, off.waited) << "writer " << static_cast<int>(w) << " delay " << delay;
      EXPECT_GT(off.left_at, model::Tick{delay} * 500) << "the poll waited for the write";
      slept += on.events < off.events;
    }
    EXPECT_GT(slept, 20) << "writer " << static_cast<int>(w);
  }
}

// A loop whose body does more than the one shape a replay times (here a scalar GM read) runs
// every iteration: same figures, same events.
TEST(SleepingPolls, ALoopOfAnotherShapeRunsEveryIteration) {
  uint64_t ev[2] = {0, 0}, left[2] = {0, 0};
  for (int on = 0; on <= 1; ++on) {
    nlohmann::json j = in_child([&] {
      Bench b({"sim.sleeping_polls=" + std::to_string(on)});
      const uint64_t flag = b.alloc(64);
      b.run(2, [&] {
        PollSetup<int32_t> k(flag, 16);
        auto& buf = k.buf;
        auto& f = k.f;
        if (GetBlockIdx() == 0) {
          LocalTensor<int32_t> words = buf.Get<int32_t>();
          SimPollUntil([&] {
            DataCopy(words, f, 8);
            SetFlag<HardEvent::MTE2_S>(0);
            WaitFlag<HardEvent::MTE2_S>(0);
            return words.GetValue(0) + f.GetValue(8) > 0;  // a scalar GM read too
          });
          left[on] = SimNowPs();
        } else {
          SimStall(20000);
          f.SetValue(8, 1);
        }
      });
      return nlohmann::json{{"left", left[on]},
                            {"events", b.sim().simulator_figures(0).scheduler_events}};
    });
    ASSERT_FALSE(j.contains("exit_code")) << j.dump();
    left[on] = j["left"].get<uint64_t>();
    ev[on] = j["events"].get<uint64_t>();
  }
  EXPECT_EQ(left[0], left[1]);
  EXPECT_EQ(ev[0], ev[1]);
}

// The loop's contract: an iteration does the same while what it reads is the same. A body that
// begins differently once the words change (here: after a count of its own) is a kernel fault
// that names SimPollUntil, not a silently different run.
TEST(SleepingPolls, ABodyThatChangesWhileSleepingIsAKernelFaultNamingTheLoop) {
  nlohmann::json j = in_child([&] {
    Bench b;
    const uint64_t flag = b.alloc(64);
    SimError e = b.run_expecting_error(2, [&] {
      PollSetup<float> k(flag, 16);
      auto& buf = k.buf;
      auto& f = k.f;
      if (GetBlockIdx() == 0) {
        LocalTensor<float> words = buf.Get<float>(), sum = buf.Get<float>()[32];
        int iterations = 0;
        SimPollUntil([&] { return FlagsSet(words, sum, f[iterations++ < 2 ? 0 : 8]); });
      } else {
        SimStall(20000);
        f.SetValue(0, 1.0f);
      }
    });
    return nlohmann::json{{"code", e.code}, {"what", e.what()}};
  });
  EXPECT_EQ(j.value("code", -1), kExitKernelFault) << j.dump();
  EXPECT_NE(j.value("what", std::string()).find("SimPollUntil"), std::string::npos) << j.dump();
}

// A poll that never succeeds sleeps until the deadline: a hang report that names the loop and
// counts its reads as the real iterations would have.
TEST(SleepingPolls, AHangWhileSleepingNamesTheLoopAndCountsItsReads) {
  std::string report[2];
  for (int on = 0; on <= 1; ++on) {
    nlohmann::json j = in_child([&] {
      Bench b({"sim.poll_timeout_us=20", "sim.sleeping_polls=" + std::to_string(on)});
      const uint64_t flag = b.alloc(32);
      SimError e = b.run_expecting_error(1, [&] {
        PollSetup<float> k(flag, 8);
        auto& buf = k.buf;
        auto& f = k.f;
        LocalTensor<float> words = buf.Get<float>(), sum = buf.Get<float>()[32];
        SimPollUntil([&] { return FlagsSet(words, sum, f); });
      });
      return nlohmann::json{{"code", e.code}, {"what", e.what()}};
    });
    EXPECT_EQ(j.value("code", -1), kExitDeadlock) << j.dump();
    report[on] = j.value("what", std::string());
  }
  EXPECT_NE(report[1].find("a polling loop (SimPollUntil) whose iterations the core replays"),
            std::string::npos)
      << report[1];
  auto reads = [](const std::string& r) {
    size_t at = r.find(" reads");
    size_t from = r.rfind(", ", at);
    return r.substr(from + 2, at - from - 2);
  };
  EXPECT_EQ(reads(report[0]), reads(report[1])) << report[0] << "\n" << report[1];
}

}  // namespace
}  // namespace ascend::test
