// What the FfnWorkerBatching roles share on the device: the call's stamps, the FFN rank's
// workspace layout, the batching call's arguments, and the polling of the session flags.
#pragma once

#include <algorithm>

#include "api/kernel_operator.h"
#include "kernels/ffn_worker_batching/ffn_tiling.h"

namespace ascend::ffn {

using namespace AscendC;

// Stamps of one batching call on one FFN rank (ps, simulator instrumentation).
enum Stamp { kCallStart, kPollEnd, kSortEnd, kGatherEnd, kGroupEnd, kCallEnd, kStamps };

// The FFN rank's workspace (GM): control words, then two areas of sort proposals.
constexpr uint64_t kWsMicroBatch = 0, kWsActual = 8, kWsDoneCalls = 16;  // int32 word index
constexpr uint64_t kWsLayers = 128;                                      // int32[A]
constexpr uint64_t kWsCtrlBytes = 8192;
inline uint64_t workspace_bytes(const SortPlan& p) {
  return kWsCtrlBytes + 2 * static_cast<uint64_t>(p.ws_elements) * 8;
}

// The padded length of sort run r (pieces of the per-session id lists, each padded to 8
// elements, the run padded to 32): every core derives it the same way.
inline int64_t run_padded(const Attrs& a, const SortPlan& p, int64_t r) {
  const int64_t y = call_rows(a), eps = entries_per_session(a);
  int64_t lo = r * p.run_len, hi = std::min(y, lo + p.run_len), n = 0;
  for (int64_t s0 = lo; s0 < hi;) {
    int64_t s1 = std::min(hi, (s0 / eps + 1) * eps);
    n += (s1 - s0 + 7) / 8 * 8;
    s0 = s1;
  }
  return (n + 31) / 32 * 32;
}

struct FfnArgs {
  GM_ADDR context;  // the 1024-B ScheduleContext
  GM_ADDR y, group_list, session_ids, micro_batch_ids, token_ids, expert_offsets, dynamic_scale,
      actual_token_num;
  GM_ADDR workspace;
  Attrs attrs;  // the operator's attributes (expert_num, max_out_shape, token_dtype, ...)
  SortPlan plan;
  int call = 0;
  uint64_t* stamps = nullptr;  // [kStamps] for this call (core 0 and the phase owners write)
  uint64_t* gather_end = nullptr;
};

// Core 0 polls the flag words {flag, layer_id} of sessions [0, n) at micro-batch m with one
// strided DMA per poll until they sum to n. `buf` holds n 32-B slots.
inline void PollFlags(const GlobalTensor<int32_t>& info, const LocalTensor<int32_t>& buf, int n,
                      int m, int mbs, int64_t words) {
  uint32_t gap = static_cast<uint32_t>(mbs * words * 4 - 8);
  SimPollUntil([&] {
    DataCopyPad(buf, info[static_cast<uint64_t>(m) * words],
                DataCopyExtParams{static_cast<uint16_t>(n), 8, gap, 0, 0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    int32_t sum = 0;
    for (int s = 0; s < n; ++s) sum += buf.GetValue(static_cast<uint32_t>(s * 8));
    return sum == n;
  });
}

// Clears the flags of sessions [0, n) at micro-batch m (one strided DMA of zeros).
inline void ClearFlags(const GlobalTensor<int32_t>& info, const LocalTensor<int32_t>& zeros, int n,
                       int m, int mbs, int64_t words) {
  Duplicate(zeros, 0, static_cast<uint32_t>(n) * 8);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopyPad(info[static_cast<uint64_t>(m) * words], zeros,
              DataCopyExtParams{static_cast<uint16_t>(n), 4, 0,
                                static_cast<uint32_t>(mbs * words * 4 - 4), 0});
}

}  // namespace ascend::ffn
