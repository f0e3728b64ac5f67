// The high-level Matmul API (Ascend C's matmul::Matmul, Norm scheduler) and its host tiling
// (matmul_tiling::MatmulApiTiling), built on the cube primitives of cube.h: its timing emerges
// from the DataCopy/LoadData/Mmad/Fixpipe it issues and the queues that order them.
//
// What one IterateAll does on the calling AIC, per baseM x baseN block of C (in iterateOrder):
//   for each K chunk (stepKa * baseK columns of A, stepKb * baseK rows of B):
//     MTE2: A chunk and B chunk GM -> L1 (ND -> NZ), each through a 2-deep queue; a chunk that
//           holds the whole K stays in L1 while the next block reuses it (the A of the same m, the
//           B of the same n);
//     per baseK step: MTE1 moves the A and B fractals L1 -> L0A/L0B (dbL0A/dbL0B-deep queues);
//           M: one Mmad baseM x baseK x baseN, accumulating in L0C (the first from 0 or the bias);
//   FIX: the block L0C -> GM, cast (or dequantized) on the way.
// int8 A and B accumulate in int32 (the int8 fractal is 16 x 32: C0 = 32, baseK a multiple of 32);
// B's L0B fractals come from LoadDataWithTranspose (32 x 32 squares), and its n is padded to 32
// in L0B and in the Mmad (the padding columns are the zeros Nd2Nz wrote). C is int32 (NoQuant),
// or fp16 dequantized on the FIXPIPE: SetQuantScalar (DEQF16) or SetQuantVector (VDEQF16, the
// block's uint64 scales GM -> L1 on MTE2 beside the bias, then L1 -> FB inside the Fixpipe). The
// bias of an int8 Matmul is int32.
// The API runs on the AIC that calls it, as in Ascend C's MixDualMaster mode (each kind runs its
// own code, ordered by SyncAll or cross-core flags). The default mix mode, where an AIV drives the
// AIC through messages, is not modelled (its message cost is unpublished).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/api/cube.h"
#include "sim/api/sync.h"
#include "sim/api/tpipe.h"

namespace AscendC {

enum class CubeFormat { ND, NZ, ND_ALIGN, VECTOR };

// What the host tiling hands the kernel (TCubeTiling's fields).
struct TCubeTiling {
  int32_t usedCoreNum = 1;
  int32_t M = 0, N = 0, Ka = 0, Kb = 0;
  int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
  int32_t baseM = 0, baseN = 0, baseK = 0;
  int32_t depthA1 = 2, depthB1 = 2;
  int32_t stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
  int32_t isBias = 0;
  int32_t transLength = 0;
  int32_t iterateOrder = 0;  // 0: along M first (m inner), 1: along N first
  int32_t shareMode = 0, shareL1Size = 0, shareL0CSize = 0, shareUbSize = 0;
  int32_t dbL0A = 2, dbL0B = 2, dbL0C = 1;
};

namespace matmul {
template <TPosition POS, CubeFormat FORMAT, class T, bool ISTRANS = false>
struct MatmulType {
  using Type = T;
  static constexpr TPosition pos = POS;
  static constexpr CubeFormat format = FORMAT;
  static constexpr bool isTrans = ISTRANS;
};
}  // namespace matmul
using matmul::MatmulType;

struct MatmulConfig {
  bool doNorm = true;
};
constexpr MatmulConfig CFG_NORM = {true};

namespace detail {
void matmul_fault(const std::string& what);
}

// The L1/L0/BiasTable queues a Matmul object computes in; one set can serve several objects.
struct MatmulBuffers {
  struct Sizes {
    uint32_t a1 = 0, b1 = 0, a2 = 0, b2 = 0, c1 = 0, bias1 = 0, bt = 0, scale1 = 0;
    uint8_t db_a2 = 2, db_b2 = 2, db_c1 = 1;
    Sizes max(const Sizes& o) const {
      Sizes z;
      z.a1 = std::max(a1, o.a1);
      z.b1 = std::max(b1, o.b1);
      z.a2 = std::max(a2, o.a2);
      z.b2 = std::max(b2, o.b2);
      z.c1 = std::max(c1, o.c1);
      z.bias1 = std::max(bias1, o.bias1);
      z.bt = std::max(bt, o.bt);
      z.scale1 = std::max(scale1, o.scale1);
      z.db_a2 = std::max(db_a2, o.db_a2);
      z.db_b2 = std::max(db_b2, o.db_b2);
      z.db_c1 = std::max(db_c1, o.db_c1);
      return z;
    }
  };
  void init(TPipe* p, const Sizes& z) {
    p->InitBuffer(qa1, 2, z.a1);
    p->InitBuffer(qb1, 2, z.b1);
    p->InitBuffer(qa2, z.db_a2, z.a2);
    p->InitBuffer(qb2, z.db_b2, z.b2);
    p->InitBuffer(qc1, z.db_c1, z.c1);
    if (z.bias1) {
      p->InitBuffer(qbias1, 1, z.bias1);
      p->InitBuffer(qbt, 1, z.bt);
    }
    if (z.scale1) p->InitBuffer(qscale1, 1, z.scale1);
    have = z;
  }
  bool holds(const Sizes& z) const {
    return z.a1 <= have.a1 && z.b1 <= have.b1 && z.a2 <= have.a2 && z.b2 <= have.b2 &&
           z.c1 <= have.c1 && z.bias1 <= have.bias1 && z.scale1 <= have.scale1 &&
           z.db_a2 <= have.db_a2 && z.db_b2 <= have.db_b2 && z.db_c1 <= have.db_c1;
  }
  Sizes have;
  TQue<TPosition::A1, 2> qa1;
  TQue<TPosition::B1, 2> qb1;
  TQue<TPosition::A2, 2> qa2;
  TQue<TPosition::B2, 2> qb2;
  TQue<TPosition::CO1, 2> qc1;
  TQue<TPosition::C1, 1> qbias1;
  TQue<TPosition::C2, 1> qbt;
  TQueBind<TPosition::C1, TPosition::C2PIPE2GM, 1> qscale1;  // VDEQF16's scales: L1, read by FIX
};

namespace matmul {

template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>,
          const MatmulConfig& MM_CFG = CFG_NORM>
class Matmul {
  using SrcT = typename A_TYPE::Type;
  using DstT = typename C_TYPE::Type;
  using BiasT = typename BIAS_TYPE::Type;
  static constexpr bool kInt8 = std::is_same_v<SrcT, int8_t>;
  using AccT = std::conditional_t<kInt8, int32_t, float>;
  static constexpr uint32_t C0 = 32 / sizeof(SrcT);
  static_assert(std::is_same_v<SrcT, typename B_TYPE::Type>, "Matmul: A and B of one type");
  static_assert(std::is_same_v<SrcT, half> || std::is_same_v<SrcT, bfloat16_t> || kInt8,
                "ascend-sim: the Matmul API is modelled for half, bfloat16_t and int8_t A and B");
  static_assert(!kInt8 || std::is_same_v<DstT, half> || std::is_same_v<DstT, int32_t>,
                "ascend-sim: int8 Matmul writes int32 or fp16 (dequantized) C; bf16 C from int8 "
                "is not modelled");
  static_assert(!kInt8 || std::is_same_v<BiasT, int32_t>, "an int8 Matmul's bias is int32");

 public:
  // REGIST_MATMUL_OBJ: the tiling, and the TPipe whose L1/L0 the object takes. With `shared`,
  // the object uses another object's buffers (allocated for both tilings): the Matmul objects of
  // one kernel run one after another on the AIC, so they share L1 and L0 as in Ascend C.
  // `reserve`: allocate at least these sizes (for another object that will share them).
  void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr, MatmulBuffers* shared = nullptr,
            const MatmulBuffers::Sizes* reserve = nullptr) {
    detail::require_aic("Matmul::Init");
    if (!tiling) detail::matmul_fault("Init without a tiling");
    t_ = *tiling;
    const int n_align = kInt8 ? 32 : 16;
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.baseM % 16 || t_.baseN % n_align ||
        t_.baseK % static_cast<int>(C0))
      detail::matmul_fault("tiling base " + std::to_string(t_.baseM) + "/" +
                           std::to_string(t_.baseN) + "/" + std::to_string(t_.baseK) +
                           ": baseM a multiple of 16, baseN of " + std::to_string(n_align) +
                           ", baseK of " + std::to_string(C0));
    if (t_.stepKa != t_.stepKb)
      detail::matmul_fault(
          "stepKa * baseK != stepKb * baseK (one K chunk for A and B is modelled)");
    chunk_k_ = static_cast<uint32_t>(t_.stepKa * t_.baseK);
    const MatmulBuffers::Sizes need = sizes(t_);
    if (shared) {
      if (!shared->holds(need))
        detail::matmul_fault("a shared Matmul buffer set is smaller than this object's tiling");
      buf_ = shared;
    } else {
      own_.init(tpipe ? tpipe : GetTPipePtr(), reserve ? need.max(*reserve) : need);
      buf_ = &own_;
    }
    org_m_ = t_.M;
    org_n_ = t_.N;
    org_ka_ = t_.Ka;
    SetSingleShape(t_.singleCoreM, t_.singleCoreN, t_.singleCoreK);
  }
  // The bytes this object's tiling needs in each of its buffers.
  static MatmulBuffers::Sizes sizes(const TCubeTiling& t) {
    const uint32_t ck = static_cast<uint32_t>(t.stepKa * t.baseK),
                   bm = static_cast<uint32_t>(t.baseM), bn = static_cast<uint32_t>(t.baseN),
                   bk = static_cast<uint32_t>(t.baseK);
    MatmulBuffers::Sizes z;
    z.a1 = bm * ck * sizeof(SrcT);
    z.b1 = ck * bn * sizeof(SrcT);
    z.a2 = bm * bk * sizeof(SrcT);
    z.b2 = bk * bn * sizeof(SrcT);
    z.c1 = bm * bn * 4;
    z.bias1 = t.isBias ? bn * static_cast<uint32_t>(sizeof(BiasT)) : 0;
    z.bt = t.isBias ? bn * 4 : 0;
    z.scale1 = kInt8 && std::is_same_v<DstT, half> ? bn * 8 : 0;  // VDEQF16's uint64 scales
    z.db_a2 = static_cast<uint8_t>(t.dbL0A);
    z.db_b2 = static_cast<uint8_t>(t.dbL0B);
    z.db_c1 = static_cast<uint8_t>(t.dbL0C);
    return z;
  }
  MatmulBuffers& buffers() { return *buf_; }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb = 0) {
    (void)orgKb;
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
  }
  void SetSingleShape(int m, int n, int k) {
    single_m_ = m;
    single_n_ = n;
    single_k_ = k;
  }
  void SetTail(int m = -1, int n = -1, int k = -1) {
    if (m > 0) single_m_ = m;
    if (n > 0) single_n_ = n;
    if (k > 0) single_k_ = k;
  }
  void SetTensorA(const GlobalTensor<SrcT>& gm, bool isTransposeA = false) {
    if (isTransposeA) detail::matmul_fault("a transposed A is not modelled");
    a_ = gm;
  }
  void SetTensorB(const GlobalTensor<SrcT>& gm, bool isTransposeB = false) {
    if (isTransposeB) detail::matmul_fault("a transposed B is not modelled");
    b_ = gm;
  }
  void SetBias(const GlobalTensor<BiasT>& gm) {
    if (!t_.isBias) detail::matmul_fault("SetBias with a tiling whose isBias is 0");
    bias_ = gm;
    has_bias_ = true;
  }
  void DisableBias() { has_bias_ = false; }
  // int8 -> fp16: one dequantization scale for every column (DEQF16; the fp32 scale in the low 32
  // bits), or one per column of C, uint64 in GM (VDEQF16), indexed like B's columns.
  void SetQuantScalar(uint64_t quantScalar) {
    if (!kInt8) detail::matmul_fault("SetQuantScalar on a Matmul whose A and B are not int8");
    quant_ = Quant::Scalar;
    quant_scalar_ = quantScalar;
  }
  void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
    if (!kInt8) detail::matmul_fault("SetQuantVector on a Matmul whose A and B are not int8");
    quant_ = Quant::Vector;
    quant_tensor_ = quantTensor;
  }
  void ClearBias() { has_bias_ = false; }

  // Computes C = A x B (+ bias) for the single-core shape into `gm` (row pitch N of SetOrgShape).
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    if (enAtomic) detail::matmul_fault("IterateAll with atomic accumulation is not modelled");
    check_shapes();
    const int mblocks = ceil(single_m_, t_.baseM), nblocks = ceil(single_n_, t_.baseN);
    const int outer = t_.iterateOrder == 0 ? nblocks : mblocks,
              inner = t_.iterateOrder == 0 ? mblocks : nblocks;
    for (int o = 0; o < outer; ++o)
      for (int i = 0; i < inner; ++i) {
        int mi = t_.iterateOrder == 0 ? i : o, ni = t_.iterateOrder == 0 ? o : i;
        block(mi, ni, gm);
      }
    release_cache();
    // The synchronous IterateAll returns once C is in GM: the scalar waits for the FIX pipe.
    if (sync) {
      const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::FIX_S);
      SetFlag<HardEvent::FIX_S>(id);
      WaitFlag<HardEvent::FIX_S>(id);
    }
  }
  // After IterateAll<false>: the scalar waits until C is in GM.
  void WaitIterateAll() {
    const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::FIX_S);
    SetFlag<HardEvent::FIX_S>(id);
    WaitFlag<HardEvent::FIX_S>(id);
  }
  void End() { release_cache(); }

 private:
  static int ceil(int a, int b) { return (a + b - 1) / b; }
  static uint32_t up16(uint32_t v) { return (v + 15) / 16 * 16; }
  // B's K rows per column block in L1: 16 (b16), 32 for int8 (whole 32 x 32 squares).
  static uint32_t up_rows(uint32_t v) { return (v + C0 - 1) / C0 * C0; }
  void check_shapes() {
    // Ascend C's default mix mode lets an AIV drive its AIC's Matmul through messages; that path
    // is not modelled (its cost is unpublished): the cube part runs under ASCEND_IS_AIC.
    if (!IsAic())
      detail::matmul_fault(
          "called on an AIV: the AIV-driven Matmul of the default mix mode is not modelled; run "
          "the Matmul on the AIC (under ASCEND_IS_AIC) and hand its result over through GM");
    if (single_m_ <= 0 || single_n_ <= 0 || single_k_ <= 0)
      detail::matmul_fault("IterateAll before SetSingleShape / a tiling's singleCore shape");
    if (a_.GetSize() == 0 || b_.GetSize() == 0)
      detail::matmul_fault("IterateAll before SetTensorA/B");
    if (kInt8 && std::is_same_v<DstT, half> && quant_ == Quant::None)
      detail::matmul_fault("an int8 Matmul with fp16 C needs SetQuantScalar or SetQuantVector");
    if (quant_ == Quant::Vector && uint64_t(single_n_) > quant_tensor_.GetSize())
      detail::matmul_fault("SetQuantVector: " + std::to_string(single_n_) +
                           " columns beyond its GlobalTensor of " +
                           std::to_string(quant_tensor_.GetSize()));
    if (uint64_t(single_m_ - 1) * org_ka_ + single_k_ > a_.GetSize())
      detail::matmul_fault("A: " + std::to_string(single_m_) + " x " + std::to_string(single_k_) +
                           " rows of " + std::to_string(org_ka_) + " beyond its GlobalTensor");
    if (uint64_t(single_k_ - 1) * org_n_ + single_n_ > b_.GetSize())
      detail::matmul_fault("B: " + std::to_string(single_k_) + " x " + std::to_string(single_n_) +
                           " rows of " + std::to_string(org_n_) + " beyond its GlobalTensor");
  }
  // A's [cur_m x cur_k] chunk at (m0, k0) into L1, NZ.
  LocalTensor<SrcT> load_a(int m0, int cur_m, int k0, int cur_k) {
    return load_nz(buf_->qa1, a_[uint64_t(m0) * org_ka_ + k0], cur_m, cur_k, org_ka_, up16(cur_m));
  }
  // B's [cur_k x cur_n] chunk at (k0, n0) into L1, NZ.
  LocalTensor<SrcT> load_b(int k0, int cur_k, int n0, int cur_n) {
    return load_nz(buf_->qb1, b_[uint64_t(k0) * org_n_ + n0], cur_k, cur_n, org_n_, up_rows(cur_k));
  }
  // `rows` x `cols` of an ND matrix of row pitch `pitch` into a buffer of `queue`, NZ with
  // `c0_stride` rows per fractal column (GM -> L1 on MTE2).
  template <class Queue>
  LocalTensor<SrcT> load_nz(Queue& queue, const GlobalTensor<SrcT>& src, int rows, int cols,
                            int pitch, uint32_t c0_stride) {
    LocalTensor<SrcT> l1 = queue.template AllocTensor<SrcT>();
    Nd2NzParams p;
    p.nValue = static_cast<uint16_t>(rows);
    p.dValue = static_cast<uint16_t>(cols);
    p.srcDValue = static_cast<uint16_t>(pitch);
    p.dstNzC0Stride = static_cast<uint16_t>(c0_stride);
    DataCopy(l1, src, p);
    queue.EnQue(l1);
    return queue.template DeQue<SrcT>();
  }
  void release_cache() {
    if (cached_a_ >= 0) buf_->qa1.FreeTensor(a_cache_);
    if (cached_b_ >= 0) buf_->qb1.FreeTensor(b_cache_);
    cached_a_ = cached_b_ = -1;
  }

  void block(int mi, int ni, const GlobalTensor<DstT>& gm) {
    const int m0 = mi * t_.baseM, n0 = ni * t_.baseN;
    const int cur_m = std::min(t_.baseM, single_m_ - m0),
              cur_n = std::min(t_.baseN, single_n_ - n0);
    const int kchunks = ceil(single_k_, static_cast<int>(chunk_k_));
    // A chunk holding all of K stays in L1 for the next block of the same m (B: of the same n).
    const bool keep = kchunks == 1;
    if (cached_a_ >= 0 && cached_a_ != mi) {
      buf_->qa1.FreeTensor(a_cache_);
      cached_a_ = -1;
    }
    if (cached_b_ >= 0 && cached_b_ != ni) {
      buf_->qb1.FreeTensor(b_cache_);
      cached_b_ = -1;
    }
    LocalTensor<AccT> bt;
    if (has_bias_) {  // GM -> L1 (C1) -> BiasTable (C2)
      LocalTensor<BiasT> b1 = buf_->qbias1.template AllocTensor<BiasT>();
      DataCopy(b1, bias_[n0],
               static_cast<uint32_t>((cur_n * sizeof(BiasT) + 31) / 32 * 32 / sizeof(BiasT)));
      buf_->qbias1.EnQue(b1);
      b1 = buf_->qbias1.template DeQue<BiasT>();
      bt = buf_->qbt.template AllocTensor<AccT>();
      DataCopyParams dp;
      dp.blockLen = static_cast<uint16_t>((cur_n * sizeof(BiasT) + 31) / 32);
      DataCopy(bt, b1, dp);
      buf_->qbias1.FreeTensor(b1);
      buf_->qbt.EnQue(bt);
      bt = buf_->qbt.template DeQue<AccT>();
    }
    LocalTensor<uint64_t> scale;
    if (quant_ == Quant::Vector) {  // the block's uint64 scales GM -> L1 (C1)
      scale = buf_->qscale1.template AllocTensor<uint64_t>();
      DataCopy(scale, quant_tensor_[n0], static_cast<uint32_t>((cur_n + 3) / 4 * 4));
      buf_->qscale1.EnQue(scale);
      scale = buf_->qscale1.template DeQue<uint64_t>();
    }
    LocalTensor<AccT> c = buf_->qc1.template AllocTensor<AccT>();
    // int8: B's n padded to 32 in L0B (whole transposed squares) and in the Mmad.
    const uint32_t n_mmad =
        kInt8 ? (static_cast<uint32_t>(cur_n) + 31) / 32 * 32 : static_cast<uint32_t>(cur_n);
    const uint32_t mb = up16(cur_m) / 16, nb = up16(n_mmad) / 16;
    for (int kc = 0; kc < kchunks; ++kc) {
      const int k0 = kc * static_cast<int>(chunk_k_);
      const int cur_kc = std::min(static_cast<int>(chunk_k_), single_k_ - k0);
      LocalTensor<SrcT> a1, b1;
      if (keep && cached_a_ == mi) {
        a1 = a_cache_;
      } else {
        a1 = load_a(m0, cur_m, k0, cur_kc);
      }
      if (keep && cached_b_ == ni) {
        b1 = b_cache_;
      } else {
        b1 = load_b(k0, cur_kc, n0, cur_n);
      }
      const uint32_t kcp_rows = up_rows(static_cast<uint32_t>(cur_kc));  // B chunk rows in L1
      for (int kk0 = 0; kk0 < cur_kc; kk0 += t_.baseK) {
        const int cur_k = std::min(t_.baseK, cur_kc - kk0);
        const uint32_t kb = (static_cast<uint32_t>(cur_k) + C0 - 1) / C0;
        const uint32_t kb0 = static_cast<uint32_t>(kk0) / C0;
        LocalTensor<SrcT> a2 = buf_->qa2.template AllocTensor<SrcT>();
        for (uint32_t i = 0; i < mb; ++i) {  // A fractal (i, kb0 + j) -> L0A (i, j)
          LoadData2DParams l;
          l.startIndex = static_cast<uint16_t>(kb0 * mb + i);
          l.repeatTimes = static_cast<uint8_t>(kb);
          l.srcStride = static_cast<uint16_t>(mb);
          LoadData(a2[i * kb * 16 * C0], a1, l);
        }
        buf_->qa2.EnQue(a2);
        LocalTensor<SrcT> b2 = buf_->qb2.template AllocTensor<SrcT>();
        load_b_fractals(b2, b1, static_cast<uint32_t>(kk0), kb, nb, kcp_rows);
        buf_->qb2.EnQue(b2);
        a2 = buf_->qa2.template DeQue<SrcT>();
        b2 = buf_->qb2.template DeQue<SrcT>();
        MmadParams mp;
        mp.m = static_cast<uint16_t>(cur_m);
        mp.n = static_cast<uint16_t>(n_mmad);
        mp.k = static_cast<uint16_t>(cur_k);
        const bool first = kc == 0 && kk0 == 0;
        mp.cmatrixInitVal = first && !has_bias_;
        mp.cmatrixSource = first && has_bias_;
        if (has_bias_) {
          Mmad(c, a2, b2, bt, mp);
        } else {
          Mmad(c, a2, b2, mp);
        }
        buf_->qa2.FreeTensor(a2);
        buf_->qb2.FreeTensor(b2);
      }
      if (keep) {
        a_cache_ = a1;
        cached_a_ = mi;
        b_cache_ = b1;
        cached_b_ = ni;
      } else {
        buf_->qa1.FreeTensor(a1);
        buf_->qb1.FreeTensor(b1);
      }
    }
    if (has_bias_) buf_->qbt.FreeTensor(bt);
    buf_->qc1.EnQue(c);
    c = buf_->qc1.template DeQue<AccT>();
    FixpipeParamsV220 f;
    f.mSize = static_cast<uint16_t>(cur_m);
    f.nSize = static_cast<uint16_t>(cur_n);
    f.srcStride = static_cast<uint16_t>(up16(cur_m));
    f.dstStride = static_cast<uint32_t>(org_n_);
    GlobalTensor<DstT> out = gm[uint64_t(m0) * org_n_ + n0];
    if constexpr (kInt8) {
      f.quantPre = quant_ == Quant::Vector ? VDEQF16 : quant_ == Quant::Scalar ? DEQF16 : NoQuant;
      f.deqScalar = quant_scalar_;
    } else {
      f.quantPre = std::is_same_v<DstT, half>         ? F322F16
                   : std::is_same_v<DstT, bfloat16_t> ? F322BF16
                                                      : NoQuant;
    }
    if (quant_ == Quant::Vector) {
      Fixpipe(out, c, scale, f);
      buf_->qscale1.FreeTensor(scale);
    } else {
      Fixpipe(out, c, f);
    }
    buf_->qc1.FreeTensor(c);
  }
  // B's fractals for K rows [k0, k0 + kb * C0) of the chunk into L0B: (kb, nb), n-major inside.
  void load_b_fractals(const LocalTensor<SrcT>& b2, const LocalTensor<SrcT>& b1, uint32_t k0,
                       uint32_t kb, uint32_t nb, uint32_t kcp_rows) {
    if constexpr (kInt8) {
      // b8: per 32-row K block j, the 32 x 32 squares of each 32-column block of the chunk
      // (fractals k0/16 + 2j and the next, srcStride apart) -> L0B fractals (j, 2c) and (j, 2c+1).
      for (uint32_t j = 0; j < kb; ++j) {
        LoadData2dTransposeParams l;
        l.startIndex = static_cast<uint16_t>(k0 / 16 + 2 * j);
        l.repeatTimes = static_cast<uint8_t>(nb / 2);
        l.srcStride = static_cast<uint16_t>(kcp_rows / 16);
        l.dstGap = 1;
        l.dstFracGap = 0;
        LoadDataWithTranspose(b2[j * nb * 512], b1, l);
      }
      return;
    }
    for (uint32_t j = 0; j < kb; ++j) {  // fractal (k0/16 + j, n) of L1 -> (j, n), transposed
      LoadData2DParams l;
      l.startIndex = static_cast<uint16_t>(k0 / 16 + j);
      l.repeatTimes = static_cast<uint8_t>(nb);
      l.srcStride = static_cast<uint16_t>(kcp_rows / 16);
      l.ifTranspose = true;
      LoadData(b2[j * nb * 256], b1, l);
    }
  }

  TCubeTiling t_;
  uint32_t chunk_k_ = 0;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  GlobalTensor<SrcT> a_, b_;
  GlobalTensor<BiasT> bias_;
  bool has_bias_ = false;
  enum class Quant { None, Scalar, Vector } quant_ = Quant::None;
  uint64_t quant_scalar_ = 0;
  GlobalTensor<uint64_t> quant_tensor_;
  MatmulBuffers own_;
  MatmulBuffers* buf_ = &own_;
  LocalTensor<SrcT> a_cache_, b_cache_;
  int cached_a_ = -1, cached_b_ = -1;
};

}  // namespace matmul
using matmul::Matmul;

}  // namespace AscendC

// Ascend C's registration of Matmul objects: here each takes its tiling and the kernel's TPipe.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
  ::AscendC::detail::regist_matmul((tpipe), (workspace), __VA_ARGS__)

namespace AscendC::detail {
template <class MM>
void regist_matmul(TPipe* pipe, GM_ADDR, MM& mm, const TCubeTiling* tiling) {
  if (IsAic()) mm.Init(tiling, pipe);
}
// Two objects share one buffer set sized for both tilings (they run one after the other).
template <class MM1, class MM2>
void regist_matmul(TPipe* pipe, GM_ADDR, MM1& a, const TCubeTiling* ta, MM2& b,
                   const TCubeTiling* tb) {
  if (!IsAic()) return;
  if (!ta || !tb) matmul_fault("REGIST_MATMUL_OBJ without a tiling");
  const MatmulBuffers::Sizes both = MM2::sizes(*tb);
  a.Init(ta, pipe, nullptr, &both);
  b.Init(tb, pipe, &a.buffers());
}
}  // namespace AscendC::detail

// The host side: MatmulApiTiling's role, reduced to what the kernels here use.
namespace matmul_tiling {

enum class DataType { DT_FLOAT16, DT_BF16, DT_INT8, DT_FLOAT, DT_INT32 };
enum class TPosition { GM, VECIN, VECOUT, TSCM };
enum class CubeFormat { ND, NZ };

// The buffers one AIC has (bytes) and what the tiling must respect.
struct CubeLimits {
  uint32_t l1 = 512 * 1024, l0a = 64 * 1024, l0b = 64 * 1024, l0c = 128 * 1024, bt = 1024;
};

class MatmulApiTiling {
 public:
  explicit MatmulApiTiling(CubeLimits limits = {}) : lim_(limits) {}
  void SetAType(TPosition, CubeFormat, DataType t, bool trans = false) {
    a_ = t;
    trans_a_ = trans;
  }
  void SetBType(TPosition, CubeFormat, DataType t, bool trans = false) {
    b_ = t;
    trans_b_ = trans;
  }
  void SetCType(TPosition, CubeFormat, DataType t) { c_ = t; }
  void SetBiasType(TPosition, CubeFormat, DataType t) { bias_type_ = t; }
  void SetShape(int m, int n, int k) {
    m_ = m;
    n_ = n;
    k_ = k;
  }
  void SetOrgShape(int m, int n, int k) {
    org_m_ = m;
    org_n_ = n;
    org_k_ = k;
  }
  void EnableBias(bool on) { bias_ = on; }
  void SetBias(bool on) { bias_ = on; }
  // Fixes baseM/baseN (and baseK when > 0); -1 keeps the tiling's choice.
  void SetFixSplit(int baseM = -1, int baseN = -1, int baseK = -1) {
    fix_m_ = baseM;
    fix_n_ = baseN;
    fix_k_ = baseK;
  }
  void SetBufferSpace(int l1 = -1, int l0c = -1, int ub = -1, int bt = -1) {
    (void)ub;
    if (l1 > 0) lim_.l1 = static_cast<uint32_t>(l1);
    if (l0c > 0) lim_.l0c = static_cast<uint32_t>(l0c);
    if (bt > 0) lim_.bt = static_cast<uint32_t>(bt);
  }
  void SetTraverse(int order) { order_ = order; }  // 0: FIRSTM, 1: FIRSTN
  void SetDim(int cores) { cores_ = cores; }
  void SetDoubleBuffer(bool, bool, bool, bool, bool = false, bool = false) {}
  // Fills `t`; -1 (and why, in error()) when the shape or a fixed split breaks a limit.
  int64_t GetTiling(AscendC::TCubeTiling& t);
  const std::string& error() const { return error_; }

 private:
  static uint32_t size_of(DataType t) {
    return t == DataType::DT_INT8 ? 1 : t == DataType::DT_FLOAT || t == DataType::DT_INT32 ? 4 : 2;
  }
  CubeLimits lim_;
  DataType a_ = DataType::DT_FLOAT16, b_ = DataType::DT_FLOAT16, c_ = DataType::DT_FLOAT16,
           bias_type_ = DataType::DT_FLOAT;
  bool trans_a_ = false, trans_b_ = false, bias_ = false;
  int m_ = 0, n_ = 0, k_ = 0, org_m_ = 0, org_n_ = 0, org_k_ = 0;
  int fix_m_ = -1, fix_n_ = -1, fix_k_ = -1, order_ = 0, cores_ = 1;
  std::string error_;
};

}  // namespace matmul_tiling
