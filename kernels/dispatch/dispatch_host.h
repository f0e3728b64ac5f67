// Running MoeDistributeDispatch on a simulation with given inputs (the CLI generates them; tests
// pass their own), and comparing a rank's device outputs with the golden reference.
#pragma once

#include <array>
#include <random>
#include <string>
#include <vector>

#include "api/types.h"
#include "kernels/common/elastic.h"
#include "kernels/dispatch/dispatch_golden.h"
#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend::dispatch {

struct RankBuffers {  // GM addresses of one rank's tensors for one call (0: not given)
  uint64_t x, ids, expand_x, scales, assist, token_nums, recv_counts, workspace;
  uint64_t mask, expert_scales, smooth, elastic, expand_scales;  // V3
  uint64_t tp_recv_counts;                                       // tp = 2
};

struct Knobs {
  bool window_flip = true;
  int delay_rank = -1;  // this rank stalls before its local copy in the first call
  uint64_t delay_ps = 0;
};

struct Execution {
  KernelRecord* record = nullptr;
  std::vector<std::vector<RankBuffers>> bufs;               // [call][rank]
  std::vector<uint64_t> phases;                             // [rank][core][5] timestamps, ps
  std::vector<std::vector<std::vector<SendShare>>> shares;  // [call][rank][core]: send_plan
  int buffer_num = 2;
  // Ranks and dies: die_of[rank] runs that rank of the EP group; rank_of[die] is -1 for a dead
  // die, which runs nothing (identity on a healthy machine).
  std::vector<int> die_of, rank_of;
  common::Elastic elastic;
  std::vector<int32_t> elastic_info;  // given to every survivor when scaled down
};

// The workload's knobs that are not the operator's attributes: how inputs are generated, how
// calls are staged, and the faults (dispatch.*, fault.*).
struct Workload {
  bool bf16 = true;                 // token dtype: bf16, or fp16
  std::string routing = "uniform";  // uniform, balanced or zipf:ALPHA
  bool window_flip = true;          // consecutive calls alternate the window halves
  int calls = 1;                    // back-to-back calls in one launch
  int delay_rank = -1;              // a rank that stalls before its local copy in call 1
  double delay_us = 20;             // how long it stalls
  double special_weight = 1;        // routing weight of a special expert against a MoE expert's
  double mask_rate = 0.1;           // 2-D mask: share of false (token, k) flags
  int masked_tokens = 0;            // 2-D mask: tokens with every flag false
  std::string dead_ranks;           // e.g. 5,17 or 4-6
  bool scale_down = false;          // elastic scale-down of the dead ranks
  // Scaled down: run on the healthy machine first. Bound here; the stages every kernel shares
  // read it (kernels/registry.cpp) for each kernel that reads fault.*.
  bool compare_healthy = true;
};

// Declares the dispatch.* and fault.* parameters, each bound to its field of Attrs or Workload.
void declare_params(Params& p);
// The attributes from the dispatch.* parameters; `dies` the ranks the kernel runs on (EP x TP).
Attrs attrs_of(const Params& p, int dies, int cores);
Workload workload_of(const Params& p);
// The dies the family's kernels run on: the EP ranks (ep.world_size) x dispatch.tp.
int dies_of(const Params& p);
// fault.dead_ranks and fault.scale_down: the dead ranks and, scaled down, the survivors' tables;
// `a` becomes the attributes of the new EP group (W, S, E; L and BS unchanged, elasticInfo
// given). The documented limits are bad input (exit 2): tp = 1, L unchanged, a MoE rank and a rank
// per shared expert left. With tp = 2 dead ranks are refused (exit 2).
common::Elastic plan_elastic(const Params& p, Attrs& a);
// Expert ids by the routing (uniform, balanced or zipf:ALPHA) and random tokens.
std::vector<int32_t> route(const Attrs& a, const std::string& routing, int rank, std::mt19937& rng,
                           double special_weight = 1.0);
std::vector<uint16_t> random_tokens(const Attrs& a, bool bf16, std::mt19937& rng);
// --input DIR/rank{r}/: expert_ids, x, optional x_active_mask, and the V3 inputs the attributes
// ask for (bad files: status 2).
RankInputs read_inputs(const Attrs& a, bool bf16, const std::string& dir);
// Generated V3 inputs of one rank and call: the 2-D mask (dispatch.mask_rate, masked_tokens) and
// the expert scales (softmax of random logits); from their own seed stream.
void generate_v3(const Params& p, const Attrs& a, int rank, int call, RankInputs& in);
// Where rank r's tensors are dumped and read: DIR/rank{die} (the die, after a scale-down too).
std::string rank_leaf(const Execution& ex, int rank);
// Plan-stage checks of the dispatch workload, shared by the kernels that read it: the HCCL window
// dispatch's layout needs (named after `kernel`), and the routing of generated inputs.
void require_dispatch_window(const Params& p, const Attrs& a, const std::string& kernel);
void check_routing(const Params& p, const Attrs& a);
// inputs[call][rank], generated (dispatch.routing, sim.seed) or read (run.input_dir, from the
// dies of `el`'s ranks).
std::vector<std::vector<RankInputs>> make_inputs(const Params& p, const Attrs& a, bool bf16,
                                                 int calls, const common::Elastic& el = {});
// --dump: a rank's inputs and outputs as DIR/NAME.npy.
void dump(Simulation& sim, const Attrs& a, bool bf16, const RankInputs& in, const RankBuffers& b,
          int rank, const std::string& dir);

// GM placement of one rank's inputs and outputs, named KERNEL.tensor (dispatch and alltoallv
// fill the same tensors); the workspace is the caller's.
RankBuffers place_rank(Simulation& sim, const Attrs& a, int rank, const RankInputs& in,
                       const std::string& kernel, int die = -1);  // die -1: the rank's own
// The tensors of a rank's buffers as device arguments (dispatch's and alltoallv's DeviceArgs).
template <class Args>
void bind_tensors(Args& args, const RankBuffers& b) {
  args.x = reinterpret_cast<GM_ADDR>(b.x);
  args.expert_ids = reinterpret_cast<GM_ADDR>(b.ids);
  args.expand_x = reinterpret_cast<GM_ADDR>(b.expand_x);
  args.dynamic_scales = reinterpret_cast<GM_ADDR>(b.scales);
  args.assist_info = reinterpret_cast<GM_ADDR>(b.assist);
  args.expert_token_nums = reinterpret_cast<GM_ADDR>(b.token_nums);
  args.ep_recv_counts = reinterpret_cast<GM_ADDR>(b.recv_counts);
}

// The stages of dispatch::execute: every call's tensors on every rank, then the launch. Dead
// dies (`el`) run nothing; scaled down, the ranks of the new EP group run on their dies.
Execution place(Simulation& sim, const Attrs& a, const std::vector<std::vector<RankInputs>>& inputs,
                const common::Elastic& el = {});
void launch(Simulation& sim, const Attrs& a, bool bf16,
            const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs, Execution& ex);
// inputs[call][rank]: the calls run back to back in one launch, on every rank.
Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs,
                  const common::Elastic& el = {});
// The placement shared by the kernels that run on the EP group's ranks: each rank's die, each
// die's rank (-1: dead), from `el` over `dies` dies.
void map_ranks(int dies, int ranks, const common::Elastic& el, std::vector<int>& die_of,
               std::vector<int>& rank_of);
// Scaled down, a kernel is launched with the domain's attributes (W0, S and E before the
// scale-down) and reads the new ones from elasticInfo; otherwise `a` is left as it is.
void domain_attrs(Attrs& a, const common::Elastic& el);
// The figure `elastic` of a run with dead ranks: W0 and W, S, E after, the dead ranks, the
// tables (scaled down), and the latency against the healthy run's when there was one
// (`healthy_ps` > 0; `latency_ps` the scaled-down run's).
nlohmann::json elastic_figure(const common::Elastic& el, model::Tick healthy_ps = 0,
                              model::Tick latency_ps = 0);
// What a hang report adds when ranks are dead and not scaled down: which status blocks each
// survivor waits for, all of them a dead rank's.
std::string dead_rank_report(const Attrs& a, const common::Elastic& el);

// The names of the four phases a dispatch-shaped kernel stamps (Execution::phases), as they
// appear in its phase_max_over_cores figure.
using PhaseNames = std::array<const char*, 4>;
inline constexpr PhaseNames kPhaseNames = {"send_ns", "status_ns", "wait_ns", "local_copy_ns"};

// Per-rank bandwidth (published convention), phase times (named `phases`) and the run's settings
// as the record's figures.
void add_figures(KernelRecord& rec, const Attrs& a, const std::vector<RankInputs>& first_call,
                 const Execution& ex, int calls, const PhaseNames& phases = kPhaseNames);

// The first difference between a rank's outputs and the golden ones, or "". Without payload
// (a timing-only run) only ids, counts and triples are compared.
std::string compare(const Attrs& a, const RankOutputs& want, Simulation& sim, const RankBuffers& b,
                    int rank, int call, bool payload = true);

}  // namespace ascend::dispatch
