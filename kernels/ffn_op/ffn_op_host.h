// The FFN operator's host pieces that `ffn` and `moe` (moe.experts = ffn) share: the device
// program of one die over tensors in its GM, the tiling from parameters, and generated weights.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/ffn_op/ffn_op_tiling.h"
#include "sim/params.h"

namespace ascend::ffn_op {

// GM addresses of one die's tensors (0: absent; b1/b2 only with bias).
struct Device {
  uint64_t x = 0, w1 = 0, b1 = 0, w2 = 0, b2 = 0, expert_tokens = 0, y = 0, ws1 = 0, ws2 = 0;
  // Pseudo-quant: int8 weights, per-channel scales and offsets, the weight workspaces (the
  // Matmuls read these; w1/w2 are unused).
  uint64_t w1q = 0, scale1 = 0, offset1 = 0, w2q = 0, scale2 = 0, offset2 = 0, ww1 = 0, ww2 = 0;
  // Quant: x, w1, w2 are int8 and b1/b2 int32; the dequant scales (fp32 or uint64), the requant
  // scale and offset (fp32), and the uint64 scales the AIVs make from fp32 ones (deq_ws).
  uint64_t deq_scale1 = 0, deq_scale2 = 0, scale = 0, offset = 0, deq_ws = 0;
  uint64_t ws3 = 0;  // quant with bf16 y: mm2's int32 output, dequantized by the AIVs
};
// The device code every core of the mixed launch runs (it asks its kind).
std::function<void()> program(const Tiling& t, bool bf16, const Device& d);

Limits limits_of(const Params& p);  // the die's L1/L0/BT/UB sizes (cube.*, ub.size_KiB)
Activation activation_of(const std::string& name);
Split split_of(const std::string& name);

// The antiquant weight in the x dtype: (int8 + offset) * scale, each step rounded as the AIV's
// Cast, Add and Mul do (bits of fp16 or bf16).
uint16_t antiquant_weight(int8_t q, uint16_t scale, uint16_t offset, bool bf16);

// Workspace bytes of a tiling: workspace 1 (fp16, or fp32 for high precision) and 2 (the x dtype:
// int8 with quant); the uint64 deqScale workspace of quant with fp32 scales (0 otherwise).
uint64_t ws1_bytes(const Tiling& t);
uint64_t ws2_bytes(const Tiling& t);
uint64_t deq_ws_bytes(const Tiling& t);
uint64_t ws3_bytes(const Tiling& t);  // quant with bf16 y: [M, N2] int32 (0 otherwise)

// rows x cols of fp16 or bf16 bits, uniform in [-scale, scale], from `seed`.
std::vector<uint16_t> random_matrix(uint64_t rows, uint64_t cols, double scale, bool bf16,
                                    uint32_t seed);

}  // namespace ascend::ffn_op
