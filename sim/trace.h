// trace.json in the Chrome trace event format (Perfetto, chrome://tracing): one process per die,
// one thread lane per core pipe (SCALAR, VECTOR, MTE2, MTE3, FLOWCTRL), one slice per
// instruction, and a lane per fabric port or HBM that carried traffic. Processes and lanes are
// named by their modules' paths (cluster.die3, "cluster.die3.aiv17 MTE2",
// cluster.fabric.die3.ub_egress). Times are in microseconds with picosecond precision.
//
// Events are streamed to the file as they are recorded, through a buffer of at most
// kChunkBytes, so a long or wide trace needs no memory for its slices; a lane's name is written
// when its first slice is.
#pragma once

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "models/bandwidth_server.h"
#include "models/core.h"
#include "models/global_memory.h"

namespace ascend {

class TraceRecorder : public model::CoreObserver {
 public:
  static constexpr size_t kChunkBytes = 1 << 20;

  // Opens `path` (a bad-input error when it cannot be written). `gm` names the GM side of DMA
  // slices (its allocation) in their arguments.
  TraceRecorder(const std::string& path, const model::GlobalMemory* gm);
  ~TraceRecorder() override;
  void slice(int die, int core, model::Lane lane, const std::string& name, model::Tick start,
             model::Tick end, const model::SliceArgs* args) override;
  void level(int, int, int, int, model::Tick) override {}
  // The module paths that name a die's process, a core's lanes and the fabric's process (before
  // the first slice).
  void name_die(int die, std::string module) { die_names_[die] = std::move(module); }
  void name_core(int die, int core, std::string module) {
    core_names_[{die, core}] = std::move(module);
  }
  void name_fabric(std::string module) { fabric_name_ = std::move(module); }
  // Records only these lanes of the core (bit i: model::Lane i); by default all.
  void only_lanes(int die, int core, unsigned mask) { lane_masks_[{die, core}] = mask; }
  // A hold of a fabric port or an HBM: a slice on that resource's lane, in its die's process
  // (switch-level ports go to a "fabric" process).
  void link(const model::BandwidthServer& port, model::Tick start, model::Tick end);
  // Writes what is buffered and ends the file; later events are dropped.
  void close();

  uint64_t events() const { return events_; }
  // The most the buffer ever held (bounded by kChunkBytes plus one event).
  size_t peak_buffered_bytes() const { return peak_buffered_; }

 private:
  std::string die_name(int die) const;
  void name_process(int pid, const std::string& name);
  void name_lane(int pid, int tid, const std::string& name);
  void emit(const std::string& event_json);
  void flush();

  std::string path_;
  const model::GlobalMemory* gm_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  size_t peak_buffered_ = 0;
  uint64_t events_ = 0;
  std::set<int> processes_;
  std::set<std::pair<int, int>> lanes_;
  std::map<const model::BandwidthServer*, int> link_tid_;
  std::map<int, std::string> die_names_;
  std::map<std::pair<int, int>, std::string> core_names_;
  std::map<std::pair<int, int>, unsigned> lane_masks_;
  std::string fabric_name_ = "fabric";
};

}  // namespace ascend
