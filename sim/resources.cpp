// Whether a run fits this machine, checked before it is built: its kernel threads against the
// kernel's mapping limit, its memory against what the machine (or run.memory_MiB) offers.
#include "sim/simulation.h"

#include <fstream>
#include <limits>

#include "models/cluster.h"
#include "models/errors.h"
#include "sim/hardware_params.h"

namespace ascend {

using model::Tick;

void check_thread_budget(int threads) {
  // Each SC_THREAD stack is its own memory mapping plus a guard page.
  std::ifstream f("/proc/sys/vm/max_map_count");
  long limit = 0;
  if (!(f >> limit)) return;
  long needed = 2L * threads + 4096;
  if (needed > limit)
    throw SimError(kExitBadInput,
                   std::to_string(threads) + " kernel cores need about " + std::to_string(needed) +
                       " memory mappings but vm.max_map_count is " + std::to_string(limit) +
                       "; lower the die or core count, or raise the limit: sudo sysctl -w "
                       "vm.max_map_count=" +
                       std::to_string(needed * 2));
}

namespace {

// The memory a run may use, in bytes, and where the figure comes from.
std::pair<uint64_t, std::string> memory_available(const Params& p) {
  if (p.integer("run.memory_MiB") > 0)
    return {static_cast<uint64_t>(p.integer("run.memory_MiB")) << 20, "run.memory_MiB"};
  uint64_t avail = 0;
  std::string from = "MemAvailable in /proc/meminfo";
  std::ifstream mi("/proc/meminfo");
  for (std::string key; mi >> key;) {
    uint64_t kib = 0;
    mi >> kib;
    if (key == "MemAvailable:") avail = kib << 10;
    mi.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  std::ifstream cg("/sys/fs/cgroup/memory.max");
  uint64_t limit = 0;
  if (cg >> limit && limit > 0 && (avail == 0 || limit < avail))
    avail = limit, from = "the cgroup's memory.max";
  return {avail, from};
}
}  // namespace

void check_resources(const Params& p, int dies, bool aic, uint64_t payload_bytes) {
  model::ClusterConfig cfg = cluster_config(p, dies);
  cfg.build_aics = aic;
  const int cores = cfg.aiv_per_die + (aic ? cfg.aic_per_die : 0);
  check_thread_budget(dies * cores);
  const uint64_t per_die = model::Die::local_bytes(cfg) +
                           uint64_t{cfg.thread_stack_bytes} * static_cast<uint64_t>(cores);
  const uint64_t machine = static_cast<uint64_t>(dies) * per_die;
  const uint64_t payload = p.integer("sim.payload") ? payload_bytes : 0;
  const uint64_t need = machine + payload + (uint64_t{256} << 20);  // + the simulator itself
  const auto [have, from] = memory_available(p);
  if (have == 0 || need <= have) return;
  auto mib = [](uint64_t b) { return std::to_string(b >> 20) + " MiB"; };
  throw SimError(
      kExitBadInput,
      "this run needs about " + mib(need) + " of memory (" + std::to_string(dies) +
          " ranks: " + mib(machine) + " for the cores' stacks and local memories" +
          (payload ? ", " + mib(payload) + " for the payload" : std::string()) + ") but " +
          mib(have) + " are available (" + from + "); " +
          (payload ? "run it timing-only (--no-check --set sim.payload=0), with fewer ranks "
                     "(--ep) or a smaller workload"
                   : "run it with fewer ranks (--ep) or fewer cores (die.aiv_count)") +
          ", or set run.memory_MiB if the estimate is wrong for this machine");
}

}  // namespace ascend
