// The run: builds the cluster and its traces from the parameters, lays out GM, launches a kernel
// on every rank and advances SystemC until it ends, deadlocks or hangs; and the trace scopes.
#include "sim/simulation.h"

#include <fnmatch.h>
#include <pthread.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "models/errors.h"
#include "sim/hardware_params.h"
#include "sim/stack_guard.h"
#include "sim/trace.h"
#include "sim/vcd.h"

namespace ascend {

using model::Tick;

namespace {

// Runs the SystemC kernel. SystemC annotates its coroutine switches for AddressSanitizer but
// leaves ASan believing it is still on the last coroutine's stack when sc_start returns; an
// exception thrown afterwards then trips a false stack-overflow report. Re-announce the main
// stack (sanitizer builds only).
void run_systemc(model::Scheduler& sched, const sc_core::sc_time& t,
                 sc_core::sc_starvation_policy policy) {
  sched.set_horizon(model::now() + t.value());
  sc_core::sc_start(t, policy);
  model::refresh_now();
#if defined(__SANITIZE_ADDRESS__)
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, addr, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace

std::set<int> parse_scope(const std::string& key, const std::string& text) {
  std::set<int> out;
  if (text == "all") return out;
  std::stringstream ss(text);
  std::string part;
  auto bad = [&] {
    return SimError(kExitBadInput,
                    "parameter " + key + " = '" + text +
                        "': expected 'all' or a list of indices and ranges like 0-3,7");
  };
  while (std::getline(ss, part, ',')) {
    size_t dash = part.find('-');
    try {
      size_t used = 0;
      int lo = std::stoi(part.substr(0, dash), &used);
      if (used != (dash == std::string::npos ? part.size() : dash)) throw bad();
      int hi = lo;
      if (dash != std::string::npos) {
        std::string rest = part.substr(dash + 1);
        hi = std::stoi(rest, &used);
        if (used != rest.size()) throw bad();
      }
      if (lo < 0 || hi < lo || hi - lo > 100000) throw bad();
      for (int i = lo; i <= hi; ++i) out.insert(i);
    } catch (const std::logic_error&) {
      throw bad();
    }
  }
  if (out.empty()) throw bad();
  return out;
}

ModuleScope::ModuleScope(const std::string& text) {
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ','))
    if (!part.empty()) {
      std::replace(part.begin(), part.end(), '.', '/');
      patterns_.push_back(part);
    }
}

bool ModuleScope::covers(const std::string& path) const {
  std::string p = path;
  std::replace(p.begin(), p.end(), '.', '/');
  for (size_t end = p.find('/');; end = p.find('/', end + 1)) {
    std::string prefix = p.substr(0, end);
    for (const std::string& pat : patterns_)
      if (fnmatch(pat.c_str(), prefix.c_str(), FNM_PATHNAME) == 0) return true;
    if (end == std::string::npos) return false;
  }
}

Simulation::Simulation(const Params& params, int dies, RunOptions opts)
    : params_(params), opts_(std::move(opts)) {
  model::ClusterConfig cfg = cluster_config(params, dies);
  cfg.cost_model = opts_.cost_model;
  cfg.build_aics = opts_.aic;
  check_thread_budget(cfg.dies * (cfg.aiv_per_die + (cfg.build_aics ? cfg.aic_per_die : 0)));
  for (const char* key :
       {"fault.stall_rank", "fault.corrupt_rank", "fault.double_flag_rank", "fault.flip_rank"})
    if (params.integer(key) >= dies)
      throw SimError(kExitBadInput, std::string(key) + " = " + params.text(key) +
                                        " is not a rank of this run (0-" +
                                        std::to_string(dies - 1) + ")");
  if (params.integer("fault.corrupt_rank") >= 0 && params.integer("sim.payload") == 0)
    throw SimError(kExitBadInput,
                   "fault.corrupt_rank with sim.payload = 0: a timing-only run moves no bytes to "
                   "corrupt");
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  install_stack_overflow_report(cfg.thread_stack_bytes);
  cluster_ = std::make_unique<model::Cluster>("cluster", cfg);
  // Every rank's HCCL windows, in its own HBM (sparse: they cost nothing until written).
  AscendC::detail::RuntimeConfig api = runtime_config(params);
  AscendC::detail::HcclWindows& w = api.windows;
  for (int r = 0; r < cluster_->dies(); ++r) {
    w.data.push_back(alloc(r, "rank" + std::to_string(r) + ".windowsIn", w.data_bytes));
    w.status.push_back(alloc(r, "rank" + std::to_string(r) + ".windowsExp", w.status_bytes));
    model::HcclWindow& hw = cluster_->die(r).hccl_window;
    hw.data = {w.data.back(), w.data_bytes};
    hw.status = {w.status.back(), w.status_bytes};
  }
  runtime_ = std::make_unique<AscendC::detail::Runtime>(*cluster_, std::move(api));
  if (params.integer("run.racecheck"))
    for (int d = 0; d < cluster_->dies(); ++d)
      cluster_->die(d).for_each_core([](model::Core& c) { c.enable_race_check(); });

  if (opts_.elaborate) opts_.elaborate(*cluster_);
  if (params.integer("stats.modules")) counted_ = model::counted_modules(*cluster_);
  if (!opts_.out_dir.empty()) std::filesystem::create_directories(opts_.out_dir);
  setup_traces();
  // Ends elaboration and lets every core's thread reach its wait for a launch.
  run_systemc(cluster_->scheduler(), sc_core::SC_ZERO_TIME, sc_core::SC_RUN_TO_TIME);
}

// Both observers of a core when --trace and --vcd are on together.
class ObserverFanOut : public model::CoreObserver {
 public:
  std::vector<model::CoreObserver*> to;
  void slice(int die, int core, model::Lane lane, const std::string& name, Tick start, Tick end,
             const model::SliceArgs* args) override {
    for (auto* o : to) o->slice(die, core, lane, name, start, end, args);
  }
  void level(int die, int core, int level, int delta, Tick at) override {
    for (auto* o : to) o->level(die, core, level, delta, at);
  }
};

// --trace and --vcd record the cores in trace.cores of the ranks in trace.ranks, and every fabric
// port or HBM of those ranks (switch-level ports always) that carries traffic, each named by its
// module's path. Neither schedules
// anything: observing leaves the run's events, and so its timing, exactly as they are.
void Simulation::setup_traces() {
  std::set<int> ranks = parse_scope("trace.ranks", params_.text("trace.ranks"));
  std::set<int> cores = parse_scope("trace.cores", params_.text("trace.cores"));
  auto rank_in = [&](int r) { return ranks.empty() || ranks.count(r) > 0; };
  auto core_in = [&](int c) { return cores.empty() || cores.count(c) > 0; };
  if (!opts_.trace && !opts_.vcd) return;
  observers_ = std::make_unique<ObserverFanOut>();
  if (opts_.trace && !opts_.out_dir.empty()) {
    trace_ = std::make_unique<TraceRecorder>(opts_.out_dir + "/trace.json", &cluster_->gm());
    observers_->to.push_back(trace_.get());
  }
  if (opts_.vcd) {
    vcd_ = std::make_unique<VcdWriter>();
    observers_->to.push_back(vcd_.get());
  }
  model::CoreObserver* observer = observers_->to.size() == 1
                                      ? observers_->to.front()
                                      : static_cast<model::CoreObserver*>(observers_.get());
  // trace.scope, when set, chooses by module path instead of trace.ranks and trace.cores; a
  // pattern that names a core's unit (vector, mte2, mte3; mte2, mte1, cube, fixpipe) records that
  // unit's lane only. trace.cores selects AIVs and the AICs of the same numbers.
  ModuleScope scope(params_.text("trace.scope"));
  int selected = 0;
  if (trace_) trace_->name_fabric(cluster_->fabric().name());
  for (int d = 0; d < cluster_->dies(); ++d) {
    if (trace_) trace_->name_die(d, cluster_->die(d).name());
    const int aiv = cluster_->config().aiv_per_die;
    cluster_->die(d).for_each_core([&](model::Core& c) {
      const int number = c.core_kind() == model::CoreKind::Aiv ? c.index() : c.index() - aiv;
      unsigned lanes = 0;
      if (scope.empty() ? rank_in(d) && core_in(number) : scope.covers(c.name())) {
        lanes = ~0u;
      } else if (!scope.empty()) {
        for (int l = 0; l < model::kLanes; ++l)
          if (const sc_core::sc_module* u = c.unit_of(static_cast<model::Lane>(l)))
            if (scope.covers(u->name())) lanes |= 1u << l;
      }
      if (!lanes) return;
      ++selected;
      if (vcd_) vcd_->add_core(d, c.index(), c.name(), c.core_kind());
      if (trace_) {
        trace_->name_core(d, c.index(), c.name());
        if (lanes != ~0u) trace_->only_lanes(d, c.index(), lanes);
      }
      c.set_observer(observer);
    });
  }
  // Resources: a VCD signal counts the transfers holding each one; the trace gets one slice per
  // hold. Both are recorded when the hold is booked.
  std::vector<model::BandwidthServer*> resources = cluster_->fabric().ports();
  for (int d = 0; d < cluster_->dies(); ++d) resources.push_back(&cluster_->die(d).hbm.server());
  for (model::BandwidthServer* r : resources) {
    if (scope.empty() ? r->owner_die() >= 0 && !rank_in(r->owner_die()) : !scope.covers(r->module))
      continue;
    ++selected;
    int id = vcd_ ? vcd_->add(r->module, "transfers", 32) : -1;
    r->on_hold = [this, r, id](Tick start, Tick end) {
      if (trace_) trace_->link(*r, start, end);
      if (vcd_) {
        vcd_->add_delta(id, start, +1);
        vcd_->add_delta(id, end, -1);
      }
    };
  }
  if (!scope.empty() && selected == 0)
    throw SimError(kExitBadInput, "trace.scope = '" + params_.text("trace.scope") +
                                      "' selects no module of this run (ascend-sim "
                                      "--list-modules shows the paths)");
}

void Simulation::set_tp_groups(int tp) {
  const AscendC::detail::HcclWindows& w = runtime_->windows();
  if (tp == w.tp) return;
  if (w.tp != 1 || tp < 1 || cluster_->dies() % tp)
    throw SimError(kExitBadInput, "TP groups of " + std::to_string(tp) + " dies on " +
                                      std::to_string(cluster_->dies()) +
                                      " dies (set: " + std::to_string(w.tp) + ")");
  std::vector<uint64_t> data, status;
  for (int r = 0; r < cluster_->dies(); ++r) {
    data.push_back(alloc(r, "rank" + std::to_string(r) + ".tp.windowsIn", w.data_bytes));
    status.push_back(alloc(r, "rank" + std::to_string(r) + ".tp.windowsExp", w.status_bytes));
    model::HcclWindow& hw = cluster_->die(r).hccl_window;
    hw.tp_data = {data.back(), w.data_bytes};
    hw.tp_status = {status.back(), w.status_bytes};
  }
  runtime_->set_tp(tp, std::move(data), std::move(status));
}

uint64_t Simulation::window(int rank) const {
  return runtime_->windows().data.at(rank);
}
uint64_t Simulation::status_window(int rank) const {
  return runtime_->windows().status.at(rank);
}

void Simulation::require_window(const std::string& kernel, uint64_t needed,
                                const std::string& formula) const {
  uint64_t window_bytes = runtime_->windows().data_bytes;
  if (needed > window_bytes)
    throw SimError(kExitBadInput, "kernel " + kernel + " needs an HCCL window of " +
                                      std::to_string(needed) + " B (" + formula +
                                      ") but hccl.buffsize_MB gives " +
                                      std::to_string(window_bytes) + " B");
}

Simulation::~Simulation() {
  try {
    close_traces();
  } catch (const std::exception&) {  // an unwritable trace was already reported, or is moot
  }
}

uint64_t Simulation::alloc(int die, const std::string& name, uint64_t bytes) {
  auto a = cluster_->gm().allocate(die, name, bytes);
  if (!a)
    throw SimError(kExitBadInput, "GM allocation '" + name + "' of " + std::to_string(bytes) +
                                      " B does not fit in die " + std::to_string(die) +
                                      "'s HBM (hbm.capacity_GiB)");
  return *a;
}

KernelRecord& Simulation::run_kernel(const std::string& name, const LaunchShape& shape,
                                     const std::function<std::function<void()>(int)>& program) {
  const model::ClusterConfig& cfg = cluster_->config();
  int aiv = cfg.aiv_per_die, aic = cfg.build_aics ? cfg.aic_per_die : 0;
  if (shape.aic == 0 && (shape.aiv < 1 || shape.aiv > aiv))
    throw SimError(kExitBadInput, "kernel " + name + " wants " + std::to_string(shape.aiv) +
                                      " cores; die.aiv_count is " + std::to_string(aiv));
  if (shape.aic > 0 && (shape.aic > aic || shape.aiv > aiv || shape.ratio < 0 || shape.ratio > 2))
    throw SimError(kExitBadInput, "kernel " + name + " wants " + std::to_string(shape.aic) +
                                      " AIC + " + std::to_string(shape.aiv) +
                                      " AIV cores; the die has " + std::to_string(aic) +
                                      " AIC (die.aic_count" +
                                      (cfg.build_aics ? "" : ", not built for this kernel") +
                                      ") and " + std::to_string(aiv) + " AIV (die.aiv_count)");
  Snapshot before = snapshot(shape);
  Tick t0 = model::now();
  runtime_->begin_launch();
  const int blocks = shape.aic > 0 ? shape.aic : shape.aiv;
  for (int d = 0; d < cluster_->dies(); ++d) {
    model::Die& die = cluster_->die(d);
    die.barriers.aiv.reset(shape.aiv);
    die.barriers.aic.reset(shape.aic);
    die.barriers.mixed.reset(shape.aiv + shape.aic);
    die.barriers.reset_groups();
    set_cross_peers(die, shape);
    for (int c = 0; c < shape.aiv; ++c) {
      model::Core& core = *die.cores[c];
      core.set_kernel_name(name);
      core.launch(program(d), c, blocks, shape.ratio > 1 ? c % shape.ratio : 0,
                  std::max(shape.ratio, 1));
    }
    for (int c = 0; c < shape.aic; ++c) {
      model::Core& core = *die.aics[c];
      core.set_kernel_name(name);
      core.launch(program(d), c, blocks, 0, 1);  // GetTaskRation() is 1 on an AIC
    }
  }
  Tick deadline = t0 + static_cast<Tick>(params_.real("sim.poll_timeout_us") * 1e6);
  run_systemc(cluster_->scheduler(), sc_core::sc_time::from_value(deadline - t0),
              sc_core::SC_EXIT_ON_STARVATION);
  // Nothing left to fire: a pipe head whose Push was left out because it could not move then
  // (Pipe::pushless) waits for a set or a completion that never came. Hand such heads over
  // at their times, as their Push events would have, so that a deadlock shows them queued.
  for (;;) {
    if (sc_core::sc_pending_activity() || cluster_->scheduler().first_fault()) break;
    bool posted = false;
    for (int d = 0; d < cluster_->dies(); ++d)
      cluster_->die(d).for_each_core(
          [&](model::Core& c) { posted = c.hand_over_deferred() || posted; });
    if (!posted || model::now() >= deadline) break;
    run_systemc(cluster_->scheduler(), sc_core::sc_time::from_value(deadline - model::now()),
                sc_core::SC_EXIT_ON_STARVATION);
  }

  if (const SimError* f = cluster_->scheduler().first_fault()) throw *f;
  std::string races = race_report();
  bool all_done = true;
  for (int d = 0; d < cluster_->dies(); ++d) {
    model::Die& die = cluster_->die(d);
    for (int c = 0; c < shape.aiv; ++c)
      all_done = all_done && die.cores[c]->state() == model::Core::State::Done;
    for (int c = 0; c < shape.aic; ++c)
      all_done = all_done && die.aics[c]->state() == model::Core::State::Done;
  }
  // Stopped with events still pending: the deadline cut it off (a hang). No events left: nothing
  // can ever wake the blocked cores (a deadlock).
  if (!all_done) {
    // A race found on the way is the cause to report first: it often is why the run hangs.
    SimError e(races.empty() ? kExitDeadlock : kExitRace,
               races + (races.empty() ? "" : "\nand then a ") +
                   stuck_report(sc_core::sc_pending_activity(), deadline));
    // Unwind the stuck kernel threads: a kill must come from inside the simulation, so it is
    // scheduled and run in one more picosecond.
    for (int d = 0; d < cluster_->dies(); ++d)
      cluster_->die(d).for_each_core([this](model::Core& c) {
        model::Core* core = &c;
        cluster_->scheduler().at(model::now(), [core] { core->abort_kernel(); });
      });
    run_systemc(cluster_->scheduler(), sc_core::sc_time::from_value(1), sc_core::SC_RUN_TO_TIME);
    throw e;
  }

  if (!races.empty()) throw SimError(kExitRace, races);

  // The launch's figures: every counter's difference.
  Snapshot after = snapshot(shape);
  KernelRecord rec;
  rec.name = name;
  rec.cores = shape.aiv;
  rec.aic_cores = shape.aic;
  rec.start = t0;
  rec.span = 0;  // to the end of the last core (later events, if any, were moot)
  for (int d = 0; d < cluster_->dies(); ++d) {
    model::Die& die = cluster_->die(d);
    RankCounters rc;
    Tick end = t0;
    for (int c = 0; c < shape.aiv; ++c) {
      Tick fin = die.cores[c]->finished_at();
      end = std::max(end, fin);
      rc.core_latency.push_back(std::max(fin, t0) - t0);
      rc.cores.push_back(after.cores[d][c] - before.cores[d][c]);
    }
    for (int c = 0; c < shape.aic; ++c) {
      Tick fin = die.aics[c]->finished_at();
      end = std::max(end, fin);
      rc.aic_latency.push_back(std::max(fin, t0) - t0);
      rc.aics.push_back(after.aics[d][c] - before.aics[d][c]);
    }
    rc.hbm = after.hbm[d] - before.hbm[d];
    rec.rank_latency.push_back(end - t0);
    rec.span = std::max(rec.span, end - t0);
    rec.ranks.push_back(std::move(rc));
  }
  std::vector<model::BandwidthServer*> ports = cluster_->fabric().ports();
  for (size_t i = 0; i < ports.size(); ++i)
    rec.ports.push_back({ports[i], after.ports[i] - before.ports[i]});
  rec.link_classes = after.links - before.links;
  for (size_t i = 0; i < counted_.size(); ++i) {
    model::CounterSet d = after.modules[i] - before.modules[i];
    bool counted = false;
    for (const model::Counter& c : d) counted |= c.value != 0;
    if (counted) rec.modules.emplace_back(counted_[i].path, std::move(d));
  }
  records_.push_back(std::move(rec));
  return records_.back();
}

// CrossCoreSetFlag's peers (Core::set_cross_peers): mode 0 the launch's cores of the setter's
// kind; mode 1 both AIVs of the setter's AI Core; mode 2 an AIC's AIVs, an AIV's AIC.
void Simulation::set_cross_peers(model::Die& die, const LaunchShape& shape) {
  std::vector<model::Core*> aivs, aics;
  for (int c = 0; c < shape.aiv; ++c) aivs.push_back(die.cores[c].get());
  for (int c = 0; c < shape.aic; ++c) aics.push_back(die.aics[c].get());
  const int ratio = std::max(shape.ratio, 1);
  for (int c = 0; c < shape.aiv; ++c) {
    model::Core& v = *aivs[c];
    v.set_cross_peers(0, aivs);
    int first = c / 2 * 2;
    v.set_cross_peers(1, first + 1 < shape.aiv
                             ? std::vector<model::Core*>{aivs[first], aivs[first + 1]}
                             : std::vector<model::Core*>{});
    v.set_cross_peers(2, shape.aic > 0 ? std::vector<model::Core*>{aics[c / ratio]}
                                       : std::vector<model::Core*>{});
  }
  for (int c = 0; c < shape.aic; ++c) {
    model::Core& a = *aics[c];
    a.set_cross_peers(0, aics);
    a.set_cross_peers(1, {});
    std::vector<model::Core*> mine;
    for (int k = 0; k < shape.ratio; ++k) mine.push_back(aivs[c * shape.ratio + k]);
    a.set_cross_peers(2, mine);
  }
}

Simulation::Snapshot Simulation::snapshot(const LaunchShape& shape) const {
  Snapshot s;
  for (int d = 0; d < cluster_->dies(); ++d) {
    model::Die& die = cluster_->die(d);
    s.cores.emplace_back();
    for (int c = 0; c < shape.aiv; ++c) s.cores.back().push_back(die.cores[c]->counters());
    s.aics.emplace_back();
    for (int c = 0; c < shape.aic; ++c) s.aics.back().push_back(die.aics[c]->counters());
    s.hbm.push_back(die.hbm.counters());
  }
  for (const model::BandwidthServer* p : cluster_->fabric().ports())
    s.ports.push_back(p->counters());
  s.links = cluster_->link_counters();
  for (const model::CountedModule& m : counted_) s.modules.push_back(m.module->counters());
  return s;
}

}  // namespace ascend
