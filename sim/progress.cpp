#include "sim/progress.h"

#include <cstdio>
#include <cstdlib>

namespace ascend {

ProgressLine::ProgressLine(const model::Scheduler& sched)
    : sched_(sched), start_(std::chrono::steady_clock::now()), thread_([this] { loop(); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (shown_) std::fprintf(stderr, "\r%79s\r", "");
}

void ProgressLine::loop() {
  using namespace std::chrono;
  std::unique_lock<std::mutex> lock(m_);
  milliseconds after(2000);
  if (const char* env = std::getenv("ASCEND_SIM_PROGRESS_AFTER_MS"))
    after = milliseconds(std::atol(env));
  if (cv_.wait_for(lock, after, [this] { return stop_; })) return;
  do {
    double wall = duration<double>(steady_clock::now() - start_).count();
    uint64_t events = sched_.published_events();
    double sim_us = static_cast<double>(sched_.published_time()) / 1e6;
    std::fprintf(
        stderr, "\rascend-sim: %.1f us simulated, %.2f M events, %.0f s wall, %.2f M events/s ",
        sim_us, static_cast<double>(events) / 1e6, wall, static_cast<double>(events) / 1e6 / wall);
    std::fflush(stderr);
    shown_ = true;
  } while (!cv_.wait_for(lock, milliseconds(500), [this] { return stop_; }));
}

}  // namespace ascend
