// The dispatch.* parameters (and fault.*), each bound once to the field it sets
// (sim/field_params.h): the operator's attributes to dispatch::Attrs, the workload's knobs to
// dispatch::Workload. The dispatch family (dispatch, combine, moe, alltoallv_dispatch) reads them
// as fields.
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/kernel.h"
#include "sim/field_params.h"

namespace ascend::dispatch {

namespace {

const char* const kLimits = "MoeDistributeDispatchV2 A3 limits ([OLD])";
const char* const kV3 = "MoeDistributeDispatchV3 ([V3-API])";
const char* const kWorkload = "workload";

template <class T>
using Fields = std::vector<FieldParam<T>>;

const Fields<Attrs>& attr_fields() {
  using A = Attrs;
  const char* doc = kLimits;
  const char* w = kWorkload;
  static const Fields<A> fields = {
      field<A>(
          int_param("dispatch.bs", "tokens", kFromField, 1, 512, "tokens per rank (BS)", doc),
          [](A & a) -> auto& { return a.bs; }),
      field<A>(
          int_param("dispatch.hidden", "", kFromField, 1024, 8192, "hidden size H", doc),
          [](A & a) -> auto& { return a.hidden; }),
      field<A>(
          int_param("dispatch.topk", "", kFromField, 1, 16, "experts per token (K)", doc),
          [](A & a) -> auto& { return a.topk; }),
      field<A>(
          int_param("dispatch.experts", "", kFromField, 1, 1024,
                    "MoE experts E (a multiple of the MoE ranks)", doc),
          [](A & a) -> auto& { return a.experts; }),
      field<A>(
          int_param("dispatch.shared_experts", "", kFromField, 0, 4, "shared experts", doc),
          [](A & a) -> auto& { return a.shared_experts; }),
      field<A>(
          int_param("dispatch.shared_expert_ranks", "ranks", kFromField, 0, 767,
                    "ranks [0, S) holding shared experts (a multiple of shared_experts)", doc),
          [](A & a) -> auto& { return a.shared_expert_ranks; }),
      choice_field<A>(
          "dispatch.quant", {{"int8", true}, {"none", false}},
          "int8: dynamic per-token quantization before sending (quantMode 2)", doc,
          [](A & a) -> auto& { return a.quant; }),
      field<A>(
          int_param("dispatch.token_nums_type", "", kFromField, 0, 1,
                    "expertTokenNums: 1 count per expert, 0 inclusive cumsum", doc),
          [](A & a) -> auto& { return a.token_nums_type; }),
      field<A>(
          int_param("dispatch.active_tokens", "tokens", kFromField, -1, 512,
                    "1-D active mask: the first N tokens are active (-1: all)", doc),
          [](A & a) -> auto& { return a.active_tokens; }),
      field<A>(
          int_param("dispatch.buffer_num", "", kFromField, 1, 2,
                    "UB buffers per queue (falls back to 1 when the plan passes 170 KiB)", w),
          [](A & a) -> auto& { return a.buffer_num; }),
      field<A>(
          choice_param(
              "dispatch.send_split", kFromField, send_splits().names(),
              "send core split: entry (the real kernel: contiguous entries), rank (each core "
              "serves the destination ranks = core mod send cores) or token (fullmesh_v2: "
              "whole tokens, each quantized once and sent K times)",
              w),
          [](A & a) -> auto& { return a.split; }),
      field<A>(
          int_param("dispatch.shared_send_cores", "cores", kFromField, -1, 95,
                    "cores sending to shared experts (-1: max(1, cores x shared / (K + "
                    "shared)))",
                    w),
          [](A & a) -> auto& { return a.shared_send_cores; }),
      field<A>(
          int_param("dispatch.quant_before_send", "", kFromField, 0, 1,
                    "with int8: 1 quantizes before sending (the real kernel, int8 records on "
                    "the wire); 0 sends the token as is and each receiver quantizes during "
                    "its local copy",
                    w),
          [](A & a) -> auto& { return a.quant_before_send; }),
      field<A>(
          int_param("dispatch.zero_experts", "experts", kFromField, 0, 1024,
                    "zero experts, ids [E, E + z): masked out of dispatch, 0 in combine", kV3),
          [](A & a) -> auto& { return a.zero_experts; }),
      field<A>(
          int_param("dispatch.copy_experts", "experts", kFromField, 0, 1024,
                    "copy experts, ids after the zero ones: combine adds oriX", kV3),
          [](A & a) -> auto& { return a.copy_experts; }),
      field<A>(
          int_param("dispatch.const_experts", "experts", kFromField, 0, 1024,
                    "const experts, ids after the copy ones: combine adds "
                    "alpha1 x oriX + alpha2 x v",
                    kV3),
          [](A & a) -> auto& { return a.const_experts; }),
      choice_field<A>(
          "dispatch.mask", {{"1d", false}, {"2d", true}},
          "xActiveMask: 1d (BS,) a prefix of active tokens (--active-tokens), 2d "
          "(BS, K) a flag per (token, k)",
          kV3, [](A & a) -> auto& { return a.mask_2d; }),
      field<A>(
          int_param("dispatch.expert_scales", "", kFromField, 0, 1,
                    "[NEW] 1: expertScales (BS, K) in, carried to expandScales (A,) out", kV3),
          [](A & a) -> auto& { return a.expert_scales; }),
      field<A>(
          int_param("dispatch.smooth_scales", "", kFromField, 0, 1,
                    "1: scales (sharedExpertNum + E, H) multiply the token before int8 "
                    "quantization, per destination expert",
                    kV3),
          [](A & a) -> auto& { return a.smooth_scales; }),
      field<A>(
          int_param("dispatch.tp", "ranks", kFromField, 1, 2,
                    "tpWorldSize: 1, or 2 ([OLD]: EP x 2 dies, TP peers the two dies of a "
                    "chip; dispatch ends with an AllGatherV, combine starts with a "
                    "ReduceScatterV; needs L = 1)",
                    kV3),
          [](A & a) -> auto& { return a.tp; })};
  return fields;
}

const Fields<Workload>& workload_fields() {
  using W = Workload;
  const char* w = kWorkload;
  static const Fields<W> fields = {
      choice_field<W>(
          "dispatch.dtype", {{"bf16", true}, {"fp16", false}}, "token dtype", kLimits,
          [](W & x) -> auto& { return x.bf16; }),
      field<W>(
          text_param("dispatch.routing", kFromField,
                     "uniform, balanced (round-robin) or zipf:ALPHA (expert 0 hottest)", w),
          [](W & x) -> auto& { return x.routing; }),
      field<W>(
          int_param("dispatch.window_flip", "", kFromField, 0, 1,
                    "1: consecutive calls alternate the 0/1 window halves; 0: always half 0", w),
          [](W & x) -> auto& { return x.window_flip; }),
      field<W>(
          int_param("dispatch.calls", "", kFromField, 1, 16,
                    "back-to-back dispatch calls in one launch (each with new tokens)", w),
          [](W & x) -> auto& { return x.calls; }),
      field<W>(
          int_param("dispatch.delay_rank", "rank", kFromField, -1, 767,
                    "a rank that stalls before its local copy in call 1 (-1: none)", w),
          [](W & x) -> auto& { return x.delay_rank; }),
      field<W>(
          real_param("dispatch.delay_us", "us", kFromField, 0, 1e6, "how long it stalls", w),
          [](W & x) -> auto& { return x.delay_us; }),
      field<W>(
          real_param("dispatch.special_weight", "", kFromField, 0, 1e9,
                     "routing weight of each special expert against a uniform MoE expert's "
                     "(large: tokens pick mostly special experts)",
                     w),
          [](W & x) -> auto& { return x.special_weight; }),
      field<W>(
          real_param("dispatch.mask_rate", "", kFromField, 0, 1,
                     "2-D mask: share of the (token, k) flags that are false", w),
          [](W & x) -> auto& { return x.mask_rate; }),
      field<W>(
          int_param("dispatch.masked_tokens", "tokens", kFromField, 0, 512,
                    "2-D mask: tokens with every flag false (they take no part)", w),
          [](W & x) -> auto& { return x.masked_tokens; }),
      field<W>(
          text_param("fault.dead_ranks", kFromField,
                     "dead ranks, e.g. 5,17 or 4-6: their dies run nothing; without "
                     "fault.scale_down the survivors wait for them forever (exit 3)",
                     w),
          [](W & x) -> auto& { return x.dead_ranks; }),
      field<W>(
          int_param("fault.scale_down", "", kFromField, 0, 1,
                    "1: elastic scale-down, the host gives the survivors elasticInfo and the "
                    "kernels run in the new rank space",
                    kV3),
          [](W & x) -> auto& { return x.scale_down; }),
      field<W>(
          int_param("fault.compare_healthy", "", kFromField, 0, 1,
                    "scaled down: first run the same kernel on the healthy machine, for the "
                    "latency against it (stats: elastic)",
                    w),
          [](W & x) -> auto& { return x.compare_healthy; })};
  return fields;
}

}  // namespace

void declare_params(Params& p) {
  declare_fields(p, attr_fields());
  declare_fields(p, workload_fields());
}

Attrs attrs_of(const Params& p, int dies, int cores) {
  Attrs a = read_fields(p, attr_fields());
  a.ep = dies / a.tp;
  a.cores = cores;
  return a;
}

Workload workload_of(const Params& p) {
  return read_fields(p, workload_fields());
}

int dies_of(const Params& p) {
  return ep_ranks(p, 16) * read_fields(p, attr_fields()).tp;
}

}  // namespace ascend::dispatch
