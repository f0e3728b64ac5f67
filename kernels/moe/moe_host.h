// The round trip's strategies (`--kernel moe`): the dispatch implementations it can run.
#pragma once

#include <vector>

#include "kernels/common/strategy.h"
#include "kernels/dispatch/dispatch_host.h"

namespace ascend::moe {

// A dispatch implementation (moe.dispatch): one call on every rank, leaving dispatch's outputs
// (and its figures) for the experts and combine.
using DispatchStep = dispatch::Execution (*)(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                                             const std::vector<dispatch::RankInputs>& in,
                                             const common::Elastic& el);
const common::Strategies<DispatchStep>& dispatch_steps();  // fused, alltoallv

}  // namespace ascend::moe
