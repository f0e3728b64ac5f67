#include "kernels/ffn_worker_batching/ffn_tiling.h"

#include <algorithm>

#include "models/errors.h"

namespace ascend::ffn {

namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw SimError(kExitBadInput, "ffn_worker_batching: " + what);
}
}  // namespace

void validate(const Attrs& a, int max_dies) {
  using std::to_string;
  require(
      a.attn >= 1 && a.attn <= kMaxSessions,
      "ffn.attn_ranks = " + to_string(a.attn) + " outside [1, 1024] (document limit A <= 1024)");
  require(a.ffn >= 1, "ffn.ffn_ranks = " + to_string(a.ffn) + " must be >= 1");
  require(a.attn + a.ffn <= max_dies,
          "ffn.attn_ranks + ffn.ffn_ranks = " + to_string(a.attn + a.ffn) +
              " dies, but the cluster supports at most " + to_string(max_dies) +
              " (ep.world_size range; one rank is one die)");
  require(a.micro_batches >= 1 && a.micro_batches <= kMaxMicroBatches,
          "ffn.micro_batches = " + to_string(a.micro_batches) +
              " outside [1, 64] (document limit M <= 64)");
  require(selected(a) >= 2 && selected(a) <= kMaxSelected,
          "ffn.topk = " + to_string(a.topk) + ": selected experts topK + 1 = " +
              to_string(selected(a)) + " outside [2, 64] (document limit)");
  require(a.bs >= 1 && a.bs <= 4096, "ffn.bs = " + to_string(a.bs) + " outside [1, 4096]");
  require(a.hidden >= 1 && a.hidden <= 16384,
          "ffn.hidden = " + to_string(a.hidden) + " outside [1, 16384]");
  require(a.experts >= a.topk && a.experts % a.ffn == 0,
          "ffn.experts = " + to_string(a.experts) + " must be >= topK (" + to_string(a.topk) +
              ") and a multiple of ffn.ffn_ranks (" + to_string(a.ffn) + ")");
  require(a.layers >= 1 && a.layers <= 256,
          "ffn.layers = " + to_string(a.layers) + " outside [1, 256]");
  require(expert_num(a) < kMaskId,
          "expert_num = " + to_string(expert_num(a)) + " reaches the mask value 1000000");
  require(a.mask_rate >= 0 && a.mask_rate <= 1,
          "ffn.mask_rate = " + to_string(a.mask_rate) + " outside [0, 1]");
  require(a.out_num >= 0 && a.out_num <= a.attn, "ffn.out_num = " + to_string(a.out_num) +
                                                     " outside [0, A = " + to_string(a.attn) +
                                                     "] (0: all sessions)");
  require(a.recv ? a.out_num == 0 || a.out_num == a.attn : true,
          "ffn.out_num = " + to_string(a.out_num) +
              " applies to NORM mode only (need_schedule = 0); RECV batches all A sessions");
  require(max_rows(a) <= (int64_t{1} << 24),
          "Y = A x BS x (topK + 1) = " + to_string(max_rows(a)) +
              " above 16777216 (ids and indices travel as fp32 sort keys)");
}

int launch_cores(const Attrs& a, int aiv) {
  if (a.cores > 0) return std::min(a.cores, aiv);
  if (a.recv && max_rows(a) <= 200000) return std::min(32, aiv);
  return aiv;
}

uint64_t sort_ub_bytes(int64_t cap) {
  // ids/scores (4), indices (4), sorted proposals (8), tmp (8) per element; the layer ids
  return static_cast<uint64_t>(cap) * 24 + 4 * kMaxSessions;
}

int64_t sort_max_elements(const Attrs& a, uint32_t ub_bytes) {
  if (a.sort_max_elements > 0) return a.sort_max_elements / 32 * 32;
  int64_t n = (static_cast<int64_t>(ub_bytes) - 4 * kMaxSessions - 8 * 1024) / 24;
  return n / 32 * 32;
}

SortPlan sort_plan(const Attrs& a, uint32_t ub_bytes, int cores) {
  SortPlan p;
  p.max_elements = std::max<int64_t>(32, sort_max_elements(a, ub_bytes));
  const int64_t y = call_rows(a), eps = entries_per_session(a);
  for (int64_t runs = 1;; runs *= 4) {
    int64_t len = (y + runs - 1) / runs;
    int64_t pieces = std::min<int64_t>(sessions(a), (len + eps - 1) / eps + 1);
    int64_t cap = (len + 7 * pieces + 31) / 32 * 32;
    if (cap <= p.max_elements || len <= 1) {
      p.runs = runs;
      p.run_len = len;
      p.run_cap = cap;
      break;
    }
  }
  int limit = a.sort_cores > 0 ? std::min(a.sort_cores, cores) : cores;
  p.sort_cores = static_cast<int>(std::min<int64_t>(p.runs, limit));
  for (int64_t r = p.runs; r > 1; r /= 4) ++p.merge_rounds;
  p.ws_elements = p.runs * p.run_cap;
  return p;
}

}  // namespace ascend::ffn
