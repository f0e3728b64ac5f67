// Host side of MoeDistributeDispatch: attributes from the parameters, generated inputs (routing),
// GM placement, launch (one or more back-to-back calls), the golden check, and the figures.
#include <cstring>
#include <iostream>
#include <random>

#include "api/numeric.h"
#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/dispatch/dispatch_kernel.h"
#include "kernels/dispatch/dispatch_workload.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/npy.h"

namespace ascend {

namespace {

using dispatch::Attrs;

}  // namespace

namespace dispatch {

common::Elastic plan_elastic(const Params& p, Attrs& a) {
  common::Elastic el;
  el.world0 = el.world = a.ep;
  el.shared_ranks = el.shared_ranks0 = a.shared_expert_ranks;
  el.experts = el.experts0 = a.experts;
  const Workload w = workload_of(p);
  const std::string& dead = w.dead_ranks;
  if (a.tp == 2 && w.scale_down)
    throw SimError(kExitBadInput,
                   "fault.scale_down = 1 with dispatch.tp = 2: elastic scale-down is tp = 1 only "
                   "([V3-API]: 动态缩容功能不支持在TP并行场景下使能)");
  if (a.tp == 2 && !dead.empty())
    throw SimError(kExitBadInput,
                   "fault.dead_ranks with dispatch.tp = 2: dead ranks are modelled with tp = 1 "
                   "only (the reference's scale-down, their remedy, is tp = 1 only)");
  if (dead == "all")
    throw SimError(kExitBadInput, "fault.dead_ranks = 'all': name the dead ranks (5,17 or 4-6)");
  if (!dead.empty())
    for (int r : parse_scope("fault.dead_ranks", dead)) el.dead.push_back(r);
  for (int r : el.dead)
    if (r >= a.ep)
      throw SimError(kExitBadInput,
                     "fault.dead_ranks: " + std::to_string(r) +
                         " is not a rank of ep.world_size = " + std::to_string(a.ep));
  el.scale_down = w.scale_down;
  if (!el.scale_down && el.any_dead() && p.origin("sim.poll_timeout_us") == "default")
    std::cerr << "ascend-sim: warning: dead ranks " << el.dead_list()
              << " without fault.scale_down: the survivors poll for their flags until "
                 "sim.poll_timeout_us = "
              << p.text("sim.poll_timeout_us")
              << " us of simulated time (minutes of wall time at the default size); "
                 "--set sim.poll_timeout_us=200 ends the run sooner\n";
  if (!el.scale_down) return el;
  if (el.dead.empty())
    throw SimError(kExitBadInput,
                   "fault.scale_down = 1 needs dead ranks (fault.dead_ranks) to scale down from");
  const int l = local_experts(a, a.shared_expert_ranks);
  int dead_shared = 0;
  for (int r : el.dead) dead_shared += is_shared_rank(a, r);
  el.world = a.ep - static_cast<int>(el.dead.size());
  el.shared_ranks = a.shared_expert_ranks - dead_shared;
  el.experts = a.experts - l * (static_cast<int>(el.dead.size()) - dead_shared);
  // The documented limits ([OLD] aclnnMoeDistributeDispatchV3.md, InitElasticInfo; [V3-API]).
  auto refuse = [&](const std::string& why) {
    throw SimError(kExitBadInput,
                   "elastic scale-down of dead ranks " + el.dead_list() + ": " + why);
  };
  if (el.world - el.shared_ranks < 1)
    refuse("no MoE expert rank would be left (不支持缩容后无MOE专家卡)");
  if (a.shared_expert_ranks > 0 && (el.shared_ranks == 0 || el.shared_ranks % a.shared_experts))
    refuse("the shared-expert ranks left (" + std::to_string(el.shared_ranks) +
           ") must be a non-zero multiple of the shared experts (" +
           std::to_string(a.shared_experts) + ")");
  if (el.world < 2) refuse("the new EP size " + std::to_string(el.world) + " is below 2");
  if (el.experts / (el.world - el.shared_ranks) != l) refuse("the local experts L must not change");
  // K <= E holds for the new group too: the kernel takes E from elasticInfo, and a token's K
  // experts are distinct experts of it.
  if (a.topk > el.experts)
    refuse("top-K (--topk) = " + std::to_string(a.topk) + " is above the " +
           std::to_string(el.experts) + " MoE experts left (K <= E)");
  el.table1.assign(a.ep, -1);
  for (int r = 0; r < a.ep; ++r)
    if (!el.is_dead(r)) {
      el.table1[r] = static_cast<int32_t>(el.table2.size());
      el.table2.push_back(r);
    }
  a.ep = el.world;
  a.shared_expert_ranks = el.shared_ranks;
  a.experts = el.experts;
  a.experts0 = el.experts0;
  a.elastic_world = el.world0;
  return el;
}

void domain_attrs(Attrs& a, const common::Elastic& el) {
  if (!el.scale_down) return;
  a.ep = el.world0;
  a.shared_expert_ranks = el.shared_ranks0;
  a.experts = el.experts0;
  a.experts0 = el.experts0;  // kept when the kernel takes E from elasticInfo
}

void map_ranks(int dies, int ranks, const common::Elastic& el, std::vector<int>& die_of,
               std::vector<int>& rank_of) {
  die_of.assign(ranks, 0);
  rank_of.assign(dies, -1);
  for (int r = 0; r < ranks; ++r) {
    die_of[r] = el.physical(r);
    rank_of[die_of[r]] = r;
  }
  for (int d : el.dead) rank_of[d] = -1;
}

nlohmann::json elastic_figure(const common::Elastic& el, model::Tick healthy_ps,
                              model::Tick latency_ps) {
  nlohmann::json j = {{"dead_ranks", el.dead},
                      {"scale_down", el.scale_down},
                      {"world_size_before", el.world0},
                      {"world_size", el.world},
                      {"shared_expert_ranks", el.shared_ranks},
                      {"experts", el.experts}};
  if (el.scale_down) {
    j["table1"] = el.table1;
    j["table2"] = el.table2;
  }
  if (healthy_ps > 0) {
    const double now = model::ps_to_ns(latency_ps), before = model::ps_to_ns(healthy_ps);
    j["healthy_latency_ns"] = before;
    j["latency_ns"] = now;
    j["latency_vs_healthy_pct"] = 100.0 * (now - before) / before;
  }
  return j;
}

std::string dead_rank_report(const Attrs& a, const common::Elastic& el) {
  if (!el.any_dead() || el.scale_down) return "";
  std::string out = "\n  dead ranks " + el.dead_list() +
                    " (fault.dead_ranks) run nothing and set no status flag; without "
                    "fault.scale_down the survivors wait for them:";
  int shown = 0;
  for (int d = 0; d < a.ep && shown < 16; ++d) {
    if (el.is_dead(d)) continue;
    const bool shared = is_shared_rank(a, d);
    const int l = local_experts(a, d);
    std::string blocks;
    int n = 0;
    for (int le = 0; le < l; ++le)
      for (int src : el.dead) {
        // A shared rank hears only from the senders of its residue class.
        if (shared && src % (a.shared_expert_ranks / a.shared_experts) !=
                          d % (a.shared_expert_ranks / a.shared_experts))
          continue;
        if (n++ < 6)
          blocks += (blocks.empty() ? "" : ", ") + std::to_string(le * a.ep + src) + " (expert " +
                    std::to_string(shared ? le : (d - a.shared_expert_ranks) * l + le) +
                    (shared ? " shared" : "") + " from rank " + std::to_string(src) + ")";
      }
    if (n == 0) continue;
    out += "\n    rank " + std::to_string(d) + " waits for " + std::to_string(n) +
           " status block(s) at 32 x (localExpert x W + srcRank) of its status window: " + blocks +
           (n > 6 ? ", ..." : "");
    ++shown;
  }
  return out;
}

// Each token picks K distinct experts (MoE, or special ones after them).
std::vector<int32_t> route(const Attrs& a, const std::string& routing, int rank, std::mt19937& rng,
                           double special_weight) {
  const common::Routing pick("dispatch.routing", routing, a.experts, special_experts(a),
                             special_weight);
  std::vector<int32_t> ids(static_cast<size_t>(a.bs) * a.topk);
  for (int t = 0; t < a.bs; ++t)
    pick.pick(rank, a.bs, t, a.topk, rng, &ids[static_cast<size_t>(t) * a.topk]);
  // After a scale-down the special experts keep their ids after E0 (combine's numbering).
  if (experts0(a) != a.experts)
    for (int32_t& e : ids)
      if (e >= a.experts) e += experts0(a) - a.experts;
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
    if (!valid_expert_id(a, in.ids[i]))
      throw SimError(kExitBadInput, dir + "/expert_ids.npy: entry " + std::to_string(i) + " = " +
                                        std::to_string(in.ids[i]) + " is not an expert id in " +
                                        expert_id_ranges(a) +
                                        " (E MoE experts, then the special ones)");
  }
  npy::Array x = npy::read_expect(dir + "/x.npy", bf16 ? "<u2" : "<f2", {bs, h});
  in.x.resize(bs * h);
  std::memcpy(in.x.data(), x.bytes.data(), x.bytes.size());
  if (a.mask_2d) {
    npy::Array m = npy::read_expect(dir + "/x_active_mask.npy", "|b1", {bs, k});
    in.mask2d.assign(m.bytes.begin(), m.bytes.end());
  } else {
    in.active = common::read_active_mask(dir, a.bs);
  }
  if (a.expert_scales) {
    npy::Array e = npy::read_expect(dir + "/expert_scales.npy", "<f4", {bs, k});
    in.expert_scales.resize(bs * k);
    std::memcpy(in.expert_scales.data(), e.bytes.data(), e.bytes.size());
  }
  if (a.smooth_scales) {
    const uint64_t rows = static_cast<uint64_t>(a.shared_experts + experts0(a));
    npy::Array sc = npy::read_expect(dir + "/scales.npy", "<f4", {rows, h});
    auto table = std::make_shared<std::vector<float>>(rows * h);
    std::memcpy(table->data(), sc.bytes.data(), sc.bytes.size());
    in.smooth = table;
  }
  return in;
}

namespace {
constexpr uint32_t kMaskSalt = 0x2545f491u;  // the 2-D mask's and expert scales' seed stream
constexpr uint32_t kSmoothSalt = 0x9e3779b9u;
}  // namespace

void generate_v3(const Params& p, const Attrs& a, int rank, int call, RankInputs& in) {
  std::mt19937 rng(common::input_seed(p, rank, call, kMaskSalt));
  const size_t entries = static_cast<size_t>(a.bs) * a.topk;
  if (a.mask_2d) {
    const Workload w = workload_of(p);
    std::bernoulli_distribution off(w.mask_rate);
    in.mask2d.assign(entries, 1);
    for (uint8_t& m : in.mask2d) m = off(rng) ? 0 : 1;
    std::vector<int> order(a.bs);
    for (int t = 0; t < a.bs; ++t) order[t] = t;
    std::shuffle(order.begin(), order.end(), rng);
    int whole = std::min<int>(a.bs, w.masked_tokens);
    for (int i = 0; i < whole; ++i)
      std::fill_n(in.mask2d.begin() + static_cast<size_t>(order[i]) * a.topk, a.topk, 0);
  }
  if (a.expert_scales) in.expert_scales = common::softmax_weights(a.bs, a.topk, rng);
}

std::string rank_leaf(const Execution& ex, int rank) {
  return "rank" + std::to_string(ex.die_of.empty() ? rank : ex.die_of[rank]);
}

// --dump: the inputs and every output with its documented shape (only the rows the kernel
// defines are meaningful).
void dump(Simulation& sim, const Attrs& a, bool bf16, const dispatch::RankInputs& in,
          const dispatch::RankBuffers& b, int rank, const std::string& dir) {
  // With tp = 2 expandX and dynamicScales have tp x A rows and epRecvCounts tp x W x L entries.
  const int er = ep_rank(a, rank);
  uint64_t bs = a.bs, h = a.hidden, rows = dispatch::capacity_rows(a, er), tp = a.tp;
  uint64_t l = dispatch::local_experts(a, er);
  npy::write(dir + "/x.npy", bf16 ? "<u2" : "<f2", {bs, h},
             common::read_vec<uint8_t>(sim, b.x, bs * h * 2).data());
  npy::write(dir + "/expert_ids.npy", "<i4", {bs, static_cast<uint64_t>(a.topk)}, in.ids.data());
  if (a.mask_2d) {
    npy::write(dir + "/x_active_mask.npy", "|b1", {bs, static_cast<uint64_t>(a.topk)},
               in.mask2d.data());
  } else {
    common::write_active_mask(dir, a.bs, in.active_tokens(a));
  }
  if (a.expert_scales) {
    npy::write(dir + "/expert_scales.npy", "<f4", {bs, static_cast<uint64_t>(a.topk)},
               in.expert_scales.data());
    npy::write(dir + "/expand_scales.npy", "<f4", {rows},
               common::read_vec<uint8_t>(sim, b.expand_scales, rows * 4).data());
  }
  if (a.smooth_scales)
    npy::write(dir + "/scales.npy", "<f4",
               {static_cast<uint64_t>(a.shared_experts + experts0(a)), h}, in.smooth->data());
  if (b.elastic) {
    const uint64_t n = 4 + 2 * static_cast<uint64_t>(a.elastic_world);
    npy::write(dir + "/elastic_info.npy", "<i4", {n},
               common::read_vec<uint8_t>(sim, b.elastic, n * 4).data());
  }
  npy::write(
      dir + "/expand_x.npy", a.quant ? "|i1" : (bf16 ? "<u2" : "<f2"), {tp * rows, h},
      common::read_vec<uint8_t>(sim, b.expand_x, tp * rows * dispatch::out_row_bytes(a)).data());
  if (a.quant)
    npy::write(dir + "/dynamic_scales.npy", "<f4", {tp * rows},
               common::read_vec<uint8_t>(sim, b.scales, tp * rows * 4).data());
  npy::write(dir + "/assist_info_for_combine.npy", "<i4", {rows * 128},
             common::read_vec<uint8_t>(sim, b.assist, rows * 128 * 4).data());
  npy::write(dir + "/expert_token_nums.npy", "<i8", {l},
             common::read_vec<uint8_t>(sim, b.token_nums, l * 8).data());
  npy::write(dir + "/ep_recv_counts.npy", "<i4", {tp * a.ep * l},
             common::read_vec<uint8_t>(sim, b.recv_counts, tp * a.ep * l * 4).data());
  if (b.tp_recv_counts)
    npy::write(dir + "/tp_recv_counts.npy", "<i4", {tp},
               common::read_vec<uint8_t>(sim, b.tp_recv_counts, tp * 4).data());
}

std::vector<std::vector<RankInputs>> make_inputs(const Params& p, const Attrs& a, bool bf16,
                                                 int calls, const common::Elastic& el) {
  const bool payload = p.integer("sim.payload") != 0;
  std::vector<std::vector<RankInputs>> inputs(calls, std::vector<RankInputs>(world_ranks(a)));
  const Workload w = workload_of(p);
  const std::string& routing = w.routing;
  const std::string input_dir = p.text("run.input_dir");
  const double special_weight = w.special_weight;
  // The smooth scales are weights of the model: one table, the same on every rank and call.
  std::shared_ptr<const std::vector<float>> smooth;
  if (a.smooth_scales && payload && input_dir.empty()) {
    std::mt19937 rng(common::input_seed(p, 0, 0, kSmoothSalt));
    std::uniform_real_distribution<float> dist(0.5f, 1.5f);
    auto table = std::make_shared<std::vector<float>>(
        static_cast<size_t>(a.shared_experts + experts0(a)) * a.hidden);
    for (float& v : *table) v = dist(rng);
    smooth = table;
  }
  for (int c = 0; c < calls; ++c)
    for (int r = 0; r < world_ranks(a); ++r) {
      if (!input_dir.empty()) {
        inputs[c][r] = read_inputs(a, bf16, input_dir + "/rank" + std::to_string(el.physical(r)));
        if (!payload) inputs[c][r].x.clear(), inputs[c][r].smooth.reset();
        continue;
      }
      std::mt19937 rng(common::input_seed(p, r, c));
      inputs[c][r].ids = route(a, routing, ep_rank(a, r), rng, special_weight);
      if (payload) inputs[c][r].x = random_tokens(a, bf16, rng);  // timing-only: no hidden states
      generate_v3(p, a, r, c, inputs[c][r]);
      inputs[c][r].smooth = smooth;
    }
  return inputs;
}

void add_figures(KernelRecord& rec, const Attrs& a, const std::vector<RankInputs>& first_call,
                 const Execution& ex, int calls, const PhaseNames& names) {
  const int ranks = world_ranks(a), cores = a.cores;
  uint64_t msg = record_bytes(a);
  nlohmann::json bw = nlohmann::json::array(), phase = nlohmann::json::object();
  for (int i = 0; i < 4; ++i) phase[names[i]] = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    const int die = ex.die_of.empty() ? r : ex.die_of[r];
    double ns = model::ps_to_ns(rec.rank_latency[die]);
    int n_bs = first_call[r].active_tokens(a);
    bw.push_back(ns > 0 ? static_cast<double>(n_bs) * a.topk * msg * calls / ns : 0.0);
    for (int i = 0; i < 4; ++i) {
      uint64_t worst = 0;
      for (int c = 0; c < cores; ++c) {
        const uint64_t* ph = &ex.phases[(static_cast<size_t>(die) * cores + c) * 5];
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
  if (a.tp == 2)  // HCCL_BUFFSIZE is per communicator: the TP group's window holds this
    require_window(p, kernel + " (TP window)", tp_window_needed(a),
                   "2 x (A x Align512(Align32(2H) + 32 + 12) + A x Align512(2H))");
}

void check_routing(const Params& p, const Attrs& a) {
  if (p.text("run.input_dir").empty())  // generated inputs: the routing must parse
    common::Routing("dispatch.routing", workload_of(p).routing, a.experts);
}

std::string compare(const Attrs& a, const RankOutputs& want, Simulation& sim, const RankBuffers& b,
                    int rank, int call, bool payload) {
  // rows: the own received ones (triples, expand scales); all: with the TP peer's after them.
  const int rows = want.rows, all = want.rows + want.peer_rows;
  const int l = dispatch::local_experts(a, ep_rank(a, rank));
  uint64_t row_bytes = dispatch::out_row_bytes(a);
  std::string where = "call " + std::to_string(call) + ", rank " + std::to_string(rank);
  if (a.tp == 2) {
    auto tp = read_vec<int32_t>(sim, b.tp_recv_counts, 2);
    for (size_t i = 0; i < 2; ++i)
      if (tp[i] != want.tp_recv_counts[i])
        return "tensor tp_recv_counts, " + where + ", row " + std::to_string(i) + ": " +
               std::to_string(tp[i]) + ", golden " + std::to_string(want.tp_recv_counts[i]);
  }
  auto recv = read_vec<int32_t>(sim, b.recv_counts, static_cast<size_t>(a.tp) * a.ep * l);
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
  if (a.expert_scales) {  // they ride with the triple: moved in timing-only runs too
    auto es = read_vec<float>(sim, b.expand_scales, rows);
    for (int i = 0; i < rows; ++i)
      if (std::memcmp(&es[i], &want.expand_scales[i], 4) != 0)
        return "tensor expand_scales, " + where + ", row " + std::to_string(i) + ": " +
               std::to_string(es[i]) + ", golden " + std::to_string(want.expand_scales[i]);
  }
  if (!payload) return "";  // timing-only: hidden states and scales were not moved
  auto ex = read_vec<uint8_t>(sim, b.expand_x, all * row_bytes);
  for (uint64_t i = 0; i < all * row_bytes; ++i)
    if (ex[i] != want.expand_x[i]) {
      uint64_t elem = a.quant ? 1 : 2;
      return "tensor expand_x, " + where + ", row " + std::to_string(i / row_bytes) + ", column " +
             std::to_string(i % row_bytes / elem) + " (byte " + std::to_string(ex[i]) +
             ", golden " + std::to_string(want.expand_x[i]) + ")";
    }
  if (a.quant) {
    auto sc = read_vec<float>(sim, b.scales, all);
    for (int i = 0; i < all; ++i)
      if (std::memcmp(&sc[i], &want.dynamic_scales[i], 4) != 0)
        return "tensor dynamic_scales, " + where + ", row " + std::to_string(i) + ": " +
               std::to_string(sc[i]) + ", golden " + std::to_string(want.dynamic_scales[i]);
  }
  return "";
}

RankBuffers place_rank(Simulation& sim, const Attrs& a, int r, const RankInputs& in,
                       const std::string& kernel, int die) {
  if (die < 0) die = r;
  RankBuffers b{};
  // tp = 2: expandX and dynamicScales hold the TP peer's rows after the own A, epRecvCounts
  // the peer's counts after the own W x L.
  const int rows = capacity_rows(a, ep_rank(a, r)), l = local_experts(a, ep_rank(a, r));
  const uint64_t entries = static_cast<uint64_t>(a.bs) * a.topk, tp = a.tp;
  b.x = sim.alloc(die, kernel + ".x", static_cast<uint64_t>(a.bs) * a.hidden * 2);
  b.ids = sim.alloc(die, kernel + ".expert_ids", in.ids.size() * 4);
  b.expand_x = sim.alloc(die, kernel + ".expand_x", tp * rows * out_row_bytes(a));
  b.scales = sim.alloc(die, kernel + ".dynamic_scales", tp * rows * 4);
  b.assist = sim.alloc(die, kernel + ".assist_info_for_combine", rows * 128ull * 4);
  b.token_nums = sim.alloc(die, kernel + ".expert_token_nums", l * 8ull);
  b.recv_counts = sim.alloc(die, kernel + ".ep_recv_counts", tp * a.ep * l * 4);
  if (a.tp == 2) b.tp_recv_counts = sim.alloc(die, kernel + ".tp_recv_counts", tp * 4);
  if (!in.x.empty()) sim.write(b.x, in.x.data(), in.x.size() * 2);
  sim.write(b.ids, in.ids.data(), in.ids.size() * 4);
  if (a.mask_2d) {
    b.mask = sim.alloc(die, kernel + ".x_active_mask", entries);
    sim.write(b.mask, in.mask2d.data(), entries);
  }
  if (a.expert_scales) {
    b.expert_scales = sim.alloc(die, kernel + ".expert_scales", entries * 4);
    sim.write(b.expert_scales, in.expert_scales.data(), entries * 4);
    b.expand_scales = sim.alloc(die, kernel + ".expand_scales", rows * 4ull);
  }
  if (a.smooth_scales) {
    const uint64_t n = static_cast<uint64_t>(a.shared_experts + experts0(a)) * a.hidden;
    b.smooth = sim.alloc(die, kernel + ".scales", n * 4);
    if (in.smooth) sim.write(b.smooth, in.smooth->data(), n * 4);
  }
  return b;
}

// The (token, k) entries that leave the rank: all of the active tokens', or the compacted ones.
int64_t sent_entries(const Attrs& a, const RankInputs& in) {
  if (!compacts(a)) return static_cast<int64_t>(in.active_tokens(a)) * a.topk;
  int64_t n = 0;
  for (int t = 0; t < in.active_tokens(a); ++t)
    for (int k = 0; k < a.topk; ++k) n += in.sends(a, t, k);
  return n;
}

Execution place(Simulation& sim, const Attrs& a, const std::vector<std::vector<RankInputs>>& inputs,
                const common::Elastic& el) {
  const int ranks = world_ranks(a), cores = sim.cluster().config().aiv_per_die;
  const int calls = static_cast<int>(inputs.size());
  sim.set_tp_groups(a.tp);
  Execution ex;
  ex.buffer_num = effective_buffer_num(a, sim.cluster().config().core.ub_bytes);
  map_ranks(sim.cluster().dies(), ranks, el, ex.die_of, ex.rank_of);
  ex.elastic = el;
  if (el.scale_down) ex.elastic_info = el.info();
  ex.bufs.assign(calls, std::vector<RankBuffers>(ranks));
  ex.shares.assign(calls, std::vector<std::vector<SendShare>>(ranks));
  for (int c = 0; c < calls; ++c)
    for (int r = 0; r < ranks; ++r) {
      const int die = ex.die_of[r];
      ex.shares[c][r] = send_plan(a, static_cast<int>(inputs[c][r].tokens(a).size()), cores,
                                  sent_entries(a, inputs[c][r]));
      RankBuffers& b = ex.bufs[c][r];
      b = place_rank(sim, a, r, inputs[c][r], "dispatch", die);
      b.workspace = sim.alloc(die, "dispatch.workspace", cores * 512ull);
      if (!ex.elastic_info.empty()) {
        b.elastic = sim.alloc(die, "dispatch.elastic_info", ex.elastic_info.size() * 4);
        sim.write(b.elastic, ex.elastic_info.data(), ex.elastic_info.size() * 4);
      }
    }
  return ex;
}

void launch(Simulation& sim, const Attrs& a, bool bf16,
            const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs, Execution& ex) {
  const int dies = sim.cluster().dies(), cores = sim.cluster().config().aiv_per_die;
  const int calls = static_cast<int>(inputs.size());
  ex.phases.assign(static_cast<size_t>(dies) * cores * 5, 0);
  ex.record = &sim.run_kernel("dispatch", cores, [&](int die) -> std::function<void()> {
    const int rank = ex.rank_of[die];
    if (rank < 0) return [] {};  // a dead die runs nothing
    return [&, rank, die] {
      for (int c = 0; c < calls; ++c) {
        const RankBuffers& b = ex.bufs[c][rank];
        DeviceArgs args;
        bind_tensors(args, b);
        args.x_active_mask = common::gm_arg(b.mask);
        args.expert_scales = common::gm_arg(b.expert_scales);
        args.scales = common::gm_arg(b.smooth);
        args.elastic_info = common::gm_arg(b.elastic);
        args.expand_scales = common::gm_arg(b.expand_scales);
        args.tp_recv_counts = common::gm_arg(b.tp_recv_counts);
        args.workspace = reinterpret_cast<GM_ADDR>(b.workspace);
        args.attrs = a;
        args.buffer_num = ex.buffer_num;
        args.window_flip = knobs.window_flip;
        args.phase_ps = &ex.phases[static_cast<size_t>(die) * cores * 5];
        args.stall_before_copy_ps = (rank == knobs.delay_rank && c == 0) ? knobs.delay_ps : 0;
        args.active_tokens = inputs[c][rank].active_tokens(a);
        domain_attrs(args.attrs, ex.elastic);
        args.send_shares = ex.shares[c][rank].data();
        common::run_device<KernelDispatch>(bf16, args);
      }
    };
  });
}

Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs,
                  const common::Elastic& el) {
  Execution ex = place(sim, a, inputs, el);
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
        w_(dispatch::workload_of(p)),
        bf16_(w_.bf16),
        calls_(w_.calls) {
    dispatch::validate(a_);
    dispatch::require_dispatch_window(p, a_, "dispatch");
    el_ = dispatch::plan_elastic(p, a_);  // a_: the new EP group's attributes when scaled down
    dispatch::check_routing(p, a_);
    knobs_.window_flip = w_.window_flip;
    knobs_.delay_rank = w_.delay_rank;
    knobs_.delay_ps = static_cast<model::Tick>(w_.delay_us * 1e6);
    if (knobs_.delay_rank >= ranks)
      throw SimError(kExitBadInput,
                     "dispatch.delay_rank = " + std::to_string(knobs_.delay_rank) +
                         " is not a rank of ep.world_size = " + std::to_string(ranks));
  }

  void place(Simulation& sim) override {
    inputs_ = dispatch::make_inputs(p_, a_, bf16_, calls_, el_);
    ex_ = dispatch::place(sim, a_, inputs_, el_);
  }
  void launch(Simulation& sim) override { dispatch::launch(sim, a_, bf16_, inputs_, knobs_, ex_); }
  void figures(Simulation&) override {
    dispatch::add_figures(*ex_.record, a_, inputs_[0], ex_, calls_);
    if (el_.any_dead())
      ex_.record->figure("elastic", "ranks; ns",
                         dispatch::elastic_figure(el_, healthy_ps_, ex_.record->latency()));
  }
  void dump(Simulation& sim, const std::string& dir) override {
    for (int c = 0; c < calls_; ++c)
      for (int r = 0; r < dispatch::world_ranks(a_); ++r)
        dispatch::dump(sim, a_, bf16_, inputs_[c][r], ex_.bufs[c][r], r,
                       common::dump_dir(dir, calls_, c, dispatch::rank_leaf(ex_, r)));
  }
  std::string stuck() const override { return dispatch::dead_rank_report(a_, el_); }
  void healthy_latency(model::Tick t) override { healthy_ps_ = t; }
  std::string check(Simulation& sim, bool payload) override {
    for (int c = 0; c < calls_; ++c) {
      std::vector<dispatch::RankOutputs> want = dispatch::golden(a_, bf16_, inputs_[c]);
      for (int r = 0; r < dispatch::world_ranks(a_); ++r) {
        std::string diff = dispatch::compare(a_, want[r], sim, ex_.bufs[c][r], r, c, payload);
        if (!diff.empty()) return diff;
      }
    }
    return "";
  }
  std::string checked(bool payload) const override {
    return std::string(payload ? "every output" : "every id, count and triple (timing-only)") +
           " of every rank matches the golden reference (" + std::to_string(a_.ep) + " ranks" +
           (a_.tp == 2 ? " x TP 2" : "") + ", " + std::to_string(calls_) + " call(s))";
  }

 private:
  const Params& p_;
  Attrs a_;
  dispatch::Workload w_;
  bool bf16_;
  int calls_;
  common::Elastic el_;
  model::Tick healthy_ps_ = 0;
  dispatch::Knobs knobs_;
  std::vector<std::vector<dispatch::RankInputs>> inputs_;
  dispatch::Execution ex_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<DispatchRun>(p, ranks);
}

}  // namespace

ASCEND_SIM_KERNEL(dispatch_kernel_def, 10);

KernelDef dispatch_kernel_def() {
  KernelDef k{"dispatch", "MoeDistributeDispatch (A3 fullmesh_v1): tokens to their experts' ranks",
              dispatch::declare_params, dispatch::dies_of, plan};
  k.also_reads = {"fault"};
  k.workload = "dispatch";
  k.shorthands = dispatch::workload_flags(true);
  k.inputs = true;
  k.dump_bytes = [](const Params& p, int dies) {
    const dispatch::Attrs a = dispatch::checked_attrs(p, dies);
    uint64_t sum = 0;
    for (int r = 0; r < dies; ++r) sum += dispatch::dispatch_rank_dump(a, r);
    return sum * static_cast<uint64_t>(dispatch::workload_of(p).calls);
  };
  k.payload_bytes = [](const Params& p, int dies) { return dispatch::payload_bytes(p, dies, 1); };
  return k;
}

}  // namespace ascend
