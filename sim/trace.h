// trace.json in the Chrome trace event format (Perfetto, chrome://tracing): one process per die,
// one thread lane per core pipe (SCALAR, VECTOR, MTE2, MTE3, FLOWCTRL), one slice per
// instruction. Times are in microseconds with picosecond precision.
#pragma once

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
  std::vector<Slice> slices_;
  struct LinkSlice {
    const model::BandwidthServer* port;
    model::Tick start, end;
  };
  std::vector<LinkSlice> links_;
};

}  // namespace ascend
