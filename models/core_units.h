// The units inside an AIV core, each an sc_module under the core (cluster.die3.aiv17.ub, .vector,
// .mte2, .mte3). They are passive: the core's pipes call them when an instruction starts, and
// they return its timing; each owns its counters.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/bandwidth_server.h"
#include "models/cost_model.h"
#include "models/transfer.h"

namespace ascend::model {

// The Unified Buffer: the core's local memory. Its pages take memory only once touched.
class Ub : public sc_core::sc_module {
 public:
  // `backing`: `capacity` zero-filled bytes (ZeroPages), owned by the cluster.
  Ub(const sc_core::sc_module_name& name, uint32_t capacity, uint8_t* backing)
      : sc_core::sc_module(name), capacity_(capacity), bytes_(backing) {}
  uint8_t* data() { return bytes_; }
  // What the kernel's TPipe has allocated: [0, bytes) may be used.
  void reserve(uint32_t bytes) { allocated_ = std::max(allocated_, bytes); }
  uint32_t allocated() const { return allocated_; }
  uint32_t capacity() const { return capacity_; }

 private:
  uint32_t capacity_;
  uint8_t* bytes_;
  uint32_t allocated_ = 0;
};

// Zero-filled memory whose pages the OS provides only when first touched: the UBs of every core
// of a run in one mapping, so a timing-only run, which never writes its payload buffers, holds
// no memory for them.
class ZeroPages {
 public:
  explicit ZeroPages(size_t bytes);
  ~ZeroPages();
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  uint8_t* data() { return base_; }

 private:
  uint8_t* base_;
  size_t bytes_;
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
    Tick start;   // when the engine and every resource on the path were free
    Tick landed;  // when the bytes have landed (are visible at the target)
    Tick done;    // when the engine learns it (a remote write's acknowledgement is back)
  };
  Timing transfer(Tick ready, GmAddr gm, uint64_t bytes);
  Tick free_at() const { return free_at_; }
  // bytes, busy_ps and transfers (the engine's holds).
  CounterSet counters() const { return engine_.counters(); }

 private:
  const CostModel& cost_;
  const bool write_;
  BandwidthServer engine_;
  BandwidthServer window_;  // the outstanding-request bound (CostModel::outstanding_bound)
  Tick free_at_ = 0;
  tlm::tlm_generic_payload payload_;
  EngineDone* done_;  // owned by payload_
};

}  // namespace ascend::model
