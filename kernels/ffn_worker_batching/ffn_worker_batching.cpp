// Host side of FfnWorkerBatching: attributes from the parameters, the deployment (attention and
// FFN ranks), generated inputs, the ScheduleContext in each FFN rank's HBM, the launch, the golden
// check, --dump and the figures.
#include <cmath>
#include <cstring>
#include <random>

#include "api/numeric.h"
#include "kernels/common/host.h"
#include "kernels/ffn_worker_batching/ffn_host.h"
#include "kernels/ffn_worker_batching/ffn_kernel.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"
#include "sim/npy.h"

namespace ascend {

namespace {

using ffn::Attrs;

const char* const kDoc = "FfnWorkerBatching document limits ([FWB-API])";
const char* const kWorkload = "workload";

// The operator's attributes (ffn.*), each bound once to its field of ffn::Attrs
// (sim/field_params.h).
const std::vector<FieldParam<Attrs>>& attr_fields() {
  using A = Attrs;
  const char* doc = kDoc;
  const char* w = kWorkload;
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("ffn.attn_ranks", "ranks", kFromField, 1, 1024, "attention ranks A (sessions)",
                    doc),
          [](A & a) -> auto& { return a.attn; }),
      field<A>(
          int_param("ffn.ffn_ranks", "ranks", kFromField, 1, 64,
                    "FFN ranks F; the routed experts of a layer are split evenly over them", w),
          [](A & a) -> auto& { return a.ffn; }),
      field<A>(
          int_param("ffn.micro_batches", "", kFromField, 1, 64, "micro-batches M", doc),
          [](A & a) -> auto& { return a.micro_batches; }),
      field<A>(
          int_param("ffn.bs", "tokens", kFromField, 1, 4096, "tokens per micro-batch BS", w),
          [](A & a) -> auto& { return a.bs; }),
      field<A>(
          int_param("ffn.topk", "", kFromField, 1, 63,
                    "routed experts per token K; selected experts K + 1 <= 64 (the last slot "
                    "is the shared expert)",
                    doc),
          [](A & a) -> auto& { return a.topk; }),
      field<A>(
          int_param("ffn.experts", "", kFromField, 1, 100000,
                    "routed experts per layer (a multiple of ffn.ffn_ranks); each FFN rank "
                    "also holds one shared expert",
                    w),
          [](A & a) -> auto& { return a.experts; }),
      field<A>(
          int_param("ffn.layers", "", kFromField, 1, 256,
                    "layers; the run makes layers x micro-batches batching calls; global "
                    "expert id = layer x experts per card per layer + local id",
                    doc),
          [](A & a) -> auto& { return a.layers; }),
      field<A>(
          int_param("ffn.hidden", "", kFromField, 1, 16384, "hidden size H", w),
          [](A & a) -> auto& { return a.hidden; }),
      choice_field<A>(
          "ffn.token_dtype",
          {{"fp16", ffn::TokenDtype::Fp16},
           {"bf16", ffn::TokenDtype::Bf16},
           {"int8", ffn::TokenDtype::Int8}},
          "token dtype (int8: int8 rows followed by their fp32 scale)", doc,
          [](A & a) -> auto& { return a.dtype; }),
      field<A>(
          int_param("ffn.need_schedule", "", kFromField, 0, 1,
                    "1 RECV (core 0 polls the flags), 0 NORM (FfnWorkerScheduler fills the "
                    "context's output area first)",
                    doc),
          [](A & a) -> auto& { return a.recv; }),
      field<A>(
          real_param("ffn.mask_rate", "", kFromField, 0, 1,
                     "share of entries the attention side masks (id 1000000)", w),
          [](A & a) -> auto& { return a.mask_rate; }),
      field<A>(
          int_param("ffn.out_num", "sessions", kFromField, 0, 1024,
                    "NORM: sessions collected per call (0: all A)", doc),
          [](A & a) -> auto& { return a.out_num; }),
      field<A>(
          int_param("ffn.cores", "cores", kFromField, 0, 96,
                    "launch cores (0: the tiling, 32 in RECV with Y <= 200000, else all)", w),
          [](A & a) -> auto& { return a.cores; }),
      field<A>(
          int_param("ffn.sort_max_elements", "elements", kFromField, 0, 100000000,
                    "sortLoopMaxElement override: keys one core sorts in UB (0: from "
                    "ub.size_KiB)",
                    w),
          [](A & a) -> auto& { return a.sort_max_elements; }),
      field<A>(
          int_param("ffn.sort_cores", "cores", kFromField, 0, 96,
                    "at most this many cores sort runs (0: no limit; 1: everything on core "
                    "0)",
                    w),
          [](A & a) -> auto& { return a.sort_cores; }),
      field<A>(
          int_param("ffn.buffer_num", "", kFromField, 1, 2, "UB buffers of the gather queue", w),
          [](A & a) -> auto& { return a.buffer_num; })};
  return fields;
}

// The workload's knobs that are not the operator's attributes: the attention side's timing.
struct Workload {
  std::string routing = "uniform";  // uniform, balanced or zipf:ALPHA
  double start_skew_us = 0;         // spread of the attention ranks' start times
  bool uniform_skew = false;        // random in [0, skew], or linear in the rank
  int late_rank = -1;               // one attention rank that starts late_us late
  double late_us = 20;
  double attn_compute_us = 0;  // attention compute before each micro-batch
  int drop_rank = -1;          // an attention rank that never writes its flags
};

const std::vector<FieldParam<Workload>>& workload_fields() {
  using W = Workload;
  const char* w = kWorkload;
  static const std::vector<FieldParam<W>> fields = {
      field<W>(
          text_param("ffn.routing", kFromField,
                     "uniform, balanced (round-robin) or zipf:ALPHA (expert 0 hottest)", w),
          [](W & x) -> auto& { return x.routing; }),
      field<W>(
          real_param("ffn.start_skew_us", "us", kFromField, 0, 1e6,
                     "spread of the attention ranks' start times", w),
          [](W & x) -> auto& { return x.start_skew_us; }),
      choice_field<W>(
          "ffn.skew_dist", {{"linear", false}, {"uniform", true}},
          "linear: rank a starts a / (A - 1) x skew late; uniform: random in [0, "
          "skew]",
          w, [](W & x) -> auto& { return x.uniform_skew; }),
      field<W>(
          int_param("ffn.late_rank", "rank", kFromField, -1, 1023,
                    "one attention rank that starts ffn.late_us late (-1: none)", w),
          [](W & x) -> auto& { return x.late_rank; }),
      field<W>(
          real_param("ffn.late_us", "us", kFromField, 0, 1e6, "how late it starts", w),
          [](W & x) -> auto& { return x.late_us; }),
      field<W>(
          real_param("ffn.attn_compute_us", "us", kFromField, 0, 1e6,
                     "attention compute before each micro-batch (every rank)", w),
          [](W & x) -> auto& { return x.attn_compute_us; }),
      field<W>(
          int_param("ffn.drop_rank", "rank", kFromField, -1, 1023,
                    "what-if: an attention rank that never writes its flags (a hang, exit 3)", w),
          [](W & x) -> auto& { return x.drop_rank; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
  declare_fields(p, workload_fields());
}

int dies(const Params& p) {
  const Attrs a = ffn::attrs_of(p);
  const int n = a.attn + a.ffn;
  int64_t ep = p.integer("ep.world_size");
  if (ep != 0 && ep != n)
    throw SimError(kExitBadInput, "ep.world_size = " + std::to_string(ep) +
                                      " but ffn_worker_batching runs on ffn.attn_ranks + "
                                      "ffn.ffn_ranks = " +
                                      std::to_string(n) + " dies (leave --ep unset)");
  ffn::validate(a, 768);  // before the cluster is built
  return n;
}

}  // namespace

namespace ffn {

using common::read_vec;

Attrs attrs_of(const Params& p) {
  return read_fields(p, attr_fields());
}

Inputs generate(const Attrs& a, const std::string& routing, uint64_t seed, bool payload) {
  Inputs in;
  const int k1 = selected(a), per_f = a.experts / a.ffn;
  const common::Routing routing_of("ffn.routing", routing, a.experts);
  const size_t calls = static_cast<size_t>(a.layers) * a.micro_batches;
  in.x.resize(static_cast<size_t>(a.attn) * calls);
  in.ids.resize(static_cast<size_t>(a.ffn) * a.attn * calls);
  const uint64_t pb = payload_bytes(a), rb = row_bytes(a);
  for (int s = 0; s < a.attn; ++s)
    for (size_t c = 0; c < calls; ++c) {
      std::mt19937 rng(common::input_seed(seed, s, static_cast<int>(c)));
      std::uniform_real_distribution<double> u(0, 1);
      std::vector<int> global(static_cast<size_t>(a.bs) * k1);
      std::vector<bool> masked(global.size());
      for (int b = 0; b < a.bs; ++b) {
        routing_of.pick(s, a.bs, b, a.topk, rng, &global[static_cast<size_t>(b) * k1]);
        global[static_cast<size_t>(b) * k1 + a.topk] = -1 - ((s * a.bs + b) % a.ffn);  // shared
        for (int k = 0; k < k1; ++k) masked[static_cast<size_t>(b) * k1 + k] = u(rng) < a.mask_rate;
      }
      for (int f = 0; f < a.ffn; ++f) {
        std::vector<int32_t>& ids = in.ids[(static_cast<size_t>(f) * a.attn + s) * calls + c];
        ids.assign(global.size(), kMaskId);
        for (size_t j = 0; j < global.size(); ++j) {
          if (masked[j]) continue;
          int e = global[j];
          if (e < 0 && -1 - e == f) ids[j] = per_f;  // the shared expert: local id experts / F
          if (e >= 0 && e / per_f == f) ids[j] = e % per_f;
        }
      }
      std::vector<uint8_t>& x = in.x[static_cast<size_t>(s) * calls + c];
      x.assign(static_cast<size_t>(a.bs) * pb, 0);
      if (!payload) continue;
      std::uniform_real_distribution<float> v(-2.0f, 2.0f);
      std::uniform_int_distribution<int> byte(-127, 127);
      for (int b = 0; b < a.bs; ++b) {
        uint8_t* row = x.data() + b * pb;
        for (int h = 0; h < a.hidden; ++h) {
          if (a.dtype == TokenDtype::Int8) {
            row[h] = static_cast<uint8_t>(static_cast<int8_t>(byte(rng)));
            continue;
          }
          uint16_t bits = a.dtype == TokenDtype::Bf16
                              ? AscendC::to_bf16(v(rng), AscendC::RoundMode::CAST_RINT).bits
                              : AscendC::to_half(v(rng), AscendC::RoundMode::CAST_RINT).bits;
          std::memcpy(row + 2 * h, &bits, 2);
        }
        if (a.dtype == TokenDtype::Int8) {
          float sc = 0.001f + static_cast<float>(u(rng)) * 0.05f;
          std::memcpy(row + rb, &sc, 4);
        }
      }
    }
  return in;
}

Execution execute(Simulation& sim, const Attrs& a, const Inputs& in, const Knobs& knobs) {
  Execution ex;
  const int aiv = sim.cluster().config().aiv_per_die;
  const uint32_t ub = sim.cluster().config().core.ub_bytes;
  ex.cores = launch_cores(a, aiv);
  ex.plan = sort_plan(a, ub, ex.cores);
  if (sort_ub_bytes(ex.plan.run_cap) > ub)
    throw SimError(kExitBadInput, "ffn_worker_batching: a sort run of " +
                                      std::to_string(ex.plan.run_cap) +
                                      " keys needs more UB than ub.size_KiB holds");
  sim.require_window("ffn_worker_batching", window_needed(a),
                     "token_info A x M x (2 + BS x K') x 4 B (4 KiB aligned) + token_data A x M x "
                     "BS x K' x Align512(payload)");
  const int calls = a.layers * a.micro_batches;
  const int64_t y = call_rows(a), eps = entries_per_session(a);
  const uint64_t rb = row_bytes(a);
  // ---- FFN ranks: the context, its buffers, the outputs of every call
  ex.out.assign(a.ffn, std::vector<FfnBuffers>(calls));
  for (int f = 0; f < a.ffn; ++f) {
    int die = a.attn + f;
    uint64_t win = sim.window(die);
    uint64_t info = win, data = win + token_data_offset(a);
    ex.info.push_back(info);
    ex.data.push_back(data);
    // token_info starts with every flag 0 and every id INT_MAX
    std::vector<int32_t> init(token_info_bytes(a) / 4, kPadId);
    for (int64_t i = 0; i < static_cast<int64_t>(init.size()); i += info_words(a)) {
      init[i] = 0;
      init[i + 1] = 0;
    }
    sim.write(info, init.data(), init.size() * 4);
    uint64_t c = sim.alloc(die, "ffn.schedule_context", ctx::kBytes);
    uint64_t lids = sim.alloc(die, "ffn.layer_ids_buf", a.attn * 4ull);
    uint64_t sids = sim.alloc(die, "ffn.session_ids_buf", a.attn * 4ull);
    uint64_t mids = sim.alloc(die, "ffn.micro_batch_ids_buf", a.attn * 4ull);
    uint64_t eids = sim.alloc(die, "ffn.expert_ids_buf", a.attn * eps * 4ull);
    std::vector<uint8_t> cx(ctx::kBytes, 0);
    auto put32 = [&](uint64_t off, uint32_t v) { std::memcpy(&cx[off], &v, 4); };
    auto put64 = [&](uint64_t off, uint64_t v) { std::memcpy(&cx[off], &v, 8); };
    put32(ctx::kSessionNum, static_cast<uint32_t>(a.attn));
    put32(ctx::kMicroBatchNum, static_cast<uint32_t>(a.micro_batches));
    put32(ctx::kMicroBatchSize, static_cast<uint32_t>(a.bs));
    put32(ctx::kSelectedExpertNum, static_cast<uint32_t>(selected(a)));
    put32(ctx::kExpertNum, static_cast<uint32_t>(local_experts(a)));
    put32(ctx::kAttnToFfnTokenSize, static_cast<uint32_t>(token_size(a)));
    put32(ctx::kFfnToAttnTokenSize, static_cast<uint32_t>((rb * 2 + 511) / 512 * 512));
    put32(ctx::kScheduleMode, 0);  // only the FFN side is scheduled here
    put32(ctx::kRunFlag, 1);
    put64(ctx::kTokenInfoBuf, info);
    put64(ctx::kTokenInfoBufSize, token_info_bytes(a));
    put64(ctx::kTokenDataBuf, data);
    put64(ctx::kTokenDataBufSize, token_data_bytes(a));
    put64(ctx::kPollingIndex, 0);
    put64(ctx::kLayerIdsBuf, lids);
    put64(ctx::kLayerIdsBufSize, a.attn * 4ull);
    put64(ctx::kSessionIdsBuf, sids);
    put64(ctx::kSessionIdsBufSize, a.attn * 4ull);
    put64(ctx::kMicroBatchIdsBuf, mids);
    put64(ctx::kMicroBatchIdsBufSize, a.attn * 4ull);
    put64(ctx::kExpertIdsBuf, eids);
    put64(ctx::kExpertIdsBufSize, a.attn * eps * 4ull);
    put32(ctx::kOutNum, 0);
    sim.write(c, cx.data(), cx.size());
    ex.context.push_back(c);
    ex.workspace.push_back(sim.alloc(die, "ffn.workspace", workspace_bytes(ex.plan)));
    for (int k = 0; k < calls; ++k) {
      FfnBuffers& b = ex.out[f][k];
      b.y = sim.alloc(die, "ffn.y", std::max<uint64_t>(1, y * rb));
      b.group_list = sim.alloc(die, "ffn.group_list", expert_num(a) * 16ull);
      b.session_ids = sim.alloc(die, "ffn.session_ids", y * 4ull);
      b.micro_batch_ids = sim.alloc(die, "ffn.micro_batch_ids", y * 4ull);
      b.token_ids = sim.alloc(die, "ffn.token_ids", y * 4ull);
      b.expert_offsets = sim.alloc(die, "ffn.expert_offsets", y * 4ull);
      b.dynamic_scale = sim.alloc(die, "ffn.dynamic_scale", y * 4ull);
      b.actual = sim.alloc(die, "ffn.actual_token_num", 8);
    }
  }
  // ---- attention ranks: their token rows and descriptors (the routing they computed)
  std::vector<uint64_t> x(a.attn), desc(a.attn);
  const uint64_t pb = payload_bytes(a);
  for (int s = 0; s < a.attn; ++s) {
    x[s] = sim.alloc(s, "attn.x", static_cast<uint64_t>(calls) * a.bs * pb);
    desc[s] =
        sim.alloc(s, "attn.descriptors", static_cast<uint64_t>(calls) * a.ffn * (1 + eps) * 4);
    for (int l = 0; l < a.layers; ++l)
      for (int m = 0; m < a.micro_batches; ++m) {
        int c = l * a.micro_batches + m;
        const std::vector<uint8_t>& rows = in.rows(a, s, l, m);
        if (sim.params().integer("sim.payload"))
          sim.write(x[s] + static_cast<uint64_t>(c) * a.bs * pb, rows.data(), rows.size());
        for (int f = 0; f < a.ffn; ++f) {
          std::vector<int32_t> d(1 + eps);
          d[0] = l;
          const std::vector<int32_t>& ids = in.expert_ids(a, f, s, l, m);
          std::copy(ids.begin(), ids.end(), d.begin() + 1);
          sim.write(desc[s] + (static_cast<uint64_t>(c) * a.ffn + f) * (1 + eps) * 4, d.data(),
                    d.size() * 4);
        }
      }
  }
  ex.stamps.assign(static_cast<size_t>(a.ffn) * calls * kStamps, 0);
  ex.gather_end.assign(static_cast<size_t>(a.ffn) * calls * ex.cores, 0);
  ex.landed.assign(static_cast<size_t>(a.attn) * calls, 0);
  ex.record = &sim.run_kernel("ffn_worker_batching", ex.cores, [&](int die) {
    return std::function<void()>([&, die] {
      if (die < a.attn) {
        AttnArgs args;
        args.x = reinterpret_cast<GM_ADDR>(x[die]);
        args.desc = reinterpret_cast<GM_ADDR>(desc[die]);
        for (int f = 0; f < a.ffn; ++f) {
          args.info.push_back(reinterpret_cast<GM_ADDR>(ex.info[f]));
          args.data.push_back(reinterpret_cast<GM_ADDR>(ex.data[f]));
          args.ffn_ws.push_back(reinterpret_cast<GM_ADDR>(ex.workspace[f]));
        }
        args.attrs = a;
        args.session = die;
        args.start_delay_ps = knobs.start_delay_ps.empty() ? 0 : knobs.start_delay_ps[die];
        args.compute_ps = knobs.compute_ps;
        args.drop = die == knobs.drop_rank;
        args.landed_ps = &ex.landed[static_cast<size_t>(die) * calls];
        KernelAttentionToFfn k;
        k.Init(args);
        k.Process();
        return;
      }
      const int f = die - a.attn;
      for (int c = 0; c < calls; ++c) {
        FfnArgs args;
        const FfnBuffers& b = ex.out[f][c];
        args.context = reinterpret_cast<GM_ADDR>(ex.context[f]);
        args.y = reinterpret_cast<GM_ADDR>(b.y);
        args.group_list = reinterpret_cast<GM_ADDR>(b.group_list);
        args.session_ids = reinterpret_cast<GM_ADDR>(b.session_ids);
        args.micro_batch_ids = reinterpret_cast<GM_ADDR>(b.micro_batch_ids);
        args.token_ids = reinterpret_cast<GM_ADDR>(b.token_ids);
        args.expert_offsets = reinterpret_cast<GM_ADDR>(b.expert_offsets);
        args.dynamic_scale = reinterpret_cast<GM_ADDR>(b.dynamic_scale);
        args.actual_token_num = reinterpret_cast<GM_ADDR>(b.actual);
        args.workspace = reinterpret_cast<GM_ADDR>(ex.workspace[f]);
        args.attrs = a;
        args.plan = ex.plan;
        args.call = c;
        args.stamps = &ex.stamps[(static_cast<size_t>(f) * calls + c) * kStamps];
        args.gather_end = &ex.gather_end[(static_cast<size_t>(f) * calls + c) * ex.cores];
        if (!a.recv) {
          KernelFfnWorkerScheduler s;
          s.Init(args);
          s.Process();
        }
        KernelFfnWorkerBatching k;
        k.Init(args);
        k.Process();
      }
    });
  });
  return ex;
}

std::string compare(const Attrs& a, const Outputs& want, Simulation& sim, const FfnBuffers& b,
                    bool payload) {
  auto num = [](auto v) { return std::to_string(v); };
  int64_t actual = read_vec<int64_t>(sim, b.actual, 1)[0];
  if (actual != want.actual)
    return "tensor actual_token_num: " + num(actual) + ", golden " + num(want.actual);
  auto gl = read_vec<int64_t>(sim, b.group_list, want.group_list.size());
  for (size_t i = 0; i < gl.size(); ++i)
    if (gl[i] != want.group_list[i])
      return "tensor group_list, row " + num(i / 2) + ", column " + num(i % 2) + ": " + num(gl[i]) +
             ", golden " + num(want.group_list[i]);
  const size_t n = static_cast<size_t>(want.actual);
  struct Ids {
    const char* name;
    uint64_t addr;
    const std::vector<int32_t>* want;
  } ids[] = {{"session_ids", b.session_ids, &want.session_ids},
             {"micro_batch_ids", b.micro_batch_ids, &want.micro_batch_ids},
             {"token_ids", b.token_ids, &want.token_ids},
             {"expert_offsets", b.expert_offsets, &want.expert_offsets}};
  for (const Ids& t : ids) {
    auto got = read_vec<int32_t>(sim, t.addr, n);
    for (size_t i = 0; i < n; ++i)
      if (got[i] != (*t.want)[i])
        return std::string("tensor ") + t.name + ", row " + num(i) + ", column 0: " + num(got[i]) +
               ", golden " + num((*t.want)[i]);
  }
  if (!payload) return "";
  const uint64_t rb = row_bytes(a), eb = elem_bytes(a);
  auto yv = read_vec<uint8_t>(sim, b.y, n * rb);
  for (size_t i = 0; i < yv.size(); ++i)
    if (yv[i] != want.y[i])
      return "tensor y, row " + num(i / rb) + ", column " + num(i % rb / eb) + " (byte " +
             num(int{yv[i]}) + ", golden " + num(int{want.y[i]}) + ")";
  if (a.dtype == TokenDtype::Int8) {
    auto sc = read_vec<float>(sim, b.dynamic_scale, n);
    for (size_t i = 0; i < n; ++i)
      if (std::memcmp(&sc[i], &want.dynamic_scale[i], 4) != 0)
        return "tensor dynamic_scale, row " + num(i) + ", column 0: " + num(sc[i]) + ", golden " +
               num(want.dynamic_scale[i]);
  }
  return "";
}

}  // namespace ffn

namespace {

void dump(Simulation& sim, const Attrs& a, const ffn::Inputs& in, const ffn::Execution& ex, int f,
          int l, int m, const std::string& dir) {
  using ffn::TokenDtype;
  const uint64_t A = a.attn, M = a.micro_batches, bs = a.bs, k1 = ffn::selected(a),
                 hs = ffn::token_size(a), y = ffn::call_rows(a), h = a.hidden;
  // The context's inputs as the attention ranks wrote them for this layer (flag 1).
  std::vector<int32_t> info(A * M * ffn::info_words(a));
  std::vector<uint8_t> data(ffn::token_data_bytes(a), 0);
  const uint64_t pb = ffn::payload_bytes(a);
  for (uint64_t s = 0; s < A; ++s)
    for (uint64_t mb = 0; mb < M; ++mb) {
      int32_t* d = &info[(s * M + mb) * ffn::info_words(a)];
      d[0] = 1;
      d[1] = l;
      const auto& ids = in.expert_ids(a, f, static_cast<int>(s), l, static_cast<int>(mb));
      std::copy(ids.begin(), ids.end(), d + 2);
      const auto& rows = in.rows(a, static_cast<int>(s), l, static_cast<int>(mb));
      for (uint64_t j = 0; j < bs * k1; ++j)
        if (ids[j] < ffn::kMaskId)
          std::memcpy(&data[((s * M + mb) * bs * k1 + j) * hs], &rows[j / k1 * pb], pb);
    }
  npy::write(dir + "/token_info.npy", "<i4", {A, M, static_cast<uint64_t>(ffn::info_words(a))},
             info.data());
  npy::write(dir + "/token_data.npy", "|u1", {A, M, bs, k1, hs}, data.data());
  const ffn::FfnBuffers& b = ex.out[f][l * a.micro_batches + m];
  const char* ydt = a.dtype == TokenDtype::Int8   ? "|i1"
                    : a.dtype == TokenDtype::Bf16 ? "<u2"
                                                  : "<f2";
  npy::write(dir + "/y.npy", ydt, {y, h},
             common::read_vec<uint8_t>(sim, b.y, y * ffn::row_bytes(a)).data());
  npy::write(dir + "/group_list.npy", "<i8", {static_cast<uint64_t>(ffn::expert_num(a)), 2},
             common::read_vec<uint8_t>(sim, b.group_list, ffn::expert_num(a) * 16).data());
  npy::write(dir + "/session_ids.npy", "<i4", {y},
             common::read_vec<uint8_t>(sim, b.session_ids, y * 4).data());
  npy::write(dir + "/micro_batch_ids.npy", "<i4", {y},
             common::read_vec<uint8_t>(sim, b.micro_batch_ids, y * 4).data());
  npy::write(dir + "/token_ids.npy", "<i4", {y},
             common::read_vec<uint8_t>(sim, b.token_ids, y * 4).data());
  npy::write(dir + "/expert_offsets.npy", "<i4", {y},
             common::read_vec<uint8_t>(sim, b.expert_offsets, y * 4).data());
  if (a.dtype == TokenDtype::Int8)
    npy::write(dir + "/dynamic_scale.npy", "<f4", {y},
               common::read_vec<uint8_t>(sim, b.dynamic_scale, y * 4).data());
  else
    npy::write(dir + "/dynamic_scale.npy", "<f4", {0}, nullptr);
  npy::write(dir + "/actual_token_num.npy", "<i8", {},
             common::read_vec<uint8_t>(sim, b.actual, 8).data());
}

class FfnRun : public KernelRun {
 public:
  // dies() has validated the attributes: the plan adds the routing and the knobs' ranks.
  explicit FfnRun(const Params& p)
      : p_(p), a_(ffn::attrs_of(p)), w_(read_fields(p, workload_fields())) {
    ffn::validate(a_, 768);
    common::Routing("ffn.routing", w_.routing, a_.experts);
    for (const auto& [key, rank] :
         {std::pair{"ffn.late_rank", w_.late_rank}, std::pair{"ffn.drop_rank", w_.drop_rank}})
      if (rank >= a_.attn)
        throw SimError(kExitBadInput,
                       std::string(key) + " = " + std::to_string(rank) +
                           " is not an attention rank (A = " + std::to_string(a_.attn) + ")");
  }

  void place(Simulation&) override {
    in_ = ffn::generate(a_, w_.routing, static_cast<uint64_t>(p_.integer("sim.seed")),
                        p_.integer("sim.payload") != 0);
    const double skew = w_.start_skew_us;
    std::mt19937 rng(static_cast<uint32_t>(p_.integer("sim.seed") * 31 + 7));
    std::uniform_real_distribution<double> u(0, 1);
    for (int s = 0; s < a_.attn; ++s) {
      double us = w_.uniform_skew ? skew * u(rng) : (a_.attn > 1 ? skew * s / (a_.attn - 1) : 0.0);
      if (s == w_.late_rank) us += w_.late_us;
      knobs_.start_delay_ps.push_back(static_cast<uint64_t>(us * 1e6));
    }
    knobs_.compute_ps = static_cast<uint64_t>(w_.attn_compute_us * 1e6);
    knobs_.drop_rank = w_.drop_rank;
  }

  // The ScheduleContexts, the inputs' GM and the launch are one step (ffn::execute).
  void launch(Simulation& sim) override { ex_ = ffn::execute(sim, a_, in_, knobs_); }

  // Figures per FFN rank and call.
  void figures(Simulation& sim) override {
    KernelRecord& rec = *ex_.record;
    const int calls = a_.layers * a_.micro_batches;
    nlohmann::json per = nlohmann::json::array();
    double worst_after_last_write = 0, worst_latency = 0;
    for (int f = 0; f < a_.ffn; ++f)
      for (int c = 0; c < calls; ++c) {
        const uint64_t* st = &ex_.stamps[(static_cast<size_t>(f) * calls + c) * ffn::kStamps];
        uint64_t last_write = 0, gather = st[ffn::kSortEnd];
        for (int s = 0; s < a_.attn; ++s)
          last_write = std::max(last_write, ex_.landed[static_cast<size_t>(s) * calls + c]);
        for (int k = 0; k < ex_.cores; ++k)
          gather = std::max(gather,
                            ex_.gather_end[(static_cast<size_t>(f) * calls + c) * ex_.cores + k]);
        auto ns = [](uint64_t from, uint64_t to) {
          return to > from ? model::ps_to_ns(to - from) : 0.0;
        };
        nlohmann::json j;
        j["ffn_rank"] = f;
        j["call"] = c;
        j["layer"] = c / a_.micro_batches;
        j["micro_batch"] = c % a_.micro_batches;
        j["actual_token_num"] = 0;
        j["start_ns"] = model::ps_to_ns(st[ffn::kCallStart] - rec.start);
        j["last_attention_write_ns"] = model::ps_to_ns(last_write - rec.start);
        j["batching_start_ns"] = model::ps_to_ns(st[ffn::kPollEnd] - rec.start);
        j["poll_ns"] = ns(st[ffn::kCallStart], st[ffn::kPollEnd]);
        j["sort_ns"] = ns(st[ffn::kPollEnd], st[ffn::kSortEnd]);
        j["gather_ns"] = ns(st[ffn::kSortEnd], gather);
        j["group_list_ns"] = ns(st[ffn::kSortEnd], st[ffn::kGroupEnd]);
        j["kernel_latency_ns"] = ns(st[ffn::kCallStart], st[ffn::kCallEnd]);
        j["batching_ns"] = ns(st[ffn::kPollEnd], st[ffn::kCallEnd]);
        j["last_write_to_end_ns"] = ns(last_write, st[ffn::kCallEnd]);
        worst_after_last_write =
            std::max(worst_after_last_write, j["last_write_to_end_ns"].get<double>());
        worst_latency = std::max(worst_latency, j["batching_ns"].get<double>());
        int64_t actual = 0;
        sim.read(ex_.out[f][c].actual, &actual, 8);
        j["actual_token_num"] = actual;
        per.push_back(j);
      }
    rec.figure("calls", "ns (the *_ns fields), tokens (actual_token_num) per FFN rank and call",
               per);
    rec.figure("last_write_to_end_max_ns", "ns", worst_after_last_write);
    rec.figure("batching_max_ns", "ns", worst_latency);
    rec.figure("launch_cores", "count", ex_.cores);
    rec.figure("sort_runs", "count", ex_.plan.runs);
    rec.figure("sort_cores", "count", ex_.plan.sort_cores);
    rec.figure("sort_max_elements", "elements", ex_.plan.max_elements);
    rec.figure("merge_rounds", "count", ex_.plan.merge_rounds);
    rec.figure("Y", "rows", ffn::call_rows(a_));
    rec.figure("mode", "name", a_.recv ? "RECV" : "NORM");
  }

  void dump(Simulation& sim, const std::string& dir) override {
    const int calls = a_.layers * a_.micro_batches;
    for (int f = 0; f < a_.ffn; ++f)
      for (int c = 0; c < calls; ++c)
        ascend::dump(sim, a_, in_, ex_, f, c / a_.micro_batches, c % a_.micro_batches,
                     common::dump_dir(dir, calls, c, "ffn_rank" + std::to_string(f)));
  }

  std::string check(Simulation& sim, bool payload) override {
    const int calls = a_.layers * a_.micro_batches;
    for (int f = 0; f < a_.ffn; ++f)
      for (int c = 0; c < calls; ++c) {
        ffn::Outputs want = ffn::golden(a_, in_, f, c / a_.micro_batches, c % a_.micro_batches);
        std::string diff = ffn::compare(a_, want, sim, ex_.out[f][c], payload);
        if (!diff.empty())
          return "FFN rank " + std::to_string(f) + ", call " + std::to_string(c) + ": " + diff;
      }
    return "";
  }

  std::string checked(bool payload) const override {
    return std::string(payload ? "every output" : "every id and count (timing-only)") +
           " of every FFN rank and call matches the golden reference (" + std::to_string(a_.ffn) +
           " FFN rank(s), " + std::to_string(a_.layers * a_.micro_batches) + " call(s), Y " +
           std::to_string(ffn::call_rows(a_)) + ")";
  }

 private:
  const Params& p_;
  Attrs a_;
  Workload w_;
  ffn::Inputs in_;
  ffn::Knobs knobs_;
  ffn::Execution ex_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<FfnRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(ffn_worker_batching_kernel_def, 50);

KernelDef ffn_worker_batching_kernel_def() {
  KernelDef k{"ffn_worker_batching",
              "FfnWorkerBatching: A attention ranks feed F FFN ranks, which sort and gather "
              "tokens by expert",
              declare, dies, plan};
  k.workload = "ffn";
  k.shorthands = {{"bs", "ffn.bs", "tokens per micro-batch"},
                  {"hidden", "ffn.hidden", "hidden size H"},
                  {"topk", "ffn.topk", "experts per token K (selected experts = K + 1)"},
                  {"experts", "ffn.experts", "MoE experts per layer"},
                  {"routing", "ffn.routing", "uniform | balanced | zipf:ALPHA"},
                  {"attn-ranks", "ffn.attn_ranks", "attention ranks A"},
                  {"micro-batches", "ffn.micro_batches", "micro-batches M"},
                  {"layers", "ffn.layers", "layers"},
                  {"token-dtype", "ffn.token_dtype", "fp16 | bf16 | int8"},
                  {"need-schedule", "ffn.need_schedule", "1 RECV | 0 NORM"},
                  {"mask-rate", "ffn.mask_rate", "share of masked entries"},
                  seed_flag()};
  // Per FFN rank and call: the context's token_info and token_data, y and its five id/scale
  // vectors, group_list, actual_token_num.
  k.dump_bytes = [](const Params& p, int) {
    const ffn::Attrs a = ffn::attrs_of(p);
    const uint64_t y = static_cast<uint64_t>(ffn::call_rows(a));
    const uint64_t per_call = ffn::token_info_bytes(a) + ffn::token_data_bytes(a) +
                              y * (ffn::row_bytes(a) + 5 * 4) +
                              static_cast<uint64_t>(ffn::expert_num(a)) * 16 + 8;
    return per_call * static_cast<uint64_t>(a.ffn) * a.layers * a.micro_batches;
  };
  return k;
}

}  // namespace ascend
