// Host-side tiling of MoeDistributeDispatch (A3 fullmesh_v1): the attributes, their documented
// limits, the derived sizes (window layout, record, output capacity) and the core split. Pure
// functions: everything the device code needs is decided here.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/common/split.h"
#include "kernels/common/strategy.h"

namespace ascend::dispatch {

struct Attrs {
  int ep = 16;                    // W, ranks (dies)
  int shared_expert_ranks = 0;    // S, ranks [0, S) hold shared experts
  int shared_experts = 0;         // sharedExpertNum
  int experts = 256;              // E, MoE experts
  int topk = 8;                   // K
  int bs = 128;                   // tokens per rank
  int hidden = 7168;              // H
  bool quant = true;              // quantMode 2: dynamic per-token int8
  bool quant_before_send = true;  // what-if: false sends the token as is, the receiver quantizes
  int dtype_bytes = 2;            // bf16 or fp16
  int token_nums_type = 1;        // 1: count per expert, 0: inclusive cumsum
  int active_tokens = -1;         // 1D mask: the first N tokens are active (-1: all)
  int cores = 48;                 // AIV cores per die
  int buffer_num = 2;             // UB buffers per queue (2 -> 1 when UB is short)
  int shared_send_cores = -1;     // override of the shared-expert send cores (-1: the real rule)
  std::string split = "entry";    // send core split, a name of send_splits()
  // V3 ([V3-API], [OLD]). Special expert ids follow the MoE ones: zero experts
  // [E, E + z), copy experts [E + z, E + z + c), const experts after those.
  int zero_experts = 0, copy_experts = 0, const_experts = 0;
  bool mask_2d = false;        // xActiveMask (BS, K): a flag per (token, k)
  bool expert_scales = false;  // [NEW] expertScales (BS, K) in, expandScales (A,) out
  bool smooth_scales = false;  // scales (sharedExpertNum + E, H): quantization per expert
  int elastic_world = 0;       // elasticInfo given: its W0 (4 + 2 W0 int32); 0: not given
  // E0, the tiling's moeExpertNum, after an elastic scale-down made E the new group's (0: no
  // scale-down). Dispatch sends ids below E (the new group's experts); combine numbers the
  // special experts from E0 as its tiling gives it, and the smooth scales keep E0 rows.
  int experts0 = 0;
  // tpWorldSize ([OLD] only): 2 pairs every EP rank with a TP peer (the other die of its chip);
  // dispatch ends with an AllGatherV and combine starts with a ReduceScatterV between the peers.
  int tp = 1;
};

// Checks the A3 limits of the operator document; throws SimError(kExitBadInput) naming the
// attribute, its value and the limit.
void validate(const Attrs& a);
void validate_v3(const Attrs& a);  // the V3 inputs alone (part of validate)

uint64_t align_up(uint64_t v, uint64_t a);
int local_experts(const Attrs& a, int rank);  // L: 1 on a shared rank, E/(W-S) on a MoE rank
bool is_shared_rank(const Attrs& a, int rank);
int active_tokens(const Attrs& a);
int special_experts(const Attrs& a);  // z + c + const: ids [E0, E0 + special) never leave the rank
int experts0(const Attrs& a);         // E0: the special experts' first id (E without a scale-down)
// An id a token may choose: a MoE expert of the group [0, E) or a special one [E0, E0 + special).
bool valid_expert_id(const Attrs& a, int id);
std::string expert_id_ranges(const Attrs& a);  // "[0, 12) or [16, 18)", for messages
// 2-D masks and special experts: the (token, k) list is compacted to the valid MoE entries
// before anything is sent ([OLD]).
bool compacts(const Attrs& a);
uint64_t out_row_bytes(const Attrs& a);  // H x (1 B int8 or dtype): an expandX row
bool int8_on_wire(const Attrs& a);       // records carry int8 (quantized before sending)
uint64_t data_bytes(const Attrs& a);     // Align32(H x wire bytes): the record's data part
// data + 32-B scale block + 12-B triple (or, [NEW], a 32-B triple block and the 4-B expert
// scale): what is sent
uint64_t record_bytes(const Attrs& a);
uint64_t tail_bytes(const Attrs& a);          // the record after its scale block: triple (+ scale)
uint64_t slot_bytes(const Attrs& a);          // Align512(data + 32 + 12): a record's window slot
uint64_t combine_area_bytes(const Attrs& a);  // maxBS x (K + shared) x Align512(2H)
uint64_t window_needed(const Attrs& a);       // the README's HCCL_BUFFSIZE formula
int capacity_rows(const Attrs& a, int rank);  // A: rows of expandX on that rank
// The ranks a kernel runs on: EP x TP dies. With tp = 2, die (and host rank) g is EP rank g / 2
// of EP group g % 2 and TP rank g % 2; its TP peer is g ^ 1, the other die of its chip.
inline int world_ranks(const Attrs& a) {
  return a.ep * a.tp;
}
inline int ep_rank(const Attrs& a, int g) {
  return g / a.tp;
}
inline int tp_rank(const Attrs& a, int g) {
  return g % a.tp;
}
// The TP window (tp = 2; each half of the TP communicator's data window): dispatch's records of
// the peer at row x slot_bytes, then combine's rows at tp_combine_offset + row x Align512(2H).
// Its status window (each half of kStatusHalf): dispatch's per-core handshake blocks at core x
// 512, the staged epRecvCounts at kTpCountsOffset, combine's handshake blocks at kTpCombineFlags.
uint64_t tp_combine_offset(const Attrs& a, int rank);  // A x slot_bytes
uint64_t tp_window_needed(const Attrs& a);  // 2 x (A x slot + A x Align512(2H)), A the largest

using common::split_to_core;
// What one MoE send core sends: the whole decision of a send split, made on the host.
struct SendShare {
  int64_t begin = 0, end = 0;  // [begin, end) of the flattened (token, k) entries it walks
  int rank_stride = 0;         // > 0: of those, only entries to ranks r with r % stride == pick
  int rank_pick = 0;
  bool whole_tokens = false;  // whole tokens: each is read (and quantized) once, sent K times
};
// A send split: the share of MoE send core `core` of `cores` when `tokens` tokens with `entries`
// valid (token, k) entries are active (entries = tokens x K unless compacted).
using SendSplit = SendShare (*)(const Attrs& a, int tokens, int64_t entries, int cores, int core);
// The registered send splits (dispatch.send_split): entry, rank, token.
const common::Strategies<SendSplit>& send_splits();
// The share of each of the `cores` launched cores for a rank's active tokens: [core], empty for
// the shared-expert send cores (the last ones).
// `entries` < 0: tokens x K.
std::vector<SendShare> send_plan(const Attrs& a, int tokens, int cores, int64_t entries = -1);

// Cores that send to shared experts (the last ones): max(1, cores x shared / (K + shared)).
int shared_send_cores(const Attrs& a);
// The UB a core allocates, buffer by buffer (bytes; the kernel allocates exactly these).
struct UbPlan {
  uint32_t ids, status, small, token, record, f32, abs, f16;
  uint32_t triples;  // whole-token splits: the K triples of a token, per buffer
  uint32_t count;    // two rows of ids for the vector counts (slots, status totals), each
  // V3: the compacted entries' original indices and the active tokens (compaction), the 2-D
  // mask, the expert scales and elasticInfo, each 0 when not used.
  uint32_t index, mask, escales, elastic;
  uint32_t tp_counts;  // tp = 2: the cumulative counts staged for the TP peer (W x L int32)
  uint64_t total(const Attrs& a, int buffer_num) const;
};
UbPlan ub_plan(const Attrs& a);
// Buffers per queue: buffer_num, falling back to 1 when the plan would pass 170 KiB (MAX_UB_SIZE).
int effective_buffer_num(const Attrs& a, uint64_t ub_bytes);

// Byte offsets inside the status window.
constexpr uint64_t kStatusHalf = 500 * 1024;      // WIN_STATE_OFFSET: the 0/1 halves
constexpr uint64_t kStateWordBase = 950 * 1024;   // per-core dataState words, 512 B apart
constexpr uint64_t kMaxUbBytes = 170 * 1024;      // MAX_UB_SIZE of the real tiling
constexpr uint64_t kTpCountsOffset = 100 * 1024;  // TP status: the peer's epRecvCounts
constexpr uint64_t kTpCombineFlags = 200 * 1024;  // TP status: combine's handshake blocks
// The slot count compares at most this many ids per vector pass (longer lists: several passes).
constexpr uint32_t kCountChunk = 2048;

}  // namespace ascend::dispatch
