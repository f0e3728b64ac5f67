// waves.vcd, written by the simulator itself. SystemC's sc_trace samples traced variables and its
// level updates would need events of their own, which would change the order of same-time model
// events; here every change is recorded as it happens (or, for a resource hold, when it is
// booked) and the file is written when the run ends, so tracing never touches the model's time.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/core.h"

namespace ascend {

class VcdWriter : public model::CoreObserver {
 public:
  // A variable `name` in the scope `scope` ("die0.core3"), `width` bits; returns its id.
  int add(const std::string& scope, const std::string& name, int width);
  // The variable takes `value` at time t (set) or changes by `delta` at time t (add).
  void set(int id, model::Tick t, int64_t value) { changes_.push_back({t, id, value, false}); }
  void add_delta(int id, model::Tick t, int64_t delta) { changes_.push_back({t, id, delta, true}); }

  // The core's waveform levels (those of model::kLevels its kind has: its pipes' busy and queue
  // depth, its flags), in the scope of its module (cluster.die0.aiv3).
  void add_core(int die, int core, const std::string& module, model::CoreKind kind);
  void slice(int, int, model::Lane, const std::string&, model::Tick, model::Tick,
             const model::SliceArgs*) override {}
  void level(int die, int core, int level, int delta, model::Tick at) override;

  // Writes the header, the initial values (all zero) and every change in time order.
  void write(const std::string& path) const;

 private:
  struct Var {
    std::string scope, name;
    int width;
  };
  struct Change {
    model::Tick t;
    int id;
    int64_t value;
    bool delta;
  };
  std::vector<Var> vars_;
  std::vector<Change> changes_;
  std::unordered_map<uint64_t, std::vector<int>> core_ids_;  // (die, core) -> id per level, or -1
};

}  // namespace ascend
