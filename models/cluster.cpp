#include "models/cluster.h"

#include <algorithm>
#include <cmath>

namespace ascend::model {

Cluster::Cluster(const ClusterConfig& cfg)
    : cfg_(cfg), sched_(std::make_unique<Scheduler>("scheduler")), gm_(cfg.hbm.capacity_bytes) {
  for (int d = 0; d < cfg.dies; ++d) {
    auto die = std::make_unique<Die>(d, cfg);
    for (int c = 0; c < cfg.aiv_per_die; ++c) {
      std::string name = "die" + std::to_string(d) + "_aiv" + std::to_string(c);
      die->cores.push_back(std::make_unique<AivCore>(name.c_str(), d, c, cfg.core, *sched_, *this,
                                                     die->sync_all, cfg.thread_stack_bytes));
    }
    dies_.push_back(std::move(die));
  }
  FabricConfig f = cfg.fabric;
  f.dies = cfg.dies;
  fabric_ = Fabric::make(f);
}

Tick Cluster::hold(BandwidthServer& s, Tick start, Tick occupancy, uint64_t bytes) {
  Tick end = s.hold(start, occupancy, bytes);
  if (on_hold) on_hold(s, start, end);
  return end;
}

// A route's latency parameter is the measured end-to-end time of one aligned 512-B access; the
// fixed part is what remains after the model's own time for those 512 B, so that a lone 512-B
// access takes exactly the measured time.
Tick Cluster::fixed_latency(const Route& r, bool write) const {
  const CoreTiming& t = cfg_.core;
  double rate = write ? t.mte3_bytes_per_cycle : t.mte2_bytes_per_cycle;
  Tick own =
      t.clock.cycles(t.dma_setup_cycles + static_cast<uint64_t>(std::ceil(512.0 / rate - 1e-9)));
  own = std::max(own, transfer_ps(512, cfg_.hbm.gbps));
  for (const Hop& h : r.hops) own = std::max(own, transfer_ps(512, h.port->gbps() * h.efficiency));
  return r.latency > own ? r.latency - own : 0;
}

// A transfer holds the core's DMA engine, the HBM of the die that owns the GM address (shared by
// all cores that reach it, reads and writes alike) and, when that die is another one, every port
// of the fabric route (in the direction the data flows). Each resource is booked on its own, FIFO
// from when the transfer is ready, for bytes / its bandwidth; the transfer is done when the last
// of them is done, plus the latency: the HBM's for a local access, the route's fixed latency for
// a remote one. Booking each resource on its own keeps a transfer stuck behind a congested port
// from also holding the HBM idle for everyone else until then.
GmPort::Timing Cluster::book(int die, Tick ready, Tick engine_free, Tick engine_hold, GmAddr gm,
                             uint64_t bytes, bool write) {
  int owner = GlobalMemory::die_of(gm);
  BandwidthServer& hbm = dies_[owner]->hbm;
  Tick start = std::max(ready, engine_free);  // the engine's own start
  Tick done = start + engine_hold;
  done = std::max(done, hold(hbm, std::max(ready, hbm.free_at()), hbm.occupancy(bytes), bytes));
  if (owner == die) {
    class_bytes_["local"] += bytes;
    return {start, done + ns_to_ps(write ? cfg_.hbm.write_latency_ns : cfg_.hbm.read_latency_ns)};
  }
  Route route = write ? fabric_->route(die, owner, true) : fabric_->route(owner, die, false);
  for (const Hop& h : route.hops) {
    Tick occupancy = transfer_ps(bytes, h.port->gbps() * h.efficiency);
    done = std::max(done, hold(*h.port, std::max(ready, h.port->free_at()), occupancy, bytes));
  }
  class_bytes_[route.link_class] += bytes;
  return {start, done + fixed_latency(route, write)};
}

}  // namespace ascend::model
