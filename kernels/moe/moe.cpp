// `--kernel moe`: the round trip of an expert-parallel MoE layer on one simulated machine.
// Per layer: dispatch (the fused MoeDistributeDispatch, or the alltoallv baseline) -> the expert
// stand-in (experts.h; its time is moe.expert_us) -> MoeDistributeCombine. Each is its own launch
// with its own entry in stats.json; the round trip's total is in the last entry. Layer l + 1
// dispatches layer l's x_out with a new routing, so the windows' 0/1 halves alternate the way a
// model's layers use them.
#include <filesystem>
#include <random>

#include "api/sim_ext.h"
#include "kernels/alltoallv/alltoallv_host.h"
#include "kernels/combine/combine_host.h"
#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/dispatch/dispatch_workload.h"
#include "kernels/ffn_op/ffn_op_golden.h"
#include "kernels/ffn_op/ffn_op_host.h"
#include "kernels/kernel.h"
#include "kernels/moe/experts.h"
#include "kernels/moe/moe_host.h"
#include "models/errors.h"
#include "sim/field_params.h"

namespace ascend {

namespace moe {

namespace {

// fused: MoeDistributeDispatch, one call.
dispatch::Execution fused(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                          const std::vector<dispatch::RankInputs>& in, const common::Elastic& el) {
  dispatch::Execution ex = dispatch::execute(sim, a, bf16, {in}, dispatch::Knobs{}, el);
  dispatch::add_figures(*ex.record, a, in, ex, 1);
  return ex;
}

// alltoallv: the baseline (a healthy machine only; the plan refuses dead ranks).
dispatch::Execution baseline(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                             const std::vector<dispatch::RankInputs>& in, const common::Elastic&) {
  return alltoallv::execute(sim, a, bf16, in);
}

}  // namespace

const common::Strategies<DispatchStep>& dispatch_steps() {
  static const common::Strategies<DispatchStep> steps("moe.dispatch",
                                                      {{"fused", fused}, {"alltoallv", baseline}});
  return steps;
}

}  // namespace moe

namespace {

// The layer's knobs (moe.*), each bound once to its field (sim/field_params.h).
struct MoeAttrs {
  std::string dispatch_step = "fused";  // a name of moe::dispatch_steps()
  bool identity = false;                // the stand-in: y = x, or x * alpha(e) + beta(e)
  bool ffn = false;                     // the experts: the FFN operator, or the stand-in
  double expert_us = 0;                 // the stand-in's simulated time
  int ffn_intermediate = 2048;          // N1
  std::string ffn_activation = "silu";
  bool ffn_inner_precise = false;
  std::string ffn_split = "mixed";
  int layers = 1;
};

const std::vector<FieldParam<MoeAttrs>>& attr_fields() {
  using A = MoeAttrs;
  const char* w = "workload";
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          choice_param("moe.dispatch", kFromField, moe::dispatch_steps().names(),
                       "fused: MoeDistributeDispatch; alltoallv: the traditional baseline "
                       "(counts all-to-all, sort by expert, data all-to-all)",
                       w),
          [](A & a) -> auto& { return a.dispatch_step; }),
      choice_field<A>(
          "moe.expert_transform", {{"per_expert", false}, {"identity", true}},
          "the expert stand-in: y = x * alpha(e) + beta(e), different per expert, "
          "or y = x",
          w, [](A & a) -> auto& { return a.identity; }),
      choice_field<A>(
          "moe.experts", {{"stand_in", false}, {"ffn", true}},
          "the experts between dispatch and combine: stand_in (host arithmetic, "
          "time moe.expert_us) or ffn (the FFN operator on each rank's AICs and "
          "AIVs: x W1 -> activation -> W2 per local expert)",
          w, [](A & a) -> auto& { return a.ffn; }),
      field<A>(
          real_param("moe.expert_us", "us", kFromField, 0, 1e6,
                     "simulated time of the stand-in experts between dispatch and combine", w),
          [](A & a) -> auto& { return a.expert_us; }),
      field<A>(
          int_param("moe.ffn_intermediate", "elements", kFromField, 16, 65535,
                    "moe.experts = ffn: the experts' intermediate size N1 (a multiple of 16)", w),
          [](A & a) -> auto& { return a.ffn_intermediate; }),
      field<A>(
          choice_param("moe.ffn_activation", kFromField, {"relu", "gelu", "fastgelu", "silu"},
                       "moe.experts = ffn: the activation", w),
          [](A & a) -> auto& { return a.ffn_activation; }),
      field<A>(
          int_param("moe.ffn_inner_precise", "", kFromField, 0, 1,
                    "moe.experts = ffn: 0 high precision, 1 high performance (fp16 only)", w),
          [](A & a) -> auto& { return a.ffn_inner_precise; }),
      field<A>(
          choice_param("moe.ffn_split", kFromField, {"plain", "expert_parallel", "mixed"},
                       "moe.experts = ffn: mm1's core split (ffn_op.split)", "what-if"),
          [](A & a) -> auto& { return a.ffn_split; }),
      field<A>(
          int_param("moe.layers", "", kFromField, 1, 16,
                    "MoE layers in a row; layer l + 1 dispatches layer l's x_out", w),
          [](A & a) -> auto& { return a.layers; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

MoeAttrs moe_attrs(const Params& p) {
  return read_fields(p, attr_fields());
}

using common::read_vec;

// Dispatch's outputs on host rank g as the device wrote them (the rows it defines; hidden states
// and scales only with payload).
dispatch::RankOutputs device_outputs(Simulation& sim, const dispatch::Attrs& a,
                                     const dispatch::RankBuffers& b, int g, bool payload) {
  dispatch::RankOutputs o;
  const size_t counts =
      static_cast<size_t>(a.ep) * dispatch::local_experts(a, dispatch::ep_rank(a, g));
  o.ep_recv_counts = read_vec<int32_t>(sim, b.recv_counts, a.tp * counts);
  o.rows = o.ep_recv_counts[counts - 1];
  if (a.tp == 2) {
    o.peer_rows = o.ep_recv_counts.back();
    o.tp_recv_counts = read_vec<int32_t>(sim, b.tp_recv_counts, 2);
  }
  const uint64_t all = static_cast<uint64_t>(o.rows + o.peer_rows);
  o.assist_info = read_vec<int32_t>(sim, b.assist, 3ull * o.rows);
  if (payload) o.expand_x = read_vec<uint8_t>(sim, b.expand_x, all * dispatch::out_row_bytes(a));
  if (a.quant) o.dynamic_scales = read_vec<float>(sim, b.scales, all);
  return o;
}

// Combine's inputs from dispatch's outputs on host rank g (device or golden): the expert outputs
// of the received rows (tp = 2: this TP rank's part of them, the peer's rows too), the triples
// and the counts; the rank's own ids, weights and mask.
// `expert_out`: the FFN's outputs of the received rows (moe.experts = ffn), or nullptr for the
// stand-in's.
combine::RankInputs combine_inputs(const combine::Attrs& a, bool bf16, bool identity, int g,
                                   const dispatch::RankInputs& din, const dispatch::RankOutputs& o,
                                   const std::vector<float>& weights,
                                   const std::vector<uint16_t>* expert_out = nullptr) {
  combine::RankInputs c;
  const int rank = dispatch::ep_rank(a.d, g);
  const size_t counts = o.ep_recv_counts.size() / a.d.tp;
  const float share = moe::tp_share(a.d, g);
  if (expert_out) {
    c.expand_x = *expert_out;
  } else if (!o.expand_x.empty()) {
    c.expand_x = moe::run_experts(a.d, bf16, identity, rank, o.rows, o.expand_x.data(),
                                  o.dynamic_scales.data(), o.ep_recv_counts.data(), share);
    if (o.peer_rows > 0) {  // the TP peer's rows: the same EP rank's experts
      const size_t at = static_cast<size_t>(o.rows);
      std::vector<uint16_t> peer = moe::run_experts(
          a.d, bf16, identity, rank, o.peer_rows, &o.expand_x[at * dispatch::out_row_bytes(a.d)],
          a.d.quant ? &o.dynamic_scales[at] : nullptr, &o.ep_recv_counts[counts], share);
      c.expand_x.insert(c.expand_x.end(), peer.begin(), peer.end());
    }
  }
  c.assist.assign(o.assist_info.begin(), o.assist_info.begin() + 3 * o.rows);
  c.ep_send_counts = o.ep_recv_counts;
  c.tp_send_counts = o.tp_recv_counts;
  c.ids = din.ids;
  c.expert_scales = weights;
  c.active = din.active_tokens(a.d);
  c.mask2d = din.mask2d;
  if (a.d.copy_experts + a.d.const_experts) c.ori_x = din.x;  // oriX: the layer's input tokens
  return c;
}

constexpr uint32_t kWeight1Salt = 0x57A1, kWeight2Salt = 0x57A2;

// Per layer: dispatch, the experts' launch, combine; then the next layer dispatches this one's
// x_out. The check replays the chain on the golden side (golden dispatch -> the same expert
// arithmetic -> golden combine), independent of the device outputs.
class MoeRun : public KernelRun {
  struct Layer;

 public:
  MoeRun(const Params& p, int ranks)
      : p_(p),
        a_(combine::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")))),
        m_(moe_attrs(p)),
        bf16_(dispatch::workload_of(p).bf16),
        payload_(p.integer("sim.payload") != 0),
        identity_(m_.identity),
        step_(moe::dispatch_steps().find(m_.dispatch_step)),
        layers_(m_.layers) {
    ffn_ = m_.ffn;
    combine::validate(a_);
    dispatch::require_dispatch_window(p, a_.d, "moe");
    el_ = dispatch::plan_elastic(p, a_.d);  // a_.d: the new EP group's attributes
    if (m_.dispatch_step == "alltoallv") {
      alltoallv::validate(a_.d);
      if (el_.any_dead())
        throw SimError(kExitBadInput,
                       "moe.dispatch = alltoallv: the baseline has no dead ranks "
                       "or scale-down (fault.dead_ranks); use the fused dispatch");
    }
    dispatch::check_routing(p, a_.d);
    if (ffn_) {
      if (a_.d.quant)
        throw SimError(kExitBadInput,
                       "moe.experts = ffn needs dispatch.quant = none (--quant none): int8 "
                       "dispatch quantizes per token (dynamic scales), which the FFN's quant "
                       "template (static per-tensor or per-channel requant scales, per-channel "
                       "deq_scale) does not take");
      if (el_.any_dead())
        throw SimError(kExitBadInput,
                       "moe.experts = ffn with dead ranks (fault.dead_ranks) is not modelled");
      if (a_.d.tp != 1)
        throw SimError(kExitBadInput, "moe.experts = ffn with dispatch.tp = 2 is not modelled");
      // The shape's limits, before anything is built: one token per local expert.
      for (int r : {0, a_.d.ep - 1})
        tiling(std::vector<int64_t>(static_cast<size_t>(dispatch::local_experts(a_.d, r)), 1));
    }
  }

  void place(Simulation&) override {
    inputs_ = dispatch::make_inputs(p_, a_.d, bf16_, layers_, el_);
    consts_ = payload_ ? combine::make_const_experts(p_, a_, bf16_) : nullptr;
    if (a_.d.expert_scales)  // [NEW] dispatch carries the weights combine uses (same stream)
      for (int layer = 0; layer < layers_; ++layer)
        for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
          std::mt19937 rng(common::input_seed(p_, r, layer, combine::kScaleSalt));
          inputs_[layer][r].expert_scales = combine::make_expert_scales(p_, a_, rng);
        }
  }
  std::string stuck() const override { return dispatch::dead_rank_report(a_.d, el_); }
  void healthy_latency(model::Tick t) override { healthy_ps_ = t; }

  void launch(Simulation& sim) override {
    // The ranks of the group (tp = 2: EP x TP)
    const int ranks = dispatch::world_ranks(a_.d), cores = sim.cluster().config().aiv_per_die;
    const uint64_t h = static_cast<uint64_t>(a_.d.hidden);
    const uint64_t stall =
        static_cast<uint64_t>(m_.expert_us * 1e3 * sim.cluster().config().core.clock.ghz);
    for (int layer = 0; layer < layers_; ++layer) {
      Layer& L = layers_done_.emplace_back();
      std::vector<dispatch::RankInputs>& din = inputs_[layer];
      // 1. dispatch
      L.dex = step_(sim, a_.d, bf16_, din, el_);
      // 2. the experts: host arithmetic, simulated time moe.expert_us on every core
      L.cin.resize(ranks);
      for (int r = 0; r < ranks; ++r) {
        const dispatch::RankOutputs out = device_outputs(sim, a_.d, L.dex.bufs[0][r], r, payload_);
        std::mt19937 rng(common::input_seed(p_, r, layer, combine::kScaleSalt));
        std::vector<float> weights = combine::make_expert_scales(p_, a_, rng);
        std::vector<uint16_t> shared_x;
        if (a_.shared_expert_x && payload_) shared_x = dispatch::random_tokens(a_.d, bf16_, rng);
        const std::vector<uint16_t> none;  // moe.experts = ffn: filled once the FFN has run
        L.cin[r] =
            combine_inputs(a_, bf16_, identity_, r, din[r], out, weights, ffn_ ? &none : nullptr);
        L.cin[r].shared_expert_x = shared_x;
        L.cin[r].consts = consts_;
        L.weights.push_back(std::move(weights));
        if (ffn_) {
          L.ffn.emplace_back();
          const int l = dispatch::local_experts(a_.d, r), w = a_.d.ep;
          for (int le = 0; le < l; ++le)
            L.ffn.back().tokens.push_back(
                out.ep_recv_counts[static_cast<size_t>(le) * w + w - 1] -
                (le ? out.ep_recv_counts[static_cast<size_t>(le) * w - 1] : 0));
        }
      }
      if (ffn_) {
        run_ffn(sim, layer, L);
      } else {
        L.experts = &sim.run_kernel("experts", cores, [stall](int) {
          return [stall] {
            if (stall) AscendC::SimStall(stall);
          };
        });
        L.experts->figure("expert_transform", "name", identity_ ? "identity" : "per_expert");
        L.experts->figure("modelled", "text",
                          "time only (moe.expert_us); the arithmetic is done on the host");
      }
      // 3. combine
      L.cex = combine::execute(sim, a_, bf16_, {L.cin}, combine::Knobs{}, el_);
      combine::add_figures(*L.cex.record, a_, L.cin, L.cex, 1);
      // The next layer dispatches this layer's output (inactive tokens keep their old rows).
      if (layer + 1 < layers_ && payload_)
        for (int r = 0; r < ranks; ++r) {
          auto out = read_vec<uint16_t>(sim, L.cex.bufs[0][r].x_out,
                                        static_cast<size_t>(din[r].active_tokens(a_.d)) * h);
          for (int t = 0; t < din[r].active_tokens(a_.d); ++t)
            if (L.cin[r].takes_part(a_, t))  // a token without a 2-D flag has no output row
              std::copy_n(out.begin() + static_cast<ptrdiff_t>(t * h), h,
                          inputs_[layer + 1][r].x.begin() + static_cast<ptrdiff_t>(t * h));
        }
    }
  }

  // The FFN's tiling for one rank's token counts.
  ffn_op::Tiling tiling(const std::vector<int64_t>& tokens) const {
    return ffn_op::make_tiling(static_cast<int32_t>(tokens.size()), tokens, a_.d.hidden,
                               static_cast<int32_t>(m_.ffn_intermediate),
                               static_cast<int32_t>(p_.integer("die.aic_count")),
                               ffn_op::activation_of(m_.ffn_activation), m_.ffn_inner_precise,
                               bf16_, false, ffn_op::split_of(m_.ffn_split), 0, 256,
                               ffn_op::limits_of(p_));
  }

  // moe.experts = ffn: every rank runs the FFN operator over its received rows (dispatch's
  // expandX in its GM) with its local experts' weights; the outputs feed combine.
  void run_ffn(Simulation& sim, int layer, Layer& L) {
    const int ranks = a_.d.ep;
    const uint64_t h = static_cast<uint64_t>(a_.d.hidden),
                   n1 = static_cast<uint64_t>(m_.ffn_intermediate);
    std::vector<ffn_op::Device> dev(static_cast<size_t>(ranks));
    std::vector<int64_t> rows(static_cast<size_t>(ranks), 0);
    for (int r = 0; r < ranks; ++r) {
      FfnRank& f = L.ffn[static_cast<size_t>(r)];
      for (int64_t v : f.tokens) rows[static_cast<size_t>(r)] += v;
      if (rows[static_cast<size_t>(r)] == 0) continue;  // nothing received: the rank idles
      f.t = tiling(f.tokens);
      const uint64_t l = f.tokens.size(), m = static_cast<uint64_t>(rows[static_cast<size_t>(r)]);
      ffn_op::Device& d = dev[static_cast<size_t>(r)];
      d.x = L.dex.bufs[0][static_cast<size_t>(r)].expand_x;
      d.w1 = sim.alloc(r, "moe.ffn.weight1", l * h * n1 * 2);
      d.w2 = sim.alloc(r, "moe.ffn.weight2", l * n1 * h * 2);
      d.expert_tokens = sim.alloc(r, "moe.ffn.expert_tokens", l * 8);
      d.y = sim.alloc(r, "moe.ffn.y", m * h * 2);
      d.ws1 = sim.alloc(r, "moe.ffn.workspace1", ffn_op::ws1_bytes(f.t));
      d.ws2 = sim.alloc(r, "moe.ffn.workspace2", ffn_op::ws2_bytes(f.t));
      sim.write(d.expert_tokens, f.tokens.data(), l * 8);
      if (!payload_) continue;
      for (uint64_t le = 0; le < l; ++le) {  // each global expert's own weights, per layer
        const int g = moe::global_expert(a_.d, r, static_cast<int>(le));
        auto w1 = ffn_op::random_matrix(h, n1, 1.0 / std::sqrt(double(h)), bf16_,
                                        common::input_seed(p_, g, layer, kWeight1Salt));
        auto w2 = ffn_op::random_matrix(n1, h, 1.0 / std::sqrt(double(n1)), bf16_,
                                        common::input_seed(p_, g, layer, kWeight2Salt));
        f.w1.insert(f.w1.end(), w1.begin(), w1.end());
        f.w2.insert(f.w2.end(), w2.begin(), w2.end());
      }
      sim.write(d.w1, f.w1.data(), f.w1.size() * 2);
      sim.write(d.w2, f.w2.data(), f.w2.size() * 2);
    }
    const int aic = static_cast<int>(p_.integer("die.aic_count"));
    L.experts =
        &sim.run_kernel("ffn", LaunchShape::mixed(aic, 2), [&](int die) -> std::function<void()> {
          if (rows[static_cast<size_t>(die)] == 0) return [] {};
          return ffn_op::program(L.ffn[static_cast<size_t>(die)].t, bf16_,
                                 dev[static_cast<size_t>(die)]);
        });
    if (payload_)
      for (int r = 0; r < ranks; ++r)
        if (rows[static_cast<size_t>(r)] > 0)
          L.cin[static_cast<size_t>(r)].expand_x =
              read_vec<uint16_t>(sim, dev[static_cast<size_t>(r)].y,
                                 static_cast<size_t>(rows[static_cast<size_t>(r)]) * h);
    L.experts->figure("expert_transform", "name", "ffn");
    L.experts->figure("ffn", "text",
                      std::string("x W1 (") + std::to_string(h) + " x " + std::to_string(n1) +
                          ") -> " + m_.ffn_activation + " -> W2 per local expert, " + m_.ffn_split +
                          " split");
  }

  void figures(Simulation&) override {
    nlohmann::json trips = nlohmann::json::array();
    for (size_t layer = 0; layer < layers_done_.size(); ++layer) {
      const KernelRecord& drec = *layers_done_[layer].dex.record;
      const KernelRecord& crec = *layers_done_[layer].cex.record;
      trips.push_back({{"layer", layer},
                       {"dispatch", drec.name},
                       {"dispatch_ns", model::ps_to_ns(drec.latency())},
                       {"experts_ns", model::ps_to_ns(layers_done_[layer].experts->latency())},
                       {"combine_ns", model::ps_to_ns(crec.latency())},
                       {"layer_ns", model::ps_to_ns(crec.start + crec.latency() - drec.start)}});
    }
    KernelRecord* last = layers_done_.back().cex.record;
    const model::Tick total =
        last->start + last->latency() - layers_done_.front().dex.record->start;
    last->figure("round_trip", "ns (the *_ns fields)",
                 {{"layers", trips}, {"total_ns", model::ps_to_ns(total)}});
    if (el_.any_dead())
      last->figure("elastic", "ranks; ns (round trip)",
                   dispatch::elastic_figure(el_, healthy_ps_, total));
  }

  void dump(Simulation& sim, const std::string& dir) override {
    for (int layer = 0; layer < layers_; ++layer) {
      const Layer& L = layers_done_[layer];
      std::string base = dir + (layers_ > 1 ? "/layer" + std::to_string(layer) : "");
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
        const std::string die = "rank" + std::to_string(el_.physical(r));
        dispatch::dump(sim, a_.d, bf16_, inputs_[layer][r], L.dex.bufs[0][r], r,
                       base + "/dispatch/" + die);
        combine::dump(sim, a_, bf16_, L.cin[r], L.cex.bufs[0][r], r, base + "/combine/" + die);
      }
    }
  }

  std::string check(Simulation& sim, bool payload) override {
    for (int layer = 0; layer < layers_; ++layer) {
      const Layer& L = layers_done_[layer];
      const std::vector<dispatch::RankInputs>& din = inputs_[layer];
      const std::string where = "layer " + std::to_string(layer) + ", ";
      std::vector<dispatch::RankOutputs> dgold = dispatch::golden(a_.d, bf16_, din);
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
        std::string diff = dispatch::compare(a_.d, dgold[r], sim, L.dex.bufs[0][r], r, 0, payload);
        if (!diff.empty()) return L.dex.record->name + ": " + where + diff;
      }
      if (!payload) continue;
      std::vector<combine::RankInputs> cgold(dispatch::world_ranks(a_.d));
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
        std::vector<uint16_t> ffn_out;
        if (ffn_ && dgold[r].rows > 0) {
          const FfnRank& f = L.ffn[static_cast<size_t>(r)];
          ffn_op::GoldenInputs gi{
              dgold[r].expand_x.data(), f.w1.data(), f.w2.data(), nullptr, nullptr, &f.tokens};
          ffn_out = ffn_op::golden(f.t, bf16_, gi);
        }
        cgold[r] = combine_inputs(a_, bf16_, identity_, r, din[r], dgold[r], L.weights[r],
                                  ffn_ ? &ffn_out : nullptr);
        cgold[r].shared_expert_x = L.cin[r].shared_expert_x;
        cgold[r].consts = consts_;
      }
      std::vector<std::vector<uint16_t>> want = combine::golden(a_, bf16_, cgold);
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
        std::string diff =
            combine::compare(a_, want[r], sim, L.cex.bufs[0][r], r, 0, L.cin[r].active_tokens(a_));
        if (!diff.empty()) return "round trip: " + where + diff;
      }
    }
    return "";
  }

  std::string checked(bool payload) const override {
    if (!payload) return "ids, counts and triples of dispatch checked (timing-only run)";
    return "dispatch outputs and the round trip's x_out of every rank match the golden chain (" +
           std::to_string(a_.d.ep) + " ranks" + (a_.d.tp == 2 ? " x TP 2" : "") + ", " +
           std::to_string(layers_) + " layer(s))";
  }

 private:
  // moe.experts = ffn: one rank's FFN (its local experts' token counts, tiling, weights).
  struct FfnRank {
    std::vector<int64_t> tokens;
    ffn_op::Tiling t;
    std::vector<uint16_t> w1, w2;  // [L, H, N1] and [L, N1, H] (payload runs)
  };
  struct Layer {
    dispatch::Execution dex;
    KernelRecord* experts = nullptr;
    std::vector<FfnRank> ffn;  // [rank]

    std::vector<combine::RankInputs> cin;
    std::vector<std::vector<float>> weights;  // [rank]: the expert scales combine weighs with
    combine::Execution cex;
  };
  const Params& p_;
  combine::Attrs a_;
  MoeAttrs m_;
  bool bf16_, payload_, identity_, ffn_ = false;
  moe::DispatchStep step_;
  int layers_;
  common::Elastic el_;
  model::Tick healthy_ps_ = 0;
  std::shared_ptr<const combine::ConstExperts> consts_;
  std::vector<std::vector<dispatch::RankInputs>> inputs_;
  std::vector<Layer> layers_done_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<MoeRun>(p, ranks);
}

}  // namespace

ASCEND_SIM_KERNEL(moe_kernel_def, 30);

KernelDef moe_kernel_def() {
  KernelDef k{"moe",
              "MoE layer round trip: dispatch (fused or alltoallv) -> experts (stand-in or the FFN "
              "operator) -> combine",
              declare, dispatch::dies_of, plan};
  k.also_reads = {"combine", "fault"};
  k.cube = [](const Params& p) { return moe_attrs(p).ffn; };
  k.workload = "dispatch";
  k.shorthands = dispatch::workload_flags(true);
  k.shorthands.push_back(dispatch::comm_quant_flag());
  k.inputs = true;
  k.dump_bytes = [](const Params& p, int dies) {
    const dispatch::Attrs a = dispatch::checked_attrs(p, dies);
    uint64_t sum = 0;
    for (int r = 0; r < dies; ++r)
      sum += dispatch::dispatch_rank_dump(a, r) + dispatch::combine_rank_dump(a, r, false);
    return sum * static_cast<uint64_t>(moe_attrs(p).layers);
  };
  // With FFN experts it also holds every expert's weight1 and weight2 (H x N1 each, 2 B), once on
  // the host and once in GM, for each layer: the default workload's 256 experts need 30 GB.
  k.payload_bytes = [](const Params& p, int dies) {
    uint64_t bytes = dispatch::payload_bytes(p, dies, 2);
    const MoeAttrs m = moe_attrs(p);
    const dispatch::Attrs a = dispatch::attrs_of(p, dies, 0);
    if (m.ffn)
      bytes += static_cast<uint64_t>(a.experts) * static_cast<uint64_t>(a.hidden) *
               static_cast<uint64_t>(m.ffn_intermediate) * 2 * 2 * 2 *
               static_cast<uint64_t>(m.layers);
    return bytes;
  };
  return k;
}

}  // namespace ascend
