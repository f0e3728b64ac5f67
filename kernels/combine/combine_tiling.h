// Host-side tiling of MoeDistributeCombine (A3 fullmesh_v1, [OLD]): the
// attributes (the dispatch workload plus combine's own options), the window layout of the return
// trip, the communication-quantization record, and the UB plan. Pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "kernels/common/strategy.h"
#include "kernels/dispatch/dispatch_tiling.h"

namespace ascend::combine {

using dispatch::align_up;
using dispatch::split_to_core;

struct Attrs {
  dispatch::Attrs d;                  // EP, BS, H, K, experts, shared experts, active tokens, cores
  bool comm_quant = false;            // commQuantMode 2: int8 blocks of 8 on the wire
  bool shared_expert_x = false;       // sharedExpertX (BS, H) is added unweighted (S = 0 only)
  std::string receiver = "in_order";  // a name of receivers()
  int rows_per_barrier = 1;           // rows sent before each PipeBarrier<PIPE_MTE3> + flags
  int buffer_num = 2;                 // UB buffers per queue (falls back to 1 when UB is short)
  // Const experts: [OLD] scalar alphas (constNum,) or [NEW] softmax-gated vector alphas
  // (constNum, H): a_j = <alpha_j[i], oriX>, (p1, p2) = softmax(a1, a2).
  bool const_softmax = false;
};

void validate(const Attrs& a);

// What a receiver drives: `ready` polls a token once (true: its rows are all there), `wait` polls
// it until it is ready (the kernel's polling loop, SimPollUntil), `combine` sums its rows.
struct ReceiveOps {
  std::function<bool(int)> ready;
  std::function<void(int)> wait;
  std::function<void(int)> combine;
};
// A receiver order: how a core walks its tokens [begin, end) until every one is combined. Pure
// host logic: tests drive it with their own operations.
using Receiver = void (*)(int64_t begin, int64_t end, const ReceiveOps& ops);
// The registered receivers (combine.receiver): in_order ([OLD]), ready_first ([NEW]).
const common::Strategies<Receiver>& receivers();

// Window slots per token: K MoE slots, then one per shared expert that is dispatched to
// shared-expert ranks (with S = 0 a shared expert is computed locally, never sent).
int shared_slots(const dispatch::Attrs& d);
int slots_per_token(const dispatch::Attrs& d);
uint64_t slot_bytes(const Attrs& a);  // Align512(2H): a (token, k) slot of the window
// What one row puts on the wire: 2H bytes, or with communication quantization Align32(H) int8
// followed by one XType scale per block of 8 (2 x Align16(H) / 8 bytes).
uint64_t wire_bytes(const Attrs& a);
uint64_t quant_scale_offset(const Attrs& a);  // Align32(H)
uint64_t flags_bytes(const Attrs& a);         // maxBS x slots x 32 B of one status half

// The UB a core allocates (bytes, as the kernel allocates them).
struct UbPlan {
  uint32_t row, out, bind, acc, tmp, bcast, h16, small;
  uint32_t aux, elastic;  // const experts: a second fp32 row; elasticInfo (0 when not used)
  uint64_t total(int buffer_num) const;
};
UbPlan ub_plan(const Attrs& a);
int effective_buffer_num(const Attrs& a, uint64_t ub_bytes);
// V3: a token's slots depend on its ids (special experts) and 2-D flags.
bool per_token_slots(const Attrs& a);

// Byte offsets inside the status window ([OLD] layout).
constexpr uint64_t kFlagBase = 64 * 1024;        // combine's flags: +64 KB in each half
constexpr uint64_t kStateWordBase = 975 * 1024;  // combine's per-core dataState words
constexpr float kFlagValue = 1.0f;               // each flag block is eight fp32 1.0

}  // namespace ascend::combine
