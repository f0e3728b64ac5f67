// The mixed example's tiling: the cube's TCubeTiling and what the vector cores need, in one
// struct that the host writes into GM.
#pragma once
#include <cstdint>

#include "kernel_operator.h"

constexpr int32_t M = 256, N = 512, K = 256;  // C (M x N, fp32) = LeakyRelu(A x B + bias)
constexpr uint32_t BLOCK_DIM = 2;             // AI Cores: one AIC and two AIVs each

struct MatmulLeakyReluTiling {
  AscendC::TCubeTiling cube;  // each AIC's block of A x B + bias
  uint32_t tileRows;          // rows of the block an AIV takes into UB at a time
  float alpha;                // LeakyRelu's slope below 0
};
