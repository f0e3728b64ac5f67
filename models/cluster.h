// The simulated machine: W dies, each with its AIV cores, its HBM (a shared bandwidth server)
// and its SyncAll barrier, in one global address space, joined by a fabric. The cluster routes
// every DMA transfer to the resources on its path.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/aiv_core.h"
#include "models/bandwidth_server.h"
#include "models/fabric.h"
#include "models/global_memory.h"
#include "models/scheduler.h"

namespace ascend::model {

struct HbmTiming {
  double gbps = 1600;
  double read_latency_ns = 130;
  double write_latency_ns = 52;
  uint64_t capacity_bytes = uint64_t{64} << 30;
};

struct ClusterConfig {
  int dies = 1;
  int aiv_per_die = 48;
  CoreTiming core;
  HbmTiming hbm;
  FabricConfig fabric;
  size_t thread_stack_bytes = 128 * 1024;
};

struct Die {
  Die(int index, const ClusterConfig& cfg)
      : index(index), hbm("die" + std::to_string(index) + ".hbm", cfg.hbm.gbps, index) {}
  int index;
  BandwidthServer hbm;
  SyncAllBarrier sync_all;
  std::vector<std::unique_ptr<AivCore>> cores;
};

class Cluster : public GmPort {
 public:
  explicit Cluster(const ClusterConfig& cfg);

  const ClusterConfig& config() const { return cfg_; }
  Scheduler& scheduler() { return *sched_; }
  GlobalMemory& gm() { return gm_; }
  int dies() const { return static_cast<int>(dies_.size()); }
  Die& die(int i) { return *dies_.at(i); }

  Timing book(int die, Tick ready, Tick engine_free, Tick engine_hold, GmAddr gm, uint64_t bytes,
              bool write) override;

  Fabric& fabric() { return *fabric_; }
  // Bytes carried per link class ("local" for a die's own HBM), over the whole run.
  const std::map<std::string, uint64_t>& class_bytes() const { return class_bytes_; }
  // Called for every hold of a fabric port or HBM (for link lanes in traces); may be empty.
  std::function<void(const BandwidthServer&, Tick start, Tick end)> on_hold;

 private:
  Tick hold(BandwidthServer& s, Tick start, Tick occupancy, uint64_t bytes);
  Tick fixed_latency(const Route& r, bool write) const;
  ClusterConfig cfg_;
  std::unique_ptr<Scheduler> sched_;
  GlobalMemory gm_;
  std::vector<std::unique_ptr<Die>> dies_;
  std::unique_ptr<Fabric> fabric_;
  std::map<std::string, uint64_t> class_bytes_;
};

}  // namespace ascend::model
