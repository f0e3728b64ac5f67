// Host side of the alltoallv baseline: `--kernel alltoallv_dispatch` (the dispatch workload and
// its check) and the `moe.dispatch = alltoallv` step of `--kernel moe`.
#include "kernels/alltoallv/alltoallv_host.h"
#include "kernels/alltoallv/alltoallv_kernel.h"
#include "kernels/common/host.h"
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
    const dispatch::RankInputs& in = inputs[r];
    dispatch::RankBuffers& b = ex.bufs[0][r];
    int rows = dispatch::capacity_rows(a, r), l = dispatch::local_experts(a, r);
    b.x = sim.alloc(r, "alltoallv.x", static_cast<uint64_t>(a.bs) * a.hidden * 2);
    b.ids = sim.alloc(r, "alltoallv.expert_ids", in.ids.size() * 4);
    b.expand_x = sim.alloc(r, "alltoallv.expand_x", rows * dispatch::out_row_bytes(a));
    b.scales = sim.alloc(r, "alltoallv.dynamic_scales", rows * 4ull);
    b.assist = sim.alloc(r, "alltoallv.assist_info_for_combine", rows * 128ull * 4);
    b.token_nums = sim.alloc(r, "alltoallv.expert_token_nums", l * 8ull);
    b.recv_counts = sim.alloc(r, "alltoallv.ep_recv_counts", static_cast<uint64_t>(a.ep) * l * 4);
    b.workspace = 0;
    sorted[r] =
        sim.alloc(r, "alltoallv.sorted", static_cast<uint64_t>(a.bs) * a.topk * record_stride(a));
    if (!in.x.empty()) sim.write(b.x, in.x.data(), in.x.size() * 2);
    sim.write(b.ids, in.ids.data(), in.ids.size() * 4);
  }
  ex.phases.assign(static_cast<size_t>(ranks) * cores * 5, 0);
  ex.record = &sim.run_kernel("alltoallv_dispatch", cores, [&](int rank) {
    return [&, rank] {
      const dispatch::RankBuffers& b = ex.bufs[0][rank];
      DeviceArgs args;
      args.x = reinterpret_cast<GM_ADDR>(b.x);
      args.expert_ids = reinterpret_cast<GM_ADDR>(b.ids);
      args.expand_x = reinterpret_cast<GM_ADDR>(b.expand_x);
      args.dynamic_scales = reinterpret_cast<GM_ADDR>(b.scales);
      args.assist_info = reinterpret_cast<GM_ADDR>(b.assist);
      args.expert_token_nums = reinterpret_cast<GM_ADDR>(b.token_nums);
      args.ep_recv_counts = reinterpret_cast<GM_ADDR>(b.recv_counts);
      args.sorted = reinterpret_cast<GM_ADDR>(sorted[rank]);
      args.attrs = a;
      args.buffer_num = a.buffer_num;
      args.active_tokens = inputs[rank].active_tokens(a);
      args.phase_ps = &ex.phases[static_cast<size_t>(rank) * cores * 5];
      if (bf16) {
        KernelAlltoallvDispatch<AscendC::bfloat16_t> k;
        k.Init(args);
        k.Process();
      } else {
        KernelAlltoallvDispatch<AscendC::half> k;
        k.Init(args);
        k.Process();
      }
    };
  });
  // The figures of dispatch, with this kernel's phase names.
  dispatch::add_figures(*ex.record, a, inputs, ex, 1);
  nlohmann::json& ph = ex.record->extra["phase_max_over_cores"];
  nlohmann::json renamed = {{"counts_ns", ph["send_ns"]},
                            {"sort_ns", ph["status_ns"]},
                            {"data_ns", ph["wait_ns"]},
                            {"wait_and_regroup_ns", ph["local_copy_ns"]}};
  ph = renamed;
  return ex;
}

}  // namespace alltoallv

namespace {

int dies(const Params& p) {
  return ep_ranks(p, 16);
}

void plan(const Params& p, int ranks) {
  dispatch::Attrs a = dispatch::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")));
  alltoallv::validate(a);
  require_window(p, "alltoallv_dispatch", alltoallv::window_needed(a), alltoallv::kWindowFormula);
  if (p.text("run.input_dir").empty())  // generated inputs: the routing must parse
    common::Routing("dispatch.routing", p.text("dispatch.routing"), a.experts);
}

std::string run(Simulation& sim, const Params& p) {
  const int ranks = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  plan(p, ranks);
  dispatch::Attrs a = dispatch::attrs_of(p, ranks, cores);
  const bool bf16 = p.text("dispatch.dtype") == "bf16";
  const bool payload = p.integer("sim.payload") != 0;
  std::vector<dispatch::RankInputs> inputs = dispatch::make_inputs(p, a, bf16, 1)[0];
  dispatch::Execution ex = alltoallv::execute(sim, a, bf16, inputs);
  const std::string dump_dir = p.text("run.dump_dir");
  if (!dump_dir.empty())
    for (int r = 0; r < ranks; ++r)
      dispatch::dump(sim, a, bf16, inputs[r], ex.bufs[0][r], r,
                     dump_dir + "/rank" + std::to_string(r));
  if (p.integer("run.check") == 0) return "not checked (run.check = 0)";
  std::vector<dispatch::RankOutputs> want = dispatch::golden(a, bf16, inputs);
  for (int r = 0; r < ranks; ++r) {
    std::string diff = dispatch::compare(a, want[r], sim, ex.bufs[0][r], r, 0, payload);
    if (!diff.empty()) throw SimError(kExitCheckFailed, "alltoallv_dispatch: " + diff);
  }
  return std::string(payload ? "every output" : "every id, count and triple (timing-only)") +
         " of every rank matches dispatch's golden reference (" + std::to_string(ranks) + " ranks)";
}

void declare(Params&) {}  // the dispatch.* workload

}  // namespace

KernelDef alltoallv_kernel_def() {
  return {"alltoallv_dispatch",
          "baseline: counts all-to-all, sort by expert, data all-to-all (dispatch's outputs)",
          declare,
          run,
          dies,
          plan};
}

}  // namespace ascend
