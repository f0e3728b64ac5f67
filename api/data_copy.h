// Data movement between GM and UB: DataCopy (32-B multiples, optionally strided) and DataCopyPad.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "api/tensor.h"

namespace AscendC {

constexpr uint32_t DEFAULT_C0_SIZE = 32;  // bytes of a data block, the unit of DataCopyParams

struct DataCopyParams {  // lengths and gaps in 32-B blocks
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};
struct DataCopyExtParams {  // blockLen in bytes; the GM-side gap in bytes, the UB-side in 32-B
                            // blocks
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
template <class T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue{};
};

namespace detail {
// An atomic copy-out's element-wise update of what GM holds: g = op(g, s).
template <class T, class Op>
void atomic_bytes(uint8_t* gm, const uint8_t* src, uint64_t bytes) {
  for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) {
    T g, s;
    std::memcpy(&g, gm + i, sizeof(T));
    std::memcpy(&s, src + i, sizeof(T));
    T r = Op{}(g, s);
    std::memcpy(gm + i, &r, sizeof(T));
  }
}
struct AtomicAddOp {
  template <class T>
  T operator()(T g, T s) const {
    return add(g, s);
  }
};
struct AtomicMaxOp {
  template <class T>
  T operator()(T g, T s) const {
    return s > g ? s : g;
  }
};
struct AtomicMinOp {
  template <class T>
  T operator()(T g, T s) const {
    return s < g ? s : g;
  }
};
}  // namespace detail

// From here on, this core's DataCopy/DataCopyPad to GM combine their elements (of type T) with
// what GM holds, until SetAtomicNone/DisableDmaAtomic: SetAtomicAdd adds (floats rounded to
// nearest even, integers wrap), SetAtomicMax/SetAtomicMin keep the larger/smaller. The mode is
// taken when the copy is issued, as the MTE3 reads it in program order.
template <class T>
void SetAtomicAdd() {
  detail::state().atomic_op = &detail::atomic_bytes<T, detail::AtomicAddOp>;
}
template <class T>
void SetAtomicMax() {
  detail::state().atomic_op = &detail::atomic_bytes<T, detail::AtomicMaxOp>;
}
template <class T>
void SetAtomicMin() {
  detail::state().atomic_op = &detail::atomic_bytes<T, detail::AtomicMinOp>;
}
inline void SetAtomicNone() {
  detail::state().atomic_op = nullptr;
}
inline void DisableDmaAtomic() {
  SetAtomicNone();
}

namespace detail {
// The descriptor of a copy between `g` and `l`, bounded by both tensors, in the direction given.
template <class T>
DmaDesc copy_desc(const GlobalTensor<T>& g, const LocalTensor<T>& l, bool to_gm,
                  const char* name = "DataCopy") {
  DmaDesc d;
  d.name = name;
  d.to_gm = to_gm;
  d.gm = d.gm_lo = g.address();
  d.gm_hi = g.address() + bytes_of<T>(g.GetSize());
  d.l2_bypass = g.GetL2CacheHint() == CacheMode::CACHE_MODE_DISABLE;
  bind_ub(d, l);
  return d;
}
// DataCopy of `count` contiguous elements (a multiple of 32 B).
template <class T>
void copy_count(DmaDesc d, uint32_t count) {
  d.block_bytes = static_cast<uint32_t>(bytes_of<T>(count));
  if (d.block_bytes % 32)
    fault("DataCopy of " + std::to_string(d.block_bytes) +
          " B: not a multiple of 32 B (use DataCopyPad)");
  issue_dma(d);
}
// DataCopy in 32-B blocks; the UB-side stride is src's for a copy out, dst's for a copy in.
inline void copy_blocks(DmaDesc d, const DataCopyParams& p) {
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen * 32u;
  uint64_t gm_gap = d.to_gm ? p.dstStride : p.srcStride,
           ub_gap = d.to_gm ? p.srcStride : p.dstStride;
  d.gm_stride = (uint64_t{p.blockLen} + gm_gap) * 32;
  d.ub_stride = (uint64_t{p.blockLen} + ub_gap) * 32;
  issue_dma(d);
}
}  // namespace detail

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  detail::copy_count<T>(detail::copy_desc(src, dst, false), count);
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  detail::copy_count<T>(detail::copy_desc(dst, src, true), count);
}
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  detail::copy_blocks(detail::copy_desc(src, dst, false), p);
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  detail::copy_blocks(detail::copy_desc(dst, src, true), p);
}

// One dimension of a sliced copy (Ascend C API: DataCopy with SliceInfo): elements [startIndex,
// endIndex] of a dimension of shapeValue elements, taken as pieces separated by `stride`
// elements. In the innermost dimension a piece is burstLen 32-B blocks; in the others it is one
// index (burstLen 1).
struct SliceInfo {
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 0;
  uint32_t shapeValue = 0;
};
// K_MAX_DIM: api/data_format.h (with ShapeInfo).

namespace detail {
// The element offset of every piece of a slice, in order (the outer dimensions vary slowest).
template <class T>
std::vector<uint64_t> slice_pieces(const SliceInfo* s, uint32_t dims, const char* side) {
  if (dims == 0 || dims > K_MAX_DIM)
    fault("DataCopy(SliceInfo): dimValue " + std::to_string(dims) + " outside [1, 8]");
  const uint32_t burst = s[0].burstLen * 32 / sizeof(T);
  for (uint32_t d = 0; d < dims; ++d) {
    const SliceInfo& x = s[d];
    const uint32_t piece = d == 0 ? burst : 1;
    const uint32_t span = x.endIndex - x.startIndex + 1;
    if (x.startIndex >= x.endIndex || x.endIndex > x.shapeValue || piece == 0 ||
        (d > 0 && x.burstLen != 1) || (span + x.stride) % (piece + x.stride) != 0)
      fault(std::string("DataCopy(SliceInfo): the ") + side + " slice of dimension " +
            std::to_string(d) +
            " breaks startIndex < endIndex <= shapeValue, burstLen 1 past the first "
            "dimension, or endIndex - startIndex + 1 = (N - 1) x stride + N x piece");
  }
  std::vector<uint64_t> pieces{0};
  uint64_t pitch = 1;
  for (uint32_t d = 0; d < dims; ++d) {
    const SliceInfo& x = s[d];
    const uint32_t piece = d == 0 ? burst : 1;
    std::vector<uint64_t> next;
    for (uint64_t i = x.startIndex; i + piece <= uint64_t{x.endIndex} + 1; i += piece + x.stride)
      for (uint64_t inner : pieces) next.push_back(i * pitch + inner);
    pieces = std::move(next);
    pitch *= x.shapeValue;
  }
  return pieces;
}
// Copies piece by piece, as the API's library code does: one DMA of burstLen blocks per piece.
template <class T, class Copy>
void slice_copy(const SliceInfo* dst, const SliceInfo* src, uint32_t dims, Copy copy) {
  for (uint32_t d = 0; d < dims && d < K_MAX_DIM; ++d)
    if (dst[d].burstLen != src[d].burstLen)
      fault("DataCopy(SliceInfo): dimension " + std::to_string(d) +
            " has different burstLen in dst and src");
  const std::vector<uint64_t> to = slice_pieces<T>(dst, dims, "dst"),
                              from = slice_pieces<T>(src, dims, "src");
  if (to.size() != from.size())
    fault("DataCopy(SliceInfo): dst has " + std::to_string(to.size()) + " pieces, src " +
          std::to_string(from.size()));
  DataCopyParams p;
  p.blockLen = static_cast<uint16_t>(src[0].burstLen);
  for (size_t i = 0; i < to.size(); ++i) copy(to[i], from[i], p);
}
}  // namespace detail

template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  detail::slice_copy<T>(dstSliceInfo, srcSliceInfo, dimValue,
                        [&](uint64_t to, uint64_t from, const DataCopyParams& p) {
                          if (to > dst.GetSize())
                            detail::fault("DataCopy(SliceInfo): a piece beyond the LocalTensor");
                          DataCopy(dst[static_cast<uint32_t>(to)], src[from], p);
                        });
}
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  detail::slice_copy<T>(dstSliceInfo, srcSliceInfo, dimValue,
                        [&](uint64_t to, uint64_t from, const DataCopyParams& p) {
                          if (from > src.GetSize())
                            detail::fault("DataCopy(SliceInfo): a piece beyond the LocalTensor");
                          DataCopy(dst[to], src[static_cast<uint32_t>(from)], p);
                        });
}

// The register DataCopyPad pads with when its isPad is false (Ascend C API: SetPadValue); without
// it, such padding is undefined on the hardware and keeps what the UB held here. A register set
// for a type of another width is not used.
template <class T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8);
  static_assert(pos == TPosition::MAX || pos == TPosition::VECIN || pos == TPosition::VECOUT,
                "SetPadValue: the destination is VECIN, VECOUT or MAX");
  detail::CoreState& st = detail::state();
  std::memcpy(st.pad_register.data(), &paddingValue, sizeof(T));
  st.pad_register_bytes = sizeof(T);
}

template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad = {}) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  static_assert(sizeof(T) <= 8);
  detail::DmaDesc d = detail::copy_desc(src, dst, false, "DataCopyPad");
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen;
  d.pad_left = pad.leftPadding * sizeof(T);
  d.pad_right = pad.rightPadding * sizeof(T);
  d.pad_elem = sizeof(T);
  const detail::CoreState& st = detail::state();
  if (pad.isPad) {
    d.pad = true;
    std::memcpy(d.pad_value, &pad.paddingValue, sizeof(T));
  } else if (st.pad_register_bytes == sizeof(T)) {  // SetPadValue<T> was called
    d.pad = true;
    std::memcpy(d.pad_value, st.pad_register.data(), sizeof(T));
  }
  d.gm_stride = uint64_t{p.blockLen} + p.srcStride;
  d.ub_stride =
      (uint64_t{d.pad_left} + p.blockLen + d.pad_right + 31) / 32 * 32 + uint64_t{p.dstStride} * 32;
  detail::issue_dma(d);
}

// The older form (Ascend C API: DataCopyPad with DataCopyParams and DataCopyPadParams): the same
// copy, blockLen in bytes here too; paddingValue's low sizeof(T) bytes are the element.
struct DataCopyPadParams {
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  uint64_t paddingValue = 0;
};
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  DataCopyPadExtParams<T> ext;
  ext.isPad = pad.isPad;
  ext.leftPadding = pad.leftPadding;
  ext.rightPadding = pad.rightPadding;
  std::memcpy(&ext.paddingValue, &pad.paddingValue, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0},
              ext);
}

template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  detail::DmaDesc d = detail::copy_desc(dst, src, true, "DataCopyPad");
  d.block_count = p.blockCount;
  d.block_bytes = p.blockLen;
  d.ub_stride = (uint64_t{p.blockLen} + 31) / 32 * 32 + uint64_t{p.srcStride} * 32;
  d.gm_stride = uint64_t{p.blockLen} + p.dstStride;
  detail::issue_dma(d);
}
// The same with the older parameter struct (blockLen in bytes, as DataCopyExtParams').
template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  static_assert(!detail::is_int4<T>,
                "ascend-sim: DataCopyPad and the sliced DataCopy of int4b_t are not modelled");
  DataCopyPad(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0});
}

}  // namespace AscendC
