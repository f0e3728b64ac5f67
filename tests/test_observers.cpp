// Observing never changes what is observed: every kernel gives the same figures, the same event
// count and the same checked outputs with and without --trace and --vcd; and every slice of a
// trace lies inside the run it shows.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/harness.h"

namespace ascend::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  const char* kernel;
  std::vector<std::string> sets;
};

// Every kernel on a small checked workload.
const std::vector<Case>& cases() {
  static const std::vector<std::string> moe = {"ep.world_size=4", "dispatch.experts=8",
                                               "dispatch.bs=8", "dispatch.hidden=1024"};
  static const std::vector<Case> c = {
      {"dispatch", moe},
      {"combine", moe},
      {"moe", moe},
      {"alltoallv_dispatch", moe},
      {"ffn_worker_batching", {"ffn.attn_ranks=2", "ffn.bs=8", "ffn.hidden=1024"}},
      {"pipeline", {}},
      {"stream", {"stream.cores=4"}},
      {"syncbug", {}},
      {"ub_write", {"ub_write.cores=4"}},
      {"flag_ring", {"ep.world_size=4", "flag_ring.cores=4"}},
  };
  return c;
}

fs::path scratch(const std::string& what) {
  return fs::temp_directory_path() / ("ascend-obs-" + std::to_string(getpid()) + "-" + what);
}

// Everything but the simulator's own effort: wall time, memory, and its events (a traced core
// runs every iteration of its polling loops, where an untraced one may sleep through them and
// have the core replay them: Core::poll_sleep; the figures are the same).
nlohmann::json timing_of(const Outcome& o) {
  nlohmann::json s = o.stats;
  nlohmann::json sim = s["simulator"];
  s["simulator"] = {{"sim_time_ns", sim["sim_time_ns"]}};
  return s;
}

TEST(Observers, TraceAndVcdLeaveEveryFigureOfEveryKernelIdentical) {
  for (const Case& c : cases()) {
    std::vector<std::string> sets = c.sets;
    sets.push_back("trace.ranks=all");
    sets.push_back("trace.cores=all");
    Outcome plain = run_scenario(c.kernel, sets);
    ASSERT_EQ(plain.exit_code, 0) << c.kernel << ": " << plain.message;
    for (int mode = 1; mode <= 3; ++mode) {
      RunOptions ro;
      ro.out_dir = scratch(c.kernel).string();
      ro.trace = mode & 1;
      ro.vcd = mode & 2;
      Outcome seen = run_scenario(c.kernel, sets, ro);
      ASSERT_EQ(seen.exit_code, 0) << c.kernel << ": " << seen.message;  // outputs still checked
      EXPECT_EQ(timing_of(plain), timing_of(seen))
          << c.kernel << " with" << (ro.trace ? " --trace" : "") << (ro.vcd ? " --vcd" : "");
      EXPECT_EQ(fs::exists(ro.out_dir + "/trace.json"), ro.trace);
      EXPECT_EQ(fs::exists(ro.out_dir + "/waves.vcd"), ro.vcd);
      fs::remove_all(ro.out_dir);
    }
  }
}

// The user's report: the default dispatch took 77.396 us without --vcd and 77.566 with it.
TEST(Observers, TheDefaultDispatchHasTheSameLatencyAndEventsWithAVcd) {
  std::vector<std::string> sets = {"sim.payload=0", "run.check=0"};
  Outcome plain = run_scenario("dispatch", sets);
  RunOptions ro;
  ro.out_dir = scratch("default").string();
  ro.vcd = ro.trace = true;
  Outcome seen = run_scenario("dispatch", sets, ro);
  ASSERT_EQ(plain.exit_code, 0) << plain.message;
  ASSERT_EQ(seen.exit_code, 0) << seen.message;
  EXPECT_EQ(timing_of(plain), timing_of(seen));
  fs::remove_all(ro.out_dir);
}

TEST(Observers, EverySliceOfEveryKernelsTraceLiesInsideTheRun) {
  for (const Case& c : cases()) {
    RunOptions ro;
    ro.out_dir = scratch(c.kernel).string();
    ro.trace = true;
    std::vector<std::string> sets = c.sets;
    sets.push_back("trace.ranks=all");
    sets.push_back("trace.cores=all");
    Outcome o = run_scenario(c.kernel, sets, ro);
    ASSERT_EQ(o.exit_code, 0) << c.kernel << ": " << o.message;
    double begin = 1e300, end = 0, longest = 0;
    for (const auto& k : o.stats["kernels"]) {
      double s = k["start_ns"].get<double>() / 1000, lat = k["latency_ns"].get<double>() / 1000;
      begin = std::min(begin, s);
      end = std::max(end, s + lat);
      longest = std::max(longest, lat);
    }
    std::ifstream f(ro.out_dir + "/trace.json");
    nlohmann::json t = nlohmann::json::parse(f);
    size_t slices = 0;
    const double eps = 1e-6;  // 1 ps, in us
    for (const auto& e : t["traceEvents"]) {
      if (e["ph"] != "X") continue;
      ++slices;
      double ts = e["ts"].get<double>(), dur = e["dur"].get<double>();
      ASSERT_GE(dur, 0) << c.kernel << ": " << e.dump();
      ASSERT_LE(dur, longest + eps) << c.kernel << ": " << e.dump();
      ASSERT_GE(ts, begin - eps) << c.kernel << ": " << e.dump();
      ASSERT_LE(ts + dur, end + eps) << c.kernel << ": " << e.dump();
    }
    EXPECT_GT(slices, 10u) << c.kernel;
    fs::remove_all(ro.out_dir);
  }
}

// The user's reproduction of the WaitFlag slices that wrapped to ~1.8e13 us.
TEST(Observers, CombineWaitFlagSlicesHaveNoNegativeDuration) {
  RunOptions ro;
  ro.out_dir = scratch("combine8").string();
  ro.trace = true;
  Outcome o = run_scenario(
      "combine", {"ep.world_size=8", "dispatch.experts=64", "run.check=0", "sim.payload=0"}, ro);
  ASSERT_EQ(o.exit_code, 0) << o.message;
  std::ifstream f(ro.out_dir + "/trace.json");
  nlohmann::json t = nlohmann::json::parse(f);
  double lat = o.latency_ns() / 1000;
  size_t waits = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    if (e["name"].get<std::string>().rfind("WaitFlag", 0) == 0) ++waits;
    ASSERT_LE(e["dur"].get<double>(), lat) << e.dump();
  }
  EXPECT_GT(waits, 0u);
  fs::remove_all(ro.out_dir);
}

}  // namespace
}  // namespace ascend::test

namespace ascend::test {
namespace {

std::string file_text(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The lazy scalar (models/core.h) only saves thread switches: every kernel gives the same
// figures, to the picosecond, the same waveforms and the same trace slices with it on and off.
TEST(LazyScalar, OnAndOffGiveIdenticalFiguresWavesAndTracesForEveryKernel) {
  for (const Case& c : cases()) {
    Outcome out[2];
    std::string waves[2];
    std::multiset<std::string> slices[2];
    for (int lazy = 0; lazy <= 1; ++lazy) {
      RunOptions ro;
      ro.out_dir = scratch(std::string(c.kernel) + "-lazy" + std::to_string(lazy)).string();
      ro.trace = ro.vcd = true;
      std::vector<std::string> sets = c.sets;
      sets.push_back("trace.ranks=all");
      sets.push_back("trace.cores=all");
      sets.push_back("sim.lazy_scalar=" + std::to_string(lazy));
      out[lazy] = run_scenario(c.kernel, sets, ro);
      ASSERT_EQ(out[lazy].exit_code, 0) << c.kernel << ": " << out[lazy].message;
      waves[lazy] = file_text(ro.out_dir + "/waves.vcd");
      std::ifstream f(ro.out_dir + "/trace.json");
      const nlohmann::json trace = nlohmann::json::parse(f);  // outlives the loop over its events
      for (const auto& e : trace["traceEvents"]) slices[lazy].insert(e.dump());
      fs::remove_all(ro.out_dir);
    }
    EXPECT_EQ(out[0].stats["kernels"], out[1].stats["kernels"]) << c.kernel;
    EXPECT_EQ(waves[0], waves[1]) << c.kernel;
    EXPECT_EQ(slices[0], slices[1]) << c.kernel;
    // It is on by default, and it saves events.
    EXPECT_LT(out[1].stats["simulator"]["scheduler_events"].get<uint64_t>(),
              out[0].stats["simulator"]["scheduler_events"].get<uint64_t>())
        << c.kernel;
  }
}

}  // namespace
}  // namespace ascend::test
