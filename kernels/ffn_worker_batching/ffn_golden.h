// Plain C++ reference of FfnWorkerBatching ([FWB-API], "Outputs"): independent of the
// kernel and of the simulator. A stable ascending sort by global expert id of the valid entries.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/ffn_worker_batching/ffn_tiling.h"

namespace ascend::ffn {

// What the attention ranks produce.
struct Inputs {
  // x[(a * L + l) * M + m]: BS rows of payload_bytes (int8 data then its fp32 scale)
  std::vector<std::vector<uint8_t>> x;
  // ids[((f * A + a) * L + l) * M + m]: BS x K' expert ids as FFN rank f sees them (local ids,
  // or the mask value 1000000)
  std::vector<std::vector<int32_t>> ids;
  const std::vector<uint8_t>& rows(const Attrs& a, int s, int l, int m) const {
    return x[(static_cast<size_t>(s) * a.layers + l) * a.micro_batches + m];
  }
  const std::vector<int32_t>& expert_ids(const Attrs& a, int f, int s, int l, int m) const {
    return ids[((static_cast<size_t>(f) * a.attn + s) * a.layers + l) * a.micro_batches + m];
  }
};

struct Outputs {
  int64_t actual = 0;
  std::vector<uint8_t> y;           // actual rows of row_bytes
  std::vector<int64_t> group_list;  // expert_num x 2
  std::vector<int32_t> session_ids, micro_batch_ids, token_ids, expert_offsets;  // actual
  std::vector<float> dynamic_scale;  // actual (int8 only)
};

// The outputs of FFN rank f for the call of layer l, micro-batch m.
Outputs golden(const Attrs& a, const Inputs& in, int f, int l, int m);

}  // namespace ascend::ffn
