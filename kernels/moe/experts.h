// The stand-in for the expert FFNs between dispatch and combine (`--kernel moe`): each received
// row is dequantized and put through a deterministic affine map that differs per expert, so that
// a row routed to the wrong expert (or the wrong slot) changes the result. Host-side arithmetic;
// its simulated time is the parameter moe.expert_us.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/dispatch/dispatch_tiling.h"

namespace ascend::moe {

// y = x * alpha(g) + beta(g) in fp32, rounded (RINT) to the token dtype; x = fp32(q) * scale
// for int8 rows, fp32(x) otherwise. identity: y = x.
float expert_alpha(int expert);
// The global id of rank `rank`'s local expert `le`: MoE experts [0, E), shared expert s is E + s.
int global_expert(const dispatch::Attrs& a, int rank, int le);
float expert_beta(int expert);

// The outputs of EP rank `rank`'s rows [0, rows): expand_x holds rows of out_row_bytes(a) (int8
// or the dtype), scales the dynamic scales (int8 only), recv_counts the cumulative
// ep_recv_counts. Global expert ids: MoE experts [0, E), shared expert s is E + s. `share`
// scales the result (fp32, before the rounding): a TP rank's part of the expert (tp_share).
std::vector<uint16_t> run_experts(const dispatch::Attrs& a, bool is_bf16, bool identity, int rank,
                                  int rows, const uint8_t* expand_x, const float* scales,
                                  const int32_t* recv_counts, float share = 1.0f);
// With tp = 2 each TP rank computes a partial result of every row it holds (its own and its
// peer's): the stand-in gives TP rank 0 0.75 of y and TP rank 1 0.25, so that combine's
// ReduceScatterV sums them to about y and a swapped partial row shows. 1 with tp = 1.
float tp_share(const dispatch::Attrs& a, int g);

}  // namespace ascend::moe
