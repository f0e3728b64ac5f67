// The units inside a core, each an sc_module under the core: an AIV's ub, vector, mte2 and mte3
// (cluster.die3.aiv17.vector), an AIC's l1, l0a, l0b, l0c, bt, mte2, mte1, cube and fixpipe. They
// are passive: the core's pipes call them when an instruction starts, and they return its timing;
// each owns its counters.
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

// A core's local buffer: the UB of an AIV; L1, L0A, L0B, L0C or the BiasTable of an AIC. The
// buffers of a core sit one after the other in its local address space (`base` is where this one
// starts), so that an instruction names local bytes by one offset whatever buffer holds them. Its
// pages take memory only once touched.
class LocalBuffer : public sc_core::sc_module {
 public:
  // `backing`: the core's local address space (ZeroPages, owned by the cluster).
  LocalBuffer(const sc_core::sc_module_name& name, uint32_t base, uint32_t capacity,
              uint8_t* backing)
      : sc_core::sc_module(name), base_(base), capacity_(capacity), bytes_(backing + base) {}
  uint8_t* data() { return bytes_; }
  // What the kernel's TPipe has allocated: [base, base + bytes) may be used.
  void reserve(uint32_t bytes) { allocated_ = std::max(allocated_, bytes); }
  uint32_t allocated() const { return allocated_; }
  uint32_t base() const { return base_; }
  uint32_t capacity() const { return capacity_; }
  bool holds(uint64_t offset, uint64_t bytes) const {
    return offset >= base_ && offset + bytes <= uint64_t{base_} + capacity_;
  }

 private:
  uint32_t base_, capacity_;
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

// A unit that runs one instruction at a time for the time the cost model gives it: the AIV's
// vector unit, the AIC's cube (Mmad) and its MTE1 (L1 -> L0A/L0B).
class TimedUnit : public sc_core::sc_module {
 public:
  explicit TimedUnit(const sc_core::sc_module_name& name)
      : sc_core::sc_module(name), server_(basename(), 0) {}
  // Starts an instruction of `duration` (moving `bytes`) at `ready`; returns its hold (end =
  // result written).
  BandwidthServer::Hold execute(Tick ready, Tick duration, uint64_t bytes = 0) {
    return server_.reserve(ready, duration, bytes);
  }
  // bytes, busy_ps, transfers (instructions).
  CounterSet counters() const { return server_.counters(); }

 private:
  BandwidthServer server_;
};

// A DMA engine between GM and a core's buffers (an AIV's mte2: GM -> UB, mte3: UB -> GM; an
// AIC's mte2: GM -> L1/L0A/L0B, fixpipe: L0C -> GM), a TLM-2.0 initiator. The engine is held for
// the cost model's time (one transfer at a time, FIFO); the transfer also holds every resource on
// its path, booked by the targets behind `socket` (transfer.h). It reuses one payload: a
// transfer is complete when b_transport returns.
class DmaEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> socket;

  DmaEngine(const sc_core::sc_module_name& name, const CostModel& cost, DmaPath path);
  struct Timing {
    Tick start;   // when the engine and every resource on the path were free
    Tick landed;  // when the bytes have landed (are visible at the target)
    Tick done;    // when the engine learns it (a remote write's acknowledgement is back)
  };
  // `l2_hit_bytes`: of an AIC MTE2 read, the bytes resident in the die's L2 (they do not go
  // to the HBM).
  Timing transfer(Tick ready, GmAddr gm, uint64_t bytes, uint64_t l2_hit_bytes = 0);
  Tick free_at() const { return free_at_; }
  // bytes, busy_ps and transfers (the engine's holds).
  CounterSet counters() const { return engine_.counters(); }

 private:
  const CostModel& cost_;
  const DmaPath path_;
  const bool write_;
  BandwidthServer engine_;
  BandwidthServer window_;  // the outstanding-request bound (CostModel::outstanding_bound)
  Tick free_at_ = 0;
  tlm::tlm_generic_payload payload_;
  EngineDone* done_;  // owned by payload_
};

}  // namespace ascend::model
