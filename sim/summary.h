// The console summary of a run, from its kernel records: the command line prints it once a run
// ends, the SDK after each launch (sdk/). One summary, so that a kernel reads the same whichever
// way it was run.
#pragma once

#include <deque>
#include <ostream>
#include <string>
#include <vector>

#include "sim/simulation.h"

namespace ascend {

struct SummaryInfo {
  std::string kernel;  // the run's name (--kernel, or the SDK's launch)
  std::string preset;
  int die_aiv = 0, die_aic = 0;  // the die's cores (die.aiv_count, die.aic_count)
  std::string check;             // the golden check's outcome; empty: not checked here
  std::string dump;              // the --dump line; empty: none
  std::string outputs;           // the files written, comma-separated; empty: none
};

// The launches of the run, in order (the SDK gives its last one).
using Launches = std::vector<const KernelRecord*>;
Launches launches_of(const std::deque<KernelRecord>& records);

// `sim`: the simulator's own figures (its wall time, events, memory).
void write_summary(std::ostream& os, const Launches& launches, const SummaryInfo& info,
                   const SimulatorFigures& sim);

}  // namespace ascend
