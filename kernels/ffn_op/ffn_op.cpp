// Host side of `ffn`, the FFN fused operator of [FFN-NOTE] on one die: its attributes and limits,
// the host tiling, the inputs (generated, or read with --input), the mixed launch, figures
// (per-pipe busy of the AICs and AIVs, the bound), --dump and the check against the golden.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include "kernels/common/host.h"
#include "kernels/ffn_op/ffn_op_golden.h"
#include "kernels/ffn_op/ffn_op_host.h"
#include "kernels/kernel.h"
#include "models/errors.h"
#include "sim/field_params.h"
#include "sim/npy.h"

namespace ascend {

namespace {

using ffn_op::Activation;
using ffn_op::Split;

// The operator's attributes (ffn_op.*), each bound once to its field (sim/field_params.h).
struct FfnOpAttrs {
  int experts = 8;             // E
  std::string expert_tokens;   // tokens per expert, comma-separated; empty: `tokens` spread
  int tokens = 128;            // M
  int hidden = 5120;           // K1 = N2
  int intermediate = 2560;     // N1
  bool bf16 = false;           // x, weights and y: bf16, or fp16
  bool inner_precise = false;  // 1: high performance
  std::string activation = "fastgelu";
  bool bias = false;
  std::string split = "mixed";    // mm1's core split
  int expert_parallelism = 0;     // P (0: the operator's host tiling)
  int min_single_n = 256;         // the plain split's singleN unit
  bool antiquant = false;         // the pseudo-quant template
  bool antiquant_overlap = true;  // casts beside the matmuls
  bool quant = false;             // the quant template
  bool per_channel = false;       // the requant scale per channel, or per tensor
  std::string deq_scale_dtype = "fp32";
  std::string quant_round = "rint";
  int cores = 0;  // AICs launched (0: die.aic_count)
};

const std::vector<FieldParam<FfnOpAttrs>>& attr_fields() {
  using A = FfnOpAttrs;
  const char* w = "workload";
  static const std::vector<FieldParam<A>> fields = {
      field<A>(
          int_param("ffn_op.experts", "experts", kFromField, 1, 256,
                    "local experts E (weight1 [E, K1, N1], weight2 [E, K2, N2])", w),
          [](A & a) -> auto& { return a.experts; }),
      field<A>(
          text_param("ffn_op.expert_tokens", kFromField,
                     "tokens per expert, comma-separated (E entries, 0 allowed); empty: "
                     "ffn_op.tokens spread evenly",
                     w),
          [](A & a) -> auto& { return a.expert_tokens; }),
      field<A>(
          int_param("ffn_op.tokens", "tokens", kFromField, 1, 1 << 20,
                    "tokens M when expert_tokens is empty (the first experts take the rest)", w),
          [](A & a) -> auto& { return a.tokens; }),
      field<A>(
          int_param("ffn_op.hidden", "elements", kFromField, 16, 65535,
                    "hidden size K1 = N2 (a multiple of 16)", w),
          [](A & a) -> auto& { return a.hidden; }),
      field<A>(
          int_param("ffn_op.intermediate", "elements", kFromField, 16, 65535,
                    "intermediate size N1 (K2 = N1, or N1 / 2 for the GLU activations; a "
                    "multiple of 16)",
                    w),
          [](A & a) -> auto& { return a.intermediate; }),
      choice_field<A>(
          "ffn_op.dtype", {{"fp16", false}, {"bf16", true}}, "x, weights and y", w,
          [](A & a) -> auto& { return a.bf16; }),
      field<A>(
          int_param("ffn_op.inner_precise", "", kFromField, 0, 1,
                    "0: high precision (mm1 in fp32, fp32 activation, Cast); 1: high "
                    "performance (fp16 throughout; fp16 only)",
                    w),
          [](A & a) -> auto& { return a.inner_precise; }),
      field<A>(
          choice_param("ffn_op.activation", kFromField,
                       {"relu", "gelu", "fastgelu", "silu", "swiglu", "geglu", "reglu"},
                       "the activation between mm1 and mm2; swiglu, geglu, reglu: the GLU "
                       "template, left half of mm1 x act(right half), one expert, fp16",
                       w),
          [](A & a) -> auto& { return a.activation; }),
      field<A>(
          int_param("ffn_op.bias", "", kFromField, 0, 1,
                    "1: bias1 [E, N1] and bias2 [E, N2] (fp32)", w),
          [](A & a) -> auto& { return a.bias; }),
      field<A>(
          choice_param("ffn_op.split", kFromField, {"plain", "expert_parallel", "mixed"},
                       "mm1's core split when an expert cannot fill the cores ([FFN-NOTE] "
                       "3.1): plain, expert_parallel (P experts side by side), mixed (the "
                       "token cache: experts above baseM alone, the others P at a time)",
                       "what-if"),
          [](A & a) -> auto& { return a.split; }),
      field<A>(
          int_param("ffn_op.expert_parallelism", "experts", kFromField, 0, 10,
                    "P, experts computed side by side; 0: min(10, AICs / mm1's n split), at "
                    "least 2 (the operator's host tiling)",
                    "what-if"),
          [](A & a) -> auto& { return a.expert_parallelism; }),
      field<A>(
          int_param("ffn_op.min_single_n", "elements", kFromField, 128, 256,
                    "the plain split's singleN unit: 256, or 128 to spread one expert's mm1 "
                    "over more cores ([FFN-NOTE] 3.1, option 2)",
                    "what-if"),
          [](A & a) -> auto& { return a.min_single_n; }),
      field<A>(
          int_param("ffn_op.antiquant", "", kFromField, 0, 1,
                    "1: the pseudo-quant template: int8 weights with per-channel scale and "
                    "offset (in the x dtype), cast on the AIVs ([FFN-NOTE] 2.3)",
                    w),
          [](A & a) -> auto& { return a.antiquant; }),
      field<A>(
          int_param("ffn_op.antiquant_overlap", "", kFromField, 0, 1,
                    "pseudo-quant: 1 casts CastWeight2 beside mm1 and the next CastWeight1 "
                    "beside mm2 ([FFN-NOTE] 4.2); 0 gives each cast the cores to itself",
                    "what-if"),
          [](A & a) -> auto& { return a.antiquant_overlap; }),
      field<A>(
          int_param("ffn_op.quant", "", kFromField, 0, 1,
                    "1: the quant template ([FFN-NOTE] 2.2): int8 x and weights, int32 "
                    "accumulation and bias, deq_scale1/2 dequantize to fp16 on the FIXPIPE, "
                    "the activation's output requantized to int8 on the AIVs (x * scale + "
                    "offset); fp16 y",
                    w),
          [](A & a) -> auto& { return a.quant; }),
      choice_field<A>(
          "ffn_op.quant_scale", {{"per_tensor", false}, {"per_channel", true}},
          "quant: the requant scale, per tensor (scale [E]) or per channel "
          "(scale [E, K2], the operator's smooth-scale key 14); offset [E]",
          w, [](A & a) -> auto& { return a.per_channel; }),
      field<A>(
          choice_param("ffn_op.deq_scale_dtype", kFromField, {"fp32", "uint64", "bf16"},
                       "quant: deq_scale1/2 as the user gives them: fp32 (converted to "
                       "uint64 on the AIVs, CreateVecIndex / ShiftRight / Gather, key 13) or "
                       "uint64 (the fp32 scale in the low 32 bits, read by the FIXPIPE as "
                       "given), both with fp16 y; bf16 with bf16 y (key 11: dequantized on "
                       "the AIVs)",
                       w),
          [](A & a) -> auto& { return a.deq_scale_dtype; }),
      field<A>(
          choice_param("ffn_op.quant_round", kFromField,
                       {"rint", "round", "floor", "ceil", "trunc"},
                       "quant: the round mode of the requant's Cast fp16 -> int8 (CAST_RINT, "
                       "CAST_ROUND, ...); it saturates to [-128, 127]",
                       w),
          [](A & a) -> auto& { return a.quant_round; }),
      field<A>(
          int_param("ffn_op.cores", "AICs", kFromField, 0, 48,
                    "AICs launched (each with 2 AIVs); 0: die.aic_count", "what-if"),
          [](A & a) -> auto& { return a.cores; })};
  return fields;
}

void declare(Params& p) {
  declare_fields(p, attr_fields());
}

int dies(const Params& p) {
  return single_die(p, "ffn");
}

std::vector<int64_t> expert_tokens_of(const FfnOpAttrs& a) {
  const int experts = a.experts;
  const std::string& text = a.expert_tokens;
  std::vector<int64_t> v;
  if (text.empty()) {
    const int64_t m = a.tokens;
    for (int e = 0; e < experts; ++e) v.push_back(m / experts + (e < m % experts ? 1 : 0));
    return v;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    errno = 0;
    const long long n = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end || errno || n < 0 || n > (1 << 20))
      throw SimError(kExitBadInput, "ffn_op.expert_tokens = '" + text + "': '" + item +
                                        "' is not a token count in [0, 1048576]");
    v.push_back(n);
  }
  if (static_cast<int>(v.size()) != experts)
    throw SimError(kExitBadInput, "ffn_op.expert_tokens = '" + text + "' has " +
                                      std::to_string(v.size()) +
                                      " entries; ffn_op.experts = " + std::to_string(experts));
  return v;
}

template <class T>
std::vector<T> uniform(size_t n, double scale, std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-scale, scale);
  std::vector<T> v(n);
  for (T& x : v) x = AscendC::cast_to<T>(d(rng), AscendC::RoundMode::CAST_RINT);
  return v;
}

class FfnRun : public KernelRun {
 public:
  explicit FfnRun(const Params& p) : p_(p) {
    const FfnOpAttrs a = read_fields(p, attr_fields());
    tokens_ = expert_tokens_of(a);
    bf16_ = a.bf16;
    int cores = a.cores;
    const int die_aics = static_cast<int>(p.integer("die.aic_count"));
    if (cores == 0) cores = die_aics;
    if (cores > die_aics)
      throw SimError(kExitBadInput, "ffn_op.cores = " + std::to_string(cores) +
                                        " exceeds die.aic_count = " + std::to_string(die_aics));
    if (2 * cores > p.integer("die.aiv_count"))
      throw SimError(kExitBadInput, "ffn: " + std::to_string(cores) +
                                        " AICs need twice as many AIVs; die.aiv_count = " +
                                        p.text("die.aiv_count"));
    const ffn_op::Limits lim = ffn_op::limits_of(p);
    t_ = ffn_op::make_tiling(a.experts, tokens_, a.hidden, a.intermediate, cores,
                             ffn_op::activation_of(a.activation), a.inner_precise, bf16_, a.bias,
                             ffn_op::split_of(a.split), a.expert_parallelism, a.min_single_n, lim,
                             a.antiquant, a.antiquant_overlap, a.quant, a.per_channel,
                             a.deq_scale_dtype == "fp32", round_of(a.quant_round));
    if (t_.quant && (a.deq_scale_dtype == "bf16") != bf16_)
      throw SimError(kExitBadInput,
                     std::string("ffn: quant with ") + (bf16_ ? "bf16" : "fp16") +
                         " y and deq_scale_dtype = " + a.deq_scale_dtype +
                         ": [FFN-NOTE] 2.2 pairs fp16 y with uint64 or fp32 deq scales and bf16 y "
                         "with bf16 ones (set ffn_op.deq_scale_dtype)");
    if (t_.antiquant && !p.text("run.input_dir").empty())
      throw SimError(kExitBadInput,
                     "ffn: --input with ffn_op.antiquant = 1 is not modelled (generated inputs "
                     "only)");
  }

  void place(Simulation& sim) override {
    if (t_.quant) return place_quant(sim);
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    const uint64_t nx = m * t_.k1, nw1 = e * t_.k1 * t_.n1, nw2 = e * t_.k2 * t_.n2;
    payload_ = p_.integer("sim.payload") != 0;
    const std::string in = p_.text("run.input_dir");
    if (!in.empty()) {
      read_inputs(in);
    } else if (payload_) {
      auto seed = [&](uint32_t salt) { return common::input_seed(p_, 0, 0, salt); };
      // Weights scaled by 1/sqrt(K) keep the sums of products near 1 (no fp16 overflow).
      x_ = ffn_op::random_matrix(m, t_.k1, 1.0, bf16_, seed(0));
      if (t_.antiquant) {
        make_antiquant(q1_, c1_, t_.k1, t_.n1, w1_, seed(4));
        make_antiquant(q2_, c2_, t_.k2, t_.n2, w2_, seed(5));
      } else {
        w1_ =
            ffn_op::random_matrix(e * t_.k1, t_.n1, 1.0 / std::sqrt(double(t_.k1)), bf16_, seed(1));
        w2_ =
            ffn_op::random_matrix(e * t_.k2, t_.n2, 1.0 / std::sqrt(double(t_.k2)), bf16_, seed(2));
      }
      if (t_.bias) {
        std::mt19937 rng(seed(3));
        b1_ = uniform<float>(e * t_.n1, 0.5, rng);
        b2_ = uniform<float>(e * t_.n2, 0.5, rng);
      }
    }
    xa_ = sim.alloc(0, "ffn.x", nx * 2);
    if (t_.antiquant) {
      const uint64_t slots = static_cast<uint64_t>(t_.max_jobs);
      d_.w1q = sim.alloc(0, "ffn.weight1_int8", nw1);
      d_.w2q = sim.alloc(0, "ffn.weight2_int8", nw2);
      d_.scale1 = sim.alloc(0, "ffn.antiquant_scale1", e * t_.n1 * 2);
      d_.offset1 = sim.alloc(0, "ffn.antiquant_offset1", e * t_.n1 * 2);
      d_.scale2 = sim.alloc(0, "ffn.antiquant_scale2", e * t_.n2 * 2);
      d_.offset2 = sim.alloc(0, "ffn.antiquant_offset2", e * t_.n2 * 2);
      d_.ww1 = sim.alloc(0, "ffn.weight1_workspace", slots * t_.k1 * t_.n1 * 2);
      d_.ww2 = sim.alloc(0, "ffn.weight2_workspace", slots * t_.k2 * t_.n2 * 2);
      if (!q1_.empty()) {
        sim.write(d_.w1q, q1_.data(), q1_.size());
        sim.write(d_.w2q, q2_.data(), q2_.size());
        sim.write(d_.scale1, c1_.data(), e * t_.n1 * 2);
        sim.write(d_.offset1, c1_.data() + e * t_.n1, e * t_.n1 * 2);
        sim.write(d_.scale2, c2_.data(), e * t_.n2 * 2);
        sim.write(d_.offset2, c2_.data() + e * t_.n2, e * t_.n2 * 2);
      }
    } else {
      w1a_ = sim.alloc(0, "ffn.weight1", nw1 * 2);
      w2a_ = sim.alloc(0, "ffn.weight2", nw2 * 2);
    }
    if (t_.bias) {
      b1a_ = sim.alloc(0, "ffn.bias1", e * t_.n1 * 4);
      b2a_ = sim.alloc(0, "ffn.bias2", e * t_.n2 * 4);
    }
    eta_ = sim.alloc(0, "ffn.expert_tokens", e * 8);
    ya_ = sim.alloc(0, "ffn.y", m * t_.n2 * 2);
    ws1a_ = sim.alloc(0, "ffn.workspace1", ffn_op::ws1_bytes(t_));
    ws2a_ = sim.alloc(0, "ffn.workspace2", ffn_op::ws2_bytes(t_));
    sim.write(eta_, tokens_.data(), e * 8);
    if (!x_.empty()) sim.write(xa_, x_.data(), x_.size() * 2);
    if (!x_.empty() && !t_.antiquant) {
      sim.write(w1a_, w1_.data(), w1_.size() * 2);
      sim.write(w2a_, w2_.data(), w2_.size() * 2);
    }
    if (!b1_.empty()) {
      sim.write(b1a_, b1_.data(), b1_.size() * 4);
      sim.write(b2a_, b2_.data(), b2_.size() * 4);
    }
  }

  void launch(Simulation& sim) override {
    ffn_op::Device d = d_;
    d.x = xa_;
    d.w1 = w1a_;
    d.b1 = b1a_;
    d.w2 = w2a_;
    d.b2 = b2a_;
    d.expert_tokens = eta_;
    d.y = ya_;
    d.ws1 = ws1a_;
    d.ws2 = ws2a_;
    d.deq_ws = deq_wsa_;
    d.ws3 = ws3a_;
    const std::function<void()> device = ffn_op::program(t_, bf16_, d);
    rec_ = &sim.run_kernel("ffn", LaunchShape::mixed(t_.cores, 2), [&](int) { return device; });
  }

  void figures(Simulation&) override {
    KernelRecord& r = *rec_;
    const auto rounds = ffn_op::schedule(tokens_, t_);
    int computed = 0;
    for (int64_t v : tokens_) computed += v > 0;
    const double flops =
        2.0 * static_cast<double>(t_.tokens) * (double(t_.k1) * t_.n1 + double(t_.k2) * t_.n2);
    const double ns = model::ps_to_ns(r.latency());
    double cube = 0, mte2 = 0, vec = 0, aiv_mte2 = 0;
    for (int c = 0; c < t_.cores; ++c) {
      cube += r.aic_busy_pct(0, c, model::Lane::CUBE);
      mte2 += r.aic_busy_pct(0, c, model::Lane::MTE2);
    }
    for (int c = 0; c < 2 * t_.cores; ++c) {
      vec += r.pipe_busy_pct(0, c, model::Lane::VECTOR);
      aiv_mte2 += r.pipe_busy_pct(0, c, model::Lane::MTE2);
    }
    cube /= t_.cores;
    mte2 /= t_.cores;
    vec /= 2 * t_.cores;
    aiv_mte2 /= 2 * t_.cores;
    r.figure("experts", "count", t_.experts);
    r.figure("experts_with_tokens", "count", computed);
    r.figure("tokens", "count", t_.tokens);
    r.figure("shape", "K1, N1, K2, N2", nlohmann::json::array({t_.k1, t_.n1, t_.k2, t_.n2}));
    r.figure("activation", "name", ffn_op::activation_name(t_.activation));
    r.figure("split", "name", ffn_op::split_name(t_.split));
    r.figure("expert_parallelism", "experts", t_.parallelism);
    r.figure("rounds", "count", rounds.size());
    r.figure("cube_base", "baseM, baseK, baseN",
             nlohmann::json::array({t_.mm1.baseM, t_.mm1.baseK, t_.mm1.baseN}));
    r.figure("vector_tile", "rows x cols", nlohmann::json::array({t_.vec_base_m, t_.vec_base_n}));
    r.figure("aics", "count", t_.cores);
    r.figure("tflops", "TFLOP/s", ns > 0 ? flops / ns / 1e3 : 0.0);
    r.figure("aic_cube_busy_pct", "%", cube);
    r.figure("aic_mte2_busy_pct", "%", mte2);
    r.figure("aiv_vector_busy_pct", "%", vec);
    r.figure("aiv_mte2_busy_pct", "%", aiv_mte2);
    r.figure("template", "name",
             t_.quant_bf16  ? "quant, bf16 output (int8 x and weights, dequant, activation and "
                              "requant on the AIVs)"
             : t_.quant     ? "quant (int8 x and weights, dequant on the FIXPIPE, requant on the "
                              "AIVs)"
             : t_.antiquant ? "pseudo-quant (int8 weights cast on the AIVs)"
             : t_.high_performance ? "high performance"
                                   : "high precision");
    // The busiest of the pipes that can bind: the AICs' MTE2 and cube, the AIVs' vector and MTE2.
    const std::pair<double, const char*> pipes[] = {
        {mte2, "MTE2"}, {cube, "CUBE"}, {vec, "AIV VECTOR"}, {aiv_mte2, "AIV MTE2"}};
    r.figure("bound", "pipe", std::max_element(std::begin(pipes), std::end(pipes))->second);
  }

  void dump(Simulation& sim, const std::string& dir) override {
    const std::string dt = bf16_ ? "<u2" : "<f2";
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    auto out = [&](const char* name, const std::string& dtype, std::vector<uint64_t> shape,
                   uint64_t addr, uint64_t bytes) {
      std::vector<uint8_t> v(bytes);
      sim.read(addr, v.data(), bytes);
      npy::write(dir + "/" + name, dtype, shape, v.data());
    };
    if (t_.quant) {
      for (const QuantTensor& q : quant_tensors()) out(q.file, q.dtype, q.shape, q.addr, q.bytes);
      return;
    }
    out("x.npy", dt, {m, uint64_t(t_.k1)}, xa_, m * t_.k1 * 2);
    if (t_.antiquant) {
      out("weight1.npy", "|i1", {e, uint64_t(t_.k1), uint64_t(t_.n1)}, d_.w1q, e * t_.k1 * t_.n1);
      out("weight2.npy", "|i1", {e, uint64_t(t_.k2), uint64_t(t_.n2)}, d_.w2q, e * t_.k2 * t_.n2);
      out("antiquant_scale1.npy", dt, {e, uint64_t(t_.n1)}, d_.scale1, e * t_.n1 * 2);
      out("antiquant_offset1.npy", dt, {e, uint64_t(t_.n1)}, d_.offset1, e * t_.n1 * 2);
      out("antiquant_scale2.npy", dt, {e, uint64_t(t_.n2)}, d_.scale2, e * t_.n2 * 2);
      out("antiquant_offset2.npy", dt, {e, uint64_t(t_.n2)}, d_.offset2, e * t_.n2 * 2);
    } else {
      out("weight1.npy", dt, {e, uint64_t(t_.k1), uint64_t(t_.n1)}, w1a_, e * t_.k1 * t_.n1 * 2);
      out("weight2.npy", dt, {e, uint64_t(t_.k2), uint64_t(t_.n2)}, w2a_, e * t_.k2 * t_.n2 * 2);
    }
    if (t_.bias) {
      out("bias1.npy", "<f4", {e, uint64_t(t_.n1)}, b1a_, e * t_.n1 * 4);
      out("bias2.npy", "<f4", {e, uint64_t(t_.n2)}, b2a_, e * t_.n2 * 4);
    }
    out("expert_tokens.npy", "<i8", {e}, eta_, e * 8);
    out("y.npy", dt, {m, uint64_t(t_.n2)}, ya_, m * t_.n2 * 2);
  }

  std::string check(Simulation& sim, bool payload) override {
    if (!payload) return "";
    if (t_.quant) {
      const ffn_op::QuantGoldenInputs qin{xq_.data(),
                                          q1_.data(),
                                          q2_.data(),
                                          t_.bias ? bq1_.data() : nullptr,
                                          t_.bias ? bq2_.data() : nullptr,
                                          deq1_.data(),
                                          deq2_.data(),
                                          qscale_.data(),
                                          qoffset_.data(),
                                          &tokens_};
      return compare(sim, ffn_op::quant_golden(t_, qin));
    }
    ffn_op::GoldenInputs in{x_.data(),
                            w1_.data(),
                            w2_.data(),
                            t_.bias ? b1_.data() : nullptr,
                            t_.bias ? b2_.data() : nullptr,
                            &tokens_};
    return compare(sim, ffn_op::golden(t_, bf16_, in));
  }
  std::string compare(Simulation& sim, const std::vector<uint16_t>& want) const {
    const std::vector<uint16_t> got = common::read_vec<uint16_t>(sim, ya_, want.size());
    for (size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i]) {
        const int64_t row = static_cast<int64_t>(i) / t_.n2;
        int64_t e = 0, first = 0;
        while (first + tokens_[static_cast<size_t>(e)] <= row)
          first += tokens_[static_cast<size_t>(e++)];
        return "y[" + std::to_string(row) + ", " + std::to_string(i % t_.n2) + "] (expert " +
               std::to_string(e) + ") = 0x" + hex(got[i]) + ", golden 0x" + hex(want[i]);
      }
    return "";
  }
  std::string checked(bool payload) const override {
    if (!payload) return "not checked (timing-only run: sim.payload = 0 moves no hidden states)";
    return "y matches the golden reference bit for bit (" + std::to_string(t_.tokens) + " x " +
           std::to_string(t_.n2) + " " + (bf16_ ? "bf16" : "fp16") + ")";
  }

 private:
  static int32_t round_of(const std::string& s) {
    using AscendC::RoundMode;
    const RoundMode m = s == "round"   ? RoundMode::CAST_ROUND
                        : s == "floor" ? RoundMode::CAST_FLOOR
                        : s == "ceil"  ? RoundMode::CAST_CEIL
                        : s == "trunc" ? RoundMode::CAST_TRUNC
                                       : RoundMode::CAST_RINT;
    return static_cast<int32_t>(m);
  }

  // The quant template's tensors: what --dump writes and --input reads (file, dtype, shape), and
  // where they are in GM.
  struct QuantTensor {
    const char* file;
    std::string dtype;
    std::vector<uint64_t> shape;
    uint64_t addr, bytes;
  };
  std::vector<QuantTensor> quant_tensors() const {
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    const uint64_t k1 = uint64_t(t_.k1), n1 = uint64_t(t_.n1), k2 = uint64_t(t_.k2),
                   n2 = uint64_t(t_.n2);
    const bool fp32 = t_.deq_fp32 != 0;
    const uint64_t ds = t_.quant_bf16 ? 2 : fp32 ? 4 : 8;
    const std::string deq_dt = t_.quant_bf16 ? "<u2" : fp32 ? "<f4" : "<u8";
    std::vector<QuantTensor> v = {
        {"x.npy", "|i1", {m, k1}, xa_, m * k1},
        {"weight1.npy", "|i1", {e, k1, n1}, w1a_, e * k1 * n1},
        {"weight2.npy", "|i1", {e, k2, n2}, w2a_, e * k2 * n2},
        {"deq_scale1.npy", deq_dt, {e, n1}, d_.deq_scale1, e * n1 * ds},
        {"deq_scale2.npy", deq_dt, {e, n2}, d_.deq_scale2, e * n2 * ds},
        {"scale.npy", "<f4",
         t_.quant_per_channel ? std::vector<uint64_t>{e, k2} : std::vector<uint64_t>{e}, d_.scale,
         (t_.quant_per_channel ? e * k2 : e) * 4},
        {"offset.npy", "<f4", {e}, d_.offset, e * 4},
        {"expert_tokens.npy", "<i8", {e}, eta_, e * 8},
        {"y.npy", t_.quant_bf16 ? "<u2" : "<f2", {m, n2}, ya_, m * n2 * 2}};
    if (t_.bias) {
      v.push_back({"bias1.npy", "<i4", {e, n1}, b1a_, e * n1 * 4});
      v.push_back({"bias2.npy", "<i4", {e, n2}, b2a_, e * n2 * 4});
    }
    return v;
  }

  // Quant: int8 x and weights (uniform over [-127, 127]), dequant scales that bring mm1's and
  // mm2's sums near 1 (a product of two such int8 has a standard deviation of about 5376), a
  // requant scale of 25-35 and a small integer offset, int32 biases of about half a sum's spread.
  void make_quant_inputs() {
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    auto seed = [&](uint32_t salt) { return common::input_seed(p_, 0, 0, salt); };
    auto ints = [](std::vector<int8_t>& v, uint64_t n, uint32_t sd) {
      std::mt19937 rng(sd);
      std::uniform_int_distribution<int> d(-127, 127);
      v.resize(n);
      for (int8_t& x : v) x = static_cast<int8_t>(d(rng));
    };
    ints(xq_, m * t_.k1, seed(0));
    ints(q1_, e * t_.k1 * t_.n1, seed(4));
    ints(q2_, e * t_.k2 * t_.n2, seed(5));
    std::mt19937 rng(seed(6));
    std::uniform_real_distribution<double> r(0.5, 1.5), sc(25, 35);
    std::uniform_int_distribution<int> od(-3, 3);
    auto scales = [&](std::vector<float>& v, uint64_t n, double spread) {
      v.resize(n);
      for (float& x : v) x = static_cast<float>(r(rng) / spread);
    };
    scales(deq1_, e * t_.n1, 5376.0 * std::sqrt(double(t_.k1)));
    scales(deq2_, e * t_.n2, 30.0 * 73.3 * std::sqrt(double(t_.k2)));
    if (t_.quant_bf16)  // bf16 scales: their values
      for (std::vector<float>* v : {&deq1_, &deq2_})
        for (float& x : *v)
          x = AscendC::to_float(
              AscendC::cast_to<AscendC::bfloat16_t>(x, AscendC::RoundMode::CAST_RINT));
    qscale_.resize(t_.quant_per_channel ? e * t_.k2 : e);
    for (float& x : qscale_) x = static_cast<float>(sc(rng));
    qoffset_.resize(e);
    for (float& x : qoffset_) x = static_cast<float>(od(rng));
    if (t_.bias) {
      auto bias = [&](std::vector<int32_t>& v, uint64_t n, double spread) {
        std::uniform_int_distribution<int32_t> b(-static_cast<int32_t>(spread / 2),
                                                 static_cast<int32_t>(spread / 2));
        v.resize(n);
        for (int32_t& x : v) x = b(rng);
      };
      bias(bq1_, e * t_.n1, 5376.0 * std::sqrt(double(t_.k1)));
      bias(bq2_, e * t_.n2, 30.0 * 73.3 * std::sqrt(double(t_.k2)));
    }
  }

  // The quant template's tensors from --input: every one must be there with its dtype and shape.
  void read_quant_inputs(const std::string& dir) {
    auto bytes = [&](const QuantTensor& q) {
      npy::Array a = npy::read_expect(dir + "/" + q.file, q.dtype, q.shape);
      return a.bytes;
    };
    auto into = [&](auto& v, const QuantTensor& q) {
      const std::vector<uint8_t> b = bytes(q);
      v.resize(b.size() / sizeof(v[0]));
      std::memcpy(v.data(), b.data(), b.size());
    };
    for (const QuantTensor& q : quant_tensors()) {
      const std::string f = q.file;
      if (f == "x.npy") into(xq_, q);
      if (f == "weight1.npy") into(q1_, q);
      if (f == "weight2.npy") into(q2_, q);
      if (f == "bias1.npy") into(bq1_, q);
      if (f == "bias2.npy") into(bq2_, q);
      if (f == "scale.npy") into(qscale_, q);
      if (f == "offset.npy") into(qoffset_, q);
      if (f == "expert_tokens.npy") {
        std::vector<int64_t> counts;
        into(counts, q);
        if (counts != tokens_)
          throw SimError(kExitBadInput, dir +
                                            "/expert_tokens.npy differs from "
                                            "ffn_op.expert_tokens (give the same counts with "
                                            "--expert-tokens)");
      }
      if (f == "deq_scale1.npy" || f == "deq_scale2.npy") {
        std::vector<float>& v = f == "deq_scale1.npy" ? deq1_ : deq2_;
        if (t_.quant_bf16) {
          std::vector<uint16_t> b;
          into(b, q);
          v.resize(b.size());
          for (size_t i = 0; i < b.size(); ++i)
            v[i] = AscendC::to_float(AscendC::bfloat16_t::from_bits(b[i]));
        } else if (t_.deq_fp32) {
          into(v, q);
        } else {  // the FIXPIPE reads the low 32 bits as the fp32 scale
          std::vector<uint64_t> u;
          into(u, q);
          v.resize(u.size());
          for (size_t i = 0; i < u.size(); ++i) {
            const uint32_t low = static_cast<uint32_t>(u[i]);
            std::memcpy(&v[i], &low, 4);
          }
        }
      }
    }
  }

  void place_quant(Simulation& sim) {
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    payload_ = p_.integer("sim.payload") != 0;
    const std::string in = p_.text("run.input_dir");
    const uint64_t ds = t_.quant_bf16 ? 2 : t_.deq_fp32 ? 4 : 8;
    xa_ = sim.alloc(0, "ffn.x_int8", m * t_.k1);
    w1a_ = sim.alloc(0, "ffn.weight1_int8", e * t_.k1 * t_.n1);
    w2a_ = sim.alloc(0, "ffn.weight2_int8", e * t_.k2 * t_.n2);
    if (t_.bias) {
      b1a_ = sim.alloc(0, "ffn.bias1_int32", e * t_.n1 * 4);
      b2a_ = sim.alloc(0, "ffn.bias2_int32", e * t_.n2 * 4);
    }
    d_.deq_scale1 = sim.alloc(0, "ffn.deq_scale1", e * t_.n1 * ds);
    d_.deq_scale2 = sim.alloc(0, "ffn.deq_scale2", e * t_.n2 * ds);
    d_.scale = sim.alloc(0, "ffn.scale", (t_.quant_per_channel ? e * t_.k2 : e) * 4);
    d_.offset = sim.alloc(0, "ffn.offset", e * 4);
    if (t_.deq_fp32) deq_wsa_ = sim.alloc(0, "ffn.deq_scale_uint64", ffn_op::deq_ws_bytes(t_));
    if (t_.quant_bf16) ws3a_ = sim.alloc(0, "ffn.workspace3_int32", ffn_op::ws3_bytes(t_));
    eta_ = sim.alloc(0, "ffn.expert_tokens", e * 8);
    ya_ = sim.alloc(0, "ffn.y", m * t_.n2 * 2);
    ws1a_ = sim.alloc(0, "ffn.workspace1", ffn_op::ws1_bytes(t_));
    ws2a_ = sim.alloc(0, "ffn.workspace2", ffn_op::ws2_bytes(t_));
    sim.write(eta_, tokens_.data(), e * 8);
    if (!in.empty()) {
      read_quant_inputs(in);
    } else if (payload_) {
      make_quant_inputs();
    }
    if (xq_.empty()) return;
    sim.write(xa_, xq_.data(), xq_.size());
    sim.write(w1a_, q1_.data(), q1_.size());
    sim.write(w2a_, q2_.data(), q2_.size());
    if (t_.bias) {
      sim.write(b1a_, bq1_.data(), bq1_.size() * 4);
      sim.write(b2a_, bq2_.data(), bq2_.size() * 4);
    }
    auto deq = [&](uint64_t addr, const std::vector<float>& v) {
      if (t_.deq_fp32) return sim.write(addr, v.data(), v.size() * 4);
      if (t_.quant_bf16) {
        std::vector<uint16_t> b(v.size());
        for (size_t i = 0; i < v.size(); ++i)
          b[i] = AscendC::cast_to<AscendC::bfloat16_t>(v[i], AscendC::RoundMode::CAST_RINT).bits;
        return sim.write(addr, b.data(), b.size() * 2);
      }
      std::vector<uint64_t> u(v.size());  // the fp32 scale in the low 32 bits
      for (size_t i = 0; i < v.size(); ++i) {
        uint32_t bits;
        std::memcpy(&bits, &v[i], 4);
        u[i] = bits;
      }
      sim.write(addr, u.data(), u.size() * 8);
    };
    deq(d_.deq_scale1, deq1_);
    deq(d_.deq_scale2, deq2_);
    sim.write(d_.scale, qscale_.data(), qscale_.size() * 4);
    sim.write(d_.offset, qoffset_.data(), qoffset_.size() * 4);
  }
  static std::string hex(uint16_t v) {
    char b[8];
    std::snprintf(b, sizeof b, "%04x", v);
    return b;
  }
  // int8 weights [E, K, N], per-channel scales (about 1 / (127 sqrt(K))) and small integer
  // offsets, and the weights the AIVs' cast gives (for the golden).
  void make_antiquant(std::vector<int8_t>& q, std::vector<uint16_t>& channels, int64_t k, int64_t n,
                      std::vector<uint16_t>& w, uint32_t seed) const {
    const uint64_t e = static_cast<uint64_t>(t_.experts);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> qd(-127, 127), od(-3, 3);
    std::uniform_real_distribution<double> sd(0.5, 1.5);
    q.resize(e * k * n);
    for (int8_t& v : q) v = static_cast<int8_t>(qd(rng));
    channels.resize(2 * e * n);
    auto bits = [&](double v) {
      return bf16_ ? AscendC::cast_to<AscendC::bfloat16_t>(v, AscendC::RoundMode::CAST_RINT).bits
                   : AscendC::cast_to<AscendC::half>(v, AscendC::RoundMode::CAST_RINT).bits;
    };
    for (uint64_t i = 0; i < e * n; ++i) {
      channels[i] = bits(sd(rng) / (127.0 * std::sqrt(double(k))));
      channels[e * n + i] = bits(od(rng));
    }
    w.resize(q.size());
    for (uint64_t ex = 0; ex < e; ++ex)
      for (int64_t r = 0; r < k; ++r)
        for (int64_t c = 0; c < n; ++c) {
          const uint64_t i = (ex * k + r) * n + c, ch = ex * n + c;
          w[i] = ffn_op::antiquant_weight(q[i], channels[ch], channels[e * n + ch], bf16_);
        }
  }

  void read_inputs(const std::string& dir) {
    const std::string dt = bf16_ ? "<u2" : "<f2";
    const uint64_t m = static_cast<uint64_t>(t_.tokens), e = static_cast<uint64_t>(t_.experts);
    auto u16 = [&](const char* name, std::vector<uint64_t> shape) {
      npy::Array a = npy::read_expect(dir + "/" + name, dt, shape);
      std::vector<uint16_t> v(a.elements());
      std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
      return v;
    };
    npy::Array et = npy::read_expect(dir + "/expert_tokens.npy", "<i8", {e});
    std::vector<int64_t> counts(e);
    std::memcpy(counts.data(), et.bytes.data(), et.bytes.size());
    if (counts != tokens_)
      throw SimError(kExitBadInput, dir +
                                        "/expert_tokens.npy differs from ffn_op.expert_tokens "
                                        "(give the same counts with --expert-tokens)");
    x_ = u16("x.npy", {m, uint64_t(t_.k1)});
    w1_ = u16("weight1.npy", {e, uint64_t(t_.k1), uint64_t(t_.n1)});
    w2_ = u16("weight2.npy", {e, uint64_t(t_.k2), uint64_t(t_.n2)});
    if (t_.bias) {
      auto f32 = [&](const char* name, uint64_t n) {
        npy::Array a = npy::read_expect(dir + "/" + name, "<f4", {e, n});
        std::vector<float> v(a.elements());
        std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
        return v;
      };
      b1_ = f32("bias1.npy", uint64_t(t_.n1));
      b2_ = f32("bias2.npy", uint64_t(t_.n2));
    }
  }

  const Params& p_;
  ffn_op::Tiling t_;
  std::vector<int64_t> tokens_;
  bool bf16_ = false, payload_ = true;
  std::vector<uint16_t> x_, w1_, w2_;
  std::vector<float> b1_, b2_;
  // Pseudo-quant: the int8 weights, [scales | offsets] per matrix, and their GM. Quant: the int8
  // weights too, and x, the int32 biases, the dequant scales (their fp32 values), the requant
  // scale and offset.
  std::vector<int8_t> q1_, q2_, xq_;
  std::vector<int32_t> bq1_, bq2_;
  std::vector<float> deq1_, deq2_, qscale_, qoffset_;
  std::vector<uint16_t> c1_, c2_;
  ffn_op::Device d_;
  uint64_t xa_ = 0, w1a_ = 0, w2a_ = 0, b1a_ = 0, b2a_ = 0, eta_ = 0, ya_ = 0, ws1a_ = 0, ws2a_ = 0,
           deq_wsa_ = 0, ws3a_ = 0;
  KernelRecord* rec_ = nullptr;
};

std::unique_ptr<KernelRun> plan(const Params& p, int) {
  return std::make_unique<FfnRun>(p);
}

}  // namespace

ASCEND_SIM_KERNEL(ffn_op_kernel_def, 60);

KernelDef ffn_op_kernel_def() {
  KernelDef k{"ffn",
              "the FFN fused operator ([FFN-NOTE]): mm1 on the AICs -> activation on the AIVs -> "
              "mm2, over the local experts of one die",
              declare, dies, plan};
  k.cube = [](const Params&) { return true; };
  k.workload = "ffn_op";
  k.shorthands = {
      {"experts", "ffn_op.experts", "local experts E"},
      {"expert-tokens", "ffn_op.expert_tokens",
       "tokens per expert, e.g. 16,0,40 (overrides --tokens)"},
      {"tokens", "ffn_op.tokens", "tokens M, spread evenly over the experts"},
      {"hidden", "ffn_op.hidden", "hidden size K1 = N2"},
      {"intermediate", "ffn_op.intermediate", "intermediate size N1"},
      {"dtype", "ffn_op.dtype", "fp16 | bf16"},
      {"inner-precise", "ffn_op.inner_precise", "0 high precision | 1 high performance (fp16)"},
      {"activation", "ffn_op.activation", "relu | gelu | fastgelu | silu | swiglu"},
      {"bias", "ffn_op.bias", "1: bias1 and bias2"},
      {"split", "ffn_op.split", "plain | expert_parallel | mixed"},
      seed_flag()};
  k.inputs = true;
  // x, weight1, weight2, the biases, expert_tokens and y.
  k.dump_bytes = [](const Params& p, int) {
    const FfnOpAttrs a = read_fields(p, attr_fields());
    const uint64_t e = static_cast<uint64_t>(a.experts), k1 = static_cast<uint64_t>(a.hidden),
                   n1 = static_cast<uint64_t>(a.intermediate), m = static_cast<uint64_t>(a.tokens);
    return m * k1 * 4 + e * k1 * n1 * 4 + e * (n1 + k1) * 4 + e * 8;
  };
  return k;
}

}  // namespace ascend
