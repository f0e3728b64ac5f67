// The combine.* parameters, each bound once to the field it sets (sim/field_params.h): the
// operator's attributes to combine::Attrs, the workload's knobs to combine::Workload. Combine and
// moe read them as fields; the dispatch.* workload is dispatch's (dispatch_params.cpp).
#include "kernels/combine/combine_host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "sim/field_params.h"

namespace ascend::combine {

namespace {

const char* const kOld = "MoeDistributeCombineV2 ([OLD])";
const char* const kWorkload = "workload";

const std::vector<FieldParam<Attrs>>& attr_fields() {
  using A = Attrs;
  const char* w = kWorkload;
  static const std::vector<FieldParam<A>> fields = {
      choice_field<A>(
          "combine.comm_quant", {{"none", false}, {"int8", true}},
          "communication quantization (commQuantMode 2): int8 blocks of 8 with an "
          "XType scale each",
          kOld, [](A & a) -> auto& { return a.comm_quant; }),
      field<A>(
          int_param("combine.shared_expert_x", "", kFromField, 0, 1,
                    "1: add a sharedExpertX (BS, H) input unweighted (S = 0 only)", kOld),
          [](A & a) -> auto& { return a.shared_expert_x; }),
      field<A>(
          choice_param("combine.receiver", kFromField, receivers().names(),
                       "receiver strategy: wait for each token in turn ([OLD]) or poll the "
                       "unfinished tokens round-robin and combine whichever is ready ([NEW])",
                       w),
          [](A & a) -> auto& { return a.receiver; }),
      field<A>(
          int_param("combine.rows_per_barrier", "rows", kFromField, 1, 64,
                    "rows sent before each PipeBarrier<PIPE_MTE3> and their flags ([OLD] 1, "
                    "[NEW] 2)",
                    w),
          [](A & a) -> auto& { return a.rows_per_barrier; }),
      field<A>(
          int_param("combine.buffer_num", "", kFromField, 1, 2,
                    "UB buffers per queue (falls back to 1 when the plan passes 170 KiB)", w),
          [](A & a) -> auto& { return a.buffer_num; }),
      choice_field<A>(
          "combine.const_alpha", {{"scalar", false}, {"softmax", true}},
          "const experts: scalar ([OLD]: alpha1[i] x oriX + alpha2[i] x v[i]) or "
          "softmax ([NEW]: alphas (constNum, H), gates softmax(<alpha_j[i], oriX>))",
          "MoeDistributeCombineV3 ([V3-API])", [](A & a) -> auto& { return a.const_softmax; })};
  return fields;
}

const std::vector<FieldParam<Workload>>& workload_fields() {
  using W = Workload;
  const char* w = kWorkload;
  static const std::vector<FieldParam<W>> fields = {
      choice_field<W>(
          "combine.expert_scales", {{"random", false}, {"uniform", true}},
          "generated weights: random (softmax of random logits) or uniform (1/K)", w,
          [](W & x) -> auto& { return x.uniform_scales; }),
      field<W>(
          int_param("combine.delay_rank", "rank", kFromField, -1, 767,
                    "a rank that starts sending late in call 1 (-1: none)", w),
          [](W & x) -> auto& { return x.delay_rank; }),
      field<W>(
          real_param("combine.delay_us", "us", kFromField, 0, 1e6, "how late it starts", w),
          [](W & x) -> auto& { return x.delay_us; })};
  return fields;
}

}  // namespace

void declare_params(Params& p) {
  declare_fields(p, attr_fields());
  declare_fields(p, workload_fields());
}

Attrs attrs_of(const Params& p, int dies, int cores) {
  Attrs a = read_fields(p, attr_fields());
  a.d = dispatch::attrs_of(p, dies, cores);
  return a;
}

Workload workload_of(const Params& p) {
  return read_fields(p, workload_fields());
}

}  // namespace ascend::combine
