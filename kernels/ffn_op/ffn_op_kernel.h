// Device code of the FFN fused operator ([FFN-NOTE]): y = act(x W1[e] + b1[e]) W2[e] + b2[e] over
// the tokens of each local expert, on a mixed launch of AICs with two AIVs each.
//
// Per round of the schedule (ffn_op_tiling.h: one expert, or several side by side):
//   AIC: mm1 of its block (Matmul API) into workspace 1 (fp16, or fp32 for high precision);
//   SyncAll of every AIC and AIV;
//   AIV: the activation of its AIC's mm1 block, tile by tile through UB (high precision:
//        in fp32, then Cast), into workspace 2;
//   SyncAll;
//   AIC: mm2 of each of the round's experts in turn, split over every AIC, into y.
// Each kind runs its own code (Ascend C's MixDualMaster style): the default mix mode, where an
// AIV drives the AIC's Matmul through messages, is not modelled. The workspaces are indexed by
// token, so that consecutive rounds never reuse a row another core may still read.
#pragma once

#include <algorithm>
#include <vector>

#include "api/kernel_operator.h"
#include "kernels/ffn_op/ffn_op_tiling.h"

namespace ascend::kernels {

using namespace AscendC;

// The FFN's AICs run their own Matmul calls, beside the AIVs' own code (Ascend C's MixDualMaster):
// no AIV drives them.
inline constexpr MatmulConfig kFfnMatmulConfig =
    GetNormalConfig(false, false, false, BatchMode::BATCH_LESS_THAN_L1, true, IterateOrder::UNDEF,
                    ScheduleType::INNER_PRODUCT, true, /*enableMixDualMaster=*/true);

// The activation of `count` elements of x into dst, built from vector primitives in C (the
// golden reference applies the same operations in the same order). t is a temporary of count.
template <class C>
__aicore__ inline void Activate(ffn_op::Activation a, const LocalTensor<C>& dst,
                                const LocalTensor<C>& x, const LocalTensor<C>& t, uint32_t count) {
  const C one = cast_to<C>(1.0, RoundMode::CAST_RINT);
  switch (a) {
    case ffn_op::Activation::Relu:
      Relu(dst, x, count);
      return;
    case ffn_op::Activation::Gelu:  // x / (1 + exp(-sqrt(8/pi) (x + 0.044715 x^3)))
      Mul(t, x, x, count);
      Mul(t, t, x, count);
      Muls(t, t, cast_to<C>(0.044715, RoundMode::CAST_RINT), count);
      Add(t, t, x, count);
      Muls(t, t, cast_to<C>(-1.5957691216057308, RoundMode::CAST_RINT), count);
      break;
    case ffn_op::Activation::FastGelu:  // x / (1 + exp(-1.702 x))
      Muls(t, x, cast_to<C>(-1.702, RoundMode::CAST_RINT), count);
      break;
    case ffn_op::Activation::Silu:  // x / (1 + exp(-x))
      Muls(t, x, cast_to<C>(-1.0, RoundMode::CAST_RINT), count);
      break;
    case ffn_op::Activation::Swiglu:  // the GLU ones go through Glu()
    case ffn_op::Activation::Geglu:
    case ffn_op::Activation::Reglu:
      return;
  }
  Exp(t, t, count);
  Adds(t, t, one, count);
  Div(dst, x, t, count);
}

// The GLU template's activation: dst = left x act(right) by the Ascend C API, its fp32 work in
// `tmp`.
template <class C>
__aicore__ inline void Glu(ffn_op::Activation a, const LocalTensor<C>& dst,
                           const LocalTensor<C>& left, const LocalTensor<C>& right,
                           const LocalTensor<uint8_t>& tmp, uint32_t count) {
  if (a == ffn_op::Activation::Geglu)
    GeGLU(dst, left, right, tmp, count);
  else if (a == ffn_op::Activation::Reglu)
    ReGlu(dst, left, right, tmp, count);
  else
    SwiGLU(dst, left, right, 1.0f, tmp, count);  // beta 1, as the operator
}

// This AIC's block of an m x n split: its first row and column and its size (0 when idle).
struct FfnBlock {
  int64_t m0 = 0, rows = 0, n0 = 0, cols = 0;
};
inline FfnBlock FfnBlockOf(const ffn_op::CoreSplit& s, int64_t m, int64_t n, int64_t aic) {
  FfnBlock b;
  const int64_t local = aic - s.first;
  if (local < 0 || local >= s.used()) return b;
  b.m0 = local / s.n_loops * s.single_m;
  b.n0 = local % s.n_loops * s.single_n;
  b.rows = std::max<int64_t>(0, std::min<int64_t>(s.single_m, m - b.m0));
  b.cols = std::max<int64_t>(0, std::min<int64_t>(s.single_n, n - b.n0));
  if (b.cols == 0) b.rows = 0;
  return b;
}
// The AIC a core belongs to (itself, or an AIV's AIC).
inline int64_t FfnAic() {
  return ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetTaskRation();
}
// GM written by this AIV's MTE3 before a barrier (the operator's MTE3 -> S flag).
inline void FfnWritten() {
  const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::MTE3_S);
  SetFlag<HardEvent::MTE3_S>(id);
  WaitFlag<HardEvent::MTE3_S>(id);
}

// A rows x cols tile through its output queue (MTE3 after the vector pipe) into `gm` at
// `offset`, whose rows are `pitch` elements apart.
template <class Queue, class T>
__aicore__ inline void FfnStoreTile(Queue& queue, LocalTensor<T> tile, const GlobalTensor<T>& gm,
                                    uint64_t offset, int64_t rows, int64_t cols, int64_t pitch) {
  queue.EnQue(tile);
  tile = queue.template DeQue<T>();
  DataCopyParams p;
  p.blockCount = static_cast<uint16_t>(rows);
  p.blockLen = static_cast<uint16_t>(cols * static_cast<int64_t>(sizeof(T)) / 32);
  p.dstStride = static_cast<uint16_t>((pitch - cols) * static_cast<int64_t>(sizeof(T)) / 32);
  DataCopy(gm[offset], tile, p);
  queue.FreeTensor(tile);
}
// mm2's block of one expert on this AIC: N2 split over the AICs, 256 columns at a time.
inline FfnBlock FfnMm2Block(const ffn_op::Mm1Job& j, int64_t n2, int cores) {
  return FfnBlockOf(ffn_op::split_mn(j.m, n2, 0, cores, 256), j.m, n2, FfnAic());
}
// One expert's matmul on this AIC: its block `b` of C = A x B (+ bias), `k` deep, with A and C
// rows of the grouped tokens (the expert's first at `token0`), and B and the bias already at the
// expert. `extra(mm)` sets what a template adds before the IterateAll (the dequant scales).
template <class MM, class TA, class TB, class TBias, class TC, class Extra>
__aicore__ inline void FfnExpertMatmul(MM& mm, const FfnBlock& b, int64_t token0, int64_t tokens,
                                       int64_t n, int64_t k, const GlobalTensor<TA>& a,
                                       const GlobalTensor<TB>& w, const GlobalTensor<TBias>* bias,
                                       const GlobalTensor<TC>& c, Extra extra) {
  if (b.rows == 0) return;
  const uint64_t row = static_cast<uint64_t>(token0 + b.m0), n0 = static_cast<uint64_t>(b.n0);
  mm.SetOrgShape(static_cast<int>(tokens), static_cast<int>(n), static_cast<int>(k));
  mm.SetSingleShape(static_cast<int>(b.rows), static_cast<int>(b.cols), static_cast<int>(k));
  mm.SetTensorA(a[row * static_cast<uint64_t>(k)]);
  mm.SetTensorB(w[n0]);
  if (bias) mm.SetBias((*bias)[n0]);
  extra(mm, n0);
  mm.IterateAll(c[row * static_cast<uint64_t>(n) + n0]);
  mm.End();
}

// In: x, weights and y (half or bfloat16_t). Mid: mm1's output (half for high performance,
// float for high precision).
template <class In, class Mid>
class KernelFfn {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2,
                       GM_ADDR expert_tokens, GM_ADDR y, GM_ADDR ws1, GM_ADDR ws2,
                       const ffn_op::Tiling& t, TPipe* pipe) {
    t_ = t;
    const uint64_t m = static_cast<uint64_t>(t.tokens), e = static_cast<uint64_t>(t.experts);
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(x), m * t.k1);
    if (w1) w1_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(w1), e * t.k1 * t.n1);
    if (w2) w2_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(w2), e * t.k2 * t.n2);
    if (t.bias) {
      b1_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b1), e * t.n1);
      b2_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b2), e * t.n2);
    }
    tokens_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(expert_tokens), e);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(y), m * t.n2);
    ws1_.SetGlobalBuffer(reinterpret_cast<__gm__ Mid*>(ws1), m * t.n1);
    ws2_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(ws2), m * t.k2);
    w1_base_ = w1_;
    w2_base_ = w2_;
    if (ASCEND_IS_AIC) {
      REGIST_MATMUL_OBJ(pipe, nullptr, mm1_, &t_.mm1, mm2_, &t_.mm2);
    } else {  // the UB split of [FFN-NOTE] section 3.2, in shares of ubCalcSize
      const ffn_op::UbShares& s = ffn_op::ub_shares(t.high_performance, t.activation);
      const uint32_t calc = t.ub_calc_elems;
      pipe->InitBuffer(in_, static_cast<uint8_t>(s.buffer_num), s.in * calc);
      pipe->InitBuffer(out_, static_cast<uint8_t>(s.buffer_num), s.out * calc);
      if (s.temp) pipe->InitBuffer(temp_, s.temp * calc);
      if (s.api_temp) pipe->InitBuffer(api_, s.api_temp * calc);
    }
  }

  // Pseudo-quant: int8 weights with per-channel scale and offset (in the x dtype), cast on the
  // AIVs into the weight workspaces (max_jobs slots of [K, N] each) that the Matmuls read.
  __aicore__ void InitAntiquant(GM_ADDR w1q, GM_ADDR scale1, GM_ADDR offset1, GM_ADDR w2q,
                                GM_ADDR scale2, GM_ADDR offset2, GM_ADDR ww1, GM_ADDR ww2,
                                TPipe* pipe) {
    const uint64_t e = static_cast<uint64_t>(t_.experts),
                   slots = static_cast<uint64_t>(t_.max_jobs);
    w1q_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w1q), e * t_.k1 * t_.n1);
    w2q_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w2q), e * t_.k2 * t_.n2);
    s1_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(scale1), e * t_.n1);
    o1_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(offset1), e * t_.n1);
    s2_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(scale2), e * t_.n2);
    o2_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(offset2), e * t_.n2);
    w1_base_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(ww1), slots * t_.k1 * t_.n1);
    w2_base_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(ww2), slots * t_.k2 * t_.n2);
    if (ASCEND_IS_AIV) {  // a cast tile of cast_rows x cast_cols, single-buffered
      const uint32_t elems = static_cast<uint32_t>(t_.cast_rows * t_.cast_cols);
      pipe->InitBuffer(cast_in_, 1, elems);
      pipe->InitBuffer(cast_out_, 1, elems * sizeof(In));
      pipe->InitBuffer(channel_, 1, 2 * static_cast<uint32_t>(t_.cast_cols) * sizeof(In));
    }
  }

  __aicore__ void Process() {
    // The scalar reads expert_tokens and derives the rounds, as the operator's KernelTiling does.
    std::vector<int64_t> counts(static_cast<size_t>(t_.experts));
    for (int32_t e = 0; e < t_.experts; ++e) counts[static_cast<size_t>(e)] = tokens_.GetValue(e);
    const std::vector<ffn_op::Round> rounds = ffn_op::schedule(counts, t_);
    PayloadScope payload;  // hidden states and weights; a timing-only run skips their effect
    // Pseudo-quant ([FFN-NOTE] 4.2): with overlap, CastWeight2 runs beside mm1 and the next
    // round's CastWeight1 beside mm2, three SyncAlls a round; without, each cast has the cores
    // to itself (the same work serialized).
    const bool aq = t_.antiquant, overlap = t_.overlap;
    for (size_t ri = 0; ri < rounds.size(); ++ri) {
      const ffn_op::Round& r = rounds[ri];
      if (aq && (ri == 0 || !overlap)) {
        if (ASCEND_IS_AIV) CastWeights(r, 1);
        SyncAll<false>();
      }
      if (ASCEND_IS_AIC) {
        for (size_t s = 0; s < r.jobs.size(); ++s) Mm1(r.jobs[s], s);
      }
      if (aq && overlap && ASCEND_IS_AIV) CastWeights(r, 2);
      SyncAll<false>();
      if (ASCEND_IS_AIV) {
        Activation(r);
        if (aq && !overlap) CastWeights(r, 2);
        Written();
      }
      SyncAll<false>();
      if (ASCEND_IS_AIC) {
        for (size_t s = 0; s < r.jobs.size(); ++s) Mm2(r.jobs[s], s);
      }
      if (aq && overlap && ASCEND_IS_AIV && ri + 1 < rounds.size()) CastWeights(rounds[ri + 1], 1);
      if (aq) SyncAll<false>();
    }
  }

 private:
  using Block = FfnBlock;
  static Block BlockOf(const ffn_op::CoreSplit& s, int64_t m, int64_t n, int64_t aic) {
    return FfnBlockOf(s, m, n, aic);
  }
  int64_t Aic() const { return FfnAic(); }
  __aicore__ void Written() { FfnWritten(); }

  // CastWeight1 (which = 1) or 2 of the round's experts into their workspace slots: tiles dealt
  // over every AIV of the launch.
  __aicore__ void CastWeights(const ffn_op::Round& r, int which) {
    const int64_t k = which == 1 ? t_.k1 : t_.k2, n = which == 1 ? t_.n1 : t_.n2;
    const int64_t aivs = static_cast<int64_t>(GetBlockNum()) * GetTaskRation();
    const int64_t cols = std::min<int64_t>(t_.cast_cols, n), rows = t_.cast_rows;
    int64_t tile = 0;
    for (size_t s = 0; s < r.jobs.size(); ++s)
      for (int64_t r0 = 0; r0 < k; r0 += rows)
        for (int64_t c0 = 0; c0 < n; c0 += cols, ++tile)
          if (tile % aivs == GetBlockIdx())
            CastTile(which, r.jobs[s].expert, static_cast<int64_t>(s), k, n, r0,
                     std::min(rows, k - r0), c0, std::min(cols, n - c0));
    Written();
  }

  // W[r0 .. r0 + rows, c0 .. c0 + cols) = (int8 + offset) * scale, into workspace slot `slot`.
  __aicore__ void CastTile(int which, int64_t e, int64_t slot, int64_t k, int64_t n, int64_t r0,
                           int64_t rows, int64_t c0, int64_t cols) {
    const GlobalTensor<int8_t>& q = which == 1 ? w1q_ : w2q_;
    const GlobalTensor<In>& scale = which == 1 ? s1_ : s2_;
    const GlobalTensor<In>& offset = which == 1 ? o1_ : o2_;
    const GlobalTensor<In>& ws = which == 1 ? w1_base_ : w2_base_;
    const uint32_t count = static_cast<uint32_t>(rows * cols), c = static_cast<uint32_t>(cols);
    LocalTensor<int8_t> in = cast_in_.template AllocTensor<int8_t>();
    DataCopyParams p;
    p.blockCount = static_cast<uint16_t>(rows);
    p.blockLen = static_cast<uint16_t>(cols / 32);
    p.srcStride = static_cast<uint16_t>((n - cols) / 32);
    DataCopy(in, q[static_cast<uint64_t>((e * k + r0) * n + c0)], p);
    cast_in_.EnQue(in);
    LocalTensor<In> ch = channel_.template AllocTensor<In>();
    DataCopy(ch, scale[static_cast<uint64_t>(e * n + c0)], c);
    DataCopy(ch[c], offset[static_cast<uint64_t>(e * n + c0)], c);
    channel_.EnQue(ch);
    in = cast_in_.template DeQue<int8_t>();
    ch = channel_.template DeQue<In>();
    LocalTensor<In> w = cast_out_.template AllocTensor<In>();
    Cast(w, in, RoundMode::CAST_NONE, count);
    for (int64_t i = 0; i < rows; ++i) {
      Add(w[static_cast<uint32_t>(i) * c], w[static_cast<uint32_t>(i) * c], ch[c], c);
      Mul(w[static_cast<uint32_t>(i) * c], w[static_cast<uint32_t>(i) * c], ch, c);
    }
    cast_in_.FreeTensor(in);
    channel_.FreeTensor(ch);
    FfnStoreTile(cast_out_, w, ws, static_cast<uint64_t>((slot * k + r0) * n + c0), rows, cols, n);
  }

  // The B matrix of expert e (in slot `slot` of the weight workspace with pseudo-quant).
  uint64_t W1At(int64_t e, size_t slot) const {
    return static_cast<uint64_t>(t_.antiquant ? static_cast<int64_t>(slot) : e) * t_.k1 * t_.n1;
  }
  uint64_t W2At(int64_t e, size_t slot) const {
    return static_cast<uint64_t>(t_.antiquant ? static_cast<int64_t>(slot) : e) * t_.k2 * t_.n2;
  }

  __aicore__ void Mm1(const ffn_op::Mm1Job& j, size_t slot) {
    decltype(b1_) bias;  // indexed only when there is one
    if (t_.bias) bias = b1_[static_cast<uint64_t>(j.expert) * t_.n1];
    FfnExpertMatmul(mm1_, BlockOf(j.split, j.m, t_.n1, Aic()), j.token0, t_.tokens, t_.n1, t_.k1,
                    x_, w1_base_[W1At(j.expert, slot)], t_.bias ? &bias : nullptr, ws1_,
                    [](auto&, uint64_t) {});
  }

  __aicore__ void Mm2(const ffn_op::Mm1Job& j, size_t slot) {
    decltype(b2_) bias;  // indexed only when there is one
    if (t_.bias) bias = b2_[static_cast<uint64_t>(j.expert) * t_.n2];
    FfnExpertMatmul(mm2_, FfnMm2Block(j, t_.n2, t_.cores), j.token0, t_.tokens, t_.n2, t_.k2, ws2_,
                    w2_base_[W2At(j.expert, slot)], t_.bias ? &bias : nullptr, y_,
                    [](auto&, uint64_t) {});
  }

  // The activation's tiles for this AIV: its AIC's mm1 block, tiles alternating between the two
  // AIVs of the AIC; a GLU's output (K2 = N1 / 2 columns) tiled over every AIV.
  __aicore__ void Activation(const ffn_op::Round& r) {
    const int64_t vm = t_.vec_base_m, vn = t_.vec_base_n;
    int64_t tile = 0;
    if (ffn_op::is_glu(t_.activation)) {
      const int64_t aivs = static_cast<int64_t>(GetBlockNum()) * GetTaskRation();
      for (const ffn_op::Mm1Job& j : r.jobs)
        for (int64_t m0 = 0; m0 < j.m; m0 += vm)
          for (int64_t n0 = 0; n0 < t_.k2; n0 += vn, ++tile)
            if (tile % aivs == GetBlockIdx())
              Tile(j.token0 + m0, std::min(vm, j.m - m0), n0, std::min(vn, t_.k2 - n0));
      return;
    }
    for (const ffn_op::Mm1Job& j : r.jobs) {
      const Block b = BlockOf(j.split, j.m, t_.n1, Aic());
      for (int64_t m0 = 0; m0 < b.rows; m0 += vm)
        for (int64_t n0 = 0; n0 < b.cols; n0 += vn, ++tile)
          if (tile % GetTaskRation() == GetSubBlockIdx())
            Tile(j.token0 + b.m0 + m0, std::min(vm, b.rows - m0), b.n0 + n0,
                 std::min(vn, b.cols - n0));
    }
  }

  // rows x cols of workspace 1 at (row, col) -> activation -> workspace 2 (at the same place;
  // GLU: output column col from input columns col (left) and K2 + col (right)).
  __aicore__ void Tile(int64_t row, int64_t rows, int64_t col, int64_t cols) {
    const uint32_t count = static_cast<uint32_t>(rows * cols);
    const bool glu = ffn_op::is_glu(t_.activation);
    LocalTensor<Mid> in = in_.template AllocTensor<Mid>();
    DataCopyParams cin;
    cin.blockCount = static_cast<uint16_t>(rows);
    cin.blockLen = static_cast<uint16_t>(cols * sizeof(Mid) / 32);
    cin.srcStride = static_cast<uint16_t>((t_.n1 - cols) * sizeof(Mid) / 32);
    DataCopy(in, ws1_[static_cast<uint64_t>(row * t_.n1 + col)], cin);
    if (glu)
      DataCopy(in[t_.ub_calc_elems], ws1_[static_cast<uint64_t>(row * t_.n1 + t_.k2 + col)], cin);
    in_.EnQue(in);
    in = in_.template DeQue<Mid>();
    LocalTensor<In> out = out_.template AllocTensor<In>();
    if constexpr (std::is_same_v<Mid, In>) {
      if (glu) {
        Glu(t_.activation, out, in, in[t_.ub_calc_elems], api_.template Get<uint8_t>(), count);
      } else {
        Activate(t_.activation, out, in, api_.template Get<In>(), count);
      }
    } else {  // high precision: the activation in fp32 into the temp buffer, then Cast with
              // CAST_ROUND (half away from zero), as the operator's Elewise1ComputeHighPrecision
      LocalTensor<Mid> act = temp_.template Get<Mid>();
      Activate(t_.activation, act, in, api_.template Get<Mid>(), count);
      Cast(out, act, RoundMode::CAST_ROUND, count);
    }
    in_.FreeTensor(in);
    FfnStoreTile(out_, out, ws2_, static_cast<uint64_t>(row * t_.k2 + col), rows, cols, t_.k2);
  }

  using AType = MatmulType<TPosition::GM, CubeFormat::ND, In>;
  using MidType = MatmulType<TPosition::GM, CubeFormat::ND, Mid>;
  using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  ffn_op::Tiling t_;
  GlobalTensor<In> x_, w1_, w2_, y_, ws2_;
  GlobalTensor<Mid> ws1_;
  GlobalTensor<float> b1_, b2_;
  GlobalTensor<int64_t> tokens_;
  GlobalTensor<In> w1_base_, w2_base_;  // what the Matmuls read: the weights, or the workspaces
  GlobalTensor<int8_t> w1q_, w2q_;
  GlobalTensor<In> s1_, o1_, s2_, o2_;
  TQue<TPosition::VECIN, 1> cast_in_, channel_;
  TQue<TPosition::VECOUT, 1> cast_out_;
  Matmul<AType, AType, MidType, BiasType, kFfnMatmulConfig> mm1_;
  Matmul<AType, AType, AType, BiasType, kFfnMatmulConfig> mm2_;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
  TBuf<TPosition::VECCALC> temp_, api_;
};

// The quant template ([FFN-NOTE] 2.2; the operator's tiling keys 1/13/14): int8 x and weights,
// int32 accumulation in L0C from the int32 bias, fp16 y. Per round of the schedule:
//   AIC: mm1 (int8 Matmul) dequantized on the FIXPIPE by deq_scale1 (VDEQF16, one uint64 per
//        column) into workspace 1 in fp16;
//   SyncAll;
//   AIV: the activation in fp16, then the requant of its output, x * scale + offset (scale per
//        tensor [E], or per channel [E, K2]; offset [E]), Cast to int8 with the round mode, into
//        workspace 2;
//   SyncAll;
//   AIC: mm2 (int8) dequantized by deq_scale2 into y.
// deq_scale in fp32 (key 13) is first turned into the uint64 the FIXPIPE reads, on the AIVs, by
// the seed's gather: each fp32 into the low 32 bits of a zeroed uint64; then one SyncAll.
// Out: y's type. bfloat16_t (key 11, deq_scale in bf16): the FIXPIPE has no bf16 dequant, so mm1
// and mm2 write int32 (workspace 1, workspace 3) and the AIVs dequantize in fp32 (Cast, Mul by
// the scale row cast to fp32): before the activation, which then runs in fp32 with the requant
// (fp32 -> fp16 with CAST_ODD, then -> int8 with the round mode), and after mm2 into bf16 y (one
// more SyncAll and vector pass a round).
template <class Out>
class KernelFfnQuant {
  static constexpr bool kBf16 = std::is_same_v<Out, bfloat16_t>;
  static_assert(std::is_same_v<Out, half> || kBf16, "the quant template writes fp16 or bf16 y");
  using Mid = std::conditional_t<kBf16, int32_t, half>;  // mm1's C in GM (workspace 1)

 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR b2,
                       GM_ADDR expert_tokens, GM_ADDR y, GM_ADDR ws1, GM_ADDR ws2, GM_ADDR deq1,
                       GM_ADDR deq2, GM_ADDR scale, GM_ADDR offset, GM_ADDR deq_ws, GM_ADDR ws3,
                       const ffn_op::Tiling& t, TPipe* pipe) {
    t_ = t;
    const uint64_t m = static_cast<uint64_t>(t.tokens), e = static_cast<uint64_t>(t.experts);
    const uint64_t n1s = e * t.n1, n2s = e * t.n2;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(x), m * t.k1);
    w1_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w1), e * t.k1 * t.n1);
    w2_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(w2), e * t.k2 * t.n2);
    if (t.bias) {
      b1_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(b1), n1s);
      b2_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(b2), n2s);
    }
    tokens_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(expert_tokens), e);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(y), m * t.n2);
    ws1_.SetGlobalBuffer(reinterpret_cast<__gm__ Mid*>(ws1), m * t.n1);
    ws2_.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(ws2), m * t.k2);
    if constexpr (kBf16) {  // mm2's int32 output, and the bf16 scales the AIVs read
      ws3_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(ws3), m * t.n2);
      deq1b_.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(deq1), n1s);
      deq2b_.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(deq2), n2s);
    } else if (t.deq_fp32) {  // the user's fp32 scales; the uint64 ones the AIVs make, in deq_ws
      deq1f_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(deq1), n1s);
      deq2f_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(deq2), n2s);
      deq_ws_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(deq_ws), 2 * (n1s + n2s));
      deq1_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(deq_ws), n1s);
      deq2_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(deq_ws + n1s * 8), n2s);
    } else {
      deq1_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(deq1), n1s);
      deq2_.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(deq2), n2s);
    }
    scale_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scale),
                           t.quant_per_channel ? e * t.k2 : e);
    offset_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(offset), e);
    if (ASCEND_IS_AIC) {
      REGIST_MATMUL_OBJ(pipe, nullptr, mm1_, &t_.mm1, mm2_, &t_.mm2);
      return;
    }
    // The UB split of [FFN-NOTE] 3.2, "quant, fp16 output": fp16 in, int8 out, the fp16 activation
    // output (temp) and the activation's temporary (API temp); "quant, bf16 output": int32 in,
    // bf16 (or int8) out, temp for the fp32 values and an fp16 staging, API temp in fp32.
    const ffn_op::UbShares& s = ffn_op::ub_shares(!kBf16, t.activation, true, kBf16);
    const uint32_t calc = t.ub_calc_elems;
    pipe->InitBuffer(in_, static_cast<uint8_t>(s.buffer_num), s.in * calc);
    pipe->InitBuffer(out_, static_cast<uint8_t>(s.buffer_num), s.out * calc);
    pipe->InitBuffer(temp_, s.temp * calc);
    pipe->InitBuffer(api_, s.api_temp * calc);
    const uint32_t vn = static_cast<uint32_t>(t.vec_base_n);
    if constexpr (kBf16) {  // rows of scales: a bf16 dequant row and the fp32 requant row; in fp32
      pipe->InitBuffer(chan_in_, 1, vn * 6);
      pipe->InitBuffer(chan_, vn * 4);
    } else if (t.quant_per_channel) {  // a row of scales: fp32 from GM, fp16 for the Mul
      pipe->InitBuffer(chan_in_, 1, vn * 4);
      pipe->InitBuffer(chan_, vn * 2);
    }
    if (t.deq_fp32) {  // the conversion: fp32 in, the gather's byte offsets, uint32 pairs out
      const uint32_t tile = static_cast<uint32_t>(t.deq_tile);
      pipe->InitBuffer(deq_in_, 1, tile * 4);
      pipe->InitBuffer(deq_idx_, 2 * tile * 4);
      pipe->InitBuffer(deq_out_, 1, 2 * tile * 4);
    }
  }

  __aicore__ void Process() {
    std::vector<int64_t> counts(static_cast<size_t>(t_.experts));
    for (int32_t e = 0; e < t_.experts; ++e) counts[static_cast<size_t>(e)] = tokens_.GetValue(e);
    const std::vector<ffn_op::Round> rounds = ffn_op::schedule(counts, t_);
    PayloadScope payload;
    if (t_.deq_fp32) {
      if (ASCEND_IS_AIV) ConvertDeqScales();
      SyncAll<false>();
    }
    for (const ffn_op::Round& r : rounds) {
      if (ASCEND_IS_AIC) {
        for (const ffn_op::Mm1Job& j : r.jobs) Mm1(j);
      }
      SyncAll<false>();
      if (ASCEND_IS_AIV) {
        Activation(r);
        FfnWritten();
      }
      SyncAll<false>();
      if (ASCEND_IS_AIC) {
        for (const ffn_op::Mm1Job& j : r.jobs) Mm2(j);
      }
      if constexpr (kBf16) {  // mm2's int32 -> bf16 y on the AIVs
        SyncAll<false>();
        if (ASCEND_IS_AIV) {
          for (const ffn_op::Mm1Job& j : r.jobs) Output(j);
          FfnWritten();
        }
      }
    }
  }

 private:
  // deq_scale1 and 2 (fp32) -> uint64 in deq_ws, tiles of deq_tile scales dealt over every AIV.
  // The gather's byte offsets 0, 0, 4, 4, 8, 8, ... are built once: CreateVecIndex 0..2n-1,
  // ShiftRight by 1 (as uint32), times sizeof(float).
  __aicore__ void ConvertDeqScales() {
    const uint32_t tile = static_cast<uint32_t>(t_.deq_tile);
    LocalTensor<int32_t> idx = deq_idx_.template Get<int32_t>();
    CreateVecIndex(idx, 0, 2 * tile);
    LocalTensor<uint32_t> offsets = idx.ReinterpretCast<uint32_t>();
    ShiftRight(offsets, offsets, 1u, 2 * tile);
    Muls(idx, idx, static_cast<int32_t>(sizeof(float)), 2 * tile);
    const int64_t aivs = static_cast<int64_t>(GetBlockNum()) * GetTaskRation();
    const int64_t e = t_.experts;
    int64_t n = 0;
    for (int which = 1; which <= 2; ++which) {
      const int64_t total = e * (which == 1 ? t_.n1 : t_.n2);
      const uint64_t first = which == 1 ? 0 : static_cast<uint64_t>(e * t_.n1);
      for (int64_t s = 0; s < total; s += tile, ++n)
        if (n % aivs == GetBlockIdx())
          ConvertTile(which == 1 ? deq1f_ : deq2f_, static_cast<uint64_t>(s), first + s,
                      static_cast<uint32_t>(std::min<int64_t>(tile, total - s)), offsets);
    }
    FfnWritten();
  }

  // `count` fp32 scales from src[at] -> uint64 (low 32 bits: the scale, high: 0) at scale `to` of
  // the uint64 workspace. Duplicate zeroes the pairs, Gather with the mask 0x5555... (the even
  // uint32 of every 64) fills the low halves; the tail of the last repeat is not copied out.
  __aicore__ void ConvertTile(const GlobalTensor<float>& src, uint64_t at, uint64_t to,
                              uint32_t count, const LocalTensor<uint32_t>& offsets) {
    LocalTensor<float> in = deq_in_.template AllocTensor<float>();
    DataCopy(in, src[at], count);
    deq_in_.EnQue(in);
    in = deq_in_.template DeQue<float>();
    LocalTensor<uint32_t> out = deq_out_.template AllocTensor<uint32_t>();
    Duplicate(out, 0u, 2 * count);
    const uint64_t mask[2] = {0x5555555555555555ull, 0};
    Gather(out, in.ReinterpretCast<uint32_t>(), offsets, 0, mask,
           static_cast<uint8_t>((2 * count + 63) / 64), 8);
    deq_in_.FreeTensor(in);
    deq_out_.EnQue(out);
    out = deq_out_.template DeQue<uint32_t>();
    DataCopy(deq_ws_[2 * to], out, 2 * count);
    deq_out_.FreeTensor(out);
  }

  __aicore__ void Mm1(const ffn_op::Mm1Job& j) {
    const uint64_t e = static_cast<uint64_t>(j.expert);
    decltype(b1_) bias;  // indexed only when there is one
    if (t_.bias) bias = b1_[e * t_.n1];
    FfnExpertMatmul(mm1_, FfnBlockOf(j.split, j.m, t_.n1, FfnAic()), j.token0, t_.tokens, t_.n1,
                    t_.k1, x_, w1_[e * t_.k1 * t_.n1], t_.bias ? &bias : nullptr, ws1_,
                    [&](auto& mm, uint64_t n0) {
                      if constexpr (!kBf16) mm.SetQuantVector(deq1_[e * t_.n1 + n0]);
                    });
  }

  __aicore__ void Mm2(const ffn_op::Mm1Job& j) {
    const uint64_t e = static_cast<uint64_t>(j.expert);
    decltype(b2_) bias;  // indexed only when there is one
    if (t_.bias) bias = b2_[e * t_.n2];
    const FfnBlock b = FfnMm2Block(j, t_.n2, t_.cores);
    if constexpr (kBf16) {
      FfnExpertMatmul(mm2_, b, j.token0, t_.tokens, t_.n2, t_.k2, ws2_, w2_[e * t_.k2 * t_.n2],
                      t_.bias ? &bias : nullptr, ws3_, [](auto&, uint64_t) {});
    } else {
      FfnExpertMatmul(mm2_, b, j.token0, t_.tokens, t_.n2, t_.k2, ws2_, w2_[e * t_.k2 * t_.n2],
                      t_.bias ? &bias : nullptr, y_,
                      [&](auto& mm, uint64_t n0) { mm.SetQuantVector(deq2_[e * t_.n2 + n0]); });
    }
  }

  // The tiles of this AIV: its AIC's mm1 block, alternating between the AIC's two AIVs.
  __aicore__ void Activation(const ffn_op::Round& r) {
    const int64_t vm = t_.vec_base_m, vn = t_.vec_base_n;
    int64_t tile = 0;
    for (const ffn_op::Mm1Job& j : r.jobs) {
      const FfnBlock b = FfnBlockOf(j.split, j.m, t_.n1, FfnAic());
      if (b.rows == 0) continue;
      // The expert's requant constants, read by the scalar (rounded to fp16 for fp16's
      // Muls/Adds; in fp32 for bf16's).
      const float offset = offset_.GetValue(static_cast<uint64_t>(j.expert));
      const float scale =
          t_.quant_per_channel ? 0.0f : scale_.GetValue(static_cast<uint64_t>(j.expert));
      for (int64_t m0 = 0; m0 < b.rows; m0 += vm)
        for (int64_t n0 = 0; n0 < b.cols; n0 += vn, ++tile)
          if (tile % GetTaskRation() == GetSubBlockIdx()) {
            const int64_t row = j.token0 + b.m0 + m0, rows = std::min(vm, b.rows - m0),
                          col = b.n0 + n0, cols = std::min(vn, b.cols - n0);
            if constexpr (kBf16) {
              TileFp32(j.expert, scale, offset, row, rows, col, cols);
            } else {
              Tile(j.expert, cast_to<half>(scale, RoundMode::CAST_RINT),
                   cast_to<half>(offset, RoundMode::CAST_RINT), row, rows, col, cols);
            }
          }
    }
  }

  // rows x cols of workspace 1 at (row, col) -> activation (fp16) -> requant -> int8 workspace 2.
  __aicore__ void Tile(int64_t e, half scale, half offset, int64_t row, int64_t rows, int64_t col,
                       int64_t cols) {
    const uint32_t count = static_cast<uint32_t>(rows * cols), c = static_cast<uint32_t>(cols);
    LocalTensor<half> in = in_.template AllocTensor<half>();
    DataCopyParams cin;
    cin.blockCount = static_cast<uint16_t>(rows);
    cin.blockLen = static_cast<uint16_t>(cols * 2 / 32);
    cin.srcStride = static_cast<uint16_t>((t_.n1 - cols) * 2 / 32);
    DataCopy(in, ws1_[static_cast<uint64_t>(row * t_.n1 + col)], cin);
    in_.EnQue(in);
    if (t_.quant_per_channel) {  // scale[e, col .. col + cols) in fp32
      LocalTensor<float> ch = chan_in_.template AllocTensor<float>();
      DataCopy(ch, scale_[static_cast<uint64_t>(e * t_.k2 + col)], c);
      chan_in_.EnQue(ch);
    }
    in = in_.template DeQue<half>();
    LocalTensor<half> act = temp_.template Get<half>();
    Activate(t_.activation, act, in, api_.template Get<half>(), count);
    in_.FreeTensor(in);
    if (t_.quant_per_channel) {
      LocalTensor<float> ch = chan_in_.template DeQue<float>();
      LocalTensor<half> sh = chan_.template Get<half>();
      Cast(sh, ch, RoundMode::CAST_RINT, c);
      chan_in_.FreeTensor(ch);
      for (int64_t i = 0; i < rows; ++i)
        Mul(act[static_cast<uint32_t>(i) * c], act[static_cast<uint32_t>(i) * c], sh, c);
    } else {
      Muls(act, act, scale, count);
    }
    Adds(act, act, offset, count);
    LocalTensor<int8_t> out = out_.template AllocTensor<int8_t>();
    Cast(out, act, static_cast<RoundMode>(t_.quant_round), count);
    FfnStoreTile(out_, out, ws2_, static_cast<uint64_t>(row * t_.k2 + col), rows, cols, t_.k2);
  }

  // bf16 y: ws1 (int32) at (row, col) -> fp32 x deq_scale1 -> activation (fp32) -> requant
  // (fp32 Muls/Mul and Adds, Cast to fp16 with CAST_ODD, then to int8) -> workspace 2.
  __aicore__ void TileFp32(int64_t e, float scale, float offset, int64_t row, int64_t rows,
                           int64_t col, int64_t cols) {
    const uint32_t count = static_cast<uint32_t>(rows * cols), c = static_cast<uint32_t>(cols);
    LoadInt32(ws1_, t_.n1, row, rows, col, cols);
    LocalTensor<bfloat16_t> rowq = chan_in_.template AllocTensor<bfloat16_t>();
    DataCopy(rowq, deq1b_[static_cast<uint64_t>(e * t_.n1 + col)], c);
    if (t_.quant_per_channel)  // the requant row, fp32, after the bf16 dequant row
      DataCopy(rowq.template ReinterpretCast<float>()[c / 2],
               scale_[static_cast<uint64_t>(e * t_.k2 + col)], c);
    chan_in_.EnQue(rowq);
    LocalTensor<int32_t> in = in_.template DeQue<int32_t>();
    rowq = chan_in_.template DeQue<bfloat16_t>();
    LocalTensor<float> x = temp_.template Get<float>();
    Dequant(x, in, rowq, rows, c);
    in_.FreeTensor(in);
    Activate(t_.activation, x, x, api_.template Get<float>(), count);
    if (t_.quant_per_channel) {
      LocalTensor<float> sf = rowq.template ReinterpretCast<float>()[c / 2];
      for (int64_t i = 0; i < rows; ++i)
        Mul(x[static_cast<uint32_t>(i) * c], x[static_cast<uint32_t>(i) * c], sf, c);
    } else {
      Muls(x, x, scale, count);
    }
    chan_in_.FreeTensor(rowq);
    Adds(x, x, offset, count);
    LocalTensor<half> h = temp_.template Get<uint8_t>()[count * 4].template ReinterpretCast<half>();
    Cast(h, x, RoundMode::CAST_ODD, count);
    LocalTensor<int8_t> out = out_.template AllocTensor<int8_t>();
    Cast(out, h, static_cast<RoundMode>(t_.quant_round), count);
    FfnStoreTile(out_, out, ws2_, static_cast<uint64_t>(row * t_.k2 + col), rows, cols, t_.k2);
  }

  // rows x cols of an int32 [., n] workspace at (row, col) into an input buffer, enqueued.
  __aicore__ void LoadInt32(const GlobalTensor<int32_t>& ws, int64_t n, int64_t row, int64_t rows,
                            int64_t col, int64_t cols) {
    LocalTensor<int32_t> in = in_.template AllocTensor<int32_t>();
    DataCopyParams cin;
    cin.blockCount = static_cast<uint16_t>(rows);
    cin.blockLen = static_cast<uint16_t>(cols * 4 / 32);
    cin.srcStride = static_cast<uint16_t>((n - cols) * 4 / 32);
    DataCopy(in, ws[static_cast<uint64_t>(row * n + col)], cin);
    in_.EnQue(in);
  }

  // x = fp32(in) x fp32(scale row), row by row (the dequant the FIXPIPE cannot do with bf16).
  __aicore__ void Dequant(const LocalTensor<float>& x, const LocalTensor<int32_t>& in,
                          const LocalTensor<bfloat16_t>& rowq, int64_t rows, uint32_t c) {
    const uint32_t count = static_cast<uint32_t>(rows) * c;
    Cast(x, in, RoundMode::CAST_NONE, count);
    LocalTensor<float> sf = chan_.template Get<float>();
    Cast(sf, rowq, RoundMode::CAST_NONE, c);
    for (int64_t i = 0; i < rows; ++i)
      Mul(x[static_cast<uint32_t>(i) * c], x[static_cast<uint32_t>(i) * c], sf, c);
  }

  // bf16 y: this AIV's tiles of its AIC's mm2 block (alternating between the AIC's two AIVs):
  // workspace 3 (int32) -> fp32 x deq_scale2 -> bf16 y.
  __aicore__ void Output(const ffn_op::Mm1Job& j) {
    const FfnBlock b = FfnMm2Block(j, t_.n2, t_.cores);
    const int64_t vm = t_.vec_base_m, vn = t_.vec_base_n;
    int64_t tile = 0;
    for (int64_t m0 = 0; m0 < b.rows; m0 += vm)
      for (int64_t n0 = 0; n0 < b.cols; n0 += vn, ++tile) {
        if (tile % GetTaskRation() != GetSubBlockIdx()) continue;
        const int64_t row = j.token0 + b.m0 + m0, rows = std::min(vm, b.rows - m0), col = b.n0 + n0,
                      cols = std::min(vn, b.cols - n0);
        const uint32_t count = static_cast<uint32_t>(rows * cols), c = static_cast<uint32_t>(cols);
        LoadInt32(ws3_, t_.n2, row, rows, col, cols);
        LocalTensor<bfloat16_t> rowq = chan_in_.template AllocTensor<bfloat16_t>();
        DataCopy(rowq, deq2b_[static_cast<uint64_t>(j.expert * t_.n2 + col)], c);
        chan_in_.EnQue(rowq);
        LocalTensor<int32_t> in = in_.template DeQue<int32_t>();
        rowq = chan_in_.template DeQue<bfloat16_t>();
        LocalTensor<float> x = temp_.template Get<float>();
        Dequant(x, in, rowq, rows, c);
        in_.FreeTensor(in);
        chan_in_.FreeTensor(rowq);
        LocalTensor<Out> out = out_.template AllocTensor<Out>();
        Cast(out, x, RoundMode::CAST_RINT, count);
        FfnStoreTile(out_, out, y_, static_cast<uint64_t>(row * t_.n2 + col), rows, cols, t_.n2);
      }
  }

  using QType = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using MidType = MatmulType<TPosition::GM, CubeFormat::ND, Mid>;
  using YType = MatmulType<TPosition::GM, CubeFormat::ND, std::conditional_t<kBf16, int32_t, Out>>;
  using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, int32_t>;
  ffn_op::Tiling t_;
  GlobalTensor<int8_t> x_, w1_, w2_, ws2_;
  GlobalTensor<Out> y_;
  GlobalTensor<Mid> ws1_;
  GlobalTensor<int32_t> ws3_;
  GlobalTensor<bfloat16_t> deq1b_, deq2b_;
  GlobalTensor<int32_t> b1_, b2_;
  GlobalTensor<int64_t> tokens_;
  GlobalTensor<float> deq1f_, deq2f_, scale_, offset_;
  GlobalTensor<uint64_t> deq1_, deq2_;
  GlobalTensor<uint32_t> deq_ws_;
  Matmul<QType, QType, MidType, BiasType, kFfnMatmulConfig> mm1_;
  Matmul<QType, QType, YType, BiasType, kFfnMatmulConfig> mm2_;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
  TBuf<TPosition::VECCALC> temp_, api_, chan_, deq_idx_;
  TQue<TPosition::VECIN, 1> chan_in_, deq_in_;
  TQue<TPosition::VECOUT, 1> deq_out_;
};

}  // namespace ascend::kernels
