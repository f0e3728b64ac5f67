// Host side of the alltoallv baseline: `--kernel alltoallv_dispatch` (the dispatch workload and
// its check) and the `moe.dispatch = alltoallv` step of `--kernel moe`.
#include "kernels/alltoallv/alltoallv_host.h"
#include "kernels/alltoallv/alltoallv_kernel.h"
#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_workload.h"
#include "kernels/kernel.h"
#include "models/errors.h"

namespace ascend {

namespace alltoallv {

const char* const kWindowFormula =
    "2 x ((K + shared) x BS x Align512(2H) + W x BS x min(K, L) x Align32(record))";

void validate(const dispatch::Attrs& a) {
  dispatch::validate(a);
  if (a.shared_expert_ranks > 0)
    throw SimError(kExitBadInput,
                   "alltoallv_dispatch: the baseline sends to MoE experts only; "
                   "--shared-expert-ranks must be 0");
  if (dispatch::compacts(a) || a.expert_scales || a.smooth_scales || a.elastic_world || a.tp != 1)
    throw SimError(kExitBadInput,
                   "alltoallv_dispatch: the baseline has none of the V3 inputs (2-D masks, special "
                   "experts, expert or smooth scales, elastic scale-down, tp = 2); use the fused "
                   "dispatch");
}

uint64_t window_needed(const dispatch::Attrs& a) {
  int l = a.experts / a.ep;
  return 2 * (dispatch::combine_area_bytes(a) +
              static_cast<uint64_t>(a.ep) * source_rows(a, l) * record_stride(a));
}

dispatch::Execution execute(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                            const std::vector<dispatch::RankInputs>& inputs) {
  const int ranks = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  alltoallv::validate(a);
  sim.require_window("alltoallv_dispatch", alltoallv::window_needed(a), kWindowFormula);
  dispatch::Execution ex;
  ex.buffer_num = a.buffer_num;
  ex.bufs.assign(1, std::vector<dispatch::RankBuffers>(ranks));
  std::vector<uint64_t> sorted(ranks);
  for (int r = 0; r < ranks; ++r) {
    ex.bufs[0][r] = dispatch::place_rank(sim, a, r, inputs[r], "alltoallv");
    sorted[r] =
        sim.alloc(r, "alltoallv.sorted", static_cast<uint64_t>(a.bs) * a.topk * record_stride(a));
  }
  ex.phases.assign(static_cast<size_t>(ranks) * cores * 5, 0);
  ex.record = &sim.run_kernel("alltoallv_dispatch", cores, [&](int rank) {
    return [&, rank] {
      const dispatch::RankBuffers& b = ex.bufs[0][rank];
      DeviceArgs args;
      dispatch::bind_tensors(args, b);
      args.sorted = reinterpret_cast<GM_ADDR>(sorted[rank]);
      args.attrs = a;
      args.buffer_num = a.buffer_num;
      args.active_tokens = inputs[rank].active_tokens(a);
      args.phase_ps = &ex.phases[static_cast<size_t>(rank) * cores * 5];
      common::run_device<KernelAlltoallvDispatch>(bf16, args);
    };
  });
  // The figures of dispatch, under this kernel's phase names (counts, sort, data, then waiting
  // for and regrouping what arrived).
  dispatch::add_figures(*ex.record, a, inputs, ex, 1,
                        {"counts_ns", "sort_ns", "data_ns", "wait_and_regroup_ns"});
  return ex;
}

}  // namespace alltoallv

namespace {

int dies(const Params& p) {
  return ep_ranks(p, 16);
}

class AlltoallvRun : public KernelRun {
 public:
  AlltoallvRun(const Params& p, int ranks)
      : p_(p),
        a_(dispatch::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")))),
        bf16_(dispatch::workload_of(p).bf16) {
    alltoallv::validate(a_);
    require_window(p, "alltoallv_dispatch", alltoallv::window_needed(a_),
                   alltoallv::kWindowFormula);
    dispatch::check_routing(p, a_);
  }

  void place(Simulation&) override { inputs_ = dispatch::make_inputs(p_, a_, bf16_, 1)[0]; }
  // GM placement and launch are one step of the baseline (alltoallv::execute, also moe's).
  void launch(Simulation& sim) override { ex_ = alltoallv::execute(sim, a_, bf16_, inputs_); }
  void dump(Simulation& sim, const std::string& dir) override {
    for (int r = 0; r < a_.ep; ++r)
      dispatch::dump(sim, a_, bf16_, inputs_[r], ex_.bufs[0][r], r,
                     dir + "/rank" + std::to_string(r));
  }
  std::string check(Simulation& sim, bool payload) override {
    std::vector<dispatch::RankOutputs> want = dispatch::golden(a_, bf16_, inputs_);
    for (int r = 0; r < a_.ep; ++r) {
      std::string diff = dispatch::compare(a_, want[r], sim, ex_.bufs[0][r], r, 0, payload);
      if (!diff.empty()) return diff;
    }
    return "";
  }
  std::string checked(bool payload) const override {
    return std::string(payload ? "every output" : "every id, count and triple (timing-only)") +
           " of every rank matches dispatch's golden reference (" + std::to_string(a_.ep) +
           " ranks)";
  }

 private:
  const Params& p_;
  dispatch::Attrs a_;
  bool bf16_;
  std::vector<dispatch::RankInputs> inputs_;
  dispatch::Execution ex_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<AlltoallvRun>(p, ranks);
}

void declare(Params&) {}  // the dispatch.* workload

}  // namespace

ASCEND_SIM_KERNEL(alltoallv_kernel_def, 40);

KernelDef alltoallv_kernel_def() {
  KernelDef k{"alltoallv_dispatch",
              "baseline: counts all-to-all, sort by expert, data all-to-all (dispatch's outputs)",
              declare, dies, plan};
  k.workload = "dispatch";
  k.shorthands = dispatch::workload_flags(false);
  k.inputs = true;
  k.dump_bytes = [](const Params& p, int dies) {
    const dispatch::Attrs a = dispatch::checked_attrs(p, dies);
    uint64_t sum = 0;
    for (int r = 0; r < dies; ++r) sum += dispatch::dispatch_rank_dump(a, r);
    return sum;
  };
  k.payload_bytes = [](const Params& p, int dies) { return dispatch::payload_bytes(p, dies, 1); };
  return k;
}

}  // namespace ascend
