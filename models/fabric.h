// The links between dies. A remote DMA (an AIV core's MTE3 writing, or MTE2 reading, another
// die's HBM over UBmem) crosses a route of ports, each a BandwidthServer, and pays the route's
// latency class. Topologies differ only in how they route, so each is a small Fabric subclass.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/bandwidth_server.h"
#include "models/time.h"

namespace ascend::model {

// One port a route crosses, and the share of its bandwidth this kind of traffic achieves
// (measured effective / nominal; 1 for an ideal port).
struct Hop {
  BandwidthServer* port;
  double efficiency;
};

struct Route {
  std::vector<Hop> hops;        // in the direction the data flows
  Tick latency = 0;             // fixed latency of the path (see FabricConfig)
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
};

class Fabric {
 public:
  virtual ~Fabric() = default;
  // The route of data flowing from die `from` to die `to` (from != to). `write` tells which
  // latency class and efficiency apply (a read's data flows from the remote die back).
  virtual Route route(int from, int to, bool write) = 0;
  // Every port, for statistics and traces.
  virtual std::vector<const BandwidthServer*> ports() const = 0;
  // Names of the latency classes and how a die pair maps to one (for reports and tests).
  virtual const char* link_class(int a, int b) const = 0;

  static std::unique_ptr<Fabric> make(const FabricConfig& cfg);
};

}  // namespace ascend::model
