// A run: elaborates the cluster from the resolved parameters, lets a kernel's host side place
// its inputs in GM and launch, runs the SystemC kernel until every core has finished, turns a
// deadlock, hang or kernel fault into its error, and collects the figures of every launch.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "api/runtime.h"
#include "models/cluster.h"
#include "models/counters.h"
#include "models/host_ticks.h"
#include "sim/figures.h"
#include "sim/params.h"

namespace ascend {

class TraceRecorder;
class VcdWriter;
class ObserverFanOut;

struct RunOptions {
  std::string out_dir;  // "" = write nothing
  bool trace = false;
  bool vcd = false;
  // Another cost model than the default (tests, calibrated variants).
  std::shared_ptr<const model::CostModel> cost_model;
  // Called once the cluster is built and before elaboration ends: binds other modules into the
  // tree (a DRAM model in place of a die's HBM: Die::bind_memory).
  std::function<void(model::Cluster&)> elaborate;
  // Build each die's AICs (die.aic_count): for a kernel that uses the cube.
  bool aic = false;
};

// Which cores of each die a launch starts. AIV-only: `aiv` cores. With AICs: `aic` blocks, each an
// AIC and `ratio` AIVs (ratio 0: AIC only; 1 or 2: a mixed kernel, AIC i with AIVs i, or 2i and
// 2i+1). GetBlockNum() is the block count on every core.
struct LaunchShape {
  int aiv = 0;
  int aic = 0;
  int ratio = 0;
  static LaunchShape vector(int cores) { return {cores, 0, 0}; }
  static LaunchShape mixed(int blocks, int ratio) { return {blocks * ratio, blocks, ratio}; }
};

// One rank's counters over a launch (the difference of the models' counters before and after).
struct RankCounters {
  std::vector<model::CounterSet> cores;   // per launched AIV: model::Core::counters()
  std::vector<model::Tick> core_latency;  // launch to each AIV's end
  std::vector<model::CounterSet> aics;    // per launched AIC
  std::vector<model::Tick> aic_latency;
  model::CounterSet hbm;  // the rank's HBM: bytes, busy_ps, transfers
};

// A fabric port's counters over a launch.
struct PortCounters {
  const model::BandwidthServer* port;
  model::CounterSet counters;  // bytes, busy_ps, transfers
};

// The figures of one kernel launch: the models' counters over the launch, and the kernel's own
// figures (name, unit, value).
struct KernelRecord {
  std::string name;
  int cores = 0;      // AIVs per die
  int aic_cores = 0;  // AICs per die
  model::Tick start = 0;
  model::Tick span = 0;                   // the launch to the end of its last core
  std::vector<model::Tick> rank_latency;  // launch to the last core's end, per die
  std::vector<RankCounters> ranks;        // per die
  std::vector<PortCounters> ports;        // every fabric port, in creation order
  model::CounterSet link_classes;         // bytes per link class
  // stats.modules = 1: every counting module's counters over the launch, by module path, for
  // those that counted something (in the module tree's order).
  std::vector<std::pair<const char*, model::CounterSet>> modules;
  Figures figures;  // the kernel's own

  model::Tick latency() const;
  // Sets one of the kernel's figures.
  void figure(const std::string& name, const std::string& unit, nlohmann::json value) {
    figures.set(name, unit, std::move(value));
  }
  // Busy time of a core's pipe (SCALAR, VECTOR, MTE2, MTE3) over its rank's latency, in %.
  double pipe_busy_pct(int rank, int core, model::Lane pipe) const;
  // The same for an AIC's pipe (SCALAR, MTE2, MTE1, CUBE, FIXP).
  double aic_busy_pct(int rank, int aic, model::Lane pipe) const;
  // A port's busy time over the span, in %.
  double utilization_pct(const PortCounters& p) const;

  // The stats.json sections: ranks[], ports[] (those that carried traffic), link_class_bytes,
  // and every figure's unit.
  nlohmann::json ranks_json() const;
  nlohmann::json ports_json() const;
  nlohmann::json link_class_bytes_json() const;
  nlohmann::json modules_json() const;
  nlohmann::json units_json() const;
};

// The simulator's own figures of a run.
struct SimulatorFigures {
  double wall_s = 0;
  double sim_time_ns = 0;
  uint64_t scheduler_events = 0;
  uint64_t delta_cycles = 0;
  double peak_rss_MiB = 0;
  double gm_resident_MiB = 0;
  // Whether malloc was asked for transparent huge pages (glibc.malloc.hugetlb=1;
  // apps/ascend-sim/main.cpp).
  bool malloc_huge_pages = false;
  // Where the wall time went: the models' events (the scheduler's activations) and the kernels'
  // programs (their threads' runs, the API calls included). The rest is set-up, the check, the
  // outputs and SystemC's own switching between processes.
  double event_wall_s = 0;
  double kernel_wall_s = 0;
  // Instructions checked against the issue-time recurrences (sim.check_issue_timing=1; else 0).
  uint64_t issue_timing_checked = 0;
};

// "injected fault(s): fault.KEY = VALUE, ..." for every fault.* parameter off its default, or
// "": appended to a hang report or a failed check, so that an injected fault is never mistaken
// for a bug of the kernel.
std::string injected_faults(const Params& p);

// Before anything is built: refuses (exit 2) a run this machine cannot hold, saying what it needs
// and how to get there. Memory: the cores' stacks and local memories of every die, plus
// `payload_bytes` (the kernel's estimate of its tensors with sim.payload = 1), against
// run.memory_MiB (0: MemAvailable, or the cgroup's limit if lower). Threads: every kernel core is
// an SC_THREAD whose stack is its own memory mapping, against vm.max_map_count.
void check_resources(const Params& p, int dies, bool aic, uint64_t payload_bytes);
// The threads part alone (exit 2 when `threads` kernel threads would pass vm.max_map_count).
void check_thread_budget(int threads);

class Simulation {
 public:
  Simulation(const Params& params, int dies, RunOptions opts);
  ~Simulation();

  const Params& params() const { return params_; }
  model::Cluster& cluster() { return *cluster_; }

  // GM allocation and host access (before or between launches).
  uint64_t alloc(int die, const std::string& name, uint64_t bytes);
  void write(uint64_t addr, const void* src, uint64_t bytes) {
    cluster_->gm().write(addr, src, bytes);
  }
  void read(uint64_t addr, void* dst, uint64_t bytes) { cluster_->gm().read(addr, dst, bytes); }

  // Every rank's HCCL windows (allocated at construction, hccl.buffsize_MB and hccl.status_KiB).
  uint64_t window(int rank) const;
  uint64_t status_window(int rank) const;
  // TP groups of `tp` dies (tpWorldSize 2): die d becomes rank d / tp of EP group d % tp and rank
  // d % tp of TP group d / tp (the peers are the dies of one chip), and every die gets the TP
  // communicator's windows (the sizes of the EP ones). Before the first launch that uses them;
  // the same tp again does nothing. tp = 1: nothing changes.
  void set_tp_groups(int tp);
  // A kernel whose window layout needs more than the configured window fails before launch.
  void require_window(const std::string& kernel, uint64_t needed, const std::string& formula) const;

  // Launches `program(die)` on cores [0, cores) of every die and runs until all have finished.
  // Throws SimError: kExitKernelFault on a fault, kExitDeadlock on a deadlock or hang.
  KernelRecord& run_kernel(const std::string& name, int cores,
                           const std::function<std::function<void()>(int die)>& program) {
    return run_kernel(name, LaunchShape::vector(cores), program);
  }
  // The same on the cores of `shape`: every core runs the same program (it asks its kind, as
  // ASCEND_IS_AIC does).
  KernelRecord& run_kernel(const std::string& name, const LaunchShape& shape,
                           const std::function<std::function<void()>(int die)>& program);

  // A deque: the record a launch returns stays valid across later launches.
  const std::deque<KernelRecord>& records() const { return records_; }
  std::deque<KernelRecord>& records() { return records_; }  // a host may rename its launches
  // Wall time as given; peak RSS and the rest as of now.
  SimulatorFigures simulator_figures(double wall_s) const;
  nlohmann::json stats(double wall_s) const;
  // Writes stats.json and config.ini (and closes trace.json / waves.vcd) when out_dir is set.
  // `extra` is merged into stats.json (the CLI adds its version and command line under "run").
  void write_outputs(double wall_s, const std::string& preset, const std::string& kernel,
                     const nlohmann::json& extra = nlohmann::json::object());
  // stats.json and config.ini only: the traces stay open for later launches.
  void write_stats(double wall_s, const std::string& preset, const std::string& kernel,
                   const nlohmann::json& extra = nlohmann::json::object()) const;
  void close_traces();  // also on failure, so a deadlock can be inspected
  const std::string& out_dir() const { return opts_.out_dir; }

 private:
  // Every counter a launch's record takes the difference of: the first `cores` cores of each die,
  // each die's HBM, every fabric port and the link classes.
  struct Snapshot {
    std::vector<std::vector<model::CounterSet>> cores;  // [die][core]
    std::vector<std::vector<model::CounterSet>> aics;   // [die][aic]
    std::vector<model::CounterSet> hbm;                 // [die]
    std::vector<model::CounterSet> ports;               // fabric().ports() order
    model::CounterSet links;
    std::vector<model::CounterSet> modules;  // stats.modules: counted_'s order
  };
  Snapshot snapshot(const LaunchShape& shape) const;
  void set_cross_peers(model::Die& die, const LaunchShape& shape);
  void setup_traces();
  std::string stuck_report(bool hang, model::Tick deadline) const;
  std::string race_report() const;  // "" when the race check is off or found nothing

  const Params& params_;
  RunOptions opts_;
  std::unique_ptr<model::Cluster> cluster_;
  // stats.modules = 1: every module that counts (found once the tree is built); empty otherwise.
  std::vector<model::CountedModule> counted_;
  std::unique_ptr<TraceRecorder> trace_;
  std::unique_ptr<VcdWriter> vcd_;
  std::unique_ptr<ObserverFanOut> observers_;
  std::deque<KernelRecord> records_;
  std::unique_ptr<AscendC::detail::Runtime> runtime_;
  bool traces_closed_ = false;
  model::HostTicksToSeconds host_clock_;  // for the simulator's own profile
};

// "all" or "0-3,7" -> the set of indices (empty = all); bad syntax is a bad-input error.
std::set<int> parse_scope(const std::string& key, const std::string& text);

// trace.scope: comma-separated glob patterns of module paths; '*' and '?' stay within one level.
class ModuleScope {
 public:
  explicit ModuleScope(const std::string& text);
  bool empty() const { return patterns_.empty(); }
  // The module, or a module above it, matches a pattern.
  bool covers(const std::string& path) const;

 private:
  std::vector<std::string> patterns_;  // levels separated by '/' for fnmatch
};

}  // namespace ascend
