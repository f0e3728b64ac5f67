// Running the alltoallv baseline dispatch: it fills the same output tensors as
// MoeDistributeDispatch (dispatch::RankBuffers), so the same golden check and combine follow it.
#pragma once

#include <vector>

#include "kernels/dispatch/dispatch_host.h"

namespace ascend::alltoallv {

// MoE experts only (no shared-expert ranks); throws SimError(kExitBadInput) otherwise.
void validate(const dispatch::Attrs& a);
// Data window it needs: 2 x (combine's area + W x BS x min(K, L) records).
uint64_t window_needed(const dispatch::Attrs& a);
extern const char* const kWindowFormula;  // window_needed, for the message

// One call on every rank; phases hold [rank][core][5] timestamps (start, counts sent, sorted,
// data sent, done).
dispatch::Execution execute(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                            const std::vector<dispatch::RankInputs>& inputs);

}  // namespace ascend::alltoallv
