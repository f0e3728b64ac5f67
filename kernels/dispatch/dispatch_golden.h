// The golden reference of MoeDistributeDispatch in plain C++: every output of every rank from the
// inputs, following [OLD] (docs/sources.md: row order, triples, cumulative
// counts, quantization with the kernel's exact rounding chain).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/dispatch/dispatch_tiling.h"

namespace ascend::dispatch {

struct RankInputs {
  std::vector<uint16_t> x;   // (BS, H) raw bf16 or fp16 bits (empty in a timing-only run)
  std::vector<int32_t> ids;  // (BS, K)
  int active = -1;           // 1-D mask: the first `active` tokens are active (-1: the attrs')
  // V3 inputs, empty when not given.
  std::vector<uint8_t> mask2d;       // (BS, K) xActiveMask, 0 or 1
  std::vector<float> expert_scales;  // (BS, K) [NEW], carried through as expandScales
  // (sharedExpertNum + E, H) smooth scales: one table, the same on every rank.
  std::shared_ptr<const std::vector<float>> smooth;
  int active_tokens(const Attrs& a) const {
    return active >= 0 ? active : dispatch::active_tokens(a);
  }
  // Entry (t, k) goes out: its token is active, its 2-D flag is set and its expert is a MoE one.
  bool sends(const Attrs& a, int t, int k) const;
  // The tokens that take part, in order: the 1-D prefix, or those with any 2-D flag set.
  std::vector<int> tokens(const Attrs& a) const;
};

struct RankOutputs {
  // Only the rows the kernel defines (rows <= A); the device tensors have A rows.
  int rows = 0;
  std::vector<uint8_t> expand_x;           // (rows, H) x-dtype or int8, row-major bytes
  std::vector<float> dynamic_scales;       // (rows,) int8 only
  std::vector<int32_t> assist_info;        // (rows * 3,) the triples
  std::vector<int64_t> expert_token_nums;  // (L,)
  std::vector<int32_t> ep_recv_counts;     // (W * L,) cumulative
  std::vector<float> expand_scales;        // (rows,) [NEW]: expertScales[t, k], 1 for shared rows
  // tp = 2: expand_x, dynamic_scales and ep_recv_counts continue with the TP peer's `peer_rows`
  // rows and W x L counts; tp_recv_counts = {own, peer} by TP rank.
  int peer_rows = 0;
  std::vector<int32_t> tp_recv_counts;
};

// bf16 (is_bf16) or fp16 token -> int8 row and its scale, as the kernel computes them; `smooth`
// (H floats, or nullptr) multiplies the token in fp32 first.
void quantize_row(const uint16_t* x, int hidden, bool is_bf16, int8_t* q, float* scale,
                  const float* smooth = nullptr);

std::vector<RankOutputs> golden(const Attrs& a, bool is_bf16, const std::vector<RankInputs>& in);

}  // namespace ascend::dispatch
