// FfnWorkerBatching (attention-FFN disaggregation): attributes, the ScheduleContext byte layout,
// buffer sizes and the host-side tiling (core split, sort plan) as pure functions.
// Semantics: the operator's document ([FWB-API], docs/sources.md).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "kernels/common/split.h"

namespace ascend {
class Params;
}

namespace ascend::ffn {

constexpr int32_t kMaskId = 1000000;    // an entry with id >= this is masked (dropped)
constexpr int32_t kPadId = 2147483647;  // INT_MAX padding (and the value RECV resets ids to)
constexpr int kMaxSessions = 1024, kMaxMicroBatches = 64, kMaxSelected = 64;

// ScheduleContext (1024 B, packed), byte offsets as in the document.
namespace ctx {
constexpr uint64_t kBytes = 1024;
constexpr uint64_t kSessionNum = 0, kMicroBatchNum = 4, kMicroBatchSize = 8,
                   kSelectedExpertNum = 12, kExpertNum = 16, kAttnToFfnTokenSize = 20,
                   kFfnToAttnTokenSize = 24, kScheduleMode = 28;
constexpr uint64_t kRunFlag = 128;
constexpr uint64_t kAttnArea = 256;  // AttentionArea (not used by the FFN side)
constexpr uint64_t kTokenInfoBuf = 384, kTokenInfoBufSize = 392, kTokenDataBuf = 400,
                   kTokenDataBufSize = 408, kPollingIndex = 416;
constexpr uint64_t kLayerIdsBuf = 512, kLayerIdsBufSize = 520, kSessionIdsBuf = 528,
                   kSessionIdsBufSize = 536, kMicroBatchIdsBuf = 544, kMicroBatchIdsBufSize = 552,
                   kExpertIdsBuf = 560, kExpertIdsBufSize = 568, kOutNum = 576;
}  // namespace ctx

enum class TokenDtype { Fp16 = 0, Bf16 = 1, Int8 = 2 };

struct Attrs {
  int attn = 8;           // A: attention ranks (sessions)
  int ffn = 1;            // F: FFN ranks
  int micro_batches = 2;  // M
  int bs = 64;            // BS: tokens per micro-batch
  int topk = 8;           // K; selected experts K' = K + 1 (the last slot is the shared expert)
  int experts = 64;       // routed experts per layer, spread over the F FFN ranks
  int layers = 1;         // layer_num
  int hidden = 7168;      // H
  TokenDtype dtype = TokenDtype::Int8;
  bool recv = true;           // need_schedule = 1
  double mask_rate = 0;       // share of entries masked by the attention side
  int out_num = 0;            // NORM: sessions handed to the batching (0: all A)
  int cores = 0;              // launch cores (0: the tiling's choice)
  int sort_max_elements = 0;  // sortLoopMaxElement override (0: from the UB size)
  int sort_cores = 0;         // at most this many cores sort (0: no limit)
  int buffer_num = 2;
};

// The attributes of a run, read from the ffn.* parameters.
Attrs attrs_of(const Params& p);

inline int selected(const Attrs& a) {
  return a.topk + 1;
}
inline int sessions(const Attrs& a) {  // sessions in one batching call
  return a.recv || a.out_num == 0 ? a.attn : a.out_num;
}
inline int64_t entries_per_session(const Attrs& a) {
  return static_cast<int64_t>(a.bs) * selected(a);
}
inline int64_t max_rows(const Attrs& a) {  // Y = A x BS x (K + 1)
  return static_cast<int64_t>(a.attn) * entries_per_session(a);
}
inline int64_t call_rows(const Attrs& a) {
  return static_cast<int64_t>(sessions(a)) * entries_per_session(a);
}
inline uint64_t elem_bytes(const Attrs& a) {
  return a.dtype == TokenDtype::Int8 ? 1 : 2;
}
inline uint64_t row_bytes(const Attrs& a) {  // hidden states of one row (y's row)
  return static_cast<uint64_t>(a.hidden) * elem_bytes(a);
}
inline uint64_t payload_bytes(const Attrs& a) {  // int8 data followed directly by its fp32 scale
  return row_bytes(a) + (a.dtype == TokenDtype::Int8 ? 4 : 0);
}
inline uint64_t token_size(const Attrs& a) {  // attn_to_ffn_token_size HS, Align512
  return (payload_bytes(a) + 511) / 512 * 512;
}
inline int64_t info_words(const Attrs& a) {  // DataDesc: flag, layer_id, expert_ids[BS][K']
  return 2 + entries_per_session(a);
}
inline uint64_t token_info_bytes(const Attrs& a) {
  return static_cast<uint64_t>(a.attn) * a.micro_batches * info_words(a) * 4;
}
inline uint64_t token_data_bytes(const Attrs& a) {
  return static_cast<uint64_t>(a.attn) * a.micro_batches * entries_per_session(a) * token_size(a);
}
// Where the token buffers sit in the FFN rank's HCCL data window.
inline uint64_t token_data_offset(const Attrs& a) {
  return (token_info_bytes(a) + 4095) / 4096 * 4096;
}
inline uint64_t window_needed(const Attrs& a) {
  return token_data_offset(a) + token_data_bytes(a);
}
// Experts of one FFN rank per layer: its share of the routed experts, plus the shared expert
// (local id experts / F).
inline int local_experts(const Attrs& a) {
  return a.experts / a.ffn + 1;
}
inline int64_t expert_num(const Attrs& a) {  // the expert_num attribute: per card, all layers
  return static_cast<int64_t>(local_experts(a)) * a.layers;
}

// Throws SimError(kExitBadInput) naming the attribute, its value and the allowed range.
void validate(const Attrs& a, int max_dies);

using common::split_to_core;

// The launch's core count: RECV with Y <= 200000 uses at most 32 cores ([FWB-API]).
int launch_cores(const Attrs& a, int aiv);

struct SortPlan {
  int64_t max_elements = 0;  // sortLoopMaxElement: keys one core's UB holds
  int64_t runs = 1;          // a power of 4: 1 = the one-core sort
  int64_t run_len = 0;       // entries per run (the last may be shorter)
  int64_t run_cap = 0;       // UB elements of a run, with the 8-element padding of each piece
  int sort_cores = 1;        // cores that sort runs (run r on core r mod sort_cores)
  int merge_rounds = 0;      // 4-way merge rounds after the run sort
  int64_t ws_elements = 0;   // proposals in one of the two workspace areas
};
int64_t sort_max_elements(const Attrs& a, uint32_t ub_bytes);
SortPlan sort_plan(const Attrs& a, uint32_t ub_bytes, int cores);
// UB of the sort phase for a run of `cap` elements.
uint64_t sort_ub_bytes(int64_t cap);
constexpr uint32_t kMergeBlock = 1024;  // proposals per list block in a merge
constexpr uint32_t kGatherLoop = 128;   // rows per gather loop

}  // namespace ascend::ffn
