#include <algorithm>

#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/hardware_params.h"

namespace ascend {

KernelDef stream_kernel_def();
KernelDef pipeline_kernel_def();
KernelDef syncbug_kernel_def();
KernelDef ub_write_kernel_def();
KernelDef flag_ring_kernel_def();
KernelDef dispatch_kernel_def();
KernelDef combine_kernel_def();
KernelDef moe_kernel_def();
KernelDef alltoallv_kernel_def();
KernelDef ffn_worker_batching_kernel_def();

const std::vector<KernelDef>& all_kernels() {
  static const std::vector<KernelDef> kernels = {dispatch_kernel_def(),
                                                 combine_kernel_def(),
                                                 moe_kernel_def(),
                                                 alltoallv_kernel_def(),
                                                 ffn_worker_batching_kernel_def(),
                                                 pipeline_kernel_def(),
                                                 stream_kernel_def(),
                                                 syncbug_kernel_def(),
                                                 ub_write_kernel_def(),
                                                 flag_ring_kernel_def()};
  return kernels;
}

bool KernelDef::reads(const std::string& key) const {
  std::string group = key.substr(0, key.find('.'));
  if (group == "ep" || group == "sim" || group == "run" || group == workload || group == name)
    return true;
  return std::find(also_reads.begin(), also_reads.end(), group) != also_reads.end();
}

int single_die(const Params& p, const char* kernel) {
  if (p.integer("ep.world_size") > 1)
    throw SimError(kExitBadInput, std::string("kernel ") + kernel +
                                      " runs on one die; ep.world_size = " +
                                      p.text("ep.world_size") + " must be 1");
  return 1;
}

int ep_ranks(const Params& p, int default_ranks) {
  int64_t ep = p.integer("ep.world_size");
  return ep == 0 ? default_ranks : static_cast<int>(ep);
}

Params declare_all_params() {
  Params p;
  declare_hardware_params(p);
  ParamSpec run = choice_param("run.kernel", "dispatch", {}, "the kernel to run (--kernel)", "CLI");
  p.declare(text_param("run.dump_dir", "",
                       "--dump DIR: write the kernel's inputs and outputs as DIR/rank{r}/NAME.npy",
                       "CLI"));
  p.declare(text_param("run.input_dir", "",
                       "--input DIR: read the kernel's inputs from DIR/rank{r}/NAME.npy", "CLI"));
  p.declare(int_param(
      "run.check", "", "1", 0, 1,
      "compare every output with the golden reference after the run (--no-check: 0)", "CLI"));
  p.declare(int_param("run.racecheck", "", "0", 0, 1,
                      "check every core for pipes that touch the same UB or GM bytes with no "
                      "flag, barrier or queue ordering them (--racecheck: 1); exit 6 if any",
                      "CLI"));
  for (const KernelDef& k : all_kernels()) {
    run.choices.push_back(k.name);
    k.declare(p);
  }
  p.declare(run);
  return p;
}

const KernelDef& find_kernel(const std::string& name) {
  std::string known;
  for (const KernelDef& k : all_kernels()) {
    if (k.name == name) return k;
    known += (known.empty() ? "" : ", ") + k.name;
  }
  throw SimError(kExitBadInput, "unknown kernel '" + name + "'; known kernels: " + known);
}

}  // namespace ascend
