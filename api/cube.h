// The cube core's (AIC) instructions, as Ascend C names them: DataCopy GM -> L1 (plain, or ND -> NZ
// on the way), LoadData L1 -> L0A/L0B (512-B fractals, optionally transposed), Mmad (L0A x L0B ->
// L0C, fp32/int32 accumulation), Fixpipe L0C -> GM (cast, dequantization, ReLU, NZ -> ND on the
// way), and the bias's L1 -> BiasTable copy.
//
// Layouts (elements; C0 = 32 B / element size: 8 for fp32, 16 for b16, 32 for int8, 64 for int4,
// whose elements go two a byte, the even one in the low nibble):
//  - L1 "NZ", what Nd2Nz writes: the C0-column block c of row r at
//    c * dstNzC0Stride * C0 + r * dstNzNStride * C0.
//  - L0A (zZ): A is m x k; fractal (mb, kb), 16 rows x C0, at (mb * ceil(k/C0) + kb) * 16 * C0,
//    row-major inside.
//  - L0B: B is k x n; fractal (kb, nb), C0 x 16, at (kb * ceil(n/16) + nb) * C0 * 16, stored
//    n-major inside (element (k, n) of the fractal at n * C0 + k): what LoadData with ifTranspose
//    makes of an NZ B in L1 (b16), and LoadDataWithTranspose of its 32 x 32 squares (b8).
//  - L0C (NZ): C is m x n, fp32 or int32; element (i, j) at
//    (j / 16) * ceil(m/16) * 256 + i * 16 + j % 16 (Fixpipe's srcStride = ceil(m/16) * 16).
// The accumulation order inside a Mmad is not published: it is modelled as ascending k, one fp32
// rounding per multiply-add (products of fp16/bf16 are exact in fp32), starting from L0C, zero
// (cmatrixInitVal) or the bias (cmatrixSource). A K loop of Mmads into one L0C block therefore
// gives the same bits as one sequential fp32 sum over K, whatever the tiling. fp32 operands: each
// product rounded to fp32, then added (the cube's fp32 datapath is not published; HF32 is not
// modelled). int8 and int4 accumulate exactly in int32 (wrapping).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "api/data_copy.h"
#include "api/spares.h"
#include "api/tensor.h"
#include "models/inline_function.h"

namespace AscendC {

struct Nd2NzParams {
  // Not an aggregate, as in Ascend C: a braced DataCopy argument of four values is then a
  // DataCopyParams, never a partial Nd2NzParams.
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
              uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 1;
  uint16_t nValue = 0;             // rows
  uint16_t dValue = 0;             // columns, in elements
  uint16_t srcNdMatrixStride = 0;  // elements between the ND matrices
  uint16_t srcDValue = 0;          // the source row pitch, in elements
  uint16_t dstNzC0Stride = 0;      // C0 blocks between column blocks in L1
  uint16_t dstNzNStride = 1;       // C0 blocks between rows in L1
  uint16_t dstNzMatrixStride = 0;  // elements between the NZ matrices
};

struct LoadData2DParams {
  uint16_t startIndex = 0;  // first source fractal
  uint8_t repeatTimes = 0;  // fractals moved
  uint16_t srcStride = 0;   // fractals between two source fractals
  uint8_t sid = 0;
  uint16_t dstGap = 0;  // fractals skipped after each destination fractal
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

using LoadData2dParams = LoadData2DParams;

// LoadDataWithTranspose (b8): each repeat transposes a 32 x 32 int8 square of L1, two
// consecutive 16 x 32 fractals (rows 0-15, then 16-31), into two 32 x 16 L0B fractals.
// startIndex and srcStride count squares (32 x 32 b8, 1 KiB: two source fractals), as Ascend C
// defines them for dav-2201.
struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;  // the first square
  uint8_t repeatTimes = 0;  // squares moved
  uint16_t srcStride = 0;   // squares between two repeats' squares (0: the same square again)
  uint16_t dstGap = 0;      // fractals from the end of a repeat's first destination fractal to
                            // the next repeat's first
  uint16_t dstFracGap = 0;  // fractals between a repeat's two destination fractals
  uint8_t addrMode = 0;
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;  // true: C starts from the bias (BiasTable)
  bool cmatrixInitVal = true;  // true: C starts from 0; false: accumulates onto L0C
};

enum QuantMode_t : uint8_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8
};

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t src_stride, uint32_t dst_stride, bool relu)
      : nSize(n), mSize(m), srcStride(src_stride), dstStride(dst_stride), reluEn(relu) {}
  FixpipeParamsV220(uint16_t n, uint16_t m, uint16_t src_stride, uint32_t dst_stride, bool relu,
                    QuantMode_t quant, int64_t deq_scalar, uint16_t nd_num, uint16_t src_nd_stride,
                    uint16_t dst_nd_stride, uint8_t unit_flag, bool channel_split = false)
      : nSize(n),
        mSize(m),
        srcStride(src_stride),
        dstStride(dst_stride),
        quantPre(quant),
        deqScalar(static_cast<uint64_t>(deq_scalar)),
        ndNum(nd_num),
        srcNdStride(src_nd_stride),
        dstNdStride(dst_nd_stride),
        reluEn(relu),
        unitFlag(unit_flag),
        isChannelSplit(channel_split) {}
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;  // rows of the L0C block (ceil(m/16) * 16)
  uint32_t dstStride = 0;  // ND row length in GM, in elements
  QuantMode_t quantPre = NoQuant;
  uint64_t deqScalar = 0;  // DEQF16: the fp32 scale in its low 32 bits
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

enum class CO2Layout : uint8_t { NZ, ROW_MAJOR };
struct FixpipeConfig {
  constexpr FixpipeConfig(CO2Layout f, bool to_ub = false, bool fix_val = false)
      : format(f), isToUB(to_ub), enableFixVal(fix_val) {}
  CO2Layout format;
  bool isToUB;        // L0C -> UB: not on dav-2201
  bool enableFixVal;  // not on dav-2201
};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};

namespace detail {

// One cube instruction's effect: what it reads when it starts and does when it ends. The captures
// are kept inline (a larger one does not compile) and the ops recycled (Spares), so an
// instruction allocates nothing but the bytes a DMA stages.
struct CubeOp {
  using Fn = ascend::model::InlineFunction<128>;
  Fn start;   // a DMA's read of its source (null: none)
  Fn finish;  // the result written
  template <class F>
  void on_start(F&& f) {
    static_assert(Fn::holds_inline<F>, "a cube instruction's start must fit inline");
    start = std::forward<F>(f);
  }
  template <class F>
  void on_finish(F&& f) {
    static_assert(Fn::holds_inline<F>, "a cube instruction's finish must fit inline");
    finish = std::forward<F>(f);
  }
  // A DMA's bytes from its start to its end, as `n` elements of T (payload: freed with the op).
  template <class T>
  T* staged(uint64_t n) {
    staged_.resize(n * sizeof(T));
    return reinterpret_cast<T*>(staged_.data());
  }
  template <class T>
  T* staged() {
    return reinterpret_cast<T*>(staged_.data());
  }
  std::vector<uint8_t> staged_;
  void recycle();  // before it is kept for reuse (Spares)
};
using CubeOpPtr = Spares<CubeOp>::Ptr;
// Local byte ranges an instruction reads and writes (for the race check and the scalar's claims).
struct LocalRange {
  uint64_t lo, hi;
};
// `op` null: an instruction without effect (timing-only: see cube_op()).
void issue_cube(m::PipeId pipe, const m::Work& work, const char* name,
                std::initializer_list<LocalRange> reads, std::initializer_list<LocalRange> writes,
                uint64_t gm_lo, uint64_t gm_hi, bool gm_write, CubeOpPtr op);
// A cube instruction's effect to fill in, or null in a timing-only run (sim.payload = 0), where
// cube instructions keep their timing and skip their effect: nothing to build or allocate then.
CubeOpPtr cube_op();
// The buffer (detail::buffer_of numbering) that holds a local tensor's bytes; a kernel fault when
// it is not `want` (-1: any).
int local_buffer(const m::Core* c, uint64_t offset, uint64_t bytes, int want, const char* instr,
                 const char* what);
void require_aic(const char* instr);
template <class T>
constexpr uint32_t c0() {
  return 32 / sizeof(T);
}
inline uint32_t ceil_div(uint32_t a, uint32_t b) {
  return (a + b - 1) / b;
}
// A LoadData's repeats, one 512-B fractal each (LoadDataWithTranspose: a pair): fn(s, d) with
// repeat r's source at fractal startIndex + r * srcStride and its destination at r * (1 + dstGap).
template <class P, class F>
void each_load_repeat(const void* src, void* dst, const P& p, F&& fn) {
  constexpr uint64_t kFractal = 512;
  const uint8_t* s0 = static_cast<const uint8_t*>(src);
  uint8_t* d0 = static_cast<uint8_t*>(dst);
  for (uint32_t r = 0; r < p.repeatTimes; ++r)
    fn(s0 + (uint64_t{p.startIndex} + uint64_t{r} * p.srcStride) * kFractal,
       d0 + uint64_t{r} * (1u + p.dstGap) * kFractal);
}
// multiply-add in the accumulator's type (fp32: one rounding; int32: wraps).
template <class Acc, class T>
inline Acc mac(Acc acc, T a, T b) {
  if constexpr (std::is_same_v<Acc, int32_t>) {
    return static_cast<int32_t>(static_cast<uint32_t>(acc) +
                                static_cast<uint32_t>(int32_t{a} * int32_t{b}));
  } else {
    return acc + static_cast<float>(to_double(a)) * static_cast<float>(to_double(b));
  }
}
// mac with operands already converted (float for floating operands, int32 for int8).
inline float mac_op(float acc, float a, float b) {
  return acc + a * b;
}
inline int32_t mac_op(int32_t acc, int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(a * b));
}
// sums[j] = mac_op(sums[j], a, b[j]) for j < n16 (a multiple of 16): blocks of 16 independent
// sums, which the host compiler turns into vector instructions.
template <class Acc, class Op>
inline void mac_row(Acc* __restrict sums, Op a, const Op* __restrict b, uint32_t n16) {
  for (uint32_t j = 0; j < n16; j += 16)
    for (uint32_t t = 0; t < 16; ++t) sums[j + t] = mac_op(sums[j + t], a, b[j + t]);
}
}  // namespace detail

// GM -> L1 (A1/B1/C1), ND -> NZ on the way (MTE2).
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  const char* name = "DataCopy(ND2NZ)";
  detail::require_aic(name);
  constexpr uint32_t C0 = detail::c0<T>();
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0)
    detail::fault(std::string(name) + " of 0 bytes");
  if (p.ndNum > 4095 || p.nValue > 16384)
    detail::fault(std::string(name) + ": ndNum " + std::to_string(p.ndNum) + " > 4095 or nValue " +
                  std::to_string(p.nValue) + " > 16384");
  if (p.srcDValue < p.dValue)
    detail::fault(std::string(name) + ": srcDValue " + std::to_string(p.srcDValue) + " < dValue " +
                  std::to_string(p.dValue));
  const uint32_t cols = detail::ceil_div(p.dValue, C0);
  const uint64_t src_elems = uint64_t{p.ndNum - 1u} * p.srcNdMatrixStride +
                             uint64_t{p.nValue - 1u} * p.srcDValue + p.dValue;
  if (src_elems > src.GetSize())
    detail::fault(std::string(name) + " from " + detail::describe_gm(src.address()) + ": " +
                  std::to_string(src_elems) + " elements beyond its GlobalTensor of " +
                  std::to_string(src.GetSize()));
  const uint64_t dst_elems = uint64_t{p.ndNum - 1u} * p.dstNzMatrixStride +
                             uint64_t{cols - 1} * p.dstNzC0Stride * C0 +
                             uint64_t{p.nValue - 1u} * p.dstNzNStride * C0 + C0;
  if (dst_elems > dst.GetSize())
    detail::fault(std::string(name) + ": " + std::to_string(dst_elems) +
                  " elements of L1 beyond a LocalTensor of " + std::to_string(dst.GetSize()));
  detail::local_buffer(dst.owner(), dst.ub_offset(), dst_elems * sizeof(T), 0, name, "dst (L1)");
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::DmaIn;
  w.amount = uint64_t{p.ndNum} * p.nValue * p.dValue * sizeof(T);
  w.gm = src.address();
  w.gm_rows = uint32_t{p.ndNum} * p.nValue;        // rows of dValue at srcDValue (ndNum > 1: as if
  w.gm_pitch = uint32_t{p.srcDValue} * sizeof(T);  // the matrices followed at that pitch)
  w.l2_bypass = src.GetL2CacheHint() == CacheMode::CACHE_MODE_DISABLE;
  detail::CubeOpPtr op = detail::cube_op();
  if (op) {
    detail::CubeOp* self = op.get();
    op->on_start([src, p, self] {
      T* s = self->staged<T>(uint64_t{p.ndNum} * p.nValue * p.dValue);
      for (uint32_t nd = 0; nd < p.ndNum; ++nd)
        for (uint32_t r = 0; r < p.nValue; ++r, s += p.dValue)
          detail::memory().read(
              src.address() +
                  (uint64_t{nd} * p.srcNdMatrixStride + uint64_t{r} * p.srcDValue) * sizeof(T),
              s, uint64_t{p.dValue} * sizeof(T));
    });
    op->on_finish([dst, p, self, cols, C0 = C0] {
      const T* s = self->staged<T>();
      T* d0 = dst.ptr();
      for (uint32_t nd = 0; nd < p.ndNum; ++nd)
        for (uint32_t r = 0; r < p.nValue; ++r, s += p.dValue)
          for (uint32_t c = 0; c < cols; ++c) {
            T* d = d0 + uint64_t{nd} * p.dstNzMatrixStride + uint64_t{c} * p.dstNzC0Stride * C0 +
                   uint64_t{r} * p.dstNzNStride * C0;
            uint32_t n = std::min(C0, p.dValue - c * C0);
            std::memcpy(d, s + c * C0, n * sizeof(T));
            std::memset(static_cast<void*>(d + n), 0, (C0 - n) * sizeof(T));  // padded to 32 B
          }
    });
  }
  detail::issue_cube(ascend::model::PipeId::MTE2, w, name, {},
                     {{dst.ub_offset(), dst.ub_offset() + dst_elems * sizeof(T)}}, src.address(),
                     src.address() + src_elems * sizeof(T), false, std::move(op));
}

// L1 -> L0A (A2) or L0B (B2), 512-B fractals (MTE1).
template <class T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  const char* name = "LoadData";
  detail::require_aic(name);
  if (p.repeatTimes == 0) detail::fault("LoadData of 0 fractals");
  if (p.ifTranspose && sizeof(T) != 2)
    detail::fault("LoadData: ifTranspose works on b16 data only");
  constexpr uint64_t kFractal = 512;
  const uint64_t src_end =
      (uint64_t{p.startIndex} + uint64_t{p.repeatTimes - 1u} * p.srcStride + 1) * kFractal;
  const uint64_t dst_end = (uint64_t{p.repeatTimes - 1u} * (1u + p.dstGap) + 1) * kFractal;
  if (src_end > detail::bytes_of<T>(src.GetSize()) || dst_end > detail::bytes_of<T>(dst.GetSize()))
    detail::fault(
        "LoadData: fractals beyond the " +
        std::string(src_end > detail::bytes_of<T>(src.GetSize()) ? "source" : "destination") +
        " LocalTensor");
  detail::local_buffer(src.owner(), src.ub_offset(), src_end, 0, name, "src (L1)");
  int to = detail::local_buffer(dst.owner(), dst.ub_offset(), dst_end, -1, name, "dst");
  if (to != 1 && to != 2)
    detail::fault("LoadData: the destination must be in L0A (A2) or L0B (B2)");
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mte1;
  w.to_l0b = to == 2;
  w.amount = uint64_t{p.repeatTimes} * kFractal;
  detail::CubeOpPtr op = detail::cube_op();
  if (op)
    op->on_finish([dst, src, p] {
      detail::each_load_repeat(src.ptr(), dst.ptr(), p, [&](const uint8_t* s, uint8_t* d) {
        if (!p.ifTranspose) {
          std::memcpy(d, s, kFractal);
          return;
        }
        for (int i = 0; i < 16; ++i)  // a 16 x 16 b16 fractal, transposed
          for (int j = 0; j < 16; ++j) std::memcpy(d + (j * 16 + i) * 2, s + (i * 16 + j) * 2, 2);
      });
    });
  uint64_t src_lo = src.ub_offset() + uint64_t{p.startIndex} * kFractal;
  detail::issue_cube(ascend::model::PipeId::MTE1, w, name, {{src_lo, src.ub_offset() + src_end}},
                     {{dst.ub_offset(), dst.ub_offset() + dst_end}}, 0, 0, false, std::move(op));
}

// 4:2 structured sparsity (Ascend C API: LoadDataWithSparse, MmadWithSparse), int8 only. B is
// stored dense: of each group of 4 values along k, the 2 kept (K/2 x N, the L0B layout of a K/2
// deep B). LoadDataWithSparse moves repeatTimes consecutive 512-B fractals of it from startIndex
// into L0B and, with each, its 128-B index fractal (16 columns x 32 dense k x 2 bits, 4 indices a
// byte from the low bits up) into the cube's index buffer (a quarter of L0B), on MTE1.
// MmadWithSparse multiplies the full-K A by it: for column n and group g, the index pair (i0, i1)
// picks A's elements 4g + i0 and 4g + i1 + 1 (the same element twice when i1 + 1 <= i0, as the
// selection table has it; i0 = 3, which the table leaves out, picks element 3 twice), against the
// group's two dense values. Its time is
// that of an m x k/2 x n Mmad: the cube multiplies the selected half of A.
template <class T, class U>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<U>& idx, const LoadData2DParams& p) {
  static_assert(std::is_same_v<T, int8_t> && std::is_same_v<U, uint8_t>,
                "LoadDataWithSparse: int8_t data and uint8_t indices");
  const char* name = "LoadDataWithSparse";
  detail::require_aic(name);
  if (p.repeatTimes == 0) return;  // a NOP, as Ascend C states
  constexpr uint64_t kFractal = 512, kIndexFractal = 128;
  const uint64_t first = p.startIndex, n = p.repeatTimes;
  if ((first + n) * kFractal > src.GetSize() || n * kFractal > dst.GetSize() ||
      (first + n) * kIndexFractal > idx.GetSize())
    detail::fault(std::string(name) + ": fractals beyond a LocalTensor");
  detail::local_buffer(src.owner(), src.ub_offset(), (first + n) * kFractal, 0, name, "src (L1)");
  detail::local_buffer(idx.owner(), idx.ub_offset(), (first + n) * kIndexFractal, 0, name,
                       "idx (L1)");
  if (detail::local_buffer(dst.owner(), dst.ub_offset(), n * kFractal, -1, name, "dst") != 2)
    detail::fault(std::string(name) + ": the destination must be in L0B (B2)");
  detail::CoreState& st = detail::state();
  const uint64_t index_bytes = dst.owner()->buffers()[2]->capacity() / 4;
  if (n * kIndexFractal > index_bytes)
    detail::fault(std::string(name) + ": " + std::to_string(n) +
                  " index fractals beyond the index buffer (a quarter of L0B)");
  if (st.sparse_index.size() < index_bytes) st.sparse_index.assign(index_bytes, 0);
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mte1;
  w.to_l0b = true;
  w.amount = n * (kFractal + kIndexFractal);
  detail::CubeOpPtr op = detail::cube_op();
  uint8_t* index = st.sparse_index.data();
  if (op)
    op->on_finish([dst, src, idx, first, n, index] {
      std::memcpy(dst.ptr(), reinterpret_cast<const uint8_t*>(src.ptr()) + first * kFractal,
                  n * kFractal);
      std::memcpy(index, idx.ptr() + first * kIndexFractal, n * kIndexFractal);
    });
  detail::issue_cube(
      ascend::model::PipeId::MTE1, w, name,
      {{src.ub_offset() + first * kFractal, src.ub_offset() + (first + n) * kFractal},
       {idx.ub_offset() + first * kIndexFractal, idx.ub_offset() + (first + n) * kIndexFractal}},
      {{dst.ub_offset(), dst.ub_offset() + n * kFractal}}, 0, 0, false, std::move(op));
}

template <class Acc, class T>
void MmadWithSparse(const LocalTensor<Acc>& c, const LocalTensor<T>& a, const LocalTensor<T>& b,
                    const MmadParams& p) {
  static_assert(std::is_same_v<Acc, int32_t> && std::is_same_v<T, int8_t>,
                "MmadWithSparse: int8_t A and B into an int32_t C");
  const char* name = "MmadWithSparse";
  detail::require_aic(name);
  if (p.m == 0 || p.n == 0 || p.k == 0 || p.m > 4095 || p.n > 4095 || p.k > 4095 || p.k % 64)
    detail::fault(std::string(name) + ": m, n, k = " + std::to_string(p.m) + ", " +
                  std::to_string(p.n) + ", " + std::to_string(p.k) +
                  " outside [1, 4095] (k a multiple of 64: whole index fractals)");
  constexpr uint32_t C0 = 32;
  const uint32_t mb = detail::ceil_div(p.m, 16), kb = p.k / C0, nb = detail::ceil_div(p.n, 16),
                 dkb = kb / 2;  // dense k blocks
  const uint64_t a_bytes = uint64_t{mb} * kb * 512, b_bytes = uint64_t{dkb} * nb * 512,
                 c_bytes = uint64_t{mb} * nb * 256 * 4, index_bytes = uint64_t{dkb} * nb * 128;
  if (a_bytes > a.GetSize() || b_bytes > b.GetSize() || c_bytes > uint64_t{c.GetSize()} * 4)
    detail::fault(std::string(name) + ": an operand's fractals go beyond its LocalTensor");
  detail::local_buffer(a.owner(), a.ub_offset(), a_bytes, 1, name, "A (L0A)");
  detail::local_buffer(b.owner(), b.ub_offset(), b_bytes, 2, name, "B (L0B)");
  detail::local_buffer(c.owner(), c.ub_offset(), c_bytes, 3, name, "C (L0C)");
  const detail::CoreState& st = detail::state();
  if (st.sparse_index.size() < index_bytes)
    detail::fault(std::string(name) + " before a LoadDataWithSparse filled the index buffer");
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mmad;
  w.m = p.m;
  w.k = static_cast<uint16_t>(p.k / 2);
  w.n = p.n;
  w.int8 = true;
  detail::CubeOpPtr op = detail::cube_op();
  const uint8_t* index = st.sparse_index.data();
  if (op)
    op->on_finish([c, a, b, p, mb, kb, nb, index] {
      int32_t* cp = c.ptr();
      const int8_t* ap = a.ptr();
      const int8_t* bp = b.ptr();
      const uint32_t dk = p.k / 2;
      auto a_at = [&](uint32_t i, uint32_t k) {
        return int32_t{
            ap[uint64_t{i / 16} * kb * 512 + (i % 16) * C0 + uint64_t{k / C0} * 512 + k % C0]};
      };
      for (uint32_t j = 0; j < p.n; ++j) {
        std::vector<uint32_t> pick(dk);  // A's k for dense k d of this column
        std::vector<int32_t> bcol(dk);
        for (uint32_t d = 0; d < dk; ++d) {
          const uint64_t frac = uint64_t{d / C0} * nb + j / 16;
          bcol[d] = bp[frac * 512 + (j % 16) * C0 + d % C0];
          const uint32_t g = d / 2, even = d & ~1u;
          auto idx_of = [&](uint32_t e) {
            return (index[frac * 128 + (j % 16) * 8 + (e % C0) / 4] >> (2 * (e % 4))) & 3u;
          };
          const uint32_t i0 = idx_of(even), i1 = idx_of(even + 1);
          pick[d] = 4 * g + (d % 2 ? std::min(3u, std::max(i1 + 1, i0)) : i0);
        }
        for (uint32_t i = 0; i < p.m; ++i) {
          int32_t& out = cp[uint64_t{j / 16} * mb * 256 + i * 16 + j % 16];
          int32_t acc = p.cmatrixInitVal ? 0 : out;
          for (uint32_t d = 0; d < dk; ++d) acc = detail::mac_op(acc, a_at(i, pick[d]), bcol[d]);
          out = acc;
        }
      }
    });
  detail::issue_cube(
      ascend::model::PipeId::M, w, name,
      {{a.ub_offset(), a.ub_offset() + a_bytes}, {b.ub_offset(), b.ub_offset() + b_bytes}},
      {{c.ub_offset(), c.ub_offset() + c_bytes}}, 0, 0, false, std::move(op));
}

// LoadData of a feature map (Ascend C API: LoadData, LoadData3DParamsV2): L1 holds it as
// NC1HWC0 (N = 1: C1 planes of l1H x l1W pixels of C0 = 32 B channels); the instruction unrolls it
// image-to-column (row m: output pixel (m / Wout, m % Wout) of a filterH x filterW window at
// strideH/W, dilationFilterH/W over the map padded by padList = {left, right, top, bottom} with
// padValue; column k: channel c1 * C0 + k % C0 at window point (k / C0) % (filterH x filterW),
// row-major, of plane k / (C0 x filterH x filterW)) and writes rows [mStartPt, + mExtension) x
// columns [kStartPt, + kExtension) as fractals: into L0A as Mmad reads A (16 x C0 fractals,
// m-block major; with enTranspose each fractal transposed, k-block major), into L0B as Mmad
// reads B (the rows are B's k, the columns its n). b32 (float, C0 = 8) into L0A or L0B, b16
// (half, bf16) and b8 into L0A (int8) are modelled; int4 does not compile. b32 transposed (into
// L0B, or L0A with enTranspose) goes in 16 x 16 squares: L0A with k padded to 16 (what Mmad reads
// with kDirectionAlign), L0B with n in whole 16-column fractals.
template <class T>
struct LoadData3DParamsV2 {
  uint8_t padList[4] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = T{};
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

namespace detail {
// The geometry of one image-to-column load, kept small (it rides in the instruction's effect).
template <class T>
struct Im2col {
  uint16_t h, w, c1, wout, rows;  // map height, width, channel planes; output width and rows
  uint16_t fh, fw, sh, sw, dh, dw, pad_left, pad_top;
  uint16_t m0, k0, mb, kb;  // first row and column; 16-row and C0-column blocks written
  bool transpose, to_l0b;
  T pad;
  // Element (m, k) of the unrolled matrix.
  T at(const T* map, uint32_t m, uint32_t k) const {
    constexpr uint32_t C0 = c0<T>();
    const uint32_t window = uint32_t{fh} * fw;
    const uint32_t plane = k / (C0 * window), point = (k / C0) % window, ch = k % C0;
    const int64_t y = int64_t{m / wout} * sh - pad_top + int64_t{point / fw} * dh;
    const int64_t x = int64_t{m % wout} * sw - pad_left + int64_t{point % fw} * dw;
    if (y < 0 || y >= h || x < 0 || x >= w) return pad;
    return map[((uint64_t{plane} * h + static_cast<uint64_t>(y)) * w + static_cast<uint64_t>(x)) *
                   C0 +
               ch];
  }
};
}  // namespace detail

template <class T, class U>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData3DParamsV2<U>& p) {
  static_assert(std::is_same_v<T, U>, "LoadData (3D): padValue's type is the operands' type");
  static_assert(!std::is_same_v<T, int4b_t>,
                "ascend-sim: LoadData (3D) of int4b_t is not modelled (b32, b16 and b8 are)");
  static_assert(sizeof(T) == 4 || sizeof(T) == 2 || sizeof(T) == 1,
                "LoadData (3D): b32, b16 and b8 are modelled");
  const char* name = "LoadData (3D)";
  detail::require_aic(name);
  constexpr uint32_t C0 = detail::c0<T>();
  if (p.l1H == 0 || p.l1W == 0 || p.channelSize == 0 || p.kExtension == 0 || p.mExtension == 0 ||
      (p.filterW == 0 && !p.filterSizeW) || (p.filterH == 0 && !p.filterSizeH))
    return;  // a NOP, as the API reference defines these zeros
  if (p.enSmallK || p.fMatrixCtrl)
    detail::fault("LoadData (3D): enSmallK and fMatrixCtrl are not supported on dav-2201");
  if (p.channelSize % C0)
    detail::fault("LoadData (3D): channelSize " + std::to_string(p.channelSize) +
                  " is not a multiple of C0 = " + std::to_string(C0) + " (not modelled)");
  if (p.strideW == 0 || p.strideH == 0 || p.dilationFilterW == 0 || p.dilationFilterH == 0)
    detail::fault("LoadData (3D): a stride or dilation of 0");
  const uint32_t fw = p.filterW + (p.filterSizeW ? 256u : 0u),
                 fh = p.filterH + (p.filterSizeH ? 256u : 0u);
  const int64_t span_w = int64_t{p.l1W} + p.padList[0] + p.padList[1] -
                         ((int64_t{fw} - 1) * p.dilationFilterW + 1),
                span_h = int64_t{p.l1H} + p.padList[2] + p.padList[3] -
                         ((int64_t{fh} - 1) * p.dilationFilterH + 1);
  if (span_w < 0 || span_h < 0) detail::fault("LoadData (3D): the filter is larger than the map");
  const uint32_t wout = static_cast<uint32_t>(span_w / p.strideW + 1),
                 hout = static_cast<uint32_t>(span_h / p.strideH + 1);
  const uint32_t c1 = p.channelSize / C0, cols = c1 * fh * fw * C0;
  const uint32_t mb = detail::ceil_div(p.mExtension, 16), kb = detail::ceil_div(p.kExtension, C0);
  if (p.kStartPt % C0)
    detail::fault("LoadData (3D): kStartPt " + std::to_string(p.kStartPt) +
                  " is not a multiple of C0 = " + std::to_string(C0));
  if (uint64_t{p.mStartPt} + mb * 16 > uint64_t{hout} * wout ||
      uint64_t{p.kStartPt} + kb * C0 > cols)
    detail::fault("LoadData (3D): rows [" + std::to_string(p.mStartPt) + ", +" +
                  std::to_string(mb * 16) + ") x columns [" + std::to_string(p.kStartPt) + ", +" +
                  std::to_string(kb * C0) + ") beyond the unrolled " + std::to_string(hout * wout) +
                  " x " + std::to_string(cols) + " matrix");
  const uint64_t src_bytes = uint64_t{c1} * p.l1H * p.l1W * 32,
                 valid_bytes = uint64_t{mb} * kb * 512;
  if (src_bytes > uint64_t{src.GetSize()} * sizeof(T) ||
      valid_bytes > uint64_t{dst.GetSize()} * sizeof(T))
    detail::fault(std::string(name) + ": beyond the " +
                  (src_bytes > uint64_t{src.GetSize()} * sizeof(T) ? "source" : "destination") +
                  " LocalTensor");
  detail::local_buffer(src.owner(), src.ub_offset(), src_bytes, 0, name, "src (L1)");
  const int to = detail::local_buffer(dst.owner(), dst.ub_offset(), valid_bytes, -1, name, "dst");
  if (to != 1 && to != 2)
    detail::fault("LoadData (3D): the destination must be in L0A (A2) or L0B (B2)");
  if (to == 2 && sizeof(T) == 1)
    detail::fault("LoadData (3D): b8 into L0B is not supported (its load transposes b16 only)");
  if (to == 1 && p.enTranspose && sizeof(T) == 1)
    detail::fault("LoadData (3D): enTranspose into L0A is b16 or b32 only");
  // b32 transposed (into L0B, or into L0A with enTranspose): the load transposes 16 x 16 squares,
  // two 16 x 8 fractals of the unrolled matrix side by side, into two 16 x 8 fractals of the
  // destination (the load_data_l12l0 example's float sections). The dummy half of a last odd
  // 8-column block is not written, so the span written may pass the valid data (which the
  // vendor's examples size the tensor by): it must fit the buffer, and becomes usable there as a
  // static tensor's span does.
  const bool wide_t = sizeof(T) == 4 && (to == 2 || p.enTranspose);
  uint64_t dst_bytes = valid_bytes;
  if (wide_t) {
    const uint32_t r_last = mb * 16 - 1, c_last = kb * C0 - 1;
    const uint64_t frac = to == 2 ? uint64_t{r_last / 8} * detail::ceil_div(kb, 2) + c_last / 16
                                  : uint64_t{c_last / 16} * (2 * mb) + r_last / 8;
    dst_bytes = (frac * 128 + (c_last % 16) * 8 + 8) * 4;
    ascend::model::LocalBuffer& buf = *dst.owner()->buffers()[static_cast<size_t>(to)];
    const uint64_t end = dst.ub_offset() - buf.base() + dst_bytes;
    if (end > buf.capacity())
      detail::fault(std::string(name) + ": the b32 transposed span of " +
                    std::to_string(dst_bytes) + " B passes the end of its buffer");
    buf.reserve(static_cast<uint32_t>(end));
    detail::local_buffer(dst.owner(), dst.ub_offset(), dst_bytes, to, name, "dst");
  }
  detail::Im2col<T> g{static_cast<uint16_t>(p.l1H),
                      static_cast<uint16_t>(p.l1W),
                      static_cast<uint16_t>(c1),
                      static_cast<uint16_t>(wout),
                      static_cast<uint16_t>(hout * wout),
                      static_cast<uint16_t>(fh),
                      static_cast<uint16_t>(fw),
                      p.strideH,
                      p.strideW,
                      p.dilationFilterH,
                      p.dilationFilterW,
                      p.padList[0],
                      p.padList[2],
                      p.mStartPt,
                      p.kStartPt,
                      static_cast<uint16_t>(mb),
                      static_cast<uint16_t>(kb),
                      p.enTranspose,
                      to == 2,
                      p.padValue};
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mte1;
  w.to_l0b = to == 2;
  w.amount = valid_bytes;
  detail::CubeOpPtr op = detail::cube_op();
  if (op)
    op->on_finish([dst, src, g, wide_t] {
      const T* map = src.ptr();
      T* out = dst.ptr();
      const uint32_t cb16 = (uint32_t{g.kb} + 1) / 2;
      for (uint32_t m = 0; m < uint32_t{g.mb} * 16; ++m)
        for (uint32_t k = 0; k < uint32_t{g.kb} * C0; ++k) {
          const T v = g.at(map, g.m0 + m, g.k0 + k);
          const uint32_t in_m = m % 16, in_k = k % C0;
          uint64_t at;
          if (wide_t && g.to_l0b)  // B (rows = k, columns = n): [8-k block][n block][n][k]
            at = (uint64_t{m / 8} * cb16 + k / 16) * 128 + (k % 16) * 8 + m % 8;
          else if (wide_t)  // A (rows = k, columns = m): [m block][8-k block][m][k]
            at = (uint64_t{k / 16} * (2u * g.mb) + m / 8) * 128 + (k % 16) * 8 + m % 8;
          else if (g.to_l0b)  // B (k = rows here, n = columns): [k block][n block][n][k]
            at = (uint64_t{m / 16} * g.kb + k / C0) * 16 * C0 + in_k * 16 + in_m;
          else if (g.transpose)  // [k block][m block][k][m]
            at = (uint64_t{k / C0} * g.mb + m / 16) * 16 * C0 + in_k * 16 + in_m;
          else  // [m block][k block][m][k]
            at = (uint64_t{m / 16} * g.kb + k / C0) * 16 * C0 + in_m * C0 + in_k;
          out[at] = v;
        }
    });
  detail::issue_cube(ascend::model::PipeId::MTE1, w, name,
                     {{src.ub_offset(), src.ub_offset() + src_bytes}},
                     {{dst.ub_offset(), dst.ub_offset() + dst_bytes}}, 0, 0, false, std::move(op));
}

// L1 -> L0B, b8 (int8): the transposing load B needs on real hardware, where LoadData's
// ifTranspose serves b16 only. Repeat r reads fractals startIndex + r * srcStride and the next
// one (a 32 x 32 square, row-major: element (k, n) at byte k * 32 + n) and writes fractal
// n-columns 0-15 at r * (1 + dstGap) and 16-31 dstFracGap fractals after it, each 32 (k) x 16
// (n) stored n-major (element (k, n) at n * 32 + k), as Mmad reads L0B. The reference documents
// only that the b8 path needs a transposing load; the square-by-square form and the meaning of
// the two gaps are modelled as Ascend C's LoadDataWithTranspose parameters describe them.
template <class T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& p) {
  const char* name = "LoadDataWithTranspose";
  detail::require_aic(name);
  static_assert(sizeof(T) == 1,
                "LoadDataWithTranspose: modelled for b8 (int8) data; b16 uses "
                "LoadData with ifTranspose");
  if (p.repeatTimes == 0) detail::fault("LoadDataWithTranspose of 0 squares");
  constexpr uint64_t kFractal = 512, kSquare = 1024;
  const uint64_t src_end =
      (uint64_t{p.startIndex} + uint64_t{p.repeatTimes - 1u} * p.srcStride + 1) * kSquare;
  const uint64_t dst_end =
      (uint64_t{p.repeatTimes - 1u} * (1u + p.dstGap) + 2 + p.dstFracGap) * kFractal;
  if (src_end > src.GetSize() || dst_end > dst.GetSize())
    detail::fault("LoadDataWithTranspose: fractals beyond the " +
                  std::string(src_end > src.GetSize() ? "source" : "destination") + " LocalTensor");
  detail::local_buffer(src.owner(), src.ub_offset(), src_end, 0, name, "src (L1)");
  detail::local_buffer(dst.owner(), dst.ub_offset(), dst_end, 2, name, "dst (L0B)");
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mte1;
  w.to_l0b = true;
  w.amount = uint64_t{p.repeatTimes} * 2 * kFractal;
  detail::CubeOpPtr op = detail::cube_op();
  if (op)
    op->on_finish([dst, src, p] {
      const uint8_t* s0 = reinterpret_cast<const uint8_t*>(src.ptr());
      uint8_t* d0 = reinterpret_cast<uint8_t*>(dst.ptr());
      for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint8_t* s = s0 + (uint64_t{p.startIndex} + uint64_t{r} * p.srcStride) * kSquare;
        uint8_t* d = d0 + uint64_t{r} * (1u + p.dstGap) * kFractal;
        for (uint32_t half_n = 0; half_n < 2; ++half_n) {
          uint8_t* f = d + half_n * (1u + p.dstFracGap) * kFractal;
          for (uint32_t n = 0; n < 16; ++n)
            for (uint32_t k = 0; k < 32; ++k) f[n * 32 + k] = s[k * 32 + half_n * 16 + n];
        }
      }
    });
  uint64_t src_lo = src.ub_offset() + uint64_t{p.startIndex} * kSquare;
  detail::issue_cube(ascend::model::PipeId::MTE1, w, name, {{src_lo, src.ub_offset() + src_end}},
                     {{dst.ub_offset(), dst.ub_offset() + dst_end}}, 0, 0, false, std::move(op));
}

namespace detail {
// Unit flags (MmadParams/FixpipeParamsV220::unitFlag) let the FIX pipe read L0C units as the
// Mmad that ends with unitFlag 3 completes them. The model orders the whole Mmad before the
// Fixpipe instead, through an M -> FIX flag of its own (the flag instructions are timed as any).
inline void raise_unit_flag() {
  CoreState& st = state();
  if (st.unit_flag_event == 0) st.unit_flag_event = st.next_queue_event++;
  raw_set_flag(HardEvent::M_FIX, st.unit_flag_event);
  ++st.unit_flags_raised;
}
inline void wait_unit_flags() {
  CoreState& st = state();
  for (; st.unit_flags_raised > 0; --st.unit_flags_raised)
    raw_wait_flag(HardEvent::M_FIX, st.unit_flag_event);
}

template <class Acc, class T>
void mmad(const LocalTensor<Acc>& c, const LocalTensor<T>& a, const LocalTensor<T>& b,
          const LocalTensor<Acc>* bias, const MmadParams& p) {
  const char* name = "Mmad";
  require_aic(name);
  static_assert(std::is_same_v<Acc, float> || std::is_same_v<Acc, int32_t>,
                "Mmad accumulates in float (L0C fp32) or int32_t");
  static_assert((std::is_same_v<T, int8_t> || is_int4<T>) == std::is_same_v<Acc, int32_t>,
                "Mmad: int8 and int4b_t operands accumulate in int32_t, floating ones in float");
  if (p.m == 0 || p.n == 0 || p.k == 0 || p.m > 4095 || p.n > 4095 || p.k > 4095)
    fault("Mmad: m, n, k = " + std::to_string(p.m) + ", " + std::to_string(p.n) + ", " +
          std::to_string(p.k) + " outside [1, 4095]");
  // Elements along k of a fractal row: 32 B of them (int4b_t: 64, two a byte).
  constexpr uint32_t C0 = is_int4<T> ? 64 : c0<T>();
  const uint32_t mb = ceil_div(p.m, 16), kb = ceil_div(p.k, C0), nb = ceil_div(p.n, 16);
  // A's fractals per 16-row block of L0A: kb, or for fp32 with kDirectionAlign (the layout a
  // transposing load leaves, k padded to 16 = two 16 x 8 fractals) an even count; the cube still
  // reads only the first kb of each row (the API reference's K-direction alignment page).
  constexpr bool fp32 = std::is_same_v<T, float>;
  const uint32_t a_row = fp32 && p.kDirectionAlign ? ceil_div(p.k, 16) * 2 : kb;
  // m = 1 is the GEMV mode (Ascend C API: Mmad, GEMV): A is k contiguous elements from a 512-B
  // boundary of L0A instead of a row of fractals; B and C keep their layouts.
  const bool gemv = p.m == 1;
  if (gemv && a.ub_offset() % 512)
    fault("Mmad 1x" + std::to_string(p.k) + "x" + std::to_string(p.n) +
          " (GEMV): A must start on a 512-B boundary of L0A");
  const uint64_t a_bytes =
                     gemv ? uint64_t{ceil_div(static_cast<uint32_t>(bytes_of<T>(p.k)), 512)} * 512
                          : (uint64_t{mb - 1u} * a_row + kb) * 512,
                 b_bytes = uint64_t{kb} * nb * 512, c_bytes = uint64_t{mb} * nb * 256 * sizeof(Acc);
  // fp32 B's fractals hold 16 columns of n, while the vendor's examples size an L0B tensor by n
  // padded to 8 (the data a b32 load writes): its tensor holds that, its span must be in L0B.
  const uint64_t b_tensor = fp32 ? uint64_t{kb} * 8 * (ceil_div(p.n, 8) * 8) * 4 : b_bytes;
  if (a_bytes > bytes_of<T>(a.GetSize()) || b_tensor > bytes_of<T>(b.GetSize()) ||
      c_bytes > uint64_t{c.GetSize()} * sizeof(Acc))
    fault("Mmad " + std::to_string(p.m) + "x" + std::to_string(p.k) + "x" + std::to_string(p.n) +
          ": an operand's fractals go beyond its LocalTensor");
  local_buffer(a.owner(), a.ub_offset(), a_bytes, 1, name, "A (L0A)");
  local_buffer(b.owner(), b.ub_offset(), b_bytes, 2, name, "B (L0B)");
  local_buffer(c.owner(), c.ub_offset(), c_bytes, 3, name, "C (L0C)");
  const bool from_bias = p.cmatrixSource;
  if (from_bias) {
    if (!bias) fault("Mmad: cmatrixSource without a bias tensor");
    local_buffer(bias->owner(), bias->ub_offset(), uint64_t{p.n} * 4, 4, name, "bias (BT)");
  }
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mmad;
  w.m = p.m;
  w.k = p.k;
  w.n = p.n;
  w.int8 = std::is_same_v<T, int8_t>;
  w.fp32 = fp32;
  w.int4 = is_int4<T>;
  CubeOpPtr op = cube_op();
  LocalTensor<Acc> bt = bias ? *bias : LocalTensor<Acc>();
  if (op)
    op->on_finish([c, a, b, bt, p, from_bias, mb, a_row, nb, gemv] {
      Acc* cp = c.ptr();
      const T* ap = a.ptr();
      const T* bp = b.ptr();
      const Acc* bias_p = from_bias ? bt.ptr() : nullptr;
      // The operands once in the accumulator's type (row i of A k-contiguous, row k of B
      // n-contiguous): the same products as converting per multiply, m*k + k*n conversions
      // instead of m*n*k.
      using Op = std::conditional_t<std::is_same_v<Acc, int32_t>, int32_t, float>;
      const uint32_t n16 = ceil_div(p.n, 16) * 16;  // B's rows padded with zeros, C's unused
      std::vector<Op> av(uint64_t{p.m} * p.k), bv(uint64_t{p.k} * n16);
      // Element `idx` (in elements from `base`) as an operand (int4b_t: a nibble, two a byte).
      auto op_at = [](const T* base, uint64_t idx) {
        if constexpr (is_int4<T>)
          return int4_at(base, idx);
        else if constexpr (std::is_same_v<Op, int32_t>)
          return int32_t{base[idx]};
        else
          return static_cast<float>(to_double(base[idx]));
      };
      for (uint32_t i = 0; i < p.m; ++i) {
        const uint64_t arow = uint64_t{i / 16} * a_row * 16 * C0 + (i % 16) * C0;
        for (uint32_t k = 0; k < p.k; ++k)
          av[uint64_t{i} * p.k + k] =
              op_at(ap, gemv ? k : arow + uint64_t{k / C0} * 16 * C0 + k % C0);
      }
      for (uint32_t j = 0; j < p.n; ++j) {
        const uint64_t bcol = uint64_t{j / 16} * C0 * 16 + (j % 16) * C0;
        for (uint32_t k = 0; k < p.k; ++k)
          bv[uint64_t{k} * n16 + j] = op_at(bp, bcol + uint64_t{k / C0} * nb * C0 * 16 + k % C0);
      }
      // Each C element sums its products in ascending k. A row of C advances all its n sums
      // together, one k at a time: the same operations in the same order per element, but
      // independent across n, so the host vectorises them.
      std::vector<Acc> acc(n16);
      for (uint32_t i = 0; i < p.m; ++i) {
        auto out = [&](uint32_t j) -> Acc& {
          return cp[uint64_t{j / 16} * mb * 256 + i * 16 + j % 16];
        };
        for (uint32_t j = 0; j < p.n; ++j)
          acc[j] = from_bias ? bias_p[j] : p.cmatrixInitVal ? Acc{} : out(j);
        const Op* a_i = &av[uint64_t{i} * p.k];
        for (uint32_t k = 0; k < p.k; ++k) mac_row(acc.data(), a_i[k], &bv[uint64_t{k} * n16], n16);
        for (uint32_t j = 0; j < p.n; ++j) out(j) = acc[j];
      }
    });
  std::initializer_list<LocalRange> reads = {{a.ub_offset(), a.ub_offset() + a_bytes},
                                             {b.ub_offset(), b.ub_offset() + b_bytes}};
  issue_cube(ascend::model::PipeId::M, w, name, reads, {{c.ub_offset(), c.ub_offset() + c_bytes}},
             0, 0, false, std::move(op));
  if (p.unitFlag == 3) raise_unit_flag();
}
}  // namespace detail

// C (L0C) = A (L0A) x B (L0B), from 0, or accumulated onto C (cmatrixInitVal = false).
template <class Acc, class T>
void Mmad(const LocalTensor<Acc>& c, const LocalTensor<T>& a, const LocalTensor<T>& b,
          const MmadParams& p) {
  detail::mmad(c, a, b, static_cast<const LocalTensor<Acc>*>(nullptr), p);
}
// The same, starting from the bias in the BiasTable (C2) when cmatrixSource is set (fp32 bias for
// floating operands, int32 for int8).
template <class Acc, class T>
void Mmad(const LocalTensor<Acc>& c, const LocalTensor<T>& a, const LocalTensor<T>& b,
          const LocalTensor<Acc>& bias, const MmadParams& p) {
  detail::mmad(c, a, b, &bias, p);
}

namespace detail {
// The FIX pipe reads a dequantization scale's sign, exponent and top 10 mantissa bits (bits 31..13
// of its word): CANN's host code masks an fp32 scale with 0xFFFFE000 before handing it over
// (ops-transformer matmul_util.cpp), and the vendor's examples' goldens do the same.
inline float fix_scale(float scale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  bits &= 0xFFFFE000u;
  std::memcpy(&scale, &bits, 4);
  return scale;
}
template <class D, class S>
D fix_convert(S v, const FixpipeParamsV220& p, float scale) {
  double x;
  if (p.quantPre == DEQF16 || p.quantPre == VDEQF16) {
    x = static_cast<double>(static_cast<float>(v) * fix_scale(scale));  // int32 x scale, in fp32
  } else {
    x = to_double(v);
  }
  if (p.reluEn && x < 0) x = 0;
  return cast_to<D>(x, RoundMode::CAST_RINT);
}

// Where a Fixpipe writes: GM, or (l1 set) a tensor in L1.
template <class D>
struct FixDst {
  GlobalTensor<D> gm;
  const LocalTensor<D>* l1 = nullptr;
};
template <class D, class S>
void fixpipe(const FixDst<D>& out, const LocalTensor<S>& src, const LocalTensor<uint64_t>* scales,
             const FixpipeParamsV220& p, CO2Layout layout) {
  const char* name = out.l1 ? "Fixpipe(L0C->L1)" : "Fixpipe";
  const GlobalTensor<D>& dst = out.gm;
  require_aic(name);
  if (p.unitFlag != 0) wait_unit_flags();
  if (layout != CO2Layout::ROW_MAJOR && layout != CO2Layout::NZ)
    fault("Fixpipe: the ND (CFG_ROW_MAJOR) and NZ (CFG_NZ) outputs are modelled");
  // NZ: the L0C's 16-column blocks as they are, block j / 16 at j / 16 x dstStride 32-B blocks.
  // With isChannelSplit (fp32 in and out, NZ, no unit flag: the dav-2201 API reference, F32
  // Channel Split), each 16 x 16 fractal leaves as two 16 x 8 ones: column block j / 8 of 8
  // columns at j / 8 x dstStride 32-B blocks.
  const bool nz = layout == CO2Layout::NZ;
  const bool split = nz && p.isChannelSplit;
  const uint32_t dst_c0 = split ? 8u : 16u;  // columns per NZ block of the destination
  if (p.isChannelSplit &&
      (!nz || !std::is_same_v<S, float> || !std::is_same_v<D, float> || p.unitFlag != 0 || out.l1))
    fault("Fixpipe: isChannelSplit is for an fp32 L0C written as fp32 NZ to GM, no unit flag");
  if (p.mSize == 0 || p.nSize == 0) fault("Fixpipe of 0 bytes");
  if (p.nSize > 4095 || (!nz && p.mSize > 8192))
    fault("Fixpipe: nSize " + std::to_string(p.nSize) + " > 4095 or mSize " +
          std::to_string(p.mSize) + " > 8192 (NZ2ND)");
  if (nz &&
      (p.nSize % dst_c0 || uint64_t{p.dstStride} * 32 < uint64_t{p.mSize} * dst_c0 * sizeof(D)))
    fault("Fixpipe (NZ): nSize " + std::to_string(p.nSize) + " must be a multiple of " +
          std::to_string(dst_c0) + " and dstStride (32-B blocks) cover mSize rows of " +
          std::to_string(dst_c0));
  const uint64_t nz_block = uint64_t{p.dstStride} * 32 / sizeof(D);  // elements between blocks
  if (p.srcStride < p.mSize || p.srcStride % 16)
    fault("Fixpipe: srcStride " + std::to_string(p.srcStride) +
          " must be a multiple of 16 and at least mSize " + std::to_string(p.mSize));
  if (!nz && p.dstStride < p.nSize) fault("Fixpipe: dstStride below nSize");
  const bool deq = p.quantPre == DEQF16 || p.quantPre == VDEQF16;
  const bool int_out = p.quantPre == NoQuant && std::is_same_v<S, int32_t>;
  if (deq && !std::is_same_v<S, int32_t>) fault("Fixpipe: DEQF16/VDEQF16 read an int32 L0C");
  if (!deq && !int_out && !std::is_same_v<S, float>)
    fault(
        "Fixpipe: F322F16/F322BF16 read a float L0C; an int32 L0C leaves as int32 (NoQuant) or "
        "dequantized (DEQF16/VDEQF16)");
  if (int_out && !std::is_same_v<D, int32_t>)
    fault("Fixpipe: NoQuant from an int32 L0C writes int32");
  if (p.quantPre == REQ8 || p.quantPre == VREQ8 || p.quantPre == QF322B8_PRE ||
      p.quantPre == VQF322B8_PRE)
    fault("Fixpipe: REQ8/VREQ8/QF322B8_PRE/VQF322B8_PRE are not modelled");
  if ((p.quantPre == F322F16 || deq) != std::is_same_v<D, half> ||
      (p.quantPre == F322BF16) != std::is_same_v<D, bfloat16_t>)
    fault("Fixpipe: the destination type does not match quantPre");
  if (p.quantPre == VDEQF16 && !scales) fault("Fixpipe: VDEQF16 needs its scales in L1");
  if (p.quantPre != VDEQF16 && scales)
    fault("Fixpipe: a scale tensor in L1 is read by VDEQF16 only");
  const uint32_t nb = ceil_div(p.nSize, 16);
  // ndNum matrices (NZ2ND): matrix k from k x srcNdStride 16 x 16 blocks of L0C into
  // k x dstNdStride elements of dst, each as the first.
  const uint32_t mats = nz ? 1u : p.ndNum;
  if (mats == 0) fault("Fixpipe of 0 matrices (ndNum 0)");
  // NZ is the plain move: the NZ2ND fields (ndNum and its strides) do not apply, as the API
  // reference's Fixpipe page states for the NZ layout.
  const uint64_t src_mat = uint64_t{p.srcNdStride} * 256, dst_mat = p.dstNdStride;
  const uint64_t src_bytes =
      (uint64_t{mats - 1u} * src_mat + uint64_t{nb} * p.srcStride * 16) * sizeof(S);
  if (src_bytes > uint64_t{src.GetSize()} * sizeof(S)) fault("Fixpipe: beyond its L0C LocalTensor");
  local_buffer(src.owner(), src.ub_offset(), src_bytes, 3, name, "src (L0C)");
  if (scales) {
    if (uint64_t{p.nSize} > scales->GetSize())
      fault("Fixpipe: VDEQF16 of " + std::to_string(p.nSize) +
            " columns beyond its scale LocalTensor of " + std::to_string(scales->GetSize()));
    local_buffer(scales->owner(), scales->ub_offset(), uint64_t{p.nSize} * 8, 0, name,
                 "scales (L1)");
    // The per-column uint64 scales go L1 -> FB first, on the FIX pipe (its own move, before
    // the L0C read that uses them); the effect is in the Fixpipe below, which reads them.
    ascend::model::Work fb;
    fb.kind = ascend::model::Work::Kind::Mte1;
    fb.to_fb = true;
    fb.amount = uint64_t{p.nSize} * 8;
    issue_cube(ascend::model::PipeId::FIX, fb, "Fixpipe(L1->FB)",
               {{scales->ub_offset(), scales->ub_offset() + uint64_t{p.nSize} * 8}}, {}, 0, 0,
               false, nullptr);  // no effect of its own: the Fixpipe below reads the scales
  }
  const uint64_t dst_elems =
      nz ? uint64_t{p.nSize / dst_c0 - 1u} * nz_block + uint64_t{p.mSize} * dst_c0
         : uint64_t{mats - 1u} * dst_mat + uint64_t{p.mSize - 1u} * p.dstStride + p.nSize;
  ascend::model::Work w;
  w.amount = uint64_t{mats} * p.mSize * p.nSize * sizeof(D);
  D* l1 = nullptr;  // the L1 destination's bytes
  if (out.l1) {
    if (dst_elems > out.l1->GetSize())
      fault(std::string(name) + ": " + std::to_string(dst_elems) +
            " elements beyond its L1 LocalTensor of " + std::to_string(out.l1->GetSize()));
    local_buffer(out.l1->owner(), out.l1->ub_offset(), dst_elems * sizeof(D), 0, name, "dst (L1)");
    w.kind = ascend::model::Work::Kind::Mte1;  // a local move on the FIX pipe
    w.to_l1 = true;
    l1 = out.l1->ptr();
  } else {
    if (dst_elems > dst.GetSize())
      fault(std::string(name) + " to " + describe_gm(dst.address()) + ": " +
            std::to_string(dst_elems) + " elements beyond its GlobalTensor of " +
            std::to_string(dst.GetSize()));
    w.kind = ascend::model::Work::Kind::DmaOut;
    w.gm = dst.address();
  }
  CubeOpPtr op = cube_op();
  if (op) {
    CubeOp* self = op.get();
    LocalTensor<uint64_t> sc = scales ? *scales : LocalTensor<uint64_t>();
    const bool vector_scale = p.quantPre == VDEQF16;
    op->on_start([src, sc, p, self, vector_scale, mats, src_mat] {  // L0C read, converted
      const uint64_t per = uint64_t{p.mSize} * p.nSize;
      D* staged = self->staged<D>(mats * per);
      float scalar;
      uint32_t low = static_cast<uint32_t>(p.deqScalar);
      std::memcpy(&scalar, &low, 4);
      for (uint32_t k = 0; k < mats; ++k) {
        const S* s = src.ptr() + k * src_mat;
        D* out = staged + k * per;
        for (uint32_t j = 0; j < p.nSize; ++j) {
          float scale = scalar;
          if (vector_scale) {
            uint32_t l = static_cast<uint32_t>(sc.ptr()[j]);
            std::memcpy(&scale, &l, 4);
          }
          for (uint32_t i = 0; i < p.mSize; ++i)
            out[uint64_t{i} * p.nSize + j] =
                fix_convert<D>(s[uint64_t{j / 16} * p.srcStride * 16 + i * 16 + j % 16], p, scale);
        }
      }
    });
    // To GM under SetAtomicAdd<T> (and Max/Min): the FIX pipe's writes combine with GM's, as
    // the MTE3's do (the Matmul API's enAtomic, split-K partial sums); the mode as issued.
    auto atomic = l1 ? nullptr : state().atomic_op;
    op->on_finish([dst, l1, p, self, nz, dst_c0, nz_block, mats, dst_mat, atomic] {
      const D* staged = self->staged<D>();
      auto put = [&](uint64_t at, const D* from, uint64_t n) {  // n elements at element `at`
        if (l1) {
          std::memcpy(l1 + at, from, n * sizeof(D));
        } else if (atomic) {
          std::vector<uint8_t> sum(n * sizeof(D));
          memory().read(dst.address() + at * sizeof(D), sum.data(), sum.size());
          atomic(sum.data(), reinterpret_cast<const uint8_t*>(from), sum.size());
          memory().write(dst.address() + at * sizeof(D), sum.data(), sum.size());
        } else {
          memory().write(dst.address() + at * sizeof(D), from, n * sizeof(D));
        }
      };
      if (nz) {
        for (uint32_t b = 0; b < p.nSize / dst_c0; ++b)
          for (uint32_t i = 0; i < p.mSize; ++i)
            put(b * nz_block + uint64_t{i} * dst_c0, staged + uint64_t{i} * p.nSize + b * dst_c0,
                dst_c0);
        return;
      }
      for (uint32_t k = 0; k < mats; ++k)
        for (uint32_t i = 0; i < p.mSize; ++i)
          put(k * dst_mat + uint64_t{i} * p.dstStride,
              staged + (uint64_t{k} * p.mSize + i) * p.nSize, p.nSize);
    });
  }
  std::initializer_list<LocalRange> none = {};
  if (out.l1)
    issue_cube(ascend::model::PipeId::FIX, w, name,
               {{src.ub_offset(), src.ub_offset() + src_bytes}},
               {{out.l1->ub_offset(), out.l1->ub_offset() + dst_elems * sizeof(D)}}, 0, 0, false,
               std::move(op));
  else
    issue_cube(ascend::model::PipeId::FIX, w, name,
               {{src.ub_offset(), src.ub_offset() + src_bytes}}, none, dst.address(),
               dst.address() + dst_elems * sizeof(D), true, std::move(op));
}
}  // namespace detail

// L0C -> GM (FIXPIPE), ND rows of dstStride elements: fp32 -> fp16/bf16 (F322F16/F322BF16), int32
// x a scalar (DEQF16) or per-column (VDEQF16) fp32 scale -> fp16, fp32 -> fp32 and int32 -> int32
// (NoQuant); ReLU when reluEn. Rounding: to nearest even. The dequantization is modelled as the
// int32 converted to fp32 (nearest even), times the fp32 scale in the low 32 bits of its uint64
// (one fp32 rounding), then rounded once to fp16; the hardware's internal order is not published.
// VDEQF16 first moves its nSize uint64 scales L1 -> FB on the FIX pipe (cube.fb_bytes_per_cycle).
// The older L0C -> GM form (Ascend C API: DataCopy with DataCopyCO12DstParams): the same move as
// Fixpipe, its scalar quantization parameter and its NZ2ND matrices set beforehand in the FIX
// pipe's registers (SetFixpipePreQuantFlag, SetFixpipeNz2ndFlag). nz2ndEn false leaves NZ. The
// per-channel modes (VDEQF16 ...) read an FB tensor set by SetFixPipeConfig, which is not
// modelled here: Fixpipe with the L1 scale tensor is.
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(uint16_t n, uint16_t m, uint32_t dst_stride, uint16_t src_stride,
                        QuantMode_t quant, uint8_t relu, bool channel_split, bool nz2nd)
      : nSize(n),
        mSize(m),
        dstStride(dst_stride),
        srcStride(src_stride),
        quantPre(quant),
        reluPre(relu),
        channelSplit(channel_split),
        nz2ndEn(nz2nd) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};
inline void SetFixpipePreQuantFlag(uint64_t config) {
  detail::state().fix_pre_quant = config;
}
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride) {
  detail::CoreState& st = detail::state();
  st.fix_nd_num = ndNum;
  st.fix_src_nd_stride = srcNdStride;
  st.fix_dst_nd_stride = dstNdStride;
}
template <class D, class S>
void DataCopy(const GlobalTensor<D>& dst, const LocalTensor<S>& src,
              const DataCopyCO12DstParams& c) {
  if (c.quantPre == VDEQF16 || c.quantPre == VQF322B8_PRE || c.quantPre == VREQ8)
    detail::fault(
        "DataCopy (L0C -> GM): the per-channel modes read SetFixPipeConfig's FB tensor, which is "
        "not modelled (Fixpipe with the L1 scale tensor is)");
  if (c.channelSplit || c.clipReluPre || c.eltWiseOp)
    detail::fault("DataCopy (L0C -> GM): channelSplit, clipReluPre and eltWiseOp are not modelled");
  const detail::CoreState& st = detail::state();
  FixpipeParamsV220 p;
  p.nSize = c.nSize;
  p.mSize = c.mSize;
  p.srcStride = c.srcStride;
  p.dstStride = c.dstStride;
  p.quantPre = c.quantPre;
  p.deqScalar = st.fix_pre_quant;
  p.reluEn = c.reluPre != 0;
  p.unitFlag = c.unitFlag;
  if (c.nz2ndEn) {
    if (st.fix_dst_nd_stride > UINT16_MAX)
      detail::fault("DataCopy (L0C -> GM): dstNdStride " + std::to_string(st.fix_dst_nd_stride) +
                    " beyond 65535 is not modelled");
    p.ndNum = st.fix_nd_num;
    p.srcNdStride = st.fix_src_nd_stride;
    p.dstNdStride = static_cast<uint16_t>(st.fix_dst_nd_stride);
  }
  detail::fixpipe(detail::FixDst<D>{dst}, src, nullptr, p,
                  c.nz2ndEn ? CO2Layout::ROW_MAJOR : CO2Layout::NZ);
}

// The FIX pipe's configuration register (Ascend C API: SetFixPipeConfig): the address of the
// per-channel quantization parameters in the fixpipe buffer, and a clear of L0C's unit flags.
// Unit flags are not modelled (an Mmad's or Fixpipe's unitFlag changes nothing: the M -> FIX
// order comes from the program's M_FIX flags), so the clear has nothing to clear; the
// per-channel parameters are passed to Fixpipe as its L1 tensor (VDEQF16), and a VDEQF16 Fixpipe
// without one faults.
template <class T>
void SetFixPipeConfig(const LocalTensor<T>&, bool isUnitFlag = false) {
  (void)isUnitFlag;
}
template <class T>
void SetFixPipeConfig(const LocalTensor<T>&, const LocalTensor<T>&, bool isUnitFlag = false) {
  (void)isUnitFlag;
}

template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p) {
  static_assert(!config.isToUB && !config.enableFixVal,
                "Fixpipe: isToUB/enableFixVal are not on dav-2201");
  detail::fixpipe(detail::FixDst<D>{dst}, src, nullptr, p, config.format);
}
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src,
             const LocalTensor<uint64_t>& cbufWorkspace, const FixpipeParamsV220& p) {
  static_assert(!config.isToUB && !config.enableFixVal,
                "Fixpipe: isToUB/enableFixVal are not on dav-2201");
  detail::fixpipe(detail::FixDst<D>{dst}, src, &cbufWorkspace, p, config.format);
}
// L0C -> L1 (a C1/A1/B1 tensor), the same conversions and layouts, at cube.fix_l1_bytes_per_cycle
// on the FIX pipe; ordered after by FIX_MTE1 / FIX_MTE3 flags.
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p) {
  static_assert(!config.isToUB && !config.enableFixVal,
                "Fixpipe: isToUB/enableFixVal are not on dav-2201");
  detail::fixpipe(detail::FixDst<D>{GlobalTensor<D>(), &dst}, src, nullptr, p, config.format);
}
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src,
             const LocalTensor<uint64_t>& cbufWorkspace, const FixpipeParamsV220& p) {
  static_assert(!config.isToUB && !config.enableFixVal,
                "Fixpipe: isToUB/enableFixVal are not on dav-2201");
  detail::fixpipe(detail::FixDst<D>{GlobalTensor<D>(), &dst}, src, &cbufWorkspace, p,
                  config.format);
}

// L1 (C1) -> BiasTable (C2) on MTE1: blockLen 32-B blocks of fp32 bias (or fp16, widened), or of
// int32 bias for an int8 Mmad.
template <class B, class S,
          std::enable_if_t<std::is_same_v<B, float> || std::is_same_v<B, int32_t>, int> = 0>
void DataCopy(const LocalTensor<B>& dst, const LocalTensor<S>& src, const DataCopyParams& p) {
  const char* name = "DataCopy(L1->BT)";
  detail::require_aic(name);
  static_assert(std::is_same_v<B, float> ? std::is_same_v<S, float> || std::is_same_v<S, half>
                                         : std::is_same_v<S, int32_t>,
                "the bias goes into the BiasTable from fp32 or fp16 (float), or int32 (int32)");
  if (p.blockCount != 1) detail::fault(std::string(name) + ": one block only");
  const uint64_t src_bytes = uint64_t{p.blockLen} * 32;
  const uint64_t n = src_bytes / sizeof(S);
  detail::local_buffer(src.owner(), src.ub_offset(), src_bytes, 0, name, "src (L1)");
  detail::local_buffer(dst.owner(), dst.ub_offset(), n * 4, 4, name, "dst (BT)");
  ascend::model::Work w;
  w.kind = ascend::model::Work::Kind::Mte1;
  w.amount = src_bytes;
  detail::CubeOpPtr op = detail::cube_op();
  if (op)
    op->on_finish([dst, src, n] {
      for (uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<B, int32_t>) {
          dst.ptr()[i] = src.ptr()[i];
        } else {
          dst.ptr()[i] = static_cast<float>(to_double(src.ptr()[i]));
        }
      }
    });
  detail::issue_cube(ascend::model::PipeId::MTE1, w, name,
                     {{src.ub_offset(), src.ub_offset() + src_bytes}},
                     {{dst.ub_offset(), dst.ub_offset() + n * 4}}, 0, 0, false, std::move(op));
}

// L1 -> fixpipe buffer (FB) of per-channel quantization parameters (Ascend C API: DataCopy, L1 to
// FB), read by the FIX registers that SetFixPipeConfig sets. Not modelled: a VDEQF16 Fixpipe takes
// its L1 scale tensor and moves it to the FB itself. A kernel that names it compiles; running it
// is a kernel fault.
template <class T, std::enable_if_t<std::is_same_v<T, uint64_t>, int> = 0>
void DataCopy(const LocalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&) {
  detail::fault(
      "DataCopy L1 -> FB (fixpipe buffer) is not modelled: pass the L1 scale tensor to Fixpipe "
      "(VDEQF16)");
}

// ---- the AIC and AIV together ----

// The kind of core running the code (Ascend C compiles a mixed kernel once per kind).
inline bool IsAic() {
  return detail::core().core_kind() == ascend::model::CoreKind::Aic;
}
#define ASCEND_IS_AIC (::AscendC::IsAic())
#define ASCEND_IS_AIV (!::AscendC::IsAic())
#define ASCEND_IS_NOT_AIC (!::AscendC::IsAic())
#define ASCEND_IS_NOT_AIV (::AscendC::IsAic())

// Which AIV of its AI Core (0 or 1) in a 1:2 mixed kernel; 0 elsewhere.
inline int64_t GetSubBlockIdx() {
  return detail::core().sub_block_idx();
}
// Cores of the caller's kind per AIC: 2 on an AIV of a 1:2 mixed kernel, 1 on an AIC and
// elsewhere (so GetBlockIdx() / GetTaskRation() is the AI Core on either kind).
inline int64_t GetTaskRation() {
  return detail::core().task_ration();
}

namespace detail {
void cross_set(int mode, pipe_t pipe, int flag);
void cross_wait(int mode, int flag);
// An AIC sets flag `flag` (a KFC flag, models/core.h) of its AIV `sub` once `pipe`'s earlier
// instructions are done.
void kfc_pipe_set(pipe_t pipe, int sub, uint32_t flag);
}  // namespace detail

// Sets cross-core flag `flagId` of this core's peers once the earlier instructions of `pipe` have
// completed: mode 0 every core of its kind in the launch, 1 both AIVs of its AI Core, 2 an AIC's
// AIVs (from the AIC) or its AIC (from an AIV).
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId) {
  detail::cross_set(modeId, pipe, flagId);
}
// Waits (the scalar stops issuing) until the flag's counter covers the mode's sets (mode 0: the
// round in which every core of the kind has set it, a barrier; 1: both AIVs; 2: an AIV waits for
// its AIC's set, an AIC for all its AIVs'), then takes them.
template <uint8_t modeId = 2, pipe_t pipe = PIPE_S>
void CrossCoreWaitFlag(uint16_t flagId) {
  detail::cross_wait(modeId, flagId);
}

}  // namespace AscendC
