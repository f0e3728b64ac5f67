#include "sim/summary.h"

#include <algorithm>
#include <initializer_list>
#include <iomanip>
#include <vector>

namespace ascend {

namespace {

double us(model::Tick t) {
  return model::ps_to_ns(t) / 1000.0;
}

// The core that ends last over every rank, of either kind: "rank R AIV c, ends X us after
// launch".
void write_slowest(std::ostream& os, const KernelRecord& r) {
  std::string which;
  model::Tick last = 0;
  for (size_t d = 0; d < r.ranks.size(); ++d) {
    const RankCounters& rc = r.ranks[d];
    for (size_t c = 0; c < rc.core_latency.size(); ++c)
      if (which.empty() || rc.core_latency[c] > last)
        last = rc.core_latency[c],
        which = "rank " + std::to_string(d) + " AIV " + std::to_string(c);
    for (size_t c = 0; c < rc.aic_latency.size(); ++c)
      if (which.empty() || rc.aic_latency[c] > last)
        last = rc.aic_latency[c], which = "rank " + std::to_string(d) + " AIC " + std::to_string(c);
  }
  if (which.empty()) return;
  os << which << ", ends " << us(last) << " us after launch";
}

// The kernels' phases where their figures give them (max over cores and ranks, or over calls).
void write_phases(std::ostream& os, const KernelRecord& r) {
  const Figures& x = r.figures;
  if (x.contains("phase_max_over_cores") && x.at("phase_max_over_cores").is_object()) {
    // In the kernels' order of execution where known (a JSON object is sorted by name).
    const nlohmann::json& phases = x.at("phase_max_over_cores");
    std::vector<std::string> names;
    for (const char* n :
         {"send_ns", "status_ns", "wait_ns", "local_copy_ns", "wait_and_combine_ns"})
      if (phases.contains(n)) names.push_back(n);
    for (const auto& [name, v] : phases.items())
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    os << "  phases         " << r.name << ", max over cores and ranks:";
    for (const std::string& name : names) {
      const nlohmann::json& per_rank = phases[name];
      double worst = 0;
      size_t at = 0;
      for (size_t i = 0; i < per_rank.size(); ++i)
        if (per_rank[i].get<double>() > worst) worst = per_rank[i].get<double>(), at = i;
      std::string label = name.size() > 3 && name.substr(name.size() - 3) == "_ns"
                              ? name.substr(0, name.size() - 3)
                              : name;
      os << " " << label << " " << worst / 1000.0 << " us (rank " << at << ")";
    }
    os << "\n";
  }
  if (x.contains("calls") && x.at("calls").is_array() && !x.at("calls").empty() &&
      x.at("calls")[0].is_object()) {  // ffn_worker_batching: one entry per FFN rank and call
    os << "  phases         " << r.name << ", max over calls:";
    for (const char* name : {"poll_ns", "sort_ns", "gather_ns", "group_list_ns", "batching_ns"}) {
      double worst = 0;
      for (const auto& c : x.at("calls"))
        if (c.contains(name)) worst = std::max(worst, c[name].get<double>());
      std::string label(name);
      os << " " << label.substr(0, label.size() - 3) << " " << worst / 1000.0 << " us";
    }
    os << "\n";
  }
}

void write_busiest_port(std::ostream& os, const Launches& recs) {
  const PortCounters* best = nullptr;
  const KernelRecord* in = nullptr;
  for (const KernelRecord* r : recs)
    for (const PortCounters& p : r->ports)
      if (p.counters["bytes"] > 0 && (!best || r->utilization_pct(p) > in->utilization_pct(*best)))
        best = &p, in = r;
  if (!best) return;
  os << "  busiest port   " << best->port->name() << " " << std::setprecision(1)
     << in->utilization_pct(*best) << "% busy" << std::setprecision(3) << " ("
     << us(best->counters["busy_ps"]) << " us at its effective rate, " << best->counters["bytes"]
     << " B, in " << in->name << ")\n";
}

// Busy per pipe of one kind of core: the mean over the launched cores of every rank that ran (a
// dead rank, which runs nothing, left out), and core 0 of rank 0.
void write_busy(std::ostream& os, const KernelRecord& r, const char* kind, int cores,
                std::initializer_list<model::Lane> lanes,
                double (KernelRecord::*pct)(int, int, model::Lane) const) {
  std::vector<int> ran;
  for (size_t d = 0; d < r.rank_latency.size(); ++d)
    if (r.rank_latency[d] > 0) ran.push_back(static_cast<int>(d));
  if (ran.empty()) ran.push_back(0);
  os << std::setprecision(1) << "  " << kind << " pipe busy  mean over cores:";
  for (model::Lane l : lanes) {
    double sum = 0;
    for (int d : ran)
      for (int c = 0; c < cores; ++c) sum += (r.*pct)(d, c, l);
    os << " " << model::lane_name(l) << " " << sum / (static_cast<double>(cores) * ran.size())
       << "%";
  }
  os << "\n  " << kind << " pipe busy  core 0:";
  for (model::Lane l : lanes) os << " " << model::lane_name(l) << " " << (r.*pct)(0, 0, l) << "%";
  os << "\n" << std::setprecision(3);
}

}  // namespace

Launches launches_of(const std::deque<KernelRecord>& records) {
  Launches v;
  for (const KernelRecord& r : records) v.push_back(&r);
  return v;
}

void write_summary(std::ostream& os, const Launches& recs, const SummaryInfo& info,
                   const SimulatorFigures& sim) {
  if (recs.empty()) return;
  const KernelRecord& r = *recs.back();
  os << std::fixed << std::setprecision(3);
  os << "ascend-sim: kernel " << info.kernel << " on preset " << info.preset << ", "
     << r.rank_latency.size() << " rank(s) x ";
  if (r.cores > 0) os << r.cores << " of " << info.die_aiv << " AIV cores";
  if (r.cores > 0 && r.aic_cores > 0) os << " + ";
  if (r.aic_cores > 0) os << r.aic_cores << " of " << info.die_aic << " AIC cores";
  os << "\n";
  if (recs.size() > 1) {  // several launches (moe): each, then launch of the first to end
    for (const KernelRecord* k : recs) {
      os << "  " << std::left << std::setw(20) << k->name << std::right << us(k->latency())
         << " us   slowest ";
      write_slowest(os, *k);
      os << "\n";
    }
    os << "  total               " << us(r.start + r.latency() - recs.front()->start) << " us";
    for (size_t i = 0; i < recs.size(); ++i)
      if (recs[i]->figures.contains("round_trip"))
        os << "   (stats.json: kernels[" << i << "] '" << recs[i]->name << "' round_trip.total_ns)";
    os << "\n";
  } else {
    os << "  latency        " << us(r.latency()) << " us\n";
    os << "  slowest        ";
    write_slowest(os, r);
    os << "\n";
  }
  for (const KernelRecord* k : recs) write_phases(os, *k);
  if (r.figures.contains("bandwidth_GBps"))
    os << "  bandwidth      " << r.figures.at("bandwidth_GBps").get<double>() << " GB/s ("
       << r.figures.at("bytes").get<uint64_t>() << " B)\n";
  write_busiest_port(os, recs);
  using model::Lane;
  if (r.cores > 0)
    write_busy(os, r, "AIV", r.cores, {Lane::SCALAR, Lane::VECTOR, Lane::MTE2, Lane::MTE3},
               &KernelRecord::pipe_busy_pct);
  if (r.aic_cores > 0)
    write_busy(os, r, "AIC", r.aic_cores,
               {Lane::SCALAR, Lane::MTE2, Lane::MTE1, Lane::CUBE, Lane::FIXP, Lane::MTE3},
               &KernelRecord::aic_busy_pct);
  if (r.figures.contains("bound"))
    os << "  bound          " << r.figures.at("bound").get<std::string>() << " ("
       << std::setprecision(1) << r.figures.at("tflops").get<double>() << " TFLOP/s)\n"
       << std::setprecision(3);
  if (!info.check.empty()) os << "  check          " << info.check << "\n";
  os << "  simulator      " << sim.wall_s << " s wall (model events " << sim.event_wall_s
     << " s, kernel threads " << sim.kernel_wall_s << " s), " << sim.scheduler_events << " events, "
     << std::setprecision(1) << sim.peak_rss_MiB << " MiB peak RSS\n"
     << std::setprecision(3);
  if (!info.dump.empty()) os << "  dump           " << info.dump << "\n";
  if (!info.outputs.empty()) os << "  outputs        " << info.outputs << "\n";
}

}  // namespace ascend
