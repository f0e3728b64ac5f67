// trace.json in the Chrome trace event format (Perfetto, chrome://tracing): one process per die,
// one thread lane per core pipe (SCALAR, VECTOR, MTE2, MTE3, FLOWCTRL), one slice per
// instruction. Processes and lanes are named by their modules' paths (cluster.die3,
// "cluster.die3.aiv17 MTE2", cluster.fabric.die3.ub_egress). Times are in microseconds with
// picosecond precision.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/aiv_core.h"
#include "models/bandwidth_server.h"
#include "models/global_memory.h"

namespace ascend {

class TraceRecorder : public model::CoreObserver {
 public:
  // `gm` names the GM side of DMA slices (its allocation) in their arguments.
  explicit TraceRecorder(const model::GlobalMemory* gm) : gm_(gm) {}
  void slice(int die, int core, model::Lane lane, const std::string& name, model::Tick start,
             model::Tick end, const model::SliceArgs* args) override;
  void level(int, int, int, int) override {}
  // The module paths that name a die's process, a core's lanes and the fabric's process.
  void name_die(int die, std::string module) { die_names_[die] = std::move(module); }
  void name_core(int die, int core, std::string module) {
    core_names_[{die, core}] = std::move(module);
  }
  // Records only these lanes of the core (bit i: model::Lane i); by default all.
  void only_lanes(int die, int core, unsigned mask) { lane_masks_[{die, core}] = mask; }
  void name_fabric(std::string module) { fabric_name_ = std::move(module); }
  // A hold of a fabric port or an HBM: a slice on that resource's lane, in its die's process
  // (switch-level ports go to a "fabric" process).
  void link(const model::BandwidthServer& port, model::Tick start, model::Tick end);
  void write(const std::string& path) const;
  size_t size() const { return slices_.size(); }

 private:
  struct Slice {
    int die, core;
    model::Lane lane;
    std::string name;
    model::Tick start, end;
    model::SliceArgs args;  // bytes == 0: none
  };
  const model::GlobalMemory* gm_;
  std::map<int, std::string> die_names_;
  std::map<std::pair<int, int>, std::string> core_names_;
  std::map<std::pair<int, int>, unsigned> lane_masks_;
  std::string fabric_name_ = "fabric";
  std::vector<Slice> slices_;
  struct LinkSlice {
    const model::BandwidthServer* port;
    model::Tick start, end;
  };
  std::vector<LinkSlice> links_;
};

}  // namespace ascend
