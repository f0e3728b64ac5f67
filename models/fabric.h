// The links between dies. A remote DMA (an AIV core's MTE3 writing, or MTE2 reading, another
// die's HBM over UBmem) crosses a route of ports, each a BandwidthServer, and pays the route's
// latency class. Topologies differ only in how they route, so each is a small Fabric subclass.
// The fabric is the module cluster.fabric: a TLM-2.0 target for every die's noc and an initiator
// towards every die's HBM (through that die's noc); its ports are modules named after the
// hardware (cluster.fabric.die3.ub_egress, cluster.fabric.node0.uplink).
#pragma once

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <array>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

#include "models/bandwidth_server.h"
#include "models/counters.h"
#include "models/time.h"

namespace ascend::model {

class CostModel;

// One port a route crosses, and the share of its bandwidth this kind of traffic achieves
// (measured effective / nominal; 1 for an ideal port).
struct Hop {
  BandwidthServer* port;
  double efficiency;
};

// A route's ports, kept inline (a route is made for every remote transfer): at most four on any
// topology (egress, uplink, downlink, ingress).
class Hops {
 public:
  static constexpr size_t kMax = 4;
  Hops() = default;
  Hops(std::initializer_list<Hop> hops) {
    for (const Hop& h : hops) push_back(h);
  }
  void push_back(const Hop& h) {
    if (n_ == kMax) throw std::length_error("a route of more than 4 ports");
    hop_[n_++] = h;
  }
  const Hop* begin() const { return hop_.data(); }
  const Hop* end() const { return hop_.data() + n_; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Hop& operator[](size_t i) const { return hop_[i]; }

 private:
  std::array<Hop, kMax> hop_{};
  size_t n_ = 0;
};

struct Route {
  Hops hops;         // in the direction the data flows
  Tick latency = 0;  // fixed latency of the path (see FabricConfig)
  // A write's acknowledgement crosses the path back: its fixed latency over the data's
  // (FabricConfig::write_response_ratio; 0 for reads, whose data is the response).
  double response_ratio = 0;
  Tick completion = 0;          // a write's completion work (FabricConfig::write_completion_ns)
  const char* link_class = "";  // "d2d", "intra_node", "inter_node", "hccs", "roce"
};

struct FabricConfig {
  std::string topology = "a3";  // a3 | a2
  int dies = 1;
  // A3 (CloudMatrix384): 2 dies per chip over the die-to-die link, dies_per_node dies per node
  // behind the L1 UB switches, nodes joined by the non-blocking L2 level.
  int dies_per_chip = 2;
  int dies_per_node = 16;
  // A UB port is created at its nominal rate; a write crosses it at ub_port_GBps x
  // ub_write_efficiency, a read at ub_port_GBps x ub_read_efficiency (Hop::efficiency), so the
  // effective rates follow the nominal one. The other links move data at their full rate.
  double ub_port_GBps = 196;  // per die per direction, nominal
  double ub_write_efficiency = 137.0 / 196.0;
  double ub_read_efficiency = 167.0 / 196.0;
  double d2d_GBps = 270;           // per direction
  double node_uplink_GBps = 3136;  // per node per direction into the L2 level
  // End-to-end latency of one 512-B access from the start of its DMA to the data landing; the
  // model derives the fixed path latency by subtracting its own time for 512 B.
  double write_512B_d2d_ns = 1300, read_512B_d2d_ns = 1200;
  double write_512B_intra_node_ns = 1300, read_512B_intra_node_ns = 1200;
  double write_512B_inter_node_ns = 2100, read_512B_inter_node_ns = 1900;
  // A2: dies_per_server dies in an HCCS full mesh (one link per pair), servers over RoCE.
  int dies_per_server = 8;
  double hccs_link_GBps = 56;
  double roce_GBps = 25;
  double write_512B_hccs_ns = 1300, read_512B_hccs_ns = 1200;
  double write_512B_roce_ns = 5000, read_512B_roce_ns = 5000;
  // The latencies above are one-way (issue to data visible). A remote write is complete for its
  // initiator (PipeBarrier, SetFlag after it) only when the acknowledgement is back: this ratio of
  // the path's fixed latency later. 0: complete when it lands.
  double write_response_ratio = 1.0;
  // And its completion costs this much more after the acknowledgement's trip: the target commits
  // the bytes and answers, the initiator retires the request.
  double write_completion_ns = 1500;
  // A fault injected at run time (fault.degraded_port, fault.degraded_factor): the port of this
  // path under cluster.fabric ("die3.ub_egress"; "" for none) runs at `degraded_factor` of its
  // rate. Factor 1 leaves every rate, and so the timing, exactly as it is.
  std::string degraded_port;
  double degraded_factor = 1.0;
};

// One port of the fabric. Its stats and trace name is its path under cluster.fabric
// ("die3.ub_egress").
class FabricPort : public sc_core::sc_module, public Counted {
 public:
  FabricPort(const sc_core::sc_module_name& name, const std::string& group, double gbps,
             int owner_die)
      : sc_core::sc_module(name), server(group + "." + basename(), gbps, owner_die) {
    server.module = this->name();
  }
  CounterSet counters() const override { return server.counters(); }
  BandwidthServer server;
};

// The ports under one name: a die's (cluster.fabric.die3) or a node's (cluster.fabric.node0).
class PortGroup : public sc_core::sc_module {
 public:
  PortGroup(const sc_core::sc_module_name& name, int owner_die,
            const std::vector<std::pair<std::string, double>>& ports);
  BandwidthServer* port(size_t i) { return &ports_.at(i)->server; }
  size_t size() const { return ports_.size(); }

 private:
  std::vector<std::unique_ptr<FabricPort>> ports_;
};

// The counter of a link class (local, d2d, intra_node, ...): bytes moved on its paths.
const CounterSpec& link_class_spec(const std::string& path_class);

class Fabric : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Fabric> from_dies;   // die d's noc, bound d-th
  tlm_utils::multi_passthrough_initiator_socket<Fabric> to_dies;  // die d's noc, bound d-th

  // The module cluster.fabric of the configured topology (built inside the cluster).
  static std::unique_ptr<Fabric> make(const FabricConfig& cfg, const CostModel& cost);

  // The route of data flowing from die `from` to die `to` (from != to). `write` tells which
  // latency class and efficiency apply (a read's data flows from the remote die back).
  virtual Route route(int from, int to, bool write) = 0;
  // Names of the latency classes and how a die pair maps to one (for reports and tests).
  virtual const char* link_class(int a, int b) const = 0;
  // Every port, in creation order, for statistics and traces.
  std::vector<BandwidthServer*> ports() const;
  // Bytes carried per link class over the whole run, by class name.
  std::map<std::string, uint64_t> class_bytes() const;
  // The same as counters, one per link class used so far, named after the class (in B).
  CounterSet counters() const;

 protected:
  Fabric(const sc_core::sc_module_name& name, const CostModel& cost, const FabricConfig& cfg);
  // A group of ports, created in a topology's constructor (so that it sits under the fabric).
  PortGroup& add_group(const std::string& name, int owner_die,
                       const std::vector<std::pair<std::string, double>>& ports);

 private:
  void b_transport(int from_die, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  const CostModel& cost_;
  std::string degraded_port_;  // FabricConfig::degraded_port, until a group creates it
  double degraded_factor_;
  bool degraded_found_ = false;
  std::vector<std::unique_ptr<PortGroup>> groups_;
  // Per link class used so far: its name (a route's static text, so found by its address) and
  // bytes, in the order first used.
  std::vector<std::pair<const char*, uint64_t>> class_bytes_;
};

}  // namespace ascend::model
