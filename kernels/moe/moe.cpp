// `--kernel moe`: the round trip of an expert-parallel MoE layer on one simulated machine.
// Per layer: dispatch (the fused MoeDistributeDispatch, or the alltoallv baseline) -> the expert
// stand-in (experts.h; its time is moe.expert_us) -> MoeDistributeCombine. Each is its own launch
// with its own entry in stats.json; the round trip's total is in the last entry. Layer l + 1
// dispatches layer l's x_out with a new routing, so the windows' 0/1 halves alternate the way a
// model's layers use them.
#include <filesystem>
#include <random>

#include "kernels/alltoallv/alltoallv_host.h"
#include "kernels/combine/combine_host.h"
#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/kernel.h"
#include "kernels/moe/experts.h"
#include "kernels/moe/moe_host.h"
#include "models/errors.h"

namespace ascend {

namespace moe {

namespace {

// fused: MoeDistributeDispatch, one call.
dispatch::Execution fused(Simulation& sim, const dispatch::Attrs& a, bool bf16,
                          const std::vector<dispatch::RankInputs>& in) {
  dispatch::Execution ex = dispatch::execute(sim, a, bf16, {in}, dispatch::Knobs{});
  dispatch::add_figures(*ex.record, a, in, ex, 1);
  return ex;
}

}  // namespace

const common::Strategies<DispatchStep>& dispatch_steps() {
  static const common::Strategies<DispatchStep> steps(
      "moe.dispatch", {{"fused", fused}, {"alltoallv", alltoallv::execute}});
  return steps;
}

}  // namespace moe

namespace {

void declare(Params& p) {
  const char* w = "workload";
  p.declare(choice_param("moe.dispatch", "fused", moe::dispatch_steps().names(),
                         "fused: MoeDistributeDispatch; alltoallv: the traditional baseline "
                         "(counts all-to-all, sort by expert, data all-to-all)",
                         w));
  p.declare(choice_param("moe.expert_transform", "per_expert", {"per_expert", "identity"},
                         "the expert stand-in: y = x * alpha(e) + beta(e), different per expert, "
                         "or y = x",
                         w));
  p.declare(real_param("moe.expert_us", "us", "0", 0, 1e6,
                       "simulated time of the expert computation between dispatch and combine "
                       "(a stand-in: no FFN is modelled)",
                       w));
  p.declare(int_param("moe.layers", "", "1", 1, 16,
                      "MoE layers in a row; layer l + 1 dispatches layer l's x_out", w));
}

int dies(const Params& p) {
  return ep_ranks(p, 16);
}

using common::read_vec;

// Combine's inputs from dispatch's outputs on one rank (device or golden): the expert outputs of
// the received rows, the triples and the counts; the rank's own ids, weights and mask.
combine::RankInputs combine_inputs(const combine::Attrs& a, bool bf16, bool identity, int rank,
                                   const dispatch::RankInputs& din, int rows,
                                   const std::vector<uint8_t>& expand_x,
                                   const std::vector<float>& scales,
                                   const std::vector<int32_t>& assist,
                                   const std::vector<int32_t>& recv_counts,
                                   const std::vector<float>& weights) {
  combine::RankInputs c;
  if (!expand_x.empty())
    c.expand_x = moe::run_experts(a.d, bf16, identity, rank, rows, expand_x.data(), scales.data(),
                                  recv_counts.data());
  c.assist.assign(assist.begin(), assist.begin() + 3 * rows);
  c.ep_send_counts = recv_counts;
  c.ids = din.ids;
  c.expert_scales = weights;
  c.active = din.active_tokens(a.d);
  return c;
}

void plan(const Params& p, int ranks) {
  combine::Attrs a = combine::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")));
  combine::validate(a);
  require_window(
      p, "moe", dispatch::window_needed(a.d),
      "2 x (L x BS x W x Align512(Align32(2H) + 64) + (K + shared) x BS x Align512(2H))");
  if (moe::dispatch_steps().find(p.text("moe.dispatch")) == alltoallv::execute)
    alltoallv::validate(a.d);
  if (p.text("run.input_dir").empty())  // generated inputs: the routing must parse
    common::Routing("dispatch.routing", p.text("dispatch.routing"), a.d.experts);
}

std::string run(Simulation& sim, const Params& p) {
  const int ranks = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  plan(p, ranks);
  combine::Attrs a = combine::attrs_of(p, ranks, cores);
  const bool bf16 = p.text("dispatch.dtype") == "bf16";
  const bool payload = p.integer("sim.payload") != 0, check = p.integer("run.check") != 0;
  const bool identity = p.text("moe.expert_transform") == "identity";
  const moe::DispatchStep dispatch_step = moe::dispatch_steps().find(p.text("moe.dispatch"));
  const int layers = static_cast<int>(p.integer("moe.layers"));
  const double expert_us = p.real("moe.expert_us");
  const std::string dump_dir = p.text("run.dump_dir");
  std::vector<std::vector<dispatch::RankInputs>> inputs =
      dispatch::make_inputs(p, a.d, bf16, layers);
  const uint64_t h = static_cast<uint64_t>(a.d.hidden), row_bytes = dispatch::out_row_bytes(a.d);

  nlohmann::json trips = nlohmann::json::array();
  model::Tick first_start = 0;
  KernelRecord* last = nullptr;
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<dispatch::RankInputs>& din = inputs[layer];
    // 1. dispatch
    dispatch::Execution dex = dispatch_step(sim, a.d, bf16, din);
    if (layer == 0) first_start = dex.record->start;
    std::vector<dispatch::RankOutputs> dgold;
    if (check) {
      dgold = dispatch::golden(a.d, bf16, din);
      for (int r = 0; r < ranks; ++r) {
        std::string diff = dispatch::compare(a.d, dgold[r], sim, dex.bufs[0][r], r, 0, payload);
        if (!diff.empty())
          throw SimError(kExitCheckFailed,
                         dex.record->name + ": layer " + std::to_string(layer) + ", " + diff);
      }
    }
    // 2. the experts: host arithmetic, simulated time moe.expert_us on every core
    std::vector<combine::RankInputs> cin(ranks), cgold(check ? ranks : 0);
    for (int r = 0; r < ranks; ++r) {
      const dispatch::RankBuffers& b = dex.bufs[0][r];
      int l = dispatch::local_experts(a.d, r);
      auto counts = read_vec<int32_t>(sim, b.recv_counts, static_cast<size_t>(a.d.ep) * l);
      int rows = counts.back();
      auto assist = read_vec<int32_t>(sim, b.assist, 3ull * rows);
      std::vector<uint8_t> ex =
          payload ? read_vec<uint8_t>(sim, b.expand_x, rows * row_bytes) : std::vector<uint8_t>{};
      auto scales = a.d.quant ? read_vec<float>(sim, b.scales, rows) : std::vector<float>{};
      std::mt19937 rng(common::input_seed(p, r, layer, combine::kScaleSalt));
      std::vector<float> weights = combine::make_expert_scales(p, a, rng);
      std::vector<uint16_t> shared_x;
      if (a.shared_expert_x && payload) {
        dispatch::Attrs rows_attrs = a.d;
        shared_x = dispatch::random_tokens(rows_attrs, bf16, rng);
      }
      cin[r] =
          combine_inputs(a, bf16, identity, r, din[r], rows, ex, scales, assist, counts, weights);
      cin[r].shared_expert_x = shared_x;
      if (check) {  // the same chain from the golden dispatch outputs, independent of the device
        const dispatch::RankOutputs& g = dgold[r];
        cgold[r] = combine_inputs(a, bf16, identity, r, din[r], g.rows, g.expand_x,
                                  g.dynamic_scales, g.assist_info, g.ep_recv_counts, weights);
        cgold[r].shared_expert_x = shared_x;
      }
    }
    uint64_t stall = static_cast<uint64_t>(expert_us * 1e3 * sim.cluster().config().core.clock.ghz);
    KernelRecord& experts = sim.run_kernel("experts", cores, [stall](int) {
      return [stall] {
        if (stall) AscendC::detail::core().scalar_work(stall);
      };
    });
    experts.extra["expert_transform"] = identity ? "identity" : "per_expert";
    experts.extra["modelled"] = "time only (moe.expert_us); the arithmetic is done on the host";
    // 3. combine
    combine::Execution cex = combine::execute(sim, a, bf16, {cin}, combine::Knobs{});
    combine::add_figures(*cex.record, a, cin, cex, 1);
    const KernelRecord& drec = *dex.record;
    const KernelRecord& crec = *cex.record;
    last = cex.record;
    trips.push_back({{"layer", layer},
                     {"dispatch", drec.name},
                     {"dispatch_ns", model::ps_to_ns(drec.latency())},
                     {"experts_ns", model::ps_to_ns(experts.latency())},
                     {"combine_ns", model::ps_to_ns(crec.latency())},
                     {"layer_ns", model::ps_to_ns(crec.start + crec.latency() - drec.start)}});
    if (!dump_dir.empty()) {
      std::string base = dump_dir + (layers > 1 ? "/layer" + std::to_string(layer) : "");
      for (int r = 0; r < ranks; ++r) {
        dispatch::dump(sim, a.d, bf16, din[r], dex.bufs[0][r], r,
                       base + "/dispatch/rank" + std::to_string(r));
        combine::dump(sim, a, bf16, cin[r], cex.bufs[0][r], r,
                      base + "/combine/rank" + std::to_string(r));
      }
    }
    if (check && payload) {
      std::vector<std::vector<uint16_t>> want = combine::golden(a, bf16, cgold);
      for (int r = 0; r < ranks; ++r) {
        std::string diff =
            combine::compare(a, want[r], sim, cex.bufs[0][r], r, 0, cin[r].active_tokens(a));
        if (!diff.empty())
          throw SimError(kExitCheckFailed,
                         "moe round trip: layer " + std::to_string(layer) + ", " + diff);
      }
    }
    // The next layer dispatches this layer's output (inactive tokens keep their old rows).
    if (layer + 1 < layers && payload)
      for (int r = 0; r < ranks; ++r) {
        auto out = read_vec<uint16_t>(sim, cex.bufs[0][r].x_out,
                                      static_cast<size_t>(din[r].active_tokens(a.d)) * h);
        std::copy(out.begin(), out.end(), inputs[layer + 1][r].x.begin());
      }
  }
  last->extra["round_trip"] = {
      {"layers", trips},
      {"total_ns", model::ps_to_ns(last->start + last->latency() - first_start)}};
  if (!check) return "not checked (run.check = 0)";
  if (!payload) return "ids, counts and triples of dispatch checked (timing-only run)";
  return "dispatch outputs and the round trip's x_out of every rank match the golden chain (" +
         std::to_string(ranks) + " ranks, " + std::to_string(layers) + " layer(s))";
}

}  // namespace

KernelDef moe_kernel_def() {
  KernelDef k{
      "moe",   "MoE layer round trip: dispatch (fused or alltoallv) -> expert stand-in -> combine",
      declare, run,
      dies,    plan};
  k.also_reads = {"combine"};
  return k;
}

}  // namespace ascend
