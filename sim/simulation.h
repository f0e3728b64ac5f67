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

#include "models/cluster.h"
#include "sim/api/runtime.h"
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
};

// The figures of one kernel launch.
struct KernelRecord {
  std::string name;
  int cores = 0;
  model::Tick start = 0;
  std::vector<model::Tick> rank_latency;            // launch to the last core's end, per die
  nlohmann::json extra = nlohmann::json::object();  // kernel-specific figures, units in names
  nlohmann::json ranks = nlohmann::json::array();
  nlohmann::json ports = nlohmann::json::array();  // fabric ports that carried traffic
  nlohmann::json link_class_bytes = nlohmann::json::object();
  model::Tick latency() const;
};

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
  // A kernel whose window layout needs more than the configured window fails before launch.
  void require_window(const std::string& kernel, uint64_t needed, const std::string& formula) const;

  // Launches `program(die)` on cores [0, cores) of every die and runs until all have finished.
  // Throws SimError: kExitKernelFault on a fault, kExitDeadlock on a deadlock or hang.
  KernelRecord& run_kernel(const std::string& name, int cores,
                           const std::function<std::function<void()>(int die)>& program);

  // A deque: the record a launch returns stays valid across later launches.
  const std::deque<KernelRecord>& records() const { return records_; }
  nlohmann::json stats(double wall_s) const;
  // Writes stats.json and config.ini (and closes trace.json / waves.vcd) when out_dir is set.
  // `extra` is merged into stats.json (the CLI adds its version and command line under "run").
  void write_outputs(double wall_s, const std::string& preset, const std::string& kernel,
                     const nlohmann::json& extra = nlohmann::json::object());
  void close_traces();  // also on failure, so a deadlock can be inspected

 private:
  void check_thread_budget(int threads) const;
  void setup_traces();
  std::string stuck_report(bool hang, model::Tick deadline) const;
  std::string race_report() const;  // "" when the race check is off or found nothing

  const Params& params_;
  RunOptions opts_;
  std::unique_ptr<model::Cluster> cluster_;
  std::unique_ptr<TraceRecorder> trace_;
  std::unique_ptr<VcdWriter> vcd_;
  std::unique_ptr<ObserverFanOut> observers_;
  std::deque<KernelRecord> records_;
  std::unique_ptr<AscendC::detail::Runtime> runtime_;
  bool traces_closed_ = false;
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
