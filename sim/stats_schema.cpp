#include "sim/stats_schema.h"

#include <map>
#include <typeinfo>

namespace ascend {

const std::vector<StatField>& stats_fields() {
  static const std::vector<StatField> fields = {
      {"kernels[]", "", "one entry per launch, in launch order"},
      {"kernels[].name", "",
       "the launch's name (a kernel's, or `healthy:NAME` for the healthy "
       "comparison of a scaled-down run)"},
      {"kernels[].cores_per_rank", "cores", "AIV cores the launch ran on, per rank"},
      {"kernels[].start_ns", "ns", "simulated time of the launch"},
      {"kernels[].latency_ns", "ns", "launch to the last core's end, the maximum over ranks"},
      {"kernels[].rank_latency_ns[]", "ns", "each rank's latency: launch to its last core's end"},
      {"kernels[].<FIGURE>", "(units)",
       "a figure the kernel reports (bandwidth_GBps, round_trip, phase times, ...; listed with "
       "each kernel in guides/builtin-kernels.md); a figure may be an object or a per-rank list"},
      {"kernels[].units.<FIGURE>", "", "the unit of each figure (\"GB/s\", \"ns\", \"B\", ...)"},
      {"kernels[].link_class_bytes.<CLASS>", "B",
       "bytes moved per path class: local, d2d, intra_node, inter_node, hccs, roce"},
      {"kernels[].ports[]", "", "every fabric port that carried traffic during the launch"},
      {"kernels[].ports[].name", "", "the port's module path (cluster.fabric.die3.ub_egress)"},
      {"kernels[].ports[].bytes", "B", "bytes through the port"},
      {"kernels[].ports[].busy_ns", "ns",
       "the sum of the port's holds: each transfer holds every port of its route for bytes / "
       "(nominal rate x efficiency)"},
      {"kernels[].ports[].utilization_pct", "%",
       "busy_ns / span x 100: busy_ns sums each transfer's hold of the port, bytes / (the port's "
       "nominal rate x its efficiency), i.e. at the effective rate (UB egress/ingress: "
       "fabric.port_GBps x fabric.write_efficiency for writes, x fabric.read_efficiency for "
       "reads; other ports: their nominal rate); span is the launch to the end of the simulated "
       "run of that launch"},
      {"kernels[].ranks[]", "", "per rank (die) of the launch"},
      {"kernels[].ranks[].rank", "", "the rank's index"},
      {"kernels[].ranks[].latency_ns", "ns", "the rank's latency"},
      {"kernels[].ranks[].pipe_busy_pct.<PIPE>[]", "%",
       "per AIV core, the time its pipe had an instruction in flight over the rank's latency "
       "(SCALAR: the scalar unit's own work)"},
      {"kernels[].ranks[].scalar_stall_pct[]", "%",
       "per AIV core, the time its scalar waited (a flag, a full queue, a barrier) over the "
       "rank's latency"},
      {"kernels[].ranks[].core_latency_ns[]", "ns", "launch to each core's end, per core"},
      {"kernels[].ranks[].mte2_bytes", "B", "bytes the rank's AIVs read on MTE2"},
      {"kernels[].ranks[].mte3_bytes", "B", "bytes the rank's AIVs wrote on MTE3"},
      {"kernels[].ranks[].hbm_bytes", "B", "bytes through the rank's HBM"},
      {"kernels[].ranks[].hbm_utilization_pct", "%", "the HBM's busy time over the rank's latency"},
      {"kernels[].ranks[].aic", "", "the cube cores of a kernel that uses them"},
      {"kernels[].ranks[].aic.pipe_busy_pct.<PIPE>[]", "%",
       "per AIC, the time its pipe had an instruction in flight over the rank's latency"},
      {"kernels[].ranks[].aic.scalar_stall_pct[]", "%", "per AIC, its scalar's waits"},
      {"kernels[].ranks[].aic.core_latency_ns[]", "ns", "launch to each AIC's end"},
      {"kernels[].ranks[].aic.mte2_bytes", "B", "bytes the rank's AICs read on MTE2"},
      {"kernels[].ranks[].aic.fixpipe_bytes", "B", "bytes the rank's AICs wrote on FIXPIPE"},
      {"kernels[].ranks[].aic.mmads", "instrs", "Mmad instructions of the rank's AICs"},
      {"kernels[].modules[]", "",
       "stats.modules = 1: every module that counted something during the launch, in the "
       "module tree's order"},
      {"kernels[].modules[].path", "", "the module's path (cluster.die3.aiv17)"},
      {"kernels[].modules[].counters.<COUNTER>", "(counter)",
       "each of its counters over the launch, in the counter's unit (--list-counters)"},
      {"simulator", "", "the simulator's own figures for the whole run"},
      {"simulator.wall_s", "s", "wall time of the run"},
      {"simulator.sim_time_ns", "ns", "simulated time at the end"},
      {"simulator.scheduler_events", "events", "events the model's scheduler fired"},
      {"simulator.delta_cycles", "", "SystemC delta cycles"},
      {"simulator.peak_rss_MiB", "MiB", "peak resident memory of the process"},
      {"simulator.gm_resident_MiB", "MiB", "GM pages the payload touched"},
      {"simulator.malloc_huge_pages", "", "whether malloc was asked for transparent huge pages"},
      {"simulator.event_wall_s", "s", "wall time inside the scheduler's activations (the models)"},
      {"simulator.kernel_wall_s", "s",
       "wall time inside the kernels' threads (their programs and the API calls)"},
      {"simulator.issue_timing_checked", "instrs",
       "sim.check_issue_timing = 1: the pipe instructions and scalar waits checked against the "
       "issue-time recurrences (each ended when they say)"},
      {"run", "", "what was run"},
      {"run.preset", "", "the preset (--preset)"},
      {"run.kernel", "", "the kernel (a program built against the SDK: its kernel's name)"},
      {"run.config", "", "the file beside stats.json with every resolved parameter"},
      {"run.version", "", "the simulator's version (as --version)"},
      {"run.git", "", "git describe of the simulator's source"},
      {"run.command_line", "", "the command line, shell-quoted"},
      {"run.argv[]", "", "the command line's arguments"},
      {"run.entry", "", "a program built against the SDK: how it launched (<<<>>> for .asc)"},
      {"notes", "", "these descriptions, for the fields whose meaning is not obvious"},
      {"notes.<KEY>", "", "the description of the field KEY"},
  };
  return fields;
}

std::string stat_description(const std::string& path) {
  for (const StatField& f : stats_fields())
    if (path == f.path) return f.description;
  return "";
}

std::string stats_table_markdown() {
  std::string out = "| field | unit | meaning |\n|---|---|---|\n";
  for (const StatField& f : stats_fields())
    out += std::string("| `") + f.path + "` | " + f.unit + " | " + f.description + " |\n";
  return out;
}

std::vector<CounterRow> counter_rows(model::Cluster& c) {
  // Every module that counts, found by walking the tree, grouped by kind (its type and its
  // counters): one row per counter of each kind, named by its first module and how many there are.
  struct Kind {
    std::string first;
    int count = 0;
    model::CounterSet counters;
  };
  std::vector<Kind> kinds;
  std::map<std::string, size_t> index;
  for (const model::CountedModule& m : model::counted_modules(c)) {
    model::CounterSet set = m.module->counters();
    std::string key = typeid(*m.module).name();
    for (const model::Counter& k : set) key += std::string("|") + k.name();
    auto [it, added] = index.try_emplace(key, kinds.size());
    if (added) kinds.push_back({m.path, 0, std::move(set)});
    ++kinds[it->second].count;
  }
  std::vector<CounterRow> rows;
  for (const Kind& k : kinds) {
    const std::string module = k.first + " (one of " + std::to_string(k.count) + ")";
    for (const model::Counter& counter : k.counters)
      rows.push_back({module, counter.name(), counter.unit(), counter.description()});
  }
  const model::CounterSpec& links = model::link_class_spec("<CLASS>");
  rows.push_back({"cluster (link classes: local, d2d, intra_node, inter_node, hccs, roce)",
                  links.name, links.unit, links.description});
  return rows;
}

std::string counters_table_markdown(const std::vector<CounterRow>& rows) {
  std::string out = "| module | counter | unit | meaning |\n|---|---|---|---|\n";
  for (const CounterRow& r : rows)
    out += "| `" + r.module + "` | `" + r.name + "` | " + r.unit + " | " + r.description + " |\n";
  return out;
}

}  // namespace ascend
