// A shared resource with a bandwidth (an HBM, a DMA engine, a link port), timed by reservation:
// each transfer holds the resource for an occupancy (bytes / bandwidth), and an arbitration
// policy decides when a transfer ready at t may start. The default, FIFO in booking order, costs
// O(1) and needs no events, which is what lets a run scale to hundreds of dies. Fairness is at
// transfer granularity: keep transfers small (kernels tile them) for fine interleaving.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/counters.h"
#include "models/time.h"

namespace ascend::model {

// Decides when a transfer may start on one resource and books it. A new arbitration (priorities,
// chunked round robin) is a new subclass given to the BandwidthServer.
class ArbitrationPolicy {
 public:
  virtual ~ArbitrationPolicy() = default;
  // The start of a transfer ready at `ready` that holds the resource for `occupancy`; books it.
  virtual Tick grant(Tick ready, Tick occupancy) = 0;
  // What the policy counts of its own (listed after the server's counters).
  virtual CounterSet counters() const { return {}; }
};

// Served in booking order: a transfer starts when it is ready and the previous one has ended.
class FifoArbitration final : public ArbitrationPolicy {
 public:
  Tick grant(Tick ready, Tick occupancy) override {
    Tick start = std::max(ready, free_at_);
    free_at_ = start + occupancy;
    return start;
  }

 private:
  Tick free_at_ = 0;
};

class BandwidthServer {
  // First, together: what every booking touches (thousands of servers take turns, so each
  // booking's first touch is a cache miss; the fewer lines, the fewer misses).
  std::unique_ptr<ArbitrationPolicy> policy_;
  FifoArbitration fifo_;  // when policy_ is null
  double gbps_;
  Tick busy_ps_ = 0;
  uint64_t bytes_ = 0;
  uint64_t transfers_ = 0;

 public:
  // Called for every hold when set (trace lanes, VCD signals); it only records.
  std::function<void(Tick start, Tick end)> on_hold;

  // owner_die: the die a port or HBM belongs to, -1 for shared switch-level ports.
  // `policy`: null for FIFO in booking order (kept inline, without a policy object elsewhere in
  // memory to reach).
  BandwidthServer(std::string name, double gbps, int owner_die = -1,
                  std::unique_ptr<ArbitrationPolicy> policy = nullptr)
      : policy_(std::move(policy)), gbps_(gbps), name_(std::move(name)), owner_die_(owner_die) {}

  // The name in stats.json.
  const std::string& name() const { return name_; }
  // The path of the module that owns it (cluster.fabric.die3.ub_egress): trace lanes and VCD
  // scopes follow it. Empty for a server outside the module tree.
  std::string module;
  int owner_die() const { return owner_die_; }
  // The rate the server was created at: for a fabric port the nominal rate; a route's hop crosses
  // it at gbps() x Hop::efficiency (models/fabric.h), booked with that occupancy.
  double gbps() const { return gbps_; }
  Tick occupancy(uint64_t bytes) const { return transfer_ps(bytes, gbps_); }  // at gbps()

  struct Hold {
    Tick start, end;
  };
  // Books a transfer ready at `ready` for `occupancy`, as the policy grants it.
  Hold reserve(Tick ready, Tick occupancy, uint64_t bytes) {
    Tick start = policy_ ? policy_->grant(ready, occupancy) : fifo_.grant(ready, occupancy);
    busy_ps_ += occupancy;
    bytes_ += bytes;
    ++transfers_;
    if (on_hold) on_hold(start, start + occupancy);
    return {start, start + occupancy};
  }
  void set_policy(std::unique_ptr<ArbitrationPolicy> p) { policy_ = std::move(p); }
  const ArbitrationPolicy* policy() const { return policy_.get(); }

  uint64_t bytes() const { return bytes_; }
  // The sum of the occupancies booked: time held at each transfer's own rate (for a UB port,
  // nominal x that transfer's write or read efficiency), so busy / elapsed time is utilisation
  // against the effective rate, not the nominal one.
  Tick busy_ps() const { return busy_ps_; }
  uint64_t transfers() const { return transfers_; }
  static constexpr CounterSpec kBytes{"bytes", "B", "bytes it carried"};
  static constexpr CounterSpec kBusy{
      "busy_ps", "ps", "the sum of its holds, each transfer's bytes at its effective rate"};
  static constexpr CounterSpec kTransfers{"transfers", "transfers", "transfers it served"};
  CounterSet counters() const {
    CounterSet s;
    s.add(kBytes, bytes_);
    s.add(kBusy, busy_ps_);
    s.add(kTransfers, transfers_);
    if (policy_)
      for (const Counter& c : policy_->counters()) s.add(*c.spec, c.value);
    return s;
  }

 private:
  std::string name_;
  int owner_die_;
};

}  // namespace ascend::model
