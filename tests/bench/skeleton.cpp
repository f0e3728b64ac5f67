// The reference for the simulator's event rate: raw SystemC, N SC_THREADs that do nothing but
// timed waits of varied small lengths (each one a wake-up), on stacks the size of ascend-sim's
// kernel threads. tests/bench/targets.sh runs it beside ascend-sim with the same thread count and
// a comparable number of wake-ups.
//   bench_skeleton THREADS WAKEUPS [STACK_KiB]   prints "wakeups_per_s <rate>"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

namespace {

class Worker : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Worker);
  Worker(const sc_core::sc_module_name& name, uint64_t seed, uint64_t waits, size_t stack)
      : sc_core::sc_module(name), state_(seed * 2654435761u + 1), waits_(waits) {
    SC_THREAD(run);
    set_stack_size(stack);
  }

 private:
  void run() {
    for (uint64_t i = 0; i < waits_; ++i) {
      state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
      sc_core::wait(sc_core::sc_time::from_value(1000 + (state_ >> 40) % 4000));  // 1-5 ns
    }
  }
  uint64_t state_;
  uint64_t waits_;
};

}  // namespace

int sc_main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_skeleton THREADS WAKEUPS [STACK_KiB]\n");
    return 2;
  }
  int threads = std::atoi(argv[1]);
  uint64_t wakeups = std::strtoull(argv[2], nullptr, 10);
  size_t stack = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 128) * 1024;
  uint64_t per = std::max<uint64_t>(1, wakeups / static_cast<uint64_t>(threads));
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i)
    workers.push_back(std::make_unique<Worker>(("w" + std::to_string(i)).c_str(), i, per, stack));
  auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("wakeups_per_s %.0f\nwakeups %llu\nwall_s %.3f\n",
              static_cast<double>(per * threads) / wall,
              static_cast<unsigned long long>(per * threads), wall);
  return 0;
}
