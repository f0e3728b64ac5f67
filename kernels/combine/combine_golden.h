// The golden reference of MoeDistributeCombine in plain C++ ([OLD]): for every
// active token of every rank, its expert outputs are found through the triples on the ranks that
// computed them and summed in fp32 in the documented order, with the kernel's rounding.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/combine/combine_tiling.h"

namespace ascend::combine {

// The const experts' parameters (V3), the same on every rank. Const expert i gives
// p1 x oriX + p2 x v[i] in fp32, kept in fp32 for the weighted sum (the operator's
// ProcessConstantExpert never rounds it to the token dtype): [OLD] p_j = alpha_j[i] (a scalar in
// the token dtype, widened to fp32);
// [NEW] (p1, p2) = softmax(a1, a2) with a_j = <alpha_j[i, :], oriX> (fp32 products summed left to
// right), computed as exp(-|a1 - a2|) = e, the larger's p = 1 / (1 + e), the other's e / (1 + e).
struct ConstExperts {
  std::vector<uint16_t> alpha1, alpha2;  // [OLD] (constNum,) raw bf16/fp16 bits
  std::vector<uint16_t> gate1, gate2;    // [NEW] (constNum, H) raw bf16/fp16 bits
  std::vector<uint16_t> v;               // (constNum, H) raw bf16/fp16 bits
  bool softmax() const { return !gate1.empty(); }
};
// [NEW]: the two gate values of const expert i for token row x.
void softmax_gates(const ConstExperts& c, int i, const uint16_t* x, int hidden, bool is_bf16,
                   float* p1, float* p2);

struct RankInputs {
  std::vector<uint16_t> expand_x;         // (rows, H) expert outputs, raw bf16/fp16 bits
  std::vector<int32_t> assist;            // (3 x rows) triples (srcRank, token, k)
  std::vector<int32_t> ep_send_counts;    // (tp x W x L) cumulative: the own W x L, then the peer's
  std::vector<int32_t> tp_send_counts;    // tp = 2: (2,) dispatch's tpRecvCounts, by TP rank
  std::vector<int32_t> ids;               // (BS, K) expert ids of this rank's tokens
  std::vector<float> expert_scales;       // (BS, K) weights
  std::vector<uint16_t> shared_expert_x;  // (BS, H) or empty
  int active = -1;                        // 1-D mask: the first N tokens are active (-1: all)
  // V3 inputs, empty when not given.
  std::vector<uint8_t> mask2d;                 // (BS, K) xActiveMask
  std::vector<uint16_t> ori_x;                 // (BS, H) oriX: copy and const experts
  std::shared_ptr<const ConstExperts> consts;  // const experts
  int active_tokens(const Attrs& a) const {
    return active >= 0 ? active : dispatch::active_tokens(a.d);
  }
  // Token t takes part (1-D prefix; with a 2-D mask, any flag set), and its slot k is a MoE
  // expert's whose flag is set (the slots the window fills).
  bool takes_part(const Attrs& a, int t) const;
  bool receives(const Attrs& a, int t, int k) const;
  // The own rows: the last of the own W x L counts (tp = 2: expandX holds the peer's after them).
  int rows_to_send() const {
    if (ep_send_counts.empty()) return 0;
    return ep_send_counts[ep_send_counts.size() / (tp_send_counts.empty() ? 1 : 2) - 1];
  }
};

// Where each (source rank, token, k) of an active token was computed: rank and expandX row.
// Throws SimError(kExitBadInput) when the triples do not cover every active (token, k) exactly
// once, or point outside the attributes (the kernel would wait forever or write out of bounds).
struct Origin {
  int rank = -1, row = -1;
};
// With tp = 2, `in` holds every host rank (EP x TP) and each EP group is located apart.
std::vector<std::vector<Origin>> locate(const Attrs& a, const std::vector<RankInputs>& in);

// tp = 2 ([OLD]): the inputs of EP group `tp` (its EP ranks in order) as a tp = 1 combine
// sees them after the ReduceScatterV: each own row i is CustomAdd(own row i, the TP peer's row
// nSend_peer + i) (bf16: fp32 add, RINT; fp16: one rounding of the exact sum), counts the own
// ones. Throws SimError(kExitBadInput) when tp_send_counts disagree with the peers' rows.
// `sums` false: the rows are left out (for locate).
std::vector<RankInputs> tp_group(const Attrs& a, bool is_bf16, const std::vector<RankInputs>& in,
                                 int tp, bool sums = true);
// One element of that sum.
uint16_t tp_add(uint16_t own, uint16_t peer, bool is_bf16);

// Communication quantization of one row (2.5): int8 values and one XType scale per block of 8,
// as the sender computes them; and the receiver's dequantized XType row.
void comm_quantize(const uint16_t* x, int hidden, bool is_bf16, int8_t* q, uint16_t* scales);
void comm_dequantize(const int8_t* q, const uint16_t* scales, int hidden, bool is_bf16,
                     uint16_t* out);

// Const expert `i`'s output for token row `x` (H fp32 values), as the receiver computes it.
std::vector<float> const_expert(const ConstExperts& c, int i, const uint16_t* x, int hidden,
                                bool is_bf16);

// x_out (active tokens x H raw bits) of every rank (tp = 2: every host rank, each EP group's
// combine after its ReduceScatterV); rows of tokens that take no part stay 0.
std::vector<std::vector<uint16_t>> golden(const Attrs& a, bool is_bf16,
                                          const std::vector<RankInputs>& in);

}  // namespace ascend::combine
