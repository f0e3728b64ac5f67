// The FFN operator's golden reference, computed on the host from the same inputs: per expert,
// mm1 as a sequential fp32 sum over K in ascending order from 0 or the bias (the order the
// modelled Matmul accumulates in L0C: Mmad after Mmad over the K blocks, each in ascending k; the
// hardware's order inside one Mmad is not documented), the activation as the same vector
// operations in the same element type with the same rounding, then mm2 the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/ffn/ffn_tiling.h"

namespace ascend::ffn_op {

struct GoldenInputs {
  const void* x;    // [M, K1] of T
  const void* w1;   // [E, K1, N1]
  const void* w2;   // [E, K2, N2]
  const float* b1;  // [E, N1] or nullptr
  const float* b2;  // [E, N2] or nullptr
  const std::vector<int64_t>* expert_tokens;
};

// y [M, N2] as raw T (2 bytes per element): T is fp16 or bf16 (`bf16`).
std::vector<uint16_t> golden(const Tiling& t, bool bf16, const GoldenInputs& in);

}  // namespace ascend::ffn_op
