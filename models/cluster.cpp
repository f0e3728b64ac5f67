#include "models/cluster.h"

#include <algorithm>

namespace ascend::model {

Cluster::Cluster(const ClusterConfig& cfg)
    : cfg_(cfg), sched_(std::make_unique<Scheduler>("scheduler")), gm_(cfg.hbm.capacity_bytes) {
  for (int d = 0; d < cfg.dies; ++d) {
    auto die = std::make_unique<Die>(d, cfg);
    for (int c = 0; c < cfg.aiv_per_die; ++c) {
      std::string name = "die" + std::to_string(d) + "_aiv" + std::to_string(c);
      die->cores.push_back(std::make_unique<AivCore>(name.c_str(), d, c, cfg.core, *sched_,
                                                     *this, die->sync_all,
                                                     cfg.thread_stack_bytes));
    }
    dies_.push_back(std::move(die));
  }
}

// A local transfer holds the core's DMA engine and the die's HBM (shared by all its cores, reads
// and writes alike). It starts when both are free and is done when the slower one finishes, plus
// the HBM access latency.
GmPort::Timing Cluster::book(int die, Tick ready, Tick engine_free, Tick engine_hold, GmAddr gm,
                             uint64_t bytes, bool write) {
  (void)die;  // remote paths arrive with the fabric
  BandwidthServer& hbm = dies_[GlobalMemory::die_of(gm)]->hbm;
  Tick start = std::max({ready, engine_free, hbm.free_at()});
  Tick occupancy = hbm.occupancy(bytes);
  hbm.hold(start, occupancy, bytes);
  Tick latency = ns_to_ps(write ? cfg_.hbm.write_latency_ns : cfg_.hbm.read_latency_ns);
  return {start, start + std::max(engine_hold, occupancy) + latency};
}

}  // namespace ascend::model
