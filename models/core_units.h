// The units inside an AIV core, each an sc_module under the core (cluster.die3.aiv17.ub, .vector,
// .mte2, .mte3). They are passive: the core's pipes call them when an instruction starts, and
// they return its timing; each owns its counters.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/bandwidth_server.h"
#include "models/cost_model.h"
#include "models/transfer.h"

namespace ascend::model {

// The Unified Buffer: the core's local memory. Bytes are stored only once allocated.
class Ub : public sc_core::sc_module {
 public:
  Ub(const sc_core::sc_module_name& name, uint32_t capacity)
      : sc_core::sc_module(name), capacity_(capacity) {}
  uint8_t* data() { return bytes_.data(); }
  // Grows the backing store to cover [0, bytes).
  void reserve(uint32_t bytes) {
    if (bytes > bytes_.size()) bytes_.resize(bytes, 0);
  }
  uint32_t allocated() const { return static_cast<uint32_t>(bytes_.size()); }
  uint32_t capacity() const { return capacity_; }

 private:
  uint32_t capacity_;
  std::vector<uint8_t> bytes_;
};

// The vector unit: one instruction at a time, for the cost model's time.
class VectorUnit : public sc_core::sc_module {
 public:
  VectorUnit(const sc_core::sc_module_name& name, const CostModel& cost)
      : sc_core::sc_module(name), cost_(cost), server_(basename(), 0) {}
  // Starts an instruction of `repeats` at `ready`; returns its hold (end = result written).
  BandwidthServer::Hold execute(Tick ready, uint64_t repeats) {
    return server_.reserve(ready, cost_.vector(repeats), 0);
  }
  // bytes (0), busy_ps, transfers (instructions).
  CounterSet counters() const { return server_.counters(); }

 private:
  const CostModel& cost_;
  BandwidthServer server_;
};

// An MTE engine (mte2: GM -> UB, mte3: UB -> GM), a TLM-2.0 initiator. The engine is held for
// the cost model's time (one transfer at a time, FIFO); the transfer also holds every resource on
// its path, booked by the targets behind `socket` (transfer.h). It reuses one payload: a
// transfer is complete when b_transport returns.
class DmaEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> socket;

  DmaEngine(const sc_core::sc_module_name& name, const CostModel& cost, bool write);
  struct Timing {
    Tick start;  // when the engine and every resource on the path were free
    Tick done;   // when the bytes have landed
  };
  Timing transfer(Tick ready, GmAddr gm, uint64_t bytes);
  Tick free_at() const { return free_at_; }
  // bytes, busy_ps and transfers (the engine's holds).
  CounterSet counters() const { return engine_.counters(); }

 private:
  const CostModel& cost_;
  const bool write_;
  BandwidthServer engine_;
  Tick free_at_ = 0;
  tlm::tlm_generic_payload payload_;
  EngineDone* done_;  // owned by payload_
};

}  // namespace ascend::model
