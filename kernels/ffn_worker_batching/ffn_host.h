// Running the attention-FFN deployment on a simulation: A attention ranks (dies [0, A)) and F FFN
// ranks (dies [A, A + F)) in one launch; each FFN rank runs layers x micro-batches batching calls.
#pragma once

#include <string>
#include <vector>

#include "kernels/ffn_worker_batching/ffn_golden.h"
#include "sim/simulation.h"

namespace ascend::ffn {

struct Knobs {
  std::vector<uint64_t> start_delay_ps;  // per attention rank
  uint64_t compute_ps = 0;
  int drop_rank = -1;
};

struct FfnBuffers {  // one FFN rank, one call
  uint64_t y, group_list, session_ids, micro_batch_ids, token_ids, expert_offsets, dynamic_scale,
      actual;
};

struct Execution {
  KernelRecord* record = nullptr;
  SortPlan plan;
  int cores = 0;
  std::vector<uint64_t> context, info, data, workspace;  // per FFN rank
  std::vector<std::vector<FfnBuffers>> out;              // [f][call]
  std::vector<uint64_t> stamps;                          // [f][call][kStamps]
  std::vector<uint64_t> gather_end;                      // [f][call][core]
  std::vector<uint64_t> landed;                          // [a][call]
};

Execution execute(Simulation& sim, const Attrs& a, const Inputs& in, const Knobs& knobs);
// The first difference between FFN rank f's outputs of a call and the golden ones, or "".
std::string compare(const Attrs& a, const Outputs& want, Simulation& sim, const FfnBuffers& b,
                    bool payload);
// Generated inputs: routing, masks, token rows.
Inputs generate(const Attrs& a, const std::string& routing, uint64_t seed, bool payload);

}  // namespace ascend::ffn
