// What a run reports: each kernel's figures (KernelRecord), stats.json, config.ini, the simulator's
// own figures, and closing the traces.
#include "sim/simulation.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "sim/trace.h"
#include "sim/vcd.h"

namespace ascend {

using model::Tick;

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
  for (const model::Counter& c : link_classes) out[c.name()] = c.value;
  return out;
}

nlohmann::json KernelRecord::modules_json() const {
  // Written from the counters as they are: no counter is looked up by name.
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [path, set] : modules) {
    nlohmann::json counters = nlohmann::json::object();
    for (const model::Counter& c : set) counters[c.name()] = c.value;
    out.push_back({{"path", path}, {"counters", std::move(counters)}});
  }
  return out;
}

nlohmann::json KernelRecord::units_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const Figure& f : figures) out[f.name] = f.unit;
  return out;
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
  for (int d = 0; d < cluster_->dies(); ++d)
    cluster_->die(d).for_each_core(
        [&](const model::Core& c) { f.issue_timing_checked += c.issue_timing_checked(); });
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
    if (!r.modules.empty()) k["modules"] = r.modules_json();
    kernels.push_back(k);
  }
  SimulatorFigures f = simulator_figures(wall_s);
  json out = {{"kernels", kernels},
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
  if (f.issue_timing_checked > 0) out["simulator"]["issue_timing_checked"] = f.issue_timing_checked;
  return out;
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
