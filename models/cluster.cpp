#include "models/cluster.h"

#include <sstream>

#include "models/calendar_arbitration.h"

namespace ascend::model {

size_t Die::local_bytes(const ClusterConfig& cfg) {
  size_t aic = cfg.build_aics ? size_t{Core::local_bytes(CoreKind::Aic, cfg.core)} *
                                    static_cast<size_t>(cfg.aic_per_die)
                              : 0;
  return size_t{Core::local_bytes(CoreKind::Aiv, cfg.core)} * static_cast<size_t>(cfg.aiv_per_die) +
         aic;
}

Die::Die(const sc_core::sc_module_name& name, int index, const ClusterConfig& cfg, Scheduler& sched,
         const CostModel& cost, uint8_t* local_memory)
    : sc_core::sc_module(name),
      index(index),
      hbm("hbm", index, cfg.hbm.gbps),
      hccl_window("hccl_window"),
      noc("noc", index, cost) {
  // AIVs are cores 0..aiv-1 and AICs aiv.. of the die (the order of their events at equal times).
  auto add = [&](std::vector<std::unique_ptr<Core>>& to, CoreKind kind, int count) {
    for (int i = 0; i < count; ++i) {
      std::string n = (kind == CoreKind::Aiv ? "aiv" : "aic") + std::to_string(i);
      const int id = kind == CoreKind::Aiv ? i : cfg.aiv_per_die + i;
      to.push_back(std::make_unique<Core>(n.c_str(), index, id, kind, cfg.core, sched, cost,
                                          barriers, cfg.thread_stack_bytes, local_memory));
      local_memory += Core::local_bytes(kind, cfg.core);
      Core& c = *to.back();
      c.set_lazy_scalar(cfg.lazy_scalar != 0);
      c.polls().set_enabled(cfg.sleeping_polls != 0);
      c.set_auto_sync(cfg.auto_sync != 0);
      c.set_check_issue_timing(cfg.check_issue_timing != 0);
      for (DmaEngine* e : c.dma_engines()) e->socket.bind(noc.cores);
    }
  };
  add(cores, CoreKind::Aiv, cfg.aiv_per_die);
  if (cfg.build_aics) {
    add(aics, CoreKind::Aic, cfg.aic_per_die);
    l2 = std::make_unique<L2Cache>("l2", cfg.l2_capacity_bytes, cfg.l2_block_bytes);
    noc.set_l2(l2.get());
    for (auto& c : aics) c->set_l2(l2.get());
  }
  noc.to_hbm.bind(hccl_window.socket);
}

void Die::bind_memory(MemoryTarget& target) {
  hccl_window.memory.bind(target);
  memory_bound_ = true;
}

void Die::before_end_of_elaboration() {
  if (!memory_bound_) bind_memory(hbm.socket);
}

Cluster::Cluster(const sc_core::sc_module_name& name, const ClusterConfig& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      cost_(cfg.cost_model ? cfg.cost_model
                           : std::make_shared<DefaultCostModel>(cfg.core, cfg.hbm)),
      sched_(std::make_unique<Scheduler>("scheduler")),
      gm_(cfg.hbm.capacity_bytes, cfg.gm_page_bytes),
      ub_pages_(Die::local_bytes(cfg) * cfg.dies) {
  for (int d = 0; d < cfg.dies; ++d) {
    std::string n = "die" + std::to_string(d);
    uint8_t* ub = ub_pages_.data() + Die::local_bytes(cfg) * d;
    dies_.push_back(std::make_unique<Die>(n.c_str(), d, cfg, *sched_, *cost_, ub));
    dies_.back()->for_each_core([this](Core& c) { c.polls().set_memory(&gm_); });
  }
  FabricConfig f = cfg.fabric;
  f.dies = cfg.dies;
  fabric_ = Fabric::make(f, *cost_);
  for (auto& d : dies_) {  // die d's noc is the fabric's d-th initiator and target
    d->noc.to_fabric.bind(fabric_->from_dies);
    fabric_->to_dies.bind(d->noc.from_fabric);
  }
  if (cfg.arbitration == ClusterConfig::Arbitration::Calendar) {
    for (auto& d : dies_) d->hbm.server().set_policy(std::make_unique<CalendarArbitration>());
    for (BandwidthServer* port : fabric_->ports())
      port->set_policy(std::make_unique<CalendarArbitration>());
  }
}

CounterSet Cluster::link_counters() const {
  CounterSet s;
  bool local = false;
  uint64_t local_bytes = 0;
  for (const auto& d : dies_)
    if (d->noc.local_transfers() > 0) local = true, local_bytes += d->noc.local_bytes();
  if (local) s.add(link_class_spec("local"), local_bytes);
  for (const Counter& c : fabric_->counters()) s.add(*c.spec, c.value);
  return s;
}

namespace {
void print_tree(std::ostream& os, const sc_core::sc_object& o, int depth) {
  os << std::string(2 * depth, ' ') << o.name() << "\n";
  for (const sc_core::sc_object* c : o.get_child_objects())
    if (dynamic_cast<const sc_core::sc_module*>(c)) print_tree(os, *c, depth + 1);
}
}  // namespace

std::string module_tree(const sc_core::sc_object& root) {
  std::ostringstream os;
  print_tree(os, root, 0);
  return os.str();
}

std::vector<CountedModule> counted_modules(const sc_core::sc_object& root) {
  std::vector<CountedModule> out;
  std::vector<const sc_core::sc_object*> stack = {&root};
  while (!stack.empty()) {
    const sc_core::sc_object* o = stack.back();
    stack.pop_back();
    if (const auto* c = dynamic_cast<const Counted*>(o)) out.push_back({o->name(), c});
    const std::vector<sc_core::sc_object*>& kids = o->get_child_objects();
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      if (dynamic_cast<const sc_core::sc_module*>(*it)) stack.push_back(*it);
  }
  return out;
}

}  // namespace ascend::model
