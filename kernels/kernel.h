// What the CLI and tests know of a kernel: its name, the parameters it declares, and its host
// side, which validates its attributes, places inputs in GM, launches the device code on the
// simulation, then checks every output against the kernel's golden reference.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend {

struct KernelDef {
  std::string name;
  std::string summary;
  void (*declare)(Params&);
  // Returns a one-line summary of the check; throws SimError(kExitCheckFailed) on a mismatch.
  std::string (*run)(Simulation&, const Params&);
  int (*dies)(const Params&);  // ranks the kernel runs on
  // Prefix of the parameters the workload shorthands (--bs, --hidden, ...) set; "" for a kernel
  // that has no such workload (a shorthand is then bad input).
  std::string workload = "";
  // Other parameter groups the kernel reads (besides its workload, its own name and ep, sim, run):
  // a shorthand for another kernel's parameter is bad input, not silently ignored.
  std::vector<std::string> also_reads = {};
  bool reads(const std::string& key) const;
  // What the registry adds (registry.cpp): whether --dump (run.dump_dir) writes anything and
  // whether --input (run.input_dir) is read; a kernel without them rejects the flags (exit 2).
  // dump_bytes estimates what --dump writes, checked against run.dump_max_MiB before the run.
  bool dumps = false;
  bool inputs = false;
  uint64_t (*dump_bytes)(const Params&, int dies) = nullptr;
};

const std::vector<KernelDef>& all_kernels();
// dies() of a kernel that runs on one die: ep.world_size must be 1 (never silently ignored).
int single_die(const Params& p, const char* kernel);
// dies() of a kernel that runs on every rank of the EP group (ep.world_size, or the kernel's
// default when it is 0).
int ep_ranks(const Params& p, int default_ranks);
// Every parameter a run can have: hardware and simulator, run.kernel, and each kernel's own.
Params declare_all_params();
const KernelDef& find_kernel(const std::string& name);
// The parameter groups (key prefixes before the '.') that some kernel declares, and whether a
// key of such a group is read by none but other kernels (a --set of it does nothing to `k`).
const std::set<std::string>& kernel_groups();
bool belongs_to_other_kernel(const KernelDef& k, const std::string& key);

}  // namespace ascend
