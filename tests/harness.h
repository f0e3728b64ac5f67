// Test support. SystemC elaborates once per process, so:
//  - Bench runs kernel bodies on one simulation (one Bench per test; ctest runs each test in its
//    own process through gtest_discover_tests);
//  - run_scenario runs a whole CLI-equivalent scenario in a forked child, so one test can compare
//    several runs.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/errors.h"
#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend::test {

// The parameters the CLI would build: hardware, every kernel's, preset a3, then `sets` (k=v).
Params make_params(const std::vector<std::string>& sets = {});

class Bench {
 public:
  explicit Bench(const std::vector<std::string>& sets = {}, int dies = 1, RunOptions opts = {});
  Simulation& sim() { return *sim_; }
  model::Cluster& cluster() { return sim_->cluster(); }
  const model::CoreTiming& timing() { return cluster().config().core; }
  uint64_t alloc(uint64_t bytes, int die = 0) { return sim_->alloc(die, "test", bytes); }
  // Runs body on cores [0, cores) of every die.
  KernelRecord& run(int cores, const std::function<void()>& body);
  // Runs body on the cores of `shape` (AICs too: construct the Bench with RunOptions::aic).
  KernelRecord& run(const LaunchShape& shape, const std::function<void()>& body);
  // Runs body and returns the SimError it ends with (fails the test if it ends well).
  SimError run_expecting_error(int cores, const std::function<void()>& body);
  SimError run_expecting_error(const LaunchShape& shape, const std::function<void()>& body);
  // Calls probe at absolute time t during the next run (for tight timing gates).
  void at(model::Tick t, std::function<void()> probe);

  Params params;

 private:
  std::unique_ptr<Simulation> sim_;
};

struct Outcome {
  int exit_code = -1;
  nlohmann::json stats;  // stats.json content when exit_code == 0
  std::string message;   // the error message otherwise
  double latency_ns() const { return stats["kernels"].back()["latency_ns"].get<double>(); }
  const nlohmann::json& kernel() const { return stats["kernels"].back(); }
};
Outcome run_scenario(const std::string& kernel, const std::vector<std::string>& sets,
                     const RunOptions& opts = {});
// A scenario that must pass its --check (exit 0); the failure names the kernel and the sets.
void expect_check(const std::string& kernel, const std::vector<std::string>& sets);

// A scenario's settings with more after them.
// Run options with the die's AICs present (for cube and mixed launches).
inline RunOptions with_aic() {
  RunOptions o;
  o.aic = true;
  return o;
}

inline std::vector<std::string> with(std::vector<std::string> sets, const std::string& more) {
  sets.push_back(more);
  return sets;
}
inline std::vector<std::string> with(std::vector<std::string> sets,
                                     const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}
// with(sets, {"a=1", "b=2"}): a braced list picks this one, not a string or a vector.
inline std::vector<std::string> with(std::vector<std::string> sets,
                                     std::initializer_list<std::string> more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

// Runs f in a forked child (which may build its own Bench) and returns the JSON it produced; a
// SimError in the child comes back as {"exit_code": code, "message": what}.
nlohmann::json in_child(const std::function<nlohmann::json()>& f);

}  // namespace ascend::test
