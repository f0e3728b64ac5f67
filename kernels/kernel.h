// What the CLI and tests know of a kernel: its name, the parameters and CLI flags it declares, and
// its host side in stages. plan: the attributes from the parameters, validated with no SystemC
// object built (a bad attribute at EP 768 fails in milliseconds), giving a KernelRun; then, on a
// Simulation: place the inputs in GM, launch the device code, figures, dump, check every output
// against the kernel's golden reference. run_stages is the one skeleton that calls them.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend {

// A CLI flag the kernel reads: --flag VALUE is --set key=VALUE.
struct Shorthand {
  std::string flag, key, help;
};
// --seed (sim.seed): the seed of a kernel's generated inputs.
Shorthand seed_flag();

// A planned run of a kernel: its validated attributes and the stages after the plan.
class KernelRun {
 public:
  virtual ~KernelRun() = default;
  virtual void place(Simulation&) {}     // the inputs, generated or read, into GM
  virtual void launch(Simulation&) = 0;  // the device code (one or more launches)
  virtual void figures(Simulation&) {}   // kernel figures into the launch records
  virtual void dump(Simulation&, const std::string& dir) { (void)dir; }  // --dump DIR
  // The first output that differs from the golden reference, or "". Without payload (a
  // timing-only run) hidden states were not moved and are not compared.
  virtual std::string check(Simulation&, bool payload) = 0;
  virtual std::string checked(bool payload) const = 0;  // what a passing check covered
  // What the kernel can add to a hang report (a dead rank's missing flags), or "".
  virtual std::string stuck() const { return ""; }
  // Scaled down after a fault: the same kernel's latency on the healthy machine, for the figures
  // (called before `figures`).
  virtual void healthy_latency(model::Tick) {}
};

struct KernelDef {
  std::string name;
  std::string summary;
  void (*declare)(Params&);
  int (*dies)(const Params&);  // ranks the kernel runs on
  // The plan stage: the run's attributes from the parameters alone; throws
  // SimError(kExitBadInput) naming an attribute outside its limits (or a window too small).
  std::unique_ptr<KernelRun> (*plan)(const Params&, int dies);
  // Prefix of the workload parameters, shown by --list-kernels ("" for none).
  std::string workload = "";
  // The kernel's own CLI flags; any other kernel's flag is bad input for it.
  std::vector<Shorthand> shorthands = {};
  // Other parameter groups the kernel reads (besides its workload, its own name and ep, sim, run):
  // --list-params --kernel shows them, and a --set of a group it does not read is warned about.
  std::vector<std::string> also_reads = {};
  bool reads(const std::string& key) const;
  // Whether --input (run.input_dir) is read, and an estimate of what --dump (run.dump_dir)
  // writes, checked against run.dump_max_MiB before the run (nullptr: the kernel dumps nothing);
  // a kernel without them rejects the flags (exit 2). `dumps` is set by the list from dump_bytes.
  bool inputs = false;
  uint64_t (*dump_bytes)(const Params&, int dies) = nullptr;
  bool dumps = false;
  // The host memory its tensors take with sim.payload = 1 (an estimate, for the up-front check of
  // check_resources); nullptr: small.
  uint64_t (*payload_bytes)(const Params&, int dies) = nullptr;
  // Whether a run of the kernel uses the cube cores: the dies then get their AICs
  // (die.aic_count). nullptr: never.
  bool (*cube)(const Params&) = nullptr;
  bool uses_cube(const Params& p) const { return cube && cube(p); }
};

// A kernel registers itself in its own folder: ASCEND_SIM_KERNEL(make, rank) at namespace scope
// of one of its .cpp files names the function that returns its KernelDef. The build collects
// every registration under kernels/ (cmake/kernel_list.cmake) into the list all_kernels()
// returns, ordered by rank (--list-kernels, run.kernel's choices); adding a kernel touches no
// shared file.
#define ASCEND_SIM_KERNEL(make, rank) KernelDef make()

// Every kernel, in rank order.
const std::vector<KernelDef>& all_kernels();
// The stages after the plan, the same for every kernel: place, launch, figures, dump (with
// run.dump_dir), check (unless run.check = 0). Returns the check's one-line summary; a mismatch
// is SimError(kExitCheckFailed) "NAME: first difference". A hang gets the kernel's own report
// (KernelRun::stuck) appended. With ranks scaled down after a fault (fault.scale_down,
// fault.compare_healthy) the kernel first runs on the healthy machine, its launches named
// "healthy:NAME", for the latency against it.
std::string run_stages(const KernelDef& k, KernelRun& run, Simulation& sim, const Params& p);
// dies() of a kernel that runs on one die: ep.world_size must be 1 (never silently ignored).
int single_die(const Params& p, const char* kernel);
// dies() of a kernel that runs on every rank of the EP group (ep.world_size, or the kernel's
// default when it is 0).
int ep_ranks(const Params& p, int default_ranks);
// The plan stage's check of the HCCL data window (hccl.buffsize_MB) against a layout's need.
void require_window(const Params& p, const std::string& kernel, uint64_t needed,
                    const std::string& formula);
// Every parameter a run can have: hardware and simulator, run.kernel, and each kernel's own.
Params declare_all_params();
const KernelDef& find_kernel(const std::string& name);
// The parameter groups (key prefixes before the '.') that some kernel declares, and whether a
// key of such a group is read by none but other kernels (a --set of it does nothing to `k`).
const std::set<std::string>& kernel_groups();
bool belongs_to_other_kernel(const KernelDef& k, const std::string& key);

}  // namespace ascend
