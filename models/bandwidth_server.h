// A shared resource with a bandwidth (an HBM, a DMA engine, later a link port), timed by
// reservation: each transfer holds the resource for bytes / bandwidth, and transfers are served
// FIFO in the order they are booked. Booking costs O(1) and needs no events, which is what lets a
// run scale to hundreds of dies. Fairness is at transfer granularity: keep transfers small
// (kernels tile them) for fine interleaving.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "models/time.h"

namespace ascend::model {

class BandwidthServer {
 public:
  // owner_die: the die a port or HBM belongs to, -1 for shared switch-level ports.
  BandwidthServer(std::string name, double gbps, int owner_die = -1)
      : name_(std::move(name)), gbps_(gbps), owner_die_(owner_die) {}

  const std::string& name() const { return name_; }
  int owner_die() const { return owner_die_; }
  // The rate the server was created at: for a fabric port the nominal rate; a route's hop crosses
  // it at gbps() x Hop::efficiency (models/fabric.h), booked with that occupancy through hold().
  double gbps() const { return gbps_; }
  Tick free_at() const { return free_at_; }
  Tick occupancy(uint64_t bytes) const { return transfer_ps(bytes, gbps_); }  // at gbps()

  // Holds the resource for [start, start + occupancy); returns the end.
  Tick hold(Tick start, Tick occupancy, uint64_t bytes) {
    free_at_ = start + occupancy;
    busy_ps_ += occupancy;
    bytes_ += bytes;
    ++transfers_;
    return free_at_;
  }

  uint64_t bytes() const { return bytes_; }
  // The sum of the occupancies booked through hold(): time held at each transfer's own rate
  // (for a UB port, nominal x that transfer's write or read efficiency), so busy / elapsed time is
  // utilisation against the effective rate, not the nominal one.
  Tick busy_ps() const { return busy_ps_; }
  uint64_t transfers() const { return transfers_; }

 private:
  std::string name_;
  double gbps_;
  int owner_die_;
  Tick free_at_ = 0;
  Tick busy_ps_ = 0;
  uint64_t bytes_ = 0;
  uint64_t transfers_ = 0;
};

}  // namespace ascend::model
