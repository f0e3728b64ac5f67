// The matmul example's shape and its host tiling, shared by main.cpp and the tiling function.
#pragma once
#include <cstdint>

constexpr int32_t M = 256, N = 512, K = 256;  // C (M x N, fp32) = A (M x K) x B (K x N) + bias
constexpr uint32_t BLOCK_DIM = 2;             // AICs; each computes M x N / BLOCK_DIM of C

// Fills the TCubeTiling (its bytes) that the kernel reads from GM; false when the shape does
// not fit the cube's buffers.
bool GenerateTiling(uint8_t* tilingBuf);
