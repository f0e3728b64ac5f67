// The memory side speaks TLM-2.0, loosely timed. A DMA engine (an initiator) sends one generic
// payload per transfer through b_transport: address = GM address, data length = bytes, command =
// read or write. The delay annotation carries the reservation: on the way in, when the transfer
// is ready (as an offset from now); on the way back, when its bytes have landed. Each target on
// the path (the die's noc, the fabric, an HBM) books its resources from `ready` on its own.
//
// The payload carries no data (its data pointer is null): bytes move through GlobalMemory at the
// instruction's start and completion, as the kernel API already does, so a timing-only run and a
// full one take identical paths. A DRAM model bound in place of an HBM times the access from the
// address, length and command alone.
#pragma once

#include <tlm>

#include "models/time.h"

namespace ascend::model {

// An ignorable extension: when the initiator's engine is done with the transfer (a transfer is
// never done before its engine has moved its last byte). The die's noc and the fabric read it to
// take the latest of every hold before they add the path's fixed latency. A target that does not
// know it just returns its own timing.
struct EngineDone : tlm::tlm_extension<EngineDone> {
  Tick at = 0;
  // Out: the path's fixed latency (CostModel::path_latency) the target added, so that the engine
  // can bound how fast its limited outstanding requests stream over that path.
  Tick path_latency = 0;
  // Out: how long after the bytes land the initiator learns it (a remote write's acknowledgement;
  // 0 when landing and completion coincide).
  Tick response = 0;
  // Out: the transfer crossed the fabric (its engine keeps a separate window for such writes).
  bool remote = false;
  tlm::tlm_extension_base* clone() const override { return new EngineDone(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    at = static_cast<const EngineDone&>(e).at;
    path_latency = static_cast<const EngineDone&>(e).path_latency;
    response = static_cast<const EngineDone&>(e).response;
    remote = static_cast<const EngineDone&>(e).remote;
  }
};

inline Tick engine_done(tlm::tlm_generic_payload& p) {
  EngineDone* e = nullptr;
  p.get_extension(e);
  return e ? e->at : 0;
}

// A target reports the fixed latency it added, the response's, and whether the path crossed the
// fabric (ignored when the initiator has no EngineDone).
inline void report_path_latency(tlm::tlm_generic_payload& p, Tick latency, Tick response = 0,
                                bool remote = false) {
  EngineDone* e = nullptr;
  p.get_extension(e);
  if (e) {
    e->path_latency = latency;
    e->response = response;
    e->remote = remote;
  }
}

// Ticks <-> the delay annotation (offsets from now, 1 ps resolution).
inline sc_core::sc_time offset(Tick at) {
  return sc_core::sc_time::from_value(at - now());
}
inline Tick at(const sc_core::sc_time& delay) {
  return now() + delay.value();
}

}  // namespace ascend::model
