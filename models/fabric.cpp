#include "models/fabric.h"

#include <deque>

#include "models/errors.h"

namespace ascend::model {

namespace {

// Ports are kept in deques so that pointers to them stay valid.
class Ports {
 public:
  BandwidthServer* add(std::string name, double gbps, int owner_die) {
    all_.emplace_back(std::move(name), gbps, owner_die);
    return &all_.back();
  }
  std::vector<const BandwidthServer*> list() const {
    std::vector<const BandwidthServer*> v;
    for (const auto& p : all_) v.push_back(&p);
    return v;
  }

 private:
  std::deque<BandwidthServer> all_;
};

// CloudMatrix384-style supernode: each die has one UB port per direction (egress, ingress); the
// two dies of a chip also share a die-to-die link; a node's L1 switches are non-blocking inside
// the node and reach the L2 level through the node's uplink/downlink.
class A3Fabric : public Fabric {
 public:
  explicit A3Fabric(const FabricConfig& c) : c_(c) {
    for (int d = 0; d < c.dies; ++d) {
      std::string n = "die" + std::to_string(d);
      egress_.push_back(ports_.add(n + ".ub_egress", c.ub_port_GBps, d));
      ingress_.push_back(ports_.add(n + ".ub_ingress", c.ub_port_GBps, d));
      d2d_out_.push_back(ports_.add(n + ".d2d_out", c.d2d_GBps, d));
    }
    for (int nd = 0; nd * c.dies_per_node < c.dies; ++nd) {
      std::string n = "node" + std::to_string(nd);
      uplink_.push_back(ports_.add(n + ".uplink", c.node_uplink_GBps, -1));
      downlink_.push_back(ports_.add(n + ".downlink", c.node_uplink_GBps, -1));
    }
  }

  const char* link_class(int a, int b) const override {
    if (a / c_.dies_per_chip == b / c_.dies_per_chip) return "d2d";
    if (a / c_.dies_per_node == b / c_.dies_per_node) return "intra_node";
    return "inter_node";
  }

  Route route(int from, int to, bool write) override {
    Route r;
    r.link_class = link_class(from, to);
    std::string cls = r.link_class;
    double eff = write ? c_.ub_write_efficiency : c_.ub_read_efficiency;
    if (cls == "d2d") {
      r.hops = {{d2d_out_[from], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_d2d_ns : c_.read_512B_d2d_ns);
    } else if (cls == "intra_node") {
      r.hops = {{egress_[from], eff}, {ingress_[to], eff}};
      r.latency = ns_to_ps(write ? c_.write_512B_intra_node_ns : c_.read_512B_intra_node_ns);
    } else {
      r.hops = {{egress_[from], eff},
                {uplink_[from / c_.dies_per_node], 1.0},
                {downlink_[to / c_.dies_per_node], 1.0},
                {ingress_[to], eff}};
      r.latency = ns_to_ps(write ? c_.write_512B_inter_node_ns : c_.read_512B_inter_node_ns);
    }
    return r;
  }

  std::vector<const BandwidthServer*> ports() const override { return ports_.list(); }

 private:
  FabricConfig c_;
  Ports ports_;
  std::vector<BandwidthServer*> egress_, ingress_, d2d_out_, uplink_, downlink_;
};

// Atlas A2 server: dies_per_server dies in an HCCS full mesh (one link per ordered pair), and
// one RoCE NIC per die (per direction) between servers.
class A2Fabric : public Fabric {
 public:
  explicit A2Fabric(const FabricConfig& c) : c_(c) {
    int per = c.dies_per_server;
    for (int d = 0; d < c.dies; ++d) {
      std::string n = "die" + std::to_string(d);
      nic_out_.push_back(ports_.add(n + ".roce_out", c.roce_GBps, d));
      nic_in_.push_back(ports_.add(n + ".roce_in", c.roce_GBps, d));
      for (int k = 0; k < per; ++k) {
        int peer = d / per * per + k;
        hccs_.push_back(
            peer == d || peer >= c.dies
                ? nullptr
                : ports_.add(n + ".hccs_to_die" + std::to_string(peer), c.hccs_link_GBps, d));
      }
    }
  }

  const char* link_class(int a, int b) const override {
    return a / c_.dies_per_server == b / c_.dies_per_server ? "hccs" : "roce";
  }

  Route route(int from, int to, bool write) override {
    Route r;
    r.link_class = link_class(from, to);
    if (std::string(r.link_class) == "hccs") {
      r.hops = {
          {hccs_[static_cast<size_t>(from) * c_.dies_per_server + to % c_.dies_per_server], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_hccs_ns : c_.read_512B_hccs_ns);
    } else {
      r.hops = {{nic_out_[from], 1.0}, {nic_in_[to], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_roce_ns : c_.read_512B_roce_ns);
    }
    return r;
  }

  std::vector<const BandwidthServer*> ports() const override { return ports_.list(); }

 private:
  FabricConfig c_;
  Ports ports_;
  std::vector<BandwidthServer*> nic_out_, nic_in_, hccs_;
};

}  // namespace

std::unique_ptr<Fabric> Fabric::make(const FabricConfig& cfg) {
  if (cfg.topology == "a3") return std::make_unique<A3Fabric>(cfg);
  if (cfg.topology == "a2") return std::make_unique<A2Fabric>(cfg);
  throw SimError(kExitBadInput, "unknown fabric topology '" + cfg.topology + "' (a3 or a2)");
}

}  // namespace ascend::model
