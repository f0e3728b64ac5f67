// The simulated machine as one SystemC module tree: `cluster` holds W dies (cluster.die3), each
// with its AIV cores (cluster.die3.aiv17, with their ub, vector, mte2 and mte3), its HBM, its
// HCCL windows, its noc and its SyncAll barrier, in one global address space, and the fabric
// that joins them (cluster.fabric). Units are bound through TLM-2.0 sockets (transfer.h): each MTE
// engine to its die's noc, each noc to its HBM and to the fabric, the fabric back to every noc.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/core.h"
#include "models/cost_model.h"
#include "models/counters.h"
#include "models/fabric.h"
#include "models/global_memory.h"
#include "models/memory.h"
#include "models/scheduler.h"

namespace ascend::model {

struct ClusterConfig {
  int dies = 1;
  int aiv_per_die = 48;
  int aic_per_die = 24;
  bool build_aics = false;  // the AICs exist only for a kernel that uses the cube
  // The die's L2 as the AICs' reads see it (built with the AICs; capacity 0: every read misses).
  uint64_t l2_capacity_bytes = uint64_t{192} << 20;
  uint64_t l2_block_bytes = 512;
  CoreTiming core;
  HbmTiming hbm;
  FabricConfig fabric;
  size_t thread_stack_bytes = 128 * 1024;
  // GM storage pages (GlobalMemory): 4 KiB when payload moves, smaller for timing-only runs.
  uint64_t gm_page_bytes = GlobalMemory::kDefaultPageBytes;
  int lazy_scalar = 1;     // Core::set_lazy_scalar
  int sleeping_polls = 1;  // PollReplay::set_enabled
  int auto_sync = 1;       // Core::set_auto_sync
  // How the shared resources (each die's HBM, the fabric's ports) order their requests: FIFO in
  // booking order, or CalendarArbitration. The same when requests are booked in time order.
  enum class Arbitration : uint8_t { Fifo, Calendar };
  Arbitration arbitration = Arbitration::Fifo;
  int check_issue_timing = 0;  // Core::set_check_issue_timing
  // The formulas of vector, DMA and path timing; null: DefaultCostModel of `core` and `hbm`.
  std::shared_ptr<const CostModel> cost_model;
};

class Die : public sc_core::sc_module {
 public:
  // `local_memory`: the local address spaces of the die's cores, one after the other (the AIVs',
  // then the AICs').
  Die(const sc_core::sc_module_name& name, int index, const ClusterConfig& cfg, Scheduler& sched,
      const CostModel& cost, uint8_t* local_memory);
  // The local bytes of a die's cores.
  static size_t local_bytes(const ClusterConfig& cfg);
  // Binds the die's memory side (behind its hccl_window) to `target` in place of its HBM, before
  // the run starts: a DRAM model, or a test's target. Unbound at the end of elaboration: the HBM.
  void bind_memory(MemoryTarget& target);

  const int index;
  Hbm hbm;
  HcclWindow hccl_window;
  Noc noc;
  DieBarriers barriers;
  std::vector<std::unique_ptr<Core>> cores;  // the AIVs
  std::vector<std::unique_ptr<Core>> aics;   // the AICs (AIC i pairs with AIVs 2i and 2i+1)
  std::unique_ptr<L2Cache> l2;               // with the AICs
  // Every core, AIVs then AICs.
  template <class F>
  void for_each_core(F&& f) {
    for (auto& c : cores) f(*c);
    for (auto& c : aics) f(*c);
  }

 private:
  void before_end_of_elaboration() override;
  bool memory_bound_ = false;
};

class Cluster : public sc_core::sc_module {
 public:
  Cluster(const sc_core::sc_module_name& name, const ClusterConfig& cfg);

  const ClusterConfig& config() const { return cfg_; }
  const CostModel& cost_model() const { return *cost_; }
  Scheduler& scheduler() { return *sched_; }
  GlobalMemory& gm() { return gm_; }
  int dies() const { return static_cast<int>(dies_.size()); }
  Die& die(int i) { return *dies_.at(i); }
  Fabric& fabric() { return *fabric_; }
  // Bytes carried per link class used so far ("local" for a die's own HBM, then the fabric's
  // classes), over the whole run: one counter each, in B.
  CounterSet link_counters() const;

 private:
  ClusterConfig cfg_;
  std::shared_ptr<const CostModel> cost_;
  std::unique_ptr<Scheduler> sched_;
  GlobalMemory gm_;
  ZeroPages ub_pages_;  // every core's local memory
  std::vector<std::unique_ptr<Die>> dies_;
  std::unique_ptr<Fabric> fabric_;
};

// The module tree under `root`, one module per line, indented by depth (--list-modules).
std::string module_tree(const sc_core::sc_object& root);

// Every module under `root` (itself included) that counts, with its path, in tree order.
struct CountedModule {
  const char* path;
  const Counted* module;
};
std::vector<CountedModule> counted_modules(const sc_core::sc_object& root);

}  // namespace ascend::model
