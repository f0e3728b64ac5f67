#include "models/fabric.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "models/cost_model.h"
#include "models/errors.h"
#include "models/global_memory.h"
#include "models/transfer.h"

namespace ascend::model {

PortGroup::PortGroup(const sc_core::sc_module_name& name, int owner_die,
                     const std::vector<std::pair<std::string, double>>& ports)
    : sc_core::sc_module(name) {
  for (const auto& [port, gbps] : ports)
    ports_.push_back(std::make_unique<FabricPort>(port.c_str(), basename(), gbps, owner_die));
}

Fabric::Fabric(const sc_core::sc_module_name& name, const CostModel& cost, const FabricConfig& cfg)
    : sc_core::sc_module(name),
      from_dies("from_dies"),
      to_dies("to_dies"),
      cost_(cost),
      degraded_port_(cfg.degraded_port),
      degraded_factor_(cfg.degraded_factor) {
  from_dies.register_b_transport(this, &Fabric::b_transport);
}

PortGroup& Fabric::add_group(const std::string& name, int owner_die,
                             const std::vector<std::pair<std::string, double>>& ports) {
  std::vector<std::pair<std::string, double>> rates = ports;
  for (auto& [port, gbps] : rates)
    if (name + "." + port == degraded_port_) {
      gbps *= degraded_factor_;
      degraded_found_ = true;
    }
  groups_.push_back(std::make_unique<PortGroup>(name.c_str(), owner_die, rates));
  return *groups_.back();
}

std::map<std::string, uint64_t> Fabric::class_bytes() const {
  std::map<std::string, uint64_t> m;
  for (const auto& [cls, bytes] : class_bytes_) m[cls] += bytes;  // one entry per name
  return m;
}

const CounterSpec& link_class_spec(const std::string& path_class) {
  // Interned and never destroyed: a class's spec outlives every model and record that points at
  // it (a program built against the SDK writes its stats at exit).
  static auto* specs = new std::map<std::string, std::pair<std::string, CounterSpec>>;
  auto [it, added] = specs->try_emplace(path_class);
  if (added) {
    it->second.first = "bytes moved on " + path_class + " paths";
    it->second.second = {it->first.c_str(), "B", it->second.first.c_str()};
  }
  return it->second.second;
}

CounterSet Fabric::counters() const {
  // In name order, the names being the routes' static texts (a counter keeps its name's pointer).
  std::vector<std::pair<const char*, uint64_t>> by_name = class_bytes_;
  std::sort(by_name.begin(), by_name.end(),
            [](const auto& a, const auto& b) { return std::strcmp(a.first, b.first) < 0; });
  CounterSet s;
  for (size_t i = 0; i < by_name.size(); ++i) {
    uint64_t bytes = by_name[i].second;
    while (i + 1 < by_name.size() && std::strcmp(by_name[i + 1].first, by_name[i].first) == 0)
      bytes += by_name[++i].second;  // one class named by two copies of its text
    s.add(link_class_spec(by_name[i].first), bytes);
  }
  return s;
}

std::vector<BandwidthServer*> Fabric::ports() const {
  std::vector<BandwidthServer*> v;
  for (const auto& g : groups_)
    for (size_t i = 0; i < g->size(); ++i) v.push_back(g->port(i));
  return v;
}

// A remote transfer holds the owning die's HBM (reached through that die's noc) and every port of
// its route (in the direction the data flows), each booked on its own from when the transfer is
// ready, for bytes / its bandwidth; it is done when the last of them (and the initiator's engine)
// is, plus the route's fixed latency. A write's acknowledgement takes CostModel::response_latency
// more to come back (reported to the engine, which completes the instruction then). Booking each on
// its own keeps a transfer stuck behind a congested port from also holding the HBM idle for
// everyone else until then.
void Fabric::b_transport(int from_die, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  const Tick ready = at(delay);
  const int owner = GlobalMemory::die_of(p.get_address());
  const bool write = p.is_write();
  const uint64_t bytes = p.get_data_length();
  sc_core::sc_time hbm = delay;
  to_dies[owner]->b_transport(p, hbm);
  if (p.is_response_error()) return;
  Tick done = std::max(engine_done(p), at(hbm));
  Route route = write ? this->route(from_die, owner, true) : this->route(owner, from_die, false);
  for (const Hop& h : route.hops)
    done = std::max(
        done, h.port->reserve(ready, transfer_ps(bytes, h.port->gbps() * h.efficiency), bytes).end);
  auto cls = std::find_if(class_bytes_.begin(), class_bytes_.end(),
                          [&](const auto& c) { return c.first == route.link_class; });
  if (cls == class_bytes_.end()) cls = class_bytes_.insert(cls, {route.link_class, 0});
  cls->second += bytes;
  Tick latency = cost_.path_latency(&route, write);
  report_path_latency(p, latency, cost_.response_latency(&route, write), true);
  delay = offset(done + latency);
}

namespace {

// CloudMatrix384-style supernode: each die has one UB port per direction (egress, ingress); the
// two dies of a chip also share a die-to-die link; a node's L1 switches are non-blocking inside
// the node and reach the L2 level through the node's uplink/downlink.
class A3Fabric : public Fabric {
 public:
  A3Fabric(const sc_core::sc_module_name& name, const FabricConfig& c, const CostModel& cost)
      : Fabric(name, cost, c), c_(c) {
    for (int d = 0; d < c.dies; ++d) {
      PortGroup& g = add_group(
          "die" + std::to_string(d), d,
          {{"ub_egress", c.ub_port_GBps}, {"ub_ingress", c.ub_port_GBps}, {"d2d_out", c.d2d_GBps}});
      egress_.push_back(g.port(0));
      ingress_.push_back(g.port(1));
      d2d_out_.push_back(g.port(2));
    }
    for (int nd = 0; nd * c.dies_per_node < c.dies; ++nd) {
      PortGroup& g = add_group("node" + std::to_string(nd), -1,
                               {{"uplink", c.node_uplink_GBps}, {"downlink", c.node_uplink_GBps}});
      uplink_.push_back(g.port(0));
      downlink_.push_back(g.port(1));
    }
  }

  const char* link_class(int a, int b) const override {
    if (a / c_.dies_per_chip == b / c_.dies_per_chip) return "d2d";
    if (a / c_.dies_per_node == b / c_.dies_per_node) return "intra_node";
    return "inter_node";
  }

  Route route(int from, int to, bool write) override {
    Route r;
    const bool same_chip = from / c_.dies_per_chip == to / c_.dies_per_chip;
    const bool same_node = from / c_.dies_per_node == to / c_.dies_per_node;
    r.link_class = link_class(from, to);
    double eff = write ? c_.ub_write_efficiency : c_.ub_read_efficiency;
    if (same_chip) {
      r.hops = {{d2d_out_[from], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_d2d_ns : c_.read_512B_d2d_ns);
    } else if (same_node) {
      r.hops = {{egress_[from], eff}, {ingress_[to], eff}};
      r.latency = ns_to_ps(write ? c_.write_512B_intra_node_ns : c_.read_512B_intra_node_ns);
    } else {
      r.hops = {{egress_[from], eff},
                {uplink_[from / c_.dies_per_node], 1.0},
                {downlink_[to / c_.dies_per_node], 1.0},
                {ingress_[to], eff}};
      r.latency = ns_to_ps(write ? c_.write_512B_inter_node_ns : c_.read_512B_inter_node_ns);
    }
    r.response_ratio = write ? c_.write_response_ratio : 0;
    r.completion = write ? ns_to_ps(c_.write_completion_ns) : 0;
    return r;
  }

 private:
  FabricConfig c_;
  std::vector<BandwidthServer*> egress_, ingress_, d2d_out_, uplink_, downlink_;
};

// Atlas A2 server: dies_per_server dies in an HCCS full mesh (one link per ordered pair), and
// one RoCE NIC per die (per direction) between servers.
class A2Fabric : public Fabric {
 public:
  A2Fabric(const sc_core::sc_module_name& name, const FabricConfig& c, const CostModel& cost)
      : Fabric(name, cost, c), c_(c) {
    int per = c.dies_per_server;
    for (int d = 0; d < c.dies; ++d) {
      std::vector<std::pair<std::string, double>> ports = {{"roce_out", c.roce_GBps},
                                                           {"roce_in", c.roce_GBps}};
      for (int k = 0; k < per; ++k) {
        int peer = d / per * per + k;
        if (peer != d && peer < c.dies)
          ports.push_back({"hccs_to_die" + std::to_string(peer), c.hccs_link_GBps});
      }
      PortGroup& g = add_group("die" + std::to_string(d), d, ports);
      nic_out_.push_back(g.port(0));
      nic_in_.push_back(g.port(1));
      for (int k = 0, next = 2; k < per; ++k) {
        int peer = d / per * per + k;
        hccs_.push_back(peer == d || peer >= c.dies ? nullptr : g.port(next++));
      }
    }
  }

  const char* link_class(int a, int b) const override {
    return a / c_.dies_per_server == b / c_.dies_per_server ? "hccs" : "roce";
  }

  Route route(int from, int to, bool write) override {
    Route r;
    r.link_class = link_class(from, to);
    if (from / c_.dies_per_server == to / c_.dies_per_server) {
      r.hops = {
          {hccs_[static_cast<size_t>(from) * c_.dies_per_server + to % c_.dies_per_server], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_hccs_ns : c_.read_512B_hccs_ns);
    } else {
      r.hops = {{nic_out_[from], 1.0}, {nic_in_[to], 1.0}};
      r.latency = ns_to_ps(write ? c_.write_512B_roce_ns : c_.read_512B_roce_ns);
    }
    r.response_ratio = write ? c_.write_response_ratio : 0;
    r.completion = write ? ns_to_ps(c_.write_completion_ns) : 0;
    return r;
  }

 private:
  FabricConfig c_;
  std::vector<BandwidthServer*> nic_out_, nic_in_, hccs_;
};

}  // namespace

std::unique_ptr<Fabric> Fabric::make(const FabricConfig& cfg, const CostModel& cost) {
  std::unique_ptr<Fabric> f;
  if (cfg.topology == "a3") f = std::make_unique<A3Fabric>("fabric", cfg, cost);
  if (cfg.topology == "a2") f = std::make_unique<A2Fabric>("fabric", cfg, cost);
  if (!f)
    throw SimError(kExitBadInput, "unknown fabric topology '" + cfg.topology + "' (a3 or a2)");
  if (!cfg.degraded_port.empty() && !f->degraded_found_) {
    std::string some;
    for (const BandwidthServer* p : f->ports())
      if (some.size() < 80) some += (some.empty() ? "" : ", ") + p->name();
    throw SimError(kExitBadInput, "fault.degraded_port = '" + cfg.degraded_port +
                                      "' names no fabric port of this run (" + some +
                                      ", ...; stats.json ports[].name lists them)");
  }
  return f;
}

}  // namespace ascend::model
