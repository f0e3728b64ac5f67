#include "kernels/dispatch/dispatch_workload.h"

namespace ascend::dispatch {

std::vector<Shorthand> workload_flags(bool v3) {
  std::vector<Shorthand> v = {
      {"bs", "dispatch.bs", "tokens per rank"},
      {"hidden", "dispatch.hidden", "hidden size H"},
      {"topk", "dispatch.topk", "experts per token K"},
      {"experts", "dispatch.experts", "MoE experts"},
      {"shared-experts", "dispatch.shared_experts", "shared experts"},
      {"shared-expert-ranks", "dispatch.shared_expert_ranks", "ranks of shared experts"},
      {"quant", "dispatch.quant", "none | int8"},
      {"dtype", "dispatch.dtype", "bf16 | fp16"},
      {"token-nums-type", "dispatch.token_nums_type", "0 cumsum | 1 count per expert"},
      {"active-tokens", "dispatch.active_tokens", "the first N tokens are active"},
      {"routing", "dispatch.routing", "uniform | balanced | zipf:ALPHA"},
      seed_flag()};
  if (v3)
    v.insert(v.end(),
             {{"zero-experts", "dispatch.zero_experts", "zero experts (ids after the MoE ones)"},
              {"copy-experts", "dispatch.copy_experts", "copy experts (after the zero ones)"},
              {"const-experts", "dispatch.const_experts", "const experts (after the copy ones)"},
              {"mask", "dispatch.mask", "1d | 2d xActiveMask"},
              {"expert-scales", "dispatch.expert_scales", "1: [NEW] expertScales -> expandScales"},
              {"smooth-scales", "dispatch.smooth_scales", "1: smooth scales before quantization"},
              {"dead-ranks", "fault.dead_ranks", "dead ranks, e.g. 5,17"},
              {"scale-down", "fault.scale_down", "1: elastic scale-down of the dead ranks"},
              {"tp", "dispatch.tp", "tpWorldSize 1 or 2 (2: EP x 2 dies, needs L = 1)"}});
  return v;
}

Shorthand comm_quant_flag() {
  return {"comm-quant", "combine.comm_quant", "none | int8 communication quantization"};
}

Attrs checked_attrs(const Params& p, int dies) {
  Attrs a = attrs_of(p, dies, static_cast<int>(p.integer("die.aiv_count")));
  validate(a);
  return a;
}

uint64_t dispatch_rank_dump(const Attrs& a, int g) {
  const int r = ep_rank(a, g);
  const uint64_t bs = a.bs, h = a.hidden, k = a.topk, rows = capacity_rows(a, r),
                 l = local_experts(a, r), tp = a.tp;
  const uint64_t v3 = (a.mask_2d ? bs * k : 0) + (a.expert_scales ? bs * k * 4 + rows * 4 : 0) +
                      (a.smooth_scales ? (a.shared_experts + experts0(a)) * h * 4ull : 0);
  return bs * h * 2 + bs * k * 4 + bs + tp * rows * (out_row_bytes(a) + 4) + rows * 128 * 4 +
         l * 8 + tp * a.ep * l * 4 + (tp > 1 ? tp * 4 : 0) + v3;
}

uint64_t combine_rank_dump(const Attrs& a, int g, bool shared_x) {
  const int r = ep_rank(a, g);
  const uint64_t bs = a.bs, h = a.hidden, k = a.topk, rows = capacity_rows(a, r),
                 l = local_experts(a, r), tp = a.tp;
  const uint64_t v3 = (a.copy_experts + a.const_experts ? bs * h * 2 : 0) +
                      a.const_experts * (8 + h * 2ull) + (a.mask_2d ? bs * k : 0);
  return tp * rows * h * 2 + rows * 128 * 4 + tp * a.ep * l * 4 + (tp > 1 ? tp * 4 : 0) +
         bs * k * 8 + (shared_x ? bs * h * 2 : 0) + bs + bs * h * 2 + v3;
}

uint64_t payload_bytes(const Params& p, int dies, int directions) {
  const Attrs a = attrs_of(p, dies, 0);
  const uint64_t bs = static_cast<uint64_t>(a.bs), h = static_cast<uint64_t>(a.hidden),
                 k = static_cast<uint64_t>(a.topk);
  return static_cast<uint64_t>(dies) * bs * h * 2 * (1 + 3 * k) * static_cast<uint64_t>(directions);
}

}  // namespace ascend::dispatch
