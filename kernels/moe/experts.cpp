#include "kernels/moe/experts.h"

#include "api/numeric.h"

namespace ascend::moe {

using AscendC::RoundMode;

float expert_alpha(int expert) {
  return 1.0f + static_cast<float>((expert * 37 + 11) % 29) / 64.0f;
}
float expert_beta(int expert) {
  return static_cast<float>((expert * 13) % 17 - 8) / 128.0f;
}

int global_expert(const dispatch::Attrs& a, int rank, int le) {
  if (dispatch::is_shared_rank(a, rank))
    return a.experts + rank / (a.shared_expert_ranks / a.shared_experts);
  return (rank - a.shared_expert_ranks) * dispatch::local_experts(a, rank) + le;
}

std::vector<uint16_t> run_experts(const dispatch::Attrs& a, bool is_bf16, bool identity, int rank,
                                  int rows, const uint8_t* expand_x, const float* scales,
                                  const int32_t* recv_counts, float share) {
  const int h = a.hidden, w = a.ep;
  const uint64_t row_bytes = dispatch::out_row_bytes(a);
  std::vector<uint16_t> y(static_cast<size_t>(rows) * h);
  const int l = dispatch::local_experts(a, rank);
  int row = 0;
  for (int le = 0; le < l; ++le) {
    int end = recv_counts[static_cast<size_t>(le) * w + w - 1];
    int expert = global_expert(a, rank, le);
    float alpha = identity ? 1.0f : expert_alpha(expert);
    float beta = identity ? 0.0f : expert_beta(expert);
    for (; row < end && row < rows; ++row) {
      const uint8_t* src = expand_x + row * row_bytes;
      for (int i = 0; i < h; ++i) {
        float x;
        if (a.quant) {
          x = static_cast<float>(static_cast<int8_t>(src[i])) * scales[row];
        } else {
          uint16_t bits = static_cast<uint16_t>(src[2 * i] | (src[2 * i + 1] << 8));
          x = is_bf16 ? AscendC::to_float(AscendC::bfloat16_t::from_bits(bits))
                      : AscendC::to_float(AscendC::half::from_bits(bits));
        }
        float v = (x * alpha + beta) * share;
        y[static_cast<size_t>(row) * h + i] = is_bf16
                                                  ? AscendC::to_bf16(v, RoundMode::CAST_RINT).bits
                                                  : AscendC::to_half(v, RoundMode::CAST_RINT).bits;
      }
    }
  }
  return y;
}

float tp_share(const dispatch::Attrs& a, int g) {
  if (a.tp == 1) return 1.0f;
  return dispatch::tp_rank(a, g) == 0 ? 0.75f : 0.25f;
}

}  // namespace ascend::moe
