#include "models/memory.h"

#include <algorithm>
#include <string>

#include "models/global_memory.h"

namespace ascend::model {

Hbm::Hbm(const sc_core::sc_module_name& name, int die, double gbps)
    : sc_core::sc_module(name),
      socket("socket"),
      server_("die" + std::to_string(die) + ".hbm", gbps, die) {
  socket.register_b_transport(this, &Hbm::b_transport);
  server_.module = this->name();
}

void Hbm::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  uint64_t bytes = p.get_data_length();
  delay = offset(server_.reserve(at(delay), server_.occupancy(bytes), bytes).end);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

HcclWindow::HcclWindow(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), socket("socket"), memory("memory") {
  socket.register_b_transport(this, &HcclWindow::b_transport);
}

void HcclWindow::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  memory->b_transport(p, delay);
  GmAddr a = p.get_address();
  if (p.is_response_error() ||
      !(data.holds(a) || status.holds(a) || tp_data.holds(a) || tp_status.holds(a)))
    return;
  (p.is_write() ? written_ : read_) += p.get_data_length();
}

Noc::Noc(const sc_core::sc_module_name& name, int die, const CostModel& cost)
    : sc_core::sc_module(name),
      cores("cores"),
      from_fabric("from_fabric"),
      to_hbm("to_hbm"),
      to_fabric("to_fabric"),
      die_(die),
      cost_(cost) {
  cores.register_b_transport(this, &Noc::from_core);
  from_fabric.register_b_transport(this, &Noc::into_hbm);
}

// A transfer is done when the engine and the HBM are, plus the local path latency.
void Noc::from_core(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  if (GlobalMemory::die_of(p.get_address()) != die_) {
    to_fabric->b_transport(p, delay);
    return;
  }
  to_hbm->b_transport(p, delay);
  if (p.is_response_error()) return;
  bool write = p.is_write();
  if (write && l2_) l2_->write({p.get_address(), 1, p.get_data_length(), p.get_data_length()});
  Tick latency = cost_.path_latency(nullptr, write);
  report_path_latency(p, latency);
  delay = offset(std::max(engine_done(p), at(delay)) + latency);
  local_bytes_ += p.get_data_length();
  ++local_transfers_;
}

void Noc::into_hbm(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  to_hbm->b_transport(p, delay);
  if (l2_ && p.is_write() && !p.is_response_error())
    l2_->write({p.get_address(), 1, p.get_data_length(), p.get_data_length()});
}

}  // namespace ascend::model
