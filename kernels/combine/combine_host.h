// Running MoeDistributeCombine on a simulation with given inputs (the CLI generates or reads them;
// `moe` takes them from dispatch and the expert stand-in), comparing x_out with the golden
// reference, and the figures.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "kernels/combine/combine_golden.h"
#include "kernels/common/elastic.h"
#include "sim/params.h"
#include "sim/simulation.h"

namespace ascend::combine {

// Salt of the seed of generated expert scales and outputs: a stream apart from the routing's.
constexpr uint32_t kScaleSalt = 0x5bd1e995u;

struct RankBuffers {  // GM addresses of one rank's tensors for one call (0: not given)
  uint64_t expand_x, assist, send_counts, scales, shared_x, x_out;
  uint64_t ids, mask, ori_x, alpha1, alpha2, const_v, elastic;  // V3
  uint64_t tp_send_counts;                                      // tp = 2
};

struct Knobs {
  bool window_flip = true;
  int delay_rank = -1;  // this rank starts sending late in the first call
  uint64_t delay_ps = 0;
};

struct Execution {
  KernelRecord* record = nullptr;
  std::vector<std::vector<RankBuffers>> bufs;  // [call][rank]
  std::vector<uint64_t> phases;                // [rank][core][3] timestamps, ps
  std::vector<uint64_t> wait_ps;               // [rank][core] time in polls that found no token
  int buffer_num = 2;
  std::vector<int> die_of, rank_of;  // as dispatch's: a rank's die, a die's rank (-1: dead)
};

// The workload's knobs of combine that are not the operator's attributes (combine.*).
struct Workload {
  bool uniform_scales = false;  // generated weights: 1/K, or a softmax of random logits
  int delay_rank = -1;          // a rank that starts sending late in call 1
  double delay_us = 20;         // how late it starts
};

// Declares the combine.* parameters, each bound to its field of Attrs or Workload.
void declare_params(Params& p);
// The attributes: the dispatch.* workload plus combine.*; `dies` the ranks it runs on (EP x TP).
Attrs attrs_of(const Params& p, int dies, int cores);
Workload workload_of(const Params& p);
// Generated inputs of one call: the routing of dispatch.* (same seeds as dispatch), the rows and
// triples dispatch would produce for it, random expert outputs, weights and sharedExpertX.
std::vector<RankInputs> generate_inputs(const Params& p, const Attrs& a, bool bf16, int call);
// --input DIR/rank{r}/ (bad files: status 2).
RankInputs read_inputs(const Attrs& a, bool bf16, const std::string& dir, int rank);
// Weights of a rank's tokens: combine.expert_scales = random (positive, summing to 1 per token)
// or uniform (1/K).
std::vector<float> make_expert_scales(const Params& p, const Attrs& a, std::mt19937& rng);

// inputs[call][rank]: the calls run back to back in one launch, on every rank.
Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs,
                  const common::Elastic& el = {});
// V3 inputs of a rank's tokens for generated runs: oriX (copy and const experts) and the const
// experts' parameters (one table, the same on every rank).
std::shared_ptr<const ConstExperts> make_const_experts(const Params& p, const Attrs& a, bool bf16);
// What a hang report adds when ranks are dead and not scaled down: the tokens each survivor
// waits for, whose expert outputs a dead rank holds.
std::string dead_rank_report(const Attrs& a, const std::vector<RankInputs>& in,
                             const common::Elastic& el);

// Per-rank latency and bandwidth (published convention: active tokens x K x Align512(2H) /
// latency), phase times, per-core wait times and settings as the record's figures.
void add_figures(KernelRecord& rec, const Attrs& a, const std::vector<RankInputs>& first_call,
                 const Execution& ex, int calls);

// The first difference between a rank's x_out and the golden one, or "" (inactive rows must stay
// untouched, i.e. zero).
std::string compare(const Attrs& a, const std::vector<uint16_t>& want, Simulation& sim,
                    const RankBuffers& b, int rank, int call, int active);

// --dump: a rank's inputs (expand_x, assist_info_for_combine, ep_send_counts, expert_ids,
// expert_scales, shared_expert_x, x_active_mask) and x_out as DIR/NAME.npy.
void dump(Simulation& sim, const Attrs& a, bool bf16, const RankInputs& in, const RankBuffers& b,
          int rank, const std::string& dir);

// Checks every call and rank against the golden reference; throws SimError(kExitCheckFailed).
std::string check(const Attrs& a, bool bf16, const std::vector<std::vector<RankInputs>>& inputs,
                  Simulation& sim, const Execution& ex);

}  // namespace ascend::combine
