// Host side of MoeDistributeCombine: attributes, generated or read inputs, GM placement, launch,
// the golden check, the figures, and `--kernel combine`.
#include <cmath>
#include <cstring>
#include <random>

#include "api/numeric.h"
#include "kernels/combine/combine_host.h"
#include "kernels/combine/combine_kernel.h"
#include "kernels/common/host.h"
#include "kernels/dispatch/dispatch_host.h"
#include "kernels/dispatch/dispatch_workload.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/npy.h"

namespace ascend {

namespace combine {

namespace {
using common::read_vec;
uint64_t npos(int v) {
  return static_cast<uint64_t>(v);
}
std::string hex16(uint16_t v) {
  char s[8];
  std::snprintf(s, sizeof s, "0x%04x", v);
  return s;
}
// [OLD] scalar const alphas (constNum,): in the token dtype, as the operator takes them; fp32
// ones are accepted where every value is exactly one of the dtype (the operator could hold it).
std::vector<uint16_t> scalar_alphas(const std::string& path, uint64_t n, bool bf16) {
  const char* xdt = bf16 ? "<u2" : "<f2";
  npy::Array arr = npy::read(path);
  std::vector<uint16_t> bits(n);
  if (arr.dtype == "<f4" && arr.shape == std::vector<uint64_t>{n}) {
    for (uint64_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, arr.bytes.data() + 4 * i, 4);
      bits[i] = bf16 ? AscendC::to_bf16(v, AscendC::RoundMode::CAST_RINT).bits
                     : AscendC::to_half(v, AscendC::RoundMode::CAST_RINT).bits;
      const float back = bf16 ? AscendC::to_float(AscendC::bfloat16_t::from_bits(bits[i]))
                              : AscendC::to_float(AscendC::half::from_bits(bits[i]));
      if (!(back == v))
        throw SimError(kExitBadInput,
                       path + ": entry " + std::to_string(i) + " = " + std::to_string(v) +
                           " is not a value of " + (bf16 ? "bf16" : "fp16") +
                           ": the operator takes the const alphas in the token dtype");
    }
    return bits;
  }
  arr = npy::read_expect(path, xdt, {n});
  std::memcpy(bits.data(), arr.bytes.data(), arr.bytes.size());
  return bits;
}
}  // namespace

std::vector<float> make_expert_scales(const Params& p, const Attrs& a, std::mt19937& rng) {
  const int k_top = a.d.topk;
  std::vector<float> w(npos(a.d.bs) * k_top);
  if (workload_of(p).uniform_scales) {
    std::fill(w.begin(), w.end(), 1.0f / static_cast<float>(k_top));
    return w;
  }
  return common::softmax_weights(a.d.bs, k_top, rng);
}

std::shared_ptr<const ConstExperts> make_const_experts(const Params& p, const Attrs& a, bool bf16) {
  if (!a.d.const_experts) return nullptr;
  std::mt19937 rng(common::input_seed(p, 0, 0, kScaleSalt ^ 0xc0u));
  auto c = std::make_shared<ConstExperts>();
  std::uniform_real_distribution<float> alpha(-1.0f, 1.0f);
  dispatch::Attrs rows = a.d;
  rows.bs = a.d.const_experts;
  if (a.const_softmax) {  // small gate weights, so that the softmax is not saturated
    for (auto* gate : {&c->gate1, &c->gate2})
      for (uint16_t b : dispatch::random_tokens(rows, bf16, rng)) {
        float v = (bf16 ? AscendC::to_float(AscendC::bfloat16_t::from_bits(b))
                        : AscendC::to_float(AscendC::half::from_bits(b))) /
                  256.0f;
        gate->push_back(bf16 ? AscendC::to_bf16(v, AscendC::RoundMode::CAST_RINT).bits
                             : AscendC::to_half(v, AscendC::RoundMode::CAST_RINT).bits);
      }
  } else {  // scalars in the dtype, as the operator takes them
    auto in_dtype = [&](float v) {
      return bf16 ? AscendC::to_bf16(v, AscendC::RoundMode::CAST_RINT).bits
                  : AscendC::to_half(v, AscendC::RoundMode::CAST_RINT).bits;
    };
    for (int i = 0; i < a.d.const_experts; ++i) {
      c->alpha1.push_back(in_dtype(alpha(rng)));
      c->alpha2.push_back(in_dtype(alpha(rng)));
    }
  }
  c->v = dispatch::random_tokens(rows, bf16, rng);
  return c;
}

std::vector<RankInputs> generate_inputs(const Params& p, const Attrs& a, bool bf16, int call) {
  const int w = dispatch::world_ranks(a.d);
  const bool payload = p.integer("sim.payload") != 0;
  std::vector<dispatch::RankInputs> routed(w);
  const dispatch::Workload dw = dispatch::workload_of(p);
  for (int r = 0; r < w; ++r) {  // the seeds of dispatch: the same routing for the same seed
    std::mt19937 rng(common::input_seed(p, r, call));
    routed[r].ids =
        dispatch::route(a.d, dw.routing, dispatch::ep_rank(a.d, r), rng, dw.special_weight);
    dispatch::generate_v3(p, a.d, r, call, routed[r]);
  }
  std::shared_ptr<const ConstExperts> consts = payload ? make_const_experts(p, a, bf16) : nullptr;
  // Rows, triples and counts as dispatch lays them out (ids only: no hidden states needed).
  std::vector<dispatch::RankOutputs> layout = dispatch::golden(a.d, bf16, routed);
  std::vector<RankInputs> in(w);
  for (int r = 0; r < w; ++r) {
    std::mt19937 rng(common::input_seed(p, r, call, kScaleSalt));
    in[r].ids = routed[r].ids;
    in[r].mask2d = routed[r].mask2d;
    in[r].consts = consts;
    in[r].assist = layout[r].assist_info;
    in[r].ep_send_counts = layout[r].ep_recv_counts;
    in[r].tp_send_counts = layout[r].tp_recv_counts;
    in[r].expert_scales = make_expert_scales(p, a, rng);
    if (payload) {
      dispatch::Attrs rows = a.d;
      // random expert outputs, one per received row (tp = 2: and per row of the TP peer's)
      rows.bs = layout[r].rows + layout[r].peer_rows;
      in[r].expand_x = dispatch::random_tokens(rows, bf16, rng);
      if (a.shared_expert_x) in[r].shared_expert_x = dispatch::random_tokens(a.d, bf16, rng);
      if (a.d.copy_experts + a.d.const_experts)
        in[r].ori_x = dispatch::random_tokens(a.d, bf16, rng);
    }
  }
  return in;
}

RankInputs read_inputs(const Attrs& a, bool bf16, const std::string& dir, int g) {
  RankInputs in;
  const int rank = dispatch::ep_rank(a.d, g);
  const uint64_t rows = npos(dispatch::capacity_rows(a.d, rank)), h = npos(a.d.hidden);
  const uint64_t bs = npos(a.d.bs), k = npos(a.d.topk), tp = npos(a.d.tp);
  const uint64_t l = npos(dispatch::local_experts(a.d, rank));
  const char* xdt = bf16 ? "<u2" : "<f2";
  auto load = [&](const std::string& name, const char* dt, std::vector<uint64_t> shape, auto& out) {
    npy::Array arr = npy::read_expect(dir + "/" + name + ".npy", dt, shape);
    out.resize(arr.bytes.size() / sizeof(out[0]));
    std::memcpy(out.data(), arr.bytes.data(), arr.bytes.size());
  };
  load("expand_x", xdt, {tp * rows, h}, in.expand_x);
  std::vector<int32_t> assist;
  load("assist_info_for_combine", "<i4", {rows * 128}, assist);
  load("ep_send_counts", "<i4", {tp * npos(a.d.ep) * l}, in.ep_send_counts);
  if (tp == 2) load("tp_send_counts", "<i4", {tp}, in.tp_send_counts);
  load("expert_ids", "<i4", {bs, k}, in.ids);
  load("expert_scales", "<f4", {bs, k}, in.expert_scales);
  int32_t prev = 0;
  for (size_t i = 0; i < in.ep_send_counts.size(); ++i) {
    if (i == npos(a.d.ep) * l) prev = 0;  // tp = 2: the peer's cumulative counts start again
    if (in.ep_send_counts[i] < prev || in.ep_send_counts[i] > static_cast<int32_t>(rows))
      throw SimError(kExitBadInput, dir + "/ep_send_counts.npy: entry " + std::to_string(i) +
                                        " = " + std::to_string(in.ep_send_counts[i]) +
                                        " is not a cumulative count within [" +
                                        std::to_string(prev) + ", " + std::to_string(rows) + "]");
    prev = in.ep_send_counts[i];
  }
  in.assist.assign(assist.begin(), assist.begin() + 3 * in.rows_to_send());
  if (a.shared_expert_x) load("shared_expert_x", xdt, {bs, h}, in.shared_expert_x);
  if (a.d.mask_2d) {
    load("x_active_mask", "|b1", {bs, k}, in.mask2d);
  } else {
    in.active = common::read_active_mask(dir, a.d.bs);
  }
  if (a.d.copy_experts + a.d.const_experts) load("ori_x", xdt, {bs, h}, in.ori_x);
  if (a.d.const_experts) {
    auto c = std::make_shared<ConstExperts>();
    const uint64_t n = npos(a.d.const_experts);
    if (a.const_softmax) {  // [NEW] (constNum, H) gate weights in the dtype
      load("const_expert_alpha1", xdt, {n, h}, c->gate1);
      load("const_expert_alpha2", xdt, {n, h}, c->gate2);
    } else {  // [OLD] scalars in the dtype, as the operator takes them (or fp32 ones it can hold)
      c->alpha1 = scalar_alphas(dir + "/const_expert_alpha1.npy", n, bf16);
      c->alpha2 = scalar_alphas(dir + "/const_expert_alpha2.npy", n, bf16);
    }
    load("const_expert_v", xdt, {n, h}, c->v);
    in.consts = c;
  }
  for (size_t i = 0; i < in.ids.size(); ++i)
    if (!dispatch::valid_expert_id(a.d, in.ids[i]))
      throw SimError(kExitBadInput, dir + "/expert_ids.npy: entry " + std::to_string(i) + " = " +
                                        std::to_string(in.ids[i]) + " is not an expert id in " +
                                        dispatch::expert_id_ranges(a.d));
  return in;
}

Execution execute(Simulation& sim, const Attrs& a, bool bf16,
                  const std::vector<std::vector<RankInputs>>& inputs, const Knobs& knobs,
                  const common::Elastic& el) {
  const int ranks = dispatch::world_ranks(a.d), cores = sim.cluster().config().aiv_per_die;
  const int dies = sim.cluster().dies();
  const int calls = static_cast<int>(inputs.size());
  const uint64_t h = npos(a.d.hidden), bs = npos(a.d.bs), k = npos(a.d.topk);
  locate(a, inputs[0]);  // inconsistent triples are bad input, not a deadlock
  sim.set_tp_groups(a.d.tp);
  Execution ex;
  ex.buffer_num = effective_buffer_num(a, sim.cluster().config().core.ub_bytes);
  dispatch::map_ranks(dies, ranks, el, ex.die_of, ex.rank_of);
  const std::vector<int32_t> info = el.scale_down ? el.info() : std::vector<int32_t>{};
  ex.bufs.assign(calls, std::vector<RankBuffers>(ranks));
  for (int c = 0; c < calls; ++c)
    for (int r = 0; r < ranks; ++r) {
      const RankInputs& in = inputs[c][r];
      RankBuffers& b = ex.bufs[c][r];
      const int die = ex.die_of[r];
      uint64_t rows = npos(dispatch::capacity_rows(a.d, dispatch::ep_rank(a.d, r)));
      b.expand_x = sim.alloc(die, "combine.expand_x", npos(a.d.tp) * rows * h * 2);
      b.assist = sim.alloc(die, "combine.assist_info_for_combine", rows * 128 * 4);
      b.send_counts = sim.alloc(die, "combine.ep_send_counts", in.ep_send_counts.size() * 4);
      b.scales = sim.alloc(die, "combine.expert_scales", bs * k * 4);
      b.shared_x = a.shared_expert_x ? sim.alloc(die, "combine.shared_expert_x", bs * h * 2) : 0;
      b.x_out = sim.alloc(die, "combine.x_out", bs * h * 2);
      auto put = [&](const char* name, const auto& v, uint64_t bytes) -> uint64_t {
        uint64_t addr = sim.alloc(die, std::string("combine.") + name, bytes);
        if (!v.empty()) sim.write(addr, v.data(), bytes);
        return addr;
      };
      if (per_token_slots(a)) b.ids = put("expert_ids", in.ids, bs * k * 4);
      if (a.d.mask_2d) b.mask = put("x_active_mask", in.mask2d, bs * k);
      if (a.d.copy_experts + a.d.const_experts) b.ori_x = put("ori_x", in.ori_x, bs * h * 2);
      if (a.d.const_experts) {
        const ConstExperts none;
        const ConstExperts& ce = in.consts ? *in.consts : none;
        const uint64_t n = npos(a.d.const_experts);
        if (a.const_softmax) {
          b.alpha1 = put("const_expert_alpha1", ce.gate1, n * h * 2);
          b.alpha2 = put("const_expert_alpha2", ce.gate2, n * h * 2);
        } else {
          b.alpha1 = put("const_expert_alpha1", ce.alpha1, n * 2);
          b.alpha2 = put("const_expert_alpha2", ce.alpha2, n * 2);
        }
        b.const_v = put("const_expert_v", ce.v, n * h * 2);
      }
      if (!info.empty()) b.elastic = put("elastic_info", info, info.size() * 4);
      if (a.d.tp == 2) b.tp_send_counts = put("tp_send_counts", in.tp_send_counts, 8);
      if (!in.expand_x.empty()) sim.write(b.expand_x, in.expand_x.data(), in.expand_x.size() * 2);
      if (!in.assist.empty()) sim.write(b.assist, in.assist.data(), in.assist.size() * 4);
      sim.write(b.send_counts, in.ep_send_counts.data(), in.ep_send_counts.size() * 4);
      sim.write(b.scales, in.expert_scales.data(), in.expert_scales.size() * 4);
      if (!in.shared_expert_x.empty())
        sim.write(b.shared_x, in.shared_expert_x.data(), in.shared_expert_x.size() * 2);
    }
  ex.phases.assign(static_cast<size_t>(dies) * cores * 3, 0);
  ex.wait_ps.assign(static_cast<size_t>(dies) * cores, 0);
  const Receiver receive = receivers().find(a.receiver);
  ex.record = &sim.run_kernel("combine", cores, [&](int die) -> std::function<void()> {
    const int rank = ex.rank_of[die];
    if (rank < 0) return [] {};  // a dead die runs nothing
    return [&, rank, die, el] {
      for (int c = 0; c < calls; ++c) {
        const RankBuffers& b = ex.bufs[c][rank];
        DeviceArgs args;
        args.expand_x = reinterpret_cast<GM_ADDR>(b.expand_x);
        args.assist_info = reinterpret_cast<GM_ADDR>(b.assist);
        args.ep_send_counts = reinterpret_cast<GM_ADDR>(b.send_counts);
        args.expert_scales = reinterpret_cast<GM_ADDR>(b.scales);
        args.shared_expert_x = b.shared_x ? reinterpret_cast<GM_ADDR>(b.shared_x) : nullptr;
        args.x_out = reinterpret_cast<GM_ADDR>(b.x_out);
        args.attrs = a;
        dispatch::domain_attrs(args.attrs.d, el);
        args.expert_ids = common::gm_arg(b.ids);
        args.x_active_mask = common::gm_arg(b.mask);
        args.ori_x = common::gm_arg(b.ori_x);
        args.const_alpha1 = common::gm_arg(b.alpha1);
        args.const_alpha2 = common::gm_arg(b.alpha2);
        args.const_v = common::gm_arg(b.const_v);
        args.elastic_info = common::gm_arg(b.elastic);
        args.tp_send_counts = common::gm_arg(b.tp_send_counts);
        args.buffer_num = ex.buffer_num;
        args.window_flip = knobs.window_flip;
        args.active_tokens = inputs[c][rank].active_tokens(a);
        args.phase_ps = &ex.phases[static_cast<size_t>(die) * cores * 3];
        args.wait_ps = &ex.wait_ps[static_cast<size_t>(die) * cores];
        args.stall_before_send_ps = (rank == knobs.delay_rank && c == 0) ? knobs.delay_ps : 0;
        args.receive = receive;
        common::run_device<KernelCombine>(bf16, args);
      }
    };
  });
  return ex;
}

void add_figures(KernelRecord& rec, const Attrs& a, const std::vector<RankInputs>& first_call,
                 const Execution& ex, int calls) {
  const int ranks = dispatch::world_ranks(a.d), cores = a.d.cores;
  const uint64_t msg = align_up(2ull * a.d.hidden, 512);
  nlohmann::json bw = nlohmann::json::array(), send = nlohmann::json::array(),
                 recv = nlohmann::json::array(), wait = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    const int die = ex.die_of.empty() ? r : ex.die_of[r];
    double ns = model::ps_to_ns(rec.rank_latency[die]);
    int n_bs = first_call[r].active_tokens(a);
    bw.push_back(ns > 0 ? static_cast<double>(n_bs) * a.d.topk * msg * calls / ns : 0.0);
    uint64_t worst_send = 0, worst_recv = 0;
    nlohmann::json w = nlohmann::json::array();
    for (int c = 0; c < cores; ++c) {
      const uint64_t* ph = &ex.phases[(static_cast<size_t>(die) * cores + c) * 3];
      worst_send = std::max(worst_send, ph[1] - ph[0]);
      worst_recv = std::max(worst_recv, ph[2] - ph[1]);
      w.push_back(model::ps_to_ns(ex.wait_ps[static_cast<size_t>(die) * cores + c]));
    }
    send.push_back(model::ps_to_ns(worst_send));
    recv.push_back(model::ps_to_ns(worst_recv));
    wait.push_back(w);
  }
  rec.figure("rank_bandwidth_GBps", "GB/s per rank", bw);
  rec.figure("phase_max_over_cores", "ns per rank",
             {{"send_ns", send}, {"wait_and_combine_ns", recv}});
  rec.figure("core_wait_ns", "ns per rank per core",
             wait);  // [rank][core]: polls that found the token not ready
  rec.figure("message_bytes", "B", msg);
  rec.figure("wire_bytes_per_row", "B", wire_bytes(a));
  rec.figure("comm_quant", "name", a.comm_quant ? "int8" : "none");
  rec.figure("receiver", "name", a.receiver);
  rec.figure("rows_per_barrier", "rows", a.rows_per_barrier);
  rec.figure("buffer_num", "count", ex.buffer_num);
  rec.figure("calls", "count", calls);
  rec.figure("active_tokens_rank0", "tokens", first_call[0].active_tokens(a));
}

std::string compare(const Attrs& a, const std::vector<uint16_t>& want, Simulation& sim,
                    const RankBuffers& b, int rank, int call, int active) {
  const uint64_t h = npos(a.d.hidden);
  auto got = read_vec<uint16_t>(sim, b.x_out, npos(a.d.bs) * h);
  std::string where = "call " + std::to_string(call) + ", rank " + std::to_string(rank);
  for (uint64_t i = 0; i < got.size(); ++i) {
    uint16_t expect = i < npos(active) * h ? want[i] : 0;  // inactive rows are not written
    if (got[i] != expect)
      return "tensor x_out, " + where + ", row " + std::to_string(i / h) + ", column " +
             std::to_string(i % h) + ": bits " + hex16(got[i]) + ", golden " + hex16(expect) +
             (i < npos(active) * h ? "" : " (an inactive token's row)");
  }
  return "";
}

void dump(Simulation& sim, const Attrs& a, bool bf16, const RankInputs& in, const RankBuffers& b,
          int rank, const std::string& dir) {
  const uint64_t bs = npos(a.d.bs), h = npos(a.d.hidden), k = npos(a.d.topk), tp = npos(a.d.tp);
  const uint64_t rows = npos(dispatch::capacity_rows(a.d, dispatch::ep_rank(a.d, rank)));
  const char* xdt = bf16 ? "<u2" : "<f2";
  npy::write(dir + "/expand_x.npy", xdt, {tp * rows, h},
             common::read_vec<uint8_t>(sim, b.expand_x, tp * rows * h * 2).data());
  if (b.tp_send_counts)
    npy::write(dir + "/tp_send_counts.npy", "<i4", {tp}, in.tp_send_counts.data());
  npy::write(dir + "/assist_info_for_combine.npy", "<i4", {rows * 128},
             common::read_vec<uint8_t>(sim, b.assist, rows * 128 * 4).data());
  npy::write(dir + "/ep_send_counts.npy", "<i4", {in.ep_send_counts.size()},
             in.ep_send_counts.data());
  npy::write(dir + "/expert_ids.npy", "<i4", {bs, k}, in.ids.data());
  npy::write(dir + "/expert_scales.npy", "<f4", {bs, k}, in.expert_scales.data());
  if (b.shared_x)
    npy::write(dir + "/shared_expert_x.npy", xdt, {bs, h},
               common::read_vec<uint8_t>(sim, b.shared_x, bs * h * 2).data());
  if (a.d.mask_2d) {
    npy::write(dir + "/x_active_mask.npy", "|b1", {bs, k}, in.mask2d.data());
  } else {
    common::write_active_mask(dir, a.d.bs, in.active_tokens(a));
  }
  if (b.ori_x)
    npy::write(dir + "/ori_x.npy", xdt, {bs, h},
               common::read_vec<uint8_t>(sim, b.ori_x, bs * h * 2).data());
  if (b.alpha1) {
    const uint64_t n = npos(a.d.const_experts);
    const std::vector<uint64_t> shape =
        a.const_softmax ? std::vector<uint64_t>{n, h} : std::vector<uint64_t>{n};
    const uint64_t bytes = a.const_softmax ? n * h * 2 : n * 2;
    npy::write(dir + "/const_expert_alpha1.npy", xdt, shape,
               common::read_vec<uint8_t>(sim, b.alpha1, bytes).data());
    npy::write(dir + "/const_expert_alpha2.npy", xdt, shape,
               common::read_vec<uint8_t>(sim, b.alpha2, bytes).data());
    npy::write(dir + "/const_expert_v.npy", xdt, {n, h},
               common::read_vec<uint8_t>(sim, b.const_v, n * h * 2).data());
  }
  if (b.elastic) {
    const uint64_t n = 4 + 2 * npos(a.d.elastic_world);
    npy::write(dir + "/elastic_info.npy", "<i4", {n},
               common::read_vec<uint8_t>(sim, b.elastic, n * 4).data());
  }
  npy::write(dir + "/x_out.npy", xdt, {bs, h},
             common::read_vec<uint8_t>(sim, b.x_out, bs * h * 2).data());
}

std::string dead_rank_report(const Attrs& a, const std::vector<RankInputs>& in,
                             const common::Elastic& el) {
  if (!el.any_dead() || el.scale_down) return "";
  const int slots = slots_per_token(a.d);
  std::vector<std::vector<Origin>> where = locate(a, in);
  std::string out = "\n  dead ranks " + el.dead_list() +
                    " (fault.dead_ranks) run nothing: they send no expert output and set no "
                    "token flag; the survivors wait for them:";
  int shown = 0;
  for (int r = 0; r < a.d.ep && shown < 16; ++r) {
    if (el.is_dead(r)) continue;
    std::string tokens;
    int n = 0;
    for (size_t i = 0; i < where[r].size(); ++i)
      if (where[r][i].rank >= 0 && el.is_dead(where[r][i].rank) && n++ < 4)
        tokens += (tokens.empty() ? "" : ", ") + std::string("token ") + std::to_string(i / slots) +
                  " slot " + std::to_string(i % slots) + " (flag at +64 KB + 32 x " +
                  std::to_string(i) + ", from rank " + std::to_string(where[r][i].rank) + ")";
    if (n == 0) continue;
    out += "\n    rank " + std::to_string(r) + " waits for " + std::to_string(n) +
           " token slot(s): " + tokens + (n > 4 ? ", ..." : "");
    ++shown;
  }
  return out;
}

std::string check(const Attrs& a, bool bf16, const std::vector<std::vector<RankInputs>>& inputs,
                  Simulation& sim, const Execution& ex) {
  for (size_t c = 0; c < inputs.size(); ++c) {
    std::vector<std::vector<uint16_t>> want = golden(a, bf16, inputs[c]);
    for (int r = 0; r < dispatch::world_ranks(a.d); ++r) {
      std::string diff = compare(a, want[r], sim, ex.bufs[c][r], r, static_cast<int>(c),
                                 inputs[c][r].active_tokens(a));
      if (!diff.empty()) return diff;
    }
  }
  return "";
}

}  // namespace combine

namespace {

class CombineRun : public KernelRun {
 public:
  CombineRun(const Params& p, int ranks)
      : p_(p),
        a_(combine::attrs_of(p, ranks, static_cast<int>(p.integer("die.aiv_count")))),
        bf16_(dispatch::workload_of(p).bf16) {
    combine::validate(a_);
    require_window(p, "combine", 2 * dispatch::combine_area_bytes(a_.d),
                   "2 x (K + shared) x BS x Align512(2H)");
    if (a_.d.tp == 2)
      require_window(p, "combine (TP window)", dispatch::tp_window_needed(a_.d),
                     "2 x (A x Align512(Align32(2H) + 32 + 12) + A x Align512(2H))");
    el_ = dispatch::plan_elastic(p, a_.d);  // a_.d: the new EP group's attributes
    dispatch::check_routing(p, a_.d);
    const combine::Workload w = combine::workload_of(p);
    knobs_.delay_rank = w.delay_rank;
    knobs_.delay_ps = static_cast<model::Tick>(w.delay_us * 1e6);
    if (knobs_.delay_rank >= ranks)
      throw SimError(kExitBadInput,
                     "combine.delay_rank = " + std::to_string(w.delay_rank) +
                         " is not a rank of ep.world_size = " + std::to_string(ranks));
  }

  void place(Simulation&) override {
    const std::string input_dir = p_.text("run.input_dir");
    const bool payload = p_.integer("sim.payload") != 0;
    for (int c = 0; c < kCalls; ++c) {
      if (input_dir.empty()) {
        inputs_.push_back(combine::generate_inputs(p_, a_, bf16_, c));
        continue;
      }
      std::vector<combine::RankInputs> in(dispatch::world_ranks(a_.d));
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r) {
        in[r] = combine::read_inputs(a_, bf16_,
                                     input_dir + "/rank" + std::to_string(el_.physical(r)), r);
        if (!payload) in[r].expand_x.clear(), in[r].shared_expert_x.clear();
      }
      inputs_.push_back(std::move(in));
    }
  }
  // GM placement and launch are one step (combine::execute, also moe's).
  void launch(Simulation& sim) override {
    ex_ = combine::execute(sim, a_, bf16_, inputs_, knobs_, el_);
  }
  void figures(Simulation&) override {
    combine::add_figures(*ex_.record, a_, inputs_[0], ex_, kCalls);
    if (el_.any_dead())
      ex_.record->figure("elastic", "ranks; ns",
                         dispatch::elastic_figure(el_, healthy_ps_, ex_.record->latency()));
  }
  void dump(Simulation& sim, const std::string& dir) override {
    for (int c = 0; c < kCalls; ++c)
      for (int r = 0; r < dispatch::world_ranks(a_.d); ++r)
        combine::dump(sim, a_, bf16_, inputs_[c][r], ex_.bufs[c][r], r,
                      common::dump_dir(dir, kCalls, c, "rank" + std::to_string(el_.physical(r))));
  }
  std::string stuck() const override { return combine::dead_rank_report(a_, inputs_.front(), el_); }
  void healthy_latency(model::Tick t) override { healthy_ps_ = t; }
  std::string check(Simulation& sim, bool payload) override {
    return payload ? combine::check(a_, bf16_, inputs_, sim, ex_) : "";
  }
  std::string checked(bool payload) const override {
    if (!payload) return "not checked (timing-only run: sim.payload = 0 moves no hidden states)";
    return "x_out of every rank matches the golden reference (" + std::to_string(a_.d.ep) +
           " ranks" + (a_.d.tp == 2 ? " x TP 2" : "") + ", " + std::to_string(kCalls) + " call(s))";
  }

 private:
  // One call per launch: back-to-back combines with nothing in between can race (a rank two
  // calls ahead reuses a window half a slow core still reads); moe.layers alternates the halves
  // the way a model does, with a dispatch in between.
  static constexpr int kCalls = 1;
  const Params& p_;
  combine::Attrs a_;
  bool bf16_;
  common::Elastic el_;
  model::Tick healthy_ps_ = 0;
  combine::Knobs knobs_;
  std::vector<std::vector<combine::RankInputs>> inputs_;
  combine::Execution ex_;
};

std::unique_ptr<KernelRun> plan(const Params& p, int ranks) {
  return std::make_unique<CombineRun>(p, ranks);
}

}  // namespace

ASCEND_SIM_KERNEL(combine_kernel_def, 20);

KernelDef combine_kernel_def() {
  KernelDef k{
      "combine",
      "MoeDistributeCombine (A3 fullmesh_v1): expert outputs back to their tokens, weighted sum",
      combine::declare_params, dispatch::dies_of, plan};
  k.also_reads = {"fault"};
  k.workload = "dispatch";
  k.shorthands = dispatch::workload_flags(true);
  k.shorthands.push_back(dispatch::comm_quant_flag());
  k.inputs = true;
  k.dump_bytes = [](const Params& p, int dies) {
    const dispatch::Attrs a = dispatch::checked_attrs(p, dies);
    const bool shared_x = combine::attrs_of(p, dies, a.cores).shared_expert_x;
    uint64_t sum = 0;
    for (int r = 0; r < dies; ++r) sum += dispatch::combine_rank_dump(a, r, shared_x);
    return sum;
  };
  k.payload_bytes = [](const Params& p, int dies) { return dispatch::payload_bytes(p, dies, 2); };
  return k;
}

}  // namespace ascend
