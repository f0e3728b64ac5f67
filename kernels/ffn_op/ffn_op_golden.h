// The FFN operator's golden reference, computed on the host from the same inputs: per expert,
// mm1 as a sequential fp32 sum over K in ascending order from 0 or the bias (the order the
// modelled Matmul accumulates in L0C: Mmad after Mmad over the K blocks, each in ascending k; the
// hardware's order inside one Mmad is not documented), the activation as the same vector
// operations in the same element type with the same rounding, then mm2 the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/ffn_op/ffn_op_tiling.h"

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

// The quant template's inputs (t.quant): int8 x [M, K1] and weights, int32 biases (or nullptr),
// the dequantization scales as the fp32 values the FIXPIPE reads (deq_scale1 [E, N1],
// deq_scale2 [E, N2]: the fp32 given, or the low 32 bits of the uint64 given), the requant
// scale ([E], or [E, K2] per channel) and offset [E] in fp32.
struct QuantGoldenInputs {
  const int8_t* x;
  const int8_t* w1;
  const int8_t* w2;
  const int32_t* b1;
  const int32_t* b2;
  const float* deq_scale1;
  const float* deq_scale2;
  const float* scale;
  const float* offset;
  const std::vector<int64_t>* expert_tokens;
};
// y [M, N2] as fp16 bits (bf16 bits with t.quant_bf16: deq scales given in bf16, their values
// here; the dequant on the AIVs in fp32, the activation and the requant in fp32, see the .cpp).
// mm1 and mm2: an exact int32 sum over K from the bias (wrapping, as
// L0C); the dequantization as the FIXPIPE is modelled: float(acc) (nearest even) times the fp32
// scale, one fp32 rounding, then one rounding to fp16; the activation in fp16 as the other
// templates; the requant as the AIVs do it: Muls by the fp16-rounded scale (or Mul by the
// per-channel scale cast to fp16), Adds the fp16-rounded offset, Cast to int8 with
// t.quant_round (saturating).
std::vector<uint16_t> quant_golden(const Tiling& t, const QuantGoldenInputs& in);

}  // namespace ascend::ffn_op
