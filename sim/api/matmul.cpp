#include "sim/api/matmul.h"

namespace AscendC::detail {

void matmul_fault(const std::string& what) {
  fault("Matmul: " + what);
}

}  // namespace AscendC::detail

namespace matmul_tiling {

namespace {
int up16(int v) {
  return (v + 15) / 16 * 16;
}
int down16(int v) {
  return v / 16 * 16;
}
int up_to(int v, int a) {
  return (v + a - 1) / a * a;
}
int down_to(int v, int a) {
  return v / a * a;
}
}  // namespace

// The single-core split of seed 004 section 3.1, as ops-transformer's FFN tiling computes it:
// baseN 256; baseK fills half of L0B (double buffer); baseM the smaller of half of L0A and what
// L0C holds (fp16: 128 / 64 / 256; int8: 128 / 128 / 256, its fractal 32 deep in k), each no
// larger than the shape needs; K chunks of stepK * baseK in L1, double-buffered, with stepK at most
// 4. int8: baseK a multiple of 32 (C0) and baseN of 32 (B's transposing load takes 32 x 32
// squares).
int64_t MatmulApiTiling::GetTiling(AscendC::TCubeTiling& t) {
  error_.clear();
  auto fail = [this](const std::string& why) {
    error_ = why;
    return int64_t{-1};
  };
  if (m_ <= 0 || n_ <= 0 || k_ <= 0) return fail("SetShape with a zero or negative dimension");
  if (trans_a_ || trans_b_) return fail("transposed A or B are not modelled");
  if (a_ != b_ ||
      (a_ != DataType::DT_FLOAT16 && a_ != DataType::DT_BF16 && a_ != DataType::DT_INT8))
    return fail("A and B must both be fp16, both bf16 or both int8");
  const bool int8 = a_ == DataType::DT_INT8;
  if (int8 && c_ != DataType::DT_FLOAT16 && c_ != DataType::DT_INT32)
    return fail("an int8 Matmul writes int32 or fp16 (dequantized) C");
  if (int8 && bias_ && bias_type_ != DataType::DT_INT32)
    return fail("an int8 Matmul's bias is int32");
  const int sa = static_cast<int>(size_of(a_));
  const int c0 = 32 / sa, n_align = int8 ? 32 : 16;
  int base_n = fix_n_ > 0 ? fix_n_ : std::min(256, up_to(n_, n_align));
  int base_k = fix_k_ > 0 ? fix_k_
                          : std::min(up_to(k_, c0),
                                     down_to(static_cast<int>(lim_.l0b / 2) / (base_n * sa), c0));
  if (base_k <= 0) return fail("baseN " + std::to_string(base_n) + " leaves no baseK in L0B");
  int base_m = fix_m_ > 0
                   ? fix_m_
                   : std::min({up16(m_), down16(static_cast<int>(lim_.l0a / 2) / (base_k * sa)),
                               down16(static_cast<int>(lim_.l0c) / (base_n * 4))});
  if (base_m % 16 || base_n % n_align || base_k % c0 || base_m <= 0)
    return fail("baseM must be a positive multiple of 16, baseN of " + std::to_string(n_align) +
                " and baseK of " + std::to_string(c0) + " (" + std::to_string(base_m) + "/" +
                std::to_string(base_n) + "/" + std::to_string(base_k) + ")");
  const int db = 2;
  if (uint64_t(base_m) * base_k * sa * db > lim_.l0a)
    return fail("baseM x baseK x " + std::to_string(sa) +
                " B x 2 (double buffer) = " + std::to_string(base_m * base_k * sa * db) +
                " B exceeds L0A (" + std::to_string(lim_.l0a) + " B)");
  if (uint64_t(base_n) * base_k * sa * db > lim_.l0b)
    return fail("baseK x baseN x " + std::to_string(sa) +
                " B x 2 (double buffer) = " + std::to_string(base_n * base_k * sa * db) +
                " B exceeds L0B (" + std::to_string(lim_.l0b) + " B)");
  if (uint64_t(base_m) * base_n * 4 > lim_.l0c)
    return fail("baseM x baseN x 4 B = " + std::to_string(base_m * base_n * 4) +
                " B exceeds L0C (" + std::to_string(lim_.l0c) + " B)");
  if (bias_ && uint64_t(base_n) * 4 > lim_.bt)
    return fail("baseN x 4 B of bias exceeds the BiasTable (" + std::to_string(lim_.bt) + " B)");
  const uint64_t bias_l1 = bias_ ? uint64_t(base_n) * size_of(bias_type_) : 0;
  const int k_steps = (k_ + base_k - 1) / base_k;
  const uint64_t per_step = 2ull * (base_m + base_n) * base_k * sa;  // A and B, double-buffered
  int step = static_cast<int>(
      std::min<uint64_t>({4, static_cast<uint64_t>(k_steps), (lim_.l1 - bias_l1) / per_step}));
  if (step < 1) return fail("one baseK step of A and B does not fit L1 twice");
  t = AscendC::TCubeTiling{};
  t.usedCoreNum = cores_;
  t.M = org_m_ > 0 ? org_m_ : m_;
  t.N = org_n_ > 0 ? org_n_ : n_;
  t.Ka = t.Kb = org_k_ > 0 ? org_k_ : k_;
  t.singleCoreM = m_;
  t.singleCoreN = n_;
  t.singleCoreK = k_;
  t.baseM = base_m;
  t.baseN = base_n;
  t.baseK = base_k;
  t.stepKa = t.stepKb = step;
  t.depthA1 = t.depthB1 = 2 * step;
  t.isBias = bias_ ? 1 : 0;
  t.iterateOrder = order_;
  t.dbL0A = t.dbL0B = 2;
  t.dbL0C = 1;
  return 0;
}

}  // namespace matmul_tiling
