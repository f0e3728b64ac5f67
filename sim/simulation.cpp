#include "sim/simulation.h"

#include <fnmatch.h>
#include <pthread.h>
#include <sys/resource.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
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

model::Tick KernelRecord::latency() const {
  return rank_latency.empty() ? 0 : *std::max_element(rank_latency.begin(), rank_latency.end());
}

namespace {
double pct(uint64_t part, Tick whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
const char* busy_counter(model::Lane pipe) {
  static const char* const names[] = {"SCALAR.busy_ps", "VECTOR.busy_ps", "MTE2.busy_ps",
                                      "MTE3.busy_ps",   "MTE1.busy_ps",   "CUBE.busy_ps",
                                      "FIXP.busy_ps"};
  return names[static_cast<int>(pipe)];
}
// Per pipe a kind of core has, each core's busy time over the rank's latency, in %.
nlohmann::json busy_columns(const std::vector<model::CounterSet>& cores, model::CoreKind kind,
                            Tick latency) {
  nlohmann::json busy = nlohmann::json::object();
  for (int p = 0; p < model::kPipes; ++p) {
    if (!model::has_pipe(kind, static_cast<model::PipeId>(p))) continue;
    auto lane = static_cast<model::Lane>(p);
    nlohmann::json& col = busy[model::lane_name(lane)] = nlohmann::json::array();
    for (const model::CounterSet& c : cores) col.push_back(pct(c[busy_counter(lane)], latency));
  }
  return busy;
}
}  // namespace

double KernelRecord::pipe_busy_pct(int rank, int core, model::Lane pipe) const {
  return pct(ranks.at(rank).cores.at(core)[busy_counter(pipe)], rank_latency.at(rank));
}

double KernelRecord::aic_busy_pct(int rank, int aic, model::Lane pipe) const {
  return pct(ranks.at(rank).aics.at(aic)[busy_counter(pipe)], rank_latency.at(rank));
}

double KernelRecord::utilization_pct(const PortCounters& p) const {
  return pct(p.counters["busy_ps"], span);
}

nlohmann::json KernelRecord::ranks_json() const {
  using nlohmann::json;
  json out = json::array();
  for (size_t d = 0; d < ranks.size(); ++d) {
    const RankCounters& rc = ranks[d];
    Tick lat = rank_latency[d];
    json busy = busy_columns(rc.cores, model::CoreKind::Aiv, lat);
    json stall = json::array(), core_lat = json::array();
    uint64_t mte2_bytes = 0, mte3_bytes = 0;
    for (size_t c = 0; c < rc.cores.size(); ++c) {
      stall.push_back(pct(rc.cores[c]["SCALAR.stall_ps"], lat));
      core_lat.push_back(model::ps_to_ns(rc.core_latency[c]));
      mte2_bytes += rc.cores[c]["mte2.bytes"];
      mte3_bytes += rc.cores[c]["mte3.bytes"];
    }
    out.push_back({{"rank", d},
                   {"latency_ns", model::ps_to_ns(lat)},
                   {"pipe_busy_pct", busy},
                   {"scalar_stall_pct", stall},
                   {"core_latency_ns", core_lat},
                   {"mte2_bytes", mte2_bytes},
                   {"mte3_bytes", mte3_bytes},
                   {"hbm_bytes", rc.hbm["bytes"]},
                   {"hbm_utilization_pct", pct(rc.hbm["busy_ps"], lat)}});
    if (!rc.aics.empty()) {  // the cube cores of a kernel that uses them
      json aic_lat = json::array(), aic_stall = json::array();
      uint64_t mte2 = 0, fix = 0, mmads = 0;
      for (size_t c = 0; c < rc.aics.size(); ++c) {
        aic_lat.push_back(model::ps_to_ns(rc.aic_latency[c]));
        aic_stall.push_back(pct(rc.aics[c]["SCALAR.stall_ps"], lat));
        mte2 += rc.aics[c]["mte2.bytes"];
        fix += rc.aics[c]["fixpipe.bytes"];
        mmads += rc.aics[c]["CUBE.instrs"];
      }
      out.back()["aic"] = {{"pipe_busy_pct", busy_columns(rc.aics, model::CoreKind::Aic, lat)},
                           {"scalar_stall_pct", aic_stall},
                           {"core_latency_ns", aic_lat},
                           {"mte2_bytes", mte2},
                           {"fixpipe_bytes", fix},
                           {"mmads", mmads}};
    }
  }
  return out;
}

nlohmann::json KernelRecord::ports_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const PortCounters& p : ports) {
    if (p.counters["bytes"] == 0) continue;
    out.push_back({{"name", p.port->name()},
                   {"bytes", p.counters["bytes"]},
                   {"busy_ns", model::ps_to_ns(p.counters["busy_ps"])},
                   {"utilization_pct", utilization_pct(p)}});
  }
  return out;
}

nlohmann::json KernelRecord::link_class_bytes_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const model::Counter& c : link_classes) out[c.name] = c.value;
  return out;
}

nlohmann::json KernelRecord::units_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const Figure& f : figures) out[f.name] = f.unit;
  return out;
}

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

namespace {
void check_thread_budget(int threads);
}  // namespace

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

namespace {

void check_thread_budget(int threads) {
  // Each SC_THREAD stack is its own memory mapping plus a guard page.
  std::ifstream f("/proc/sys/vm/max_map_count");
  long limit = 0;
  if (!(f >> limit)) return;
  long needed = 2L * threads + 4096;
  if (needed > limit)
    throw SimError(kExitBadInput,
                   std::to_string(threads) + " kernel cores need about " + std::to_string(needed) +
                       " memory mappings but vm.max_map_count is " + std::to_string(limit) +
                       "; lower the die or core count, or raise the limit: sudo sysctl -w "
                       "vm.max_map_count=" +
                       std::to_string(needed * 2));
}

// The memory a run may use, in bytes, and where the figure comes from.
std::pair<uint64_t, std::string> memory_available(const Params& p) {
  if (p.integer("run.memory_MiB") > 0)
    return {static_cast<uint64_t>(p.integer("run.memory_MiB")) << 20, "run.memory_MiB"};
  uint64_t avail = 0;
  std::string from = "MemAvailable in /proc/meminfo";
  std::ifstream mi("/proc/meminfo");
  for (std::string key; mi >> key;) {
    uint64_t kib = 0;
    mi >> kib;
    if (key == "MemAvailable:") avail = kib << 10;
    mi.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  std::ifstream cg("/sys/fs/cgroup/memory.max");
  uint64_t limit = 0;
  if (cg >> limit && limit > 0 && (avail == 0 || limit < avail))
    avail = limit, from = "the cgroup's memory.max";
  return {avail, from};
}

}  // namespace

void check_resources(const Params& p, int dies, bool aic, uint64_t payload_bytes) {
  model::ClusterConfig cfg = cluster_config(p, dies);
  cfg.build_aics = aic;
  const int cores = cfg.aiv_per_die + (aic ? cfg.aic_per_die : 0);
  check_thread_budget(dies * cores);
  const uint64_t per_die = model::Die::local_bytes(cfg) +
                           uint64_t{cfg.thread_stack_bytes} * static_cast<uint64_t>(cores);
  const uint64_t machine = static_cast<uint64_t>(dies) * per_die;
  const uint64_t payload = p.integer("sim.payload") ? payload_bytes : 0;
  const uint64_t need = machine + payload + (uint64_t{256} << 20);  // + the simulator itself
  const auto [have, from] = memory_available(p);
  if (have == 0 || need <= have) return;
  auto mib = [](uint64_t b) { return std::to_string(b >> 20) + " MiB"; };
  throw SimError(
      kExitBadInput,
      "this run needs about " + mib(need) + " of memory (" + std::to_string(dies) +
          " ranks: " + mib(machine) + " for the cores' stacks and local memories" +
          (payload ? ", " + mib(payload) + " for the payload" : std::string()) + ") but " +
          mib(have) + " are available (" + from + "); " +
          (payload ? "run it timing-only (--no-check --set sim.payload=0), with fewer ranks "
                     "(--ep) or a smaller workload"
                   : "run it with fewer ranks (--ep) or fewer cores (die.aiv_count)") +
          ", or set run.memory_MiB if the estimate is wrong for this machine");
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
  // (Core::Pipe::pushless) waits for a set or a completion that never came. Hand such heads over
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
  return s;
}

std::string Simulation::race_report() const {
  std::ostringstream os;
  uint64_t hazards = 0, cores = 0, shown = 0;
  for (int d = 0; d < cluster_->dies(); ++d)
    cluster_->die(d).for_each_core([&](const model::Core& c) {
      const model::RaceChecker* rc = c.race_checker();
      if (!rc || rc->hazards() == 0) return;
      hazards += rc->hazards();
      ++cores;
      for (const std::string& f : rc->findings())
        if (shown++ < 16) os << "\n  " << f;
    });
  if (hazards == 0) return "";
  return "race check: " + std::to_string(hazards) + " unordered access(es) on " +
         std::to_string(cores) + " core(s); the distinct ones:" + os.str();
}

std::string Simulation::stuck_report(bool hang, Tick deadline) const {
  std::ostringstream os;
  if (hang) {
    os << "hang: kernel still running at " << model::ps_to_ns(deadline)
       << " ns, past sim.poll_timeout_us = " << params_.real("sim.poll_timeout_us") << " us";
  } else {
    os << "deadlock: simulated time cannot advance at " << model::ps_to_ns(model::now())
       << " ns while cores are still blocked";
  }
  auto gm_name = [this](model::GmAddr a) {
    const model::GlobalMemory::Region* r = cluster_->gm().region_of(a, 1);
    std::ostringstream n;
    if (r)
      n << r->name << " + " << (a - r->base);
    else
      n << "0x" << std::hex << a;
    return n.str();
  };
  // Injected faults are named first, and a stalled rank's cores come first.
  const std::string faults = injected_faults(params_);
  if (!faults.empty()) os << "\n  " << faults;
  const int stalled = runtime_->faults().stall_rank;
  std::vector<int> order;
  if (stalled >= 0) order.push_back(stalled);
  for (int d = 0; d < cluster_->dies(); ++d)
    if (d != stalled) order.push_back(d);
  int shown = 0, stuck = 0;
  for (int d : order) {
    cluster_->die(d).for_each_core([&](const model::Core& c) {
      if (c.state() != model::Core::State::Running) return;
      ++stuck;
      if (shown++ < 64) os << "\n  " << c.blocked_report(gm_name);
    });
  }
  if (shown > 64) os << "\n  ... and " << (stuck - 64) << " more cores";
  return os.str();
}

std::string injected_faults(const Params& p) {
  std::string out;
  for (const ParamSpec* s : p.specs())
    if (s->key.rfind("fault.", 0) == 0 && p.text(s->key) != s->default_value)
      out += (out.empty() ? "" : ", ") + s->key + " = " + p.text(s->key);
  return out.empty() ? "" : "injected fault(s): " + out;
}

SimulatorFigures Simulation::simulator_figures(double wall_s) const {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  SimulatorFigures f;
  f.wall_s = wall_s;
  f.sim_time_ns = model::ps_to_ns(model::now());
  f.scheduler_events = cluster_->scheduler().fired();
  f.delta_cycles = sc_core::sc_delta_count();
  f.peak_rss_MiB = static_cast<double>(ru.ru_maxrss) / 1024.0;
  f.gm_resident_MiB = static_cast<double>(cluster_->gm().resident_bytes()) / (1 << 20);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  f.malloc_huge_pages =
      tunables && std::string(tunables).find("glibc.malloc.hugetlb=1") != std::string::npos;
  const model::Scheduler& sched = cluster_->scheduler();
  f.event_wall_s = host_clock_.seconds(sched.event_host_ticks());
  f.kernel_wall_s = host_clock_.seconds(sched.kernel_host_ticks());
  return f;
}

nlohmann::json Simulation::stats(double wall_s) const {
  using nlohmann::json;
  json kernels = json::array();
  for (const KernelRecord& r : records_) {
    json lat = json::array();
    for (Tick t : r.rank_latency) lat.push_back(model::ps_to_ns(t));
    json k = {{"name", r.name},
              {"cores_per_rank", r.cores},
              {"start_ns", model::ps_to_ns(r.start)},
              {"latency_ns", model::ps_to_ns(r.latency())},
              {"rank_latency_ns", lat}};
    for (const Figure& f : r.figures) k[f.name] = f.value;
    k["units"] = r.units_json();
    k["link_class_bytes"] = r.link_class_bytes_json();
    k["ports"] = r.ports_json();
    k["ranks"] = r.ranks_json();
    kernels.push_back(k);
  }
  SimulatorFigures f = simulator_figures(wall_s);
  return {{"kernels", kernels},
          {"simulator",
           {{"wall_s", f.wall_s},
            {"sim_time_ns", f.sim_time_ns},
            {"scheduler_events", f.scheduler_events},
            {"delta_cycles", f.delta_cycles},
            {"peak_rss_MiB", f.peak_rss_MiB},
            {"gm_resident_MiB", f.gm_resident_MiB},
            {"malloc_huge_pages", f.malloc_huge_pages},
            {"event_wall_s", f.event_wall_s},
            {"kernel_wall_s", f.kernel_wall_s}}}};
}

void Simulation::close_traces() {
  if (traces_closed_) return;
  traces_closed_ = true;
  if (trace_) trace_->close();
  if (vcd_ && !opts_.out_dir.empty()) vcd_->write(opts_.out_dir + "/waves.vcd");
}

void Simulation::write_outputs(double wall_s, const std::string& preset, const std::string& kernel,
                               const nlohmann::json& extra) {
  write_stats(wall_s, preset, kernel, extra);
  close_traces();
}

void Simulation::write_stats(double wall_s, const std::string& preset, const std::string& kernel,
                             const nlohmann::json& extra) const {
  if (opts_.out_dir.empty()) return;
  nlohmann::json s = stats(wall_s);
  s["run"] = {{"preset", preset}, {"kernel", kernel}, {"config", "config.ini"}};
  s.merge_patch(extra);
  std::ofstream(opts_.out_dir + "/stats.json") << s.dump(2) << "\n";
  std::ofstream cfg(opts_.out_dir + "/config.ini");
  cfg << "# resolved parameters of this run: ascend-sim --config config.ini reruns it\n"
      << "# preset " << preset << ", kernel " << kernel << "\n";
  params_.write_ini(cfg);
}

}  // namespace ascend
