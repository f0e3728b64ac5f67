// A die's memory side, as TLM-2.0 modules (transfer.h): its HBM (a target), its HCCL windows, and
// its noc, which takes its cores' DMA transfers to the HBM or out to the fabric, and the fabric's
// transfers into the HBM.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>

#include "models/bandwidth_server.h"
#include "models/cost_model.h"
#include "models/l2_cache.h"
#include "models/transfer.h"

namespace ascend::model {

// Any TLM-2.0 target socket of the base protocol: what a die's noc reaches its memory through.
using MemoryTarget =
    tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

// A die's HBM: one bandwidth server shared by reads and writes of every core that reaches it.
// b_transport books it from the ready time and returns when its hold ends (the access latency is
// the path's: CostModel::path_latency).
class Hbm : public sc_core::sc_module, public Counted {
 public:
  // Optional: another target may be bound in its place (Die::bind_memory).
  tlm_utils::simple_target_socket_optional<Hbm> socket;
  Hbm(const sc_core::sc_module_name& name, int die, double gbps);
  BandwidthServer& server() { return server_; }
  const BandwidthServer& server() const { return server_; }
  CounterSet counters() const override { return server_.counters(); }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  BandwidthServer server_;
};

// A die's HCCL windows (windowsIn for data, windowsExp for status): regions of its HBM that the
// die's own and other dies' cores write and read directly. A TLM-2.0 target in front of the die's
// memory: every transfer into the memory passes through it unchanged (it adds no time), and the
// ones inside a window are counted, so a run shows what its communication put in each window.
class HcclWindow : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HcclWindow> socket;     // from the noc
  tlm_utils::simple_initiator_socket<HcclWindow> memory;  // to the HBM (or its replacement)
  explicit HcclWindow(const sc_core::sc_module_name& name);
  struct Region {
    GmAddr base = 0;
    uint64_t bytes = 0;
    bool holds(GmAddr a) const { return a >= base && a < base + bytes; }
  };
  Region data, status;
  Region tp_data, tp_status;  // the TP communicator's windows (tp = 2 runs only)
  // Bytes written into and read out of the windows (data and status together).
  uint64_t bytes_written() const { return written_; }
  uint64_t bytes_read() const { return read_; }

 private:
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  uint64_t written_ = 0, read_ = 0;
};

// A die's path between its cores' DMA engines, its HBM and the fabric. A transfer to the die's
// own GM holds the HBM and pays the local path latency; any other goes to the fabric, which
// comes back through the owning die's noc (`from_fabric`) to its HBM.
class Noc : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Noc> cores;  // every MTE engine of the die
  tlm_utils::simple_target_socket<Noc> from_fabric;
  tlm_utils::simple_initiator_socket<Noc> to_hbm;
  tlm_utils::simple_initiator_socket<Noc> to_fabric;

  Noc(const sc_core::sc_module_name& name, int die, const CostModel& cost);
  // Bytes and transfers to the die's own HBM from its own cores (link class "local").
  uint64_t local_bytes() const { return local_bytes_; }
  uint64_t local_transfers() const { return local_transfers_; }
  // Writes landing in the die's memory make their bytes resident in its L2 (AIC dies only).
  void set_l2(L2Cache* l2) { l2_ = l2; }

 private:
  void from_core(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void into_hbm(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  const int die_;
  const CostModel& cost_;
  uint64_t local_bytes_ = 0;
  uint64_t local_transfers_ = 0;
  L2Cache* l2_ = nullptr;
};

}  // namespace ascend::model
