// A progress line on stderr for long runs: simulated time, events, wall time and event rate,
// rewritten in place twice a second once a run has taken more than two seconds. It runs on its
// own thread and only reads what the scheduler publishes, so it cannot change the run. The
// environment variable ASCEND_SIM_PROGRESS_AFTER_MS sets the two seconds (the tests use 0).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "models/scheduler.h"

namespace ascend {

class ProgressLine {
 public:
  explicit ProgressLine(const model::Scheduler& sched);
  ~ProgressLine();  // stops and clears the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void loop();
  const model::Scheduler& sched_;
  std::chrono::steady_clock::time_point start_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool shown_ = false;
  std::thread thread_;
};

}  // namespace ascend
