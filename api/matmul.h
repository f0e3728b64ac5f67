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
//
// Who calls it. In a launch of AICs only, with MatmulConfig::enableMixDualMaster, or in a kernel
// file that defines ASCENDC_CUBE_ONLY (each kind runs its own code, ordered by SyncAll or
// cross-core flags), the API runs on the AIC that calls it. In a mixed launch otherwise (Ascend
// C's default), the AIVs drive it: REGIST_MATMUL_OBJ makes the AIC a server that runs the Matmul
// calls its AIVs send it as messages (KFC) until each of them is done, and the kernel's AIC part
// ends there. A message costs what it does on the
// hardware: the sender's scalar writes it to GM (scalar.gm_latency_cycles), a cross-core
// flag tells the other core (crosscore.flag_cycles), whose scalar reads it from GM
// (scalar.gm_latency_cycles). C reaches an AIV's UB through GM, as on dav-2201, which has no
// L0C -> UB path: FIX writes the block to GM, the AIV's MTE2 reads it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "api/cube.h"
#include "api/matmul_config.h"
#include "api/sync.h"
#include "api/tpipe.h"

namespace AscendC {

enum class CubeFormat { ND, NZ, ND_ALIGN, VECTOR };

// What the host tiling hands the kernel: TCubeTiling's fields, in Ascend C's order (a kernel
// copies the struct word by word from the buffer the host's optiling::TCubeTiling serialized,
// tiling/tiling_api.h), with the defaults the Matmul API assumes. X(type, name, default).
// clang-format off
#define ASCEND_SIM_TCUBE_TILING_FIELDS(X)                                                          \
  X(int32_t, usedCoreNum, 1)                                                                      \
  X(int32_t, M, 0) X(int32_t, N, 0) X(int32_t, Ka, 0) X(int32_t, Kb, 0)                            \
  X(int32_t, singleCoreM, 0) X(int32_t, singleCoreN, 0) X(int32_t, singleCoreK, 0)                 \
  X(int32_t, baseM, 0) X(int32_t, baseN, 0) X(int32_t, baseK, 0)                                   \
  X(int32_t, depthA1, 2) X(int32_t, depthB1, 2) X(int32_t, stepM, 1) X(int32_t, stepN, 1)          \
  X(int32_t, isBias, 0) X(int32_t, transLength, 0)                                                \
  X(int32_t, iterateOrder, 0) /* 0: along M first (m inner), 1: along N first */                  \
  X(int32_t, shareMode, 0) X(int32_t, shareL1Size, 0) X(int32_t, shareL0CSize, 0)                  \
  X(int32_t, shareUbSize, 0) X(int32_t, batchM, 0) X(int32_t, batchN, 0)                           \
  X(int32_t, singleBatchM, 0) X(int32_t, singleBatchN, 0) X(int32_t, stepKa, 1)                    \
  X(int32_t, stepKb, 1) X(int32_t, depthAL1CacheUB, 0) X(int32_t, depthBL1CacheUB, 0)              \
  X(int32_t, dbL0A, 2) X(int32_t, dbL0B, 2) X(int32_t, dbL0C, 1)                                   \
  X(int32_t, ALayoutInfoB, 0) X(int32_t, ALayoutInfoS, 0) X(int32_t, ALayoutInfoN, 0)              \
  X(int32_t, ALayoutInfoG, 0) X(int32_t, ALayoutInfoD, 0) X(int32_t, BLayoutInfoB, 0)              \
  X(int32_t, BLayoutInfoS, 0) X(int32_t, BLayoutInfoN, 0) X(int32_t, BLayoutInfoG, 0)              \
  X(int32_t, BLayoutInfoD, 0) X(int32_t, CLayoutInfoB, 0) X(int32_t, CLayoutInfoS1, 0)             \
  X(int32_t, CLayoutInfoN, 0) X(int32_t, CLayoutInfoG, 0) X(int32_t, CLayoutInfoS2, 0)             \
  X(int32_t, BatchNum, 0) X(int32_t, mxTypePara, 0)
// clang-format on

struct TCubeTiling {
#define ASCEND_SIM_TCUBE_FIELD(type, name, init) type name = init;
  ASCEND_SIM_TCUBE_TILING_FIELDS(ASCEND_SIM_TCUBE_FIELD)
#undef ASCEND_SIM_TCUBE_FIELD
};

namespace tiling {
using TCubeTiling = ::AscendC::TCubeTiling;  // the name the newer examples use
}

// How a batched operand is laid out (NONE: one matrix). NORMAL: the batch's matrices one after
// another; BSNGD: [B, S, N, G, D], matrix (b, n, g) of S rows of D, its rows N x G x D apart. The
// others are not modelled.
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

// The type a Matmul of T inputs accumulates in, in L0C (Ascend C API: GetMmDstType): int32 for
// int8, fp32 otherwise.
template <class T>
struct GetMmDstType {
  using Type = float;
};
template <>
struct GetMmDstType<int8_t> {
  using Type = int32_t;
};
namespace Impl {
constexpr int32_t QUEUE_DEPTH = 1;  // the queue depth the Matmul API's examples use for CO1
}

namespace matmul {
// IBSHARE (an operand's L1 copy shared by the AIVs of an AI Core) is accepted: it changes how
// often the AIC loads it, not what C is; the model loads it as for an unshared operand.
template <TPosition POS, CubeFormat FORMAT, class TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
  static_assert(LAYOUT == LayoutMode::NONE || LAYOUT == LayoutMode::NORMAL ||
                    LAYOUT == LayoutMode::BSNGD,
                "ascend-sim: the batched MatmulType layouts SBNGD and BNGS1S2 are not modelled");
  using Type = TYPE;
  using T = TYPE;
  static constexpr LayoutMode layout = LAYOUT;
  static constexpr TPosition pos = POS;
  static constexpr CubeFormat format = FORMAT;
  static constexpr bool isTrans = ISTRANS;
  static constexpr bool ibShare = IBSHARE;
};
}  // namespace matmul
using matmul::MatmulType;

// The user's own copies that replace the Matmul's (Ascend C API: MatmulCallBackFunc): CopyA1 fills
// A's L1 block (row, col: its index along M and K; useM x useK elements), CopyB1 B's (along K and
// N), each in the NZ layout the Matmul's own copy writes; tilingPtr and dataPtr are what
// SetUserDefInfo and SetSelfDefineData set. A null pointer keeps the Matmul's copy.
template <
    void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                        const void* dataCopyOutParams, const uint64_t tilingPtr,
                        const uint64_t dataPtr) = nullptr,
    void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                   int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
    void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                   int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
  static constexpr auto DataCopyOutPtr = DataCopyOut;
  static constexpr auto CopyA1Ptr = CopyA1;
  static constexpr auto CopyB1Ptr = CopyB1;
};

// Ascend C's Matmul policies (MATMUL_POLICY): which of them the model knows, by kind. NBuffer33
// changes only how A is staged in L1 (the model runs its one schedule); the triangular ones
// compute only the blocks of C on and above (Upper) or on and below (Lower) the block diagonal
// of the single-core shape, and leave the others in GM as they were.
enum class MatmulPolicyKind { Default, NBuffer33, TrianUpper, TrianLower };
namespace Impl::Detail {
template <const auto& MM_CFG, class IMPL, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
struct MatmulPolicy {
  static constexpr MatmulPolicyKind kAscendSimKind = MatmulPolicyKind::Default;
};
template <const auto& MM_CFG, class IMPL, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
struct NBuffer33MatmulPolicy {
  static constexpr MatmulPolicyKind kAscendSimKind = MatmulPolicyKind::NBuffer33;
};
template <const auto& MM_CFG, class IMPL, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
struct TrianUpperMatmulPolicy {
  static constexpr MatmulPolicyKind kAscendSimKind = MatmulPolicyKind::TrianUpper;
};
template <const auto& MM_CFG, class IMPL, class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
struct TrianLowerMatmulPolicy {
  static constexpr MatmulPolicyKind kAscendSimKind = MatmulPolicyKind::TrianLower;
};
}  // namespace Impl::Detail

// A tiling fixed at compile time (Ascend C API: MatmulApiStaticTiling, from GetMatmulApiTiling):
// TCubeTiling's fields that the config determines, and the config. A field of -1 is not fixed:
// it comes from the tiling REGIST_MATMUL_OBJ is given.
// clang-format off
#define ASCEND_SIM_STATIC_TILING_FIELDS(X)                                                         \
  X(M) X(N) X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK)   \
  X(depthA1) X(depthB1) X(stepM) X(stepN) X(stepKa) X(stepKb) X(isBias) X(transLength)             \
  X(iterateOrder) X(dbL0A) X(dbL0B) X(dbL0C) X(shareMode) X(shareL1Size) X(shareL0CSize)           \
  X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) X(singleBatchN) X(mxTypePara)
// clang-format on
struct MatmulApiStaticTiling {
#define ASCEND_SIM_STATIC_FIELD(name) int32_t name = -1;
  ASCEND_SIM_STATIC_TILING_FIELDS(ASCEND_SIM_STATIC_FIELD)
#undef ASCEND_SIM_STATIC_FIELD
  MatmulConfig cfg;
};

// The constant tiling of `mmCFG` (its basicM/N/K and, when all set, singleCoreM/N/K): stepKa =
// stepKb K steps per L1 chunk, as many as fit `l1Size` double-buffered (at most 4 and no more
// than K needs), one baseM x baseN block per step of M and N.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   int32_t l1Size = 512 * 1024) {
  MatmulApiStaticTiling st;
  st.cfg = mmCFG;
  if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return st;
  const int32_t bm = static_cast<int32_t>(mmCFG.basicM), bn = static_cast<int32_t>(mmCFG.basicN),
                bk = static_cast<int32_t>(mmCFG.basicK);
  st.baseM = bm;
  st.baseN = bn;
  st.baseK = bk;
  const bool single = mmCFG.singleCoreM && mmCFG.singleCoreN && mmCFG.singleCoreK;
  if (single) {
    st.M = st.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
    st.N = st.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
    st.Ka = st.Kb = st.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  }
  const int32_t sa = static_cast<int32_t>(sizeof(typename A_TYPE::Type));
  const int32_t bias =
      mmCFG.enableSetBias ? bn * static_cast<int32_t>(sizeof(typename BIAS_TYPE::Type)) : 0;
  int32_t step = (l1Size - bias) / (2 * (bm + bn) * bk * sa);
  if (step > 4) step = 4;
  if (single && step > (st.singleCoreK + bk - 1) / bk) step = (st.singleCoreK + bk - 1) / bk;
  if (step < 1) step = 1;
  st.stepKa = st.stepKb = step;
  st.depthA1 = st.depthB1 = 2 * step;
  st.stepM = st.stepN = 1;
  st.isBias = mmCFG.enableSetBias ? 1 : 0;
  if (mmCFG.iterateOrder != IterateOrder::UNDEF)
    st.iterateOrder = static_cast<int32_t>(mmCFG.iterateOrder);
  // L0A and L0B (64 KB each) double-buffer the base blocks that fit twice.
  st.dbL0A = bm * bk * sa * 2 <= 64 * 1024 ? 2 : 1;
  st.dbL0B = bn * bk * sa * 2 <= 64 * 1024 ? 2 : 1;
  st.dbL0C = 1;
  return st;
}

namespace detail {
// The MatmulConfig of a Matmul's MM_CFG argument: a MatmulConfig, or a static tiling's.
constexpr const MatmulConfig& mm_config_of(const MatmulConfig& c) {
  return c;
}
constexpr const MatmulConfig& mm_config_of(const MatmulApiStaticTiling& s) {
  return s.cfg;
}
}  // namespace detail

// Integer helpers of the Matmul API's headers that kernels use too: num1 / num2 rounded up, and
// num1 rounded up to a multiple of num2.
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
constexpr T Ceil(T num1, T num2) {
  return (num1 + num2 - 1) / num2;
}
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
constexpr T CeilAlign(T num1, T num2) {
  return Ceil(num1, num2) * num2;
}

namespace detail {
void matmul_fault(const std::string& what);
// Prints `what` on stderr the first time this process meets it.
void note_once(const char* what);

// A Matmul call an AIV sends its AIC (KFC), with a copy of the object's settings (tensors, shapes,
// quantization) as they stood when it was sent.
struct KfcMessage {
  enum class Op : uint8_t {
    IterateAll,
    IterateBatch,
    Iterate,
    IterateAsync,
    GetTensorC,  // to GM: the block the last Iterate left in L0C (partial output)
    End,
    Quit
  };
  Op op = Op::Quit;
  int object = 0;  // which registered Matmul object
  int sub = 0;     // the sending AIV's index in its AI Core
  bool sync = true;
  uint64_t arrival = 0;  // simulated time at which the AIC's flag rises (ps)
  std::shared_ptr<const void> settings;
  const std::type_info* type = nullptr;  // of the settings: the same Matmul type on both sides
};
// An AI Core's mailbox: the messages sent to its AIC and not yet taken, its answers to each AIV,
// and the GM its AIVs' blocks of C pass through (GetTensorC to UB).
struct KfcChannel {
  std::vector<KfcMessage> requests;
  std::vector<std::vector<int64_t>> answers;  // per AIV, in order
  uint64_t staging = 0, staging_slot = 0;     // GM, one slot of bytes per AIV
  int objects = -1;                           // registered on the AIC (-1: not yet)
};
// The mailbox of `aic`'s AI Core (made at first use, by whichever core comes first).
KfcChannel& kfc_channel(ascend::model::Core& aic);
// Whether REGIST_MATMUL_OBJ makes the AIC a server: a mixed launch, and no dual-master config.
bool kfc_mode(bool dual_master);
// An AIV: sends `msg` to its AIC (the message written to GM, then the AIC's request flag).
void kfc_send(KfcMessage msg);
// An AIV: waits for its AIC's next answer and reads it from GM.
int64_t kfc_answer();
// An AIV: waits until its AIC's asynchronous Iterate has written one more block of C.
void kfc_wait_block();
// The AIC: waits for the earliest message of its AIVs and reads it from GM.
KfcMessage kfc_receive();
// The AIC: answers AIV `sub` (written to GM, then the AIV's reply flag).
void kfc_answer_to(int sub, int64_t value);
// The AIC: AIV `sub`'s block flag rises once `pipe`'s earlier instructions are done.
void kfc_block_written(int sub, pipe_t pipe);
// The AIC: GM for one block of C per AIV, at least `slot` bytes each.
void kfc_reserve_staging(uint64_t slot);
}  // namespace detail

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
          const auto& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, class...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul {
  // MM_CFG: a MatmulConfig, or a MatmulApiStaticTiling whose fixed fields override the tiling's.
  static constexpr const MatmulConfig& kCfg = detail::mm_config_of(MM_CFG);
  static constexpr bool kStatic =
      std::is_same_v<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>;
  static constexpr MatmulPolicyKind kPolicy =
      MATMUL_POLICY<MM_CFG, void, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>::kAscendSimKind;
  static constexpr bool kTriangle =
      kPolicy == MatmulPolicyKind::TrianUpper || kPolicy == MatmulPolicyKind::TrianLower;
  static_assert(MM_CB::DataCopyOutPtr == nullptr,
                "ascend-sim: a MatmulCallBackFunc DataCopyOut (the user's L0C -> GM copy) is not "
                "modelled");
  using SrcT = typename A_TYPE::Type;
  using DstT = typename C_TYPE::Type;
  using BiasT = typename BIAS_TYPE::Type;
  static constexpr bool kInt8 = std::is_same_v<SrcT, int8_t>;
  using AccT = std::conditional_t<kInt8, int32_t, float>;
  static constexpr uint32_t C0 = 32 / sizeof(SrcT);
  static_assert(std::is_same_v<SrcT, typename B_TYPE::Type>, "Matmul: A and B of one type");
  // Formats: A in ND (or VECTOR: one row), B in ND or NZ (not transposed: column blocks of C0
  // elements, each of orgKb rows padded to 16, as the vendor's weight layouts store it), the
  // bias in ND, C in ND, ND_ALIGN (its rows padded to 32 bytes in GM) or NZ (IterateAll only:
  // column blocks of 16, or of 8 with MatmulConfig::isEnableChannelSplit, each of orgM rows).
  // NZ A in GM is not modelled.
  static_assert(A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::VECTOR,
                "ascend-sim: the Matmul's A is modelled in ND or VECTOR format");
  static_assert((B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ) &&
                    BIAS_TYPE::format == CubeFormat::ND,
                "ascend-sim: the Matmul's B is modelled in ND or NZ format, its bias in ND");
  static constexpr bool kNzB = B_TYPE::format == CubeFormat::NZ;
  static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN ||
                    C_TYPE::format == CubeFormat::NZ,
                "ascend-sim: the Matmul's C is modelled in ND, ND_ALIGN or NZ format");
  static constexpr bool kNzC = C_TYPE::format == CubeFormat::NZ;
  // C in CO1: the user's L0C, filled by Iterate(enPartialSum, tensor) and read by their Fixpipe.
  static constexpr bool kCo1C = C_TYPE::pos == TPosition::CO1;
  static_assert(!kCo1C || (kNzC && std::is_same_v<DstT, AccT>),
                "ascend-sim: a Matmul C in CO1 is NZ of the L0C type (GetMmDstType)");
  static_assert(std::is_same_v<SrcT, half> || std::is_same_v<SrcT, bfloat16_t> || kInt8,
                "ascend-sim: the Matmul API is modelled for half, bfloat16_t and int8_t A and B");
  static_assert(!kInt8 || std::is_same_v<DstT, half> || std::is_same_v<DstT, int32_t>,
                "ascend-sim: int8 Matmul writes int32 or fp16 (dequantized) C; bf16 C from int8 "
                "is not modelled");
  static_assert(!kInt8 || std::is_same_v<BiasT, int32_t>, "an int8 Matmul's bias is int32");

  // The config's fields that change what the Matmul computes or where it writes, and are not
  // modelled, stop the build; the ones that choose among Ascend C's schedules are accepted and
  // the one schedule above runs, with a note (kScheduleNote) once per run.
  // Partial output: each Iterate one baseK step's product, taken by GetTensorC into GM (from an
  // AIV driving its AIC); IterateAll and the other paths of such an object are not modelled.
  static_assert(!kCfg.intraBlockPartSum,
                "ascend-sim: MatmulConfig::intraBlockPartSum is not modelled");
  // Channel split: fp32 C in NZ of 16 x 8 fractals (the dav-2201 API reference, MatmulConfig).
  static_assert(
      !kCfg.isEnableChannelSplit ||
          (kNzC && std::is_same_v<DstT, float> && !kInt8 && C_TYPE::pos == TPosition::GM),
      "ascend-sim: MatmulConfig::isEnableChannelSplit needs an fp32 C in NZ format in GM");
  static constexpr bool kSplit = kCfg.isEnableChannelSplit;
  static_assert(!kCfg.enableRelu, "ascend-sim: MatmulConfig::enableRelu is not modelled");
  static_assert(kCfg.decompMode == DecompressionMode::DECOMP_NONE,
                "ascend-sim: MatmulConfig::decompMode is not modelled");
  static_assert(kCfg.bmmOutMode == BatchOutMode::SINGLE_BATCH,
                "ascend-sim: the batch Matmul's MatmulConfig::bmmOutMode is not modelled");
  static_assert(!kCfg.isCO1Shared, "ascend-sim: MatmulConfig::isCO1Shared is not modelled");
  static constexpr const char* kScheduleNote =
      kPolicy == MatmulPolicyKind::NBuffer33
          ? "ascend-sim: note: a Matmul with NBuffer33MatmulPolicy is timed with ascend-sim's one "
            "Matmul schedule (docs/guides/own-kernel.md)"
      : kCfg.doMultiDataLoad || kCfg.doSpecialMDL
          ? "ascend-sim: note: a Matmul with the MDL config is timed with ascend-sim's one "
            "Matmul schedule (K chunks of stepKa x baseK per block; docs/guides/own-kernel.md)"
      : kCfg.doBasicBlock || kCfg.doSpecialBasicBlock || kCfg.doIBShareNorm
          ? "ascend-sim: note: a Matmul with the BasicBlock or IBShare config is timed with "
            "ascend-sim's one Matmul schedule (docs/guides/own-kernel.md)"
      : kCfg.doMTE2Preload != 0 || kCfg.isA2B2Shared || kCfg.enableKdimReorderLoad ||
              kCfg.enableDoubleCache || kCfg.enableL1CacheUB ||
              kCfg.scheduleType != ScheduleType::INNER_PRODUCT || kCfg.enableL1BankConflictOptimise
          ? "ascend-sim: note: a Matmul config's schedule options (preload, shared A2/B2, K "
            "reorder, L1 caching, outer product, ...) are not modelled: it is timed with "
            "ascend-sim's one Matmul schedule (docs/guides/own-kernel.md)"
          : nullptr;

 public:
  static constexpr bool kDualMaster = kCfg.enableMixDualMaster;

  Matmul() = default;
  Matmul(const Matmul&) = delete;
  Matmul& operator=(const Matmul&) = delete;
  // An AIV's object tells its AIC it is done when it goes (Ascend C's client does the same as the
  // kernel's scope ends); not while a fault unwinds the kernel.
  ~Matmul() {
    if (role_ != Role::Client || std::uncaught_exceptions() > 0) return;
    detail::KfcMessage msg;
    msg.op = detail::KfcMessage::Op::Quit;
    msg.object = object_;
    detail::kfc_send(std::move(msg));
  }

  // REGIST_MATMUL_OBJ: the tiling, and the TPipe whose L1/L0 the object takes (an AIV driving its
  // AIC may call Init again after it, with the same tiling: its shapes start again). With `shared`,
  // the object uses another object's buffers (allocated for both tilings): the Matmul objects of
  // one kernel run one after another on the AIC, so they share L1 and L0 as in Ascend C.
  // `reserve`: allocate at least these sizes (for another object that will share them).
  void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr, MatmulBuffers* shared = nullptr,
            const MatmulBuffers::Sizes* reserve = nullptr) {
    if (role_ == Role::Client) {  // an AIV's Init after REGIST_MATMUL_OBJ
      const TCubeTiling registered = t_;
      InitClient(tiling, object_);
      if (std::memcmp(&registered, &t_, sizeof(t_)) != 0)
        detail::matmul_fault(
            "Init on an AIV with another tiling than REGIST_MATMUL_OBJ's (its AIC keeps that one) "
            "is not modelled");
      return;
    }
    detail::require_aic("Matmul::Init");
    check_tiling(tiling);
    chunk_k_ = static_cast<uint32_t>(std::min(t_.stepKa, t_.stepKb) * t_.baseK);
    const MatmulBuffers::Sizes need = sizes(t_);
    if (shared) {
      if (!shared->holds(need))
        detail::matmul_fault("a shared Matmul buffer set is smaller than this object's tiling");
      buf_ = shared;
    } else {
      own_.init(tpipe ? tpipe : GetTPipePtr(), reserve ? need.max(*reserve) : need);
      buf_ = &own_;
    }
    role_ = Role::Local;
    reset_shapes();
  }
  // REGIST_MATMUL_OBJ on an AIV whose AIC serves it: object `object` of the registration.
  void InitClient(const TCubeTiling* tiling, int object) {
    check_tiling(tiling);
    role_ = Role::Client;
    object_ = object;
    reset_shapes();
  }
  // The tiling the object runs: REGIST_MATMUL_OBJ's, with a static tiling's fixed fields over it
  // (with no tiling given, the static tiling must fix the single-core and base shapes).
  static TCubeTiling effective_tiling(const TCubeTiling* tiling) {
    if constexpr (kStatic) {
      if (!tiling && (MM_CFG.singleCoreM <= 0 || MM_CFG.singleCoreN <= 0 ||
                      MM_CFG.singleCoreK <= 0 || MM_CFG.baseM <= 0))
        detail::matmul_fault(
            "REGIST_MATMUL_OBJ without a tiling needs a MatmulApiStaticTiling whose config sets "
            "singleCoreM/N/K and basicM/N/K");
      TCubeTiling t = tiling ? *tiling : TCubeTiling{};
      // The problem's shape (M, N, Ka, Kb) stays the given tiling's.
      const TCubeTiling given = t;
#define ASCEND_SIM_STATIC_OVERRIDE(name) \
  if (MM_CFG.name >= 0) t.name = MM_CFG.name;
      ASCEND_SIM_STATIC_TILING_FIELDS(ASCEND_SIM_STATIC_OVERRIDE)
#undef ASCEND_SIM_STATIC_OVERRIDE
      if (tiling) {
        t.M = given.M;
        t.N = given.N;
        t.Ka = given.Ka;
        t.Kb = given.Kb;
      }
      return t;
    } else {
      if (!tiling) detail::matmul_fault("Init without a tiling");
      return *tiling;
    }
  }
  // The bytes this object's tiling needs in each of its buffers.
  static MatmulBuffers::Sizes sizes(const TCubeTiling& t) {
    const uint32_t ck = static_cast<uint32_t>(std::min(t.stepKa, t.stepKb) * t.baseK),
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
    // Partial output: the AIC holds one block in L0C for each of its two AIVs until their
    // GetTensorC.
    z.db_c1 = static_cast<uint8_t>(kCfg.isPartialOutput ? std::max(t.dbL0C, 2) : t.dbL0C);
    return z;
  }
  // One block of C in bytes (what GetTensorC hands over).
  uint64_t block_bytes() const {
    return uint64_t(t_.baseM) * t_.baseN * sizeof(DstT);
  }
  MatmulBuffers& buffers() {
    return *buf_;
  }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb = 0) {
    s_.org_m = orgM;
    s_.org_n = orgN;
    s_.org_ka = orgKa;
    s_.org_kb = orgKb > 0 ? orgKb : orgKa;
  }
  void SetSingleShape(int m, int n, int k) {
    s_.single_m = m;
    s_.single_n = n;
    s_.single_k = k;
  }
  void SetTail(int m = -1, int n = -1, int k = -1) {
    if (m > 0) s_.single_m = m;
    if (n > 0) s_.single_n = n;
    if (k > 0) s_.single_k = k;
  }
  // A transposed in GM is K x M (rows of orgM), B transposed N x K (rows of orgKb); b16 only.
  void SetTensorA(const GlobalTensor<SrcT>& gm, bool isTransposeA = false) {
    if (isTransposeA && kInt8) detail::matmul_fault("a transposed int8 A is not modelled");
    s_.a = gm;
    s_.trans_a = isTransposeA;
  }
  void SetTensorB(const GlobalTensor<SrcT>& gm, bool isTransposeB = false) {
    if (isTransposeB && kInt8) detail::matmul_fault("a transposed int8 B is not modelled");
    if (isTransposeB && kNzB) detail::matmul_fault("a transposed B in NZ format is not modelled");
    s_.b = gm;
    s_.trans_b = isTransposeB;
  }
  void SetBias(const GlobalTensor<BiasT>& gm) {
    if (!t_.isBias) detail::matmul_fault("SetBias with a tiling whose isBias is 0");
    s_.bias = gm;
    s_.has_bias = true;
  }
  void DisableBias() {
    s_.has_bias = false;
  }
  void ClearBias() {
    s_.has_bias = false;
  }
  // int8 -> fp16: one dequantization scale for every column (DEQF16; the fp32 scale in the low 32
  // bits), or one per column of C, uint64 in GM (VDEQF16), indexed like B's columns.
  void SetQuantScalar(uint64_t quantScalar) {
    if (!kInt8) detail::matmul_fault("SetQuantScalar on a Matmul whose A and B are not int8");
    s_.quant = Quant::Scalar;
    s_.quant_scalar = quantScalar;
  }
  void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
    if (!kInt8) detail::matmul_fault("SetQuantVector on a Matmul whose A and B are not int8");
    s_.quant = Quant::Vector;
    s_.quant_tensor = quantTensor;
  }
  // The GM an asynchronous Iterate<false> writes C's blocks into, one after another (baseM x
  // baseN each, rows of baseN), for GetTensorC<false> to take.
  void SetWorkspace(const GlobalTensor<DstT>& workspace) {
    s_.workspace = workspace;
    s_.has_workspace = true;
  }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    GlobalTensor<DstT> w;
    w.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(const_cast<T*>(addr)),
                      static_cast<uint64_t>(size) * sizeof(T) / sizeof(DstT));
    SetWorkspace(w);
  }
  // What the MatmulCallBackFunc copies receive as tilingPtr and dataPtr.
  void SetUserDefInfo(const uint64_t tilingPtr) {
    s_.user_info = tilingPtr;
  }
  void SetSelfDefineData(const uint64_t dataPtr) {
    s_.self_data = dataPtr;
  }
  // A UB work area (Atlas 200/500 A2 and 310P); dav-2201 needs none: accepted and unused.
  void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}

  // Computes C = A x B (+ bias) for the single-core shape into `gm` (row pitch N of SetOrgShape).
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    if (enAtomic > 3) detail::matmul_fault("IterateAll: enAtomic is 0 to 3");
    if (kCfg.isPartialOutput)
      detail::matmul_fault("IterateAll with MatmulConfig::isPartialOutput is not modelled");
    if (role_ == Role::Client) {
      Settings s = s_;
      s.dst = gm;
      s.atomic = enAtomic;
      send(detail::KfcMessage::Op::IterateAll, s, sync);
      if (sync)
        detail::kfc_answer();
      else
        ++async_all_;
      return;
    }
    run_all(gm, enAtomic);
    // The synchronous IterateAll returns once C is in GM: the scalar waits for the FIX pipe.
    if (sync) wait_fix();
  }
  // C = A x B (+ bias) for each matrix of a batch (Ascend C API: IterateBatch): batchA A's and
  // batchB B's of the single-core shape, laid out as their MatmulTypes say (NORMAL or BSNGD, with
  // the tiling's layout sizes); the fewer of them are broadcast (each to a run of batch
  // max / fewer matrices). The bias is one per matrix with MatmulConfig::isBiasBatch, else shared.
  // A matrix stride (the optional arguments) other than the layout's is not modelled.
  void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB,
                    bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    (void)enSequentialWrite;
    batch_call(gm, batchA, batchB, 1, matrixStrideA, matrixStrideB, matrixStrideC, enPartialSum,
               enAtomic);
  }
  // IterateBatch's and IterateNBatch's work: `loops` batches, on the AIC or sent to it.
  void batch_call(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, int loops,
                  uint32_t matrixStrideA, uint32_t matrixStrideB, uint32_t matrixStrideC,
                  bool enPartialSum, uint8_t enAtomic) {
    if (matrixStrideA || matrixStrideB || matrixStrideC || enPartialSum || enAtomic)
      detail::matmul_fault(
          "IterateBatch with matrix strides, enPartialSum or atomic accumulation is not modelled");
    if (batchA == 0 || batchB == 0 || std::max(batchA, batchB) % std::min(batchA, batchB) != 0)
      detail::matmul_fault("IterateBatch of " + std::to_string(batchA) + " A's and " +
                           std::to_string(batchB) + " B's (the fewer must divide the more)");
    if (role_ == Role::Client) {
      Settings s = s_;
      s.dst = gm;
      s.batch_a = static_cast<int>(batchA);
      s.batch_b = static_cast<int>(batchB);
      s.batch_loops = loops;
      send(detail::KfcMessage::Op::IterateBatch, s, true);
      detail::kfc_answer();
      return;
    }
    run_batch(gm, static_cast<int>(batchA), static_cast<int>(batchB), loops);
    wait_fix();
  }
  // batchLoop IterateBatch calls one after another into SetWorkspace's GM (laid out as C), each
  // of the batchA A's and batchB B's that follow the last (Ascend C API: IterateNBatch, with
  // MatmulConfig::isNBatch). The asynchronous form is not modelled.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                     bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                     const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
    static_assert(
        sync && !waitIterateBatch,
        "ascend-sim: the asynchronous IterateNBatch (and GetBatchTensorC) is not modelled");
    static_assert(kCfg.isNBatch, "IterateNBatch needs MatmulConfig::isNBatch");
    if (enSequentialWrite)
      detail::matmul_fault("IterateNBatch with enSequentialWrite is not modelled");
    if (!s_.has_workspace)
      detail::matmul_fault("IterateNBatch before SetWorkspace (its C goes there)");
    if (batchLoop == 0) return;
    batch_call(s_.workspace, batchA, batchB, static_cast<int>(batchLoop), matrixStrideA,
               matrixStrideB, matrixStrideC, false, 0);
  }
  // After IterateAll<false>: the scalar waits until C is in GM.
  void WaitIterateAll() {
    if (role_ == Role::Client) {
      if (async_all_ == 0) detail::matmul_fault("WaitIterateAll without an IterateAll<false>");
      --async_all_;
      detail::kfc_answer();
      return;
    }
    wait_fix();
  }
  // An AIV driving its AIC: the next baseM x baseN block of C (in iterateOrder). With `sync`, the
  // AIC computes it and writes it to GM for GetTensorC to take; false once every block has been.
  // Without `sync` (after SetWorkspace), the AIC computes every block into the workspace, and
  // GetTensorC<false> takes them in turn.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    if (enPartialSum) detail::matmul_fault("Iterate with enPartialSum is not modelled");
    if (kNzC) detail::matmul_fault("Iterate/GetTensorC with C in NZ format are not modelled");
    if (kTriangle)
      detail::matmul_fault(
          "Iterate with a triangular MatmulPolicy is not modelled (IterateAll is)");
    if (role_ != Role::Client)
      detail::matmul_fault(
          "Iterate/GetTensorC are modelled for an AIV driving its AIC (a mixed kernel without "
          "enableMixDualMaster); on the AIC itself use IterateAll");
    if constexpr (!sync) {
      if (kCfg.isPartialOutput)
        detail::matmul_fault("Iterate<false> with MatmulConfig::isPartialOutput is not modelled");
      if (!s_.has_workspace)
        detail::matmul_fault("Iterate<false> before SetWorkspace (the blocks of C go there)");
      send(detail::KfcMessage::Op::IterateAsync, s_, false);
      async_next_ = 0;
      async_blocks_ = blocks_of(s_);
      return true;
    } else {
      send(detail::KfcMessage::Op::Iterate, s_, true);
      staged_ = detail::kfc_answer();  // where the AIC wrote the block; 0: no block left
      return staged_ != 0;
    }
  }
  // On the AIC: the next baseM x baseN block of C (in iterateOrder) computed into the user's L0C
  // tensor `localCmatrix` (NZ, srcStride baseM rounded up to 16), for their own Fixpipe; false
  // once every block has been (the next call starts again). Ascend C API: Iterate, the form
  // with a user-managed CO1.
  template <bool sync = true, class T>
  bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix) {
    static_assert(std::is_same_v<T, AccT>, "Iterate: the L0C tensor is of the L0C type");
    static_assert(kCo1C, "ascend-sim: Iterate into a user's L0C needs C_TYPE in TPosition::CO1");
    if (!sync) detail::matmul_fault("Iterate<false> into a user's L0C is not modelled");
    if (enPartialSum) detail::matmul_fault("Iterate with enPartialSum is not modelled");
    if (role_ != Role::Local)
      detail::matmul_fault("Iterate into a user's L0C runs on the AIC that registered the Matmul");
    if (s_.quant != Quant::None)
      detail::matmul_fault("Iterate into a user's L0C: quantization is the user's Fixpipe's");
    int mi = 0, ni = 0;
    if (!next_block(local_iter_, &mi, &ni)) return false;
    // The block as the Mmad writes it: its rows to 16, its columns to 16 (int8: 32).
    const uint64_t rows =
                       up16(static_cast<uint32_t>(std::min(t_.baseM, s_.single_m - mi * t_.baseM))),
                   cols = CeilAlign(
                       static_cast<uint32_t>(std::min(t_.baseN, s_.single_n - ni * t_.baseN)),
                       kInt8 ? 32u : 16u);
    if (uint64_t(localCmatrix.GetSize()) < rows * cols)
      detail::matmul_fault("Iterate: a user L0C tensor of " +
                           std::to_string(localCmatrix.GetSize()) + " elements for a block of " +
                           std::to_string(rows * cols));
    compute(mi, ni, &localCmatrix);
    return true;
  }
  // Partial output (MatmulConfig::isPartialOutput): the block the last Iterate left in the AIC's
  // L0C (one baseK step's product), written by the AIC's FIX pipe into `gm`: at its place in C
  // (rows of N), or with enSequentialWrite as a baseM x baseN block at `gm` (rows of baseN);
  // added into GM with enAtomic 1. Ascend C API: GetTensorC to GM.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    static_assert(sync, "ascend-sim: the asynchronous GetTensorC into GM is not modelled");
    if (!kCfg.isPartialOutput)
      detail::matmul_fault(
          "GetTensorC into GM is modelled for MatmulConfig::isPartialOutput (IterateAll writes C "
          "into GM otherwise)");
    if (role_ != Role::Client)
      detail::matmul_fault(
          "GetTensorC into GM is modelled for an AIV driving its AIC (a mixed kernel)");
    if (staged_ == 0) detail::matmul_fault("GetTensorC without a block from Iterate");
    if (enAtomic > 1) detail::matmul_fault("GetTensorC: enAtomic 0 or 1 is modelled");
    staged_ = 0;
    Settings s = s_;
    s.dst = gm;
    s.atomic = enAtomic;
    s.sequential = enSequentialWrite;
    send(detail::KfcMessage::Op::GetTensorC, s, true);
    detail::kfc_answer();
  }
  // The block of C the last Iterate made, into UB (an AIV): rows of baseN, baseM of them. The
  // AIV's vector pipe may use it at once (the copy's flag pair is inside).
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& ub, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    if (enAtomic) detail::matmul_fault("GetTensorC with atomic accumulation is not modelled");
    if (kCfg.isPartialOutput)
      detail::matmul_fault("GetTensorC into UB with MatmulConfig::isPartialOutput is not modelled");
    if (role_ != Role::Client)
      detail::matmul_fault(
          "GetTensorC into UB is modelled for an AIV driving its AIC (a mixed kernel)");
    GlobalTensor<DstT> from;
    if constexpr (sync) {
      if (staged_ == 0) detail::matmul_fault("GetTensorC without a block from Iterate");
      from.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(static_cast<uintptr_t>(staged_)),
                           block_elems());
      staged_ = 0;
    } else {
      if (async_next_ >= async_blocks_)
        detail::matmul_fault("GetTensorC<false>: all " + std::to_string(async_blocks_) +
                             " blocks of the asynchronous Iterate have been taken");
      detail::kfc_wait_block();
      from = s_.workspace[uint64_t(async_next_++) * block_elems()];
    }
    if (uint64_t(ub.GetSize()) < block_elems())
      detail::matmul_fault("GetTensorC: a UB tensor of " + std::to_string(ub.GetSize()) +
                           " elements for a block of " + std::to_string(block_elems()));
    DataCopy(ub, from, static_cast<uint32_t>(block_elems()));
    if constexpr (sync) {
      // The AIC writes the next block into the same GM: the scalar asks for it only once this
      // block is in UB.
      const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
      SetFlag<HardEvent::MTE2_S>(id);
      WaitFlag<HardEvent::MTE2_S>(id);
    } else {
      const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
      SetFlag<HardEvent::MTE2_V>(id);
      WaitFlag<HardEvent::MTE2_V>(id);
    }
  }
  void End() {
    if (role_ == Role::Client) {
      send(detail::KfcMessage::Op::End, s_, false);
      return;
    }
    local_iter_ = -1;
    release_cache();
  }

  // ---- the AIC's side of an AIV-driven Matmul (detail::serve_matmul) ----
  // Runs one message of AIV `msg.sub`; false for Quit.
  bool Serve(const detail::KfcMessage& msg) {
    using Op = detail::KfcMessage::Op;
    if (msg.op == Op::Quit) return false;
    if (msg.type != &typeid(Settings))
      detail::matmul_fault("an AIV's Matmul object " + std::to_string(msg.object) +
                           " is not of the type its AIC registered");
    const Settings& s = *static_cast<const Settings*>(msg.settings.get());
    switch (msg.op) {
      case Op::IterateAll:
        s_ = s;
        run_all(s.dst, s.atomic);
        wait_fix();
        detail::kfc_answer_to(msg.sub, 0);
        break;
      case Op::IterateBatch:
        s_ = s;
        run_batch(s.dst, s.batch_a, s.batch_b, s.batch_loops);
        wait_fix();
        detail::kfc_answer_to(msg.sub, 0);
        break;
      case Op::Iterate:
        if constexpr (kCfg.isPartialOutput) {
          detail::kfc_answer_to(msg.sub, serve_partial(msg.sub, s));
        } else {
          detail::kfc_answer_to(msg.sub, serve_iterate(msg.sub, s));
        }
        break;
      case Op::GetTensorC:
        serve_get(msg.sub, s);
        detail::kfc_answer_to(msg.sub, 0);
        break;
      case Op::IterateAsync: {
        s_ = s;
        check_shapes();
        uint64_t k = 0;
        for_each_block([&](int mi, int ni) {
          Pending p = compute(mi, ni);
          fixpipe(p, s.workspace[k++ * block_elems()], static_cast<uint32_t>(t_.baseN));
          detail::kfc_block_written(msg.sub, PIPE_FIX);
        });
        release_cache();
        break;
      }
      case Op::End:
        release_cache();
        if (msg.sub < static_cast<int>(iter_.size())) iter_[msg.sub] = -1;
        if (msg.sub < static_cast<int>(held_.size()) && held_on_[msg.sub]) {
          buf_->qc1.FreeTensor(held_[msg.sub].c);
          held_on_[msg.sub] = false;
        }
        break;
      case Op::Quit:
        break;
    }
    return true;
  }

 private:
  enum class Quant { None, Scalar, Vector };
  enum class Role { None, Local, Client };
  // What the kernel sets on the object between calls (and an AIV sends its AIC with each call).
  struct Settings {
    int org_m = 0, org_n = 0, org_ka = 0, org_kb = 0;
    int lda = 0, ldb = 0, ldc = 0;  // row pitches of a batch's matrix (0: from the org shape)
    int batch_a = 0, batch_b = 0;   // IterateBatch's
    int batch_loops = 1;            // IterateNBatch's batchLoop
    bool trans_a = false, trans_b = false;
    int single_m = 0, single_n = 0, single_k = 0;
    GlobalTensor<SrcT> a, b;
    GlobalTensor<BiasT> bias;
    bool has_bias = false;
    Quant quant = Quant::None;
    uint64_t quant_scalar = 0;
    GlobalTensor<uint64_t> quant_tensor;
    GlobalTensor<DstT> workspace;
    bool has_workspace = false;
    GlobalTensor<DstT> dst;                 // IterateAll's
    uint8_t atomic = 0;                     // IterateAll's (and GetTensorC's) enAtomic
    bool sequential = false;                // GetTensorC's enSequentialWrite
    uint64_t user_info = 0, self_data = 0;  // for MM_CB's copies
  };
  // A block of C in L0C, its FIX still to come.
  struct Pending {
    LocalTensor<AccT> c;
    LocalTensor<uint64_t> scale;
    int m0 = 0, n0 = 0, cur_m = 0, cur_n = 0;
  };

  void check_tiling(const TCubeTiling* tiling) {
    t_ = effective_tiling(tiling);
    if constexpr (kCfg.iterateOrder != IterateOrder::UNDEF)  // the config's order wins
      t_.iterateOrder = static_cast<int32_t>(kCfg.iterateOrder);
    if constexpr (kScheduleNote != nullptr) detail::note_once(kScheduleNote);
    const int n_align = kInt8 ? 32 : 16;
    if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.baseM % 16 || t_.baseN % n_align ||
        t_.baseK % static_cast<int>(C0))
      detail::matmul_fault("tiling base " + std::to_string(t_.baseM) + "/" +
                           std::to_string(t_.baseN) + "/" + std::to_string(t_.baseK) +
                           ": baseM a multiple of 16, baseN of " + std::to_string(n_align) +
                           ", baseK of " + std::to_string(C0));
    if ((MM_CB::CopyA1Ptr != nullptr || MM_CB::CopyB1Ptr != nullptr) &&
        (t_.stepM > 1 || t_.stepN > 1))
      detail::matmul_fault(
          "MatmulCallBackFunc copies with stepM or stepN above 1 are not modelled");
    // K is summed in order whatever the chunks, so unequal steps change only the schedule.
    if (t_.stepKa != t_.stepKb)
      detail::note_once(
          "ascend-sim: note: a Matmul tiling with stepKa != stepKb is timed with K chunks of "
          "min(stepKa, stepKb) x baseK for both A and B (docs/guides/own-kernel.md)");
    if (t_.stepKa <= 0 || t_.stepKb <= 0) detail::matmul_fault("a tiling with stepKa or stepKb 0");
  }
  void reset_shapes() {
    s_.org_m = t_.M;
    s_.org_n = t_.N;
    s_.org_ka = t_.Ka;
    s_.org_kb = t_.Kb > 0 ? t_.Kb : t_.Ka;
    SetSingleShape(t_.singleCoreM, t_.singleCoreN, t_.singleCoreK);
  }
  void send(detail::KfcMessage::Op op, const Settings& s, bool sync) {
    detail::KfcMessage msg;
    msg.op = op;
    msg.object = object_;
    msg.sync = sync;
    msg.settings = std::make_shared<const Settings>(s);
    msg.type = &typeid(Settings);
    detail::kfc_send(std::move(msg));
  }
  uint64_t block_elems() const {
    return uint64_t(t_.baseM) * t_.baseN;
  }
  uint32_t blocks_of(const Settings& s) const {
    return static_cast<uint32_t>(ceil(s.single_m, t_.baseM) * ceil(s.single_n, t_.baseN));
  }
  void wait_fix() {
    const TEventID id = GetTPipePtr()->FetchEventID(HardEvent::FIX_S);
    SetFlag<HardEvent::FIX_S>(id);
    WaitFlag<HardEvent::FIX_S>(id);
  }
  // Calls f(mi, ni) for each block in iterateOrder.
  template <class F>
  void for_each_block(F&& f) {
    const int mblocks = ceil(s_.single_m, t_.baseM), nblocks = ceil(s_.single_n, t_.baseN);
    const int outer = t_.iterateOrder == 0 ? nblocks : mblocks,
              inner = t_.iterateOrder == 0 ? mblocks : nblocks;
    for (int o = 0; o < outer; ++o)
      for (int i = 0; i < inner; ++i) {
        if (t_.iterateOrder == 0) {
          f(i, o);
        } else {
          f(o, i);
        }
      }
  }
  // enAtomic: C added into (1), or the larger (2) or smaller (3) of it and GM's kept, by the FIX
  // pipe's atomic writes (Ascend C API: IterateAll).
  void run_all(const GlobalTensor<DstT>& gm, uint8_t atomic = 0) {
    check_shapes();
    if (atomic == 1) SetAtomicAdd<DstT>();
    if (atomic == 2) SetAtomicMax<DstT>();
    if (atomic == 3) SetAtomicMin<DstT>();
    for_each_block([&](int mi, int ni) {
      if ((kPolicy == MatmulPolicyKind::TrianUpper && mi > ni) ||
          (kPolicy == MatmulPolicyKind::TrianLower && mi < ni))
        return;  // off the policy's triangle: that block of C is left as it is
      Pending p = compute(mi, ni);
      if constexpr (kNzC) {
        fixpipe(p, gm[uint64_t(p.n0) * nz_rows() + uint64_t(p.m0) * kNzC0], nz_stride());
      } else {
        fixpipe(p, gm[uint64_t(p.m0) * c_pitch() + p.n0], c_pitch());
      }
    });
    if (atomic) SetAtomicNone();
    release_cache();
  }
  // Where matrix `j` of a batched operand starts (elements) and its row pitch: `rows` x `cols` as
  // stored; (b, s, n, g, d) the tiling's layout sizes for BSNGD.
  template <class TYPE>
  static std::pair<uint64_t, int> batch_place(int j, int rows, int cols, int b, int s, int n, int g,
                                              int d) {
    (void)b;
    if constexpr (TYPE::layout == LayoutMode::NONE) {
      detail::matmul_fault(
          "IterateBatch needs MatmulTypes with a batched layout (NORMAL or BSNGD)");
      return {0, 0};
    } else if constexpr (TYPE::layout == LayoutMode::NORMAL) {
      return {uint64_t(j) * rows * cols, cols};
    } else {
      const int per_line = n * g;  // matrices per b
      if (per_line <= 0 || d != cols)
        detail::matmul_fault("IterateBatch: a BSNGD layout whose D (" + std::to_string(d) +
                             ") is not the matrix's width (" + std::to_string(cols) + ")");
      return {uint64_t(j / per_line) * s * per_line * d + uint64_t(j % per_line) * d, per_line * d};
    }
  }
  // `loops` batches one after another (IterateNBatch): batch l's matrices follow batch l - 1's in
  // each layout.
  void run_batch(const GlobalTensor<DstT>& gm, int batch_a, int batch_b, int loops = 1) {
    if (kNzC) detail::matmul_fault("IterateBatch with C in NZ format is not modelled");
    const Settings whole = s_;
    for (int l = 0; l < loops; ++l) run_one_batch(whole, gm, batch_a, batch_b, l);
    s_ = whole;
  }
  void run_one_batch(const Settings& whole, const GlobalTensor<DstT>& gm, int batch_a, int batch_b,
                     int loop) {
    const int batch = std::max(batch_a, batch_b);
    const bool ta = whole.trans_a, tb = whole.trans_b;
    if (ta && A_TYPE::layout == LayoutMode::BSNGD)
      detail::matmul_fault("IterateBatch: a transposed A in BSNGD layout is not modelled");
    const int m = whole.single_m, n = whole.single_n, k = whole.single_k;
    for (int j = 0; j < batch; ++j) {
      const int ia = loop * batch_a + (batch_a < batch ? j / (batch / batch_a) : j),
                ib = loop * batch_b + (batch_b < batch ? j / (batch / batch_b) : j),
                i = loop * batch + j;
      const auto pa =
          batch_place<A_TYPE>(ia, ta ? k : m, ta ? m : k, t_.ALayoutInfoB, t_.ALayoutInfoS,
                              t_.ALayoutInfoN, t_.ALayoutInfoG, t_.ALayoutInfoD);
      const auto pb =
          batch_place<B_TYPE>(ib, tb ? n : k, tb ? k : n, t_.BLayoutInfoB, t_.BLayoutInfoS,
                              t_.BLayoutInfoN, t_.BLayoutInfoG, t_.BLayoutInfoD);
      const auto pc = batch_place<C_TYPE>(i, m, n, t_.CLayoutInfoB, t_.CLayoutInfoS1,
                                          t_.CLayoutInfoN, t_.CLayoutInfoG, t_.CLayoutInfoS2);
      s_ = whole;
      s_.a = whole.a[pa.first];
      s_.b = whole.b[pb.first];
      s_.lda = pa.second;
      s_.ldb = pb.second;
      s_.ldc = pc.second;
      if (whole.has_bias && kCfg.isBiasBatch) s_.bias = whole.bias[uint64_t(i) * n];
      run_all(gm[pc.first]);
    }
  }
  // An AIV's Iterate<true>: its next block computed and written to its GM slot (whose address is
  // the answer; 0 once every block has been). Each AIV has its own sequence; L1's A and B are
  // not reused across AIVs (theirs are other parts of the matrices).
  int64_t serve_iterate(int sub, const Settings& s) {
    if (iter_.size() <= static_cast<size_t>(sub)) iter_.resize(sub + 1, -1);
    if (sub != last_sub_) release_cache();
    last_sub_ = sub;
    s_ = s;
    int mi = 0, ni = 0;
    if (!next_block(iter_[sub], &mi, &ni)) return 0;
    Pending p = compute(mi, ni);
    detail::kfc_reserve_staging(block_bytes());
    const detail::KfcChannel& ch = detail::kfc_channel(detail::core());
    const uint64_t at = ch.staging + uint64_t(sub) * ch.staging_slot;
    GlobalTensor<DstT> slot;
    slot.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(static_cast<uintptr_t>(at)), block_elems());
    fixpipe(p, slot, static_cast<uint32_t>(t_.baseN));
    wait_fix();
    return static_cast<int64_t>(at);
  }
  // Partial output, an AIV's Iterate: its next baseK step of its next block (each block's steps
  // in turn, the blocks in iterateOrder) computed into L0C and held there for its GetTensorC;
  // 1, or 0 once every step has been.
  int64_t serve_partial(int sub, const Settings& s) {
    if (iter_.size() <= static_cast<size_t>(sub)) iter_.resize(sub + 1, -1);
    if (held_.size() <= static_cast<size_t>(sub)) {
      held_.resize(sub + 1);
      held_on_.resize(sub + 1, false);
    }
    if (held_on_[sub]) detail::matmul_fault("Iterate before GetTensorC took the last block");
    if (sub != last_sub_) release_cache();
    last_sub_ = sub;
    s_ = s;
    int& it = iter_[sub];
    if (it < 0) {
      check_shapes();
      if (s_.has_bias || s_.quant != Quant::None)
        detail::matmul_fault("partial output with a bias or quantization is not modelled");
      it = 0;
    }
    const int mblocks = ceil(s_.single_m, t_.baseM), nblocks = ceil(s_.single_n, t_.baseN),
              ksteps = ceil(s_.single_k, t_.baseK);
    if (it >= mblocks * nblocks * ksteps) {
      release_cache();
      it = -1;
      return 0;
    }
    const int block = it / ksteps, step = it % ksteps;
    ++it;
    const int along = t_.iterateOrder == 0 ? mblocks : nblocks;
    const int outer = block / along, inner = block % along;
    held_[sub] = t_.iterateOrder == 0 ? compute(inner, outer, nullptr, step)
                                      : compute(outer, inner, nullptr, step);
    held_on_[sub] = true;
    return 1;
  }
  // Partial output, an AIV's GetTensorC into GM: its held block out by the FIX pipe.
  void serve_get(int sub, const Settings& s) {
    if (sub >= static_cast<int>(held_on_.size()) || !held_on_[sub])
      detail::matmul_fault("GetTensorC without a block held in L0C");
    s_ = s;
    Pending& p = held_[sub];
    if (s.atomic == 1) SetAtomicAdd<DstT>();
    if (s.sequential)
      fixpipe(p, s.dst, static_cast<uint32_t>(t_.baseN));
    else
      fixpipe(p, s.dst[uint64_t(p.m0) * c_pitch() + p.n0], c_pitch());
    if (s.atomic == 1) SetAtomicNone();
    held_on_[sub] = false;
    wait_fix();
  }
  // Steps an iterator over C's blocks (-1 before the first, in iterateOrder): the next block's
  // (mi, ni) and true, or, past the last, false with the iterator back at -1.
  bool next_block(int& it, int* mi, int* ni) {
    if (it < 0) {
      check_shapes();
      it = 0;
    }
    const int mblocks = ceil(s_.single_m, t_.baseM), nblocks = ceil(s_.single_n, t_.baseN);
    if (it >= mblocks * nblocks) {
      release_cache();
      it = -1;
      return false;
    }
    const int along = t_.iterateOrder == 0 ? mblocks : nblocks;
    const int outer = it / along, inner = it % along;
    ++it;
    *mi = t_.iterateOrder == 0 ? inner : outer;
    *ni = t_.iterateOrder == 0 ? outer : inner;
    return true;
  }
  static int ceil(int a, int b) {
    return (a + b - 1) / b;
  }
  // Row pitches in GM (elements) of A, B (as stored, transposed or not) and C.
  int a_pitch() const {
    return s_.lda ? s_.lda : s_.trans_a ? s_.org_m : s_.org_ka;
  }
  int b_pitch() const {
    return s_.ldb ? s_.ldb : s_.trans_b ? s_.org_kb : s_.org_n;
  }
  // C's: N, or N padded to 32 bytes for ND_ALIGN.
  uint32_t c_pitch() const {
    if (s_.ldc) return static_cast<uint32_t>(s_.ldc);
    const uint32_t n = static_cast<uint32_t>(s_.org_n);
    if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) {
      return CeilAlign(n, static_cast<uint32_t>(32 / sizeof(DstT)));
    } else {
      return n;
    }
  }
  // NZ C: columns per block (16, or 8 split), rows per block in GM (orgM; 16-aligned when split,
  // as the vendor's Matmul lays it out) and the blocks' distance in 32-B units (Fixpipe's).
  static constexpr uint32_t kNzC0 = kSplit ? 8 : 16;
  uint32_t nz_rows() const {
    const uint32_t m = static_cast<uint32_t>(s_.org_m);
    return kSplit ? up16(m) : m;
  }
  uint32_t nz_stride() const {
    return static_cast<uint32_t>(uint64_t(nz_rows()) * kNzC0 * sizeof(DstT) / 32);
  }
  static uint32_t up16(uint32_t v) {
    return (v + 15) / 16 * 16;
  }
  // B's K rows per column block in L1: 16 (b16), 32 for int8 (whole 32 x 32 squares).
  static uint32_t up_rows(uint32_t v) {
    return (v + C0 - 1) / C0 * C0;
  }
  void check_shapes() {
    if (role_ != Role::Local)
      detail::matmul_fault(std::string("a Matmul call before REGIST_MATMUL_OBJ on this ") +
                           (IsAic() ? "AIC" : "AIV"));
    if (s_.single_m <= 0 || s_.single_n <= 0 || s_.single_k <= 0)
      detail::matmul_fault("IterateAll before SetSingleShape / a tiling's singleCore shape");
    if (s_.a.GetSize() == 0 || s_.b.GetSize() == 0)
      detail::matmul_fault("IterateAll before SetTensorA/B");
    if (A_TYPE::format == CubeFormat::VECTOR && s_.single_m != 1)
      detail::matmul_fault("an A of VECTOR format has one row, not " + std::to_string(s_.single_m));
    if (kInt8 && std::is_same_v<DstT, half> && s_.quant == Quant::None)
      detail::matmul_fault("an int8 Matmul with fp16 C needs SetQuantScalar or SetQuantVector");
    if (s_.quant == Quant::Vector && uint64_t(s_.single_n) > s_.quant_tensor.GetSize())
      detail::matmul_fault("SetQuantVector: " + std::to_string(s_.single_n) +
                           " columns beyond its GlobalTensor of " +
                           std::to_string(s_.quant_tensor.GetSize()));
    if ((s_.trans_a && MM_CB::CopyA1Ptr != nullptr) || (s_.trans_b && MM_CB::CopyB1Ptr != nullptr))
      detail::matmul_fault("a MatmulCallBackFunc copy of a transposed A or B is not modelled");
    check_extent("A", s_.a, s_.trans_a ? s_.single_k : s_.single_m,
                 s_.trans_a ? s_.single_m : s_.single_k, a_pitch());
    if constexpr (kNzB) {
      if (t_.baseN % static_cast<int>(C0) != 0)
        detail::matmul_fault("B in NZ format: baseN " + std::to_string(t_.baseN) +
                             " is not a multiple of its column blocks of " + std::to_string(C0));
      // The last column block's rows [0, singleK) of C0 elements.
      check_extent("B (NZ)", s_.b, ceil(s_.single_n, static_cast<int>(C0)),
                   s_.single_k * static_cast<int>(C0), static_cast<int>(nz_b_rows() * C0));
    } else {
      check_extent("B", s_.b, s_.trans_b ? s_.single_n : s_.single_k,
                   s_.trans_b ? s_.single_k : s_.single_n, b_pitch());
    }
  }
  // B in NZ format: the rows of each column block in GM (orgKb padded to 16).
  uint32_t nz_b_rows() const {
    return up16(static_cast<uint32_t>(s_.org_kb));
  }
  // `rows` x `cols` of a matrix of row pitch `pitch` within `gm`.
  static void check_extent(const char* what, const GlobalTensor<SrcT>& gm, int rows, int cols,
                           int pitch) {
    if (uint64_t(rows - 1) * pitch + cols > gm.GetSize())
      detail::matmul_fault(std::string(what) + ": " + std::to_string(rows) + " x " +
                           std::to_string(cols) + " rows of " + std::to_string(pitch) +
                           " beyond its GlobalTensor");
  }
  // A's [cur_m x cur_k] chunk at (m0, k0) into L1, NZ: block (m0 / baseM, k0 / chunk) of A, by
  // MM_CB's CopyA1 if it has one.
  LocalTensor<SrcT> load_a(int m0, int cur_m, int k0, int cur_k) {
    if constexpr (MM_CB::CopyA1Ptr != nullptr)
      return load_by(buf_->qa1, MM_CB::CopyA1Ptr, s_.a, m0 / t_.baseM,
                     k0 / static_cast<int>(chunk_k_), cur_m, cur_k);
    if (s_.trans_a)  // K x M in GM: the chunk's k rows, NZ (fractals k x m)
      return load_nz(buf_->qa1, s_.a[uint64_t(k0) * a_pitch() + m0], cur_k, cur_m, a_pitch(),
                     up16(cur_k));
    return load_nz(buf_->qa1, s_.a[uint64_t(m0) * a_pitch() + k0], cur_m, cur_k, a_pitch(),
                   up16(cur_m));
  }
  // B's [cur_k x cur_n] chunk at (k0, n0) into L1, NZ (by MM_CB's CopyB1 if it has one).
  LocalTensor<SrcT> load_b(int k0, int cur_k, int n0, int cur_n) {
    if constexpr (MM_CB::CopyB1Ptr != nullptr)
      return load_by(buf_->qb1, MM_CB::CopyB1Ptr, s_.b, k0 / static_cast<int>(chunk_k_),
                     n0 / t_.baseN, cur_k, cur_n);
    if constexpr (kNzB) {  // NZ in GM already: the chunk's rows of its column blocks
      LocalTensor<SrcT> l1 = buf_->qb1.template AllocTensor<SrcT>();
      DataCopyParams p;  // one C0 row is one 32-B block
      p.blockCount = static_cast<uint16_t>(ceil(cur_n, static_cast<int>(C0)));
      p.blockLen = static_cast<uint16_t>(cur_k);
      p.srcStride = static_cast<uint16_t>(nz_b_rows() - static_cast<uint32_t>(cur_k));
      p.dstStride = static_cast<uint16_t>(up_rows(static_cast<uint32_t>(cur_k)) -
                                          static_cast<uint32_t>(cur_k));
      DataCopy(l1, s_.b[(uint64_t(n0) / C0 * nz_b_rows() + uint64_t(k0)) * C0], p);
      buf_->qb1.EnQue(l1);
      return buf_->qb1.template DeQue<SrcT>();
    }
    if (s_.trans_b)  // N x K in GM: the chunk's n rows, NZ (fractals n x k, L0B's own layout)
      return load_nz(buf_->qb1, s_.b[uint64_t(n0) * b_pitch() + k0], cur_n, cur_k, b_pitch(),
                     up16(cur_n));
    return load_nz(buf_->qb1, s_.b[uint64_t(k0) * b_pitch() + n0], cur_k, cur_n, b_pitch(),
                   up_rows(cur_k));
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
  // A block into a buffer of `queue` by the user's copy `copy` (it issues the DataCopy).
  template <class Queue, class Copy>
  LocalTensor<SrcT> load_by(Queue& queue, Copy copy, const GlobalTensor<SrcT>& src, int row,
                            int col, int rows, int cols) {
    LocalTensor<SrcT> l1 = queue.template AllocTensor<SrcT>();
    copy(l1.template ReinterpretCast<int8_t>(), src.GetPhyAddr(), row, col, rows, cols,
         s_.user_info, s_.self_data);
    queue.EnQue(l1);
    return queue.template DeQue<SrcT>();
  }
  void release_cache() {
    if (cached_a_ >= 0) buf_->qa1.FreeTensor(a_cache_);
    if (cached_b_ >= 0) buf_->qb1.FreeTensor(b_cache_);
    cached_a_ = cached_b_ = -1;
  }

  // Block (mi, ni) of C into L0C: its bias (and VDEQF16 scales) loaded, every K chunk of A and B
  // through L1 and L0, one Mmad per baseK step.
  // With `l0c`, the block goes there (the user's L0C) instead of the Matmul's own. With
  // `only_step` >= 0, only that baseK step of K (partial output: its product alone).
  Pending compute(int mi, int ni, const LocalTensor<AccT>* l0c = nullptr, int only_step = -1) {
    Pending out;
    const int m0 = mi * t_.baseM, n0 = ni * t_.baseN;
    const int cur_m = std::min(t_.baseM, s_.single_m - m0),
              cur_n = std::min(t_.baseN, s_.single_n - n0);
    out.m0 = m0;
    out.n0 = n0;
    out.cur_m = cur_m;
    out.cur_n = cur_n;
    const int kchunks = ceil(s_.single_k, static_cast<int>(chunk_k_));
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
    if (s_.has_bias) {  // GM -> L1 (C1) -> BiasTable (C2)
      LocalTensor<BiasT> b1 = buf_->qbias1.template AllocTensor<BiasT>();
      // A tail of N that ends off a 32-B boundary is read to its last byte (and padded in L1):
      // the bias may end there in GM.
      const uint32_t bias_bytes = static_cast<uint32_t>(cur_n * sizeof(BiasT));
      if (bias_bytes % 32 == 0)
        DataCopy(b1, s_.bias[n0], static_cast<uint32_t>(cur_n));
      else
        DataCopyPad(b1, s_.bias[n0], DataCopyExtParams{1, bias_bytes, 0, 0, 0});
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
    if (s_.quant == Quant::Vector) {  // the block's uint64 scales GM -> L1 (C1)
      out.scale = buf_->qscale1.template AllocTensor<uint64_t>();
      DataCopy(out.scale, s_.quant_tensor[n0], static_cast<uint32_t>((cur_n + 3) / 4 * 4));
      buf_->qscale1.EnQue(out.scale);
      out.scale = buf_->qscale1.template DeQue<uint64_t>();
    }
    LocalTensor<AccT> c = l0c ? *l0c : buf_->qc1.template AllocTensor<AccT>();
    // int8: B's n padded to 32 in L0B (whole transposed squares) and in the Mmad.
    const uint32_t n_mmad =
        kInt8 ? (static_cast<uint32_t>(cur_n) + 31) / 32 * 32 : static_cast<uint32_t>(cur_n);
    const uint32_t mb = up16(cur_m) / 16, nb = up16(n_mmad) / 16;
    for (int kc = 0; kc < kchunks; ++kc) {
      const int k0 = kc * static_cast<int>(chunk_k_);
      const int cur_kc = std::min(static_cast<int>(chunk_k_), s_.single_k - k0);
      if (only_step >= 0 && (only_step * t_.baseK < k0 || only_step * t_.baseK >= k0 + cur_kc))
        continue;  // the step is in another chunk
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
        if (only_step >= 0 && k0 + kk0 != only_step * t_.baseK) continue;
        const int cur_k = std::min(t_.baseK, cur_kc - kk0);
        const uint32_t kb = (static_cast<uint32_t>(cur_k) + C0 - 1) / C0;
        const uint32_t kb0 = static_cast<uint32_t>(kk0) / C0;
        LocalTensor<SrcT> a2 = buf_->qa2.template AllocTensor<SrcT>();
        for (uint32_t i = 0; i < mb; ++i) {  // A fractal (i, kb0 + j) -> L0A (i, j)
          LoadData2DParams l;
          if (s_.trans_a) {  // L1 fractal (k block kb0 + j, m block i) of A^T, transposed
            l.startIndex =
                static_cast<uint16_t>(i * (up16(static_cast<uint32_t>(cur_kc)) / 16) + kb0);
            l.srcStride = 1;
            l.ifTranspose = true;
          } else {
            l.startIndex = static_cast<uint16_t>(kb0 * mb + i);
            l.srcStride = static_cast<uint16_t>(mb);
          }
          l.repeatTimes = static_cast<uint8_t>(kb);
          LoadData(a2[i * kb * 16 * C0], a1, l);
        }
        buf_->qa2.EnQue(a2);
        LocalTensor<SrcT> b2 = buf_->qb2.template AllocTensor<SrcT>();
        if (s_.trans_b) {
          for (uint32_t j = 0; j < kb; ++j) {  // L1 fractals (kb0 + j, 0..nb) of B^T, as they are
            LoadData2DParams l;
            l.startIndex =
                static_cast<uint16_t>((kb0 + j) * (up16(static_cast<uint32_t>(cur_n)) / 16));
            l.repeatTimes = static_cast<uint8_t>(nb);
            l.srcStride = 1;
            LoadData(b2[j * nb * 256], b1, l);
          }
        } else {
          load_b_fractals(b2, b1, static_cast<uint32_t>(kk0), kb, nb, kcp_rows);
        }
        buf_->qb2.EnQue(b2);
        a2 = buf_->qa2.template DeQue<SrcT>();
        b2 = buf_->qb2.template DeQue<SrcT>();
        MmadParams mp;
        // m = 1 would be the cube's GEMV mode, which reads A as a vector; A is in fractals here,
        // so a single row asks for the whole row-block (the same cube steps; rows past cur_m are
        // not copied out).
        mp.m = static_cast<uint16_t>(cur_m == 1 ? 16 : cur_m);
        mp.n = static_cast<uint16_t>(n_mmad);
        mp.k = static_cast<uint16_t>(cur_k);
        const bool first = only_step >= 0 || (kc == 0 && kk0 == 0);
        mp.cmatrixInitVal = first && !s_.has_bias;
        mp.cmatrixSource = first && s_.has_bias;
        if (s_.has_bias) {
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
    if (s_.has_bias) buf_->qbt.FreeTensor(bt);
    if (l0c) {  // the user hands it to their FIX pipe (their queue's EnQue/DeQue)
      out.c = c;
      return out;
    }
    buf_->qc1.EnQue(c);
    out.c = buf_->qc1.template DeQue<AccT>();
    return out;
  }
  // A computed block L0C -> GM at `out` (rows `dst_stride` elements apart), cast or dequantized
  // on the way; its L0C (and scales) freed.
  void fixpipe(Pending& p, const GlobalTensor<DstT>& out, uint32_t dst_stride) {
    FixpipeParamsV220 f;
    f.mSize = static_cast<uint16_t>(p.cur_m);
    f.nSize = static_cast<uint16_t>(p.cur_n);
    f.srcStride = static_cast<uint16_t>(up16(p.cur_m));
    f.dstStride = dst_stride;
    if constexpr (kInt8) {
      f.quantPre = s_.quant == Quant::Vector   ? VDEQF16
                   : s_.quant == Quant::Scalar ? DEQF16
                                               : NoQuant;
      f.deqScalar = s_.quant_scalar;
    } else {
      f.quantPre = std::is_same_v<DstT, half>         ? F322F16
                   : std::is_same_v<DstT, bfloat16_t> ? F322BF16
                                                      : NoQuant;
    }
    if constexpr (kNzC) {  // dst_stride: 32-B blocks between column blocks
      f.nSize = static_cast<uint16_t>(CeilAlign(static_cast<uint32_t>(p.cur_n), kNzC0));
      f.isChannelSplit = kSplit;
      if (s_.quant == Quant::Vector) {
        Fixpipe<DstT, AccT, CFG_NZ>(out, p.c, p.scale, f);
        buf_->qscale1.FreeTensor(p.scale);
      } else {
        Fixpipe<DstT, AccT, CFG_NZ>(out, p.c, f);
      }
    } else if (s_.quant == Quant::Vector) {
      Fixpipe(out, p.c, p.scale, f);
      buf_->qscale1.FreeTensor(p.scale);
    } else {
      Fixpipe(out, p.c, f);
    }
    buf_->qc1.FreeTensor(p.c);
  }
  // B's fractals for K rows [k0, k0 + kb * C0) of the chunk into L0B: (kb, nb), n-major inside.
  void load_b_fractals(const LocalTensor<SrcT>& b2, const LocalTensor<SrcT>& b1, uint32_t k0,
                       uint32_t kb, uint32_t nb, uint32_t kcp_rows) {
    if constexpr (kInt8) {
      // b8: per 32-row K block j, the 32 x 32 squares of each 32-column block of the chunk
      // (square k0/32 + j, then srcStride squares apart) -> L0B fractals (j, 2c) and (j, 2c+1).
      for (uint32_t j = 0; j < kb; ++j) {
        LoadData2dTransposeParams l;
        l.startIndex = static_cast<uint16_t>(k0 / 32 + j);
        l.repeatTimes = static_cast<uint8_t>(nb / 2);
        l.srcStride = static_cast<uint16_t>(kcp_rows / 32);
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
  Settings s_;
  Role role_ = Role::None;
  int object_ = 0;
  MatmulBuffers own_;
  MatmulBuffers* buf_ = &own_;
  LocalTensor<SrcT> a_cache_, b_cache_;
  int cached_a_ = -1, cached_b_ = -1;
  int local_iter_ = -1;        // the AIC's own Iterate into a user's L0C: its next block (-1: none)
  std::vector<int> iter_;      // the AIC: each AIV's next block of its Iterates (-1: none begun)
  int last_sub_ = -1;          // the AIC: the AIV whose A and B L1 holds
  int64_t staged_ = 0;         // an AIV: where its AIC wrote the block of its last Iterate
  std::vector<Pending> held_;  // the AIC, partial output: each AIV's block in L0C
  std::vector<bool> held_on_;
  int async_all_ = 0;                           // an AIV: IterateAll<false> not yet waited for
  uint32_t async_next_ = 0, async_blocks_ = 0;  // an AIV: its asynchronous Iterate
};

}  // namespace matmul
using matmul::Matmul;

}  // namespace AscendC

// Ascend C's registration of Matmul objects: each takes its tiling and the kernel's TPipe. Where
// the AIVs drive the AIC (a mixed launch, no dual-master config), the AIC serves them here until
// they are done, and the kernel's AIC part returns (the rest of the kernel is the AIVs').
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                             \
  do {                                                                                       \
    if (::AscendC::detail::regist_matmul<::AscendC::detail::kCubeOnly>((tpipe), (workspace), \
                                                                       __VA_ARGS__))         \
      return;                                                                                \
  } while (0)

namespace AscendC::detail {
// A kernel file that defines ASCENDC_CUBE_ONLY before its includes calls the Matmul on the AIC
// only, in a mixed launch too (no AIV drives it). Per translation unit, so REGIST_MATMUL_OBJ
// passes it on as a template argument.
#ifdef ASCENDC_CUBE_ONLY
constexpr bool kCubeOnly = true;
#else
constexpr bool kCubeOnly = false;
#endif
// The AIC: serves `objects`' messages until every AIV has quit each of them.
template <class... MM>
void serve_matmul(MM&... objects) {
  KfcChannel& ch = kfc_channel(core());
  ch.objects = static_cast<int>(sizeof...(MM));
  const int expected =
      static_cast<int>(sizeof...(MM)) * static_cast<int>(core().cross_peers(2).size());
  for (int quits = 0; quits < expected;) {
    KfcMessage msg = kfc_receive();
    if (msg.object < 0 || msg.object >= static_cast<int>(sizeof...(MM)))
      matmul_fault("a message for Matmul object " + std::to_string(msg.object) + " of " +
                   std::to_string(sizeof...(MM)) + " registered on the AIC");
    int i = 0;
    bool served = true;
    ((i++ == msg.object ? (served = objects.Serve(msg), 0) : 0), ...);
    if (!served) ++quits;
  }
}

template <bool kCubeOnlyTu, class MM>
bool regist_matmul(TPipe* pipe, GM_ADDR, MM& mm, const TCubeTiling* tiling) {
  const bool kfc = !kCubeOnlyTu && kfc_mode(MM::kDualMaster);
  if (IsAic()) {
    mm.Init(tiling, pipe);
    if (!kfc) return false;
    serve_matmul(mm);
    return true;
  }
  if (kfc) mm.InitClient(tiling, 0);
  return false;
}
// Two objects share one buffer set sized for both tilings (they run one after the other).
template <bool kCubeOnlyTu, class MM1, class MM2>
bool regist_matmul(TPipe* pipe, GM_ADDR, MM1& a, const TCubeTiling* ta, MM2& b,
                   const TCubeTiling* tb) {
  const bool kfc = !kCubeOnlyTu && kfc_mode(MM1::kDualMaster && MM2::kDualMaster);
  if (!IsAic()) {
    if (kfc) {
      a.InitClient(ta, 0);
      b.InitClient(tb, 1);
    }
    return false;
  }
  const MatmulBuffers::Sizes both = MM2::sizes(MM2::effective_tiling(tb));
  a.Init(ta, pipe, nullptr, &both);
  b.Init(tb, pipe, &a.buffers());
  if (!kfc) return false;
  serve_matmul(a, b);
  return true;
}
}  // namespace AscendC::detail

// The host's tiling data as Ascend C's optiling classes hold it: a set_/get_ pair per field of the
// kernel's TCubeTiling, serialized byte for byte as the kernel reads it back.
namespace optiling {
class TCubeTiling {
 public:
#define ASCEND_SIM_TCUBE_ACCESSORS(type, name, init) \
  void set_##name(type v) {                          \
    data_.name = v;                                  \
  }                                                  \
  type get_##name() const {                          \
    return data_.name;                               \
  }
  ASCEND_SIM_TCUBE_TILING_FIELDS(ASCEND_SIM_TCUBE_ACCESSORS)
#undef ASCEND_SIM_TCUBE_ACCESSORS
  size_t GetDataSize() const {
    return sizeof(data_);
  }
  // Writes the fields into `buf` (at least GetDataSize() bytes; a smaller one is left alone).
  void SaveToBuffer(void* buf, size_t capacity) const {
    if (buf && capacity >= sizeof(data_)) std::memcpy(buf, &data_, sizeof(data_));
  }
  AscendC::TCubeTiling& data() {
    return data_;
  }
  const AscendC::TCubeTiling& data() const {
    return data_;
  }

 private:
  AscendC::TCubeTiling data_;
};
}  // namespace optiling

// The host side: MatmulApiTiling's role, reduced to what the kernels here use.
namespace matmul_tiling {

enum class DataType { DT_FLOAT16, DT_BF16, DT_INT8, DT_FLOAT, DT_INT32 };
enum class TPosition { GM, VECIN, VECOUT, TSCM };
// ND_ALIGN (C only): rows padded to 32 bytes; VECTOR (A only): one row.
enum class CubeFormat { ND, NZ, ND_ALIGN, VECTOR };
// How C is dequantized (SetQuantScalar or SetQuantVector decide it in the kernel).
enum class DequantType { SCALAR = 0, TENSOR = 1 };
// The order the blocks of C are computed in: FIRSTM along M first (TCubeTiling::iterateOrder 0).
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };
// SetMatmulConfigParams' settings: of them only the traverse order reaches the tiling here (the
// model's one schedule serves the Norm and MDL templates, and each schedule type).
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

// The buffers one AIC has (bytes) and what the tiling must respect.
struct CubeLimits {
  uint32_t l1 = 512 * 1024, l0a = 64 * 1024, l0b = 64 * 1024, l0c = 128 * 1024, bt = 1024;
};

class MatmulApiTiling {
 public:
  explicit MatmulApiTiling(CubeLimits limits = {}) : lim_(limits) {}
  // From the host's platform (platform_ascendc::PlatformAscendC): its buffers.
  template <class Platform, class = decltype(std::declval<const Platform&>().cube_limits())>
  explicit MatmulApiTiling(const Platform& platform) : lim_(platform.cube_limits()) {}
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
  void SetTraverse(MatrixTraverse t) { order_ = t == MatrixTraverse::FIRSTN ? 1 : 0; }
  void SetDim(int cores) { cores_ = cores; }
  void SetDequantType(DequantType) {}
  // The batched layouts' sizes (TCubeTiling's ALayoutInfo*, ...; C's S and D are S1 and S2) and
  // the number of matrices of a batch.
  void SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    a_layout_ = {b, s, n, g, d};
  }
  void SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    b_layout_ = {b, s, n, g, d};
  }
  void SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    c_layout_ = {b, s, n, g, d};
  }
  void SetBatchNum(int32_t batch) { batch_num_ = batch; }
  // NORMAL layouts: batchA M x K A's, batchB K x N B's, the larger number of C's.
  void SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
    SetALayout(batchA, m, 1, 1, k);
    SetBLayout(batchB, n, 1, 1, k);
    SetCLayout(std::max(batchA, batchB), m, 1, 1, n);
  }
  // Fixes the multi-core split: each core a singleM x singleN x singleK block (-1: the shape's).
  void SetSingleShape(int singleM = -1, int singleN = -1, int singleK = -1) {
    single_m_ = singleM;
    single_n_ = singleN;
    single_k_ = singleK;
  }
  // The single-core shape of the last GetTiling.
  int32_t GetSingleShape(int32_t& singleM, int32_t& singleN, int32_t& singleK) const {
    singleM = got_m_;
    singleN = got_n_;
    singleK = got_k_;
    return 0;
  }
  void SetMatmulConfigParams(const MatmulConfigParams& p) {
    if (p.traverse != MatrixTraverse::NOSET) SetTraverse(p.traverse);
  }
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                             bool enVecND2NZIn = false) {
    SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn,
                                             traverseIn, enVecND2NZIn));
  }
  void SetDoubleBuffer(bool, bool, bool, bool, bool = false, bool = false) {}
  // Fills `t`; -1 (and why, in error()) when the shape or a fixed split breaks a limit.
  int64_t GetTiling(AscendC::TCubeTiling& t);
  int64_t GetTiling(optiling::TCubeTiling& t) { return GetTiling(t.data()); }
  const std::string& error() const { return error_; }

 protected:
  // SetShape's M x N split over at most SetDim's cores (usedCoreNum of them), each a singleCoreM x
  // singleCoreN block of whole alignment units that divides M and N evenly: the split whose block
  // is smallest, then the one that loads the least A and B per base block, then the one whose base
  // blocks span least (dm x baseM + dn x baseN), then the one with more cores along N.
  int64_t GetMultiCoreTiling(AscendC::TCubeTiling& t);
  int64_t GetFixedSplitTiling(AscendC::TCubeTiling& t);
  int64_t GetBlockTiling(AscendC::TCubeTiling& t, int sm, int sn, int used, int sk = -1);

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
  int single_m_ = -1, single_n_ = -1, single_k_ = -1, got_m_ = 0, got_n_ = 0, got_k_ = 0;

 protected:
  bool split_k_ = false;  // MultiCoreMatmulTiling::EnableMultiCoreSplitK

 private:
  struct Layout {
    int32_t b = 0, s = 0, n = 0, g = 0, d = 0;
  } a_layout_, b_layout_, c_layout_;
  int32_t batch_num_ = 0;
  std::string error_;
};

// Ascend C's multi-core tiling: SetShape is the whole problem, split over SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTiling {
 public:
  using MatmulApiTiling::MatmulApiTiling;
  // K may be split over cores too (each core's partial C added into GM: IterateAll with
  // enAtomic): the cores the M x N split leaves idle take equal parts of K.
  void EnableMultiCoreSplitK(bool enable) { split_k_ = enable; }
  int64_t GetTiling(AscendC::TCubeTiling& t) { return GetMultiCoreTiling(t); }
  int64_t GetTiling(optiling::TCubeTiling& t) { return GetMultiCoreTiling(t.data()); }
};

// Ascend C's tiling of a batch Matmul on one core (the batch sizes by SetBatchInfoForNormal or
// SetA/B/CLayout and SetBatchNum): the single-core tiling of one matrix.
class BatchMatmulTiling : public MatmulApiTiling {
 public:
  using MatmulApiTiling::MatmulApiTiling;
};

}  // namespace matmul_tiling
