// Running MoeDistributeDispatch on a simulation with given inputs (the CLI generates them; tests
// pass their own), and comparing a rank's device outputs with the golden reference.
#pragma once

#include <string>
#include <vector>

#include "kernels/dispatch/dispatch_golden.h"
#include "sim/simulation.h"

namespace ascend::dispatch {

struct RankBuffers {  // GM addresses of one rank's tensors for one call
  uint64_t x, ids, expand_x, scales, assist, token_nums, recv_counts, workspace;
};

struct Knobs {
  bool window_flip = true;
  int delay_rank = -1;  // this rank stalls before its local copy in the first call
  uint64_t delay_ps = 0;
};

struct Execution {
  KernelRecord* record = nullptr;
  std::vector<std::vector<RankBuffers>> bufs;  // [call][rank]
  std::vector<uint64_t> phases;                // [rank][core][5] timestamps, ps
  int buffer_num = 2;
};

// inputs[call][rank]: the calls run back to back in one launch, on every rank.
Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs);

// The first difference between a rank's outputs and the golden ones, or "". Without payload
// (a timing-only run) only ids, counts and triples are compared.
std::string compare(const Attrs& a, const RankOutputs& want, Simulation& sim, const RankBuffers& b,
                    int rank, int call, bool payload = true);

}  // namespace ascend::dispatch
