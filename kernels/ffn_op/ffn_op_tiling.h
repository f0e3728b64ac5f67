// The FFN fused operator's host tiling ([FFN-NOTE] section 3) and the schedule its device code
// derives from expert_tokens: the core split over m/n, expert parallelism and the mixed strategy
// with the token cache, and the UB split of section 3.2. Pure functions, used by the kernel on
// the device and by the host and the tests alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/matmul.h"

namespace ascend::ffn_op {

enum class Activation : int32_t { Relu, Gelu, FastGelu, Silu, Swiglu, Geglu, Reglu };
// The GLU activations (the operator's GLU template): mm1's N1 columns are two halves, and
// out = left x act(right) by the Ascend C API of the same name (SwiGLU, GeGLU, ReGlu).
constexpr bool is_glu(Activation a) {
  return a == Activation::Swiglu || a == Activation::Geglu || a == Activation::Reglu;
}
// How mm1's cores are shared when one expert cannot fill them ([FFN-NOTE] section 3.1):
// plain: every expert alone; expert_parallel: consecutive experts P at a time, each on cores / P;
// mixed: experts with more than baseM tokens alone, the others through the token cache.
enum class Split : int32_t { Plain, ExpertParallel, Mixed };

const char* activation_name(Activation a);
const char* split_name(Split s);

// What the device code is handed (a POD, as a tiling struct is).
struct Tiling {
  int32_t experts = 0;
  int64_t tokens = 0;      // M = sum of expert_tokens
  int32_t k1 = 0, n1 = 0;  // mm1: [m, K1] x [K1, N1]
  int32_t k2 = 0, n2 = 0;  // mm2: [m, K2] x [K2, N2]; K2 = N1 (N1 / 2 for swiglu), N2 = K1
  int32_t cores = 0;       // AICs launched (each with 2 AIVs)
  Activation activation = Activation::Relu;
  int32_t high_performance = 1;  // 1: fp16 throughout; 0: mm1 in fp32, activation fp32, Cast
  int32_t bias = 0;
  Split split = Split::Mixed;
  int32_t parallelism = 2;     // experts computed together (expert_parallel, mixed)
  int32_t min_single_n = 256;  // plain split's singleN unit
  AscendC::TCubeTiling mm1, mm2;
  // The vector tiling: tiles of vec_base_m x vec_base_n elements of the activation.
  int32_t vec_base_m = 0, vec_base_n = 256;
  uint32_t ub_calc_elems = 0;  // ubCalcSize: elements per buffer share
  int32_t buffer_num = 1;
  // Pseudo-quant (antiquant, [FFN-NOTE] 2.3 and 4.2): int8 weights cast on the AIVs to the x dtype,
  // W = (W8 + offset) * scale per output channel, into weight workspaces the Matmuls read.
  int32_t antiquant = 0;
  int32_t overlap = 1;       // CastWeight2 beside mm1, the next CastWeight1 beside mm2
  int32_t max_jobs = 1;      // weight workspace slots (experts side by side in a round)
  int32_t cast_cols = 2048;  // a cast tile: cast_rows x up to cast_cols elements
  int32_t cast_rows = 4;
  // Quant ([FFN-NOTE] 2.2, tiling keys 1/13/14): int8 x and weights, int32 accumulation and int32
  // bias, mm1 dequantized to fp16 on the FIXPIPE by deq_scale1 (VDEQF16, per channel), the
  // activation in fp16, requantized to int8 on the AIVs (x * scale + offset, Cast with
  // quant_round), mm2 int8, dequantized to fp16 y by deq_scale2.
  int32_t quant = 0;
  int32_t quant_per_channel = 0;  // scale [E, K2] (key 14), else per tensor [E]
  int32_t deq_fp32 = 1;           // deq_scale given as fp32: converted to uint64 on the AIVs (13)
  int32_t quant_round = 1;        // AscendC::RoundMode of the int8 Cast (CAST_RINT)
  int32_t deq_tile = 1024;        // scales per AIV tile of the fp32 -> uint64 conversion
  // bf16 y (key 11): deq_scale1/2 in bf16; mm1 and mm2 write int32, which the AIVs dequantize
  // (fp32, times the scale) before the activation and into y; the activation and the requant run
  // in fp32.
  int32_t quant_bf16 = 0;
};

// One core split of an m x n matmul over `cores` AICs from `first`: n first in units of
// `n_unit`, then m over the cores left (singleM a multiple of 16).
struct CoreSplit {
  int32_t first = 0, cores = 0;
  int32_t n_loops = 1, m_loops = 1, single_m = 0, single_n = 0;
  int32_t used() const { return n_loops * m_loops; }
};
CoreSplit split_mn(int64_t m, int64_t n, int32_t first, int32_t cores, int32_t n_unit);

struct Mm1Job {
  int32_t expert = 0;
  int64_t token0 = 0;  // the expert's first row of x
  int64_t m = 0;
  CoreSplit split;
};
// One round: mm1 of its experts side by side, the activation, then mm2 of each expert in turn
// on every core.
struct Round {
  std::vector<Mm1Job> jobs;
};
std::vector<Round> schedule(const std::vector<int64_t>& expert_tokens, const Tiling& t);

// The UB split of [FFN-NOTE] section 3.2: shares of ubCalcSize bytes per element handled.
struct UbShares {
  const char* scenario;
  int32_t in, out, buffer_num, temp, api_temp, scale;
  int32_t divide_blk() const { return (in + out) * buffer_num + temp + api_temp + scale; }
};
const std::vector<UbShares>& ub_share_table();
const UbShares& ub_shares(bool high_performance, Activation a, bool quant = false,
                          bool bf16 = false);
// ubCalcSize (elements) for a UB of `ub_bytes`: UB / divideBlk aligned down to 8 KB ([FFN-NOTE]
// 3.2 note 4), then rows of 256 reduced until they divide the cube's baseM (the vector tiles one
// cube block exactly): 0 when not one row fits.
uint32_t ub_calc_elems(uint32_t ub_bytes, const UbShares& s, int32_t cube_base_m);

struct Limits {
  uint32_t l1 = 512 * 1024, l0a = 64 * 1024, l0b = 64 * 1024, l0c = 128 * 1024, bt = 1024;
  uint32_t ub = 192 * 1024;
};
// The host tiling: base 128/64/256 (baseM 16 or 64 for few tokens), K steps within L1, the UB
// split. Throws ascend::SimError(kExitBadInput) naming a limit the shape breaks.
Tiling make_tiling(int32_t experts, const std::vector<int64_t>& expert_tokens, int32_t k1,
                   int32_t n1, int32_t cores, Activation act, bool high_performance, bool bf16,
                   bool bias, Split split, int32_t parallelism, int32_t min_single_n,
                   const Limits& lim, bool antiquant = false, bool overlap = true,
                   bool quant = false, bool quant_per_channel = false, bool deq_fp32 = true,
                   int32_t quant_round = 1);
// The most experts any round of `schedule` puts side by side.
int32_t max_jobs(const std::vector<int64_t>& expert_tokens, const Tiling& t);

}  // namespace ascend::ffn_op
