// Host side of MoeDistributeDispatch: attributes from the parameters, generated inputs (routing),
// GM placement, launch (one or more back-to-back calls), the golden check, and the figures.
#include <cstring>
#include <random>

#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/dispatch/dispatch_kernel.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/api/numeric.h"
#include "sim/npy.h"

namespace ascend {

namespace {

using dispatch::Attrs;

void declare(Params& p) {
  const char* w = "workload";
  const char* doc = "MoeDistributeDispatchV2 A3 limits (kernels.md 1.1)";
  p.declare(int_param("dispatch.bs", "tokens", "128", 1, 512, "tokens per rank (BS)", doc));
  p.declare(int_param("dispatch.hidden", "", "7168", 1024, 8192, "hidden size H", doc));
  p.declare(int_param("dispatch.topk", "", "8", 1, 16, "experts per token (K)", doc));
  p.declare(int_param("dispatch.experts", "", "256", 1, 1024,
                      "MoE experts E (a multiple of the MoE ranks)", doc));
  p.declare(int_param("dispatch.shared_experts", "", "0", 0, 4, "shared experts", doc));
  p.declare(int_param("dispatch.shared_expert_ranks", "ranks", "0", 0, 767,
                      "ranks [0, S) holding shared experts (a multiple of shared_experts)", doc));
  p.declare(choice_param("dispatch.quant", "int8", {"int8", "none"},
                         "int8: dynamic per-token quantization before sending (quantMode 2)", doc));
  p.declare(choice_param("dispatch.dtype", "bf16", {"bf16", "fp16"}, "token dtype", doc));
  p.declare(int_param("dispatch.token_nums_type", "", "1", 0, 1,
                      "expertTokenNums: 1 count per expert, 0 inclusive cumsum", doc));
  p.declare(int_param("dispatch.active_tokens", "tokens", "-1", -1, 512,
                      "1-D active mask: the first N tokens are active (-1: all)", doc));
  p.declare(text_param("dispatch.routing", "uniform",
                       "uniform, balanced (round-robin) or zipf:ALPHA (expert 0 hottest)", w));
  p.declare(int_param("dispatch.buffer_num", "", "2", 1, 2,
                      "UB buffers per queue (falls back to 1 when the plan passes 170 KiB)", w));
  p.declare(choice_param(
      "dispatch.send_split", "entry", dispatch::send_splits().names(),
      "send core split: entry (the real kernel: contiguous entries), rank (each core serves the "
      "destination ranks = core mod send cores) or token (fullmesh_v2: whole tokens, each "
      "quantized once and sent K times)",
      w));
  p.declare(int_param("dispatch.shared_send_cores", "cores", "-1", -1, 95,
                      "cores sending to shared experts (-1: max(1, cores x shared / (K + shared)))",
                      w));
  p.declare(int_param("dispatch.window_flip", "", "1", 0, 1,
                      "1: consecutive calls alternate the 0/1 window halves; 0: always half 0", w));
  p.declare(int_param(
      "dispatch.quant_before_send", "", "1", 0, 1,
      "with int8: 1 quantizes before sending (the real kernel, int8 records on the wire); "
      "0 sends the token as is and each receiver quantizes during its local copy",
      w));
  p.declare(int_param("dispatch.calls", "", "1", 1, 16,
                      "back-to-back dispatch calls in one launch (each with new tokens)", w));
  p.declare(int_param("dispatch.delay_rank", "rank", "-1", -1, 767,
                      "a rank that stalls before its local copy in call 1 (-1: none)", w));
  p.declare(real_param("dispatch.delay_us", "us", "20", 0, 1e6, "how long it stalls", w));
}

int dies(const Params& p) {
  return ep_ranks(p, 16);
}

}  // namespace

namespace dispatch {

Attrs attrs_of(const Params& p, int ep, int cores) {
  Attrs a;
  a.ep = ep;
  a.bs = static_cast<int>(p.integer("dispatch.bs"));
  a.hidden = static_cast<int>(p.integer("dispatch.hidden"));
  a.topk = static_cast<int>(p.integer("dispatch.topk"));
  a.experts = static_cast<int>(p.integer("dispatch.experts"));
  a.shared_experts = static_cast<int>(p.integer("dispatch.shared_experts"));
  a.shared_expert_ranks = static_cast<int>(p.integer("dispatch.shared_expert_ranks"));
  a.quant = p.text("dispatch.quant") == "int8";
  a.quant_before_send = p.integer("dispatch.quant_before_send") != 0;
  a.dtype_bytes = 2;
  a.token_nums_type = static_cast<int>(p.integer("dispatch.token_nums_type"));
  a.active_tokens = static_cast<int>(p.integer("dispatch.active_tokens"));
  a.cores = cores;
  a.buffer_num = static_cast<int>(p.integer("dispatch.buffer_num"));
  a.shared_send_cores = static_cast<int>(p.integer("dispatch.shared_send_cores"));
  a.split = p.text("dispatch.send_split");
  return a;
}

// Each token picks K distinct MoE experts.
std::vector<int32_t> route(const Attrs& a, const std::string& routing, int rank,
                           std::mt19937& rng) {
  const common::Routing pick("dispatch.routing", routing, a.experts);
  std::vector<int32_t> ids(static_cast<size_t>(a.bs) * a.topk);
  for (int t = 0; t < a.bs; ++t)
    pick.pick(rank, a.bs, t, a.topk, rng, &ids[static_cast<size_t>(t) * a.topk]);
  return ids;
}

std::vector<uint16_t> random_tokens(const Attrs& a, bool bf16, std::mt19937& rng) {
  std::vector<uint16_t> x(static_cast<size_t>(a.bs) * a.hidden);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (uint16_t& v : x)
    v = bf16 ? AscendC::to_bf16(dist(rng), AscendC::RoundMode::CAST_RINT).bits
             : AscendC::to_half(dist(rng), AscendC::RoundMode::CAST_RINT).bits;
  return x;
}

// --input DIR/rank{r}/: expert_ids (BS, K) <i4, x (BS, H), x_active_mask (BS,) |b1 (optional, a
// prefix of true values).
RankInputs read_inputs(const Attrs& a, bool bf16, const std::string& dir) {
  RankInputs in;
  uint64_t bs = a.bs, k = a.topk, h = a.hidden;
  npy::Array ids = npy::read_expect(dir + "/expert_ids.npy", "<i4", {bs, k});
  in.ids.resize(bs * k);
  std::memcpy(in.ids.data(), ids.bytes.data(), ids.bytes.size());
  for (size_t i = 0; i < in.ids.size(); ++i) {
    for (size_t j = i - i % k; j < i; ++j)
      if (in.ids[j] == in.ids[i])
        throw SimError(kExitBadInput, dir + "/expert_ids.npy: token " + std::to_string(i / k) +
                                          " chooses expert " + std::to_string(in.ids[i]) +
                                          " twice; a token's K experts are distinct");
    if (in.ids[i] < 0 || in.ids[i] >= a.experts)
      throw SimError(kExitBadInput, dir + "/expert_ids.npy: entry " + std::to_string(i) + " = " +
                                        std::to_string(in.ids[i]) + " is not a MoE expert in [0, " +
                                        std::to_string(a.experts) +
                                        ") (special experts are not modelled)");
  }
  npy::Array x = npy::read_expect(dir + "/x.npy", bf16 ? "<u2" : "<f2", {bs, h});
  in.x.resize(bs * h);
  std::memcpy(in.x.data(), x.bytes.data(), x.bytes.size());
  in.active = common::read_active_mask(dir, a.bs);
  return in;
}

// --dump: the inputs and every output with its documented shape (only the rows the kernel
// defines are meaningful).
void dump(Simulation& sim, const Attrs& a, bool bf16, const dispatch::RankInputs& in,
          const dispatch::RankBuffers& b, int rank, const std::string& dir) {
  uint64_t bs = a.bs, h = a.hidden, rows = dispatch::capacity_rows(a, rank);
  uint64_t l = dispatch::local_experts(a, rank);
  npy::write(dir + "/x.npy", bf16 ? "<u2" : "<f2", {bs, h},
             common::read_vec<uint8_t>(sim, b.x, bs * h * 2).data());
  npy::write(dir + "/expert_ids.npy", "<i4", {bs, static_cast<uint64_t>(a.topk)}, in.ids.data());
  common::write_active_mask(dir, a.bs, in.active_tokens(a));
  npy::write(dir + "/expand_x.npy", a.quant ? "|i1" : (bf16 ? "<u2" : "<f2"), {rows, h},
             common::read_vec<uint8_t>(sim, b.expand_x, rows * dispatch::out_row_bytes(a)).data());
  if (a.quant)
    npy::write(dir + "/dynamic_scales.npy", "<f4", {rows},
               common::read_vec<uint8_t>(sim, b.scales, rows * 4).data());
  npy::write(dir + "/assist_info_for_combine.npy", "<i4", {rows * 128},
             common::read_vec<uint8_t>(sim, b.assist, rows * 128 * 4).data());
  npy::write(dir + "/expert_token_nums.npy", "<i8", {l},
             common::read_vec<uint8_t>(sim, b.token_nums, l * 8).data());
  npy::write(dir + "/ep_recv_counts.npy", "<i4", {static_cast<uint64_t>(a.ep) * l},
             common::read_vec<uint8_t>(sim, b.recv_counts, a.ep * l * 4).data());
}

std::vector<std::vector<RankInputs>> make_inputs(const Params& p, const Attrs& a, bool bf16,
                                                 int calls) {
  const bool payload = p.integer("sim.payload") != 0;
  std::vector<std::vector<RankInputs>> inputs(calls, std::vector<RankInputs>(a.ep));
  const std::string routing = p.text("dispatch.routing"), input_dir = p.text("run.input_dir");
  for (int c = 0; c < calls; ++c)
    for (int r = 0; r < a.ep; ++r) {
      if (!input_dir.empty()) {
        inputs[c][r] = read_inputs(a, bf16, input_dir + "/rank" + std::to_string(r));
        if (!payload) inputs[c][r].x.clear();
        continue;
      }
      std::mt19937 rng(common::input_seed(p, r, c));
      inputs[c][r].ids = route(a, routing, r, rng);
      if (payload) inputs[c][r].x = random_tokens(a, bf16, rng);  // timing-only: no hidden states
    }
  return inputs;
}

void add_figures(KernelRecord& rec, const Attrs& a, const std::vector<RankInputs>& first_call,
                 const Execution& ex, int calls, const PhaseNames& names) {
  const int ranks = a.ep, cores = a.cores;
  uint64_t msg = record_bytes(a);
  nlohmann::json bw = nlohmann::json::array(), phase = nlohmann::json::object();
  for (int i = 0; i < 4; ++i) phase[names[i]] = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    double ns = model::ps_to_ns(rec.rank_latency[r]);
    int n_bs = first_call[r].active_tokens(a);
    bw.push_back(ns > 0 ? static_cast<double>(n_bs) * a.topk * msg * calls / ns : 0.0);
    for (int i = 0; i < 4; ++i) {
      uint64_t worst = 0;
      for (int c = 0; c < cores; ++c) {
        const uint64_t* ph = &ex.phases[(static_cast<size_t>(r) * cores + c) * 5];
        worst = std::max(worst, ph[i + 1] - ph[i]);
      }
      phase[names[i]].push_back(model::ps_to_ns(worst));
    }
  }
  rec.figure("rank_bandwidth_GBps", "GB/s per rank", bw);
  rec.figure("phase_max_over_cores", "ns per rank", phase);
  rec.figure("record_bytes", "B", msg);
  rec.figure("buffer_num", "count", ex.buffer_num);
  rec.figure("calls", "count", calls);
  rec.figure("active_tokens_rank0", "tokens", first_call[0].active_tokens(a));
}

using common::read_vec;

void require_dispatch_window(const Params& p, const Attrs& a, const std::string& kernel) {
  require_window(
      p, kernel, window_needed(a),
      "2 x (L x BS x W x Align512(Align32(2H) + 64) + (K + shared) x BS x Align512(2H))");
}

void check_routing(const Params& p, const Attrs& a) {
  if (p.text("run.input_dir").empty())  // generated inputs: the routing must parse
    common::Routing("dispatch.routing", p.text("dispatch.routing"), a.experts);
}

std::string compare(const Attrs& a, const RankOutputs& want, Simulation& sim, const RankBuffers& b,
                    int rank, int call, bool payload) {
  int rows = want.rows, l = dispatch::local_experts(a, rank);
  uint64_t row_bytes = dispatch::out_row_bytes(a);
  std::string where = "call " + std::to_string(call) + ", rank " + std::to_string(rank);
  auto recv = read_vec<int32_t>(sim, b.recv_counts, static_cast<size_t>(a.ep) * l);
  for (size_t i = 0; i < recv.size(); ++i)
    if (recv[i] != want.ep_recv_counts[i])
      return "tensor ep_recv_counts, " + where + ", row " + std::to_string(i) + ": " +
             std::to_string(recv[i]) + ", golden " + std::to_string(want.ep_recv_counts[i]);
  auto nums = read_vec<int64_t>(sim, b.token_nums, l);
  for (int i = 0; i < l; ++i)
    if (nums[i] != want.expert_token_nums[i])
      return "tensor expert_token_nums, " + where + ", row " + std::to_string(i) + ": " +
             std::to_string(nums[i]) + ", golden " + std::to_string(want.expert_token_nums[i]);
  auto assist = read_vec<int32_t>(sim, b.assist, 3ull * rows);
  for (int i = 0; i < 3 * rows; ++i)
    if (assist[i] != want.assist_info[i])
      return "tensor assist_info_for_combine, " + where + ", row " + std::to_string(i / 3) +
             ", column " + std::to_string(i % 3) + ": " + std::to_string(assist[i]) + ", golden " +
             std::to_string(want.assist_info[i]);
  if (!payload) return "";  // timing-only: hidden states and scales were not moved
  auto ex = read_vec<uint8_t>(sim, b.expand_x, rows * row_bytes);
  for (uint64_t i = 0; i < rows * row_bytes; ++i)
    if (ex[i] != want.expand_x[i]) {
      uint64_t elem = a.quant ? 1 : 2;
      return "tensor expand_x, " + where + ", row " + std::to_string(i / row_bytes) + ", column " +
             std::to_string(i % row_bytes / elem) + " (byte " + std::to_string(ex[i]) +
             ", golden " + std::to_string(want.expand_x[i]) + ")";
    }
  if (a.quant) {
    auto sc = read_vec<float>(sim, b.scales, rows);
    for (int i = 0; i < rows; ++i)
      if (std::memcmp(&sc[i], &want.dynamic_scales[i], 4) != 0)
        return "tensor dynamic_scales, " + where + ", row " + std::to_string(i) + ": " +
               std::to_string(sc[i]) + ", golden " + std::to_string(want.dynamic_scales[i]);
  }
  return "";
}

RankBuffers place_rank(Simulation& sim, const Attrs& a, int r, const RankInputs& in,
                       const std::string& kernel) {
  RankBuffers b{};
  const int rows = capacity_rows(a, r), l = local_experts(a, r);
  b.x = sim.alloc(r, kernel + ".x", static_cast<uint64_t>(a.bs) * a.hidden * 2);
  b.ids = sim.alloc(r, kernel + ".expert_ids", in.ids.size() * 4);
  b.expand_x = sim.alloc(r, kernel + ".expand_x", rows * out_row_bytes(a));
  b.scales = sim.alloc(r, kernel + ".dynamic_scales", rows * 4ull);
  b.assist = sim.alloc(r, kernel + ".assist_info_for_combine", rows * 128ull * 4);
  b.token_nums = sim.alloc(r, kernel + ".expert_token_nums", l * 8ull);
  b.recv_counts = sim.alloc(r, kernel + ".ep_recv_counts", static_cast<uint64_t>(a.ep) * l * 4);
  if (!in.x.empty()) sim.write(b.x, in.x.data(), in.x.size() * 2);
  sim.write(b.ids, in.ids.data(), in.ids.size() * 4);
  return b;
}

Execution place(Simulation& sim, const Attrs& a,
                const std::vector<std::vector<RankInputs>>& inputs) {
  const int ranks = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  const int calls = static_cast<int>(inputs.size());
  Execution ex;
  ex.buffer_num = effective_buffer_num(a, sim.cluster().config().core.ub_bytes);
  ex.bufs.assign(calls, std::vector<RankBuffers>(ranks));
  ex.shares.assign(calls, std::vector<std::vector<SendShare>>(ranks));
  for (int c = 0; c < calls; ++c)
    for (int r = 0; r < ranks; ++r) {
      ex.shares[c][r] = send_plan(a, inputs[c][r].active_tokens(a), cores);
      RankBuffers& b = ex.bufs[c][r];
      b = place_rank(sim, a, r, inputs[c][r], "dispatch");
      b.workspace = sim.alloc(r, "dispatch.workspace", cores * 512ull);
    }
  return ex;
}

void launch(Simulation& sim, const Attrs& a, bool bf16,
            const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs, Execution& ex) {
  const int ranks = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  const int calls = static_cast<int>(inputs.size());
  ex.phases.assign(static_cast<size_t>(ranks) * cores * 5, 0);
  ex.record = &sim.run_kernel("dispatch", cores, [&](int rank) {
    return [&, rank] {
      for (int c = 0; c < calls; ++c) {
        const RankBuffers& b = ex.bufs[c][rank];
        DeviceArgs args;
        bind_tensors(args, b);
        args.workspace = reinterpret_cast<GM_ADDR>(b.workspace);
        args.attrs = a;
        args.buffer_num = ex.buffer_num;
        args.window_flip = knobs.window_flip;
        args.phase_ps = &ex.phases[static_cast<size_t>(rank) * cores * 5];
        args.stall_before_copy_ps = (rank == knobs.delay_rank && c == 0) ? knobs.delay_ps : 0;
        args.active_tokens = inputs[c][rank].active_tokens(a);
        args.send_shares = ex.shares[c][rank].data();
        common::run_device<KernelDispatch>(bf16, args);
      }
    };
  });
}

Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs) {
  Execution ex = place(sim, a, inputs);
  launch(sim, a, bf16, inputs, knobs, ex);
  return ex;
}

}  // namespace dispatch

namespace {

// The plan: the attributes, the window they need, the routing and the knobs' ranks.
class DispatchRun : public KernelRun {
 public:
  DispatchRun(const Params& p, int ranks)
      : p_(p),
        a_(dispatch::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")))),
        bf16_(p.text("dispatch.dtype") == "bf16"),
        calls_(static_cast<int>(p.integer("dispatch.calls"))) {
    dispatch::validate(a_);
    dispatch::require_dispatch_window(p, a_, "dispatch");
    dispatch::check_routing(p, a_);
    knobs_.window_flip = p.integer("dispatch.window_flip") != 0;
    knobs_.delay_rank = static_cast<int>(p.integer("dispatch.delay_rank"));
    knobs_.delay_ps = static_cast<model::Tick>(p.real("dispatch.delay_us") * 1e6);
    if (knobs_.delay_rank >= ranks)
      throw SimError(kExitBadInput,
                     "dispatch.delay_rank = " + std::to_string(knobs_.delay_rank) +
                         " is not a rank of ep.world_size = " + std::to_string(ranks));
  }

  void place(Simulation& sim) override {
    inputs_ = dispatch::make_inputs(p_, a_, bf16_, calls_);
    ex_ = dispatch::place(sim, a_, inputs_);
  }
  void launch(Simulation& sim) override { dispatch::launch(sim, a_, bf16_, inputs_, knobs_, ex_); }
  void figures(Simulation&) override {
    dispatch::add_figures(*ex_.record, a_, inputs_[0], ex_, calls_);
  }
  void dump(Simulation& sim, const std::string& dir) override {
    for (int c = 0; c < calls_; ++c)
      for (int r = 0; r < a_.ep; ++r)
        dispatch::dump(sim, a_, bf16_, inputs_[c][r], ex_.bufs[c][r], r,
                       common::dump_dir(dir, calls_, c, "rank" + std::to_string(r)));
  }
  std::string check(Simulation& sim, bool payload) override {
    for (int c = 0; c < calls_; ++c) {
      std::vector<dispatch::RankOutputs> want = dispatch::golden(a_, bf16_, inputs_[c]);
      for (int r = 0; r < a_.ep; ++r) {
        std::string diff = dispatch::compare(a_, want[r], sim, ex_.bufs[c][r], r, c, payload);
        if (!diff.empty()) return diff;
      }
    }
    return "";
  }
  std::string checked(bool payload) const override {
    return std::string(payload ? "every output" : "every id, count and triple (timing-only)") +
           " of every rank matches the golden reference (" + std::to_string(a_.ep) + " ranks, " +
           std::to_string(calls_) + " call(s))";
  }

 private:
  const Params& p_;
  Attrs a_;
  bool bf16_;
  int calls_;
  dispatch::Knobs knobs_;
  std::vector<std::vector<dispatch::RankInputs>> inputs_;
  dispatch::Execution ex_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<DispatchRun>(p, ranks);
}

}  // namespace

KernelDef dispatch_kernel_def() {
  return {"dispatch", "MoeDistributeDispatch (A3 fullmesh_v1): tokens to their experts' ranks",
          declare, dies, plan};
}

}  // namespace ascend
