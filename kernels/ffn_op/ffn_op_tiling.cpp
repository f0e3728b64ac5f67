#include "kernels/ffn_op/ffn_op_tiling.h"

#include <algorithm>

#include "models/errors.h"

namespace ascend::ffn_op {

namespace {
int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}
int64_t round_up(int64_t a, int64_t b) {
  return ceil_div(a, b) * b;
}
[[noreturn]] void bad(const std::string& what) {
  throw SimError(kExitBadInput, "ffn: " + what);
}
}  // namespace

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::Relu:
      return "relu";
    case Activation::Gelu:
      return "gelu";
    case Activation::FastGelu:
      return "fastgelu";
    case Activation::Silu:
      return "silu";
    case Activation::Swiglu:
      return "swiglu";
    case Activation::Geglu:
      return "geglu";
    case Activation::Reglu:
      return "reglu";
  }
  return "?";
}

const char* split_name(Split s) {
  switch (s) {
    case Split::Plain:
      return "plain";
    case Split::ExpertParallel:
      return "expert_parallel";
    case Split::Mixed:
      return "mixed";
  }
  return "?";
}

// ops-transformer's device KernelTiling: N first (nLoops = min(n / unit, cores), singleN a
// multiple of the unit), then M over the cores left, singleM a multiple of 16.
CoreSplit split_mn(int64_t m, int64_t n, int32_t first, int32_t cores, int32_t n_unit) {
  CoreSplit s;
  s.first = first;
  s.cores = std::max(1, cores);
  s.n_loops = static_cast<int32_t>(std::min<int64_t>(ceil_div(n, n_unit), s.cores));
  s.single_n = static_cast<int32_t>(round_up(ceil_div(n, s.n_loops), n_unit));
  s.n_loops = static_cast<int32_t>(ceil_div(n, s.single_n));
  const int32_t m_cores = std::max(1, s.cores / s.n_loops);
  s.m_loops =
      static_cast<int32_t>(std::min<int64_t>(ceil_div(std::max<int64_t>(m, 1), 16), m_cores));
  s.single_m = static_cast<int32_t>(round_up(ceil_div(std::max<int64_t>(m, 1), s.m_loops), 16));
  s.m_loops = static_cast<int32_t>(ceil_div(std::max<int64_t>(m, 1), s.single_m));
  return s;
}

std::vector<Round> schedule(const std::vector<int64_t>& expert_tokens, const Tiling& t) {
  std::vector<int64_t> first(expert_tokens.size() + 1, 0);
  for (size_t e = 0; e < expert_tokens.size(); ++e) first[e + 1] = first[e] + expert_tokens[e];
  std::vector<Round> rounds;
  // Experts side by side, each on an equal share of the cores.
  auto together = [&](const std::vector<int32_t>& experts, int32_t unit) {
    Round r;
    const int32_t g = static_cast<int32_t>(experts.size());
    const int32_t per = std::max(1, t.cores / g);
    for (int32_t i = 0; i < g; ++i) {
      const int32_t e = experts[static_cast<size_t>(i)];
      r.jobs.push_back({e, first[static_cast<size_t>(e)], expert_tokens[static_cast<size_t>(e)],
                        split_mn(expert_tokens[static_cast<size_t>(e)], t.n1, (i * per) % t.cores,
                                 g == 1 ? t.cores : per, unit)});
    }
    rounds.push_back(std::move(r));
  };
  std::vector<int32_t> cache;
  for (int32_t e = 0; e < static_cast<int32_t>(expert_tokens.size()); ++e) {
    const int64_t m = expert_tokens[static_cast<size_t>(e)];
    if (m == 0) continue;  // an expert without tokens computes nothing
    switch (t.split) {
      case Split::Plain:
        together({e}, t.min_single_n);
        break;
      case Split::ExpertParallel:
        cache.push_back(e);
        if (static_cast<int32_t>(cache.size()) == t.parallelism) {
          together(cache, 256);
          cache.clear();
        }
        break;
      case Split::Mixed:
        if (m > t.mm1.baseM) {
          together({e}, 256);
        } else {
          cache.push_back(e);
          if (static_cast<int32_t>(cache.size()) == t.parallelism) {
            together(cache, 256);
            cache.clear();
          }
        }
        break;
    }
  }
  if (!cache.empty()) {
    if (t.split == Split::ExpertParallel) {
      together(cache, 256);
    } else {  // mixed: what is left in the cache runs alone with singleN 128
      for (int32_t e : cache) together({e}, 128);
    }
  }
  return rounds;
}

const std::vector<UbShares>& ub_share_table() {
  // Seed 004 section 3.2: in, out, double buffer, temp, high-level API temp (, scale).
  static const std::vector<UbShares> table = {
      {"high precision", 4, 2, 1, 4, 8, 0},
      {"high performance", 2, 2, 1, 0, 4, 0},
      {"quant, fp16 output", 2, 1, 1, 2, 4, 0},
      {"quant, bf16 output", 4, 2, 1, 6, 8, 0},
      {"antiquant, fp16", 2, 2, 2, 0, 4, 1},
      {"antiquant, bf16", 4, 2, 2, 4, 6, 1},
      // GLU (the operator's GLU tiling: UB / 7 per fp16 tile): both halves in, the fp16 output,
      // and four tiles of temporary for the GLU API's fp32 work (8 B per element).
      {"glu", 4, 2, 1, 0, 8, 0},
  };
  return table;
}

const UbShares& ub_shares(bool high_performance, Activation a, bool quant, bool bf16) {
  const auto& t = ub_share_table();
  if (quant) return bf16 ? t[3] : t[2];  // quant, bf16 or fp16 output
  if (is_glu(a)) return t[6];
  return high_performance ? t[1] : t[0];
}

uint32_t ub_calc_elems(uint32_t ub_bytes, const UbShares& s, int32_t cube_base_m) {
  const uint32_t share = ub_bytes / static_cast<uint32_t>(s.divide_blk()) / 8192 * 8192;
  uint32_t rows = share / 256;  // one byte of a share per element handled
  while (rows > 0 && cube_base_m % static_cast<int32_t>(rows) != 0) --rows;
  return rows * 256;
}

Tiling make_tiling(int32_t experts, const std::vector<int64_t>& expert_tokens, int32_t k1,
                   int32_t n1, int32_t cores, Activation act, bool high_performance, bool bf16,
                   bool bias, Split split, int32_t parallelism, int32_t min_single_n,
                   const Limits& lim, bool antiquant, bool overlap, bool quant,
                   bool quant_per_channel, bool deq_fp32, int32_t quant_round) {
  if (experts < 1 || experts > 256)
    bad("experts = " + std::to_string(experts) + " outside [1, 256] (expert_tokens' limit)");
  if (static_cast<int32_t>(expert_tokens.size()) != experts)
    bad("expert_tokens has " + std::to_string(expert_tokens.size()) + " entries for " +
        std::to_string(experts) + " experts");
  int64_t m = 0, max_tokens = 0;
  for (int64_t v : expert_tokens) {
    if (v < 0) bad("expert_tokens holds a negative count (" + std::to_string(v) + ")");
    m += v;
    max_tokens = std::max(max_tokens, v);
  }
  if (m == 0) bad("expert_tokens sums to 0: no token to compute");
  if (k1 < 16 || k1 >= 65536 || k1 % 16)
    bad("hidden (K1 = N2) = " + std::to_string(k1) +
        ": the operator needs K1 < 65536; the model needs a multiple of 16");
  const int32_t glu = is_glu(act) ? 2 : 1;
  if (n1 < 16 * glu || n1 >= 65536 || n1 % (16 * glu))
    bad("intermediate (N1) = " + std::to_string(n1) + ": the operator needs K2 = N1" +
        (glu == 2 ? " / 2" : "") + " < 65536; the model needs K2 a multiple of 16");
  if (bf16 && high_performance && !quant)
    bad("bf16 runs the high-precision template only ([FFN-NOTE] section 2.1): inner_precise = 0");
  if (is_glu(act) && (experts != 1 || bf16))
    bad(std::string(activation_name(act)) +
        " supports only one expert (no expert_tokens) and fp16 (the operator's GLU limits)");
  if (act == Activation::Geglu && !high_performance)
    bad("geglu supports only high performance (inner_precise = 1), as the operator");
  if (cores < 1) bad("no AIC to run on (die.aic_count / ffn_op.cores)");
  if (antiquant && (n1 % 32 || k1 % 32 || is_glu(act)))
    bad("antiquant (int8 weights) needs N1 and N2 = K1 multiples of 32 (32-B int8 rows) and no "
        "swiglu");
  if (quant && antiquant) bad("quant and antiquant (pseudo-quant) are two templates: choose one");
  if (quant && is_glu(act))
    bad("quant with " + std::string(activation_name(act)) +
        " is not supported (the operator's GLU runs fp16 without quant only)");
  // The GLU template runs fp16 throughout whatever inner_precise says (swiglu and reglu take
  // both values, as the operator does).
  if (is_glu(act)) high_performance = true;
  if (quant && (n1 % 32 || k1 % 32))
    bad("quant (int8 x and weights) needs N1 and N2 = K1 multiples of 32 (32-B int8 rows and "
        "the int8 cube fractal)");
  if (min_single_n != 128 && min_single_n != 256)
    bad("min_single_n = " + std::to_string(min_single_n) + ": 128 or 256");

  Tiling t;
  t.experts = experts;
  t.tokens = m;
  t.k1 = k1;
  t.n1 = n1;
  t.k2 = n1 / glu;
  t.n2 = k1;
  t.cores = cores;
  t.activation = act;
  t.high_performance = high_performance ? 1 : 0;
  t.bias = bias ? 1 : 0;
  t.split = split;
  t.min_single_n = min_single_n;

  // Cube tiling (section 3.1 and CalMM1TilingBaseMNK): 128/64/256, baseM 16 or 64 for few
  // tokens.
  const int32_t base_m = max_tokens <= 16 ? 16 : max_tokens <= 64 ? 64 : 128;
  auto cube = [&](int32_t k, int32_t n, bool out_fp32) {
    matmul_tiling::MatmulApiTiling mt(
        matmul_tiling::CubeLimits{lim.l1, lim.l0a, lim.l0b, lim.l0c, lim.bt});
    using matmul_tiling::DataType;
    const DataType dt = quant ? DataType::DT_INT8 : bf16 ? DataType::DT_BF16 : DataType::DT_FLOAT16;
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                quant && bf16 ? DataType::DT_INT32  // dequantized on the AIVs
                : quant       ? DataType::DT_FLOAT16
                : out_fp32    ? DataType::DT_FLOAT
                              : dt);
    if (quant)
      mt.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                     DataType::DT_INT32);
    mt.SetShape(static_cast<int>(max_tokens), n, k);
    mt.EnableBias(bias);
    mt.SetFixSplit(base_m, std::min(256, n), -1);
    AscendC::TCubeTiling c;
    if (mt.GetTiling(c) != 0)
      bad("no cube tiling for " + std::to_string(k) + " x " + std::to_string(n) + ": " +
          mt.error());
    return c;
  };
  t.mm1 = cube(k1, n1, !high_performance && !quant);
  t.mm2 = cube(t.k2, t.n2, false);
  const int32_t n_loops1 = split_mn(max_tokens, n1, 0, cores, 256).n_loops;
  t.parallelism = parallelism > 0 ? parallelism : std::max(2, std::min(10, cores / n_loops1));
  if (t.parallelism > cores)
    bad("expert parallelism " + std::to_string(t.parallelism) + " exceeds the " +
        std::to_string(cores) + " AICs");

  // Vector tiling (section 3.2).
  const UbShares& s = ub_shares(high_performance, act, quant, bf16);
  t.ub_calc_elems = ub_calc_elems(lim.ub, s, t.mm1.baseM);
  t.buffer_num = s.buffer_num;
  t.vec_base_n = 256;
  t.vec_base_m = static_cast<int32_t>(t.ub_calc_elems / 256);
  if (t.vec_base_m < 1)
    bad("a UB of " + std::to_string(lim.ub) + " B gives ubCalcSize " +
        std::to_string(t.ub_calc_elems) + " (divideBlk " + std::to_string(s.divide_blk()) +
        "): below one row of 256 elements");
  t.antiquant = antiquant ? 1 : 0;
  t.overlap = overlap ? 1 : 0;
  t.max_jobs = max_jobs(expert_tokens, t);
  // A cast tile of 8192 elements: int8 in, the dtype out, a scale and an offset slice.
  t.cast_cols = std::min<int32_t>(2048, std::max(t.n1, t.n2));
  t.cast_rows = 8192 / t.cast_cols;
  t.quant = quant ? 1 : 0;
  // fp16 y: mm1 to fp16, the activation in fp16; bf16 y: mm1 to int32, the dequant and the
  // activation in fp32 on the AIVs ([FFN-NOTE] 2.2).
  if (quant) t.high_performance = bf16 ? 0 : 1;
  t.quant_bf16 = quant && bf16 ? 1 : 0;
  t.quant_per_channel = quant_per_channel ? 1 : 0;
  t.deq_fp32 = deq_fp32 && !t.quant_bf16 ? 1 : 0;  // bf16 scales are read by the AIVs as given
  t.quant_round = quant_round;
  return t;
}

int32_t max_jobs(const std::vector<int64_t>& expert_tokens, const Tiling& t) {
  size_t most = 1;
  for (const Round& r : schedule(expert_tokens, t)) most = std::max(most, r.jobs.size());
  return static_cast<int32_t>(most);
}

}  // namespace ascend::ffn_op
